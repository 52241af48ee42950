# SPDX-License-Identifier: GPL-2.0
# Exact checks of the histogram, the stage vocabulary and the kit's JSON reader
# (analyzer/tests/unit.c).
. "$(dirname "$0")/lib.sh"

tap "$SAN/tests/unit"

# The analyzer's stage list is stages.def, in order: nothing kept twice.
{ "$TOP/scripts/lib/stagesdef.py" stages; "$TOP/scripts/lib/stagesdef.py" derived; } |
	cut -f1,3 | tr '\t' ' ' > def.txt
[ "$(wc -l < def.txt)" -ge 30 ] || _fail "scripts/lib/stagesdef.py read only $(wc -l < def.txt) stages"
"$ET" report --stages | awk '/^bit +work/ { exit } NR > 1 && $1 ~ /^[0-9]+$/ { print $1, $2 }' > cli.txt
check "report --stages lists stages.def's stages in its order, with stagesdef.py's ids (derived from $(awk '$2 == "total" { print $1 }' def.txt))" \
	cmp def.txt cli.txt

# scripts/lib/stagesdef.py, the scripts' one reader of stages.def: a line
# it cannot parse is an error naming the line, never skipped
SD=$TOP/scripts/lib/stagesdef.py
sed 's/^ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, ALL, TIMED,/ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, ALL, TIMED,/' \
	"$TOP/tracepoints/stages.def" > short.def
cmp -s short.def "$TOP/tracepoints/stages.def" && _fail "stagesdef: the planted short line changed nothing"
expect_exit "stagesdef: an ENTRY_STAGE with an argument missing is refused" 2 "$SD" --def short.def stages
"$SD" --def short.def stages 2>&1 >/dev/null | grep -q "short.def:[0-9]*: ENTRY_STAGE with 7 arguments, not 8" &&
	_pass "stagesdef: ... naming the line and the count" || _fail "stagesdef: no line number in the error"
sed 's/^ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, ALL, TIMED,/ENTRY_STAGE(SECCOMP, seccomp, ENTRY, NO_SUCH, GL, ALL, TIMED,/' \
	"$TOP/tracepoints/stages.def" > parent.def
expect_exit "stagesdef: an unknown parent is refused" 2 "$SD" --def parent.def stages
# the arches column: one of its values, and what 'on' answers
sed 's/^ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, ALL, TIMED,/ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, MIPS, TIMED,/' \
	"$TOP/tracepoints/stages.def" > arches.def
expect_exit "stagesdef: an arches value that is none of ALL, X86, POWERPC is refused" 2 "$SD" --def arches.def stages
on_rc() { "$SD" on "$1" "$2"; echo $?; }
expect_eq "stagesdef: user_dispatch is on x86_64" "$(on_rc x86_64 user_dispatch)" 0
expect_eq "stagesdef: ... and not on ppc64le (X86)" "$(on_rc ppc64le user_dispatch)" 1
expect_eq "stagesdef: exit_restart is on ppc750 (POWERPC)" "$(on_rc ppc750 exit_restart)" 0
expect_eq "stagesdef: ... and not on x86_64" "$(on_rc x86_64 exit_restart)" 1
expect_eq "stagesdef: syscall is on every arch (ALL)" "$(on_rc ppce500 syscall)" 0
expect_exit "stagesdef: on an arch of no guest is a usage error" 2 "$SD" on mips syscall
expect_eq "stagesdef: the arches column is the 8th of the stages lines" \
	"$("$SD" stages | awk -F'\t' '$3 == "user_dispatch" { print $8 }')" X86
expect_eq "stagesdef: the ABI" "$("$SD" abi)" "$(sed -n 's/^#define ENTRY_STAGE_ABI \([0-9]*\).*/\1/p' "$TOP/tracepoints/stages.def")"
