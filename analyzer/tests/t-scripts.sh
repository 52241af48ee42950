# SPDX-License-Identifier: GPL-2.0
# weight: 52
# scripts/ as a whole: every shell script parses, the Python halves live in
# scripts/lib/py/ (no Python in heredocs), each compiles and each is called
# by a script, and every call names a file that is there.
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
nsh=0 bad=""
while IFS= read -r f; do
	head -n1 "$f" | grep -q '^#!.*\(bash\|sh\)' || continue
	nsh=$((nsh + 1))
	bash -n "$f" 2>/dev/null || bad+=" ${f#"$TOP"/}"
done < <(find "$S" -type f ! -name '*.py' ! -name '*.c' ! -name '*.md' | sort)
expect_eq "every shell script in scripts/ parses (bash -n, $nsh scripts)" "${bad:-none}" "none"
[ "$nsh" -gt 50 ] || _fail "found only $nsh shell scripts under scripts/: checked nothing"

heredoc=$(grep -rlE "python3 - .*<<|python3 - .*\\\\$" "$S" | sed "s|$TOP/||" | sort | tr '\n' ' ')
expect_eq "no script feeds Python through a heredoc (scripts/lib/py/ instead)" "${heredoc:-none}" "none"

npy=0 bad="" orphan=""
for p in "$S"/lib/py/*.py; do
	npy=$((npy + 1))
	python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$p" 2>/dev/null ||
		bad+=" $(basename "$p")"
	# run by its path, or imported as a module (scripts/lib/py/tracedat.py)
	m=$(basename "$p" .py)
	grep -rqF "lib/py/$m.py" "$S" --exclude='*.py' ||
		grep -rqE "^(import ([a-z_0-9]+, *)*$m\b|from $m import)" "$S" --exclude="$m.py" ||
		orphan+=" $m.py"
done
expect_eq "every scripts/lib/py/*.py parses ($npy files)" "${bad:-none}" "none"
expect_eq "every scripts/lib/py/*.py is called by a script" "${orphan:-none}" "none"
[ "$npy" -gt 10 ] || _fail "found only $npy Python files in scripts/lib/py: checked nothing"

missing=""
while IFS= read -r ref; do
	[ -f "$S/lib/py/$ref" ] || missing+=" $ref"
done < <(grep -rhoE "lib/py/[A-Za-z0-9_.-]+\.py" "$S" --exclude='*.py' --exclude='*.md' | sed 's|lib/py/||' | sort -u)
expect_eq "every lib/py/NAME.py a script calls is there" "${missing:-none}" "none"

# a planted heredoc is found (the check above can fail)
mkdir -p plant
printf '#!/bin/bash\npython3 - "$1" <<'"'"'PY'"'"'\nprint(1)\nPY\n' >plant/x
expect_eq "a planted heredoc is found" "$(grep -rlE "python3 - .*<<" plant | wc -l)" "1"

# scripts/kernel/ is grouped: build/, check/, record/, dev/ (its shared
# kernel-lib.sh, kelf.py, kernel.mk and configs/ at the top).  Every path
# under it that the tree names is there, and every script in a group answers
# --help (its paths to the top and to the shared files resolve).  Left out:
# the texts that feed a kernel build (tracepoints/stages.def is in every
# series, arch/powerpc/fixes/ are patches): a path changed there rebuilds
# every kernel; they change with the series.
kpaths() {
	git -C "$TOP" grep -hoE 'scripts/kernel/[A-Za-z0-9_./-]+' -- . ':!tracepoints/stages.def' \
		':!arch/powerpc/fixes' ':!*.gz' ':!*.dat' | sed 's/[.,:;)]*$//' | sort -u
}
nk=0 missing=""
while IFS= read -r p; do
	nk=$((nk + 1))
	case "$p" in */ARCH.config|*/configs/distro|*/configs/distro-) continue ;; esac	# patterns in prose
	[ -e "$TOP/$p" ] || missing+=" $p"
