# SPDX-License-Identifier: GPL-2.0
# Guest plan: getppid() loop time (icount: instructions) with the entry_stage
# events off, per-stage on, compact on, and raw_syscalls on.  /plan.env sets
# N and ROUNDS.
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
echo 16384 >$T/buffer_size_kb
run() {
	for r in $(seq $ROUNDS); do
		/work/sysloop -t -n $N getppid | sed -n "s/^sysloop-time: getppid /$1 /p"
	done >>$out/overhead.txt
}
run off
if [ -d $T/events/entry_stage ]; then
	echo 1 >$T/events/entry_stage/enable
	echo 0 >$T/events/entry_stage/summary/enable
	run per-stage
	echo 0 >$T/events/entry_stage/enable
	echo 1 >$T/events/entry_stage/summary/enable
	run compact
	echo 0 >$T/events/entry_stage/enable
fi
echo 1 >$T/events/raw_syscalls/enable
run raw_syscalls
echo 0 >$T/events/raw_syscalls/enable
echo "N=$N" >>$out/overhead.txt
cat $out/overhead.txt
