#!/bin/sh
# dpath-work.sh -- the workload of the kernel tier's dpath test
# (tests/dpath.stp), run by `taprun -c`: dd reads files on several
# mounts, an unlinked file and a pipe, then reads a file for 10 seconds
# while another process renames its directory back and forth.
echo hello > /tmp/dpath-file
mkdir -p /tmp/dpath-dir/sub && echo x > /tmp/dpath-dir/sub/f
for f in /proc/sys/kernel/ostype /sys/kernel/uevent_seqnum /tmp/dpath-file \
	/tmp/dpath-dir/sub/f; do
	dd if="$f" of=/dev/null 2> /dev/null
done
echo gone > /tmp/dpath-gone
exec 3< /tmp/dpath-gone
rm /tmp/dpath-gone
dd of=/dev/null <&3 2> /dev/null
exec 3<&-
echo through | dd of=/dev/null 2> /dev/null
mkdir -p /tmp/ren/a && echo y > /tmp/ren/a/f
( while [ ! -e /tmp/ren-stop ]; do
	mv /tmp/ren/a /tmp/ren/b; mv /tmp/ren/b /tmp/ren/a
  done ) &
end=$(( $(date +%s) + 10 ))
while [ "$(date +%s)" -lt "$end" ]; do
	dd if=/tmp/ren/a/f of=/dev/null 2> /dev/null ||
		dd if=/tmp/ren/b/f of=/dev/null 2> /dev/null
done
touch /tmp/ren-stop
wait
