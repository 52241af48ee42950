# SPDX-License-Identifier: GPL-2.0
# Guest plan for the QEMU mix plugin (scripts/kernel/record/kernel-mix): no tracing at all,
# only the workload, so the plugin counts the kernel as users run it.
# /plan.env sets N and MODES (sysloop modes, run in one process) and,
# optionally, POLICY=enforcing (load and enforce the minimal SELinux policy
# first, as plan-seed.sh does).  The kernel's build-id note goes back to the
# host, which checks it against the vmlinux the site file came from.
# EVENTS=compact|batch|stages|aggregate enables those entry_stage events first (nobody
# reads them: the plugin counts what tracing costs the kernel).
# KILLALL=K: after sysloop, K sleeping processes more, then N kill(-1, 0)
# from the shell's builtin kill: the permission check against every process
# (kill_something_info), the walk of the reporter's stress-ng op, with a
# known number of targets; its "sysloop:" line says how many calls.
# LOOPTIME=1 (no plugin needed) instead times the getppid loop four ways:
# N=2000 and N=20000, alone and with its output piped to sed, as
# plan-overhead.sh runs it.
out=$1
set -eu
. /plan.env
if [ "${LOOPTIME:-0}" = 1 ]; then
	for n in 2000 20000; do
		/work/sysloop -t -n $n getppid >$out/plain.txt
		sed -n "s/^sysloop-time: getppid /plain $n /p" $out/plain.txt
		/work/sysloop -t -n $n getppid | sed -n "s/^sysloop-time: getppid /piped $n /p"
	done >$out/looptime.txt
	cat /sys/kernel/notes >$out/notes
	cat $out/looptime.txt
	exit 0
fi
. /selinux.sh
selinux_setup "${POLICY:-none}"
[ "$policy_state" = none ] || denied=$(selinux_denied)
{
	echo "cmdline: $(cat /proc/cmdline)"
	echo "policy: $policy_state"
	[ "$policy_state" = none ] || echo "other_t kill -0 1: $(echo $denied)"
	dmesg | grep -i 'selinux\|avc:' || true
	echo "attr/current: $(cat /proc/self/attr/current 2>&1 || true)"
} >$out/selinux.txt
cat /sys/kernel/notes >$out/notes
# EVENTS (kernel-mix --events): entry_stage events on, nobody reading them
if [ -n "${EVENTS:-}" ] && [ "$EVENTS" != off ]; then
	T=/sys/kernel/tracing
	mount -t tracefs nodev $T 2>/dev/null || true
	case "$EVENTS" in
	compact) evs="entry_stage_summary entry_stage_calib" ;;
	batch) evs="entry_stage_batch entry_stage_calib" ;;
	stages) evs="entry_stage_time entry_stage_calib" ;;
	aggregate) evs="entry_stage_hist" ;;
	esac
	for e in $evs; do echo 1 >$T/events/entry_stage/$e/enable; done
	echo "events: $(cat $T/set_event | tr '\n' ' ')" >$out/events.txt
fi
/work/sysloop -t -n $N $MODES >$out/mix.expect
if [ -n "${KILLALL:-}" ]; then
	i=0
	while [ $i -lt $KILLALL ]; do
		sleep 100000 &
		i=$((i + 1))
	done
	echo "processes: $(ls -d /proc/[0-9]* | wc -l) (KILLALL=$KILLALL)" >$out/killall.txt
	echo "sysloop: killall=$KILLALL kill $N pid=$$" >>$out/mix.expect
	i=0
	while [ $i -lt $N ]; do
		kill -0 -1
		i=$((i + 1))
	done
fi
cat $out/mix.expect
