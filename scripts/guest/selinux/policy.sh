# SPDX-License-Identifier: GPL-2.0
# Guest side, sourced by the plans (mkinitramfs puts it at /selinux.sh in
# every shell guest): the one way a plan loads the minimal SELinux policy
# (/work/selinux-policy, built from scripts/guest/selinux/minimal.conf by
# scripts/kernel/record/kernel-seed) and says what it did.
#
# selinux_load MODE
#	MODE none, disabled (or empty): nothing loaded.  enforcing or permissive: mount
#	selinuxfs, load the policy, write enforce.  Sets S (the selinuxfs
#	mount) and policy_state, the line the hosts read back from
#	selinux.txt's "policy: " ("none", or "loaded, enforce=E, policyvers
#	V"); returns 1, with policy_state naming the error, on an unknown MODE
#	or a load the kernel refused.
# selinux_setup MODE
#	What a plan calls: selinux_load MODE, or the plan stops (exit 1) with
#	one line naming the mode and why.
# selinux_denied
#	Prints what a shell moved to other_t gets from kill -0 1: the check
#	that the loaded policy is enforced (a refusal is expected).
S=/sys/fs/selinux
policy_state=none

selinux_load() {
	case "${1:-none}" in
	none|disabled) return 0 ;;
	enforcing|permissive) ;;
	*) policy_state="unknown mode '$1'"; return 1 ;;
	esac
	mkdir -p $S
	mount -t selinuxfs selinuxfs $S 2>/dev/null || [ -e $S/load ] ||
		{ policy_state="no selinuxfs (SELinux not in lsm=?)"; return 1; }
	cat /work/selinux-policy >$S/load ||
		{ policy_state="load refused"; return 1; }
	if [ "$1" = enforcing ]; then echo 1 >$S/enforce; else echo 0 >$S/enforce; fi
	policy_state="loaded, enforce=$(cat $S/enforce), policyvers $(cat $S/policyvers)"
}

selinux_setup() {
	selinux_load "$1" || { echo "plan: POLICY=$1: $policy_state" >&2; exit 1; }
}

selinux_denied() {
	sh -c 'printf system_u:system_r:other_t >/proc/self/attr/current &&
		cat /proc/self/attr/current && kill -0 1' 2>&1 || true
}
