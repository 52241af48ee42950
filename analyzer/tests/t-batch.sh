# SPDX-License-Identifier: GPL-2.0
# Packed batches (series v4, entry_stage:entry_stage_batch) from real
# recordings: ARCH-BASE-batch.dat, the fixture workload with the batch
# event (kernel-fixtures, ppc-fixtures or ppc32-fixtures: x86_64-NEWEST's
# at least).  Each record is read as a summary: every task's syscall
# counts are the workload's, the records are the batches' own count, and
# the stage times are those of the same workload's compact recording
# (entry_stage_summary) but for the tracer's own (emit, user_gap).  On
# x86_64-NEWEST's: a batch missing from its CPU's numbers is counted and
# exits 8; a batch that does not hold together is damage.
. "$(dirname "$0")/lib.sh"

# the same stage times as the compact recording of the same workload (tol
# ns: another boot; ppc64le's timebase ticks are 1/512 MHz, ppc750's
# 1/16.6 MHz), but emit and user_gap, which hold the tracer's own work:
# the getppid calls of the plain path (path signature -), as the task's
# seccomp ones make every total two-humped (half of ppc64le's main task)
medians() {
	local pid
	pid=$(mode_pid getppid "$1.expect")
	"$ET" report --json --by-work -p "$pid" -s getppid "$1.dat" > m.json
	jget m.json "'\n'.join('%s %s' % (x['stage'], x['p50']) for x in d['cells'] if x['syscall'] == 'getppid' and x['work'] == '-' and x['stage'] not in ('emit', 'user_gap'))"
}

# check_batch ARCH-BASE TOL: a batch recording against its workload and
# the compact recording of the same workload
check_batch() {
	local k=$1 tol=$2 b=$DATA/$1-batch c=$DATA/$1-compact nb main p m sc
	expect_exit "$k: the recording reads clean (exit 0)" 0 sh -c "'$ET' report '$b.dat' >/dev/null && echo ok >&2"
	"$ET" report "$b.dat" > b.txt 2>/dev/null
	check "$k: its mode is summary, found from its formats" \
		grep -q '^mode: *summary (events: entry_stage:entry_stage_batch)' b.txt
	"$ET" report --json "$b.dat" > b.json
	nb=$(jget b.json "d['files'][0]['batches']")
	check "$k: more than one batch ($nb): records crossed batches" test "$nb" -gt 1
	expect_eq "$k: no batch lost, not damaged" \
		"$(jget b.json "(d['files'][0]['lost_batches'], d['files'][0]['damaged'])")" "(0, False)"
	# the batches' own count of records, as trace-cmd prints them, is the
	# syscalls the analyzer saw (each record one syscall)
	trace-cmd report -i "$b.dat" 2>/dev/null | grep -o ' records=[0-9]*' |
		awk -F= '{ n += $2 } END { print n + 0 }' > records.txt
	expect_eq "$k: every record is a syscall" "$(jget b.json "d['files'][0]['syscalls']['seen']")" \
		"$(cat records.txt)"
	check "$k: the batches hold records ($(cat records.txt))" test "$(cat records.txt)" -gt 0
	# per task, the workload's own counts
	for m in getppid ptrace audit; do
		p=$(mode_pid "$m" "$b.expect")
		"$ET" report --json -p "$p" -s getppid "$b.dat" > p.json
		expect_eq "$k: getppid count of task $p ($m)" "$(cell p.json getppid syscall count)" \
			"$(awk -v p="pid=$p" '$3 == "getppid" && $5 == p { n += $4 } END { print n }' "$b.expect")"
	done
	main=$(mode_pid getppid "$b.expect")
	"$ET" report --json -p "$main" "$b.dat" > main.json
	for sc in kill; do
		expect_eq "$k: $sc count" "$(cell main.json $sc syscall count)" "$(expected $sc "$b.expect")"
	done
	expect_eq "$k: one signal stage per kill(SIGUSR1)" "$(cell main.json kill signal count)" \
		"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$b.expect")"
	medians "$b" > mb.txt
	medians "$c" > mc.txt
	check "$k: getppid has stages in both ($(wc -l < mb.txt))" test "$(wc -l < mb.txt)" -gt 10
	check "$k: each getppid stage's median within $tol ns of the compact recording's" \
		awk -v tol="$tol" 'NR == FNR { c[$1] = $2; next } !($1 in c) || $2 - c[$1] > tol || c[$1] - $2 > tol { print "stage " $1 ": " $2 " against " c[$1]; bad = 1 } END { exit bad }' mc.txt mb.txt
}

if [ ! -f "$DATA/x86_64-$NEWEST-batch.dat" ]; then
	_fail "x86_64-$NEWEST-batch.dat missing: scripts/kernel/record/kernel-fixtures --only batch $NEWEST"
	exit 0
