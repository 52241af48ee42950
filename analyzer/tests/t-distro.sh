# SPDX-License-Identifier: GPL-2.0
# The distribution-like x86_64 7.3 build (-O2, context tracking not forced,
# no nohz_full=): what a user on a distribution box sees, against the tiny
# guest kernel (context tracking forced) recorded the same way.
. "$(dirname "$0")/lib.sh"

# med FILE.json STAGE: kill()'s median of STAGE; eqs FILE.json: RCU EQS stages run
med() { jget "$1" "[c['p50'] for c in d['cells'] if c['syscall'] == 'kill' and c['stage'] == '$2'][0]"; }
eqs() { jget "$1" "sum(c['count'] for c in d['cells'] if c['stage'] in ('rcu_eqs_exit', 'rcu_eqs_enter'))"; }

d=$DATA/x86_64-7.3-distro-compact
t=$DATA/x86_64-7.3-compact
"$ET" report --json "$d.dat" > d.json 2> d.err
"$ET" report --json "$t.dat" > t.json 2> t.err
expect_eq "distro: every kill(self, 0) sysloop made is in the table but the last (no_tail: its tail never comes)" \
	"$(cell d.json kill total count)" "$(( $(expected kill "$d.expect") - 1 ))"
expect_eq "distro: the kernel's stamp calibration was read" \
	"$(jget d.json "d['files'][0]['syscalls']['stamp_ns'] > 0 and d['files'][0]['syscalls']['stamps_subtracted']")" True
expect_eq "distro: no RCU EQS stage without forced context tracking" "$(eqs d.json)" 0
expect_eq "tiny: RCU EQS stages on every kill (context tracking forced)" \
	"$(jget t.json "min(c['count'] for c in d['cells'] if c['syscall'] == 'kill' and c['stage'] in ('rcu_eqs_exit', 'rcu_eqs_enter') ) > 0")" True
dc=$(med d.json ct_user_exit) tc=$(med t.json ct_user_exit)
check "distro: ct_user_exit does almost nothing ($dc ns) next to the forced tiny kernel's ($tc ns)" \
	python3 -c "import sys; sys.exit(not (float('$dc') * 10 < float('$tc')))"

# The reporter's pair on ppc64le (legacy 6.12, generic 7.2) without forced
# context tracking (build-kernel --config noforce): the same tiny kernels
# but for context tracking, recorded by kernel-seed --config noforce.
for b in 6.12 7.2; do
	n=$DATA/ppc64le-$b-noforce-selinux f=$DATA/ppc64le-$b-selinux
	"$ET" report --json "$n.dat" > n.json 2> n.err
	"$ET" report --json "$f.dat" > f.json 2> f.err
	expect_eq "ppc64le $b noforce: every kill(self, 0) sysloop made is in the table" \
		"$(cell n.json kill total count)" "$(( $(expected kill "$n.expect") - 1 ))"
	expect_eq "ppc64le $b noforce: no RCU EQS stage without forced context tracking" "$(eqs n.json)" 0
	for st in ct_user_exit ct_user_enter; do
		nc=$(med n.json $st) fc=$(med f.json $st)
		check "ppc64le $b noforce: $st is a tenth of the forced kernel's at most ($nc vs $fc)" \
			python3 -c "import sys; sys.exit(not (float('$nc') * 10 <= float('$fc')))"
	done
	"$ET" report -s kill "$n.dat" > n.txt 2>&1
	check "ppc64le $b noforce: the kernel is $b" grep -q "^kernel: *Linux (none) $b\." n.txt
done

# Is the tiny kernel without the force a fair stand-in for a distribution
# kernel?  On x86_64 7.3 both exist: the defconfig-based distro build (-O2)
# and the noforce tiny one (-Os), recorded the same way.
n=$DATA/x86_64-7.3-noforce-compact
"$ET" report --json "$n.dat" > n.json 2> n.err
# (the forced kernel's plain kill(self, 0) loop: the seed recording)
"$ET" report --json "$DATA/x86_64-7.3-selinux.dat" > t.json 2> t.err
expect_eq "x86_64 7.3 noforce: every kill(self, 0) sysloop made is in the table but the last" \
	"$(cell n.json kill total count)" "$(( $(expected kill "$n.expect") - 1 ))"
for st in ct_user_exit ct_user_enter; do
	a=$(med n.json $st) b=$(med d.json $st) f=$(med t.json $st)
	check "x86_64 7.3 noforce: $st is the distro kernel's within 3 instructions ($a vs $b; forced $f)" \
		python3 -c "import sys; sys.exit(not abs(float('$a') - float('$b')) <= 3)"
done
a=$(med n.json total) b=$(med d.json total) f=$(med t.json total)
check "x86_64 7.3 noforce: kill()'s median total within 2% of the distro kernel's ($a vs $b; forced $f)" \
	python3 -c "import sys; a, b = float('$a'), float('$b'); sys.exit(not abs(a - b) <= 0.02 * b)"
