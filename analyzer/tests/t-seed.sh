# SPDX-License-Identifier: GPL-2.0
# The seed scenarios (Documentation/seed-report.md) on the committed guest
# recordings (QEMU -icount, one CPU: instruction time, deterministic):
# sysloop's getppid and kill(self, 0) loops with SELinux off, initialised
# without a policy, and enforcing the minimal policy; powerpc's legacy
# entry (6.12) against its generic-entry port (7.2, the reporter's pair, and
# 7.3).
# weight: 49
. "$(dirname "$0")/lib.sh"

plain="[g for g in d['groups'] if g['syscall'] == '%s' and g['work'] == '-'][0]"
cell="[c for c in d['cells'] if c['syscall'] == '%s' and c['work'] == '-' and c['stage'] == '%s'][0]"
g() { printf "$plain" "$1"; }
c() { printf "$cell" "$1" "$2"; }

# every kernel's seed pair, and the noforce builds' where they were recorded
kernels=0 noforce=0 pairs=$(for a in ppc64le x86_64; do for b in $BASES; do echo $a-$b $a-$b-noforce; done; done)
for k in $pairs; do
	on=$DATA/$k-selinux.dat off=$DATA/$k-noselinux.dat enf=$DATA/$k-enforcing.dat
	[ -f "$on" ] && [ -f "$off" ] || continue
	case $k in *-noforce) noforce=$((noforce + 1)) ;; *) kernels=$((kernels + 1)) ;; esac
	"$ET" diff --replicates=syscalls --json "$off" "$on" > tax.json
	expect_eq "$k: SELinux on: kill()'s change is named lsm_task_kill" \
		"$(jget tax.json "$(g kill)['focus']")" lsm_task_kill
	# (the shift, Hodges-Lehmann, not the mean: one interrupt in one
	# kill's exit tail, 19924 instructions on ppc64le-7.2 without SELinux,
	# moves the mean of the total by 61 and the shift by nothing)
	check "$k: ...significant, and it is 95..105% of kill()'s shift" jget tax.json \
		"(lambda x, t: x['significant'] and t['significant'] and 0.95 <= x['shift'] / t['shift'] <= 1.05 or sys.exit(1))($(c kill lsm_task_kill), $(c kill total))"
	check "$k: ...the tax is 5..40% of kill() without SELinux" jget tax.json \
		"(lambda t: 0.05 <= t['d_mean'] / t['mean_base'] <= 0.40 or sys.exit(1))($(c kill total))"
	# (a stage whose time is a near-constant may be significant for a
	# fraction of a ns, one syscall in hundreds taking another branch)
	check "$k: ...no entry or exit stage of kill() moved by 2% of the tax" jget tax.json \
		"(lambda tax: not [x['stage'] for x in d['cells'] if x['syscall'] == 'kill' and x['work'] == '-' and x['significant'] and x['stage'] not in ('lsm_task_kill', 'syscall', 'total', 'user_gap') and abs(x['contrib']) > 0.02 * tax] or sys.exit(1))($(c kill total)['d_mean'])"
	expect_eq "$k: ...getppid() pays nothing significant" \
		"$(jget tax.json "$(g getppid)['focus']")" None
	# the tax by medians the report's prose states, kernel by kernel
	case $k in
	ppc64le-$LEGACY) want=19.8 ;; ppc64le-$CONVERSION) want=22.1 ;; ppc64le-$NEWEST) want=24.6 ;;
	x86_64-$LEGACY) want=21.5 ;; x86_64-$CONVERSION) want=25.5 ;; x86_64-$NEWEST) want=30.2 ;;
	ppc64le-$LEGACY-noforce) want=30.3 ;; ppc64le-$CONVERSION-noforce) want=35.2 ;;
	*) want="no figure in seed-report.md for $k" ;;
	esac
	# (seed-summary --tax's figure: the same diff, the total's median change
	# over its median without SELinux)
	expect_eq "$k: ...the tax by medians is seed-report.md's $want%" \
		"$(jget tax.json "(lambda t: '%.1f' % (100 * t['d_median'] / t['median_base']))($(c kill total))")" "$want"
	if [ -f "$enf" ]; then
		"$ET" diff --replicates=syscalls --json "$on" "$enf" > enf.json
		check "$k: no policy -> enforcing policy: lsm_task_kill the same (median change CI covers 0)" jget enf.json \
			"(lambda x: not x['significant'] and x['d_median_ci'][0] <= 0 <= x['d_median_ci'][1] or sys.exit(1))($(c kill lsm_task_kill))"
	else
		_fail "$k: $k-enforcing.dat missing (scripts/kernel/record/kernel-seed --variants enforcing)"
	fi
