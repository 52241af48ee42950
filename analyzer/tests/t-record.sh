# SPDX-License-Identifier: GPL-2.0
# entrytrace record and top on this host, run directly (no namespace trick):
# exact counts through entrytrace report and trace-cmd report, only the
# session's own instance written, -a without the recorder, lost events with
# a tiny buffer, cleanup after SIGINT/SIGTERM and errors, a live top table.
# weight: 22
. "$(dirname "$0")/lib.sh"

wl=$(sysloop) || { _fail "building sysloop"; exit 0; }
inst=/sys/kernel/tracing/instances

# no instance named after this recorder pid is left behind
gone() { [ ! -e "$inst/entrytrace-$1" ]; }
# wait (up to 10 s) until FILE says the recorder is recording
ready() {
	for _ in $(seq 100); do
		grep -q ': recording' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# the workload's pid from its announcement line
wl_pid() { awk 'NR == 1 { sub("pid=", "", $5); print $5 }' "$1"; }
# jmany FILE EXPR...: one line per expression over the parsed JSON d, with
# tot(SYSCALL, STAGE) the count of a cell (one python start, not one each)
jmany() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
f=d["files"][0]
def tot(s, st="total"):
    return sum(c["count"] for c in d["cells"] if c["syscall"]==s and c["stage"]==st)
for e in sys.argv[2:]:
    print(eval(e))' "$@"
}

# ---- record -- CMD: exact counts -----------------------------------------
if cat /sys/kernel/tracing/set_ftrace_filter >/dev/null 2>&1; then
	echo "# this host's function-tracer files are readable (no lockdown)"
else
	echo "# this host's function-tracer files are locked (set_ftrace_filter: EPERM): trace-cmd record fails here"
fi
n=$((300 + RANDOM % 300))
"$ET" record -e 'signal:signal_gen*' -o live.dat -- "$wl" -n "$n" -o expect.txt \
	getppid kill0 killsig > rec.out 2>&1 &
rpid=$!
wait $rpid
expect_eq "record -- sysloop exits 0" "$?" 0
check "the instance entrytrace-$rpid is gone" gone $rpid
check "no temporary per-CPU files are left" test -z "$(ls -A . | grep entrytrace-record)"
pid=$(wl_pid expect.txt)
"$ET" report --json -p "$pid" live.dat > r.json
mapfile -t v < <(jmany r.json 'tot("getppid")' 'tot("kill")' 'tot("rt_sigreturn")' \
	'tot("kill", "signal_exit")' 'f["lost_events"]' 'f["file_version"]' 'f["compression"]' \
	'f["machine"]' 'f["clock"]' '[c["nr"] for c in d["cells"] if c["syscall"] == "getppid"][0]')
expect_eq "getppid: exactly what sysloop did" "${v[0]}" "$(expected getppid expect.txt)"
expect_eq "kill: kill0 + killsig" "${v[1]}" "$(expected kill expect.txt)"
expect_eq "rt_sigreturn" "${v[2]}" "$(expected rt_sigreturn expect.txt)"
expect_eq "signal deliveries" "${v[3]}" "$n"
expect_eq "no timeline crossed lost events" "${v[4]}" 0
expect_eq "file version 7" "${v[5]}" 7
expect_eq "zstd like trace-cmd's default" "${v[6]}" zstd
expect_eq "the uname option gives the architecture" "${v[7]}" "$(uname -m)"
expect_eq "the trace clock is the instance's" "${v[8]}" \
	"$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/tracing/trace_clock)"
nr=${v[9]}
check "record prints each CPU's overrun and dropped counts" grep -q 'CPU0: .* overrun [0-9]*, .* dropped [0-9]*' rec.out
check "record prints lost events: 0" grep -q 'lost events: 0$' rec.out
if trace-cmd report live.dat > tc.txt 2> tc.err; then
	_pass "trace-cmd report opens the file"
else
	_fail "trace-cmd report fails: $(head -3 tc.err)"
fi
expect_eq "trace-cmd report sees the same getppid entries" \
	"$(grep -c -- "-$pid .*sys_enter: *NR $nr " tc.txt)" "$(expected getppid expect.txt)"
expect_eq "-e added signal_generate (a glob): one SIGUSR1 per killsig" \
	"$(grep -c -- "-$pid .*signal_generate: *sig=$(kill -l USR1) " tc.txt)" "$n"
