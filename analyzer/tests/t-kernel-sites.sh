# SPDX-License-Identifier: GPL-2.0
# scripts/kernel/build/kernel-sites on small ELF files built here with the layout of an
# x86_64 vmlinux (entry text, vectors, __jump_table with relative entries,
# entry_stage_key, .entry_stage_sites): make check has no kernel image, so
# these are the cross-check's inputs.  Every kind of site the series emits
# (include/linux/entry_stage{,_stamp}.h: the stage edges, SHARED, AGG, the marker
# sites of no stage, the syscall and tail ends, powerpc's exit restart) must
# pass and load in the plugin; every way an entry can be wrong must fail
# with a line naming it.  The real tables of the four v2 kernels are checked
# by scripts/kernel/record/kernel-mix (make kernel-mix MIX_VARIANT=entrytrace).
# weight: 18
. "$(dirname "$0")/lib.sh"

KS=$TOP/scripts/kernel/build/kernel-sites
"$TOP/scripts/lib/stagesdef.py" stages > stages.tsv
nstages=$(wc -l < stages.tsv)
# sid NAME: a stage's id, its position among the ENTRY_STAGE lines
sid() { awk -F'\t' -v n="$1" '$3 == n { print $1; exit }' stages.tsv; }
ARCH_ENTER=$(sid arch_enter) CT_USER_EXIT=$(sid ct_user_exit) SYSCALL=$(sid syscall)
LSM=$(sid lsm_task_kill) TAIL=$(sid arch_exit_tail) RESTART=$(sid exit_restart)
EXIT_PREPARE=$(sid exit_prepare)
check "stage ids of stages.def found" test -n "$ARCH_ENTER$CT_USER_EXIT$SYSCALL$LSM$TAIL$RESTART"

# mkelf NAME [SITES-ENTRIES] [JUMP-KEY] [SECTION-FLAGS]: an ELF whose
# .entry_stage_sites holds SITES-ENTRIES (assembler lines, "" = no
# section); site1..site9 are static branches of entry_stage_key (site1's
# key is JUMP-KEY), other1 one of another key, plain1 code of no branch
mkelf() {
	local name=$1 sites=$2 key=${3:-entry_stage_key} flags=${4:-} i
	{
		cat <<EOF
	.text
	.globl __entry_text_start, entry_SYSCALL_64, __entry_text_end
__entry_text_start:
entry_SYSCALL_64:
	swapgs
EOF
		for i in 1 2 3 4 5 6 7 8 9; do printf 'site%s:\txchg %%ax, %%ax\n\tnop\n' $i; done
		printf 'plain1:\tmovl %%eax, %%eax\n\tnop\n'
		cat <<EOF
other1:	xchg %ax, %ax
	sysretq
	.globl asm_sysvec_apic_timer_interrupt
asm_sysvec_apic_timer_interrupt:
	nop
	iretq
__entry_text_end:
	.globl __switch_to_asm
__switch_to_asm:
	ret
	.globl __x64_sys_getppid
	.type __x64_sys_getppid, @function
__x64_sys_getppid:
	xor %eax, %eax
	ret
	.size __x64_sys_getppid, . - __x64_sys_getppid
	.data
	.globl entry_stage_key, other_key, __start___jump_table, __stop___jump_table
entry_stage_key: .quad 0
other_key: .quad 0
	.balign 8
__start___jump_table:
	.long site1 - ., other1 - .
	.quad $key - .
EOF
		for i in 2 3 4 5 6 7 8 9; do
			printf '\t.long site%s - ., other1 - .\n\t.quad entry_stage_key - .\n' $i
		done
		cat <<EOF
	.long other1 - ., site1 - .
	.quad other_key - .
__stop___jump_table:
EOF
	} >"$name.S"
	if [ -n "$sites" ]; then
		printf '\t.section .entry_stage_sites,"%s",@progbits\n%s\n' "$flags" "$sites" >>"$name.S"
	fi
	gcc -nostdlib -static -no-pie -Wl,--build-id=sha1 -Wl,-e,entry_SYSCALL_64 \
		-o "$name.elf" "$name.S" 2>"$name.gcc" || cat "$name.gcc"
}
# entry ADDR-EXPR STAGE EDGE STAGE2 FLAGS [PAD]: one 16-byte site entry,
# laid out as ENTRY_STAGE_SITE_ASM does (.quad, four .byte, .long 0)
entry() { printf '\t.balign 8\n\t.quad %s\n\t.byte %s, %s, %s, %s\n\t.long %s\n' "$1" "$2" "$3" "$4" "$5" "${6:-0}"; }
N=0xff
# the smallest table a kernel can have: a syscall begin and a syscall end
BEGIN=$(entry site1 $N 0 $N 0x01)
END=$(entry site9 "$TAIL" 1 $N 0x06)

