#!/bin/sh
# cpuonline-work.sh -- the workload of the kernel tier's cpuonline test
# (tests/cpuonline.stp), run by `taprun -c` once the probes are armed:
# CPU 1 (taken down before taprun started) comes up, and 50 getppid()
# calls run pinned to it, then 10 on CPU 0.
echo 1 > /sys/devices/system/cpu/cpu1/online || exit 1
taskset -c 1 /tap/files/kworkload getppid 50 > /dev/null || exit 1
taskset -c 0 /tap/files/kworkload getppid 10 > /dev/null
