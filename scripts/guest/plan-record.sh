# SPDX-License-Identifier: GPL-2.0
# Guest plan: record every sysloop mode with trace-cmd, per-stage and compact.
# /plan.env sets N (iterations per mode) and MODES; audit must come last (it
# leaves audit enabled for every task forked after it).
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
[ -d $T/events/entry_stage ] || { echo "no entry_stage events"; exit 1; }
# per-stage mode: one event per stage, and the stamp calibration
stage_ev="-e entry_stage:entry_stage_time -e entry_stage:entry_stage_calib"
compact_ev="-e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib"
rec() {
	name=$1
	shift
	trace-cmd record -q -b 8192 "$@" -o $out/$name.dat -F -c \
		/work/sysloop -n $N $mode >$out/$name.out 2>$out/$name.err
	cat $out/$name.out
}
for mode in $MODES; do
	rec stage-$mode $stage_ev
	rec compact-$mode $compact_ev
	if [ "$mode" = getppid ]; then
		# raw_syscalls on: every syscall takes the entry/exit work path
		rec rawsys-$mode $stage_ev -e raw_syscalls
	fi
done