# every kind of site of include/linux/entry_stage{,_stamp}.h, in one table
all="$BEGIN
$(entry site2 "$ARCH_ENTER" 0 $N 0x04)
$(entry site3 "$ARCH_ENTER" 2 "$CT_USER_EXIT" 0x04)
$(entry site4 "$CT_USER_EXIT" 2 "$SYSCALL" 0)
$(entry site5 "$LSM" 0 $N 0x08)
$(entry site6 "$LSM" 1 $N 0x08)
$(entry site7 "$SYSCALL" 1 $N 0)
$(entry site8 $N 0 $N 0x14)
$END"
mkelf good "$all"
"$KS" good.elf -o good.sites 2>good.err
check "a table with every kind of site passes" grep -q 'mode sites, 9 sites' good.err
check "the site line carries stage, edge, flags, the NOP and where it is" \
	grep -qx "site 0x[0-9a-f]* $ARCH_ENTER begin - 0x4 6690[0-9a-f]* site2+0x0" good.sites
check "the syscall begin: a site of no stage, '-'" \
	grep -qx 'site 0x[0-9a-f]* - begin - 0x1 6690[0-9a-f]* site1+0x0' good.sites
check "the tail begin: no stage, TAIL|SHARED" \
	grep -qx 'site 0x[0-9a-f]* - begin - 0x14 6690[0-9a-f]* site8+0x0' good.sites
check "a switch names its second stage" \
	grep -qx "site 0x[0-9a-f]* $ARCH_ENTER switch $CT_USER_EXIT 0x4 6690[0-9a-f]* site3+0x0" good.sites
check "the build id comes from .note.gnu.build-id" \
	grep -qx "build_id $(readelf -n good.elf | sed -n 's/.*Build ID: //p')" good.sites
check "the stage names are stages.def's, $nstages of them" grep -qx "stages $nstages" good.sites
check "markers: entry, vector, sysret and iret, switch, handler" sh -c \
	"grep -q '^sysentry ' good.sites && grep -q '^vector .* asm_sysvec_apic_timer_interrupt ' good.sites &&
	 grep -q '^return .* user 480f07' good.sites && grep -q '^return .* any 48cf' good.sites &&
	 grep -q '^switch ' good.sites && grep -q '^handler .* getppid __x64_sys_getppid ' good.sites"
"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=good.sites out=good.mix >fq.out 2>&1
check "the plugin reads it" grep -qx 'install: 0' fq.out