done < <(kpaths)
expect_eq "every scripts/kernel/ path the tree names is there ($nk paths)" "${missing:-none}" "none"
[ "$nk" -gt 40 ] || _fail "found only $nk scripts/kernel/ paths: checked nothing"
expect_eq "scripts/kernel/ holds only its groups and shared files" \
	"$(ls "$TOP/scripts/kernel" | tr '\n' ' ')" "build check configs dev kelf.py kernel-lib.sh kernel.mk record "
nh=0 bad=""
for f in "$TOP"/scripts/kernel/*/*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	nh=$((nh + 1))
	timeout 30 "$f" --help >h.out 2>&1
	rc=$?
	# the dev trees' scripts print their usage with exit 2 for --help too
	[ $rc = 0 ] || { [ $rc = 2 ] && grep -q '^Usage: ' h.out; } || bad+=" ${f#"$TOP"/}($rc)"
done
expect_eq "every script of scripts/kernel/*/ answers --help ($nh scripts)" "${bad:-none}" "none"
[ "$nh" -gt 40 ] || _fail "found only $nh scripts in scripts/kernel/*/: checked nothing"

# Where each kind of change goes (Documentation/design.md): the probes on the
# tree before issue 23 and now, and three changes made in their home alone.
"$TOP/scripts/host/change-homes" --demo >homes.out 2>homes.err
expect_eq "change-homes --demo exit" "$?" 0
for k in format unit 'site flag' 'site form' statistic; do
	check "change-homes: every place of a $k change is in its home" \
		grep -qE "^$k +.* yes$" homes.out
done
check "change-homes: the base list is spelled in fewer places than before" \
	awk '$1 == "base" && $11 < $5 { ok = 1 } END { exit !ok }' homes.out
for k in statistic stage base; do
	check "change-homes --demo: a $k made in its home alone reaches every output" \
		grep -qE "^$k +.*files changed: [12] \(.*\)  ok$" homes.out
done

# Which series each recording was made on, read from the recording itself.
# issue 22: every committed recording whose series matters is on v3 (the
# -v2- files kept to show that older recordings read are counted apart):
# --require-v3 exits 1 on one left on v2
D=$TOP/analyzer/tests/data
"$TOP/scripts/host/fixture-series" --require-v3 >series.out 2>series.err
expect_eq "fixture-series --require-v3 on the committed recordings: none left on v2 (exit)" "$?" 0
check "... and it read v3 recordings ($(tail -2 series.out | tr '\n' ' '))" grep -qE '^trace: [0-9]+ files: v3 [1-9]' series.out
check "fixture-series: a v3 recording (arch_syscall_entry in the format) reads v3" \
	grep -qE '^x86_64-7\.3-stage\.dat +trace +v3 ' series.out
check "fixture-series: a v3 summary-only recording (span) reads v3" \
	grep -qE '^x86_64-7\.3-compact\.dat +trace +v3 ' series.out
check "fixture-series: a host recording has no series" \
	grep -qE '^host-aa-a1\.dat +trace +- ' series.out
check "fixture-series: a base kernel's plugin output has no series" \
	grep -qE '^mix-x86_64-7\.3-base-selinux\.mix\.gz +mix +- ' series.out
check "fixture-series: a fallback-mode plugin output (whole syscalls only) has no series" \
	grep -qE '^mix32-ppc750-7\.3-bench\.mix\.gz +mix +- ' series.out
check "fixture-series: every .dat and .mix file has a line" \
	test "$(grep -cE '^[^ ]+\.(dat|mix|mix\.gz) +(trace|mix) ' series.out)" -eq \
	"$(ls "$D" | grep -cE '\.(dat|mix|mix\.gz)$')"
mkdir -p series-v2 series-empty
zcat "$D/mix-x86_64-7.3-entrytrace-v3-enforcing.mix.gz" |
	grep -vE '^stat [^ ]+ arch_syscall_entry ' >series-v2/mix-x86_64-7.3-entrytrace-cut.mix
