# SPDX-License-Identifier: GPL-2.0
# Aggregation (entry_stage_hist): the kernel keeps per-CPU cells of
# (syscall, path signature) and writes them once, at a flush.  Each
# recording ARCH-BASE[-TAG]-aggregate.dat was made in the boot that made its
# -aggregate-compact.dat (scripts/guest/plan-aggregate.sh: the same sysloop
# run, compact and then aggregated), so the analyzer must give the same
# syscalls and stage times from both, as stamped (--raw-stamps): counts
# (but the shell's few calls), a total's median within its kernel bucket
# (1/32 of a power of two) of the compact one's, and for every stage that
# ran on half the calls its minimum (series v3, ABI 3: the kernel kept a
# stage's moments) or its mean (series v4, ABI 4: count and sum only;
# under -icount the two runs' means agree, unless one call of the compact
# run was an outlier: then the aggregated mean is the compact median)
# within 1% (or 2 ns).
# weight: 16
. "$(dirname "$0")/lib.sh"

# stat FILE.json SYSCALL STAGE FIELD: one cell's statistic, or None
stat() { jget "$1" "([c['$4'] for c in d['cells'] if c['syscall'] == '$2' and c['stage'] == '$3'] or [None])[0]"; }

na=0
for a in "$DATA"/*-aggregate.dat; do
	[ -f "$a" ] || continue
	k=$(basename "$a" -aggregate.dat) c=$DATA/$k-aggregate-compact na=$((na + 1))
	check "$k: aggregated, the report reads it (exit 0)" "$ET" report "$a"
	# raw stamps: the compact recording may lack the AGG pair's calibration
	# (its entry_stage_calib came before -F's task), which the cells carry
	"$ET" report --raw-stamps --json "$a" > a.json 2> a.err
	"$ET" report --raw-stamps --json "$c.dat" > c.json 2> c.err
	"$ET" report "$a" > a.txt 2>&1
	check "$k: the header says the figures are the kernel's cells" grep -q '^aggregated: .* cells' a.txt
	expect_eq "$k: nothing left out (kernel dropped, orphan cells, ABI errors)" \
		"$(jget a.json "[d['files'][0]['syscalls']['aggregated'][k] for k in ('kernel_dropped', 'orphan_cells')] + [d['files'][0]['abi_errors']]")" \
		"[0, 0, 0]"
	for sc in getppid kill; do
		n=$(expected $sc "$c.expect") an=$(stat a.json $sc total count)
		# the kernel aggregates every task: the recording's shell adds a
		# few; a total comes with the tail, which the run's last call lacks
		check "$k $sc: the aggregated total counts every call sysloop made ($n of $an)" \
			test "$an" -ge $((n - 1)) -a "$an" -le $((n + 5))
		cn=$(stat c.json $sc total count)
		check "$k $sc: the compact total, every call but the run's last (its tail never comes) ($cn of $n)" \
			test "$cn" -ge $((n - 1)) -a "$cn" -le "$n"
		ae=$(stat a.json $sc emit mean) ce=$(stat c.json $sc emit mean)
		check "$k $sc: the burst (emit) writes no event aggregated: $ae ns against $ce" \
			python3 -c "import sys; sys.exit(not float('$ae') < float('$ce'))"
		am=$(stat a.json $sc total p50) cm=$(stat c.json $sc total p50)
		check "$k $sc: total median $am ns aggregated, $cm compact: within a kernel bucket" \
			python3 -c "import sys; a, c = float('$am'), float('$cm'); sys.exit(not abs(a - c) <= c / 32 + 1)"
		# every stage the compact recording has
		stages=$(jget c.json "' '.join(c['stage'] for c in d['cells'] if c['syscall'] == '$sc' and c['stage'] not in ('total', 'untimed', 'user_gap', 'emit'))")
		bad=$(python3 - a.json c.json "$sc" "$stages" <<'EOF'
import json, sys
a, c = (json.load(open(f)) for f in sys.argv[1:3])
sc, stages = sys.argv[3], sys.argv[4].split()
def cell(d, st):
    return next((x for x in d['cells'] if x['syscall'] == sc and x['stage'] == st), None)
# the stages of at least half the calls: a rare one (a pending
# notify_resume) runs in one recording and not the other; their minima,
# exact on both sides (a timer tick lands in one call of each run, at
# another place, and moves a mean)
tot = cell(c, 'total')['count']
stages = [st for st in stages if cell(c, st)['count'] * 2 >= tot]
bad = []
# what the aggregated cells keep: a minimum (ABI 3) or a mean alone (ABI 4)
key = 'min' if all(cell(a, st) is None or cell(a, st)['min'] is not None
                   for st in stages) else 'mean'
def near(v, w):
    return abs(v - w) <= max(2, w / 100)
for st in stages:
    x, y = cell(a, st), cell(c, st)
    if x is None or x[key] is None or not (near(x[key], y[key]) or
                                           (key == 'mean' and near(x[key], y['p50']))):
        bad.append('%s %s/%s' % (st, x and x[key], y[key]))
print(len(stages), key, ' '.join(bad) or 'none')
EOF
)
		read -r nst key bad <<< "$bad"
		check "$k $sc: every stage's $key as the compact recording's ($nst stages, differing: $bad)" \
			test "$bad" = none -a "$nst" -ge 10
	done
	# the analyzer's own recorder in the guest, --aggregate: the same cells
	o=$DATA/$k-aggregate-own.dat
	"$ET" report --raw-stamps --json "$o" > o.json 2> o.err
	for sc in getppid kill; do
		n=$(expected $sc "$c.expect") on=$(stat o.json $sc total count)
		check "$k $sc: entrytrace record --aggregate holds every call too ($n of $on)" \
			test "$on" -ge $((n - 1)) -a "$on" -le $((n + 5))
		om=$(stat o.json $sc total p50) cm=$(stat c.json $sc total p50)
		check "$k $sc: and its total median, $om ns, the compact one's ($cm)" \
			python3 -c "import sys; a, c = float('$om'), float('$cm'); sys.exit(not abs(a - c) <= c / 32 + 1)"
	done
	# --pid cannot see a cell: a cell has no task; --syscall can
	"$ET" report --json -s getppid "$a" > s.json 2>/dev/null
	expect_eq "$k: -s getppid keeps getppid's cells alone" \
		"$(jget s.json "sorted(set(c['syscall'] for c in d['cells']))")" "['getppid']"
done
check "an aggregated recording was checked ($na)" test "$na" -ge 1
# series-v3.md's figures for the burst, as stamped, x86_64 7.3 getppid:
# emit 942 aggregated, 1138 in the same boot's compact run, 1167 in the
# compact fixture the overhead section names (means, -icount instructions)
emits=""
for f in aggregate aggregate-compact compact; do
	"$ET" report --raw-stamps --json -s getppid "$DATA/x86_64-$NEWEST-$f.dat" > e.json 2>/dev/null
	emits+=" $f=$(jget e.json "round([c['mean'] for c in d['cells'] if c['stage'] == 'emit'][0])")"
done
expect_eq "x86_64 $NEWEST getppid: emit as stamped (means)" "$emits" " aggregate=942 aggregate-compact=1138 compact=1167"

# Series v4 (ABI 4): a stage's cell is its count and sum; the burst adds to
# a sum per stage (a count only off the cell's usual path) and reads no
# clock, so emit, as stamped, is what the aggregation costs a getppid there
# (-icount instructions; 1122 compact in the same boot: one
# entry_stage_summary event).  Recorded on entrytrace-65a6d3223cfe
# (PROVENANCE-aggregate.md); 443 and 1147 on 9a16c89ed9a5, before the
# staged copy's stamps lost their test and the stamps went to two arrays;
# 435 and 1140 on 600e62ccb809, before the burst also tested for
# entry_stage_batch
v4=$DATA/x86_64-$NEWEST-v4-aggregate
emits=""
for f in aggregate aggregate-compact; do
	"$ET" report --raw-stamps --json -s getppid "$v4${f#aggregate}.dat" > e.json 2>/dev/null
	emits+=" $f=$(jget e.json "round([c['mean'] for c in d['cells'] if c['stage'] == 'emit'][0])")"
done
expect_eq "x86_64 $NEWEST v4 getppid: emit as stamped (means)" "$emits" " aggregate=380 aggregate-compact=1122"
"$ET" report --json "$v4.dat" > v4.json 2>/dev/null
"$ET" report --json "$DATA/x86_64-$NEWEST-aggregate.dat" > v3.json 2>/dev/null
# the kernel's events: a total has stage == stages, every other is a stage's
totals=$(trace-cmd report -i "$v4.dat" 2>/dev/null | grep -cE ' stage=([0-9]+) stages=\1 ')
expect_eq "v4: every stage cell is count and mean alone (cells less the $totals totals)" \
	"$(jget v4.json "(lambda f: f['cells'] - f['mean_only_cells'])(d['files'][0]['syscalls']['aggregated'])")" "$totals"
check "v4: the file has totals ($totals)" test "$totals" -gt 10
expect_eq "v4: a stage has a mean and no min, stddev or percentile (JSON null)" \
	"$(jget v4.json "[(c['mean'] > 0, c['min'], c['stddev'], c['p50']) for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'syscall']")" \
	"[(True, None, None, None)]"
expect_eq "v4: the total keeps its min and percentiles" \
	"$(jget v4.json "[c['min'] is not None and c['p50'] is not None for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'total']")" "[True]"
expect_eq "v3 (ABI 3) still reads with its stage moments (no mean-only cell)" \
	"$(jget v3.json "(d['files'][0]['syscalls']['aggregated']['mean_only_cells'], [c['min'] is not None for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'syscall'])")" \
	"(0, [True])"
# a diff of the v3 and v4 cells: a stage has means and no median on either
# side (moments only), the total its histogram's; v3 and v4 ran the same path
"$ET" diff --all --json -s getppid "$DATA/x86_64-$NEWEST-aggregate.dat" "$v4.dat" > d.json 2>/dev/null
expect_eq "diff v3 -> v4: stages have no median change (null), the total has one" \
	"$(jget d.json "sorted(set((c['stage'] == 'total', c['d_median'] is None) for c in d['cells']))")" \
	"[(False, True), (True, False)]"
# v4's staged copy stamps without a branch or a test (the scratch in a
# register): some 6 instructions where the calibration, a stamp of shared
# code, subtracts 10 (Documentation/kernel.md), so each stage reads up to 6
# fewer than v3's and the total 65 fewer; the stages are the same, and so
# are those without a stamp of their own in the copy (rcu_eqs_*)
expect_eq "diff v3 -> v4: getppid ran the same stages, each 0 to 6 fewer as stamped, the total 60 to 70 fewer" \
	"$(jget d.json "(sorted(set((c['stage'] == 'total', -70 <= c['d_mean'] <= -60 if c['stage'] == 'total' else -6 <= c['d_mean'] <= 0) for c in d['cells'] if c['stage'] != 'emit')), all(c['status'] == 'both' and c['n_base'] == c['n_test'] for c in d['cells']))")" \
	"([(False, True), (True, True)], True)"
# the staged copy's stamps cost less than the calibration cuts: a stage
# shorter than its cut reads 0, as compact mode reads it per syscall, and
# as the cell's total column does (it read -3 as a mean, 0 as a total)
expect_eq "v4: a stage shorter than its stamps' cut reads 0, not less (arch_enter, kstack_rand, irq_on)" \
	"$(jget v4.json "(min(c['mean'] for c in d['cells'] if c['syscall'] == 'getppid'), sorted(c['stage'] for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] in ('arch_enter', 'kstack_rand', 'irq_on') and c['mean'] == 0 and c['total'] == 0))")" \
	"(0.0, ['arch_enter', 'irq_on', 'kstack_rand'])"
"$ET" report "$v4.dat" > v4.txt 2>&1
check "v4: the header says the kernel keeps no spread per stage" \
	grep -q '^aggregated: .*stages have count and mean (the kernel keeps no spread per stage)' v4.txt
check "v4: the text table prints - for a stage's min" \
	grep -qE '^ +syscall +[0-9]+ +- +[0-9.]+ ' v4.txt

# Damaged cells are said and exit 8, from an uncompressed copy of the
# recording with one field of one event changed (trace-records finds it)
a=$DATA/x86_64-7.3-aggregate.dat
trace-cmd convert --file-version 6 --compression none -i "$a" -o v6.dat >/dev/null 2>&1
expect_exit "the undamaged copy exits 0" 0 sh -c "'$ET' report v6.dat >/dev/null && echo ok >&2"
# poke NAME FIELD N VALUE: the N-th entry_stage_hist event's FIELD set to VALUE
poke() { poke_record "$1.dat" v6.dat entry_stage:entry_stage_hist "$2" "$3" "$4"; }
# the cells of the first (syscall, path): stages, then the span
first=$("$SAN/tests/trace-records" v6.dat entry_stage:entry_stage_hist stage | wc -l)
span=$(trace-cmd report -i v6.dat 2>/dev/null | grep 'entry_stage_hist:' | python3 -c "
import re, sys
for i, l in enumerate(sys.stdin, 1):
    if re.search(r' stage=(\d+) stages=\1 ', l):
        print(i)
        break")
check "the copy has cells ($first) and a span among them (event $span)" test "$first" -gt 0 -a -n "$span"
poke count count "$span" 999999
expect_exit "a span whose buckets do not add up to its count: exit 8" 8 "$ET" report count.dat
"$ET" report --json count.dat > count.json 2>/dev/null
expect_eq "...counted as an ABI error" "$(jget count.json "d['files'][0]['abi_errors']")" 1
poke stage stage 1 200
expect_exit "a stage id beyond the event's stages: exit 8" 8 "$ET" report stage.dat
poke orphan nr "$span" 4242
"$ET" report --json orphan.dat > orphan.json 2>/dev/null
expect_eq "a span of another syscall than its stages: the stages are orphans, left out" \
	"$(jget orphan.json "d['files'][0]['syscalls']['aggregated']['orphan_cells'] > 0 and d['files'][0]['damaged']")" True
# ABI 4: a stage's cell that carries a spread is not a cell of that ABI
trace-cmd convert --file-version 6 --compression none -i "$v4.dat" -o v6.dat >/dev/null 2>&1
expect_exit "v4: the undamaged copy exits 0" 0 sh -c "'$ET' report v6.dat >/dev/null && echo ok >&2"
poke spread max 1 77
expect_exit "v4: a stage cell with a max (ABI 4 keeps none): exit 8" 8 "$ET" report spread.dat
"$ET" report --json spread.dat > spread.json 2>/dev/null
expect_eq "...counted as an ABI error" "$(jget spread.json "d['files'][0]['abi_errors']")" 1
poke abi5 abi 1 5
expect_exit "an entry_stage_hist of ABI 5 (newer than this analyzer): exit 8" 8 "$ET" report abi5.dat
