## testsuite/kernel/local.mk -- the kernel tier (testsuite/kernel/run):
## the tapsets and examples built as modules and run in ONE VM boot, plus
## a short second boot with 288 possible CPUs (manycpus.vmtest), and a
## third with module.sig_enforce=1 (sigenforce.vmtest: taprun's messages
## for an unsigned module and one signed by a key the kernel lacks).
## `make check-kernel` runs it alone; `make check` runs it as
## testsuite/kernel/kernel.test, skipped (77) without qemu or kernel
## headers.  About 190 s of boot for 80 tests plus the module builds
## (~2 min the first time with the runtime built apart, cached after).

TAP_KERNEL_FILES = \
	testsuite/kernel/run \
	testsuite/kernel/check \
	testsuite/kernel/kernel.vmtest \
	testsuite/kernel/manycpus.vmtest \
	testsuite/kernel/sigenforce.vmtest \
	testsuite/kernel/tests/sigcheck.stp \
	testsuite/kernel/tests/rotate.stp \
	testsuite/kernel/tests/flight.stp \
	testsuite/kernel/kworkload.c \
	testsuite/kernel/procfs-work.sh \
	testsuite/kernel/cpuonline-work.sh \
	testsuite/kernel/dpath-work.sh \
	testsuite/kernel/prom-lint \
	testsuite/kernel/flight-summary \
	testsuite/kernel/tests/prom_metrics.stp \
	testsuite/kernel/tests/prom_check \
	testsuite/kernel/tests/lang_prometheus.stp \
	testsuite/kernel/tests/lang_prometheus.out \
	testsuite/kernel/tests/lang_json.stp \
	testsuite/kernel/tests/lang_json.out \
	testsuite/kernel/tests/json_twice.stp \
	testsuite/kernel/tests/json_check \
	testsuite/kernel/example-args \
	testsuite/kernel/tests/dpath.stp \
	testsuite/kernel/tests/dpath.out \
	testsuite/kernel/tests/cpuonline.stp \
	testsuite/kernel/tests/lostcount.stp \
	testsuite/kernel/tests/libfuncs.stp \
	testsuite/kernel/tests/switchfile.stp \
	testsuite/kernel/tests/switchfile.out \
	testsuite/kernel/tests/argstr.stp \
	testsuite/kernel/tests/backtrace.stp \
	testsuite/kernel/tests/btf_autocast.out \
	testsuite/kernel/tests/btf_autocast.stp \
	testsuite/kernel/tests/btf_check \
	testsuite/kernel/tests/btf_fault.stp \
	testsuite/kernel/tests/btf_sched.stp \
	testsuite/kernel/tests/btf_sched.out \
	testsuite/kernel/tests/btf_types.stp \
	testsuite/kernel/tests/btf_types.out \
	testsuite/kernel/tests/btf_vfs_read.stp \
	testsuite/kernel/tests/btf_vfs_read.out \
	testsuite/kernel/tests/btf_write.stp \
	testsuite/kernel/tests/context.stp \
	testsuite/kernel/tests/counts.stp \
	testsuite/kernel/tests/timing.stp \
	testsuite/kernel/tests/countmap.stp \
	testsuite/kernel/tests/errors.stp \
	testsuite/kernel/tests/exit.stp \
	testsuite/kernel/tests/exit_profile.stp \
	testsuite/kernel/tests/exit_timer.stp \
	testsuite/kernel/tests/families.stp \
	testsuite/kernel/tests/families.out \
	testsuite/kernel/tests/familyvars.stp \
	testsuite/kernel/tests/familyvars.out \
	testsuite/kernel/tests/fault.stp \
	testsuite/kernel/tests/locks.stp \
	testsuite/kernel/tests/overload.stp \
	testsuite/kernel/tests/locks.out \
	testsuite/kernel/tests/lockdepth.stp \
	testsuite/kernel/tests/maxaction.stp \
	testsuite/kernel/tests/maxnesting.stp \
	testsuite/kernel/tests/maxskipped.stp \
	testsuite/kernel/tests/missed.stp \
	testsuite/kernel/tests/perf.stp \
	testsuite/kernel/tests/perf.out \
	testsuite/kernel/tests/perf_hw.stp \
	testsuite/kernel/tests/openmissing.stp \
	testsuite/kernel/tests/openmissing.out \
	testsuite/kernel/tests/procfs.stp \
	testsuite/kernel/tests/procfs.out \
	testsuite/kernel/tests/procfs_other.stp \
	testsuite/kernel/tests/timer_profile.stp \
	testsuite/kernel/tests/relayflush.stp \
	testsuite/kernel/tests/relayflush_check \
	testsuite/kernel/tests/skip.stp \
	testsuite/kernel/tests/tapset_inode_path.out \
	testsuite/kernel/tests/tapset_inode_path.stp \
	testsuite/kernel/tests/tapset_kwrite.out \
	testsuite/kernel/tests/tapset_kwrite.stp \
	testsuite/kernel/tests/tapset_sizeof.out \
	testsuite/kernel/tests/tapset_sizeof.stp \
	testsuite/kernel/tests/tapset_stack.out \
	testsuite/kernel/tests/tapset_stack.stp \
	testsuite/kernel/tests/target_x.stp \
	testsuite/kernel/tests/timeout.stp \
	testsuite/kernel/tests/timer_jiffies.stp \
	testsuite/kernel/tests/timers.stp \
	testsuite/kernel/tests/timers.out \
	examples/cswitch.stp \
	examples/errsnoop.stp \
	examples/execsnoop.stp \
	examples/iotop.stp \
	examples/opensnoop.stp \
	examples/shortlived.stp \
	examples/systime.stp \
	examples/topsys.stp \
	examples/biolatency.stp \
	examples/profile.stp \
	examples/funccount.stp \
	examples/syscount.stp \
	examples/killsnoop.stp \
	examples/vfsstat.stp \
	examples/runqlat.stp \
	examples/offcputime.stp \
	examples/funclatency.stp \
	examples/biosnoop.stp \
	examples/tcpconnect.stp \
	examples/tcpaccept.stp \
	examples/tcpretrans.stp \
	examples/cachestat.stp \
	examples/stackcount.stp

EXTRA_DIST += $(TAP_KERNEL_FILES) testsuite/kernel/kernel.test
TESTS += testsuite/kernel/kernel.test

check-kernel: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/kernel/run

.PHONY: check-kernel
