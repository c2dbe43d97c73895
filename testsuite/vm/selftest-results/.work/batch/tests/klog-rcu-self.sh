echo "<6>rcu: INFO: rcu_preempt self-detected stall on CPU" > /dev/kmsg
