echo "<6>WARNING: possible circular locking dependency detected" > /dev/kmsg