fi
for f in "$DATA"/*-batch.dat; do
	k=$(basename "$f" -batch.dat)
	case "$k" in
	x86_64-*) tol=1 ;;
	ppc64le-*) tol=4 ;;
	*) tol=61 ;;	# 32-bit powerpc: a tick of g3beige's timebase is 60 instructions
	esac
	check_batch "$k" "$tol"
done

# A task that changed CPU between its syscalls (workloads/migrate.c, a
# guest of two CPUs): its records lie in both CPUs' batches, handed on in
# the order the batches were written, so its sequence numbers step back
# and jump; read as neither a new task nor a loss, every getppid counted,
# and put back in the task's order
nm=0
for f in "$DATA"/*-migrate.dat; do
	[ -e "$f" ] || continue
	nm=$((nm + 1))
	k=$(basename "$f" .dat)
	x=${f%.dat}.expect
	read -r p n c0 c1 < <(sed -n 's/^migrate: pid=\([0-9]*\) rounds=[0-9]* n=[0-9]* getppid=\([0-9]*\) cpus=\([0-9]\),\([0-9]\)$/\1 \2 \3 \4/p' "$x")
	check "$k: the workload ran on two CPUs ($c0 then $c1)" test -n "$p" -a "$c0" != "$c1"
	expect_exit "$k: reads clean (exit 0)" 0 sh -c "'$ET' report '$f' >/dev/null && echo ok >&2"
	"$ET" report --json "$f" > mg.json
	expect_eq "$k: no batch lost, no task reset, no sequence gap, not damaged" \
		"$(jget mg.json "(d['files'][0]['lost_batches'], d['files'][0]['syscalls']['flagged']['pid_reuse'], d['files'][0]['syscalls']['flagged']['seq_gap'], d['files'][0]['seq_unexplained'], d['files'][0]['damaged'])")" \
		"(0, 0, 0, 0, False)"
	# put back in the task's order (timeline-batch.c): a syscall's DEFERRED
	# stages come with the next record, so each record must follow its
	# task's previous one; only a task's last syscall lacks them
	expect_eq "$k: records waited for earlier ones, none came too late" \
		"$(jget mg.json "(d['files'][0]['syscalls']['batch_held'] > 0, d['files'][0]['syscalls']['batch_late'])")" "(True, 0)"
	expect_eq "$k: no_tail only for each task's last syscall" \
		"$(jget mg.json "d['files'][0]['syscalls']['flagged']['no_tail'] == d['files'][0]['syscalls']['tasks']")" "True"
	"$ET" report --json -p "$p" -s getppid "$f" > mgp.json
	expect_eq "$k: every getppid of the task" "$(cell mgp.json getppid syscall count)" "$n"
	expect_eq "$k: ...and every one has its total (its DEFERRED stages came)" "$(cell mgp.json getppid total count)" "$n"
	"$ET" report -p "$p" -s getppid "$f" > mgp.txt
	check "$k: its getppids ran on both CPUs" sh -c \
		"awk '/^syscall +cpu +count/ { on = 1; next } on && NF == 0 { exit } on' mgp.txt | grep -Eq '^getppid +[01] ' &&
		 awk '/^syscall +cpu +count/ { on = 1; next } on && NF == 0 { exit } on { print }' mgp.txt | grep -Eq '^ +[01] +[0-9]'"
	# the batches' order in the file: a batch of one CPU written after a
	# later one of the other CPU holds some of the task's earlier records
	trace-cmd report -i "$f" 2>/dev/null | grep -o 'entry_stage_batch: *cpu=[0-9]' | uniq | wc -l > turns.txt
	check "$k: the file's batches change CPU more than once ($(cat turns.txt) runs)" test "$(cat turns.txt)" -gt 2
done
check "a recording of a task moving between CPUs was read ($nm: kernel-fixtures --smp 2 --only migrate $NEWEST)" \
	test "$nm" -gt 0

# entrytrace record --batch in the guest (kernel-aggregate: the run of its
# -aggregate-compact.expect again, under 'sh -c "sysloop ...; true"'): no
# pid filter, the kernel arms the shell and the sysloop it forks
# (entry_stage.pid); the task events but sched_switch come too, written
# before the batches with the tasks' last records
no=0
for f in "$DATA"/*-aggregate-batch-own.dat; do
	[ -e "$f" ] || continue
	no=$((no + 1))
	k=$(basename "$f" .dat)
	x=${f%-batch-own.dat}-compact.expect
	expect_exit "$k: reads clean (exit 0)" 0 sh -c "'$ET' report '$f' >/dev/null && echo ok >&2"
	"$ET" report "$f" > ob.txt 2>/dev/null
	check "$k: summary mode from the batches, with task events" \
		grep -q '^mode: *summary (events: sched_process_\*, entry_stage:entry_stage_batch)' ob.txt
	check "$k: no sched_switch (system-wide without a pid filter)" \
		sh -c "! trace-cmd report -i '$f' 2>/dev/null | grep -q sched_switch"
	"$ET" report --json "$f" > ob.json
	expect_eq "$k: no batch lost, none late, not damaged; two tasks (the shell, sysloop)" \
		"$(jget ob.json "(d['files'][0]['lost_batches'], d['files'][0]['syscalls']['batch_late'], d['files'][0]['damaged'], d['files'][0]['syscalls']['tasks'])")" \
		"(0, 0, False, 2)"
	# a task's exit comes before the batch with its last records: read as
	# its end, it left 4 (its records after it found no syscall)
	expect_eq "$k: no_tail only for each task's last syscall" \
		"$(jget ob.json "d['files'][0]['syscalls']['flagged']['no_tail']")" 2
	for sc in getppid kill; do
		n=$(expected $sc "$x")
		"$ET" report --json -c sysloop -s $sc "$f" > obs.json
		expect_eq "$k: sysloop's every $sc, armed as the shell's child" "$(cell obs.json $sc syscall count)" "$n"
	done
done
check "an 'entrytrace record --batch' recording was read ($no: kernel-aggregate --tag v4 $NEWEST)" \
	test "$no" -gt 0

b=$DATA/x86_64-$NEWEST-batch
nb=$("$ET" report --json "$b.dat" | python3 -c 'import json, sys; print(json.load(sys.stdin)["files"][0]["batches"])')
trace-cmd report -i "$b.dat" 2>/dev/null | grep -o ' records=[0-9]*' |
	awk -F= '{ n += $2 } END { print n + 0 }' > records.txt

# Damage, from an uncompressed copy with one field of one batch changed
# (trace-records finds it)
trace-cmd convert --file-version 6 --compression none -i "$b.dat" -o v6.dat >/dev/null 2>&1
expect_exit "the undamaged copy exits 0" 0 sh -c "'$ET' report v6.dat >/dev/null && echo ok >&2"
# poke NAME FIELD N VALUE: the N-th batch's FIELD set to VALUE
poke() { poke_record "$1.dat" v6.dat entry_stage:entry_stage_batch "$2" "$3" "$4"; }
n=$("$SAN/tests/trace-records" v6.dat entry_stage:entry_stage_batch seq | wc -l)
expect_eq "the copy has the batches" "$n" "$nb"
last=$(trace-cmd report -i v6.dat 2>/dev/null | grep -o ' seq=[0-9]*' | tail -1 | cut -d= -f2)
# the last batch numbered one on: the one before it is missing
poke gap seq "$n" $((last + 1))
expect_exit "a batch missing from its CPU's numbers: exit 8" 8 "$ET" report gap.dat
"$ET" report --json gap.dat > gap.json 2>/dev/null
expect_eq "...counted as one lost batch, no lost event told of it" \
	"$(jget gap.json "(d['files'][0]['lost_batches'], d['files'][0]['batches_unexplained'], d['files'][0]['lost_events'], d['files'][0]['lost_unknown_gaps'])")" \
	"(1, 1, 0, 0)"
"$ET" report gap.dat 2>/dev/null > gap.txt
check "...said in the header" grep -q 'LOST: 1 batches (gaps in their CPU' gap.txt
check "...and as damage" grep -q '1 packed batches missing from their CPU.s numbers with no lost events reported' gap.txt
expect_eq "...the renumbered batch itself still read" \
	"$(jget gap.json "d['files'][0]['syscalls']['seen']")" "$(cat records.txt)"
# a batch that says it holds more records than its words can
poke many records 1 100000
expect_exit "a batch whose records do not fit its words: exit 8" 8 "$ET" report many.dat
"$ET" report --json many.dat > many.json 2>/dev/null
expect_eq "...its records counted as ABI errors" "$(jget many.json "d['files'][0]['abi_errors']")" 100000
# words said to run past the record (the __data_loc's length, its high half)
read -r _ at _ <<< "$("$SAN/tests/trace-records" v6.dat entry_stage:entry_stage_batch words | sed -n 1p)"
loc=$(python3 -c "print(int.from_bytes(open('v6.dat', 'rb').read()[$at:$at + 4], 'little'))")
poke long words 1 $(( (loc & 0xffff) | (0xfff0 << 16) ))
expect_exit "a batch whose words run past its record: exit 8" 8 "$ET" report long.dat
"$ET" report --json long.dat > long.json 2>/dev/null
expect_eq "...its records counted as ABI errors, the other batches read" \
	"$(jget long.json "(d['files'][0]['abi_errors'], d['files'][0]['syscalls']['seen'] > 0)")" \
	"($(trace-cmd report -i v6.dat 2>/dev/null | grep -o ' records=[0-9]*' | sed -n 1p | cut -d= -f2), True)"
poke abi5 abi 1 5
expect_exit "a batch of ABI 5 (newer than this analyzer): exit 8" 8 "$ET" report abi5.dat
