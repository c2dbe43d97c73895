#!/bin/sh
# bandaid-work.sh -- the workload of the kernel tier's bandaid test
# (tests/bandaid.stp, livepatch.stp's switches): lseek with the fix on,
# the switches and metrics read through procfs, the fix switched off,
# lseek again, a pause; what it sees goes to /tmp/bandaid.log.
d=/proc/systemtap/tk_bandaid
{
	kworkload lseek
	echo "fix $(cat $d/cve_fix_p) enabled $(cat $d/cve_enabled_p)"
	echo 0 > $d/cve_fix_p
	kworkload lseek
	grep hit $d/metrics
	grep -c 'tk_bandaid{metric="runtime"}' $d/metrics
	echo 5 > $d/cve_tmpdisabled_s
	echo "paused: enabled $(cat $d/cve_enabled_p) for $(cat $d/cve_tmpdisabled_s) s"
	kworkload lseek | grep 'to 3'
	grep hit $d/metrics
} > /tmp/bandaid.log 2>&1
