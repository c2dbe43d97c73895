echo "<6>BUG: sleeping function called from invalid context at mm/x.c:1" > /dev/kmsg