# one kind of site at a time, beside the smallest table
ok_site() {
	local desc=$1
	shift
	mkelf k "$BEGIN
$END
$(entry site5 "$@")"
	if "$KS" k.elf -o k.sites 2>k.err && grep -q 'mode sites, 3 sites' k.err &&
		"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=k.sites out=k.mix 2>&1 | grep -qx 'install: 0'; then
		_pass "$desc: kernel-sites and the plugin take it"
	else
		_fail "$desc: $(cat k.err)"
	fi
}
mkelf min "$BEGIN
$END"
check "the smallest table: a syscall begin and a syscall end" "$KS" min.elf -o min.sites
ok_site "a stage's begin" "$EXIT_PREPARE" 0 $N 0
ok_site "a stage's end" "$EXIT_PREPARE" 1 $N 0
ok_site "a switch" "$EXIT_PREPARE" 2 "$SYSCALL" 0
ok_site "a SHARED begin (entry_stage_shared_begin)" "$ARCH_ENTER" 0 $N 0x04
ok_site "a SHARED switch" "$ARCH_ENTER" 2 "$CT_USER_EXIT" 0x04
ok_site "an AGG stage's begin (entry_stage_agg_begin, _rep_begin)" "$LSM" 0 $N 0x08
ok_site "an AGG stage's end" "$LSM" 1 $N 0x08
ok_site "the tail begin (entry_stage_tail_begin): no stage, TAIL|SHARED" $N 0 $N 0x14
ok_site "the tail end (entry_stage_tail_end): arch_exit_tail's end, SYSCALL_END" "$TAIL" 1 $N 0x02
ok_site "a syscall end (entry_stage_syscall_end): SYSCALL_END|SHARED" "$TAIL" 1 $N 0x06
ok_site "the restart begin (powerpc): a DEFERRED stage's begin, SYSCALL_BEGIN" "$RESTART" 0 $N 0x01
ok_site "the restart end: its end, SYSCALL_END" "$RESTART" 1 $N 0x02
ok_site "a resume switch (entry_stage_resume_switch): RESUME" "$CT_USER_EXIT" 2 "$ARCH_ENTER" 0x20
ok_site "a shared resume switch (entry_stage_shared_resume_switch): RESUME|SHARED" \
	"$CT_USER_EXIT" 2 "$ARCH_ENTER" 0x24

# Zero-width markers (MARK, series v4's plain copy): any form, at code
# that is no static branch; several at one address keep the table's order
mkelf mk "$BEGIN
$END
$(entry plain1 "$ARCH_ENTER" 1 $N 0x44)
$(entry plain1 "$CT_USER_EXIT" 0 $N 0x44)
$(entry site5 "$SYSCALL" 2 "$EXIT_PREPARE" 0)"
"$KS" mk.elf -o mk.sites 2>mk.err
check "two markers at one address and a branch site pass" grep -q 'mode sites, 5 sites' mk.err
check "the markers keep the table's order, with the instruction at their address" sh -c \
	"grep '^site .* plain1+0x0\$' mk.sites | cut -d' ' -f3,4,6,7 | tr '\n' , |
	 grep -qx '$ARCH_ENTER end 0x44 89c0[0-9a-f]*,$CT_USER_EXIT begin 0x44 89c0[0-9a-f]*,'"
"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=mk.sites out=mk.mix >mk.out 2>&1
check "the plugin reads two markers at one address" grep -qx 'install: 0' mk.out

# the first flag bit past the header's (scripts/lib/siteabi.py reads them)
UNKNOWN=$(printf '%#x' $(( $("$TOP/scripts/lib/siteabi.py" c | sed -n 's/^#define ENTRY_STAGE_SITE_ALL //p') + 1 )))
check "the header's site flags are the bits below $UNKNOWN" test "$UNKNOWN" = 0x80

# The plugin takes the same ABI from the same header: its build generates
# site-abi.h with scripts/lib/siteabi.py; a site file line with a flag past
# it is refused there too.
check "the plugin's site-abi.h is the header's" sh -c \
	"'$TOP/scripts/lib/siteabi.py' c | cmp -s - '$TOP/build/qemu-plugin/site-abi.h'"
check "siteabi: a header without the site flags is refused, naming them" sh -c \
	"grep -v 'ENTRY_STAGE_SITE_' '$TOP/kernel/src/include/linux/entry_stage_types.h' > noflags.h;
	 '$TOP/scripts/lib/siteabi.py' --header noflags.h c 2>&1 >/dev/null | grep -q 'no ENTRY_STAGE_SITE_\*'"

# Each form has an action (siteabi.py ACTIONS: what the site does to the
# plugin's state of its syscall), generated into site-abi.h; harvest.c
# has an act_NAME() per action, called through the header's SITE_ACTIONS.
# A FORMS row without an action, with one ACTIONS lacks, or two rows that
# match one site and act apart are refused when the header is made; an
# action the plugin has no act_ for does not build, nor does an act_ that
# no action names (an unused function).
# plant NAME PYTHON: plant-NAME.h, site-abi.h from FORMS and ACTIONS as
# PYTHON changes them (s is siteabi), or plant-NAME.err
plant() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import siteabi as s
exec(sys.argv[2])
try:
    sys.stdout.write(s.c_header(s.load()))
