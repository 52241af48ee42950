# SPDX-License-Identifier: GPL-2.0
# scripts/kernel/check/kernel-noinstr on small ELF files built here with a vmlinux's
# layout (__noinstr_text_start/_end, __jump_table with relative entries,
# entry_stage_key, .entry_stage_sites): the powerpc check objtool does not
# make must fail on each thing it exists to catch -- a call in the stamp
# code, a noinstr function calling new text out of .noinstr.text -- and
# refuse to pass when it checked nothing.  x86_64 and ppc64le (the cross
# binutils come from scripts/setup --tests).
. "$(dirname "$0")/lib.sh"

KN=$TOP/scripts/kernel/check/kernel-noinstr

# mk ARCH NAME STAMP-EXTRA NOINSTR-EXTRA [SITES]: one stamp site in a noinstr
# function; STAMP-EXTRA goes in the stamp code, NOINSTR-EXTRA in the function
mk() {
	local arch=$1 name=$2 stamp=$3 body=$4 sites=${5-yes} ref q
	if [ "$arch" = x86 ]; then
		cat >"$name.S" <<EOF
	.text
	.globl __noinstr_text_start, __noinstr_text_end, enter_fn, outside_fn
__noinstr_text_start:
	.type enter_fn, @function
enter_fn:
.Lsite1:	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
.Lback1:	$body
	ret
.Lstamp1:	rdtsc
	mov %eax, (%rdi)
	$stamp
	jmp .Lback1
	.size enter_fn, . - enter_fn
__noinstr_text_end:
	.type outside_fn, @function
outside_fn:
	ret
	.size outside_fn, . - outside_fn
EOF
		q=.quad
	else
		cat >"$name.S" <<EOF
	.abiversion 2
	.text
	.globl __noinstr_text_start, __noinstr_text_end, enter_fn, outside_fn
__noinstr_text_start:
	.type enter_fn, @function
enter_fn:
.Lsite1:	nop
.Lback1:	$body
	blr
.Lstamp1:	mftb 9
	std 9, 0(3)
	$stamp
	b .Lback1
	.size enter_fn, . - enter_fn
__noinstr_text_end:
	.type outside_fn, @function
outside_fn:
	blr
	.size outside_fn, . - outside_fn
EOF
		q=.quad
	fi
	cat >>"$name.S" <<EOF
	.data
	.globl entry_stage_key, __start___jump_table, __stop___jump_table
	.balign 8
entry_stage_key: .quad 0
__start___jump_table:
	.long .Lsite1 - ., .Lstamp1 - .
	$q entry_stage_key - .
__stop___jump_table:
EOF
	if [ -n "$sites" ]; then
		printf '\t.section .entry_stage_sites,"",@progbits\n\t.quad .Lsite1\n\t.byte 0, 0, 0xff, 1, 0, 0, 0, 0\n' >>"$name.S"
	fi
	# SITES=mark: and a zero-width marker (MARK) at code that is no branch
	if [ "$sites" = mark ]; then
		printf '\t.quad .Lback1\n\t.byte 0, 1, 0xff, 0x40, 0, 0, 0, 0\n' >>"$name.S"
	fi
	if [ "$arch" = x86 ]; then
		gcc -nostdlib -static -no-pie -Wl,-e,enter_fn -o "$name.elf" "$name.S"
	else
		powerpc64le-linux-gnu-as -o "$name.o" "$name.S" &&
			powerpc64le-linux-gnu-ld -e enter_fn -o "$name.elf" "$name.o"
	fi
}

if ! command -v powerpc64le-linux-gnu-as >/dev/null; then
	_fail "powerpc64le-linux-gnu-as missing: run scripts/setup --tests"
fi
for arch in x86 ppc; do
	if [ $arch = x86 ]; then call='call outside_fn' nop=nop
	else call='bl outside_fn' nop=nop; fi
	mk $arch good "$nop" "$nop"
	"$KN" good.elf >good.out 2>&1; rc=$?
	expect_eq "$arch: a clean stamp passes" "$rc" 0
	check "$arch: it says what it checked (1 site, its stamp code, 1 noinstr function)" \
		sh -c "grep -q '^1 sites, [3-9] stamp instructions checked: 0 calls' good.out &&
		       grep -q '^1 noinstr functions' good.out"

	mk $arch marked "$nop" "$nop" mark
	"$KN" marked.elf >marked.out 2>&1; rc=$?
	expect_eq "$arch: a zero-width marker beside the site passes" "$rc" 0
	check "$arch: the marker is counted, not taken for a branch" \
		grep -q '^1 sites, [3-9] stamp instructions checked: 0 calls; 1 zero-width marker addresses' marked.out

	# -O2: the stamp code's own copy of the code after the site, which
	# makes that code's call: the copy's, not the stamp's
	mk $arch copied "$call" "$call"
	"$KN" copied.elf >copied.out 2>&1; rc=$?
	expect_eq "$arch: a copy of the code after the site, with its call, passes" "$rc" 0
	check "$arch: ... and is counted" grep -q '; 1 stamp blocks go on in a copy of the code after their site' copied.out

	mk $arch stampcall "$call" "$nop"
	expect_exit "$arch: a call in the stamp code is a violation" 1 sh -c "'$KN' stampcall.elf >&2"
	check "$arch: the violation names the site and the call" \
		sh -c "'$KN' stampcall.elf | grep -q 'enter_fn: the stamp code of the site at 0x[0-9a-f]* (stage 0) calls .*outside_fn'"

	mk $arch newcall "$nop" "$call"
	"$KN" --base good.elf newcall.elf >new.out 2>&1; rc=$?
	check "$arch: a noinstr call out of .noinstr.text new against the base is listed" \
		grep -q 'noinstr enter_fn calls outside_fn outside .noinstr.text (not in the base kernel)' new.out
	if [ $arch = x86 ]; then
		expect_eq "x86: ... and left to objtool (instrumentation_begin() is invisible in vmlinux)" "$rc" 0
	else
		expect_eq "ppc: ... and is a violation (objtool does not check powerpc)" "$rc" 1
	fi
	"$KN" --base newcall.elf newcall.elf >same.out 2>&1; rc=$?
	expect_eq "$arch: the same call in the base kernel is not new" "$rc" 0

	mk $arch nosites "$nop" "$nop" ""
	expect_exit "$arch: no site table: checked nothing, exit 2" 2 "$KN" nosites.elf
done
expect_exit "not an ELF file" 2 "$KN" good.S
