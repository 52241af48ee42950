# SPDX-License-Identifier: GPL-2.0
# Guest plan: the life of the stamp scratch and calibration across enable
# and disable of the entry_stage events (series v3, issue 22 item 5).  A
# sysloop runs in the background all along, so that syscalls are in flight
# while the key flips.  Writes lifecycle.txt: one "key value" line per
# observation, read by scripts/kernel/check/kernel-lifecycle.  /plan.env sets
# N and WN (the getppid loop of the entry_stage.window round).
out=$1
set -u
. /plan.env
T=/sys/kernel/tracing
E=$T/events/entry_stage
P=/sys/module/entry_stage/parameters
o=$out/lifecycle.txt
: >$o
say() { echo "$1 $2" >>$o; }
forks() { i=0; while [ $i -lt 20 ]; do /bin/true; i=$((i + 1)); done; }
echo 16384 >$T/buffer_size_kb
say scratch_boot "$(cat $P/scratch 2>/dev/null || echo missing)"
/work/sysloop -n 100000000 getppid >/dev/null 2>&1 &
bg=$!
for round in 1 2 3; do
	echo >$T/trace
	echo 1 >$E/entry_stage_summary/enable
	say scratch_on$round "$(cat $P/scratch)"
	say kept_on$round "$(cat $P/scratch_kept 2>/dev/null || echo missing)"
	/work/sysloop -n $N getppid kill0 >/dev/null
	echo 0 >$E/entry_stage_summary/enable
	say scratch_off$round "$(cat $P/scratch)"
	say kept_off$round "$(cat $P/scratch_kept 2>/dev/null || echo missing)"
	forks
	say scratch_fork$round "$(cat $P/scratch)"
	grep 'entry_stage_summary:' $T/trace >$out/summary$round.txt || true
	say events$round "$(wc -l <$out/summary$round.txt)"
	say cost0_$round "$(grep -c 'stamp_cost=0 ' $out/summary$round.txt)"
done
# entry_stage.window (series v3): the sites armed one window of 4 ms in
# every 8, by a delayed work flipping the key while syscalls are in flight.
# The background sysloop's syscalls are staged too, but only this shell's
# and what it forks are recorded (set_event_pid, event-fork): its events
# filled CPU0's buffer in overwrite mode and took the loop's with them,
# and their text overflowed the guest's output.  overrunw: events lost.
if [ -e $P/window ]; then
	echo 4 >$P/window
	echo 8 >$P/sample
	echo >$T/trace
	echo $$ >$T/set_event_pid
	echo 1 >$T/options/event-fork
	echo 1 >$E/entry_stage_summary/enable
	say scratch_onw "$(cat $P/scratch)"
	/work/sysloop -n $WN getppid >/dev/null &
	fg=$!
	wait $fg
	echo 0 >$E/entry_stage_summary/enable
	echo 0 >$T/options/event-fork
	echo >$T/set_event_pid
	say scratch_offw "$(cat $P/scratch)"
	n=0
	for f in $T/per_cpu/cpu*/stats; do
		while read -r k v _; do
			[ "$k" = overrun: ] && n=$((n + v))
		done <$f
	done
	say overrunw $n
	grep 'entry_stage_summary:' $T/trace >$out/summaryw.txt || true
	say eventsw "$(wc -l <$out/summaryw.txt)"
	say cost0_w "$(grep -c 'stamp_cost=0 ' $out/summaryw.txt)"
	say loopw "$fg $WN"
	echo 0 >$P/window
	echo 1 >$P/sample
fi
kill $bg 2>/dev/null
wait $bg 2>/dev/null
dmesg | grep -iE 'entry_stage|BUG|WARNING|KASAN' >$out/dmesg.txt || true
# a kernel BUG or WARN splat (not a driver's "WARNING:" text, such as
# pseries' "nvram corruption detected" with QEMU's empty NVRAM)
say dmesg_bad "$(grep -ciE 'BUG:|kernel BUG|WARNING: CPU|KASAN' $out/dmesg.txt)"
cat $o
