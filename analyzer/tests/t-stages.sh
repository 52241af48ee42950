# SPDX-License-Identifier: GPL-2.0
# entrytrace on recordings of the entrytrace kernels (QEMU with -icount, one
# CPU; scripts/kernel/record/kernel-fixtures, scripts/kernel/record/ppc-fixtures): per ARCH-BASE, the
# same workload once with every entry_stage:<stage> event and once with
# entry_stage:summary only.  Exact counts per task, each optional stage
# exactly where its work ran, leaf stages equal between the two event sets,
# the tracer's cost found where it is and nowhere else.  ppc64le files are
# read here on x86_64: the other architecture's syscall numbers and layout.
# weight: 108
. "$(dirname "$0")/lib.sh"

pairs=()
for f in "$DATA"/*-stage.dat; do
	# 32-bit powerpc: t-ppc32.sh (a 16.6 MHz timebase on g3beige: 60
	# instructions a tick, no 1-ns medians; sigreturn, not rt_sigreturn)
	case "$(basename "$f")" in ppc750-*|ppce500-*) continue ;; esac
	[ -f "${f%-stage.dat}-compact.dat" ] && pairs+=("$(basename "${f%-stage.dat}")")
done
if ! printf '%s\n' "${pairs[@]}" | grep -qx x86_64-6.12; then
	_fail "x86_64-6.12 kernel fixtures missing: run scripts/kernel/record/kernel-fixtures 6.12"
fi

# Stages under another stage, from the vocabulary itself.
"$ET" report --stages | awk '$1 ~ /^[0-9]+$/ && $5 != "-" { print $5 }' | sort -u > parents.txt
check "the vocabulary names parent stages" grep -qx entry_work parents.txt

# check_pair ARCH-BASE: every check on one stage/compact pair
check_pair() {
local pair=$1 st=$DATA/$1-stage cp=$DATA/$1-compact tol=1 stj cpj
case "$pair" in ppc64le-*) tol=4 ;; esac
for f in "$st" "$cp"; do
	n=$(basename "$f")
	x=$f.expect
	"$ET" report --json "$f.dat" > "$n.json"
	"$ET" report --json --by-work "$f.dat" > "$n.work.json"

	expect_eq "$n: nothing lost" "$(jget "$n.json" "d['files'][0]['lost_events']")" 0
	main=$(mode_pid getppid "$x")
	for m in getppid ptrace audit; do
		p=$(mode_pid "$m" "$x")
		[ -n "$p" ] || continue
		"$ET" report --json -p "$p" -s getppid "$f.dat" > p.json
		expect_eq "$n: getppid count of task $p (modes run in it)" \
			"$(cell p.json getppid syscall count)" \
			"$(awk -v p="pid=$p" '$3 == "getppid" && $5 == p { n += $4 } END { print n }' "$x")"
	done
	"$ET" report --json -p "$main" "$f.dat" > main.json
	for sc in kill rt_sigreturn; do
		expect_eq "$n: $sc count" "$(cell main.json $sc syscall count)" "$(expected $sc "$x")"
	done
	expect_eq "$n: one signal stage per kill(SIGUSR1)" \
		"$(cell main.json kill signal count)" \
		"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$x")"

	# a mode's getppid calls carry its work; the seccomp filter stays on for
	# every later mode, forked children included
	for w in seccomp user_dispatch ptrace audit; do
		m=$([ $w = user_dispatch ] && echo sud || echo $w)
		grep -q "^sysloop: $m " "$x" || continue
		expect_eq "$n: getppid syscalls with $w work" \
			"$(jget "$n.work.json" "sum(c['count'] for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'syscall' and '$w' in c['work'].split('|'))")" \
			"$(awk -v m=$m '$1 == "sysloop:" && $2 == "seccomp" { on = 1 }
				$1 == "sysloop:" && $3 == "getppid" && ($2 == m || (m == "seccomp" && on)) { n += $4 }
				END { print n + 0 }' "$x")"
	done
done

# Each optional stage runs in exactly the syscalls whose work says so, and
# in every one of them.
for f in "$st" "$cp"; do
	n=$(basename "$f")
	check "$n: optional stages only and always with their work" python3 - "$n.work.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
base = {(c['syscall'], c['work']): c['count'] for c in d['cells'] if c['stage'] == 'syscall'}
need = {'seccomp': 'seccomp', 'user_dispatch': 'user_dispatch', 'enter_ptrace': 'ptrace',
        'exit_ptrace': 'ptrace', 'enter_audit': 'audit', 'exit_audit': 'audit',
        'signal': 'signal'}
bad = []
for s, w in need.items():
    for c in d['cells']:
        if c['stage'] != s:
            continue
        k = (c['syscall'], c['work'])
        if w not in c['work'].split('|'):
            bad.append('%s in %s[%s] without its work' % (s, *k))
        elif c['count'] != base[k]:
            bad.append('%s in %d of %d %s[%s]' % (s, c['count'], base[k], *k))
    for k, count in base.items():
        if w in k[1].split('|') and not any(c['stage'] == s and (c['syscall'], c['work']) == k
                                          for c in d['cells']):
            bad.append('%s[%s] without %s' % (*k, s))
print('\n'.join(bad))
sys.exit(bool(bad))
PY
done

# The same stage timed in per-stage and in summary mode: series v2 writes
# every event of a syscall in one burst, the emit stage, so under -icount
# each stage is the same instructions in both files -- parents and ptrace
# stops too (the tracer's own syscalls emit in their own emit stages), only
# emit itself differs.  The test that would have caught v1, whose stages
# held the events between their stamps.
# The medians are the histograms' (entrytrace report --help: exact below
# 256, else the midpoint of a bucket 1/128 of its lower bound wide, kept
# within the cell's min and max), so two cells of the same instructions
# can read up to one bucket apart: kill(self, SIGUSR1)'s body on v3's
# ppc64le 7.3 is 5439 instructions on 95 of 100 calls in the per-stage file
# (the rest 5373..5441: the cell reads its bucket's midpoint, 5423, of
# [5408, 5439]) and on all 100 in the summary one (min = max: it reads
# 5439); v2's x86_64 7.2 the same at 3347 (3351, of [3344, 3359]).  The
# plugin, counting the same kernel with each mode's events on
# (scripts/kernel/record/kernel-mix --events compact|stages --modes
# 'getppid kill0 killsig' 7.3 entrytrace, ARCH=ppc64le; entrytrace diff
# --all), moves no function of kill but the tracer's by more than 1.1
# instructions per call (__timekeeping_advance, the timer interrupt's).
check "$pair: leaf stages: same medians (within $tol ns and one histogram bucket) with every event and with the summary" python3 - "$(basename "$st").work.json" "$(basename "$cp").work.json" parents.txt "$tol" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
parents = {'emit'}
# the workload's syscalls: ones that block (wait4, execve) see different
# scheduling and FPU state in the two runs
cells = lambda d: {(c['syscall'], c['work'], c['stage']): c for c in d['cells']
                   if c['syscall'] in ('getppid', 'kill', 'rt_sigreturn') and
                   'ptrace' not in c['work'].split('|') and
                   c['kind'] != 'derived' and c['stage'] not in parents and c['count'] >= 50}
ca, cb = cells(a), cells(b)
common = sorted(set(ca) & set(cb))
def bucket(v):   # the width of v's histogram bucket (lib/hist.c, 7 sub-bits)
    v = int(v)
    return 1 if v < 256 else 1 << (v.bit_length() - 8)
bad = ['%s[%s] %s: %d vs %d' % (*k, ca[k]['p50'], cb[k]['p50']) for k in common
       if abs(ca[k]['p50'] - cb[k]['p50']) > int(sys.argv[4]) + bucket(max(ca[k]['p50'], cb[k]['p50']))]
print(len(common), 'cells compared'); print('\n'.join(bad))
sys.exit(bool(bad) or len(common) < 30)
PY

# icount: the leaf stages of a plain getppid do not vary (beyond the clock's
# resolution: powerpc's timebase ticks in 2 ns steps under QEMU).
check "$pair: icount: plain getppid leaf stages have p90 - p50 <= $tol ns" jget "$(basename "$st").work.json" \
	"all(c['p90'] - c['p50'] <= $tol for c in d['cells'] if c['syscall'] == 'getppid' and c['work'] == '-' and c['kind'] != 'derived' and c['stage'] not in open('parents.txt').read().split() + ['emit']) or sys.exit(1)"

# The tracer's cost: measured in the stage file, absent from the summary one.
stj=$(basename "$st").json
cpj=$(basename "$cp").json
check "$pair: stage file: an entry_stage event costs 100..5000 ns" jget "$stj" \
	"100 <= d['files'][0]['syscalls']['event_cost_ns'] <= 5000 and d['files'][0]['syscalls']['event_cost_samples'] >= 1000 or sys.exit(1)"
expect_eq "$pair: summary file: no back-to-back stage events to measure" \
	"$(jget "$cpj" "d['files'][0]['syscalls']['event_cost_samples']")" 0
"$ET" report --json --by-work --no-overhead "$st.dat" > st-no.json
"$ET" report --json --no-overhead "$cp.dat" > cp-no.json
check "$pair: --no-overhead: the tracer is outside a plain getppid's total" jget st-no.json \
	"[c['subtracted_overhead'] for c in d['cells'] if c['syscall'] == 'getppid' and c['work'] == '-' and c['stage'] == 'total'] == [0] or sys.exit(1)"
check "$pair: --no-overhead: ...and most of its emit is the per-stage events" jget st-no.json \
	"(lambda e: e['subtracted_overhead'] > e['total'])([c for c in d['cells'] if c['syscall'] == 'getppid' and c['work'] == '-' and c['stage'] == 'emit'][0]) or sys.exit(1)"
# (syscalls that do not block and are not ptrace-stopped: a stage that
# schedules holds other tasks' events, and --no-overhead takes those off)
check "$pair: --no-overhead leaves the stages of getppid, kill, rt_sigreturn alone but emit" jget st-no.json \
	"all(c['subtracted_overhead'] == 0 for c in d['cells'] if c['kind'] != 'derived' and c['stage'] != 'emit' and c['syscall'] in ('getppid', 'kill', 'rt_sigreturn') and 'ptrace' not in c['work'].split('|')) or sys.exit(1)"
check "$pair: --no-overhead takes the per-stage events off emit" jget st-no.json \
	"all(c['subtracted_overhead'] > 0 for c in d['cells'] if c['stage'] == 'emit' and c['syscall'] == 'getppid') or sys.exit(1)"
expect_eq "$pair: --no-overhead has nothing to take off the summary file" \
	"$(jget cp-no.json "sum(c['subtracted_overhead'] for c in d['cells'])")" 0

# diff summary -> stage file: what changes is the tracer's cost, in emit;
# the total only by the glue between stages that the per-stage file times
# (its stages have start times) and the summary cannot; no other stage
# moves by more than the clock's resolution.  On powerpc the timebase ticks in 2 ns steps: a stage
# of the same instructions in both files reads one tick more or less with a
# different phase, which -icount makes consistent enough to be
# "significant" (a 0.5 ns shift of the mean over 100 calls).
"$ET" diff --replicates=syscalls --json --bootstrap 500 -s getppid,kill "$cp.dat" "$st.dat" > d.json
check "$pair: diff summary -> stages: emit grows significantly, by more than 5000 ns" jget d.json \
	"(lambda e: len(e) >= 3 and all(c['significant'] and c['d_median'] > 5000 for c in e))([c for c in d['cells'] if c['stage'] == 'emit' and c['n_base'] >= 30 and c['n_test'] >= 30]) or sys.exit(1)"
# Series v3's summary carries the kernel's span: its total holds the glue
# too, and the stamps of boundaries that are not switches (the stage file
# takes those off): within two stamps of the stage file's, below it; the
# same stamps make its untimed differ, which the next check leaves out.
# The medians read up to one histogram bucket apart (above), either way:
# ppc64le 7.2-legacy's kill(self, SIGUSR1) total is 10421..10490 in the
# summary file (mean 10484) and 10476..10523 in the per-stage one (mean
# 10478), both medians in the bucket [10432, 10495], read as its midpoint
# 10463 (summary) and its midpoint clipped to the min, 10476 (per-stage):
# a d_median of +13 inside one bucket, which orders nothing.
if "$ET" report "$cp.dat" 2>/dev/null | grep -q "total is the kernel's span"; then
	check "$pair: diff summary (with span) -> stages: total within two stamps and one bucket, the summary's the higher" jget d.json \
		"(lambda t, s: len(t) >= 3 and all(-2 * s - 0.5 - (1 << max(0, int(c['median_base']).bit_length() - 8)) <= c['d_median'] <= (0 if c['median_base'] < 256 else 1 << (int(c['median_base']).bit_length() - 8)) for c in t))([c for c in d['cells'] if c['stage'] == 'total' and 'ptrace' not in c['work'].split('|') and c['n_base'] >= 30 and c['n_test'] >= 30], json.load(open('$(basename "$st").json'))['files'][0]['syscalls']['stamp_ns']) or sys.exit(1)"
else
	check "$pair: diff summary -> stages: total moves by the untimed glue only (0..15%)" jget d.json \
		"(lambda t: len(t) >= 3 and all(0 <= c['d_median'] <= 0.15 * c['median_base'] for c in t))([c for c in d['cells'] if c['stage'] == 'total' and 'ptrace' not in c['work'].split('|') and c['n_base'] >= 30 and c['n_test'] >= 30]) or sys.exit(1)"
fi
check "$pair: diff summary -> stages: no other stage significant beyond $tol ns (ptrace stops hold the tracer's emits)" jget d.json \
	"not [c for c in d['cells'] if c['significant'] and abs(c['d_mean']) > $tol and c['stage'] not in ['emit', 'total', 'user_gap', 'untimed'] and 'ptrace' not in c['work'].split('|')] or sys.exit(1)"

# Nulls: each file split in two at random halves, five different ways.
# With Holm at alpha 0.05, a split may show a false positive 5% of the
# time: counted here, judged over all files at the end.
for f in "$st" "$cp"; do
	out=$(DIFF_SPLIT_SPLITS=5 "$SAN/tests/diff-split" "$f.dat")
	with=$(echo "$out" | awk '$1 == "splits_with_significant" { print $2 }')
	echo "# null splits of $(basename "$f"): $with of 5 with a significant cell"
	null_splits=$((null_splits + 5))
	null_with=$((null_with + with))
	check "$(basename "$f"): at most 2 of 5 null splits with a significant cell ($with)" \
		test "$with" -le 2
done

# Header: what this recording could not show.
if jget "$stj" "'sched_switch' in d['files'][0]['events_present'] or sys.exit(1)" >/dev/null; then
	check "$pair: sched_switch recorded: off_cpu not said missing" \
		bash -c "! '$ET' report '$st.dat' | grep -q 'sched:sched_switch not recorded'"
else
	check "$pair: stage file: missing sched_switch is said" grep -q 'sched:sched_switch not recorded' <("$ET" report "$st.dat")
fi
check "$pair: -j1 and -j4 agree on the stage file" cmp <("$ET" report --csv -j1 "$st.dat") <("$ET" report --csv -j4 "$st.dat")
}

null_splits=0 null_with=0
for pair in "${pairs[@]}"; do
	check_pair "$pair"
done
# The family-wise error rate holds: over all null splits, those with any
# significant cell are few (5% expected; 15% leaves room for chance, P < 1%
# at 40 splits if the rate really were 5%).
check "null splits: $null_with of $null_splits with a significant cell, at most 15%" \
	test $((null_with * 100)) -le $((null_splits * 15))
