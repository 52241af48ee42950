# SPDX-License-Identifier: GPL-2.0
# The views users of trace-cmd and perf trace expect: a per-syscall listing
# (list, --min-dur), the N slowest syscalls with task, CPU and timestamp,
# p99.9, a terminal histogram per stage; checked against the report's own
# statistics and against trace-cmd report on real recordings.
. "$(dirname "$0")/lib.sh"

f=$DATA/host-kill-getppid.dat
"$ET" report --json "$f" > r.json
"$ET" list "$f" > list.txt 2> list.err

# list: one line per complete syscall, its total the one the report adds up
python3 - list.txt r.json > list.cmp <<'PY'
import collections, json, re, sys
n, tot = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r'\s*(\S+)-(\d+) \[(\d+)\] ([\d.]+): (\w+)\((-?\d+)\) = (-?\d+)\s+total (\d+)', line)
    n[m.group(5)] += 1; tot[m.group(5)] += int(m.group(8))
d = json.load(open(sys.argv[2]))
want = {c['syscall']: (c['count'], c['total']) for c in d['cells'] if c['stage'] == 'total'}
got = {k: (n[k], tot[k]) for k in n}
print(sum(n.values()), got == want)
PY
read -r lines same < list.cmp
expect_eq "list: a line per complete syscall ($lines), counts and totals per syscall as the report's" \
	"$same $lines" "True $(jget r.json "d['syscalls']")"
check "list says on stderr how many it listed" grep -q "^entrytrace list: $lines syscalls listed of $lines complete" list.err
"$ET" list --min-dur 2us "$f" > min.txt 2>/dev/null
expect_eq "list --min-dur 2us: exactly the syscalls of 2000 ns or more" \
	"$(awk '{ for (i = 1; i <= NF; i++) if ($i == "total") print ($(i + 1) >= 2000) }' min.txt | sort | uniq -c | awk '{ print $2 ":" $1 }')" \
	"1:$(awk '{ for (i = 1; i <= NF; i++) if ($i == "total" && $(i + 1) >= 2000) n++ } END { print n }' list.txt)"
"$ET" list -s kill -S signal_exit "$f" > kill.txt 2>/dev/null
expect_eq "list -s kill -S signal_exit: only kill, only that stage after the total" \
	"$(awk '{ sub(/.*: /, ""); sub(/\(.*total [0-9]+/, ""); sub(/ [0-9]+$/, ""); print }' kill.txt | sort -u | tr '\n' '|')" "kill|kill  signal_exit|"
expect_exit "list --min-dur abc names the value" 2 "$ET" list --min-dur abc "$f"

# The slowest: with task, CPU and timestamp, as trace-cmd report shows them.
"$ET" list --slowest 3 "$f" > slow.txt 2>/dev/null
expect_eq "list --slowest 3: three lines, slowest first" \
	"$(awk '{ for (i = 1; i <= NF; i++) if ($i == "total") print $(i + 1) }' slow.txt | sort -rn | head -3 | tr '\n' ' ')" \
	"$(awk '{ for (i = 1; i <= NF; i++) if ($i == "total") print $(i + 1) }' slow.txt | tr '\n' ' ')"
expect_eq "the slowest is the largest max of the report's totals" \
	"$(awk '{ for (i = 1; i <= NF; i++) if ($i == "total") { print $(i + 1); exit } }' slow.txt)" \
	"$(jget r.json "max(c['max'] for c in d['cells'] if c['stage'] == 'total')")"
read -r task cpu ts _ <<< "$(head -1 slow.txt)"
ts=${ts%:}
# (trace-cmd names a task by its last name, entrytrace by its name at the syscall)
check "trace-cmd report shows the sys_enter of $task on CPU ${cpu//[][]/} at $ts" \
	grep -q -- "-${task##*-} *\\$cpu *${ts}: *sys_enter" <(trace-cmd report -t "$f" 2>/dev/null)
"$ET" report --no-breakdown --slowest 4 "$f" > rs.txt
expect_eq "report --slowest 4: its section lists four, the first the same as list's" \
	"$(sed -n '/slowest syscalls/,$p' rs.txt | sed 1d | grep -c .) $(sed -n '/slowest syscalls/{n;p}' rs.txt)" "4 $(head -1 slow.txt)"

# p99.9: in text, JSON and CSV, between p99 and max.
check "p99.9 in every cell, p99 <= p99.9 <= max" jget r.json \
	"all(c['p99'] <= c['p999'] <= c['max'] for c in d['cells']) or sys.exit(1)"
check "text: a p99.9 column" grep -q '^syscall  *stage  *count  *min  *mean  *p50  *p90  *p99  *p99.9  *max' <("$ET" report "$f")
check "CSV: a p999 column" grep -q ',p99,p999,max,' <("$ET" report --csv "$f")

# --hist: every value in one row, rows in order, the p50 row the fullest here.
"$ET" report --no-breakdown --hist -s getppid -S total "$f" > h.txt
expect_eq "getppid total histogram: its rows hold every one of the $(cell r.json getppid total count) values" \
	"$(awk '/^getppid total:/ { on = 1; next } on && /\|/ { n += $NF } END { print n }' h.txt)" "$(cell r.json getppid total count)"
expect_eq "...from min to max" \
	"$(awk '/^getppid total:/ { on = 1; next } on && /\|/ { if (!lo) lo = $1; hi = $3 } END { print lo, hi }' h.txt)" \
	"$(cell r.json getppid total min) $(cell r.json getppid total max)"
check "...and the fullest row holds the median ($(cell r.json getppid total p50) ns)" \
	awk -v m="$(cell r.json getppid total p50)" '/^getppid total:/ { on = 1; next } on && /\|/ && $NF > best { best = $NF; lo = $1; hi = $3 } END { exit !(lo <= m && m <= hi) }' h.txt

# Progress on long reads: on a terminal only, wiped when done.
if command -v script >/dev/null; then
	ENTRYTRACE_PROGRESS_AFTER=0 script -qec "'$ET' report '$DATA/host-lost.dat' > /dev/null" /dev/null > tty.txt 2>&1
	check "on a terminal, report says how far it has read ($(tr '\r' '\n' < tty.txt | grep -o '[0-9]*%' | tr '\n' ' '))" \
		grep -q 'entrytrace report: reading .*host-lost.dat: [0-9]*%' tty.txt
	check "...and wipes the line when done" sh -c "tail -c 4 tty.txt | od -c | grep -q '033   \[   K'"
	ENTRYTRACE_PROGRESS_AFTER=0 "$ET" report "$DATA/host-lost.dat" > /dev/null 2> notty.txt
	expect_eq "without a terminal: nothing on stderr" "$(wc -c < notty.txt)" 0
else
	_fail "script (util-linux) missing: run scripts/setup --tests"
fi
