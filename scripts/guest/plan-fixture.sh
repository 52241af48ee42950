# SPDX-License-Identifier: GPL-2.0
# Guest plan: one short sysloop run over all modes, recorded per-stage and
# compact, as analyzer test fixtures.  /plan.env sets N and MODES.
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
# per-stage mode: one event per stage, and the stamp calibration
stage_ev="-e entry_stage:entry_stage_time -e entry_stage:entry_stage_calib"
compact_ev="-e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib"
# sched_switch with the per-stage events: off-CPU time inside a syscall is
# then seen for what it is (the compact file stays entry_stage alone)
trace-cmd record -q -b 8192 $stage_ev -e sched:sched_switch \
	-o $out/stage.dat -F -c \
	/work/sysloop -n $N $MODES >$out/stage.expect
trace-cmd record -q -b 8192 $compact_ev -o $out/compact.dat -F -c \
	/work/sysloop -n $N $MODES >$out/compact.expect
# packed compact mode (series v4), when the kernel has it: the workload
# writes batch_flush at its end, so that its last batches are in the ring
# buffer before trace-cmd stops it; no -F: every task is staged, a batch
# holds every task's records and is written by whichever task fills it
B=/sys/module/entry_stage/parameters/batch_flush
if [ -e $B ]; then
	trace-cmd record -q -b 8192 -e entry_stage:entry_stage_batch -e entry_stage:entry_stage_calib \
		-o $out/batch.dat sh -c "/work/sysloop -n $N $MODES; echo 1 >$B" >$out/batch.expect
	cat $out/batch.expect
	# with more than one CPU, a task that changes CPU between its
	# syscalls (workloads/migrate.c: 20 rounds of 50 getppid, on CPU 0
	# and 1 in turn), so that its records lie in both CPUs' batches, a
	# batch of one CPU still open while the other's are written
	if [ "$(busybox nproc)" -gt 1 ]; then
		trace-cmd record -q -b 8192 -e entry_stage:entry_stage_batch \
			-e entry_stage:entry_stage_calib -o $out/migrate.dat \
			sh -c "/work/migrate 20 50; echo 1 >$B" >$out/migrate.expect
		cat $out/migrate.expect
	fi
fi
trace-cmd --version >$out/trace-cmd.version 2>&1 || true
cat $out/stage.expect $out/compact.expect