except s.AbiError as e:
    sys.exit("siteabi: %s" % e)' "$TOP/scripts/lib" "$2" >"plant-$1.h" 2>"plant-$1.err"
}
# harvest NAME: harvest.c built against plant-NAME.h as site-abi.h (log in harvest-NAME.log)
harvest() {
	mkdir -p "inc-$1" && cp "plant-$1.h" "inc-$1/site-abi.h" &&
		${CC:-cc} -std=gnu11 -fPIC -Wall -Wextra -Werror -Wno-unused-parameter -O0 \
			-iquote "inc-$1" -iquote "$TOP/analyzer/include" -c -o "harvest-$1.o" \
			"$TOP/analyzer/qemu-plugin/harvest.c" >"harvest-$1.log" 2>&1
}
plant same ''
check "siteabi: FORMS and ACTIONS as they are make the plugin's site-abi.h" \
	cmp plant-same.h "$TOP/build/qemu-plugin/site-abi.h"
check "...and harvest.c builds against it" harvest same
plant noaction 's.FORMS = s.FORMS[:3] + (s.FORMS[3][:4] + s.FORMS[3][5:],) + s.FORMS[4:]'
check "siteabi: a FORMS row without an action is refused, naming it ($(cat plant-noaction.err))" \
	grep -q 'FORMS row 3 (a syscall end.*) has no action' plant-noaction.err
plant unknown 's.FORMS += (("!AGG", ("begin",), "SHARED|AGG", None, "frobnicate", "planted"),)'
check "siteabi: a row whose action is not in ACTIONS is refused ($(cat plant-unknown.err))" \
	grep -q 'action frobnicate is not in ACTIONS' plant-unknown.err
plant unused 's.ACTIONS += (("frobnicate", "planted"),)'
check "siteabi: an action no row does is refused ($(cat plant-unused.err))" \
	grep -q 'ACTIONS frobnicate: no row of FORMS does it' plant-unused.err
plant overlap 's.FORMS += (("TIMED", ("end",), "", None, "agg_edge", "planted"),)'
check "siteabi: two rows that match one site and act apart are refused ($(cat plant-overlap.err))" \
	grep -q "rows \"a stage's begin or end\" and \"planted\" match one site, actions edge and agg_edge" \
	plant-overlap.err
plant new 's.ACTIONS += (("frobnicate", "planted"),)
s.FORMS += (("!AGG", ("begin",), "SHARED|AGG", None, "frobnicate", "planted"),)'
check "siteabi: a new action with its row makes a header" grep -q 'X(FROBNICATE, frobnicate)' plant-new.h
if harvest new; then
	_fail "harvest.c built with an action it has no act_ for"
else
	check "...which the plugin does not build without its act_frobnicate()" \
		grep -q "act_frobnicate.* undeclared" harvest-new.log
fi
plant gone 's.ACTIONS = tuple(a for a in s.ACTIONS if a[0] != "resume_switch")
s.FORMS = tuple(f for f in s.FORMS if f[4] != "resume_switch")'
check "siteabi: an action and its row taken out make a header" sh -c \
	"test -s plant-gone.h && ! grep -q RESUME_SWITCH plant-gone.h"
if harvest gone; then
	_fail "harvest.c built with an act_ no action names"
else
	check "...which the plugin does not build with act_resume_switch() left over" \
		grep -q "act_resume_switch.* defined but not used" harvest-gone.log
fi
sed "s/^\(site [^ ]* - begin - \)0x1 /\1$UNKNOWN /" min.sites > unk.sites
"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=unk.sites out=unk.mix > unk.out 2>&1
check "the plugin refuses flags $UNKNOWN: $(grep -m1 -o "bad flags '[^']*'" unk.out)" grep -q "bad flags '$UNKNOWN'" unk.out

bad() {
	local desc=$1 want=$2
	shift 2
	mkelf b "$@"
	expect_exit "$desc" 1 "$KS" b.elf -o b.sites
	check "$desc: says '$want'" sh -c "'$KS' b.elf -o b.sites 2>&1 | grep -q -- '$want'"
	check "$desc: writes no site file" test ! -e b.sites
}
# bad_site DESC WANT STAGE EDGE STAGE2 FLAGS [PAD]: one bad entry beside the smallest table
bad_site() {
	local desc=$1 want=$2
	shift 2
	bad "$desc" "$want" "$BEGIN
$END
$(entry site5 "$@")"
}
bad "a site that is no static branch" "not a static-branch site in __jump_table" \
	"$BEGIN