check "trace-cmd report --stat shows the recorded CPU stats" grep -q '^overrun: 0' <(trace-cmd report --stat live.dat 2>/dev/null)

# ---- only what it needs: strace the recorder --------------------------------
# Allowed writes: the session's instance, the output, its temporary directory,
# and kernel.kptr_restrict, which libtracecmd lowers around its (here empty)
# kallsyms copy and restores.  The function tracer's files are never opened.
kptr=$(cat /proc/sys/kernel/kptr_restrict)
if ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=open,openat,mkdir,rmdir,unlink,symlink -o st.txt \
	"$ET" record -q -o st.dat -- "$wl" -n 50 getppid > /dev/null 2>&1; then
	_pass "record runs under strace"
else
	_fail "record under strace failed"
fi
check "it never opens a function-tracer control file" \
	bash -c "! grep -E '^[0-9]+ +open.*(set_ftrace|set_graph|available_filter_functions|enabled_functions|touched_functions|ftrace_enabled)' st.txt"
check "it writes nothing at the top level of tracefs" \
	bash -c "! grep -E '\"/sys/kernel/(debug/)?tracing/[^\"]*\".*O_(WRONLY|RDWR)' st.txt | grep -v '/instances/entrytrace-'"
check "it creates and removes only its own instance" \
	bash -c "! grep -E '(mkdir|rmdir)\(\"/sys/kernel/tracing' st.txt | grep -v '/instances/entrytrace-'"
check "outside tracefs it writes only the output, its temp files and kptr_restrict" \
	bash -c "! grep -E 'O_(WRONLY|RDWR)' st.txt | grep -v -e '/sys/kernel/tracing/instances/entrytrace-' \
		-e '\"st.dat\"' -e '\\.entrytrace-record\\.' -e '/proc/sys/kernel/kptr_restrict' -e ENOENT -e '/dev/null'"
expect_eq "kptr_restrict is as it was" "$(cat /proc/sys/kernel/kptr_restrict)" "$kptr"
# libtracecmd reads a file twice, for its size and then its bytes; tracefs'
# saved_cmdlines changes whenever a task new to it is traced, and a version
# 6 file written across such a change held a size no reader gets past (a CI
# run of make check).  It reads a copy; tracefs' file is read once.
expect_eq "saved_cmdlines is read from tracefs once" \
	"$(grep -c 'open.*"/sys/kernel/tracing/saved_cmdlines", O_RDONLY' st.txt)" 1
expect_eq "...and libtracecmd sizes and copies the copy in the run directory" \
	"$(grep -cE 'open.*\.entrytrace-record\.[0-9]+\.[A-Za-z0-9]+/tracing/saved_cmdlines", O_RDONLY' st.txt)" 2
check "...whose other files are links into tracefs, made in the run directory only" \
	sh -c "grep -q 'symlink(\"/sys/kernel/tracing/events\", \"[^\"]*\\.entrytrace-record\\.[0-9]*\\.[A-Za-z0-9]*/tracing/events\")' st.txt &&
	       ! grep 'symlink(' st.txt | grep -vq '\\.entrytrace-record\\.[0-9]*\\.[A-Za-z0-9]*/tracing/'"
check "...and the run directory is gone afterwards" sh -c "! ls -d .entrytrace-record.* >/dev/null 2>&1"

# ---- other file versions ----------------------------------------------------
"$ET" record -q --file-version 6 -o v6.dat -- "$wl" -n 200 -o e6.txt getppid > /dev/null 2> v6.err
expect_eq "--file-version 6: nothing on stderr" "$(cat v6.err)" ""
"$ET" report --json -p "$(wl_pid e6.txt)" v6.dat > r6.json
expect_eq "version 6 file, uncompressed, exact getppid count" \
	"$(jmany r6.json '[f["file_version"], f["compression"], tot("getppid")]')" "[6, None, 200]"
# trace-cmd report exits 0 on a file it cannot read: count what it printed
expect_eq "trace-cmd report reads the version 6 file: the same getppid entries" \
	"$(trace-cmd report v6.dat 2>/dev/null | grep -c -- "-$(wl_pid e6.txt) .*sys_enter: *NR $nr ")" 200
"$ET" record -q --compression none -o v7n.dat -- "$wl" -n 200 -o e7.txt getppid > /dev/null
"$ET" report --json -p "$(wl_pid e7.txt)" v7n.dat > r7.json
expect_eq "--compression none: version 7 uncompressed, exact count" \
	"$(jmany r7.json '[f["file_version"], f["compression"], tot("getppid")]')" "[7, None, 200]"

