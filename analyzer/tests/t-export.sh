# SPDX-License-Identifier: GPL-2.0
# entrytrace export: Trace Event Format JSON that viewers accept, properly
# nested, with as many syscall slices as the report counts.
# weight: 15
. "$(dirname "$0")/lib.sh"

# The format: the parts of the Trace Event Format spec that viewers rely on.
check_format() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and isinstance(d.get('traceEvents'), list), 'object with traceEvents'
assert d.get('displayTimeUnit') in ('ms', 'ns'), 'displayTimeUnit'
for e in d['traceEvents']:
    ph = e.get('ph')
    assert ph in ('X', 'i', 'M'), 'phase %r' % ph
    assert isinstance(e.get('pid'), int) and isinstance(e.get('tid'), int), 'pid/tid'
    assert isinstance(e.get('name'), str) and e['name'], 'name'
    if ph == 'M':
        assert e['name'] in ('thread_name', 'process_name') and 'name' in e['args']
        continue
    assert isinstance(e.get('ts'), (int, float)) and e['ts'] >= 0, 'ts'
    if ph == 'X':
        assert isinstance(e.get('dur'), (int, float)) and e['dur'] >= 0, 'dur'
    if ph == 'i':
        assert e.get('s') in ('t', 'p', 'g'), 'instant scope'
    assert isinstance(e.get('args', {}), dict), 'args'
PY
}

# Proper nesting: per thread, any two slices are disjoint or one holds the
# other; every stage slice lies inside a syscall slice.
check_nesting() {
	python3 - "$1" <<'PY'
import json, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
per = defaultdict(list)
for e in d['traceEvents']:
    if e['ph'] == 'X':
        # ns integers from the microsecond fractions
        s = round(e['ts'] * 1000); per[e['tid']].append((s, s + round(e['dur'] * 1000), e['cat']))
bad = 0
for tid, xs in per.items():
    xs.sort(key=lambda x: (x[0], -x[1]))
    stack = []
    for s, t, cat in xs:
        while stack and stack[-1][1] <= s:
            stack.pop()
        if stack and t > stack[-1][1]:
            bad += 1          # overlaps its enclosing slice's end
        if cat == 'stage' and not stack:
            bad += 1          # a stage outside any syscall
        stack.append((s, t, cat))
print(bad)
sys.exit(bad != 0)
PY
}

for f in "$DATA"/host-kill-getppid.dat "$DATA"/host-edges.dat "$DATA"/host-lost.dat \
	 "$DATA"/x86_64-6.12-stage.dat "$DATA"/x86_64-6.12-compact.dat; do
	[ -f "$f" ] || { _fail "$(basename "$f") missing"; continue; }
	n=$(basename "$f" .dat)
	"$ET" export -o "$n.json" "$f" 2>/dev/null
	check "$n: export is valid Trace Event Format" check_format "$n.json"
	check "$n: slices nest properly" check_nesting "$n.json"
	"$ET" report --json "$f" > "$n.report.json"
	# (entrytrace kernels: a syscall whose deferred tail never arrived has
	# no total in the report, but is complete and drawn to its last stage)
	expect_eq "$n: complete syscall slices = the report's complete syscalls" \
		"$(jget "$n.json" "sum(1 for e in d['traceEvents'] if e.get('cat') == 'syscall' and e['args']['complete'])")" \
		"$(jget "$n.report.json" "d['files'][0]['syscalls']['complete']")"
	expect_eq "$n: per syscall too" \
		"$(jget "$n.json" "sorted(__import__('collections').Counter(e['name'] for e in d['traceEvents'] if e.get('cat') == 'syscall' and e['args']['complete']).items())")" \
		"$(jget "$n.report.json" "sorted({c['syscall']: max(x['count'] for x in d['cells'] if x['syscall'] == c['syscall'] and x['stage'] in ('total', 'syscall')) for c in d['cells']}.items())")"
done

expect_eq "a signal-delivered marker per kill(SIGUSR1)" \
	"$(jget host-kill-getppid.json "sum(1 for e in d['traceEvents'] if e['name'] == 'signal delivered')")" \
	"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$DATA/host-kill-getppid.expect")"
expect_eq "a lost-events marker per gap trace-cmd reports" \
	"$(jget host-lost.json "sum(1 for e in d['traceEvents'] if e.get('cat') == 'lost')")" \
	"$(trace-cmd report "$DATA/host-lost.dat" 2>/dev/null | grep -c 'EVENTS DROPPED')"
expect_eq "the task renamed by exec is renamed on its track" \
	"$(jget host-edges.json "len(set(e['args']['name'].rsplit('-', 1)[0] for e in d['traceEvents'] if e['ph'] == 'M' and e['pid'] == $(awk '$2 == "getppid" { sub("pid=", "", $5); print $5; exit }' "$DATA/host-edges.expect")))")" 2