done
expect_eq "a seed pair (SELinux on, off) for every base, on x86_64 and ppc64le" "$kernels" "$((2 * $(echo $BASES | wc -w)))"
check "a noforce seed pair was checked ($noforce)" test "$noforce" -ge 1

# Legacy -> generic on powerpc: every stage of kill() on both sides but the
# ones the vocabulary says one path lacks; the entry/exit changes are named.
for gen in $GENERIC; do
a=$DATA/ppc64le-$LEGACY-selinux.dat b=$DATA/ppc64le-$gen-selinux.dat
if [ -f "$a" ] && [ -f "$b" ]; then
	"$ET" diff --replicates=syscalls --json "$a" "$b" > lg.json
	expect_eq "ppc64le $LEGACY -> $gen: the sides are legacy and generic entry" \
		"$(jget lg.json "d['base']['path'] + ' -> ' + d['test']['path']")" "legacy entry -> generic entry"
	check "ppc64le $LEGACY -> $gen: kill()'s stages are all on both sides" jget lg.json \
		"not [x['stage'] for x in d['cells'] if x['syscall'] == 'kill' and x['work'] == '-' and x['status'] != 'both'] or sys.exit(1)"
	for st in arch_enter arch_exit_tail lsm_task_kill; do
		check "ppc64le $LEGACY -> $gen: kill() $st changed significantly" jget lg.json \
			"$(c kill "$st")['significant'] or sys.exit(1)"
	done
	if [ "$gen" = "$CONVERSION" ]; then
		# seed-report.md, "Stage by stage, 6.12 -> 7.2": each stated median
		# change of kill() with SELinux on (series v3: the flag test is
		# arch_syscall_entry's, the generic exit checks exit_work's)
		expect_eq "ppc64le $LEGACY -> $gen: kill()'s entry and exit stages move by the report's medians" \
			"$(dmedians lg.json kill arch_syscall_entry arch_exit_tail exit_work arch_syscall_exit exit_prepare ct_user_exit arch_enter untimed)" \
			"arch_syscall_entry+9 arch_exit_tail+45 exit_work+19 arch_syscall_exit-15 exit_prepare-19 ct_user_exit-12 arch_enter-3 untimed+8"
	fi
	check "ppc64le $LEGACY -> $gen: text and plot: diff --plot writes an SVG" sh -c \
		"'$ET' diff -s kill --plot seed.svg '$a' '$b' >/dev/null && grep -q '<svg' seed.svg"
else
	_fail "ppc64le-$LEGACY/$gen seed recordings missing (scripts/kernel/record/ppc-fixtures $LEGACY $gen)"
fi
done

# seed-report.md, "What the pair without the force says": the same stages
# move as with the force but arch_exit_tail, in every SELinux variant, kill()
# and getppid() alike (series v3 on both sides, booted nohz=off)
nf=0
for v in selinux noselinux enforcing; do
	a=$DATA/ppc64le-$LEGACY-noforce-$v.dat b=$DATA/ppc64le-$CONVERSION-noforce-$v.dat
	[ -f "$a" ] && [ -f "$b" ] || { _fail "noforce $LEGACY/$CONVERSION $v missing (make kernel-seed-noforce)"; continue; }
	nf=$((nf + 1))
	"$ET" diff --replicates=syscalls --json "$a" "$b" > nf.json
	for s in getppid kill; do
		expect_eq "noforce $LEGACY -> $CONVERSION $v $s: entry and exit stages move by the report's medians" \
			"$(dmedians nf.json $s arch_syscall_entry exit_work untimed exit_prepare arch_exit_tail arch_enter arch_syscall_exit)" \
			"arch_syscall_entry+9 exit_work+6 untimed+9 exit_prepare-17 arch_exit_tail-6 arch_enter-3 arch_syscall_exit+0"
	done
done
expect_eq "the noforce pair was compared in three SELinux variants" "$nf" 3

