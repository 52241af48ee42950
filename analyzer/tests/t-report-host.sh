# SPDX-License-Identifier: GPL-2.0
# entrytrace report on a real host recording (stock kernel, raw_syscalls):
# exact counts against what the workload did, totals against trace-cmd's own
# --profile, every file form, output formats and filters.
. "$(dirname "$0")/lib.sh"

f=$DATA/host-kill-getppid.dat
x=$DATA/host-kill-getppid.expect
pid=$(awk 'NR==1 { sub("pid=", "", $5); print $5 }' "$x")

check "report runs (ASan/UBSan)" "$ET" report "$f"
"$ET" report --json -p "$pid" "$f" > r.json

for sc in getppid kill rt_sigreturn; do
	expect_eq "$sc count equals the workload's" \
		"$(cell r.json $sc total count)" "$(expected $sc "$x")"
done
expect_eq "rt_sigreturn paired although its sys_exit says nr -1" \
	"$(jget r.json "d['files'][0]['syscalls']['flagged']['sigreturn']")" "$(expected rt_sigreturn "$x")"
expect_eq "one signal delivery per kill(SIGUSR1)" \
	"$(cell r.json kill signal_exit count)" \
	"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$x")"
expect_eq "mode detected" "$(jget r.json "d['files'][0]['mode']")" stock
expect_eq "nothing lost" "$(jget r.json "d['files'][0]['lost_events']")" 0

# trace-cmd report --profile pairs sys_enter/sys_exit by itself: its count and
# total per syscall number must equal ours for the same task.
trace-cmd report --profile "$f" 2>/dev/null |
	awk -v p="sysloop-$pid" '/^task: /{ t = $2 } t == p && /Event: sys_enter:/ {
		split($2, a, ":"); c = $3; gsub(/[()]/, "", c); print a[2], c, $5 }' > profile.txt
check "trace-cmd --profile lists the workload's syscalls" test -s profile.txt
while read -r nr count total; do
	ours=$(jget r.json "[(c['count'], c['total']) for c in d['cells'] if c['nr'] == $nr and c['stage'] == 'total']")
	expect_eq "nr $nr: count and total as trace-cmd report --profile" "$ours" "[($count, $total)]"
done < profile.txt

# The same data as v6, v7 uncompressed and v7 zstd gives the same report.
trace-cmd convert --file-version 6 -i "$f" -o v6.dat >/dev/null 2>&1
trace-cmd convert --compression none -i "$f" -o v7n.dat >/dev/null 2>&1
"$ET" report --csv "$f" > a.csv
"$ET" report --csv v6.dat > b.csv
"$ET" report --csv v7n.dat > c.csv
check "v6 uncompressed reads like v7 zstd" cmp a.csv b.csv
check "v7 uncompressed reads like v7 zstd" cmp a.csv c.csv
expect_eq "v6 file detected" "$("$ET" report --json v6.dat | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["file_version"])')" 6

# Formats agree: CSV rows are the JSON cells.
"$ET" report --json "$f" > all.json
expect_eq "CSV rows = JSON cells" "$(($(wc -l < a.csv) - 1))" "$(jget all.json "len(d['cells'])")"
check "JSON is valid" python3 -m json.tool all.json
check "text table has the header" grep -q '^syscall  *stage  *count  *min  *mean  *p50  *p90  *p99' <("$ET" report "$f")
"$ET" report -o out.txt "$f"
check "-o writes the report to a file" grep -q 'getppid' out.txt

# Percentiles are ordered and inside [min, max].
check "min <= p50 <= p90 <= p99 <= max in every cell" jget all.json \
	"all(c['min'] <= c['p50'] <= c['p90'] <= c['p99'] <= c['max'] for c in d['cells']) or sys.exit(1)"
check "mean * count = total" jget all.json \
	"all(abs(c['mean'] * c['count'] - c['total']) <= 1e-6 * c['total'] + 1 for c in d['cells']) or sys.exit(1)"

# Filters.
"$ET" report --json -s getppid "$f" > s.json
expect_eq "--syscall NAME keeps one syscall" "$(jget s.json "sorted(set(c['syscall'] for c in d['cells']))")" "['getppid']"
"$ET" report --json -s 110 "$f" > s2.json
check "--syscall NR = --syscall NAME (x86_64 getppid is 110)" cmp s.json s2.json
"$ET" report --json -c sysloop -s kill "$f" > c.json
expect_eq "--comm" "$(cell c.json kill total count)" "$(expected kill "$x")"
expect_exit "--comm that matches nothing: exit 4" 4 "$ET" report -c nosuchtask "$f"
"$ET" report --json -S total,signal_exit "$f" > st.json
expect_eq "--stage limits the stages shown" "$(jget st.json "sorted(set(c['stage'] for c in d['cells']))")" "['signal_exit', 'total']"
cpu=$(jget r.json "d['breakdown']['cpu'][0]['cpu']")
"$ET" report --json -C "$cpu" -p "$pid" "$f" > cpu.json
expect_eq "--cpu keeps that CPU's syscalls" \
	"$(jget cpu.json "sum(c['count'] for c in d['cells'] if c['stage']=='total')")" \
	"$(jget r.json "sum(g['count'] for g in d['breakdown']['cpu'] if g['cpu']==$cpu)")"
first=$(jget all.json "min(c['min_at'] for c in d['cells'])")
"$ET" report --json -w 0,1e9 "$f" > w.json
expect_eq "an all-covering --time-window keeps everything" "$(jget w.json "d['syscalls']")" "$(jget all.json "d['syscalls']")"
"$ET" report --json -w +0,+0.000001 "$f" > w2.json 2>/dev/null
check "a 1 us window at the start keeps less" jget w2.json "d['syscalls'] < $(jget all.json "d['syscalls']") or sys.exit(1)"
"$ET" report --json --by-work -p "$pid" "$f" > bw.json
expect_eq "--by-work: kills with signal delivery are their own cells" \
	"$(jget bw.json "sum(c['count'] for c in d['cells'] if c['syscall']=='kill' and c['stage']=='total' and 'signal' in c['work'])")" \
	"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$x")"

# Multiple files merge.
"$ET" report --json "$f" "$f" > two.json
expect_eq "two files: counts add" "$(cell two.json getppid total count)" "$((2 * $(cell all.json getppid total count)))"

# --plot: well-formed SVG, one curve per panel, the busiest stages.
"$ET" report --plot r.svg "$f" > /dev/null
check "report --plot writes well-formed SVG, a curve per panel" python3 -c "
import xml.etree.ElementTree as E, sys
r = E.parse('r.svg').getroot()
ns = '{http://www.w3.org/2000/svg}'
g = list(r.iter(ns + 'g'))
sys.exit(not (len(g) >= 3 and all(len(x.findall(ns + 'polyline')) == 1 for x in g)))"
