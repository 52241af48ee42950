# SPDX-License-Identifier: GPL-2.0
# The powerpc fixes' guest runs, kept as data (analyzer/tests/data/fixes/,
# written by scripts/kernel/dev/kernel-fix --save; PROVENANCE.md there):
# what the patches in arch/powerpc/fixes/ and Documentation/fixes-powerpc.md
# say the selftests, the replay run and the accounting run showed, read
# back from the runs' own output.  Every run's patches must still be the
# ones in the tree (the sha256 of their diff parts), so a fix changed
# since its run fails here until it is run again.
. "$(dirname "$0")/lib.sh"

FX=$DATA/fixes
F72=$TOP/arch/powerpc/fixes/7.2

# diffsum FILE: sha256 of a patch's diff part (kernel-fix --save's)
diffsum() {
	awk '/^diff --git /{ d = 1 } /^-- $/{ d = 0 } d' "$1" | sha256sum | cut -d' ' -f1
}

# the runs the checks below read, each with its provenance row and output
runs="st-7.2-nofix st-7.2-0002 st-7.2-0001 st-7.2-0001-0005 replay-6.12-plain replay-7.2-plain
	replay-7.2-0001-0004 acct-7.2-native-plain acct-7.2-native-old0004 acct-7.2-native-0001-0004
	acct-7.2-native-0001-0004-run2"
for r in $runs; do
	check "$r: a run directory with what kernel-fix printed, and a PROVENANCE.md row" \
		eval "[ -s '$FX/$r/kernel-fix.txt' ] && grep -q '^| $r | [0-9]' '$FX/PROVENANCE.md'"
	# a run without its patches list checked nothing: say so, do not pass
	# (an empty list is a kernel without patches, as PROVENANCE.md's "none")
	if [ -f "$FX/$r/patches" ] && { [ -s "$FX/$r/patches" ] ||
		grep -q "^| $r | [^|]* | [^|]* | none |" "$FX/PROVENANCE.md"; }; then
		stale=$(while read -r sum path; do
			[ -f "$TOP/$path" ] || { echo "$path (gone)"; continue; }
			[ "$(diffsum "$TOP/$path")" = "$sum" ] || echo "$path"
		done <"$FX/$r/patches")
	else
		stale="no $FX/$r/patches"
	fi
	expect_eq "$r: its patches are the tree's (diff sha256)" "$stale" ""
done
# a planted change to a patch's diff is seen (the check above can fail)
cp "$F72/0002-"*.patch planted.patch
sed -i 's/^+\tif (task == current)$/+\tif (task != current)/' planted.patch
check "a patch whose diff changed has another diff sha256" \
	test "$(diffsum planted.patch)" != "$(diffsum "$F72/0002-"*.patch)"
# ...and a reworded message the same one
sed -e 's/^syscall_set_return_value() ends in/syscall_set_return_value() always ends in/' \
	"$F72/0002-"*.patch >reworded.patch
check "a patch whose message changed keeps its diff sha256" \
	test "$(diffsum reworded.patch)" = "$(diffsum "$F72/0002-"*.patch)"
grep -q 'always ends in' reworded.patch || _fail "the rewording planted nothing"

# totals RUN TEST: "pass/fail/skip" of a selftest log (kselftest totals,
# errors counted as failures), or the exit status's 1/0/0 or 0/1/0
totals() {
	local f=$FX/$1/selftest-$2.log t
	[ -f "$f" ] || { echo missing; return; }
	t=$(sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\) xfail:[0-9]* xpass:[0-9]* skip:\([0-9]*\) error:\([0-9]*\)$/\1 \2 \3 \4/p' "$f" | tail -n1)
	if [ -n "$t" ]; then
		set -- $t
		echo "$1/$(($2 + $4))/$3"
	elif [ "$(sed -n 's/^rc=//p' "$f" | tail -n1)" = 0 ]; then
		echo 1/0/0
	else
		echo 0/1/0
	fi
}
# failed RUN TEST: the names of the failed cases, sorted, one line
failed() {
	sed -n 's/^not ok [0-9]* \([^ #]*\).*/\1/p' "$FX/$1/selftest-$2.log" | sort | paste -sd' ' -
}

# selftests RUN TEST P/F/S: a selftest's totals in a run
st() {
	expect_eq "$1: $2 pass/fail/skip" "$(totals "$1" "$2")" "$3"
}
# 0002 (set_syscall_info's "wait #2"): fails without, passes with it;
# get_syscall_info and seccomp_bpf unchanged (the patch's message)
st st-7.2-nofix set_syscall_info 0/1/0
st st-7.2-nofix get_syscall_info 1/0/0
st st-7.2-nofix seccomp_bpf 84/8/19
st st-7.2-0002 set_syscall_info 1/0/0
st st-7.2-0002 get_syscall_info 1/0/0
st st-7.2-0002 seccomp_bpf 84/8/19
[ ! -f "$FX/st-7.2-nofix/selftest-set_syscall_info.log" ] ||
	check "st-7.2-nofix: set_syscall_info fails at 'wait #2: PTRACE_GET_SYSCALL_INFO #2'" \
		grep -q 'wait #2: PTRACE_GET_SYSCALL_INFO #2' "$FX/st-7.2-nofix/selftest-set_syscall_info.log"
