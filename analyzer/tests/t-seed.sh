# SPDX-License-Identifier: GPL-2.0
# The seed scenarios (Documentation/seed-report.md) on the committed guest
# recordings (QEMU -icount, one CPU: instruction time, deterministic):
# sysloop's getppid and kill(self, 0) loops with SELinux off, initialised
# without a policy, and enforcing the minimal policy; powerpc's legacy
# entry (6.12) against its generic-entry port (7.2, the reporter's pair, and
# 7.3).
. "$(dirname "$0")/lib.sh"

plain="[g for g in d['groups'] if g['syscall'] == '%s' and g['work'] == '-'][0]"
cell="[c for c in d['cells'] if c['syscall'] == '%s' and c['work'] == '-' and c['stage'] == '%s'][0]"
g() { printf "$plain" "$1"; }
c() { printf "$cell" "$1" "$2"; }

kernels=0 pairs="ppc64le-6.12 ppc64le-7.2 ppc64le-7.3 ppc64le-6.12-noforce ppc64le-7.2-noforce x86_64-6.12 x86_64-7.2 x86_64-7.3"
for k in $pairs; do
	on=$DATA/$k-selinux.dat off=$DATA/$k-noselinux.dat enf=$DATA/$k-enforcing.dat
	[ -f "$on" ] && [ -f "$off" ] || continue
	kernels=$((kernels + 1))
	"$ET" diff --json "$off" "$on" > tax.json
	expect_eq "$k: SELinux on: kill()'s change is named lsm_task_kill" \
		"$(jget tax.json "$(g kill)['focus']")" lsm_task_kill
	# (the shift, Hodges-Lehmann, not the mean: one interrupt in one
	# kill's exit tail, 18961 instructions on ppc64le-7.2-noforce, moves
	# the mean of the total by 63 and the shift by nothing)
	check "$k: ...significant, and it is 95..105% of kill()'s shift" jget tax.json \
		"(lambda x, t: x['significant'] and t['significant'] and 0.95 <= x['shift'] / t['shift'] <= 1.05 or sys.exit(1))($(c kill lsm_task_kill), $(c kill total))"
	check "$k: ...the tax is 5..40% of kill() without SELinux" jget tax.json \
		"(lambda t: 0.05 <= t['d_mean'] / t['mean_base'] <= 0.40 or sys.exit(1))($(c kill total))"
	# (a stage whose time is a near-constant may be significant for a
	# fraction of a ns, one syscall in hundreds taking another branch)
	check "$k: ...no entry or exit stage of kill() moved by 2% of the tax" jget tax.json \
		"(lambda tax: not [x['stage'] for x in d['cells'] if x['syscall'] == 'kill' and x['work'] == '-' and x['significant'] and x['stage'] not in ('lsm_task_kill', 'syscall', 'total', 'user_gap') and abs(x['contrib']) > 0.02 * tax] or sys.exit(1))($(c kill total)['d_mean'])"
	expect_eq "$k: ...getppid() pays nothing significant" \
		"$(jget tax.json "$(g getppid)['focus']")" None
	if [ -f "$enf" ]; then
		"$ET" diff --json "$on" "$enf" > enf.json
		check "$k: no policy -> enforcing policy: lsm_task_kill the same (median change CI covers 0)" jget enf.json \
			"(lambda x: not x['significant'] and x['d_median_ci'][0] <= 0 <= x['d_median_ci'][1] or sys.exit(1))($(c kill lsm_task_kill))"
	else
		_fail "$k: $k-enforcing.dat missing (scripts/kernel/kernel-seed --variants enforcing)"
	fi
done
expect_eq "a seed pair (SELinux on, off) for every kernel named" "$kernels" "$(echo $pairs | wc -w)"

# Legacy -> generic on powerpc: every stage of kill() on both sides but the
# ones the vocabulary says one path lacks; the entry/exit changes are named.
for gen in 7.2 7.3; do
a=$DATA/ppc64le-6.12-selinux.dat b=$DATA/ppc64le-$gen-selinux.dat
if [ -f "$a" ] && [ -f "$b" ]; then
	"$ET" diff --json "$a" "$b" > lg.json
	expect_eq "ppc64le 6.12 -> $gen: the sides are legacy and generic entry" \
		"$(jget lg.json "d['base']['path'] + ' -> ' + d['test']['path']")" "legacy entry -> generic entry"
	check "ppc64le 6.12 -> $gen: kill()'s stages are all on both sides" jget lg.json \
		"not [x['stage'] for x in d['cells'] if x['syscall'] == 'kill' and x['work'] == '-' and x['status'] != 'both'] or sys.exit(1)"
	check "ppc64le 6.12 -> $gen: stage changes add up to the total's (residual < 1 ns)" jget lg.json \
		"abs($(g kill)['residual']) < 1 or sys.exit(1)"
	for st in arch_enter arch_exit_tail lsm_task_kill; do
		check "ppc64le 6.12 -> $gen: kill() $st changed significantly" jget lg.json \
			"$(c kill "$st")['significant'] or sys.exit(1)"
	done
	check "ppc64le 6.12 -> $gen: text and plot: diff --plot writes an SVG" sh -c \
		"'$ET' diff -s kill --plot seed.svg '$a' '$b' >/dev/null && grep -q '<svg' seed.svg"
else
	_fail "ppc64le-6.12/$gen seed recordings missing (scripts/kernel/ppc-fixtures 6.12 $gen)"
fi
done