"$TOP/scripts/host/fixture-series" --dir series-v2 >series-v2.out
check "fixture-series: plugin output where arch_syscall_entry never ran reads v2" \
	grep -qE '^mix-x86_64-7\.3-entrytrace-cut\.mix +mix +v2 ' series-v2.out
"$TOP/scripts/host/fixture-series" --dir series-v2 --require-v3 >/dev/null 2>&1
expect_eq "fixture-series --require-v3 fails on a v2 recording" "$?" 1
"$TOP/scripts/host/fixture-series" --dir series-empty --require-v3 >/dev/null 2>&1
expect_eq "fixture-series --require-v3 fails when it read nothing" "$?" 1

# make kernel-8xx reports on what it records: its report line reads the
# bases its recording line wrote (the reporters' pair), not every base.
# Its recording step needs kernels; the report runs here on the committed
# tiny recordings of that pair, laid out as the recording step leaves them.
mkdir -p cache8xx/runs/ppc32-fixtures-8xx
make -s -n -C "$TOP" kernel-8xx ENTRYTRACE_CACHE="$PWD/cache8xx" >k8xx.sh 2>&1
rec=$(grep -m1 'ppc32-fixtures --config 8xx' k8xx.sh)
check "make kernel-8xx records with ppc32-fixtures --config 8xx ($rec)" test -n "$rec"
for b in ${rec##*ppc750 }; do
	for f in bench.out bench.dat; do ln -sf "$D/ppc750-$b-$f" cache8xx/runs/ppc32-fixtures-8xx/; done
done
(cd "$TOP" && sh -c "$(grep -m1 'ppc32-8xx-report' "$OLDPWD/k8xx.sh")") >k8xx.out 2>&1
rc=$?
expect_eq "make kernel-8xx: the report reads only the bases recorded (exit; $(grep -m1 'missing' k8xx.out))" "$rc" 0
check "... and names them" grep -qE "^ppc750 +getppid +[0-9]+ +[0-9]+ +[-+]" k8xx.out

# kernel-lib.sh's need(): scripts side by side (kernel-parity --parallel's
# three guests) each asking for the same missing package.  Stubs stand in
# for dpkg-query and apt-get: the package counts as installed once the
# stub apt-get installed it, and a second apt-get while one runs fails as
# apt does on its lock.  All three must succeed, with one install
mkdir -p stub && : > stub/log && rm -rf stub/held stub/installed
cat > stub/dpkg-query <<'EOS'
#!/bin/sh
[ -e "$STUB/installed" ] && echo 'install ok installed'
exit 0
EOS
cat > stub/apt-get <<'EOS'
#!/bin/sh
mkdir "$STUB/held" 2>/dev/null || { echo "E: Could not get lock" >&2; exit 100; }
case " $* " in *" install "*) sleep 1; touch "$STUB/installed"; echo install >> "$STUB/log" ;; esac
rmdir "$STUB/held"
EOS
chmod +x stub/dpkg-query stub/apt-get
for i in 1 2 3; do
	( PATH=$PWD/stub:$PATH STUB=$PWD/stub bash -c ". '$S/kernel/kernel-lib.sh'; need et-fake-pkg" 2>/dev/null
	  echo $? > stub/rc$i ) &
done
wait
expect_eq "need(): three at once all succeed" "$(cat stub/rc1 stub/rc2 stub/rc3 | tr '\n' ' ')" "0 0 0 "
expect_eq "need(): ...with one install between them" "$(wc -l < stub/log)" 1

