# SPDX-License-Identifier: GPL-2.0
# Guest plan: the seed scenario (kill() with SELinux on and off): sysloop's
# getppid and kill(self, 0) loops recorded with EVENTS (default: the compact
# entry_stage_summary), and what the kernel says about SELinux.  /plan.env
# sets N and, optionally, EVENTS ('stage' for every per-stage event) and
# POLICY ('enforcing': load and enforce the minimal SELinux policy first)
# and SAMPLE (entry_stage.sample, default 1).
out=$1
set -eu
. /plan.env
T=/sys/kernel/tracing
ev="-e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib"
if [ "${EVENTS:-summary}" = stage ]; then
	ev="-e entry_stage:entry_stage_time -e entry_stage:entry_stage_calib"
fi
# POLICY=enforcing: load the minimal policy (/work/selinux-policy, built from
# scripts/guest/selinux/minimal.conf by scripts/kernel/record/kernel-seed), enforce it, and
# show that it does: a shell moved to other_t is refused kill -0 on init.
. /selinux.sh
selinux_setup "${POLICY:-none}"
[ "$policy_state" = none ] || denied=$(selinux_denied)
{
	echo "cmdline: $(cat /proc/cmdline)"
	echo "policy: $policy_state"
	[ "$policy_state" = none ] || echo "other_t kill -0 1: $(echo $denied)"
	dmesg | grep -i 'selinux\|avc:' || true
	# the LSM of the task's credentials: SELinux answers (kernel) or not
	echo "attr/current: $(cat /proc/self/attr/current 2>&1 || true)"
} >$out/selinux.txt
P=/sys/module/entry_stage/parameters/sample
[ ! -e $P ] || echo "${SAMPLE:-1}" >$P
trace-cmd record -q -b 8192 $ev -o $out/seed.dat -F -c \
	/work/sysloop -n $N getppid kill0 >$out/seed.expect
trace-cmd --version >$out/trace-cmd.version 2>&1 || true
cat $out/selinux.txt $out/seed.expect
