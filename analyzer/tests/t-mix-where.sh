# SPDX-License-Identifier: GPL-2.0
# Places in plugin output (Documentation/qemu-plugin.md, "Places"): entrytrace
# annotate, the code-place table, diff's where tables and its class gates.
#
# First on a kernel-like ELF built here (so that the edge cases are exact):
# two files of a tree with the kernel's layout, linked at a kernel address,
# with DWARF; plugin output for it written through the real format
# (scripts/lib/mixfile.py), annotated with the ELF.  Then on the committed
# ppc64le outputs of the real kernels (kernel-mix --data, PROVENANCE-mix.md).
. "$(dirname "$0")/lib.sh"
PY="python3 -c"
export PYTHONPATH=$TOP/scripts/lib

# ---- a kernel-like ELF ---------------------------------------------------
mkdir -p tree/arch/powerpc/kernel tree/kernel tree/include/linux
: >tree/Kconfig
: >tree/MAINTAINERS
cat >tree/include/linux/thread_info.h <<'EOF'
static inline __attribute__((always_inline)) int flag_test_and_clear(volatile int *p)
{
	int v = *p;

	__asm__ volatile("mfence" ::: "memory");
	*p = 0;
	__asm__ volatile("mfence" ::: "memory");
	return v;
}
EOF
cat >tree/arch/powerpc/kernel/syscall.c <<'EOF'
#include "../../../include/linux/thread_info.h"
volatile int flags;
long sys_getppid(void);

long system_call_exception(long nr)
{
	if (flag_test_and_clear(&flags))
		return -1;
	return nr + sys_getppid();
}
EOF
cat >tree/kernel/sys.c <<'EOF'
long sys_getppid(void)
{
	return 42;
}
EOF
(cd tree && gcc -g -O2 -fno-pic -mcmodel=kernel -ffreestanding -c arch/powerpc/kernel/syscall.c -o a.o &&
	gcc -g -O2 -fno-pic -mcmodel=kernel -ffreestanding -c kernel/sys.c -o b.o &&
	ld -static -nostdlib --build-id -Ttext=0xffffffff81000000 -e system_call_exception \
		-o ../vmlinux a.o b.o) || { _fail "building the kernel-like ELF"; exit 0; }
printf 'Linux version 9.9.9-test (tests) #1\0' >>vmlinux

# plugin output for it: every instruction of both functions once per call,
# the base without the flag test, the test with it (its two mfence)
$PY '
import re, subprocess, sys
import mixfile
bid = re.search(r"Build ID: (\w+)", subprocess.run(["readelf", "-n", "vmlinux"], capture_output=True,
                text=True).stdout).group(1)
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "vmlinux"], capture_output=True, text=True).stdout
insns, fn = [], None
for line in dis.split("\n"):
    m = re.match(r"^([0-9a-f]+) <(\w+)>:", line)
    if m:
        fn, start = m.group(2), int(m.group(1), 16)
        continue
    m = re.match(r"^ *([0-9a-f]+):\s+(\S+)", line)
    # the alignment padding after a function is no code of it
    if m and fn and not re.match(r"(nop|xchg|cs|data16|int3)", m.group(2)):
        a = int(m.group(1), 16)
        insns.append((a, f"{fn}+{a - start:#x}", m.group(2)))
def write(path, with_flag):
    rows = [i for i in insns if with_flag or "mfence" not in i[2]]
    n = 100
    lines = ["entrytrace-mix 2", "arch x86_64", f"build_id {bid}", "sites_sha256 none",
             "table_hash 0000000000000000", "mode sites", "naming first-handler-entry-in-body",
             "vcpus 1", "qemu_api 1 1", "samples getppid", "tables getppid", "calls none",
             "armed no", "functions all", "account 0 syscall -", "account 1 whole -",
             "kind 0 mfence barrier", "count syscalls 100"]
    tot = len(rows) * n
    for acc in ("syscall", "whole"):
        lines.append(f"stat getppid {acc} {n} {n} {tot} {len(rows)} {len(rows)} {len(rows)}.0 {len(rows)}")
    nm = sum(1 for r in rows if "mfence" in r[2])
    for acc in ("syscall", "whole"):
        for f in sorted({r[1].split("+")[0] for r in rows}):
            cnt = n * sum(1 for r in rows if r[1].split("+")[0] == f)
            lines.append(f"func getppid {acc} 1 {f} {cnt}")
    for acc in ("syscall", "whole"):
        if nm:
            lines += [f"kinds getppid {acc} mfence {nm * n}", f"class getppid {acc} barrier {nm * n}"]
    for i, (a, w, op) in enumerate(rows):
        kind = op if op == "mfence" else "-"
        lines.append(f"insn {i} {a:#x} {w} {kind}")
    for acc in ("syscall", "whole"):
        for i in range(len(rows)):
            lines.append(f"at getppid {acc} {i} {n}")
    lines += [f"sample {k} getppid ok user=10 whole={len(rows)} irq=0 nirq=0 total={len(rows)} "
              f"gap=0 outside=0 s.syscall={len(rows)}" for k in range(n)]
    mixfile.write(path, lines)
write("base.mix", False)
write("test.mix.gz", True)
' || { _fail "writing the plugin output for the kernel-like ELF"; exit 0; }

"$ET" annotate --vmlinux vmlinux base.mix test.mix.gz > ann.txt 2>&1
check "annotate: both files, the kernel's release from its banner, every instruction on a line" \
	sh -c "grep -q '^base.mix: kernel 9.9.9-test, \([0-9]*\) instructions, \1 named, \1 with a source line' ann.txt &&
	       grep -q '^test.mix.gz: kernel 9.9.9-test' ann.txt"
