#!/bin/sh
# vm-work.sh -- the workloads of the example collection's VM tier
# (testsuite/examples/vm-run), run in the guest as taprun's -c command.
# Each is short (well under a second of the guest's time, but for the
# sleeps it names) and does a known set of things the examples watch:
#
#   vm-work.sh mix [WAIT]   files written, read, opened missing; a fork,
#                      an exec, a sleep, signals (SIGUSR1, ignored, then
#                      SIGKILL to a child sh), a TCP and a UDP exchange on
#                      127.0.0.1, direct reads of the disk's first blocks,
#                      64 anonymous pages written; then WAIT seconds of
#                      sleep (for a script that prints on a timer)
#   vm-work.sh disk    files written with O_DIRECT on the scratch disk
#                      (/dev/vda, ext2), then read back
#   vm-work.sh sleep MS     kworkload tick: 10 sleeps of MS milliseconds
set -u
PATH=/tap/files:$PATH

mix() {
	mkdir -p /tmp/w && cd /tmp/w || exit 1
	for i in 1 2 3; do
		echo "data $i" > f$i
		cat f$i > /dev/null
	done
	ls /tmp/w > /dev/null			# an exec
	cat /tmp/w/missing 2> /dev/null		# ENOENT
	kworkload openmissing 5
	kworkload fork 3
	kworkload getppid 50 > /dev/null
	kworkload tick 5 20
	sh -c 'trap "" USR1; sleep 5' &
	sleep 0.2
	kill -USR1 $!
	kill -KILL $!
	wait
	kworkload tcp 5000
	kworkload udp 5 5001
	dd if=/dev/vda of=/dev/null bs=512 count=1 iflag=direct 2> /dev/null
	dd if=/dev/vda of=/dev/null bs=4k count=64 iflag=direct 2> /dev/null
	kworkload mmap 64
	rm -rf /tmp/w
	[ -z "${1:-}" ] || sleep "$1"
}

disk() {
	mkdir -p /tmp/d && mount -t ext2 /dev/vda /tmp/d || exit 1
	dd if=/dev/zero of=/tmp/d/f bs=4k count=100 oflag=direct 2> /dev/null
	dd if=/tmp/d/f of=/dev/null bs=4k iflag=direct 2> /dev/null
	sync
	rm -f /tmp/d/f
	umount /tmp/d
}

case ${1:-mix} in
mix) mix "${2:-}" ;;
disk) disk ;;
sleep) kworkload tick 10 "${2:-50}" ;;
*) echo "vm-work.sh: unknown workload $1" >&2; exit 2 ;;
esac
