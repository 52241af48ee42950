# SPDX-License-Identifier: GPL-2.0
# entrytrace diff on real recordings: a null (one recording split at random
# in two halves), injected shifts of known size, a real pair recorded without
# and with a 2 us user-space delay, the gate, formats and the plot; runs as
# replicates on A/A and planted host recordings.
#
# Most of it is about the per-syscall machinery and passes
# --replicates=syscalls: a single host recording a side is otherwise not
# tested at all (replicates none, below); the spin pair's 2 us shift is far
# beyond this host's run-to-run noise.
# weight: 29
. "$(dirname "$0")/lib.sh"

split=$SAN/tests/diff-split
base=$DATA/host-diff-base.dat
spin=$DATA/host-diff-spin.dat

# Null: the same kernel, moment and distribution on both sides.
# (the host fixtures recorded for one purpose; host-aa and host-dd, twenty
# more, are the A/A and planted sets of the runs tests below)
for f in "$DATA"/host-{kill-getppid,edges,lost,diff-base,diff-spin}.dat; do
	out=$("$split" "$f")
	expect_eq "null split of $(basename "$f"): nothing significant ($(echo "$out" | awk '$1 == "tests" { print $2 }') tests)" \
		"$(echo "$out" | awk '$1 == "significant" && NF == 2 { print $2 }')" 0
done

# Injected shifts on real data: detected, and the median CI covers them.
for shift in 20 50 2000; do
	"$split" "$DATA/host-kill-getppid.dat" total $shift > inj.txt
	check "total +$shift ns: every busy syscall's shift is significant" \
		awk 'END { exit !(NR > 0 && bad == 0) } $1 == "cell" && $8 != 1 { bad++ }' inj.txt
	check "total +$shift ns: the median CI covers $shift" \
		awk -v s=$shift 'END { exit !(NR > 0 && bad == 0) } $1 == "cell" && ($12 > s || $13 < s) { bad++ }' inj.txt
done

# A real pair: the test run spins 2000 ns in user space before each syscall.
"$ET" diff --replicates=syscalls --json "$base" "$spin" > d.json
check "diff JSON is valid" python3 -m json.tool d.json
expect_eq "the stage that moved is named first" \
	"$(jget d.json "[c['stage'] for c in d['cells'] if c['n_base'] >= 30 and c['n_test'] >= 30][0]")" user_gap
for sc in getppid kill; do
	check "$sc user_gap: median change within [2000, 2200] ns" jget d.json \
		"(lambda c: 2000 <= c['d_median'] <= 2200 and c['significant'] or sys.exit(1))([c for c in d['cells'] if c['syscall']=='$sc' and c['stage']=='user_gap' and c['n_base'] > 100][0])"
	check "$sc: the stages explain the total's change (residual 0 on a stock trace)" jget d.json \
		"all(abs(g['residual']) < 1e-6 for g in d['groups'] if g['syscall']=='$sc') or sys.exit(1)"
done

# Every group says whether its total moved (significant, and the mean or
# median CI leaves out 0), and only a group that moved has a focus.
check "groups: 'moved' follows the total's cell, focus only where it moved" jget d.json \
	"all(g['moved'] == (t['significant'] and any(t[k][0] > 0 or t[k][1] < 0 for k in ('d_mean_ci', 'd_median_ci') if t.get(k))) and (g['moved'] or g['focus'] is None) for g in d['groups'] for t in d['cells'] if t['syscall'] == g['syscall'] and t['work'] == g['work'] and t['stage'] == 'total') or sys.exit(1)"
expect_eq "groups: in the spin pair kill's total moved, getppid's did not" \
	"$(jget d.json "[g['moved'] for g in d['groups'] if g['syscall'] in ('kill', 'getppid') and g['n_base'] > 100]")" "[True, False]"

# A file against itself: no change anywhere.
"$ET" diff --replicates=syscalls --json "$base" "$base" > same.json
expect_eq "a file against itself: no significant cell" \
	"$(jget same.json "sum(1 for c in d['cells'] if c['significant'])")" 0
expect_eq "a file against itself: every change 0" \
	"$(jget same.json "max(abs(c['d_mean']) for c in d['cells'])")" 0.0

# Several files per side, threads, seeds.
"$ET" diff --replicates=syscalls --json "$base" "$base" -- "$spin" "$spin" > two.json
expect_eq "BASE... -- TEST...: counts add up" \
	"$(jget two.json "[g['n_base'] for g in d['groups'] if g['syscall']=='getppid' and g['work']=='tracepoint'][0]")" \
	"$((2 * $(jget d.json "[g['n_base'] for g in d['groups'] if g['syscall']=='getppid' and g['work']=='tracepoint'][0]")))"