# kernel-parity --parallel when one guest fails first: it waits for the
# others (none left running behind its exit) and names the one that failed.
# A scratch top whose build, selftest and guest scripts are stubs: the
# base guest fails at once, the on guest ends a second later
pt=$PWD/ptop
rm -rf "$pt" && mkdir -p "$pt/scripts/kernel/check" "$pt/scripts/kernel/build" "$pt/scripts/guest"
cp "$S/kernel/check/kernel-parity" "$pt/scripts/kernel/check/"
cp "$S/kernel/kernel-lib.sh" "$pt/scripts/kernel/"
printf '#!/bin/sh\necho "$ENTRYTRACE_CACHE/st"\n' > "$pt/scripts/kernel/build/kernel-selftests"
printf '#!/bin/sh\nexit 0\n' > "$pt/scripts/kernel/build/build-kernel"
cat > "$pt/scripts/guest/kernel-guest" <<'EOS'
#!/bin/sh
for d; do :; done
case "$d" in
*/base) exit 1 ;;
*/on) sleep 1; mkdir -p "$d"; touch "$d/ended" ;;
esac
EOS
chmod +x "$pt"/scripts/kernel/check/kernel-parity "$pt"/scripts/kernel/build/* "$pt/scripts/guest/kernel-guest"
ENTRYTRACE_CACHE=$PWD/pcache "$pt/scripts/kernel/check/kernel-parity" --parallel --out "$PWD/pout" 7.3 > pp.out 2> pp.err
rc=$?
expect_eq "kernel-parity --parallel: a failed guest fails the run (exit)" "$rc" 1
check "...naming it ($(tail -1 pp.err))" grep -q "guest failed: base (logs" pp.err
check "...after the others ended (the on guest's mark is there at its exit)" test -e pout/on/ended

# kernel-lib.sh's rcu_calls: the plugin's calls= list from a kernel's site
# table (kernel-mix, kernel-stress).  The lines are kernel-sites' own, from
# the tiny ppc64le 7.2 entrytrace kernel: a func line may end at the name
# (__rcu_read_lock) or carry a flags field after it (__rcu_read_unlock).
# Two copies of one (a static inline's) are not the call.
printf '%s\n' 'entrytrace-sites 1' \
	'func 0xc0000000000f61e8 0x14 __rcu_read_lock' \
	'func 0xc0000000000f9ef4 0x254 __rcu_read_unlock 0x8' > rcu.sites
rc_calls() { bash -c ". '$S/kernel/kernel-lib.sh'; rcu_calls t $1" 2>"$1.err"; }
expect_eq "rcu_calls: both out of line once" "$(rc_calls rcu.sites)" "__rcu_read_lock:__rcu_read_unlock"
expect_eq "rcu_calls: ...and says nothing" "$(cat rcu.sites.err)" ""
{ cat rcu.sites; echo 'func 0xc000000000100000 0x14 __rcu_read_lock'; } > rcu2.sites
expect_eq "rcu_calls: a function there twice is left out" "$(rc_calls rcu2.sites)" "__rcu_read_unlock"
check "...and it says so ($(cat rcu2.sites.err))" grep -q "^t: __rcu_read_lock is in this kernel 2 times" rcu2.sites.err
grep -v __rcu rcu.sites > rcu0.sites
expect_eq "rcu_calls: none (Debian's configs): an empty list" "$(rc_calls rcu0.sites)" ""
expect_eq "...naming both" "$(grep -c 'in this kernel 0 times' rcu0.sites.err)" 2
expect_exit "kernel-tiling --config names a config it does not know" 2 \
	"$S/kernel/check/kernel-tiling" --config debain 7.2
expect_exit "kernel-tiling --config with --mix files is refused" 2 \
	"$S/kernel/check/kernel-tiling" --config debian --mix "$DATA/mix-ppc64le-7.2-entrytrace-v3-enforcing.mix.gz" -- 7.2
expect_exit "kernel-overhead --config names a config it does not know" 2 \
	"$S/kernel/record/kernel-overhead" --config debain 7.2

# struct-objects (the objects struct-layout reads): a bad value is named,
# exit 2, before any tree is touched; the real run needs the kernel trees
so=$S/kernel/build/struct-objects
for bad in "--config debain 7.2 base:--config 'debain'" "7.9 base:base '7.9'" \
	"7.2 plain:variant 'plain'" "--arch ppc64 7.2 base:arch 'ppc64'" \
	"7.2 base kernel/fork.c:object 'kernel/fork.c'" "7.2:want BASE VARIANT"; do
	# shellcheck disable=SC2086
	expect_exit "struct-objects ${bad%%:*}: refused" 2 $so ${bad%%:*}
	# shellcheck disable=SC2086
	check "...naming ${bad#*:}" sh -c '"$@" 2>&1 | grep -qF -- "$0"' "${bad#*:}" $so ${bad%%:*}
done

# struct-layout reads each side from a comma list of objects, each
# structure from the first that has it; a bad list is refused
sl=$S/host/struct-layout
expect_exit "struct-layout: an empty name in a list (exit 2)" 2 "$sl" a.o, b.o
printf 'not elf' > notelf.o
expect_exit "struct-layout: a file of a list that is no ELF (exit 1)" 1 "$sl" /bin/true,notelf.o /bin/true
if command -v pahole >/dev/null && command -v gcc >/dev/null; then
	printf 'struct cred { long uid; };\nstruct cred c;\n' > sl-o1.c
	printf 'struct task_struct { long pad[8]; int pid; };\nstruct task_struct t;\n' > sl-o2.c
	printf 'struct task_struct { long pad[16]; int pid; };\nstruct task_struct t;\nstruct cred { long uid; };\nstruct cred c;\n' > sl-n.c
	for c in sl-o1 sl-o2 sl-n; do gcc -g -c -o $c.o $c.c; done
	"$sl" --structs task_struct,cred sl-o1.o,sl-o2.o sl-n.o > sl.out 2>&1
	rc=$?
	expect_eq "struct-layout OLD1,OLD2 NEW (exit; $(tail -n1 sl.out))" "$rc" 0
	check "...task_struct read from the second of OLD's objects: pid moved" \
		grep -qE '^  pid +64 \(  1\) +128 \(  2\)$' sl.out
	check "...cred from the first" grep -q '^struct cred: 8 -> 8 bytes' sl.out
else
	check "struct-layout's lists: pahole (dwarves) or gcc missing, the real run is not checked" true
fi

# The runner fails a test that made no check (a test that passes by
# checking nothing is no test): a planted empty one, beside a real one.
mkdir -p runner/a/tests
cp "$TOP/analyzer/tests/run" "$TOP/analyzer/tests/lib.sh" "$TOP/analyzer/tests/lsan.supp" runner/a/tests/
printf '%s\n' '. "$(dirname "$0")/lib.sh"' 'true' > runner/a/tests/t-empty.sh
printf '%s\n' '. "$(dirname "$0")/lib.sh"' 'check "true is true" true' > runner/a/tests/t-one.sh
mkdir -p runner/scripts/lib && cp "$TOP/scripts/lib/bases.sh" "$TOP/scripts/lib/bases" runner/scripts/lib/
ENTRYTRACE_BIN=$ET runner/a/tests/run t-empty t-one > runner.out 2>&1
expect_eq "tests/run: a test that made no check fails the run (exit 1)" "$?" 1
check "...saying so" grep -qx 'not ok - t-empty: made no check' runner.out
check "...and the one with a check passes" grep -qx '1 passed, 1 failed' runner.out

# The guests load SELinux's policy one way: scripts/guest/selinux/policy.sh
# (mkinitramfs puts it at /selinux.sh).  No plan writes selinuxfs's load
# itself, and the helper's modes behave, run by the guests' shell (busybox
# sh; dash where there is none).
own_load() { grep -lE 'selinux-policy[[:space:]]*>|>[[:space:]]*\$S/load|/sys/fs/selinux/load' "$@" 2>/dev/null | sed "s|.*/||" | tr '\n' ' '; }
nplan=$(grep -l 'selinux_setup' "$S"/guest/plan-*.sh | wc -l)
[ "$nplan" -ge 4 ] || _fail "only $nplan guest plans call selinux_setup: checked nothing"
expect_eq "no guest plan loads the SELinux policy itself ($nplan call selinux_setup)" \
	"$(own_load "$S"/guest/plan-*.sh)" ""
