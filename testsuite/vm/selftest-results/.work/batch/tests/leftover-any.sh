insmod /tap/mod/dummy.ko
