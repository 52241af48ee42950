# SPDX-License-Identifier: GPL-2.0
# entrytrace diff on ground truth recorded on the entrytrace kernel (x86_64,
# 6.12, QEMU -icount, one CPU; scripts/kernel/record/kernel-inject): sysloop's ptrace mode
# twice as is, and once with the tracer spinning at every syscall-entry stop,
# which lengthens the tracee's enter_ptrace stage by the time spun and
# nothing else.
. "$(dirname "$0")/lib.sh"

p=$DATA/x86_64-6.12-ptrace
for k in a b inject; do
	[ -f "$p-$k.dat" ] || { _fail "$p-$k.dat missing: run scripts/kernel/record/kernel-inject 6.12"; exit 0; }
done
# what the tracer really spun per stop, and at how many stops
spun=$(awk '$1 == "sysloop-inject:" { print $6 }' "$p-inject.expect")
stops=$(awk '$1 == "sysloop-inject:" { print $4 }' "$p-inject.expect")
check "the tracer spun at least what it was asked (${spun} ns)" test "$spun" -ge 2000

# the getppid group of the tracee: the one whose work has ptrace
group="[g for g in d['groups'] if g['syscall'] == 'getppid' and 'ptrace' in g['work'].split('|')][0]"
cellq() { echo "[c for c in d['cells'] if c['syscall'] == '$1' and 'ptrace' in c['work'].split('|') and c['stage'] == '$2'][0]"; }

"$ET" diff --replicates=syscalls --json "$p-a.dat" "$p-b.dat" > null.json
expect_eq "null pair: nothing significant" \
	"$(jget null.json "sum(c['significant'] for c in d['cells'])")" 0
expect_eq "null pair: no stage named" "$(jget null.json "$group['focus']")" None

for base in a b; do
	"$ET" diff --replicates=syscalls --json "$p-$base.dat" "$p-inject.dat" > inj.json
	expect_eq "$base -> inject: the stage named is enter_ptrace" \
		"$(jget inj.json "$group['focus']")" enter_ptrace
	# (the stage holds the spin and the tracer's way back to resume it,
	# and the spin reads its clock once a loop: the medians move in steps
	# of one loop, ~64-95 ns here; v2's recording read [2049, 2239] for
	# 2124 spun, v3's [2113, 2303] for 2111)
	check "$base -> inject: enter_ptrace median change CI meets [${spun}, 1.1 x ${spun}] ns" jget inj.json \
		"(lambda c: c['significant'] and c['d_median_ci'][0] <= 1.1 * $spun and $spun <= c['d_median_ci'][1] or sys.exit(1))($(cellq getppid enter_ptrace))"
	check "$base -> inject: enter_ptrace mean change within 10% of it" jget inj.json \
		"(lambda c: abs(c['d_mean'] - $spun) <= 0.1 * $spun or sys.exit(1))($(cellq getppid enter_ptrace))"
	check "$base -> inject: it explains 90..110% of the total's change" jget inj.json \
		"(lambda g: 0.9 <= g['focus_contrib'] / g['d_total'] <= 1.1 or sys.exit(1))($group)"
	check "$base -> inject: of getppid's stages only enter_ptrace, its parent and total moved" jget inj.json \
		"not [c['stage'] for c in d['cells'] if c['syscall'] == 'getppid' and c['significant'] and c['stage'] not in ('enter_ptrace', 'entry_work', 'total')] or sys.exit(1)"
	# The spin is in the tracer's user space, before the ptrace() that
	# resumes the tracee: its user_gap there grows by spun x stops / calls.
	calls=$(jget inj.json "[c['n_test'] for c in d['cells'] if c['syscall'] == 'ptrace' and c['stage'] == 'user_gap'][0]")
	check "$base -> inject: the tracer's user_gap before ptrace() grows by ${spun} x $stops / $calls" jget inj.json \
		"(lambda c, want: c['significant'] and c['d_mean_ci'][0] <= want <= c['d_mean_ci'][1] or sys.exit(1))([c for c in d['cells'] if c['syscall'] == 'ptrace' and c['stage'] == 'user_gap'][0], $spun * $stops / $calls)"
done

# The text names it too, on the group's line.
check "text: the group line names enter_ptrace" grep -q 'getppid \[ptrace.*enter_ptrace' <("$ET" diff --replicates=syscalls "$p-a.dat" "$p-inject.dat")
