# SPDX-License-Identifier: GPL-2.0
# Guest plan: the PMU stamp source (CONFIG_ENTRY_STAGE_PMU).  Enabling the
# entry_stage events either works (then: compact and per-stage recordings
# of getppid and kill0, whose summaries carry cycles and instructions) or
# is refused (the write fails and the kernel says why).  /plan.env sets N.
out=$1
set -u
. /plan.env
T=/sys/kernel/tracing
E=$T/events/entry_stage
echo 16384 >$T/buffer_size_kb
dmesg -c >/dev/null 2>&1 || true
if echo 1 >$E/entry_stage_summary/enable 2>$out/enable.err; then
	echo "enable: ok" >$out/pmu.txt
else
	echo "enable: refused: $(cat $out/enable.err)" >$out/pmu.txt
fi
dmesg | grep entry_stage >>$out/pmu.txt || true
echo 0 >$E/enable 2>/dev/null
if grep -q '^enable: ok' $out/pmu.txt; then
	for ev in entry_stage_summary entry_stage_time; do
		echo >$T/trace
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$E/$ev/enable
		/work/sysloop -n $N getppid kill0 >$out/$ev.expect
		echo 0 >$E/enable
		grep -E 'entry_stage_(summary|time|calib):' $T/trace >$out/$ev.txt || true
	done
	# sampled syscalls the kernel dropped: moved CPU, or perf restarted a counter
	echo "pmu_dropped: $(cat /sys/module/entry_stage/parameters/pmu_dropped 2>/dev/null || echo none)" >>$out/pmu.txt
fi
cat $out/pmu.txt
