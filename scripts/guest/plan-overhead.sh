# SPDX-License-Identifier: GPL-2.0
# Guest plan: sysloop loop times (under -icount: instructions) for each of
# MODES with the entry_stage events off, per-stage on, compact on (and
# compact under entry_stage.sample 16, 64, 256 and 1000000, the unsampled
# syscall, and with entry_stage.pid 1, only another task armed;
# packed batches, entry_stage_batch, under sample 1 and 16, then one
# flush, with every batch's cpu, number, records and words in
# batch-trace.txt; aggregation, entry_stage_hist,
# under sample 1, 16, 64, then one flush), and raw_syscalls on; then
# one compact recording's text (the stamp calibration and stage times).
# With entry_stage.window (series v3): compact under sample WSAMPLE and a
# window of WMS ms, getppid, WN iterations (many windows), with the number
# of events the kernel wrote in each round (the staged syscalls).
# The same windows aggregated (entry_stage_hist), the staged count from the
# flush's getppid spans.  With /usr/bin/syslat (kernel-overhead's BPF anchor,
# on the base kernel of --config bpf): the loop under syslat's syscall
# latency histogram too (bpf-hist), with syslat's count of the syscalls it
# saw in syslat.txt.
# /plan.env sets N, ROUNDS, MODES, WN, WSAMPLE, WMS and GETPPID (its number).
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
E=$T/events/entry_stage
P=/sys/module/entry_stage/parameters/sample
echo 16384 >$T/buffer_size_kb
# kill0 is kill(getpid(), 0), and the kernel's pid lookup (find_vpid():
# an idr, a radix tree of 64 slots a node, XA_CHUNK_SHIFT 6 without
# BASE_SMALL) takes a second level from pid 64 on: 18 instructions more in
# __radix_tree_lookup (the QEMU plugin's detail of one kill in the first
# round and one in a later one).  The plan's own forks moved sysloop's pid
# past 64 between two rounds, so that a round paid for its place in the
# plan (kill's spread of 18).  Use up the pids below 100 first: every
# round's sysloop then has a pid of two levels (100 to 4095).
while :; do
	p=$(/work/sysloop -n 1 getppid | sed -n 's/.* pid=\([0-9]*\).*/\1/p')
	[ -n "$p" ] || { echo "plan-overhead: sysloop printed no pid" >&2; exit 1; }
	[ "$p" -lt 100 ] || break
done
echo "first pid $p" >$out/pid.txt
run() {
	for m in $MODES; do
		for r in $(seq $ROUNDS); do
			# to a file, not a pipe: a reader woken by sysloop's
			# first line would run inside the timed loop
			${WRAP:-} /work/sysloop -t -n $N $m >$out/sysloop.out
			sed -n "s/^sysloop-time: \([a-z0-9]*\) /$1 \1 /p" $out/sysloop.out
		done
	done >>$out/overhead.txt
}
# Settle first: a distribution config's guest keeps working for a second
# or two of guest time after boot (Debian's 7.2 config: getppid rounds of
# 1874, 1700, 1698 instructions, then 620 once quiet), and under -icount
# that work is counted in the loop.  Its rounds are steady while it lasts,
# so agreeing rounds alone do not show it gone: the plan sleeps first
# (SETTLE seconds of guest time, default 5; an idle guest skips them at
# once with -icount sleep=off, a busy one runs its work out), then runs
# rounds of getppid until three in a row agree within 0.5% (at most 100).
# settle.txt has every round and the verdict, which kernel-overhead keeps
# in its figures.
sleep ${SETTLE:-5}
settled=no prev2=0 prev=0 k=0
while [ $k -lt 100 ]; do
	k=$((k + 1))
	/work/sysloop -t -n $N getppid >$out/sysloop.out
	t=$(sed -n 's/^sysloop-time: getppid \([0-9]*\).*/\1/p' $out/sysloop.out)
	echo "settle getppid $t" >>$out/settle.txt
	if [ $prev2 -gt 0 ] &&
	   [ $(( (prev2 > t ? prev2 - t : t - prev2) * 200 )) -le $t ] &&
	   [ $(( (prev > t ? prev - t : t - prev) * 200 )) -le $t ]; then
		settled=yes
		break
	fi
	prev2=$prev prev=$t
