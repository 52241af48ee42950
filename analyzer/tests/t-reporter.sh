# SPDX-License-Identifier: GPL-2.0
# The reporter's table on the same tree (issue 44): the committed runs of
# scripts/kernel/record/kernel-reporter (analyzer/tests/data/reporter/,
# PROVENANCE.md there: 7.2-legacy and 7.2, tiny entrytrace kernels, stress-ng
# --kill 1 per SELinux mode in each cell; reporter-debian-dynamic/: the
# base cell on Debian's config with PREEMPT_DYNAMIC).  --from derives every
# recording's figures again (entrytrace report --by-arg) and must agree with
# summary.json; the table's rows and the per-target split are checked
# against the recordings and the runs' own counts.
# weight: 8
. "$(dirname "$0")/lib.sh"

KR=$TOP/scripts/kernel/record/kernel-reporter

# reporter_data DIR: the checks every committed reporter run must pass;
# leaves DIR's table in table.md and its derived summary in t.json
reporter_data() {
	local R=$1 nrun ndat kern cells ops
	[ -r "$R/summary.json" ] || _fail "no $R/summary.json: nothing to check"
	"$KR" --from "$R" > table.md 2> table.err
	expect_eq "$(basename "$R"): kernel-reporter --from: every recording derives as summary.json says (exit)" "$?" 0
	sed 's/^/#   /' table.md
	"$KR" --from "$R" --json > t.json 2>/dev/null
	nrun=$(jget "$R/summary.json" "len(d['runs'])")
	ndat=$(ls "$R"/*.dat | wc -l)
	expect_eq "...a recording per run ($nrun)" "$ndat" "$nrun"
	kern=$(jget "$R/summary.json" "' '.join(d['kernels'])")
	cells=$(jget "$R/summary.json" "' '.join(d['cells'])")
	expect_eq "...a table row per kernel and cell ($kern; $cells)" \
		"$(jget t.json "len(d['rows'])")" "$(( $(echo $kern | wc -w) * $(echo $cells | wc -w) ))"
	# each recording: one kill(-1, 0) per bogo-op, as stress-ng 0.15.06's op has
	ops=$(jget "$R/summary.json" "d['ops']")
	expect_eq "...every recording has one kill(-1, 0) per recorded bogo-op ($ops)" \
		"$(jget "$R/summary.json" "sorted(set(r['rec']['kill_all']['count'] for r in d['runs']))")" "[$ops]"
	check "...SELinux adds to each target's check (enforcing over disabled, per target)" \
		jget t.json "all(r['selinux_per_target'] > 100 for r in d['rows']) or sys.exit(1)"
}

# Debian's 7.2 config with PREEMPT_DYNAMIC, so PREEMPT_RCU (the reporter's
# RCU), -O2, both sides: the conversion leaves each target's SELinux check
# and kill(-1, 0)'s SELinux part as they were
reporter_data "$DATA/reporter-debian-dynamic"
check "debian-dynamic: kill(-1, 0)'s SELinux part per target moves by at most 1 instruction, 7.2-legacy -> 7.2" \
	jget t.json "(lambda r: abs(r['7.2']['selinux_per_target'] - r['7.2-legacy']['selinux_per_target']) <= 1)({x['kernel']: x for x in d['rows']}) or sys.exit(1)"
check "...and its part of the SELinux cost per op by under 1%" \
	jget t.json "(lambda r: abs(r['7.2']['kill_all_selinux_us'] / r['7.2-legacy']['kill_all_selinux_us'] - 1) < 0.01)({x['kernel']: x for x in d['rows']}) or sys.exit(1)"

# 7.2 with the five fixes of arch/powerpc/fixes/7.2 beside the pair (base
# and n300): each target's check as it was, and every mode faster than
# 7.2 (the fixes take work out of every syscall's entry and exit)
reporter_data "$DATA/reporter-fixes"
check "7.2+fixes: kill(-1, 0)'s SELinux part per target within 2 instructions of 7.2-legacy's, base and n300" \
	jget t.json "(lambda r: all(abs(r[c, '7.2+fixes']['selinux_per_target'] - r[c, '7.2-legacy']['selinux_per_target']) <= 2 for c in ('base', 'n300')))({(x['cell'], x['kernel']): x for x in d['rows']}) or sys.exit(1)"
check "...and an op shorter than on 7.2 in every mode and cell" \
	jget t.json "(lambda r: all(r[c, '7.2+fixes']['us_per_op'][m] < r[c, '7.2']['us_per_op'][m] for c in ('base', 'n300') for m in ('enforcing', 'permissive', 'disabled')))({(x['cell'], x['kernel']): x for x in d['rows']}) or sys.exit(1)"
# the image column names a kernel-fix image by its base and patches (not by
# its directory, "image"), and the command line says --reuse and --data-as
check "7.2+fixes: PROVENANCE's rows name the base image and the patch count" \
	test "$(grep -c '^| 7.2+fixes-.* | ppc64le-7.2-entrytrace-[0-9a-f]* + 5 patches | ' "$DATA/reporter-fixes/PROVENANCE.md")" = 6
check "...and its command line the --reuse and --data-as it ran with" \
	grep -q '^Recorded by `.* --reuse --data-as fixes ' "$DATA/reporter-fixes/PROVENANCE.md"
# the patches the kernel was built with are still the tree's
for p in "$TOP"/arch/powerpc/fixes/7.2/*.patch; do
	n=$(basename "$p" | cut -c1-4)
	sum=$(awk '/^diff --git /{ d = 1 } /^-- $/{ d = 0 } d' "$p" | sha256sum | cut -c1-16)
	check "7.2+fixes: $n is the patch the kernel was built with ($sum)" \
		grep -q "$n $sum" "$DATA/reporter-fixes/PROVENANCE.md"
done

R=$DATA/reporter
reporter_data "$R"
# kill(-1, 0) checks every process: its instructions grow with them
check "kill(-1, 0) costs more with 300 extra processes than with 60, enforcing, on every kernel" \
	jget t.json "all(b['per_target']['enforcing'] * b['targets'] > a['per_target']['enforcing'] * a['targets'] for a in d['rows'] for b in d['rows'] if a['cell'] == 'base' and b['cell'] == 'n300' and a['kernel'] == b['kernel']) or sys.exit(1)"
# a summary.json that says another figure than its recording is found
mkdir -p planted
cp "$R"/*.dat "$R/summary.json" planted/
python3 -c '
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["runs"][0]["rec"]["kill_all"]["p50"] += 1000
json.dump(s, open(p, "w"))' planted/summary.json
"$KR" --from planted > planted.md 2> planted.err
expect_eq "a summary.json figure its recording does not give fails --from (exit 1)" "$?" 1
check "...naming the recording" grep -q 'derives .* summary.json says' planted.err
expect_exit "--from a directory without summary.json fails, naming it" 1 "$KR" --from /nonexistent
expect_exit "--cells with an unknown cell is refused" 2 "$KR" --cells base,n3000 7.2
# what the committed runs say (analyzer/tests/data/reporter/): the
# conversion alone (first kernel -> second) leaves the SELinux part of an
# op and each target's check as they were, in every cell
check "the conversion alone: the SELinux cost per op moves by under 1% in every cell" \
	jget t.json "(lambda r: all(abs(r[c, 1]['selinux_us'] / r[c, 0]['selinux_us'] - 1) < 0.01 for c in {k[0] for k in r}))({(x['cell'], ['7.2-legacy', '7.2'].index(x['kernel'])): x for x in d['rows']}) or sys.exit(1)"
check "...and, audit off, one CPU, kill(-1, 0)'s SELinux part per target by at most 1 instruction" \
	jget t.json "(lambda r: all(abs(r[c, 1]['selinux_per_target'] - r[c, 0]['selinux_per_target']) <= 1 for c in {k[0] for k in r} if r[c, 0]['params']['AUDIT'] == 'off' and r[c, 0]['params']['SMP'] == '1'))({(x['cell'], ['7.2-legacy', '7.2'].index(x['kernel'])): x for x in d['rows']}) or sys.exit(1)"
# two CPUs (smp2): enforcing per target agrees (841.4, 841.5) but 7.2's
# disabled run has 1.8 more (470.6 against 468.8), so the part moves by 1.8
check "...on two CPUs by at most 2" \
	jget t.json "(lambda r: all(abs(r[c, 1]['selinux_per_target'] - r[c, 0]['selinux_per_target']) <= 2 for c in {k[0] for k in r} if r[c, 0]['params']['SMP'] == '2'))({(x['cell'], ['7.2-legacy', '7.2'].index(x['kernel'])): x for x in d['rows']}) or sys.exit(1)"
check "an audit rule on kill makes an op dozens of times longer, on both kernels (audkill over n300, enforcing)" \
	jget t.json "(lambda r: all(r['audkill', k]['us_per_op']['enforcing'] > 20 * r['n300', k]['us_per_op']['enforcing'] for k in ('7.2-legacy', '7.2')))({(x['cell'], x['kernel']): x for x in d['rows']}) or sys.exit(1)"
check "...while the process count moves the tax (base -> n300, enforcing, more than 5 points)" \
	jget t.json "(lambda r: all(r['base', k]['tax_pct'] - r['n300', k]['tax_pct'] > 5 for k in ('7.2-legacy', '7.2')))({(x['cell'], x['kernel']): x for x in d['rows']}) or sys.exit(1)"
grep -q 'in instructions no factor tried makes the SELinux part grow' table.md
expect_eq "the verdict: no factor tried makes the SELinux part grow from 7.2-legacy to 7.2" "$?" 0