printf '%s\n' 'S=/sys/fs/selinux' 'cat /work/selinux-policy >$S/load' > plan-planted.sh
expect_eq "...a planted plan that does is found" "$(own_load plan-planted.sh)" "plan-planted.sh "
check "mkinitramfs puts the helper in every shell guest" \
	grep -q 'selinux/policy.sh" "$root/selinux.sh"' "$S/guest/mkinitramfs"
gsh="busybox sh"; busybox sh -c true 2>/dev/null || gsh=dash
hl() { $gsh -c '. "$1"; shift; selinux_load "$@"; echo "rc=$? $policy_state"' sh "$S/guest/selinux/policy.sh" "$@"; }
expect_eq "selinux_load none: nothing loaded ($gsh)" "$(hl none)" "rc=0 none"
expect_eq "selinux_load disabled: the same" "$(hl disabled)" "rc=0 none"
expect_eq "selinux_load with no mode: the same" "$(hl)" "rc=0 none"
expect_eq "selinux_load enforce (a typo): refused, naming it" "$(hl enforce)" "rc=1 unknown mode 'enforce'"
expect_eq "selinux_setup stops the plan on it (exit 1), naming the mode and why" \
	"$($gsh -c '. "$1"; selinux_setup enforce; echo went on' sh "$S/guest/selinux/policy.sh" 2>&1; echo "rc=$?")" \
	"plan: POLICY=enforce: unknown mode 'enforce'