done
echo "settled $settled $k" >>$out/settle.txt
run off
if [ -d $E ]; then
	echo 1 >$E/entry_stage_calib/enable
	echo 1 >$E/entry_stage_time/enable
	run per-stage
	echo 0 >$E/entry_stage_time/enable
	echo 1 >$E/entry_stage_summary/enable
	run compact
	for n in 16 64 256; do
		echo $n >$P
		run compact-sample$n
	done
	# series v4's unsampled syscall, measured directly: staging on, every
	# task armed, one syscall in a million staged (each new task stages
	# its first, before sysloop's loop): the loop's syscalls all pass the
	# selection point without being taken
	echo 1000000 >$P
	run unsampled
	echo 1 >$P
	# ...and with only another task armed (entry_stage.pid, series v4:
	# read when staging goes on): PID 1, not sysloop, has scratch
	A=/sys/module/entry_stage/parameters/pid
	if [ -e $A ]; then
		echo 0 >$E/enable
		echo 1 >$A
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$E/entry_stage_summary/enable
		run unarmed
		echo 0 >$E/enable
		echo 0 >$A
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$E/entry_stage_summary/enable
	fi
	# packed compact mode (series v4): entry_stage_batch, the records of
	# every staged syscall packed into per-CPU batches, one event a batch;
	# then the last batches (batch_flush) and what the kernel wrote: the
	# batches' records, and their numbers (a gap: a batch lost)
	B=$E/entry_stage_batch
	if [ -d $B ]; then
		echo 0 >$E/enable
		echo >$T/trace
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$B/enable
		run batch
		for n in 16; do
			echo $n >$P
			run batch-sample$n
		done
		echo 1 >$P
		echo 1 >/sys/module/entry_stage/parameters/batch_flush
		grep -E 'entry_stage_batch:' $T/trace |
			sed -n 's/.* cpu=\([0-9]*\) seq=\([0-9]*\) records=\([0-9]*\) .* words=\([0-9]*\)$/\1 \2 \3 \4/p' \
			>$out/batch-trace.txt || true
		echo 0 >$B/enable
		echo 0 >$E/enable
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$E/entry_stage_summary/enable
	fi
	H=$E/entry_stage_hist
	if [ -d $H ]; then
		# aggregation (series v3): the hist event alone, nothing is
		# written per syscall; one flush at the end writes every cell
		echo 0 >$E/enable
		echo >$T/trace
		echo 1 >$H/enable
		run aggregate
		for n in 16 64; do
			echo $n >$P
			run aggregate-sample$n
		done
		echo 1 >$P
		echo 1 >/sys/module/entry_stage/parameters/hist_flush
		grep -E 'entry_stage_hist:' $T/trace >$out/aggregate-trace.txt || true
		cat /sys/module/entry_stage/parameters/hist_dropped >$out/aggregate-dropped.txt
		echo 0 >$H/enable
	fi
	W=/sys/module/entry_stage/parameters/window
	if [ -e $W ] && [ "${WN:-0}" -gt 0 ]; then
		# staging off and on again: the window is read when it goes on
		echo 0 >$E/enable
		echo $WMS >$W
		echo $WSAMPLE >$P
		echo 1 >$E/entry_stage_calib/enable
		echo 1 >$E/entry_stage_summary/enable
		for r in $(seq $ROUNDS); do
			echo >$T/trace
			/work/sysloop -t -n $WN getppid >$out/sysloop.out
			# events written: kept and overwritten, every CPU
			w=0
			for f in $T/per_cpu/cpu*/stats; do
				while read -r k v _; do
					case $k in entries:|overrun:) w=$((w + v)) ;; esac
				done <$f
			done
			sed -n "s/^sysloop-time: getppid \([0-9]*\).*/window $WSAMPLE $WMS getppid \1 $WN $w/p" \
				$out/sysloop.out >>$out/window.txt
		done
		echo 0 >$E/enable
		# the same windows aggregated: the staged syscalls are the
		# getppid spans the flush writes (no event per syscall)
		if [ -d $E/entry_stage_hist ]; then
			echo 1 >$E/entry_stage_hist/enable
			for r in $(seq $ROUNDS); do
				echo >$T/trace
				/work/sysloop -t -n $WN getppid >$out/sysloop.out
				echo 1 >/sys/module/entry_stage/parameters/hist_flush
				w=$(grep 'entry_stage_hist:' $T/trace | grep " nr=$GETPPID " |
					sed -n 's/.* stage=\([0-9]*\) stages=\1 count=\([0-9]*\) .*/\2/p' |
					awk '{ n += $1 } END { print n + 0 }')
				sed -n "s/^sysloop-time: getppid \([0-9]*\).*/awindow $WSAMPLE $WMS getppid \1 $WN $w/p" \
					$out/sysloop.out >>$out/window.txt
			done
			echo 0 >$E/entry_stage_hist/enable
		fi
		echo 0 >$W
		echo 1 >$P
	fi
	# a fresh period (the calibration is written again) for the text
	echo 0 >$E/enable
	echo >$T/trace
	echo 1 >$E/entry_stage_calib/enable
	echo 1 >$E/entry_stage_summary/enable
	/work/sysloop -n 2000 getppid >$out/compact-trace.expect
	echo 0 >$E/enable
	grep -E 'entry_stage_(summary|calib):' $T/trace >$out/compact-trace.txt || true
fi
echo 1 >$T/events/raw_syscalls/enable
run raw_syscalls
echo 0 >$T/events/raw_syscalls/enable
if [ -x /usr/bin/syslat ]; then
	# syslat attaches, runs the loop, detaches and counts on stderr
	WRAP="/usr/bin/syslat -q" run bpf-hist 2>>$out/syslat.txt
	cat $out/syslat.txt
fi
echo "N=$N" >>$out/overhead.txt
cat $out/overhead.txt
[ ! -f $out/window.txt ] || cat $out/window.txt
