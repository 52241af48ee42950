# SPDX-License-Identifier: GPL-2.0
# Guest plan: the same sysloop run recorded twice, once compact (one
# entry_stage_summary per syscall) and once aggregated (entry_stage_hist:
# the kernel's per-CPU cells, written by one flush at the end), so that
# the analyzer's figures from the two can be compared.
# /plan.env sets N (iterations per mode) and MODES.
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
M=/sys/module/entry_stage/parameters
[ -d $T/events/entry_stage/entry_stage_hist ] || { echo "no entry_stage_hist event"; exit 1; }
trace-cmd record -q -b 8192 -e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib \
	-o $out/compact.dat -F -c /work/sysloop -n $N $MODES >$out/compact.out 2>$out/compact.err
cat $out/compact.out
# no -F: the flush writes every task's cells, in the context of the writer
trace-cmd record -q -b 8192 -e entry_stage:entry_stage_hist -o $out/aggregate.dat \
	sh -c "/work/sysloop -n $N $MODES; echo 1 >$M/hist_flush" \
	>$out/aggregate.out 2>$out/aggregate.err
cat $out/aggregate.out
echo "hist_dropped $(cat $M/hist_dropped)" | tee $out/aggregate.dropped
trace-cmd report -i $out/aggregate.dat 2>/dev/null | grep -c 'entry_stage_hist:' >$out/aggregate.cells || true
echo "cells $(cat $out/aggregate.cells)"
# the analyzer's own recorder, where the guest has it (kernel-guest --bin
# entrytrace): --aggregate flushes the cells into its recording at the end,
# --batch the open batches
if command -v entrytrace >/dev/null; then
	entrytrace record -q --aggregate -o $out/own.dat -- /work/sysloop -n $N $MODES \
		>$out/own.out 2>$out/own.err
	cat $out/own.out
	# --batch (series v4): no pid filter; the kernel arms the command's
	# thread group and what it forks (entry_stage.pid), so the sysloop the
	# shell forks (the "; true" keeps the shell from exec'ing it) is staged
	if [ -d $T/events/entry_stage/entry_stage_batch ]; then
		entrytrace record -q --batch -o $out/own-batch.dat -- \
			sh -c "/work/sysloop -n $N $MODES; true" >$out/own-batch.out 2>$out/own-batch.err
		cat $out/own-batch.out
		# the recorder sets entry_stage.pid back as it found it
		echo "pid after $(cat $M/pid)" | tee $out/own-batch.pid
	fi
fi
