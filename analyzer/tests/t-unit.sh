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
sed 's/^ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, TIMED,/ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, TIMED,/' \
	"$TOP/tracepoints/stages.def" > short.def
expect_exit "stagesdef: an ENTRY_STAGE with an argument missing is refused" 2 "$SD" --def short.def stages
"$SD" --def short.def stages 2>&1 >/dev/null | grep -q "short.def:[0-9]*: ENTRY_STAGE with 6 arguments, not 7" &&
	_pass "stagesdef: ... naming the line and the count" || _fail "stagesdef: no line number in the error"
sed 's/^ENTRY_STAGE(SECCOMP, seccomp, ENTRY, ENTRY_WORK, GL, TIMED,/ENTRY_STAGE(SECCOMP, seccomp, ENTRY, NO_SUCH, GL, TIMED,/' \
	"$TOP/tracepoints/stages.def" > parent.def
expect_exit "stagesdef: an unknown parent is refused" 2 "$SD" --def parent.def stages
expect_eq "stagesdef: the ABI" "$("$SD" abi)" "$(sed -n 's/^#define ENTRY_STAGE_ABI \([0-9]*\).*/\1/p' "$TOP/tracepoints/stages.def")"
