# SPDX-License-Identifier: GPL-2.0
# 32-bit big-endian powerpc recordings read on this (x86_64) host: the
# fixtures of scripts/kernel/record/ppc32-fixtures (QEMU g3beige with a 750 core, ppc750;
# mpc8544ds with an e500v2, ppce500; 6.12 legacy, 7.2 and 7.3 generic entry),
# recorded without trace-cmd in the guest (raw ring-buffer pages made into a
# trace.dat by scripts/host/trace-dat-build).  The trace's layout (big-endian,
# 4-byte long), its syscall names from the 32-bit powerpc table (getppid 64,
# kill 37, sigreturn 119, getpgid 132, clone 120, execve 11, wait4 114),
# exact counts against what the workload said it did, and the same files
# read by trace-cmd itself.
# weight: 46
. "$(dirname "$0")/lib.sh"

found=0
for a in $ARCHES32; do
	for b in $BASES; do
		for kind in stage compact bench; do
			f=$DATA/$a-$b-$kind
			[ -f "$f.dat" ] || continue
			found=$((found + 1))
			n=$a-$b-$kind
			"$ET" report --json "$f.dat" > "$n.json"
			expect_eq "$n: uname machine" "$(jget "$n.json" "d['files'][0]['machine']")" ppc
			expect_eq "$n: recorded on a $b kernel" \
				"$(jget "$n.json" "'.'.join(d['files'][0]['uname'].split()[2].split('.')[:2])")" "$b"
			expect_eq "$n: nothing lost" "$(jget "$n.json" "d['files'][0]['lost_events']")" 0
			check "$n: trace-cmd report reads it" \
				sh -c "trace-cmd report -i '$f.dat' 2>/dev/null | grep -q entry_stage_"
			x=$f.expect
			case "$kind" in
			stage|compact)
				main=$(mode_pid getppid "$x")
				"$ET" report --json -p "$main" "$f.dat" > main.json
				mine() { awk -v s="$1" -v p="pid=$main" '$3 == s && $5 == p { n += $4 } END { print n + 0 }' "$x"; }
				for sc in getppid kill; do
					expect_eq "$n: $sc count of the main task (32-bit name)" \
						"$(cell main.json $sc syscall count)" "$(mine $sc)"
				done
				# a handler installed without SA_SIGINFO returns through
				# the 32-bit ABI's own sigreturn (119), not rt_sigreturn
				expect_eq "$n: sigreturn count (sysloop says rt_sigreturn)" \
					"$(cell main.json sigreturn syscall count)" "$(mine rt_sigreturn)"
				# by number too: the 32-bit numbers, not the 64-bit ones
				"$ET" report --json -p "$main" -s 64,37,119 "$f.dat" > nr.json
				expect_eq "$n: syscalls 64,37,119 are getppid, kill, sigreturn" \
					"$(jget nr.json "sorted({c['syscall'] for c in d['cells']})")" \
					"['getppid', 'kill', 'sigreturn']"
				expect_eq "$n: one signal stage per kill(SIGUSR1)" \
					"$(cell main.json kill signal count)" \
					"$(awk '$2 == "killsig" && $3 == "kill" { print $4 }' "$x")"
				;;
			bench*)
				"$ET" report --json -c sysbench "$f.dat" > b.json
				for sc in getppid getpgid clone wait4; do
					expect_eq "$n: $sc count" "$(cell b.json $sc syscall count)" \
						"$(expected $sc "$x")"
				done
				# and the execve that made the task sysbench
				expect_eq "$n: execve count (the loop's and sysbench's own)" \
					"$(cell b.json execve syscall count)" "$(( $(expected execve "$x") + 1 ))"
				;;
			esac
			# the stages every syscall passes, on the legacy and the
			# generic path alike (powerpc's own exit head among them):
			# one event of each per getppid, none lost to a missing
			# stamp.  Per-stage events only: a compact event's 0 is "did
			# not run", and most of these stages take 0 ticks of ppc750's
			# 16.6 MHz timebase.
			if [ "$kind" = stage ]; then
				all=$(cell "$n.json" getppid syscall count)
				check "$n: getppid calls staged ($all)" test "$all" -ge 100
				for st in arch_enter ct_user_exit arch_syscall_entry arch_syscall_exit exit_prepare; do
					expect_eq "$n: getppid: one $st per call" \
						"$(cell "$n.json" getppid $st count)" "$all"
				done
				# the deferred ones come with the next syscall's burst:
				# one per complete call (the total's count)
				done_=$(cell "$n.json" getppid total count)
				check "$n: getppid: at most 3 calls without their deferred stages" \
					test "$done_" -ge $((all - 3))
				for st in ct_user_enter arch_exit_tail; do
					expect_eq "$n: getppid: one $st per complete call" \
						"$(cell "$n.json" getppid $st count)" "$done_"
				done
			fi
		done
	done
	# legacy vs generic on one guest: the diff pairs every stage of the
	# getpgids that return straight to user space (work '-'; all of
	# their stages are on both paths in stages.def).  A getpgid that met
	# exit work is a group of its own, on one side only when only one
	# recording had it (ppce500 7.2's of 4 December: one notify_resume|rseq)
	for g in 7.2 7.3; do
		l=$DATA/$a-6.12-bench.dat t=$DATA/$a-$g-bench.dat
		[ -f "$l" ] && [ -f "$t" ] || continue
		"$ET" diff --replicates=syscalls --json -c sysbench -s getpgid "$l" "$t" > d.json
		expect_eq "$a: 6.12 -> $g getpgid: no stage without a counterpart" \
			"$(jget d.json "sorted({c['stage'] + ':' + c['status'] for c in d['cells'] if c['work'] == '-' and c['status'] != 'both'})")" "[]"
		check "$a: 6.12 -> $g getpgid: the diff has its cells, the straight group's on both sides" \
			test "$(jget d.json "len([c for c in d['cells'] if c['work'] == '-' and c['status'] == 'both'])")" -gt 5
	done
