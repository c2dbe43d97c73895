echo "<6>INFO: task kworker/0:1:12 blocked for more than 120 seconds." > /dev/kmsg
