# SPDX-License-Identifier: GPL-2.0
# Stage ids that survive a new stage (tracepoints/stages.def: ids are
# append-only): the analyzer maps a recording's stage ids to its own by
# name, from the kernel's own table in entry_stage_time's format
# (__print_symbolic), and by position where a file lacks it (summary-only
# recordings: an older kernel's ids are a prefix).  A stage the analyzer
# does not know is counted, named and left out, and the data has holes
# (exit 8), never read as another stage.
#
# The recordings are real (ppc750-7.3-stage.dat, a v6 uncompressed file);
# the edits are to its format text only, names of equal length so that no
# size field changes: the precise cases a newer or reordered vocabulary
# makes.
. "$(dirname "$0")/lib.sh"

F=$DATA/ppc750-7.3-stage.dat
# edit FROM TO OUT: in entry_stage_time's format only, swap or rename stage names
edit() {
	python3 - "$F" "$3" "$1" "$2" <<'PY'
import sys
src, out, a, b = sys.argv[1:5]
d = bytearray(open(src, 'rb').read())
i = d.find(b'name: entry_stage_time')
j = d.find(b'name: ', i + 10)
blk = bytes(d[i:j])
qa, qb = b'"%s"' % a.encode(), b'"%s"' % b.encode()
assert len(qa) == len(qb) and blk.count(qa) == 1, (a, b)
import re
# both in the table: swap them; else rename a to b
blk = re.sub(re.escape(qa) + b'|' + re.escape(qb), lambda m: qb if m.group(0) == qa else qa, blk)
d[i:j] = blk
open(out, 'wb').write(d)
PY
}
mean() { awk -v s="$2" '($1 == s || $2 == s) && !done { print ($1 == s ? $4 : $5); done = 1 }' "$1"; }

# (--raw-stamps: the stamps' cost a stage holds depends on the stage, so
# only the raw times swap exactly)
"$ET" report --raw-stamps -s kill "$F" > orig.txt 2>&1
edit ct_user_exit exit_prepare swapped.dat
"$ET" report --raw-stamps -s kill swapped.dat > swapped.txt 2>&1
expect_eq "ids mapped by name: a table with two stages swapped moves their data with them (ct_user_exit)" \
	"$(mean swapped.txt ct_user_exit)" "$(mean orig.txt exit_prepare)"
expect_eq "... and exit_prepare" "$(mean swapped.txt exit_prepare)" "$(mean orig.txt ct_user_exit)"
check "... and the file is read as clean (exit 0)" "$ET" report -s kill swapped.dat

edit exit_prepare exit_prepaxx newer.dat
expect_exit "a stage this analyzer does not know: left out, the data has holes (exit 8)" 8 \
	"$ET" report -s kill newer.dat
"$ET" report --raw-stamps -s kill newer.dat > newer.txt 2>&1
check "... the header counts and names it" \
	grep -Eq 'DAMAGED: +[0-9]+ stage values of stages this analyzer does not know \(exit_prepaxx: a newer kernel' newer.txt
check "... its data is not read as any other stage (exit_prepare is gone, the rest as before)" \
	sh -c "! grep -q ' exit_prepare ' newer.txt && [ '$(mean orig.txt ct_user_exit)' = \"\$(awk '(\$1 == \"ct_user_exit\" || \$2 == \"ct_user_exit\") { print (\$1 == \"ct_user_exit\" ? \$4 : \$5); exit }' newer.txt)\" ]"
"$ET" report --json newer.dat > newer.json 2>/dev/null
check "... JSON unknown_stages" jget newer.json "d['files'][0]['unknown_stages'] > 0 or sys.exit(1)"
# a summary-only recording has no entry_stage_time format: by position
check "summary-only recordings (no stage table in the file) still read: ppc64le-7.3-selinux.dat" \
	"$ET" report -s kill "$DATA/ppc64le-7.3-selinux.dat"