$END
$(entry 'site5 + 1' "$EXIT_PREPARE" 1 $N 0)"
bad "a site in data" "not a code address" "$BEGIN
$END
$(entry entry_stage_key "$EXIT_PREPARE" 0 $N 0)"
bad "a site whose static key is another" "key is not entry_stage_key" "$BEGIN
$END" other_key
bad_site "a stage stages.def does not have" "stage 200, stages.def has $nstages" 200 0 $N 0
bad_site "an unknown edge" "edge 3" "$EXIT_PREPARE" 3 $N 0
bad_site "a switch to an unknown stage" "switch to stage 99" "$EXIT_PREPARE" 2 99 0
bad_site "a switch to no stage" "a switch to no stage" "$EXIT_PREPARE" 2 $N 0
bad_site "stage2 on a begin edge" "stage2 1 on a non-switch edge" "$EXIT_PREPARE" 0 1 0
bad_site "unknown flags" "unknown flags $UNKNOWN" "$EXIT_PREPARE" 0 $N "$UNKNOWN"
# what is none of the forms the series emits (scripts/lib/siteabi.py FORMS):
# kernel-sites names the site and the forms with its flags, and the plugin
# refuses the same entry in a site file (one list, two readers)
NS="not a site the series emits"
bad_form() {
	local desc=$1 want=$2 pwant=$3
	shift 3
	bad_site "$desc" "$want: $NS" "$@"
	plugin_refuses "$desc" "$pwant: $NS" "$@"
}
# plugin_refuses DESC WANT STAGE EDGE STAGE2 FLAGS: a site file whose site5
# line says so (hand-written: kernel-sites writes none for it)
mkelf pr "$BEGIN
$END
$(entry site5 "$EXIT_PREPARE" 0 $N 0)"
"$KS" pr.elf -o pr.sites 2>/dev/null
plugin_refuses() {
	local desc=$1 want=$2 st=$3 ed=$4 st2=$5 fl=$6 e
	e=$(echo "begin end switch" | cut -d' ' -f$((ed + 1)))
	[ "$st" = $N ] && st=- || st=$((st))
	[ "$st2" = $N ] && st2=- || st2=$((st2))
	awk -v st="$st" -v e="$e" -v st2="$st2" -v fl="$(printf '%#x' "$fl")" \
		'$1 == "site" && $3 != "-" && $5 == "-" && $6 == "0x0" && !done { $3 = st; $4 = e; $5 = st2; $6 = fl; done = 1 } { print }' \
		pr.sites > prb.sites
	"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=prb.sites out=prb.mix > prb.out 2>&1
	check "$desc: the plugin refuses it too ($(grep -m1 -o "$NS" prb.out))" grep -q -- "$want" prb.out
}
check "a site file to plant bad sites in" grep -q '^site .* begin - 0x0 ' pr.sites
bad_form "RESUME on a begin" "begin of TIMED stage exit_prepare, flags RESUME" \
	"begin of TIMED stage exit_prepare, flags 0x20" "$EXIT_PREPARE" 0 $N 0x20
bad_form "RESUME with AGG" "switch of TIMED stage exit_prepare to TIMED stage syscall, flags AGG|RESUME" \
	"switch of TIMED stage exit_prepare to stage syscall, flags 0x28" "$EXIT_PREPARE" 2 "$SYSCALL" 0x28
bad_site "a pad byte set" "pad bytes not zero" "$EXIT_PREPARE" 0 $N 0 7
bad_site "a marker at a static branch" "a marker (MARK) at a static branch of entry_stage_key" \
	"$EXIT_PREPARE" 0 $N 0x40
