# SPDX-License-Identifier: GPL-2.0
# Guest plan: the POWER10 reporter's workload, `stress-ng --kill 1 -t T`
# (Debian's ppc64el stress-ng, mkinitramfs --bin stress-ng), under one
# SELinux mode.  /plan.env sets T (seconds of the timed run, the one whose
# bogo ops/s is the result), R (seconds of a second run recorded with
# trace-cmd: entry_stage_summary; 0: none) and POLICY:
#   enforcing   the policy (/work/selinux-policy) loaded, enforce 1
#   permissive  the same policy loaded, enforce 0
#   disabled    nothing loaded (the kernel is booted without selinux in lsm=)
# and, for the reporter's conditions (scripts/kernel/record/kernel-reporter;
# each optional, the defaults are the plain run above):
#   N, K        N extra idle processes (the population workload) spread
#               over K SELinux domains pop0_t.. (the policy of
#               scripts/guest/selinux/gen-policy K); default 0, 0
#   AUDIT       off (default), auditd (Debian's auditd running, audit
#               enabled, no rule) or kill (the same with one rule,
#               -a always,exit -F arch=b64 -S kill); the guest needs
#               mkinitramfs --bin auditd --bin auditctl for the last two
#   OPS         record a run of --kill-ops OPS instead of -t R
#   EVENTS      more events for the recorded run (e.g. syscalls:sys_enter_kill,
#               the argument shapes of entrytrace report --by-arg)
# The AVC's counters (/sys/fs/selinux/avc/cache_stats, hash_stats) are read
# before and after each run (avc-BEFORE/AFTER-RUN.txt), and the processes
# on the system are counted before each and during the timed run (procs:
# in selinux.txt).
# Under -icount the seconds are virtual: instructions, 1 ns each.
out=$1
set -eu
. /plan.env
. /selinux.sh
selinux_setup "$POLICY"
# the population first: every run below sees it
if [ "${N:-0}" != 0 ]; then
	/work/population "$N" "${K:-0}" >$out/population.txt
fi
audit=${AUDIT:-off}
case "$audit" in
off) ;;
auditd|kill)
	mkdir -p /etc/audit /var/log/audit /var/run
	# Debian's auditd.conf defaults that matter here: a local log, flushed
	# incrementally; no dispatcher, no network
	cat >/etc/audit/auditd.conf <<-EOF
	local_events = yes
	write_logs = yes
	log_file = /var/log/audit/audit.log
	log_format = ENRICHED
	flush = INCREMENTAL_ASYNC
	freq = 50
	max_log_file = 8
	num_logs = 5
	max_log_file_action = ROTATE
	space_left = 75
	space_left_action = SYSLOG
	admin_space_left = 50
	admin_space_left_action = SUSPEND
	disk_full_action = SUSPEND
	disk_error_action = SUSPEND
	tcp_listen_queue = 5
	use_libwrap = no
	q_depth = 2000
	overflow_action = SYSLOG
	EOF
	chmod 0640 /etc/audit/auditd.conf
	auditd -n -c /etc/audit >$out/auditd.log 2>&1 &
	i=0
	until auditctl -s 2>/dev/null | grep -q '^pid [1-9]'; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "auditd did not register (auditctl -s: $(auditctl -s 2>&1))"; cat $out/auditd.log; exit 1; }
		sleep 0.1
	done
	auditctl -D >/dev/null
	auditctl -e 1 >/dev/null
	[ "$audit" = auditd ] || auditctl -a always,exit -F arch=b64 -S kill >/dev/null
	{ auditctl -s; echo "rules:"; auditctl -l; } >$out/audit.txt
	;;
*) echo "plan-stress: AUDIT '$audit': off, auditd or kill"; exit 1 ;;
esac
# avc NAME: the AVC's counters, summed over CPUs, into avc-NAME.txt
avc() {
	[ -r $S/avc/cache_stats ] || return 0
	{
		awk 'NR > 1 { for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
		     END { printf "cache_stats lookups %d hits %d misses %d allocations %d reclaims %d frees %d\n",
			   s[1], s[2], s[3], s[4], s[5], s[6] }' $S/avc/cache_stats
		sed 's/^/hash_stats /' $S/avc/hash_stats
	} >$out/avc-$1.txt
}
{
	echo "cmdline: $(cat /proc/cmdline)"
	mount -t securityfs none /sys/kernel/security 2>/dev/null || true
	echo "lsm: $(cat /sys/kernel/security/lsm 2>&1 || true)"
	echo "policy: $policy_state"
	echo "attr/current: $(cat /proc/self/attr/current 2>&1 || true)"
	echo "cpus: $(grep -c ^processor /proc/cpuinfo)"
	echo "audit: $audit"
	[ ! -s $out/population.txt ] || cat $out/population.txt
	# domains of the processes (SELinux only): how many in each
	if [ "$policy_state" != none ]; then
		echo "domains: $(cat /proc/[0-9]*/attr/current 2>/dev/null | tr '\0' '\n' | sort | uniq -c |
			awk '{ printf "%s%s=%s", sep, $2, $1; sep = " " }')"
	fi
	dmesg | grep -i 'selinux' || true
} >$out/selinux.txt
cat /sys/kernel/notes >$out/notes
stress-ng --version >$out/stress-ng.version 2>&1 || true
# the timed run: nothing traced.  procs: the processes now (this shell's
# glob forks nothing); stress-ng adds its main process, the worker (the
# caller of kill(-1, 0)) and the worker's child
set -- /proc/[0-9]*
echo "procs: $# before the timed run" >>$out/selinux.txt
# and once while it runs (one virtual second in), by a subshell that is
# itself one of the processes kill(-1, 0) asks; ps: who they are
( sleep 1; set -- /proc/[0-9]*; echo "procs: $# during the timed run"; ps -o pid,ppid,comm ) \
	>$out/procs-during.txt 2>&1 &
sampler=$!
avc before-timed
stress-ng --kill 1 -t "$T" --metrics-brief >$out/stress.txt 2>&1
avc after-timed
wait $sampler || true
head -n 1 $out/procs-during.txt >>$out/selinux.txt
if [ "${OPS:-0}" != 0 ] || [ "${R:-0}" != 0 ]; then
	len="-t ${R:-0}"
	[ "${OPS:-0}" = 0 ] || len="--kill-ops $OPS"
	ev="-e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib"
	for e in ${EVENTS:-}; do ev="$ev -e $e"; done
	set -- /proc/[0-9]*
	echo "procs: $# before the recorded run" >>$out/selinux.txt
	avc before-recorded
	# shellcheck disable=SC2086
	trace-cmd record -q -b 32768 $ev -o $out/stress.dat -F -c \
		stress-ng --kill 1 $len --metrics-brief >$out/stress-recorded.txt 2>&1
	avc after-recorded
fi
if [ "$audit" != off ]; then
	{ echo "after:"; auditctl -s; } >>$out/audit.txt
	echo "audit.log lines: $(wc -l </var/log/audit/audit.log 2>/dev/null || echo 0)" >>$out/audit.txt
	grep -c 'type=SYSCALL' /var/log/audit/audit.log >$out/audit-syscall-records.txt 2>/dev/null || true
fi
cat $out/selinux.txt $out/stress.txt
