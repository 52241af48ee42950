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

# ---- Reading the output (issue 24) --------------------------------------------
# Children indented under their parent, in report and diff.
g=$DATA/ppc64le-7.2-selinux.dat
"$ET" report --no-breakdown -s kill "$g" > ind.txt
check "report: rcu_eqs_exit indented two columns under ct_user_exit" \
	grep -q '^                   rcu_eqs_exit ' ind.txt
check "...lsm_task_kill under syscall, and top-level stages not indented" \
	sh -c "grep -q '^                   lsm_task_kill ' ind.txt && grep -q '^                 syscall ' ind.txt"
"$ET" diff --replicates=syscalls --all -s kill "$DATA/ppc64le-6.12-selinux.dat" "$g" > dind.txt
check "diff: a child row follows its parent's (lsm_task_kill right after syscall)" \
	awk '$1 == "kill" && $2 == "[-]" { if (prev == "syscall" && $3 == "lsm_task_kill") ok = 1; prev = $3 } END { exit !ok }' dind.txt
"$ET" diff --replicates=syscalls --json -s kill "$DATA/ppc64le-6.12-selinux.dat" "$g" > dsh.json
check "diff: a share only for the total and the stages that partition it (they add to 100% less the residual)" jget dsh.json \
	"(lambda c, g: all((x['share'] is not None) == (x['partitions'] or x['stage'] == 'total') for x in c) and abs(sum(x['share'] for x in c if x['partitions']) - (1 - g['residual'] / g['d_total'])) < 1e-3)([x for x in d['cells'] if x['work'] == '-' and x['n_base'] > 100], [g for g in d['groups'] if g['work'] == '-' and g['n_base'] > 100][0]) or sys.exit(1)"
"$ET" diff --replicates=syscalls --json "$DATA/host-diff-base.dat" "$DATA/host-diff-spin.dat" > dst.json
expect_eq "diff, stock kernel: no share for user_gap and signal_exit (outside the total)" \
	"$(jget dst.json "sorted(set(c['share'] for c in d['cells'] if c['stage'] in ('user_gap', 'signal_exit')))")" "[None]"

# list and --slowest on plugin output: samples, not invented trace lines.
m=$DATA/mix-ppc64le-7.2-entrytrace-selinux.mix.gz
"$ET" list "$m" > ml.txt 2>/dev/null
check "list on a .mix: 'sample N: name(nr)' lines, no task, CPU or timestamp" \
	awk 'END { exit !(NR > 0 && bad == 0) } !/^sample +[0-9]+: [a-z_0-9]+\([0-9]+\)  total [0-9]+/ { bad++ }' ml.txt
expect_eq "...the sample numbers are the file's own" \
	"$(head -1 ml.txt | awk '{ print $2 }' | tr -d :)" "$(zcat "$m" | awk '$1 == "sample" && $4 ~ /^(ok|gapirq)$/ { print $2; exit }')"
expect_exit "list --min-dur 2us on a .mix: a usage error (instructions, not time)" 2 "$ET" list --min-dur 2us "$m"
check "...saying why" grep -q "counted in guest instructions, not time" <("$ET" list --min-dur 2us "$m" 2>&1)
expect_eq "list --min-dur 2040 on a .mix: only samples of 2040 instructions or more" \
	"$("$ET" list --min-dur 2040 "$m" 2>/dev/null | awk '$5 < 2040 { bad++ } END { print (NR > 0 && !bad) }')" 1
check "report --slowest on a .mix says the numbers are samples" \
	grep -q "^sample " <("$ET" report --no-breakdown --slowest 2 "$m")

# list in the stage modes: the syscall's start, the kernel's own stamp.
"$ET" list -s arch_prctl "$DATA/x86_64-7.3-selinux.dat" > st.txt 2>/dev/null
expect_eq "list: arch_prctl starts at the stamp its summary event carries (start=651956608), not the event's time" \
	"$(awk '{ print $3 }' st.txt)" "0.651956608:"

