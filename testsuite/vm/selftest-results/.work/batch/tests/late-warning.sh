( sleep 1; echo "<6>WARNING: CPU: 0 PID: 1 at kernel/late.c:1 late+0x0/0x10" > /dev/kmsg ) &