mkelf ok "$BEGIN
$END
$(entry other1 "$EXIT_PREPARE" 0 $N 0x40)"
check "a marker before another key's static branch passes" "$KS" ok.elf -o ok.sites
bad "a marker and a branch site at one address" "a second, different entry for the same address" "$BEGIN
$END
$(entry site5 "$EXIT_PREPARE" 0 $N 0)
$(entry plain1 "$EXIT_PREPARE" 1 $N 0x40)
$(entry site5 "$EXIT_PREPARE" 1 $N 0x40)"
bad_form "no stage on an end" "end of no stage, flags SYSCALL_BEGIN" "end of no stage, flags 0x1" $N 1 $N 0x01
bad_form "no stage, no marker flag" "begin of no stage, flags none" "begin of no stage, flags 0" $N 0 $N 0
bad_form "no stage, SYSCALL_BEGIN|SHARED" "begin of no stage, flags SYSCALL_BEGIN|SHARED" \
	"begin of no stage, flags 0x5" $N 0 $N 0x05
bad_form "TAIL on a stage" "begin of TIMED stage exit_prepare, flags SHARED|TAIL" \
	"begin of TIMED stage exit_prepare, flags 0x14" "$EXIT_PREPARE" 0 $N 0x14
bad_form "SYSCALL_BEGIN on a TIMED stage" "begin of TIMED stage exit_prepare, flags SYSCALL_BEGIN" \
	"begin of TIMED stage exit_prepare, flags 0x1" "$EXIT_PREPARE" 0 $N 0x01
bad_form "SYSCALL_BEGIN on an end" "end of DEFERRED stage exit_restart, flags SYSCALL_BEGIN" \
	"end of DEFERRED stage exit_restart, flags 0x1" "$RESTART" 1 $N 0x01
bad_form "SYSCALL_END on a begin" "begin of DEFERRED stage arch_exit_tail, flags SYSCALL_END" \
	"begin of DEFERRED stage arch_exit_tail, flags 0x2" "$TAIL" 0 $N 0x02
bad_form "SYSCALL_END with AGG" "end of AGG stage lsm_task_kill, flags SYSCALL_END|AGG" \
	"end of AGG stage lsm_task_kill, flags 0xa" "$LSM" 1 $N 0x0a
bad_form "AGG on a TIMED stage" "begin of TIMED stage exit_prepare, flags AGG" \
	"begin of TIMED stage exit_prepare, flags 0x8" "$EXIT_PREPARE" 0 $N 0x08
bad_form "an AGG stage's site without AGG" "begin of AGG stage lsm_task_kill, flags none" \
	"begin of AGG stage lsm_task_kill, flags 0" "$LSM" 0 $N 0
bad_form "AGG with SHARED" "begin of AGG stage lsm_task_kill, flags SHARED|AGG" \
	"begin of AGG stage lsm_task_kill, flags 0xc" "$LSM" 0 $N 0x0c
bad_form "an AGG switch" "switch of AGG stage lsm_task_kill to TIMED stage syscall, flags AGG" \
	"switch of AGG stage lsm_task_kill to stage syscall, flags 0x8" "$LSM" 2 "$SYSCALL" 0x08
check "kernel-sites names the forms with the site's flags (AGG: an AGG stage's begin or end)" \
	sh -c "'$KS' b.elf -o b.sites 2>&1 | grep -q 'with these flags: an AGG stage' "
bad "one address, two different entries" "a second, different entry" "$BEGIN
$END
$(entry site9 "$TAIL" 1 $N 0x02)"
bad "no syscall begin" "no syscall begin site" "$END"
bad "no syscall end" "no syscall end site" "$BEGIN"
bad "an allocated section" "SHF_ALLOC set" "$BEGIN
$END" entry_stage_key a
bad "a table of 15-byte entries" "not a multiple of 16" "$(printf '\t.quad site1\n\t.byte 0xff,0,0xff,1,0,0,0\n')"

mkelf none ""
"$KS" none.elf -o none.sites 2>none.err
check "no site table: a fallback file" grep -qx 'mode fallback' none.sites
expect_exit "--require-sites fails without a table" 1 "$KS" --require-sites none.elf -o x.sites
"$KS" --fallback good.elf -o fb.sites 2>/dev/null
check "--fallback ignores a table" grep -qx 'mode fallback' fb.sites
expect_exit "not an ELF file" 1 "$KS" good.S
expect_exit "no such file" 1 "$KS" nonexistent.elf
