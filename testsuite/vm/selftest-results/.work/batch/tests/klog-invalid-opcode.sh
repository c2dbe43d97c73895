echo "<6>invalid opcode: 0000 [#1] PREEMPT SMP NOPTI" > /dev/kmsg
