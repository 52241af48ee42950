# SPDX-License-Identifier: GPL-2.0
# Argument shapes (--by-arg) on real recordings of stress-ng's kill
# stressor on this host (scripts/host/op-anatomy --data; stock kernel,
# raw_syscalls:sys_enter with its arguments): every kill() is counted under
# the shape trace-cmd's own decoding of its arguments gives, in report,
# diff, JSON and CSV, and one bogo-op is what stress-ng's source says
# (one kill(-1, 0) in the parent per op).
. "$(dirname "$0")/lib.sh"

old=$DATA/host-stressng-kill-0.15.06.dat
new=$DATA/host-stressng-kill-0.19.02.dat
OPS=2000	# analyzer/tests/data/PROVENANCE-anatomy.md: --kill-ops 2000

# The shapes from trace-cmd's report of the same file, classified here
# from its printed arguments (low 32 bits, as the kernel reads pid_t/int):
# raw_syscalls:sys_enter's "NR 62 (pid, sig, ...)" (a stock recording) or,
# with --event, syscalls:sys_enter_kill's "pid: 0x.., sig: 0x..".
shapes_tc() {
	local filter='raw_syscalls/sys_enter:id==62' re='sys_enter:\s+NR 62 \(([0-9a-f]+), ([0-9a-f]+),'
	if [ "$1" = --event ]; then
		filter='syscalls/sys_enter_kill' re='sys_enter_kill:\s+pid: 0x([0-9a-f]+), sig: 0x([0-9a-f]+)'
		shift
	fi
	trace-cmd report -F "$filter" "$1" 2>/dev/null |
	python3 -c '
import re, sys
n = {}
names = {0: "0", 10: "SIGUSR1", 18: "SIGCONT", 19: "SIGSTOP", 9: "SIGKILL"}
for line in sys.stdin:
    m = re.search(r"-(\d+)\s+\[\d+\].*" + sys.argv[1], line)
    if not m:
        continue
    me, pid, sig = int(m.group(1)), int(m.group(2), 16) & 0xffffffff, int(m.group(3), 16) & 0xffffffff
    pid = pid - (1 << 32) if pid >= 1 << 31 else pid
    sig = sig - (1 << 32) if sig >= 1 << 31 else sig
    t = ("self" if pid == me else "pid" if pid > 0 else "0" if pid == 0 else "-1" if pid == -1
         else "INT_MIN" if pid == -(1 << 31) else "-pgrp")
    s = "bad" if sig < 0 or sig > 64 else names.get(sig, "sig%d" % sig)
    k = "%s, %s" % (t, s)
    n[k] = n.get(k, 0) + 1
for k in sorted(n):
    print("%s=%d" % (k, n[k]))' "$re"
}

for f in "$old" "$new"; do
	b=$(basename "$f" .dat)
	"$ET" report --by-arg --json -s kill "$f" > "$b.json"
	jget "$b.json" "'\n'.join('%s=%d' % (c['args'], c['count']) for c in sorted(d['cells'], key=lambda c: c['args'] or '') if c['stage'] == 'total')" > "$b.et"
	shapes_tc "$f" > "$b.tc"
	check "$b: trace-cmd sees kills of several shapes" test "$(wc -l < "$b.tc")" -ge 8
	check "$b: every kill under the shape its arguments give (as trace-cmd decodes them)" \
		diff "$b.tc" "$b.et"
	expect_eq "$b: one kill(-1, 0) per bogo-op" \
		"$(jget "$b.json" "sum(c['count'] for c in d['cells'] if c['stage'] == 'total' and c['args'] == '-1, 0')")" "$OPS"
	"$ET" report --json -s kill "$f" > "$b.all.json"
	expect_eq "$b: the shapes add up to the unsplit kill row" \
		"$(jget "$b.json" "sum(c['count'] for c in d['cells'] if c['stage'] == 'total')")" \
		"$(cell "$b.all.json" kill total count)"
	check "$b: no args key without --by-arg" \
		jget "$b.all.json" "all('args' not in c for c in d['cells']) or sys.exit(1)"
	check "$b: kill(-1, 0) is the slowest kill, several times kill(self, 0)" \
		jget "$b.json" "(lambda m: m['-1, 0'] > 3 * m['self, 0'] or sys.exit(1))({c['args']: c['p50'] for c in d['cells'] if c['stage'] == 'total'})"
done

"$ET" report --by-arg -s kill "$old" > text.txt
check "text: a row per shape, labelled like strace" grep -qx 'kill(-1, 0)' text.txt
"$ET" report --by-arg --by-work -s kill "$old" > textw.txt
check "text with --by-work: shape and path signature" grep -q '^kill(pid, SIGSTOP)\[tracepoint' textw.txt
"$ET" report --by-arg --csv -s kill "$old" > t.csv
check "CSV: an args column" grep -q '^syscall,nr,work,args,stage,' t.csv
check "CSV: kill(-1, 0)'s total row" grep -q '^kill,62,,"-1, 0",total,' t.csv