rc=1"

# public-audit: who calls the library's public functions (issue 49).  The
# gate: no public function is called by tests alone, or by nothing.
pa=$("$TOP/scripts/host/public-audit" --max-test-only 0 2>&1)
expect_eq "public-audit --max-test-only 0 passes: every public function has a caller outside the tests ($pa)" "$?" 0
set -- $(printf '%s\n' "$pa" | sed -n 's/^\([0-9]*\) public functions: \([0-9]*\) used, \([0-9]*\) lib-only, \([0-9]*\) tests-only, \([0-9]*\) none$/\1 \2 \3 \4 \5/p')
check "public-audit reads 50 or more functions from entrytrace.h (${1:-none})" test "${1:-0}" -ge 50
expect_eq "public-audit: its kinds add up to the functions" "$(( ${2:-0} + ${3:-0} + ${4:-0} + ${5:-0} ))" "${1:-x}"
expect_eq "public-audit: none tests-only, none uncalled" "${4:-x} ${5:-x}" "0 0"
check "public-audit: the program calls et_hist_count (report's plot, top)" \
	sh -c '"$1" -v | grep -q "^tests-only: -$" && ! "$1" -v | grep -qw et_hist_count' sh "$TOP/scripts/host/public-audit"
# planted in a copy of the sources: a public function only a test calls
# fails the gate, the same function called by the program passes it, and
# a header that declares nothing is an error (exit 2), not a pass
pt=$PWD/pa-tree
mkdir -p "$pt/scripts/host" "$pt/analyzer/include" "$pt/analyzer/tests"
cp "$TOP/scripts/host/public-audit" "$pt/scripts/host/"
cp "$TOP"/analyzer/*.c "$pt/analyzer/"
cp -r "$TOP/analyzer/lib" "$TOP/analyzer/kernelshark" "$TOP/analyzer/tools" "$pt/analyzer/"
cp "$TOP"/analyzer/tests/*.c "$TOP"/analyzer/tests/*.sh "$pt/analyzer/tests/"
sed 's/^#pragma GCC visibility pop/int et_planted_getter(const struct et_trace *trace);\n&/' \
	"$TOP/analyzer/include/entrytrace.h" > "$pt/analyzer/include/entrytrace.h"
printf 'int main(void) { return et_planted_getter(0); }\n' > "$pt/analyzer/tests/planted.c"
pa=$("$pt/scripts/host/public-audit" --max-test-only 0 2>&1)
expect_eq "public-audit --max-test-only 0: a public function only a test calls fails it" "$?" 1
expect_eq "... naming the count" "$(printf '%s\n' "$pa" | tail -n1)" \
	"public-audit: 1 tests-only or uncalled, more than 0"
check "... and -v lists it as tests-only" \
	sh -c '"$1" -v | grep -qx "tests-only: et_planted_getter"' sh "$pt/scripts/host/public-audit"
mv "$pt/analyzer/tests/planted.c" "$pt/analyzer/planted.c"
"$pt/scripts/host/public-audit" --max-test-only 0 >/dev/null 2>&1
expect_eq "... called by the program, it passes" "$?" 0
printf '/* nothing */\n' > "$pt/analyzer/include/entrytrace.h"
"$pt/scripts/host/public-audit" --max-test-only 0 >/dev/null 2>&1
expect_eq "public-audit: a header that declares no function is an error, not a pass" "$?" 2
rm -rf "$pt"

