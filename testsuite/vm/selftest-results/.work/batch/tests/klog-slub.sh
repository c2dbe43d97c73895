echo "<6>BUG kmalloc-64 (Tainted: G O): Poison overwritten" > /dev/kmsg