"$ET" diff --by-arg --json -s kill "$old" "$new" > d.json
# (diff splits by path signature too: a kill(-1, 0) that met rseq work is a cell of its own)
expect_eq "diff --by-arg: every kill(-1, 0) compared, base and test" \
	"$(jget d.json "' '.join(str(sum(c[k] for c in d['cells'] if c.get('args') == '-1, 0' and c['stage'] == 'total')) for k in ('n_base', 'n_test'))")" "$OPS $OPS"
"$ET" diff --by-arg -s kill "$old" "$new" > d.txt
check "diff text: labels carry the shape" grep -q 'kill(-1, 0) \[tracepoint\]' d.txt
"$ET" diff --json -s kill "$old" "$new" > d0.json
check "diff without --by-arg: no args key" jget d0.json "all('args' not in c for c in d['cells']) or sys.exit(1)"

# The op's anatomy: stress-ng 0.15.06 (stress-kill.c) makes 13 kill()
# calls, open/read/close of pid_max and nothing else per op in the
# parent; 0.19.02 reads pid_max only after failed guesses.
a=$("$TOP/scripts/host/op-anatomy" --from "$old" --ops "$OPS" --json)
check "op-anatomy 0.15.06: 16 syscalls per op in the parent" \
	python3 -c "import json,sys; d=json.loads(sys.argv[1]); s=sum(r['per_op'] for r in d['rows'] if r['role']=='parent'); sys.exit(not 15.9 < s < 16.2)" "$a"
check "op-anatomy 0.15.06: openat, read and close of pid_max once per op" \
	python3 -c "import json,sys; d=json.loads(sys.argv[1]); m={r['syscall']: r['per_op'] for r in d['rows'] if r['role']=='parent'}; sys.exit(not all(0.99 < m[k] < 1.01 for k in ('openat','read','close')))" "$a"
a=$("$TOP/scripts/host/op-anatomy" --from "$new" --ops "$OPS" --json)
check "op-anatomy 0.19.02: pid_max is read in few ops (< 0.05)" \
	python3 -c "import json,sys; d=json.loads(sys.argv[1]); m={r['syscall']: r['per_op'] for r in d['rows'] if r['role']=='parent'}; sys.exit(not m.get('openat', 0) < 0.05)" "$a"
expect_exit "op-anatomy: a bad op count is refused by name" 2 \
	"$TOP/scripts/host/op-anatomy" --from "$new" --ops 0

# An entrytrace kernel's recording (summary mode) with the syscall's own
# argument event, syscalls:sys_enter_kill: the kernel writes every argument
# as an unsigned long under its declared type ("pid_t pid; size:8;
# signed:0"), which the format check takes as it is; and every kill gets the
# shape of its argument event, kill(-1, 0)'s 80,000 instructions included
# (PROVENANCE-anatomy.md: stress-ng --kill-ops 20 in a ppc64le 7.2 guest).
g=$DATA/guest-ppc64le-7.2-stressng-kill-summary.dat
check "guest: a recording with syscalls:sys_enter_kill loads" "$ET" report -s kill "$g"
"$ET" report --by-arg --json -s kill "$g" > g.json
"$ET" report --json -s kill "$g" > g.all.json
jget g.json "'\n'.join('%s=%d' % (c['args'], c['count']) for c in sorted(d['cells'], key=lambda c: c['args'] or '') if c['stage'] == 'total')" > g.et
shapes_tc --event "$g" > g.tc
check "guest: trace-cmd sees kills of several shapes ($(wc -l < g.tc))" test "$(wc -l < g.tc)" -ge 8
check "guest: every kill under the shape its argument event gives (as trace-cmd decodes it)" diff g.tc g.et
expect_eq "guest: one kill(-1, 0) per bogo-op (20)" \
	"$(jget g.json "sum(c['count'] for c in d['cells'] if c['stage'] == 'total' and c['args'] == '-1, 0')")" 20
n=$(cell g.all.json kill total count 2>/dev/null)
expect_eq "guest: the shapes add up to the unsplit kill row (${n:-none})" \
	"$(jget g.json "sum(c['count'] for c in d['cells'] if c['stage'] == 'total')")" "${n:-none}"
"$ET" report -s kill "$g" > g.txt 2>&1
expect_eq "guest: no argument event left over (fits no syscall)" \
	"$?:$(grep -c 'fit no syscall' g.txt)" "0:0"
