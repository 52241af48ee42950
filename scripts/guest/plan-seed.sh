# SPDX-License-Identifier: GPL-2.0
# Guest plan: the seed scenario (kill() with SELinux on and off): sysloop's
# getppid and kill(self, 0) loops recorded with EVENTS (default: the compact
# entry_stage:summary), and what the kernel says about SELinux.  /plan.env
# sets N and, optionally, EVENTS ('stage' for every per-stage event).
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
ev="-e entry_stage:summary"
if [ "${EVENTS:-summary}" = stage ]; then
	ev=""
	for e in $(ls $T/events/entry_stage); do
		[ -d $T/events/entry_stage/$e ] && [ "$e" != summary ] &&
			ev="$ev -e entry_stage:$e"
	done
fi
{
	echo "cmdline: $(cat /proc/cmdline)"
	dmesg | grep -i selinux || true
	# the LSM of the task's credentials: SELinux answers (kernel) or not
	echo "attr/current: $(cat /proc/self/attr/current 2>&1 || true)"
} >$out/selinux.txt
trace-cmd record -q -b 8192 $ev -o $out/seed.dat -F -c \
	/work/sysloop -n $N getppid kill0 >$out/seed.expect
trace-cmd --version >$out/trace-cmd.version 2>&1 || true
cat $out/selinux.txt $out/seed.expect
