#!/bin/sh
# procfs-work.sh -- the workload of the kernel tier's procfs test: reads,
# writes and looks at the files tests/procfs.stp makes; what it sees goes
# to /tmp/procfs.log (the module's own output is the test's stdout).
d=/proc/systemtap/tk_procfs
{
	cat $d/hello
	cat $d/hello
	stat -c '%a %n' $d/hello $d/dir/sub/big $d/small $d/command
	wc -c < $d/dir/sub/big
	head -n 2 $d/dir/sub/big
	tail -n 1 $d/dir/sub/big
	cat $d/small; echo
	cat /proc/systemtap/tk_procfs_other/other
	cat $d/command > /dev/null 2>&1 || echo 'command: no read probe, read refused'
	# by default only root may read or write the files (0400, 0200)
	kworkload asuser sh -c "echo x > $d/command" 2> /dev/null ||
		echo 'command: write as another user refused'
	kworkload asuser cat $d/hello > /dev/null 2>&1 ||
		echo 'hello: read as another user refused'
} > /tmp/procfs.log 2>&1
echo hi > $d/command
printf 'one\n' > $d/dir/sub/big
head -c 1000 /dev/zero | tr '\0' x > /tmp/x1000
# one write(2) of 1000 bytes: the file takes 511, dd writes the rest
dd if=/tmp/x1000 of=$d/command bs=1000 count=1 2> /dev/null