# ---- -a: system-wide without the recorder, ended by SIGINT ------------------
"$ET" record -a -o all.dat 2> all.out &
rpid=$!
if ready all.out; then
	"$wl" -n 3000 -o ea.txt getppid > /dev/null
	sleep 0.2
	kill -INT $rpid
	wait $rpid
	expect_eq "record -a ends with exit 0 on SIGINT" "$?" 0
else
	kill -KILL $rpid
	_fail "record -a never started: $(cat all.out)"
fi
check "after SIGINT the instance is gone" gone $rpid
check "record -a names the excluded pid" grep -q "without this process (pid $rpid)" all.out
"$ET" report --json all.dat > ra.json
mapfile -t v < <(jmany ra.json \
	"sum(g['count'] for g in d['breakdown']['pid'] if g['pid'] == $(wl_pid ea.txt) and g['syscall'] == 'getppid')" \
	"sum(g['count'] for g in d['breakdown']['pid'] if g['pid'] == $rpid)")
expect_eq "-a: the workload's getppid calls, exactly" "${v[0]}" 3000
expect_eq "-a: no syscall of the recorder in the report" "${v[1]}" 0
trace-cmd report all.dat 2>/dev/null | grep -E -- "-$rpid +\[" > own.txt
expect_eq "-a: no raw_syscalls event of the recorder's pid" \
	"$(grep -c -E 'sys_(enter|exit):' own.txt)" 0
echo "# the recorder's pid appears only in $(wc -l < own.txt) sched_switch events (switching to or from a traced task)"

# ---- -p: a running task, until it exits ---------------------------------------
# stopped during its first mode (a sleep) until the recorder is ready, so the
# getppid loop after it is recorded whole
"$wl" -n 100000 -o ep.txt sleep=300 getppid > /dev/null &
wpid=$!
kill -STOP $wpid
"$ET" record -p $wpid -o pid.dat 2> pid.out &
rpid=$!
ready pid.out || _fail "record -p never started: $(cat pid.out)"
kill -CONT $wpid
wait $rpid
expect_eq "record -p ends with exit 0 when the task exits" "$?" 0
wait $wpid
mapfile -t v < <("$ET" report --json pid.dat > rp.json && jmany rp.json \
	"sum(g['count'] for g in d['breakdown']['pid'] if g['pid'] == $wpid and g['syscall'] == 'getppid')" \
	"sorted(set(g['pid'] for g in d['breakdown']['pid']))")
expect_eq "record -p: the task's getppid loop, exactly" "${v[0]}" 100000
expect_eq "record -p: no other task's syscalls" "${v[1]}" "[$wpid]"
check "record -p: the instance is gone" gone $rpid

# ---- SIGTERM during a command -----------------------------------------------
"$ET" record -o term.dat -- sleep 10 2> term.out &
rpid=$!
if ready term.out; then
	kill -TERM $rpid
	wait $rpid
	expect_eq "SIGTERM: record exits 0" "$?" 0
	check "SIGTERM: the trace.dat is still written (trace-cmd report reads it)" \
		sh -c "trace-cmd report term.dat 2>/dev/null | grep -q ' sys_enter: '"
else
	kill -KILL $rpid
	_fail "record -- sleep never started"
fi
check "SIGTERM: the instance is gone" gone $rpid

# ---- lost events: a 4 KB buffer and a fast loop ------------------------------
"$ET" record -b 4 -o lost.dat -- "$wl" -n 100000 getppid > /dev/null 2> lost.out
rec_lost=$(sed -n 's/.*lost events: \([0-9]*\).*/\1/p' lost.out)
check "record reports lost events > 0 ($rec_lost)" test "${rec_lost:-0}" -gt 0
"$ET" report --json lost.dat > rl.json
mapfile -t v < <(jmany rl.json 'f["lost_events"] + f["lost_unknown_gaps"]' 'f["lost_events"]')
check "entrytrace report sees lost events > 0 (${v[0]})" test "${v[0]:-0}" -gt 0
expect_eq "the ring-buffer pages' missed counts add up to the kernel's overruns" "${v[1]}" "$rec_lost"