# The instruction mix (Documentation/seed-report.md, "What the conversion
# adds, line by line"): each stated point, on the committed plugin outputs
# of the three kernels (kernel-mix --data; version 2, annotated).
mx() { echo "$DATA/mix-ppc64le-$1-entrytrace-$2.mix.gz"; }
q() { python3 "$TOP/analyzer/tests/mixq.py" "$@"; }
# whole instructions per call, each field ("-0" is 0): one call in ~400
# taking another branch moves a mean by 0.1 to 0.4
ints() { awk '{ for (i = 1; i <= NF; i++) { x = sprintf("%.0f", $i); if (x == "-0") x = "0"; printf "%s%s", (i > 1 ? " " : ""), x } }'; }
mixes=0
for gen in $GENERIC; do
	# the recordings' own figures; a generic base without one fails
	case $gen in $CONVERSION) want_entry=15.0 ;; $NEWEST) want_entry=21.0 ;; *) want_entry="no figure for $gen" ;; esac
	for v in selinux noselinux enforcing; do
		a=$(mx $LEGACY $v) b=$(mx $gen $v)
		[ -f "$a" ] && [ -f "$b" ] || { _fail "mix $LEGACY/$gen $v missing (kernel-mix --data)"; continue; }
		mixes=$((mixes + 1))
		"$ET" diff --replicates=syscalls --json "$a" "$b" > m.json 2>/dev/null
		for s in getppid kill; do
			expect_eq "mix $LEGACY -> $gen $v $s: the only barriers and atomics entry code moved are the TIF_SYSCALL_RET test-and-clear's" \
				"$(q moved m.json $s)" \
				"['system_call_exception arch/powerpc/kernel/syscall.c (test_and_clear_ti_thread_flag) arch_entry hwsync+2 ldarx+1 stdcx+1']"
			expect_eq "mix $LEGACY -> $gen $v $s: entry code (arch + generic) per syscall" \
				"$(q code m.json $s arch_entry generic_entry)" "$want_entry"
		done
		expect_eq "mix $LEGACY -> $gen $v: getppid()'s handler runs the same instructions" \
			"$(q code m.json getppid handler)" "0.0"
		check "mix $LEGACY -> $gen $v: a gate on full barriers trips, naming syscall.c" sh -c \
			"'$ET' diff --fail-on 'whole.hwsync>0' '$a' '$b' 2>&1 >/dev/null | grep -q 'hwsync +2.00 per syscall.*system_call_exception+0x[0-9a-f]* arch/powerpc/kernel/syscall.c:[0-9]* (test_and_clear_ti_thread_flag), arch entry'"
	done
done
expect_eq "the mix points were checked on every generic kernel, three SELinux variants each" "$mixes" "$((3 * $(echo $GENERIC | wc -w)))"
for gen in $GENERIC; do
	"$ET" diff --replicates=syscalls -s getppid,kill "$(mx $LEGACY selinux)" "$(mx $gen selinux)" > fn.txt 2>&1
	check "mix $LEGACY -> $gen: the functions table lists every function on both sides: no bound, no unknown, no '-'" sh -c \
		"sed -n '/^functions, base -> test/,/^\$/p' fn.txt | grep -q 'every function that ran on either side' &&
		 ! sed -n '/^functions, base -> test/,/^\$/p' fn.txt | grep -Eq '<=|>=| \? | - '"
done
"$ET" diff --replicates=syscalls --json "$(mx $LEGACY selinux)" "$(mx $CONVERSION selinux)" > m.json 2>/dev/null
# (series v3: 3 more per call on both sides than v2's 1165 -> 1195, the
# stamps v3 adds; the change is the same +30)
expect_eq "mix $LEGACY -> $CONVERSION: getppid() whole syscall +30 (1168 -> 1198)" \
	"$(jget m.json "[round(r['mean'], 0) for f in (d['mix_base'][0], d['mix_test'][0]) for r in f['rows'] if r['syscall'] == 'getppid' and r['account'] == 'whole']")" "[1168.0, 1198.0]"
expect_eq "mix $LEGACY -> $CONVERSION: getppid() other code +13, kill() handler +44 (SELinux)" \
	"$(q code m.json getppid other) $(q code m.json kill handler)" "13.0 44.0"
check "mix $LEGACY -> $CONVERSION: the second user_enter_irqoff() (interrupt.c:129 with series v3) and __ct_user_enter in arch_exit_tail" jget m.json \
	"(lambda r: any(w['function'] == 'syscall_exit_prepare' and w['inlined'] == 'user_enter_irqoff' and w['test'] and 129 in w['test']['lines'] for w in r) and any(w['function'] == '__ct_user_enter' and w['base'] is None for w in r) or sys.exit(1))([w for w in d['mix_where'] if w['syscall'] == 'getppid' and w['account'] == 'arch_exit_tail'])"
# what no stage holds: summary totals are the stages' sum, so their residual
# is 0 by construction; the plugin's gap account is what it cannot see (series
# v2: 14 and 35; v3's stages tile the syscall, a stamp's worth at most, t-tiling)
expect_eq "mix: the gap between stages, getppid(), $LEGACY -> $CONVERSION (instructions per call)" \
	"$(jget m.json "[r['mean'] for f in (d['mix_base'][0], d['mix_test'][0]) for r in f['rows'] if r['syscall'] == 'getppid' and r['account'] == 'gap']")" "[4.0, 6.0]"