"$ET" diff --replicates=syscalls -j1 --json "$base" "$spin" > j1.json
check "-j1 gives the same diff" cmp d.json j1.json
"$ET" diff --replicates=syscalls --seed 7 --json "$base" "$spin" > s7.json
check "another seed changes only the bootstrap intervals" jget s7.json \
	"all(a['d_median'] == b['d_median'] and a.get('p_adj') == b.get('p_adj') for a, b in zip(d['cells'], json.load(open('d.json'))['cells'])) or sys.exit(1)"

# Gate.
# (trips: a guest pair under -icount, SELinux enforcing adds 219 instructions
# to kill; the host spin pair's user_gap shift hides in its means' outliers)
xe="$DATA/x86_64-7.3-noselinux.dat $DATA/x86_64-7.3-enforcing.dat"
expect_exit "--fail-on total>5% trips (exit 6) on kill's +32.2%" 6 "$ET" diff --replicates=syscalls --fail-on 'total>5%' $xe
check "--fail-on total>50% does not" "$ET" diff --replicates=syscalls --fail-on 'total>50%' $xe
expect_exit "--fail-on kill:total>200ns trips (+219 ns)" 6 "$ET" diff --replicates=syscalls --fail-on 'kill:total>200ns' $xe
check "--fail-on kill:total>250ns does not" "$ET" diff --replicates=syscalls --fail-on 'kill:total>250ns' $xe
check "--fail-on user_gap>500% does not" "$ET" diff --replicates=syscalls --fail-on 'user_gap>500%' "$base" "$spin"
check "--fail-on *>1000% does not" "$ET" diff --replicates=syscalls --fail-on '*>1000%' "$base" "$spin"
check "--fail-on on a file against itself does not" "$ET" diff --replicates=syscalls --fail-on '*>0%' "$base" "$base"
expect_exit "a malformed --fail-on is a usage error" 2 "$ET" diff --replicates=syscalls --fail-on 'user_gap>>5' "$base" "$spin"
expect_exit "only one file" 2 "$ET" diff "$base"

# Formats and the plot.
"$ET" diff --replicates=syscalls --csv "$base" "$spin" > d.csv
expect_eq "CSV rows = JSON cells" "$(($(wc -l < d.csv) - 1))" "$(jget d.json "len(d['cells'])")"
ncol=$(head -1 d.csv | tr ',' '\n' | wc -l)
check "every CSV row has the header's $ncol columns (the work field quoted)" \
	awk -F, -v n="$ncol" 'NR > 1 { gsub(/"[^"]*"/, "w") } NF != n { bad = 1 } END { exit bad || NR < 2 }' d.csv