# ---- top ----------------------------------------------------------------------
rm -f et.txt
"$wl" -n 5000000 -o et.txt getppid > /dev/null &
wpid=$!
for _ in $(seq 50); do [ -s et.txt ] && break; sleep 0.1; done
"$ET" top -n 2 -d 0.5 -p $wpid > top.txt 2> top.err &
tpid=$!
wait $tpid
expect_eq "top -n 2 exits 0" "$?" 0
check "top: the instance entrytrace-$tpid is gone" gone $tpid
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
expect_eq "top -n 2 printed two tables" "$(grep -c '^entrytrace top: table' top.txt)" 2
expect_eq "...without a terminal, no escape codes" "$(grep -c $'\033' top.txt)" 0
counts=$(awk '$1 == "getppid" && $2 == "total" { print $3 }' top.txt | tr '\n' ' ')
check "both tables show the workload's getppid ($counts)" \
	bash -c "set -- $counts; [ \$# -eq 2 ] && [ \$1 -gt 0 ] && [ \$2 -gt \$1 ]"
check "top: the live header" grep -q '^format: *live per-CPU buffers' top.txt
"$ET" top -d 10 -- "$wl" -n 1000 -o etc.txt getppid kill0 > topc.txt 2>&1
expect_eq "top -- CMD: last table when the command exits, exact getppid" \
	"$(awk '$1 == "getppid" && $2 == "total" { print $3 }' topc.txt | tail -1)" 1000
expect_eq "top -- CMD: exact kill" "$(awk '$1 == "kill" && $2 == "total" { print $3 }' topc.txt | tail -1)" 1000

# ---- bad usage and failures ---------------------------------------------------
expect_exit "record with nothing to record" 2 "$ET" record -o x.dat
expect_exit "record -p with -a" 2 "$ET" record -a -p 1
expect_exit "record --file-version 5" 2 "$ET" record --file-version 5 -- true
expect_exit "version 6 cannot be compressed" 2 "$ET" record --file-version 6 --compression zstd -- true
expect_exit "record -b 0" 2 "$ET" record -b 0 -- true
expect_exit "record --summary --aggregate: two modes" 2 "$ET" record --summary --aggregate -- true
# this host's kernel has no entry_stage_hist (t-aggregate has a guest's recording)
expect_exit "record --aggregate on a kernel without entry_stage_hist" 2 "$ET" record --aggregate -o x.dat -- true
expect_exit "record --batch --aggregate: two modes" 2 "$ET" record --batch --aggregate -- true
expect_exit "record --batch on a kernel without entry_stage_batch" 2 "$ET" record --batch -o x.dat -- true
"$ET" record --batch -o x.dat -- true 2> batch.err
expect_eq "record --batch: one line naming the event it needs, before anything is armed" \
	"$(cat batch.err)" "entrytrace record: --batch needs an entrytrace kernel with entry_stage:entry_stage_batch (series v4)"
check "...and no command ran (x.dat not written)" test ! -e x.dat
expect_exit "top -a with -p" 2 "$ET" top -a -p 1
expect_exit "top -d 0" 2 "$ET" top -d 0
expect_exit "record -p of no process" 2 "$ET" record -p 999999999 -o x.dat
"$ET" record -e nosuch:event -o x.dat -- true 2> nosuch.err &
rpid=$!
wait $rpid
expect_eq "an unknown -e event is a usage error" "$?" 2
check "...that names the event" grep -q "nosuch:event" nosuch.err
check "...and leaves no instance" gone $rpid
"$ET" record -o x.dat -- /nonexistent/cmd 2> nocmd.err &
rpid=$!
wait $rpid
expect_eq "a command that cannot run: exit 1" "$?" 1
check "...says why" grep -q "cannot run the command: No such file" nocmd.err
check "...writes no trace.dat" test ! -e x.dat
check "...and leaves no instance" gone $rpid
check "record --help documents the exit codes" grep -q "exit status" <("$ET" record --help)
# every option is checked before the workload runs; the workload's status passes on
start=$(date +%s%N)
expect_exit "record --compression lz4: usage error (exit 2)" 2 "$ET" record --compression lz4 -o lz.dat -- sleep 3
check "...before the 3 s workload ran ($(( ($(date +%s%N) - start) / 1000000 )) ms)" \
	test $(( ($(date +%s%N) - start) / 1000000 )) -lt 2500
check "...naming the value and what this libtracecmd writes" grep -q "'lz4': this libtracecmd cannot write it; it writes zstd.*none" \
	<("$ET" record --compression lz4 -o lz.dat -- true 2>&1)