# 0001 changes no selftest; 0005 (the value seccomp set): 6 of seccomp_bpf's
# 8 failures go, the two of syscall(-1) against a skipped syscall stay
st st-7.2-0001 seccomp_bpf 84/8/19
st st-7.2-0001-0005 seccomp_bpf 90/2/19
expect_eq "st-7.2-0001-0005: seccomp_bpf's failures left" \
	"$( [ -f "$FX/st-7.2-0001-0005/selftest-seccomp_bpf.log" ] && failed st-7.2-0001-0005 seccomp_bpf)" \
	"TRACE_syscall.seccomp.syscall_errno TRACE_syscall.seccomp.syscall_faked"

# 0004's replay run (debug 0001 + replaytest, 20 rounds): the signal raised
# by the replayed interrupt is delivered on that exit on legacy 6.12 and
# with 0004, at the next syscall on 7.2 without it
replay() {
	sed -n 's/^replaytest: \(.* missed [0-9]*\)$/\1/p' "$FX/$1/replay.txt" 2>/dev/null | tail -n1
}
expect_eq "replay-6.12-plain: where the signal is delivered" "$(replay replay-6.12-plain)" "20 on-exit 20 next-entry 0 missed 0"
expect_eq "replay-7.2-plain: where the signal is delivered" "$(replay replay-7.2-plain)" "20 on-exit 0 next-entry 20 missed 0"
expect_eq "replay-7.2-0001-0004: where the signal is delivered" "$(replay replay-7.2-0001-0004)" "20 on-exit 20 next-entry 0 missed 0"

# 0004's accounting run (debug 0003 + acctest, --config native): one loop
# of read()s without a replay (control), then with one on every exit
# (replay); ratio = (utime + stime) / CLOCK_THREAD_CPUTIME_ID.
# acct RUN PHASE FIELD: a field of acct.txt's line for PHASE (reads, bytes,
# utime, stime, cputime, ratio, replays), empty when there is none
acct() {
	awk -v ph="$2" -v f="$3" '$1 == "acctest:" && $2 == ph {
		for (i = 3; i < NF; i++) if ($i == f) v = $(i + 1) } END { print v }' "$FX/$1/acct.txt" 2>/dev/null
}
# twice RUN: "once" when the replay phase's ratio is within 0.25 of the
# control's (acctest's own rule), "twice" when above it, else why not
twice() {
	local rc rr k t n
	rc=$(acct "$1" control ratio) rr=$(acct "$1" replay ratio)
	k=$(acct "$1" replay replays) t=$(acct "$1" replay ticks) n=$(acct "$1" replay reads)
	[ -n "$rc" ] && [ -n "$rr" ] && [ -n "$k" ] && [ -n "$t" ] && [ -n "$n" ] ||
		{ echo "no acctest lines"; return; }
	# a run whose exits did not replay (fewer decrementer interrupts,
	# spurious or a tick that was due, than reads), or whose control is
	# not ~1, tells nothing
	awk -v k="$k" -v t="$t" -v n="$n" -v rc="$rc" -v rr="$rr" 'BEGIN {
		if (k + t < n) print "only " k " + " t " decrementer interrupts for " n " reads"
		else if (rc < 0.75 || rc > 1.25) print "control ratio " rc
		else if (rr - rc > 0.25) print "twice"
		else if (rc - rr > 0.25) print "less (" rr ")"
		else print "once" }'
}
for r in acct-7.2-native-plain acct-7.2-native-old0004 acct-7.2-native-0001-0004 acct-7.2-native-0001-0004-run2; do
	check "$r: a VIRT_CPU_ACCOUNTING_NATIVE kernel (else the accounting calls are empty)" \
		grep -qx CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y "$FX/$r/config.txt"
done
# unfixed 7.2 charges a replayed exit's syscall twice (the replayed
# interrupt's vtime_account_kernel() from the entry's starttime), the
# earlier 0004 too (its second account_cpu_user_exit() adds little); the
# 0004 in the tree once.  The first two are also what shows the check can fail.
expect_eq "acct-7.2-native-plain: a replayed exit's time charged" "$(twice acct-7.2-native-plain)" twice
expect_eq "acct-7.2-native-old0004: a replayed exit's time charged" "$(twice acct-7.2-native-old0004)" twice
# (0001-0004 twice, the second boot of the same kernel source)
for r in acct-7.2-native-0001-0004 acct-7.2-native-0001-0004-run2; do
	expect_eq "$r: a replayed exit's time charged" "$(twice $r)" once
	expect_eq "$r: acctest's exit status" \
		"$(sed -n 's/^acctest-exit: //p' "$FX/$r/acct.txt" 2>/dev/null)" 0
done
# the rule itself, on planted line pairs: charged twice, once, and a
# kernel without the hook (too few replays), which says nothing
planted() {
	mkdir -p "planted-acct/$1"
	{
		printf 'acctest: control reads 100 bytes 1 utime 1.0 stime 9.0 cputime 10.0 ms ratio 1.000 replays 0 ticks 2\n'
		printf 'acctest: replay reads 100 bytes 1 utime 1.0 stime 9.0 cputime 10.0 ms ratio %s replays %s ticks 3\n' "$2" "$3"
	} >"planted-acct/$1/acct.txt"
}
planted p-twice 1.900 97
planted p-once 1.050 97
planted p-nohook 1.000 20
expect_eq "a planted double count is seen" "$(FX=planted-acct twice p-twice)" twice
expect_eq "a planted single count is seen" "$(FX=planted-acct twice p-once)" once
expect_eq "a planted run without replays is not judged" "$(FX=planted-acct twice p-nohook)" \
	"only 20 + 3 decrementer interrupts for 100 reads"
expect_eq "a run with no acctest lines is not judged" "$(FX=planted-acct twice p-none)" "no acctest lines"