expect_eq "mix $LEGACY -> $CONVERSION: kill()'s handler calls rcu_read_lock/unlock as often (SELinux)" \
	"$(q kinds m.json kill handler)" "-"

# The fixes (Documentation/fixes-powerpc.md), measured on 7.2 with
# kernel-fix --data: testing TIF_SYSCALL_RET first takes the two sync and
# the atomic, 7 instructions, off every syscall, and nothing else moves.
# (series v3 on both sides: the fixes were built on the v3 kernel, whose
# plain outputs run the same code per call as the committed plain ones,
# scripts/host/mix-check same-code)
fixes=0
for v in selinux noselinux enforcing; do
	a=$(mx $CONVERSION $v) b=$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-tif-$v.mix.gz
	[ -f "$b" ] || { _fail "fix-tif $v missing (kernel-fix --data --name tif $CONVERSION)"; continue; }
	fixes=$((fixes + 1))
	"$ET" diff --replicates=syscalls --json "$a" "$b" > f.json 2>/dev/null
	for s in getppid kill; do
		expect_eq "fix tif, $CONVERSION $v $s: the test-and-clear's two sync and its atomic go, nowhere else a barrier or atomic moves" \
			"$(q moved f.json $s)" \
			"['system_call_exception arch/powerpc/kernel/syscall.c (test_and_clear_ti_thread_flag) arch_entry hwsync-2 ldarx-1 stdcx-1']"
		expect_eq "fix tif, $CONVERSION $v $s: entry -7 instructions, other code, handler and tracer unmoved" \
			"$(echo $(q code f.json $s arch_entry generic_entry) $(q code f.json $s other) $(q code f.json $s handler) $(q code f.json $s tracer) | ints)" "-7 0 0 0"
	done
done
expect_eq "the tif fix was checked in three SELinux variants" "$fixes" 3

# The other fixes, SELinux initialised: 0002 moves nothing on the syscall
# path, 0003 takes 52 off (48 context tracking's), 0004 moves nothing; and
# without forced context tracking the conversion adds the same two sync
for s in getppid kill; do
	"$ET" diff --replicates=syscalls --json "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-tif-selinux.mix.gz" "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-ret-selinux.mix.gz" > f.json 2>/dev/null
	# (one getppid of fix-ret's ran the exit loop and notify_resume, 1371
	# instructions: +0.4 on its mean)
	expect_eq "fix ret, $CONVERSION $s: nothing moves on the syscall path" "$(q whole f.json $s | awk '{ print $2 - $1 }' | ints)" 0
	"$ET" diff --replicates=syscalls --json "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-ret-selinux.mix.gz" "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-ctx-selinux.mix.gz" > f.json 2>/dev/null
	expect_eq "fix ctx, $CONVERSION $s: -52 instructions, -48 of them other code (context tracking)" \
		"$(echo $(q whole f.json $s | awk '{ print $2 - $1 }') $(q code f.json $s other) | ints)" "-52 -48"
	"$ET" diff --replicates=syscalls --json "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-ctx-selinux.mix.gz" "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-all-selinux.mix.gz" > f.json 2>/dev/null
	expect_eq "fix all (0004 on top), $CONVERSION $s: nothing moves on the syscall path" "$(q whole f.json $s | awk '{ print $2 - $1 }')" 0
	"$ET" diff --replicates=syscalls --json "$DATA/mix-ppc64le-$LEGACY-entrytrace-noforce-selinux.mix.gz" "$DATA/mix-ppc64le-$CONVERSION-entrytrace-noforce-selinux.mix.gz" > f.json 2>/dev/null
	expect_eq "noforce $LEGACY -> $CONVERSION $s: the same two sync and atomic at the same place" "$(q moved f.json $s)" \
		"['system_call_exception arch/powerpc/kernel/syscall.c (test_and_clear_ti_thread_flag) arch_entry hwsync+2 ldarx+1 stdcx+1']"
done
"$ET" diff --replicates=syscalls --json "$(mx $CONVERSION selinux)" "$DATA/mix-ppc64le-$CONVERSION-entrytrace-fix-all-selinux.mix.gz" > f.json 2>/dev/null
expect_eq "fix all, $CONVERSION: getppid 1198 -> 1139 ($LEGACY: 1168)" "$(q whole f.json getppid)" "1198.0 1139.0"
