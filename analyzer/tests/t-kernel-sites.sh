# SPDX-License-Identifier: GPL-2.0
# scripts/kernel/kernel-sites on small ELF files built here with the layout of an
# x86_64 vmlinux (entry text, vectors, __jump_table with relative entries,
# entry_stage_key, .entry_stage_sites): no kernel with a site table exists
# before series v2, and make check has no kernel image, so these are the
# cross-check's real inputs: every way a site can be wrong must fail with
# a line naming it, a good table must pass and load in the plugin.
. "$(dirname "$0")/lib.sh"

KS=$TOP/scripts/kernel/kernel-sites
nstages=$(grep -c '^ENTRY_STAGE(' "$TOP/tracepoints/stages.def")

# mkelf NAME [SITES-ENTRIES] [JUMP-KEY] [SECTION-FLAGS]: an ELF whose
# .entry_stage_sites holds SITES-ENTRIES (assembler lines, "" = no section)
mkelf() {
	local name=$1 sites=$2 key=${3:-entry_stage_key} flags=${4:-}
	cat >"$name.S" <<EOF
	.text
	.globl __entry_text_start, entry_SYSCALL_64, __entry_text_end
__entry_text_start:
entry_SYSCALL_64:
	swapgs
site1:	xchg %ax, %ax
	nop
site2:	xchg %ax, %ax
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
	.long site1 - ., site2 - .
	.quad $key - .
	.long site2 - ., site1 - .
	.quad other_key - .
__stop___jump_table:
EOF
	if [ -n "$sites" ]; then
		printf '\t.section .entry_stage_sites,"%s",@progbits\n%s\n' "$flags" "$sites" >>"$name.S"
	fi
	gcc -nostdlib -static -no-pie -Wl,--build-id=sha1 -Wl,-e,entry_SYSCALL_64 \
		-o "$name.elf" "$name.S" 2>"$name.gcc" || cat "$name.gcc"
}
# entry ADDR-EXPR STAGE EDGE STAGE2 FLAGS [PAD]: one 16-byte site entry
entry() { printf '\t.quad %s\n\t.byte %s, %s, %s, %s, %s, 0, 0, 0\n' "$1" "$2" "$3" "$4" "$5" "${6:-0}"; }

mkelf good "$(entry site1 0 0 0xff 1)"
"$KS" good.elf -o good.sites 2>good.err
check "a good site table passes" grep -q 'mode sites, 1 sites' good.err
check "the site line carries stage, edge, flags, the NOP and where it is" \
	grep -qx 'site 0x[0-9a-f]* 0 begin - 0x1 6690[0-9a-f]* site1+0x0' good.sites
check "the build id comes from .note.gnu.build-id" \
	grep -qx "build_id $(readelf -n good.elf | sed -n 's/.*Build ID: //p')" good.sites
check "the stage names are stages.def's, $nstages of them" grep -qx "stages $nstages" good.sites
check "markers: entry, vector, sysret and iret, switch, handler" sh -c \
	"grep -q '^sysentry ' good.sites && grep -q '^vector .* asm_sysvec_apic_timer_interrupt ' good.sites &&
	 grep -q '^return .* user 480f07' good.sites && grep -q '^return .* any 48cf' good.sites &&
	 grep -q '^switch ' good.sites && grep -q '^handler .* getppid __x64_sys_getppid ' good.sites"
"$SAN/fakeqemu" "$SAN/entrytrace-mix.so" sites=good.sites out=good.mix >fq.out 2>&1
check "the plugin reads it" grep -qx 'install: 0' fq.out

bad() {
	local desc=$1 want=$2
	shift 2
	mkelf b "$@"
	expect_exit "$desc" 1 "$KS" b.elf -o b.sites
	check "$desc: says '$want'" sh -c "'$KS' b.elf -o b.sites 2>&1 | grep -q -- '$want'"
	check "$desc: writes no site file" test ! -e b.sites
}
bad "a site that is no static branch" "not a static-branch site in __jump_table" \
	"$(entry site1 0 0 0xff 1)"$'\n'"$(entry 'site1 + 1' 0 1 0xff 2)"
bad "a site in data" "not a code address" "$(entry entry_stage_key 0 0 0xff 1)"
bad "a site whose static key is another" "key is not entry_stage_key" \
	"$(entry site1 0 0 0xff 1)" other_key
bad "a stage stages.def does not have" "stage 200, stages.def has $nstages" "$(entry site1 200 0 0xff 1)"
bad "an unknown edge" "edge 3" "$(entry site1 0 3 0xff 1)"
bad "a switch to an unknown stage" "switch to stage 99" "$(entry site1 0 2 99 0)"
bad "stage2 on a begin edge" "stage2 1 on a non-switch edge" "$(entry site1 0 0 1 0)"
bad "unknown flags" "unknown flags 0x20" "$(entry site1 0 0 0xff 0x20)"
bad "a pad byte set" "pad bytes not zero" "$(entry site1 0 0 0xff 1 7)"
bad "one address, two different entries" "a second, different entry" \
	"$(entry site1 0 0 0xff 1)"$'\n'"$(entry site1 1 0 0xff 1)"
bad "an allocated section" "SHF_ALLOC set" "$(entry site1 0 0 0xff 1)" entry_stage_key a
bad "a table of 15-byte entries" "not a multiple of 16" "$(printf '\t.quad site1\n\t.byte 0,0,0xff,1,0,0,0\n')"

mkelf none ""
"$KS" none.elf -o none.sites 2>none.err
check "no site table: a fallback file" grep -qx 'mode fallback' none.sites
expect_exit "--require-sites fails without a table" 1 "$KS" --require-sites none.elf -o x.sites
mkelf good2 "$(entry site1 0 0 0xff 1)"
"$KS" --fallback good2.elf -o fb.sites 2>/dev/null
check "--fallback ignores a table" grep -qx 'mode fallback' fb.sites
expect_exit "not an ELF file" 1 "$KS" good.S
expect_exit "no such file" 1 "$KS" nonexistent.elf