done
# every guest, base and kind: a fixture that went missing is a failure
expect_eq "32-bit powerpc fixtures present (scripts/kernel/record/ppc32-fixtures $BASES)" "$found" \
	$(( $(echo $ARCHES32 | wc -w) * $(echo $BASES | wc -w) * 3 ))
# the per-op table reporters.md quotes (getppid 870 -> 904 on ppc750's
# tiny config, +3.91%)
"$TOP/scripts/host/ppc32-8xx-report" --ops ppc750 > ops.out 2>&1
check "ppc32-8xx-report --ops: ppc750 getppid $LEGACY -> $CONVERSION 870 -> 904, +3.91%" \
	grep -Eq "^ppc750 +getppid +870 +904 +[0-9]+ +\+3\.91%" ops.out
# the conversion alone on the 8xx-like config (data/8xx-legacy/): Leroy's
# comparison, the series with and without on one base
"$TOP/scripts/host/ppc32-8xx-report" --ops --dir "$DATA/8xx-legacy" --bases "7.2-legacy 7.2" ppc750 > ops-8xx.out 2>&1
expect_eq "ppc32-8xx-report --ops on the 8xx-like 7.2-legacy/7.2 pair (exit)" "$?" 0
sed 's/^/#   /' ops-8xx.out
check "... getpgid 299 -> 313 (+4.69%) and fork +0.93%: the conversion alone" \
	sh -c "grep -Eq '^ppc750 +getpgid +299 +313 +\+4\.69%' ops-8xx.out && grep -Eq '^ppc750 +fork +135403 +136666 +\+0\.93%' ops-8xx.out"
# seed-report's reading of fork (ppc32-8xx-report --fork): the stages of
# the fork loop's clone and wait4 hold the staged run's per-op change but a
# few instructions, most of it in their syscall bodies (62% on ppc750 7.2,
# where user_gap holds a third; 83-98% elsewhere), the entry and exit
# stages 3-5% (most of it the exit work loop), and the staged change is
# within 15% of the events-off one
"$TOP/scripts/host/ppc32-8xx-report" --fork > fork.out 2> fork.err
rc=$?
expect_eq "ppc32-8xx-report --fork exits 0 ($(head -c 200 fork.err))" "$rc" 0
rows=$(awk '$2 == "d" { n++ } END { print n + 0 }' fork.out)
expect_eq "--fork: a change row per guest and generic base" "$rows" \
	$(( $(echo $ARCHES32 | wc -w) * $(echo $GENERIC | wc -w) ))
awk '$2 == "d" {
	on = $5; sc = $6; ee = $7; rest = $11; r = $1 " " $3 ":"
	if (rest < -50 || rest > 50) print r, "rest", rest, "is more than 50"
	if (sc < 0.6 * on) print r, "syscall", sc, "under 60% of", on
	if (ee <= 0 || ee > 0.06 * on) print r, "entry/exit", ee, "not in (0, 6%] of", on
	if (on < 0.85 * $4 || on > 1.15 * $4) print r, "staged", on, "not within 15% of", $4
	if ($12 < 0.5 * ee) print r, "exit_loop", $12, "under half of entry/exit", ee
}' fork.out > fork.bad
expect_eq "--fork: fork's change is in the bodies, entry and exit 3-6% of it ($(head -1 fork.bad))" "$(wc -l < fork.bad)" 0