# kernel-plain-identity's judge (scripts/lib/py/plain-identity.py): two
# 'objdump -dr' listings agree but for task_struct displacements moved by
# exactly the series' growth, or they differ (lines in objdump's own form)
PI=$S/lib/py/plain-identity.py
printf '  1dd:\t48 8b 85 80 09 00 00 \tmov    0x980(%%rbp),%%rax\n  1e4:\t5b                   \tpop    %%rbx\n' >pi-base.txt
sed 's/80 09/90 09/; s/0x980/0x990/' pi-base.txt >pi-16.txt
sed 's/80 09/88 09/; s/0x980/0x988/' pi-base.txt >pi-8.txt
sed 's/pop    %rbx/pop    %rbp/' pi-base.txt >pi-reg.txt
pi() { { diff pi-base.txt "$1" || true; } | python3 "$PI" 16; }
expect_eq "plain-identity: the same listing is identical byte for byte" "$(pi pi-base.txt)" "byte for byte"
expect_eq "... one displacement +16 is a task_struct offset" "$(pi pi-16.txt)" "but for 1 task_struct offsets (+16)"
pi pi-8.txt >/dev/null
expect_eq "... one displacement +8 is a difference (exit 1)" "$?" 1
pi pi-reg.txt >/dev/null
expect_eq "... another register is a difference (exit 1)" "$?" 1
# auto (kernel-plain-identity's mode): the first moved displacement sets the
# growth, every other line is held to it
expect_eq "... auto: one displacement +16 sets the growth" \
	"$({ diff pi-base.txt pi-16.txt || true; } | python3 "$PI" auto)" "but for 1 task_struct offsets (+16)"
printf '  1e5:\t48 8b 85 88 09 00 00 \tmov    0x988(%%rbp),%%rax\n' >>pi-base.txt
sed 's/80 09/90 09/; s/0x980/0x990/; s/88 09/90 09/; s/0x988/0x990/' pi-base.txt >pi-mixed.txt
{ diff pi-base.txt pi-mixed.txt || true; } | python3 "$PI" auto >/dev/null
expect_eq "... auto: a second line moved by +8 is a difference (exit 1)" "$?" 1
sed 's/80 09/90 09/; s/0x980/0x990/; s/88 09/98 09/; s/0x988/0x998/' pi-base.txt >pi-both.txt
expect_eq "... auto: two lines moved by +16 agree" \
	"$({ diff pi-base.txt pi-both.txt || true; } | python3 "$PI" auto)" "but for 2 task_struct offsets (+16)"
sed -i '$d' pi-base.txt
head -n1 pi-base.txt >pi-short.txt
pi pi-short.txt >/dev/null
expect_eq "... an instruction fewer is a difference (exit 1)" "$?" 1

