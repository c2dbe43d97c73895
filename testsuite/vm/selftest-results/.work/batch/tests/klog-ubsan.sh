echo "<6>UBSAN: shift-out-of-bounds in kernel/x.c:1:2" > /dev/kmsg
