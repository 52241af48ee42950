# SPDX-License-Identifier: GPL-2.0
# Guest plan: the POWER10 reporter's workload, `stress-ng --kill 1 -t T`
# (Debian's ppc64el stress-ng, mkinitramfs --bin stress-ng), under one
# SELinux mode.  /plan.env sets T (seconds of the timed run, the one whose
# bogo ops/s is the result), R (seconds of a second run recorded with
# trace-cmd: entry_stage_summary; 0: none) and POLICY:
#   enforcing   the minimal policy (/work/selinux-policy) loaded, enforce 1
#   permissive  the same policy loaded, enforce 0
#   disabled    nothing loaded (the kernel is booted without selinux in lsm=)
# Under -icount the seconds are virtual: instructions, 1 ns each.
out=$1
set -eu
. /plan.env
. /selinux.sh
selinux_load "$POLICY" || { echo "plan: POLICY=$POLICY: $policy_state" >&2; exit 1; }
{
	echo "cmdline: $(cat /proc/cmdline)"
	mount -t securityfs none /sys/kernel/security 2>/dev/null || true
	echo "lsm: $(cat /sys/kernel/security/lsm 2>&1 || true)"
	echo "policy: $policy_state"
	echo "attr/current: $(cat /proc/self/attr/current 2>&1 || true)"
	dmesg | grep -i 'selinux' || true
} >$out/selinux.txt
cat /sys/kernel/notes >$out/notes
stress-ng --version >$out/stress-ng.version 2>&1 || true
# the timed run: nothing traced
stress-ng --kill 1 -t "$T" --metrics-brief >$out/stress.txt 2>&1
if [ "${R:-0}" != 0 ]; then
	trace-cmd record -q -b 32768 -e entry_stage:entry_stage_summary \
		-e entry_stage:entry_stage_calib -o $out/stress.dat -F -c \
		stress-ng --kill 1 -t "$R" --metrics-brief >$out/stress-recorded.txt 2>&1
fi
cat $out/selinux.txt $out/stress.txt