check "...and writing nothing" test ! -e lz.dat
"$ET" record -q -o st3.dat -- sh -c 'exit 3' 2> st3.err
expect_eq "a command that exits 3: record exits 3, as time(1) does" "$?" 3
check "...says so, and the trace is written" sh -c "grep -q 'the command exited with status 3' st3.err && test -s st3.dat"
"$ET" record -q -o st9.dat -- sh -c 'kill -TERM $$' 2>/dev/null
expect_eq "a command killed by SIGTERM: 128 + 15" "$?" 143
check "entrytrace --help lists record and top" grep -q "top" <("$ET" --help)

# ---- top: -s, --delta, what the reader lost --------------------------------
"$ET" top -s getppid -d 10 -- "$wl" -n 1000 getppid kill0 > tops.txt 2>&1
expect_eq "top -s getppid: getppid's 1000, no kill row" \
	"$(awk '$2 == "total" { print $1, $3 }' tops.txt | tail -1)" "getppid 1000"
check "top -s: the header counts the syscalls it left out (kill0's 1000 and the rest)" grep -q '^filtered: *10[0-9][0-9] complete syscalls left out' tops.txt
expect_exit "top -s nosuch: exit 2 naming it" 2 "$ET" top -s nosuchcall -- true

rm -f ed.txt
# (killed below: long enough for three tables on a loaded machine)
"$wl" -n 100000000 -o ed.txt getppid > /dev/null &
wpid=$!
for _ in $(seq 50); do [ -s ed.txt ] && break; sleep 0.1; done
"$ET" top --delta -n 3 -d 0.5 -p $wpid > topd.txt 2>&1
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
# per table: the header's complete count, and the table's (one task: getppid only)
awk '/^entrytrace top: table/ { t++ } /^syscalls:/ { h[t] = $4 } $2 == "total" { n[t] += $3 }
	END { for (i = 1; i <= t; i++) print i, h[i], n[i] }' topd.txt > topd.cmp
expect_eq "top --delta: every table's header counts the same period as its table" \
	"$(awk '$2 != $3 { bad++ } END { print NR, bad + 0 }' topd.cmp)" "3 0"

"$ET" top -n 1 -d 1 -- "$wl" -n 300000 getppid > topl.txt 2>&1
read -r kread kdrop < <(sed -n 's/^buffers: *\([0-9]*\) events read from the buffers, \([0-9]*\) of them dropped.*/\1 \2/p' topl.txt)
check "top says how many events it read and how many the deadline cut dropped (read $kread, dropped $kdrop)" \
	test "$((kread - kdrop))" = "$(awk '$1 == "events:" { print $2 }' topl.txt)"
"$ET" top -b 4 -n 1 -d 1 -- "$wl" -n 300000 getppid > topb.txt 2>&1
check "top -b 4 on a tight loop says on screen that the buffers overran" \
	grep -q '^buffers: .* overwritten.*: the buffers overran, use a larger -b' topb.txt

# ---- a file that does not read back is not given its name ---------------------
# ENTRYTRACE_RECORD_DAMAGE_AT=written halves the file once written, as a
# wrong size written by libtracecmd would leave it for every reader.
for v in 6 7; do
	ENTRYTRACE_RECORD_DAMAGE_AT=written "$ET" record -q --file-version $v -o dmg$v.dat -- \
		"$wl" -n 50 -o /dev/null getppid > /dev/null 2> dmg.err
	expect_eq "version $v, damaged once written: record exits 1" "$?" 1
	check "...naming the read-back that failed" \
		grep -qx "entrytrace record: dmg$v.dat: reading the written file back (libtracecmd cannot open it) failed" dmg.err
	check "...leaving no file under the name and no run directory" \
		sh -c "[ ! -e dmg$v.dat ] && ! ls -d .entrytrace-record.* >/dev/null 2>&1"
done