"$ET" export -s getppid -o g.json "$DATA/host-kill-getppid.dat" 2>/dev/null
expect_eq "filters apply" "$(jget g.json "sorted(set(e['name'] for e in d['traceEvents'] if e.get('cat') == 'syscall'))")" "['getppid']"
"$ET" export -j1 -o j1.json "$DATA/host-lost.dat" 2>/dev/null
check "-j1 exports the same" cmp j1.json host-lost.json
expect_exit "two files: usage error" 2 "$ET" export "$DATA/host-lost.dat" "$DATA/host-lost.dat"
expect_exit "missing file" 3 "$ET" export /nonexistent.dat
# export reads through load.c, as report does: the same words for the same mistake
expect_exit "a syscall the architecture does not have" 2 "$ET" export -s nosuchsys -o ns.json "$DATA/host-lost.dat"
"$ET" export -s nosuchsys -o ns.json "$DATA/host-lost.dat" 2> ns.err
"$ET" report -s nosuchsys "$DATA/host-lost.dat" 2> nsr.err
expect_eq "...said as report says it, naming the file and architecture" \
	"$(sed 's/^entrytrace export: //' ns.err)" "$(sed 's/^entrytrace report: //' nsr.err)"
check "...and no output left behind" test ! -e ns.json
# Stage slices inside complete syscalls are the stages the report counts.
expect_eq "stage file: one stage slice per stage the report counts" \
	"$(python3 - x86_64-6.12-stage.json <<'PY'
import json, sys, bisect
from collections import Counter, defaultdict
ev = json.load(open(sys.argv[1]))['traceEvents']
sc = defaultdict(list)
for e in ev:
    if e.get('cat') == 'syscall':
        sc[e['tid']].append((e['ts'], e['ts'] + e['dur'], e['args']['complete']))
for v in sc.values():
    v.sort()
n = Counter()
for e in ev:
    if e.get('cat') == 'stage':
        v = sc[e['tid']]
        i = bisect.bisect_right(v, (e['ts'], float('inf'), True)) - 1
        if i >= 0 and v[i][2] and e['ts'] + e['dur'] <= v[i][1] + 1e-3:
            n[e['name']] += 1
print(sorted(n.items()))
PY
)" "$(jget x86_64-6.12-stage.report.json "sorted(__import__('collections').Counter({s: c for s, c in [(s, sum(c['count'] for c in d['cells'] if c['stage'] == s)) for s in set(c['stage'] for c in d['cells'] if c['kind'] != 'derived')]}).items())")"

# A write error leaves no cut-off file under the output's name: a 4 KB
# tmpfs fills up halfway through the JSON of host-lost.dat (6 MB exported,
# 8 KB as a report, 9 KB as a diff).
mkdir -p small
for cmd in "export -o small/out.json" "report --json -o small/out.json" \
	   "diff --json -o small/out.json $DATA/host-lost.dat"; do
	set -- $cmd
	out=$(unshare -m sh -c "mount -t tmpfs -o size=4k none small && '$ET' $cmd '$DATA/host-lost.dat'; echo rc=\$?; ls -A small" 2>&1)
	expect_eq "$1 -o on a full disk: exit 1, nothing left in the directory" \
		"$(printf '%s\n' "$out" | grep -E '^rc=|^[^ :]+$' | tr '\n' ' ')" "rc=1 "
	check "...and the error names the file and says so" grep -q "small/out.json: write error: No space left on device (nothing written under that name)" <<< "$out"
done
"$ET" export -o whole.json "$DATA/host-kill-getppid.dat" 2>/dev/null
check "an export that succeeds is renamed into place, and no temporary file stays" \
	sh -c "python3 -m json.tool whole.json >/dev/null && ! ls -A | grep -q '^\.whole'"
check "-o /dev/null is written directly (not renamed over)" "$ET" export -o /dev/null "$DATA/host-kill-getppid.dat"

# Stock mode: off_cpu and irq slices where the task was switched out or
# interrupted inside a syscall, as many and as long as the report counts
# (the nesting checks above cover them too).
"$ET" report --json "$DATA/host-edges.dat" > edges.r.json
for st in off_cpu irq; do
	expect_eq "host-edges: $st slices: count and ns = the report's occurrences and total" \
		"$(jget host-edges.json "(sum(1 for e in d['traceEvents'] if e.get('cat') == '$st'), sum(e['args']['ns'] for e in d['traceEvents'] if e.get('cat') == '$st'))")" \
		"$(jget edges.r.json "(sum(c['occurrences'] for c in d['cells'] if c['stage'] == '$st'), sum(c['total'] for c in d['cells'] if c['stage'] == '$st'))")"
done
check "x86_64-6.12-stage: off_cpu slices on the entrytrace kernel too" \
	jget x86_64-6.12-stage.json "sum(1 for e in d['traceEvents'] if e.get('cat') == 'off_cpu') > 0 or sys.exit(1)"
