# SPDX-License-Identifier: GPL-2.0
# The distribution-like builds (-O2, context tracking not forced, no
# nohz_full=): what a user on a distribution box sees, against the tiny
# guest kernel (context tracking forced) recorded the same way.  Every
# recording of each kind is checked (ARCH-BASE-distro-compact.dat,
# ppc64le-BASE-noforce-selinux.dat, ARCH-BASE-noforce-compact.dat), so a
# kernel's recordings are checked when they land; each kind must have one.
. "$(dirname "$0")/lib.sh"

# med FILE.json STAGE: kill()'s median of STAGE; eqs FILE.json: RCU EQS stages run
med() { jget "$1" "[c['p50'] for c in d['cells'] if c['syscall'] == 'kill' and c['stage'] == '$2'][0]"; }
eqs() { jget "$1" "sum(c['count'] for c in d['cells'] if c['stage'] in ('rcu_eqs_exit', 'rcu_eqs_enter'))"; }

# kernel FILE: the ARCH-BASE a recording's name starts with
kernel() { basename "$1" | cut -d- -f1,2; }

nd=0
for d in "$DATA"/*-distro-compact.dat; do
	[ -f "$d" ] || continue
	k=$(kernel "$d") nd=$((nd + 1))
	d=${d%.dat} t=$DATA/$k-compact
	"$ET" report --json "$d.dat" > d.json 2> d.err
	"$ET" report --json "$t.dat" > t.json 2> t.err
	expect_eq "$k distro: every kill(self, 0) sysloop made is in the table but the last (no_tail: its tail never comes)" \
		"$(cell d.json kill total count)" "$(( $(expected kill "$d.expect") - 1 ))"
	expect_eq "$k distro: the kernel's stamp calibration was read" \
		"$(jget d.json "d['files'][0]['syscalls']['stamp_ns'] > 0 and d['files'][0]['syscalls']['stamps_subtracted']")" True
	expect_eq "$k distro: no RCU EQS stage without forced context tracking" "$(eqs d.json)" 0
	expect_eq "$k tiny: RCU EQS stages on every kill (context tracking forced)" \
		"$(jget t.json "min(c['count'] for c in d['cells'] if c['syscall'] == 'kill' and c['stage'] in ('rcu_eqs_exit', 'rcu_eqs_enter') ) > 0")" True
	dc=$(med d.json ct_user_exit) tc=$(med t.json ct_user_exit)
	check "$k distro: ct_user_exit does almost nothing ($dc ns) next to the forced tiny kernel's ($tc ns)" \
		python3 -c "import sys; sys.exit(not (float('$dc') * 10 < float('$tc')))"
done
check "a distribution-like recording was checked ($nd)" test "$nd" -ge 1

# The reporter's pair on ppc64le (legacy and generic) without forced
# context tracking (build-kernel --config noforce): the same tiny kernels
# but for context tracking, recorded by kernel-seed --config noforce.
nn=0
for n in "$DATA"/ppc64le-*-noforce-selinux.dat; do
	[ -f "$n" ] || continue
	k=$(kernel "$n") b=${k#*-} nn=$((nn + 1))
	n=${n%.dat} f=$DATA/$k-selinux
	"$ET" report --json "$n.dat" > n.json 2> n.err
	"$ET" report --json "$f.dat" > f.json 2> f.err
	expect_eq "$k noforce: every kill(self, 0) sysloop made is in the table" \
		"$(cell n.json kill total count)" "$(( $(expected kill "$n.expect") - 1 ))"
	expect_eq "$k noforce: no RCU EQS stage without forced context tracking" "$(eqs n.json)" 0
	for st in ct_user_exit ct_user_enter; do
		nc=$(med n.json $st) fc=$(med f.json $st)
		check "$k noforce: $st is a tenth of the forced kernel's at most ($nc vs $fc)" \
			python3 -c "import sys; sys.exit(not (float('$nc') * 10 <= float('$fc')))"
	done
	"$ET" report -s kill "$n.dat" > n.txt 2>&1
	# (qemu-icount: the guest's name when its clock counts instructions,
	# as the forced kernels' seed recordings)
	check "$k noforce: the kernel is $b, on the instruction clock" grep -q "^kernel: *Linux qemu-icount $b\." n.txt
done
expect_eq "the noforce pair was checked: a legacy and a generic kernel" \
	"$(ls "$DATA"/ppc64le-$LEGACY-noforce-selinux.dat "$DATA"/ppc64le-$CONVERSION-noforce-selinux.dat 2>/dev/null | wc -l) $((nn >= 2))" "2 1"

# Is the tiny kernel without the force a fair stand-in for a distribution
# kernel?  Where both exist for a kernel: the defconfig-based distro build
# (-O2) and the noforce tiny one (-Os), recorded the same way.
nf=0
for n in "$DATA"/*-noforce-compact.dat; do
	[ -f "$n" ] || continue
	k=$(kernel "$n") nf=$((nf + 1))
	n=${n%.dat}
	"$ET" report --json "$n.dat" > n.json 2> n.err
	"$ET" report --json "$DATA/$k-distro-compact.dat" > d.json 2> d.err
	# (the forced kernel's plain kill(self, 0) loop: the seed recording)
	"$ET" report --json "$DATA/$k-selinux.dat" > t.json 2> t.err
	expect_eq "$k noforce: every kill(self, 0) sysloop made is in the table but the last" \
		"$(cell n.json kill total count)" "$(( $(expected kill "$n.expect") - 1 ))"
	for st in ct_user_exit ct_user_enter; do
		a=$(med n.json $st) b=$(med d.json $st) f=$(med t.json $st)
		check "$k noforce: $st is the distro kernel's within 3 instructions ($a vs $b; forced $f)" \
			python3 -c "import sys; sys.exit(not abs(float('$a') - float('$b')) <= 3)"
	done
	# The whole kill(): what stays apart is the optimisation level (-Os
	# against -O2: on series v3's 7.3, 692 against 670, lsm_task_kill +46,
	# arch_enter -14, arch_exit_prepare -17), an order of magnitude less
	# than what the force adds (944).  (Series v2's sums of stages were 635
	# and 633: the same differences, offsetting.)
	a=$(med n.json total) b=$(med d.json total) f=$(med t.json total)
	check "$k noforce: kill()'s median total ten times closer to the distro kernel's than the forced kernel's ($a vs $b; forced $f)" \
		python3 -c "import sys; a, b, f = float('$a'), float('$b'), float('$f'); sys.exit(not 10 * abs(a - b) <= abs(f - b))"
done
check "a noforce kernel was set beside its distro build ($nf)" test "$nf" -ge 1