expect_eq "CSV: a row's mean_base is the JSON cell's" \
	"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mean_base") k = i } NR == 2 { gsub(/"[^"]*"/, "w"); print $k }' d.csv)" \
	"$(jget d.json "'%.3f' % d['cells'][0]['mean_base']")"
check "text is sorted by contribution, user_gap on top" \
	awk '/^syscall \[work\] +stage/ { getline; exit !($3 == "user_gap") }' <("$ET" diff --replicates=syscalls "$base" "$spin")
"$ET" diff --replicates=syscalls --plot d.svg "$base" "$spin" > /dev/null
check "the plot is well-formed SVG with a base and a test curve per panel" python3 -c "
import xml.etree.ElementTree as E, sys
r = E.parse('d.svg').getroot()
ns = '{http://www.w3.org/2000/svg}'
panels = [g for g in r.iter(ns + 'g')]
lines = [len(g.findall(ns + 'polyline')) for g in panels]
sys.exit(not (len(panels) >= 2 and all(n == 2 for n in lines)))"
check "the first panel is the injected stage" grep -q 'user_gap' <(grep -m1 'font-weight="bold">[a-z]' d.svg | sed -n 2p; grep -o 'font-weight="bold">[^<]*' d.svg | sed -n 2p)

# A gate that checked nothing fails with its own status (7), naming why.
expect_exit "--fail-on a stage a stock trace cannot show (seccomp): exit 7" 7 \
	"$ET" diff --replicates=syscalls --fail-on 'seccomp>2%' "$base" "$spin"
check "...and says the stage cannot be measured on a stock kernel" grep -q \
	"'seccomp>2%' checked nothing: stage 'seccomp' cannot be measured on the base (stock kernel" \
	<("$ET" diff --replicates=syscalls --fail-on 'seccomp>2%' "$base" "$spin" 2>&1 >/dev/null)
expect_exit "--fail-on a mistyped syscall: exit 7" 7 "$ET" diff --replicates=syscalls --fail-on 'nosuchsys:total>2%' "$base" "$spin"
check "...naming it and the architecture" grep -q "no syscall 'nosuchsys' on x86_64" \
	<("$ET" diff --replicates=syscalls --fail-on 'nosuchsys:total>2%' "$base" "$spin" 2>&1 >/dev/null)
compact=$DATA/x86_64-6.12-compact.dat
expect_exit "--fail-on over files sharing no cell (stock vs summary mode): exit 7" 7 \
	"$ET" diff --replicates=syscalls --fail-on 'total>2%' "$base" "$compact"
expect_exit "diff without a gate over files sharing no cell: exit 4" 4 "$ET" diff --replicates=syscalls "$base" "$compact"
expect_exit "one rule that checks nothing fails a gate whose other rule passes" 7 \
	"$ET" diff --replicates=syscalls --fail-on 'user_gap>500%,nosuchsys:total>1%' "$base" "$spin"
expect_exit "a rule that trips still trips next to one that checks nothing" 6 \
	"$ET" diff --replicates=syscalls --fail-on 'total>5%,nosuchsys:total>1%' $xe

# The star is Mann-Whitney after Holm; the shift interval is the one that
# test implies at that level, so the two agree on every cell.  Real pairs:
# the spin pair, the SELinux scenarios, the ptrace injection.
x=$DATA/x86_64-7.3
for pair in "$base $spin" "$x-noselinux.dat $x-enforcing.dat" "$x-noselinux.dat $x-selinux.dat" \
	"$DATA/x86_64-6.12-ptrace-a.dat $DATA/x86_64-6.12-ptrace-inject.dat" \
	"$DATA/ppc64le-6.12-noselinux.dat $DATA/ppc64le-7.3-noselinux.dat"; do
	set -- $pair
	"$ET" diff --replicates=syscalls --json "$1" "$2" > hl.json
	agree=$(jget hl.json "(lambda t: '%d/%d' % (sum(1 for c in t if c['significant'] == ((c['shift_ci'][0] or -1e300) > 0 or (c['shift_ci'][1] or 1e300) < 0)), len(t)))([c for c in d['cells'] if 'shift_ci' in c])")
	expect_eq "$(basename "$1" .dat) -> $(basename "$2" .dat): starred exactly where the shift interval leaves out 0" \
		"$(echo "$agree" | awk -F/ '{ print ($1 == $2 && $2 > 0) }')" 1
	check "...($agree cells), and each says which test the star is" jget hl.json \
		"all(c['test'] == 'mann-whitney-holm' for c in d['cells'] if 'shift_ci' in c) or sys.exit(1)"
done
"$ET" diff --replicates=syscalls --json "$x-noselinux.dat" "$x-enforcing.dat" > se.json
# a few large outliers widen the mean's interval, not the shift's
"$ET" diff --replicates=syscalls --json "$base" "$spin" > hs.json
expect_eq "kill[tracepoint] user_gap (host, base -> spin): starred, mean CI covers 0, shift CI does not" \
	"$(jget hs.json "[(c['significant'], c['mean_ci_covers_0'], c['shift_ci'][0] > 0) for c in d['cells'] if c['syscall'] == 'kill' and c['stage'] == 'user_gap' and c['work'] == 'tracepoint'][0]")" \
	"(True, True, True)"
check "the text names the test behind the star" grep -q '^\* significant: Mann-Whitney U' <("$ET" diff --replicates=syscalls "$base" "$spin")

# where: two words for the two reasons there is no stage.
expect_eq "where: kill's total moved with no stage to hold it, getppid's did not move" \
	"$(jget d.json "[g['where'] for g in d['groups'] if g['syscall'] in ('kill', 'getppid') and g['n_base'] > 100]")" \
	"['no_stage', 'not_moved']"
expect_eq "...and the text says the same" \
	"$("$ET" diff --replicates=syscalls "$base" "$spin" | awk '$1 == "kill" || $1 == "getppid" { if (NF == 10) print $1, $10 }' | tr '\n' ' ')" \
	"kill no_stage getppid not_moved "

# A cell on one side only has no change: "-", and null in JSON (not +0.0).
"$ET" diff --replicates=syscalls --min-count 0 "$x-noselinux.dat" "$x-enforcing.dat" > se.txt
expect_eq "one-sided cells: mean and median change are '-'" \
	"$(awk '/ran on (base|test) only$/ && ($5 != "-" || $6 != "-") { bad++ } /ran on (base|test) only$/ { n++ } END { print (n > 0 && !bad) }' se.txt)" 1
expect_eq "one-sided cells in JSON: d_mean and the missing side's mean are null" \
	"$(jget se.json "set((c['d_mean'], c['mean_base' if c['status'] == 'test_only' else 'mean_test']) for c in d['cells'] if c['status'] in ('test_only', 'base_only'))")" "{(None, None)}"

# ---- Runs as replicates (issue 24) ---------------------------------------------
# host-aa: one binary, one kernel, five recordings a side, alternating (an A/A
# pair); host-dd64/4096: read(2) clears 4032 bytes more per syscall on the test
# side (a planted difference).  PROVENANCE-replicates.md.
aa_a=() aa_b=() dd64=() dd4k=()
for i in 1 2 3 4 5; do
	aa_a+=("$DATA/host-aa-a$i.dat") aa_b+=("$DATA/host-aa-b$i.dat")
	dd64+=("$DATA/host-dd64-$i.dat") dd4k+=("$DATA/host-dd4096-$i.dat")
done
"$ET" diff --json "${aa_a[@]}" -- "${aa_b[@]}" > aa.json
expect_eq "two or more recordings a side: runs are the replicates, said in the JSON" \
	"$(jget aa.json "(d['replicates'], d['runs_base'], d['runs_test'])")" "('runs', 5, 5)"
check "...and in the text header" grep -q '^replicates: runs: .* 5 base and 5 test recordings' \
	<("$ET" diff "${aa_a[@]}" -- "${aa_b[@]}")
check "runs: every tested cell is Yuen's t over the recordings, with its t and df" jget aa.json \
	"all(c['test'] == 'yuen-runs-holm' and 'df' in c and 'shift_ci' not in c for c in d['cells'] if 'p_adj' in c) and any('p_adj' in c for c in d['cells']) or sys.exit(1)"
expect_eq "A/A, runs: no significant cell" \
	"$(jget aa.json "sum(1 for c in d['cells'] if c['significant'])")" 0
check "A/A, runs: the gate holds (total>3%,*>3%)" \
	"$ET" diff --fail-on 'total>3%,*>3%' "${aa_a[@]}" -- "${aa_b[@]}"
# the same pair with every syscall a replicate stars run-to-run noise
"$ET" diff --replicates=syscalls --json "${aa_a[@]}" -- "${aa_b[@]}" > aas.json
expect_eq "A/A, syscalls as replicates: getppid's and kill's totals starred (what runs fix)" \
	"$(jget aas.json "sorted(c['syscall'] for c in d['cells'] if c['significant'] and c['stage'] == 'total' and c['n_base'] > 1000)")" \
	"['getppid', 'kill']"
# Welch's t by hand from each recording's median (entrytrace report --json)
for f in "${aa_a[@]}" "${aa_b[@]}"; do
	"$ET" report --json "$f" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print([c['p50'] for c in d['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'total'][0])"
done > aa-med.txt 2>aa-med.err
check "each recording's getppid median read (10 of them)" test "$(grep -c . aa-med.txt)" = 10
# Yuen's t by hand: five a side, one trimmed at each end, winsorized variances
# (getppid's medians are under 256 ns: the histogram holds them to the ns)
expect_eq "runs: getppid total's Yuen t and df are those of the ten recordings' medians" \
	"$(python3 -c "
import json, statistics as s
v = [float(x) for x in open('aa-med.txt')]
def side(x):
    x = sorted(x); n = len(x); g = int(0.2 * n); h = n - 2 * g
    w = [min(max(y, x[g]), x[n - g - 1]) for y in x]
    # (the least variance: a value rounded to 1 ns, 1/12, as the analyzer's)
    return s.mean(x[g:n - g]), max((n - 1) * s.variance(w) / (h * (h - 1)), 1 / 12 / h), h
(ma, da, ha), (mb, db, hb) = side(v[:5]), side(v[5:])
t = (mb - ma) / (da + db) ** 0.5
df = (da + db) ** 2 / (da * da / (ha - 1) + db * db / (hb - 1))
c = [c for c in json.load(open('aa.json'))['cells'] if c['syscall'] == 'getppid' and c['stage'] == 'total' and c['n_base'] > 1000][0]
print(abs(c['t'] - t) < 1e-4 * max(1, abs(t)) and abs(c['df'] - df) < 1e-4 * df and c['median_base'] == round(ma, 1))")" True
"$ET" diff --fail-on 'total>3%' "${dd64[@]}" -- "${dd4k[@]}" > /dev/null 2> dd.err
expect_eq "planted (dd bs=64 -> 4096), runs: the gate trips (exit 6)" "$?" 6
check "...on read's total, naming the [work] group and the median's interval" \
	grep -q "tripped: read \[tracepoint\] total +[0-9.]*% (median +[0-9.]* ns \[+[0-9.]*, +[0-9.]*\], p " dd.err
check "...and on nothing else" test "$(grep -c tripped dd.err)" = 1

# One recording a side on a real clock: nothing tested, nothing gated.
"$ET" diff "$base" "$spin" > none.txt
check "one recording a side: replicates none, said in the header" \
	grep -q '^replicates: none: one recording a side on a real clock' none.txt
check "...no star anywhere, where untested" \
	awk '/ \*$/ { exit 1 } $1 == "getppid" && $3 ~ /^[0-9]+$/ { g = $10 } END { exit g != "untested" }' none.txt
expect_eq "...JSON: replicates none, no cell tested" \
	"$("$ET" diff --json "$base" "$spin" | python3 -c "import json, sys; d = json.load(sys.stdin); print(d['replicates'], d['tests'], sum('p_adj' in c for c in d['cells']))")" "none 0 0"
expect_exit "...a time rule checks nothing: exit 7" 7 "$ET" diff --fail-on 'user_gap>50%' "$base" "$spin"
check "...saying why and what to do" grep -q "checked nothing: one recording a side on a real clock.*--replicates=syscalls" \
	<("$ET" diff --fail-on 'user_gap>50%' "$base" "$spin" 2>&1 >/dev/null)
expect_exit "--replicates=runs with one recording a side: usage error" 2 \
	"$ET" diff --replicates=runs "$base" "$spin"
expect_exit "--replicates=sometimes: usage error" 2 "$ET" diff --replicates=sometimes "$base" "$spin"

# The gate's rules: no empty gate, * is the kernel's stages, units.
expect_exit "--fail-on '': usage error (a gate with no rule would pass)" 2 "$ET" diff --fail-on '' "$base" "$spin"
expect_exit "--fail-on ',': usage error" 2 "$ET" diff --fail-on ',' "$base" "$spin"
check "--fail-on '*>50%' does not trip on user space (user_gap moved 2 us)" \
	"$ET" diff --replicates=syscalls --fail-on '*>50%' "$base" "$spin"
expect_exit "--fail-on kill:total>0.2us trips (us accepted)" 6 \
	"$ET" diff --replicates=syscalls --fail-on 'kill:total>0.2us' $xe
check "--fail-on kill:total>0.001ms does not (ms accepted)" \
	"$ET" diff --replicates=syscalls --fail-on 'kill:total>0.001ms' $xe
"$ET" diff --replicates=syscalls --fail-on 'total>5%' $xe 2> trip.err >/dev/null
check "a trip names the [work] group and the mean's interval" \
	grep -q "tripped: kill \[-\] total +30.2% (mean +219.0 ns \[+219.0, +219.0\], p " trip.err
# a starred cell whose mean interval covers 0 (a shift a few outliers hide in
# the mean: kill user_gap above) does not trip a rule on the mean
check "a starred cell whose mean CI covers 0 does not trip (kill user_gap>1%)" \
	"$ET" diff --replicates=syscalls --fail-on 'kill:user_gap>1%' "$base" "$spin"

# Two kinds of input (source.c's kinds[]): refused by their kinds' words
# and units, whichever side each is on.
mixf="$DATA/mix-ppc64le-7.2-base-enforcing.mix.gz" datf="$DATA/ppc64le-7.2-stage.dat"
expect_exit "plugin output against a trace: usage error" 2 "$ET" diff "$mixf" "$datf"
"$ET" diff "$mixf" "$datf" 2>kinds.err >/dev/null
"$ET" diff "$datf" "$mixf" 2>>kinds.err >/dev/null
check "the refusal names each side's kind and unit" grep -qx \
	"entrytrace diff: the base is QEMU plugin output (instructions) and the test a trace (ns): give two of one kind" kinds.err
check "...the other way round too" grep -qx \
	"entrytrace diff: the base is a trace (ns) and the test QEMU plugin output (instructions): give two of one kind" kinds.err

# --json carries the gate's verdict, the same as the exit status says
"$ET" diff --json --replicates=syscalls --fail-on 'total>5%' $xe > gate-trip.json 2>gate-trip.err
expect_eq "diff --json: a tripped gate is in the JSON (result, exit)" \
	"$(jget gate-trip.json "(d['gate']['result'], d['gate']['exit'], d['gate']['rules'])")" "('tripped', 6, 'total>5%')"
check "...with the line it printed on stderr" \
	jget gate-trip.json "d['gate']['messages'][0] == open('gate-trip.err').read().splitlines()[0] or sys.exit(1)"
"$ET" diff --json --replicates=syscalls --fail-on 'total>50%' $xe > gate-pass.json
expect_eq "...a passed gate too" "$(jget gate-pass.json "(d['gate']['result'], d['gate']['exit'])")" "('passed', 0)"
check "...which says what size of change its cells could have shown" \
	jget gate-pass.json "len(d['gate']['messages']) == 1 and 'did not trip' in d['gate']['messages'][0] and 'could show changes of' in d['gate']['messages'][0] or sys.exit(1)"
check "each tested cell says what it could have detected (ns, %, the clock's step)" \
	jget gate-pass.json "all(c['detectable'] > 0 and c['clock_step'] >= 1 for c in d['cells'] if c.get('p') is not None) or sys.exit(1)"
# a coarse clock shows in the values: this host's stress-ng recordings
# were made on a VM whose clock moves in ~10 ns steps (210, 211, 220, ...)
"$ET" diff --json --replicates=syscalls -s kill "$DATA/host-stressng-kill-0.15.06.dat" "$DATA/host-stressng-kill-0.19.02.dat" > step.json
expect_eq "the clock's step is read from the values (10 ns on that VM)" \
	"$(jget step.json "sorted(set(c['clock_step'] for c in d['cells'] if c['stage'] == 'total' and c['work'] == 'tracepoint' and c['clock_step']))")" "[10]"
check "...and nothing detectable is below it" \
	jget step.json "all(c['detectable'] >= 10 for c in d['cells'] if c['clock_step'] == 10) or sys.exit(1)"
expect_eq "an -icount guest's clock counts single ns (1)" \
	"$(jget gate-pass.json "sorted(set(c['clock_step'] for c in d['cells'] if c['clock_step']))")" "[1]"
"$ET" diff --json --replicates=syscalls --fail-on 'seccomp>2%' "$base" "$spin" > gate-none.json 2>/dev/null
expect_eq "...and one that checked nothing" "$(jget gate-none.json "(d['gate']['result'], d['gate']['exit'])")" "('checked_nothing', 7)"
"$ET" diff --json --replicates=syscalls $xe > gate-null.json
expect_eq "...null without --fail-on" "$(jget gate-null.json "d['gate']")" "None"
"$ET" diff --replicates=syscalls --fail-on 'total>5%' $xe 2>&1 >/dev/null | head -1 > gate-p.txt
check "a trip's p is the table's, never 'p 0'" sh -c "! grep -q 'p 0)' gate-p.txt"

# options anywhere, as in the other commands: after the files, on either side of --
set -- $xe
"$ET" diff --replicates=syscalls --top 3 "$1" "$2" > before.txt
"$ET" diff "$1" "$2" --top 3 --replicates=syscalls > after.txt
check "options after BASE TEST read as options" cmp before.txt after.txt
expect_exit "...--fail-on after the files trips as before (exit 6)" 6 "$ET" diff "$1" "$2" --replicates=syscalls --fail-on 'total>5%'
"$ET" diff --top 3 "$DATA"/host-aa-a1.dat "$DATA"/host-aa-a2.dat -- "$DATA"/host-aa-b1.dat "$DATA"/host-aa-b2.dat > sides1.txt
"$ET" diff "$DATA"/host-aa-a1.dat "$DATA"/host-aa-a2.dat --top 3 -- "$DATA"/host-aa-b1.dat "$DATA"/host-aa-b2.dat > sides2.txt
"$ET" diff "$DATA"/host-aa-a1.dat "$DATA"/host-aa-a2.dat -- "$DATA"/host-aa-b1.dat "$DATA"/host-aa-b2.dat --top 3 > sides3.txt
check "BASE... -- TEST...: an option before, between or after the sides reads the same" \
	sh -c "cmp sides1.txt sides2.txt && cmp sides1.txt sides3.txt && grep -q '2 base and 2 test recordings' sides1.txt"