check "annotate: the mfence's frames: its line, then where it was inlined, in tree paths" \
	sh -c "zcat test.mix.gz | grep -E '^src [0-9]+ flag_test_and_clear@include/linux/thread_info.h:[0-9]+ system_call_exception@arch/powerpc/kernel/syscall.c:7$' | grep -q ."
check "annotate: the rewritten files still pass the format's own check (line count, CRC-32)" \
	$PY 'import mixfile; mixfile.Mix("base.mix"); mixfile.Mix("test.mix.gz")'
cp base.mix again.mix
"$ET" annotate -q --vmlinux vmlinux again.mix
expect_eq "annotate twice: the same file (src lines replaced, not added)" "$(md5sum <again.mix)" "$(md5sum <base.mix)"
expect_exit "annotate: a vmlinux of another build refused, by build id" 3 \
	"$ET" annotate --vmlinux "$TOP/build/sysloop" base.mix
# (the v2 x86_64 output kept for t-tiling is a version 1 file: the mix32
# ones are version 2 since their series v3 recording)
expect_exit "annotate: a version 1 file refused (no instruction list)" 3 \
	"$ET" annotate --vmlinux vmlinux "$DATA/mix-x86_64-7.3-entrytrace-v2-enforcing.mix.gz"
expect_exit "annotate: no --vmlinux" 2 "$ET" annotate base.mix

"$ET" diff test.mix.gz test.mix.gz > same.txt 2>&1
check "diff of a file with itself: no class moved" grep -q '^(no classed instruction moved)' same.txt
"$ET" diff base.mix test.mix.gz > w.txt 2>&1
check "diff: the two mfence named by stage, function, line, inlined function and code" \
	grep -Eq '^syscall +mfence \+2 +\+[0-9.]+ +arch entry +system_call_exception\+0x[0-9a-f]+ arch/powerpc/kernel/syscall.c:7 \(flag_test_and_clear\)$' w.txt
check "diff: by code, the handler (kernel/sys.c, in the body) did not move, arch entry did" \
	sh -c "grep -Eq '^handler +([0-9.]+) +\1 +\+0.0$' w.txt && grep -Eq '^arch entry +[0-9.]+ +[0-9.]+ +\+[1-9]' w.txt"
"$ET" diff --json base.mix test.mix.gz > w.json 2>/dev/null
check "diff --json: mix_where has the place, code arch_entry, 2 mfence per syscall on the test, none on the base" \
	$PY 'import json; d = json.load(open("w.json")); r = [x for x in d["mix_where"] if x["test"] and x["test"]["kinds"].get("mfence")]; assert len(r) == 1 and r[0]["code"] == "arch_entry" and r[0]["inlined"] == "flag_test_and_clear" and not r[0]["base"]["kinds"] and abs(r[0]["test"]["kinds"]["mfence"] - 2) < 1e-9 and abs(r[0]["insns_delta"] - 2) < 1e-9, r'

expect_exit "fail-on whole.mfence>0: trips, naming the place" 6 "$ET" diff --fail-on 'whole.mfence>0' base.mix test.mix.gz
check "fail-on: the trip line says where" \
	sh -c "'$ET' diff --fail-on 'whole.mfence>0' base.mix test.mix.gz 2>&1 >/dev/null | grep -q 'getppid whole mfence +2.00 per syscall (0.00 -> 2.00); most at syscall: system_call_exception+0x[0-9a-f]* arch/powerpc/kernel/syscall.c:7 (flag_test_and_clear), arch entry'"
expect_exit "fail-on *.barrier>1: the class, each account: trips" 6 "$ET" diff --fail-on '*.barrier>1' base.mix test.mix.gz
check "fail-on getppid:syscall.mfence>2: within the limit, exit 0" "$ET" diff --fail-on 'getppid:syscall.mfence>2' base.mix test.mix.gz
check "fail-on whole.mfence>0 the other way round (it went): exit 0" "$ET" diff --fail-on 'whole.mfence>0' test.mix.gz base.mix
expect_exit "fail-on: a kind no file counts checked nothing (7)" 7 "$ET" diff --fail-on 'whole.hwsync>0' base.mix test.mix.gz
expect_exit "fail-on: an account the files lack checked nothing (7)" 7 "$ET" diff --fail-on 'exit_work.mfence>0' base.mix test.mix.gz
expect_exit "fail-on: a class rule on traces checked nothing (7)" 7 \
	"$ET" diff --fail-on 'whole.hwsync>0' "$DATA/ppc64le-7.2-selinux.dat" "$DATA/ppc64le-7.3-selinux.dat"
expect_exit "fail-on: an unknown account is a usage error" 2 "$ET" diff --fail-on 'nosuch.mfence>0' base.mix test.mix.gz
expect_exit "fail-on: a class rule's limit has no unit" 2 "$ET" diff --fail-on 'whole.mfence>0%' base.mix test.mix.gz

# a changed byte, a line removed: refused by the end line
zcat test.mix.gz | sed 's/^count syscalls 100$/count syscalls 101/' >edit.mix
expect_exit "a changed byte is refused (CRC-32)" 3 "$ET" report edit.mix
zcat test.mix.gz | sed '/^sample 7 /d' >cut.mix
expect_exit "a line removed is refused (line count)" 3 "$ET" report cut.mix
check "... and says so" sh -c "'$ET' report cut.mix 2>&1 | grep -q 'lines were added or removed'"