# Syscall names: the kernel's (unistd), libaudit's accepted too.
expect_exit "-s pread64 is a syscall on x86_64 (nothing matched: exit 4, not 2)" 4 \
	"$ET" report -s pread64 "$DATA/x86_64-7.3-selinux.dat"
expect_exit "-s pread (libaudit's name) still accepted" 4 "$ET" report -s pread "$DATA/x86_64-7.3-selinux.dat"
expect_eq "x86_64 syscall 17 prints as pread64, ppc64le 179 too" \
	"$(grep -c '"pread64"' "$TOP/analyzer/lib/syscalls.c")" 3

# Tasks: those that made syscalls.
check "report: 'by 1 task' for one sysloop, the rest of the events' tasks apart" \
	grep -q '^syscalls: .* complete, by 1 task (5 in all events)$' <("$ET" report "$f")
expect_eq "JSON: tasks 1, tasks_in_events 5" \
	"$("$ET" report --json "$f" | python3 -c "import json, sys; s = json.load(sys.stdin)['files'][0]['syscalls']; print(s['tasks'], s['tasks_in_events'])")" "1 5"

# report --top, --sort, --unit, --result.
"$ET" report --no-breakdown --top 2 --sort count "$f" > top.txt
expect_eq "report --top 2 --sort count: kill (4000) then a 2000 one, and says what it left out" \
	"$(awk '$2 == "total" { print $1, $3 }' top.txt | head -1) $(grep -c '^[a-z_0-9]* *total ' top.txt)" "kill 4000 2"
check "...the rest counted" grep -q '^([0-9]* more syscalls by count not shown: --top 2)$' top.txt
expect_eq "report --sort name: alphabetical" \
	"$("$ET" report --no-breakdown --sort name "$f" | awk '$2 == "total" { print $1 }' | tr '\n' ' ')" \
	"$("$ET" report --no-breakdown "$f" | awk '$2 == "total" { print $1 }' | sort | tr '\n' ' ')"
expect_eq "report --unit us: kill's p50 in us is the ns figure / 1000" \
	"$("$ET" report --no-breakdown --unit us -s kill -S total "$f" | awk '$2 == "total" { print $6 }')" \
	"$(python3 -c "print('%.3f' % ($(cell r.json kill total p50) / 1000))")"
check "...and the header says us" grep -q 'times in us' <("$ET" report --no-breakdown --unit us "$f")
expect_exit "--unit parsec: usage error" 2 "$ET" report --unit parsec "$f"
expect_exit "--sort size: usage error" 2 "$ET" report --sort size "$f"
aa=$DATA/host-aa-a1.dat
expect_eq "--result error: the one failed syscall (ioctl -ENOTTY)" \
	"$("$ET" list --result error "$aa" 2>/dev/null | sed 's/.*: \([a-z]*\)([0-9]*) = \(-[0-9]*\).*/\1 \2/')" "ioctl -25"
expect_eq "--result ENOTTY and --result 25: the same" \
	"$("$ET" list --result ENOTTY "$aa" 2>/dev/null | wc -l) $("$ET" list --result 25 "$aa" 2>/dev/null | wc -l)" "1 1"
expect_eq "--result ok: all the others" \
	"$("$ET" list --result ok "$aa" 2>/dev/null | wc -l)" "$(( $("$ET" list "$aa" 2>/dev/null | wc -l) - 1 ))"
expect_exit "--result EFOO: usage error naming it" 2 "$ET" report --result EFOO "$aa"

# A guest recording whose clock counts instructions says so.
ic=$DATA/ppc64le-7.2-icount-kill0.dat
check "report on a qemu-icount guest recording: times in virtual ns" \
	grep -q 'times in virtual ns (QEMU -icount: one per guest instruction)' <("$ET" report "$ic")
check "diff of two: syscalls as replicates, automatically" \
	grep -q "^replicates: syscalls: .*the recordings' clock counts instructions" <("$ET" diff "$ic" "$ic")