# the BPF anchor's loader (kernel-overhead --bpf): it builds here from
# Debian's clang, bpftool and libbpf (build-syslat installs them), is
# static, and refuses to run without a command (exit 125, the usage line);
# loading the program needs a BPF kernel, which kernel-overhead boots
"$S/guest/bpf/build-syslat" "$PWD/syslat" 2>syslat-build.err
expect_eq "build-syslat builds syslat ($(head -c 120 syslat-build.err))" "$?" 0
check "... a static program (no interpreter)" \
	sh -c "readelf -l '$PWD/syslat' | grep -q 'LOAD' && ! readelf -l '$PWD/syslat' | grep -q 'program interpreter'"
check "... with the BPF program built in (its two raw tracepoint sections)" \
	sh -c "strings '$PWD/syslat' | grep -q 'raw_tracepoint/sys_exit'"
./syslat 2>syslat.err
expect_eq "syslat without a command: exit 125" "$?" 125
expect_eq "... and the usage line" "$(cat syslat.err)" "usage: syslat [-q] CMD [ARG...]"
expect_exit "build-syslat without OUT: usage, exit 2" 2 "$S/guest/bpf/build-syslat"

# plain_opens (kernel-lib.sh): kernel-mix times stages with every event off
# only where a site or marker outside the staged copies opens a syscall
# (SYSCALL_BEGIN, flag bit 0x1); else it records whole syscalls, and says
# so.  Site lines as kernel-sites writes them: x86_64 7.3's plain copy has
# the marker (0x41 in do_syscall_64), powerpc 7.3's begins a syscall only
# in its staged copy, 6.12's legacy path with a real site.
cat > po-x86.sites <<'SITES'
entrytrace-sites 1
site 0xffffffff8130283c - begin - 0x41 9c58e91bd3440048 do_syscall_64+0x6
site 0xffffffff81302849 0 switch 1 0x44 6690eb0e65488b05 do_syscall_64+0x13
SITES
cat > po-ppc.sites <<'SITES'
entrytrace-sites 1
site 0xc0000000000239a8 - begin - 0x1 00000060 entry_stage_system_call_exception+0x34
site 0xc0000000000239f8 0 begin - 0x4 00000060 entry_stage_system_call_exception+0x84
site 0xc00000000045eb68 0 begin - 0x4 00000060 irqentry_enter+0x20
SITES
cat > po-legacy.sites <<'SITES'
entrytrace-sites 1
site 0xc00000000002c4a8 - begin - 0x1 00000060 system_call_exception+0x34
SITES
po() { bash -c '. "$1/kernel/kernel-lib.sh"; plain_opens "$2" && echo opens || echo none' - "$S" "$1"; }
expect_eq "plain_opens: x86_64's marker in do_syscall_64 opens a plain syscall" "$(po po-x86.sites)" opens
expect_eq "plain_opens: powerpc v4 begins a syscall only in its staged copy: none" "$(po po-ppc.sites)" none
expect_eq "plain_opens: powerpc's legacy path begins one in system_call_exception" "$(po po-legacy.sites)" opens
# kernel-mix --marks: the entrytrace kernel with the markers powerpc's
# plain copy leaves out (scripts/kernel/configs/entrytrace-marks.config,
# whose one symbol every base's series defines); refused before any build
# for a kernel without markers.
expect_exit "kernel-mix --marks on the base kernel: refused, nothing built" 1 \
	"$S/kernel/record/kernel-mix" --marks 7.3 base
for b in $BASES; do
	check "entrytrace-marks.config's symbol is in the $b series' Kconfig" \
		grep -q "^+config $(sed -n 's/^CONFIG_\([A-Z_]*\)=y$/\1/p' "$S/kernel/configs/entrytrace-marks.config")\$" \
		"$S/../kernel/$b/0001-tracing-Add-entry_stage-trace-events-for-syscall-ent.patch"
done
