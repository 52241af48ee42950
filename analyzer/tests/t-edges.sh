# SPDX-License-Identifier: GPL-2.0
# The messy cases of real traces, each from a real recording (host-edges.dat:
# a running task traced with -P for 3 s, see data/PROVENANCE.md).
. "$(dirname "$0")/lib.sh"

f=$DATA/host-edges.dat
x=$DATA/host-edges.expect
pid=$(awk '$2 == "getppid" { sub("pid=", "", $5); print $5; exit }' "$x")
child=$(awk '$2 == "reuse" { sub("pid=", "", $5); print $5; exit }' "$x")
"$ET" report --json "$f" > r.json
acc() { jget r.json "d['files'][0]['syscalls']['$1']['$2']"; }

# Open at the start: the 1.5 s nanosleep began before recording; at the end:
# the 5 s one was still sleeping when recording stopped.
expect_eq "the sleep that began before the trace: open at start" "$(acc excluded open_start)" 1
expect_eq "the sleep still running at the end: open at end" "$(acc excluded open_end)" 1
expect_eq "no nanosleep in the statistics" "$(cell r.json nanosleep total count)" 0

# Migration: sched_setaffinity to the other CPU returns there.
n=$(expected sched_setaffinity "$x")
expect_eq "every sched_setaffinity is in the statistics" "$(cell r.json sched_setaffinity total count)" "$n"
check "most of them returned on another CPU (flagged migrated, kept)" \
	jget r.json "d['files'][0]['syscalls']['flagged']['migrated'] >= $n * 9 // 10 or sys.exit(1)"
check "a migrated syscall's total covers its time off CPU" \
	jget r.json "[c for c in d['cells'] if c['syscall']=='sched_setaffinity' and c['stage']=='off_cpu'][0]['total'] <= $(cell r.json sched_setaffinity total total) or sys.exit(1)"

# rt_sigreturn's sys_exit carries nr -1 and is still paired.
expect_eq "rt_sigreturn paired" "$(cell r.json rt_sigreturn total count)" "$(expected rt_sigreturn "$x")"
expect_eq "one signal delivery per kill" "$(cell r.json kill signal_exit count)" "$(expected kill "$x")"

# exit_group never returns: the two reuse children end with it.
nexit=$(trace-cmd report "$f" 2>/dev/null | grep -c 'sys_enter: *NR 231 ')
expect_eq "every exit_group counted as never returning" "$(acc excluded noreturn)" "$nexit"
expect_eq "fork children's first returns are not paired with anything" "$(acc excluded child)" 2

# pid reuse: the same pid ran two tasks, 300 getppid each.
expect_eq "both tasks of the reused pid are counted" \
	"$(jget r.json "sum(g['count'] for g in d['breakdown']['pid'] if g['pid']==$child and g['syscall']=='getppid')")" \
	"$(awk -v p="pid=$child" '$2 == "reuse" && $5 == p { n += $4 } END { print n }' "$x")"

# execve changes comm: the syscalls before belong to sysloop, after to
# sysloop-after (the name exec gave the task), the execve itself to the caller.
expect_eq "getppid before exec under the old comm" \
	"$(jget r.json "sum(g['count'] for g in d['breakdown']['pid'] if g['pid']==$pid and g['comm']=='sysloop' and g['syscall']=='getppid')")" \
	"$(awk '$2 == "getppid" { print $4; exit }' "$x")"
"$ET" report --json -c sysloop-after "$f" > after.json
expect_eq "--comm sysloop-after: the getppid loop after exec" "$(cell after.json getppid total count)" \
	"$(awk '$2 == "getppid" { n = $4 } END { print n }' "$x")"
expect_eq "--comm sysloop-after: no execve (the caller was still sysloop)" "$(cell after.json execve total count)" 0
"$ET" report --json -c sysloop -s execve "$f" > ex.json
expect_eq "--comm sysloop: the execve itself" "$(cell ex.json execve total count)" 1

# All syscalls accounted for: seen = complete + every exclusion.
check "seen = complete + excluded" jget r.json \
	"(lambda s: s['seen'] == s['complete'] + sum(s['excluded'].values()) or sys.exit(1))(d['files'][0]['syscalls'])"

# --exclusive: on a stock trace every interrupt and switch-out of a syscall
# lies inside its sys_enter..sys_exit window, so what it takes off a total is
# exactly the off_cpu + irq time, and total = exclusive total + taken off.
"$ET" report --json --exclusive "$f" > ex.json
for sc in sched_setaffinity wait4; do
	check "$sc: exclusive total + taken off = total" jget ex.json \
		"(lambda c: c['total'] + c['subtracted_exclusive'] == $(cell r.json $sc total total) or sys.exit(1))([c for c in d['cells'] if c['syscall']=='$sc' and c['stage']=='total'][0])"
	check "$sc: taken off = off_cpu + irq" jget ex.json \
		"(lambda t: t == $(cell r.json $sc off_cpu total) + $(cell r.json $sc irq total) or sys.exit(1))([c for c in d['cells'] if c['syscall']=='$sc' and c['stage']=='total'][0]['subtracted_exclusive'])"
done
check "the text says what was taken off" grep -q "taken off the totals: [1-9]" <("$ET" report --exclusive "$f")
