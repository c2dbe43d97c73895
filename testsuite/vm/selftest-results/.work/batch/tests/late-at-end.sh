( sleep 0.5; echo "<6>WARNING: CPU: 1 PID: 1 at kernel/end.c:1 end+0x0/0x10" > /dev/kmsg ) &
