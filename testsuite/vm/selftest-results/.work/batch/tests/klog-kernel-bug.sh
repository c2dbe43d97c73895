echo "<6>kernel BUG at mm/slub.c:123!" > /dev/kmsg