# ---- SIGKILL: what a killed recorder leaves is named and removed ----------------
# (issue 48: a partial file at the final name, a run directory of up to 69 MB,
# the instance still tracing.)  ENTRYTRACE_RECORD_KILL_AT makes the recorder
# SIGKILL itself while recording (tracing on), while writing (the headers of
# the trace.dat written, not its data) and after the rename (the run directory
# and the instance not yet removed).
mkdir -p killed
for at in recording writing written; do
	rm -f killed/k.dat
	ENTRYTRACE_RECORD_KILL_AT=$at "$ET" record -q -o killed/k.dat -- "$wl" -n 3000000 -o /dev/null getppid \
		> /dev/null 2>&1 &
	rpid=$!
	wait $rpid
	expect_eq "killed $at: the recorder died of SIGKILL (137)" "$?" 137
	check "killed $at: its instance entrytrace-$rpid is left" test -d "$inst/entrytrace-$rpid"
	check "killed $at: its run directory .entrytrace-record.$rpid.* is left" \
		sh -c "ls -d killed/.entrytrace-record.$rpid.* >/dev/null 2>&1"
	if [ $at = written ]; then
		check "killed $at: the trace.dat was already whole under its name (report exits 0)" sh -c "\"\$0\" report killed/k.dat >/dev/null" "$ET"
	else
		check "killed $at: no partial file under the final name" test ! -e killed/k.dat
	fi
	# the workload it released runs on: end it
	pkill_wl=$(pgrep -f "$wl -n 3000000 -o /dev/null getppid" | head -1)
	[ -n "$pkill_wl" ] && kill "$pkill_wl" 2>/dev/null
	if [ $at = writing ]; then
		# the next record finds both, names and removes them
		"$ET" record -q -o killed/next.dat -- "$wl" -n 10 -o /dev/null getppid > next.out 2>&1
		expect_eq "after the kill $at: the next record exits 0" "$?" 0
		sweep=next.out
	else
		"$ET" record --clean -o killed/k.dat > next.out 2>&1
		expect_eq "after the kill $at: record --clean exits 0" "$?" 0
		sweep=next.out
	fi
	check "...and names the stale instance entrytrace-$rpid it removed" \
		grep -q "removed the stale tracefs instance entrytrace-$rpid: pid $rpid no longer runs entrytrace" $sweep
	check "...and the run directory it removed, with its size" \
		grep -qE "removed killed/\.entrytrace-record\.$rpid\.[A-Za-z0-9]+ \([0-9]+ bytes\): pid $rpid" $sweep
	check "...and both are gone" sh -c "[ ! -e '$inst/entrytrace-$rpid' ] && ! ls -d killed/.entrytrace-record.$rpid.* >/dev/null 2>&1"
done
grep -m1 "removed the stale tracefs instance" next.out | sed 's/^/#   /'
grep -q "it was still tracing" <(ENTRYTRACE_RECORD_KILL_AT=recording "$ET" record -q -o killed/t.dat -- "$wl" -n 3000000 -o /dev/null getppid >/dev/null 2>&1; "$ET" record --clean -o killed/t.dat 2>&1)
expect_eq "killed while recording: --clean says the instance was still tracing" "$?" 0
pkill_wl=$(pgrep -f "$wl -n 3000000 -o /dev/null getppid" | head -1)
[ -n "$pkill_wl" ] && kill "$pkill_wl" 2>/dev/null
"$ET" record --clean -o killed/k.dat > clean.out 2>&1
check "record --clean with nothing stale says so" grep -q "nothing stale" clean.out
check "a live recorder's instance and directory are not swept" sh -c "
	'$ET' record -q -o killed/live.dat -- '$wl' -n 3000000 -o /dev/null getppid >/dev/null 2>&1 &
	p=\$!
	for _ in \$(seq 100); do [ -d '$inst/entrytrace-'\$p ] && ls -d killed/.entrytrace-record.\$p.* >/dev/null 2>&1 && break; sleep 0.05; done
	'$ET' record --clean -o killed/k.dat >/dev/null 2>&1
	ok=0; [ -d '$inst/entrytrace-'\$p ] && ls -d killed/.entrytrace-record.\$p.* >/dev/null 2>&1 && ok=1
	kill -TERM \$p; wait \$p
	[ \$ok = 1 ]"

# ---- a full disk ------------------------------------------------------------------
# a 2 MB tmpfs: the per-CPU data of an uncompressed recording fits, the trace.dat
# beside it does not
mkdir -p full
if mount -t tmpfs -o size=2m tmpfs full 2>/dev/null; then
	"$ET" record -q --compression none -o full/f.dat -- "$wl" -n 12000 -o /dev/null getppid > full.out 2>&1
	rc=$?
	expect_eq "a full disk: record exits 1" "$rc" 1
	check "...saying No space left on device: $(head -1 full.out)" grep -q "No space left on device" full.out
	check "...and leaves neither a partial f.dat nor its run directory" \
		sh -c '[ -z "$(ls -A full)" ]'
	umount full
else
	_fail "a tmpfs for the full-disk check could not be mounted"
fi
