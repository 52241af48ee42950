# SPDX-License-Identifier: GPL-2.0
# Nothing lost silently: real recordings damaged the ways a mutation campaign
# found to lose data without a word (a zeroed page, a page repeated over its
# neighbour, one bad byte in a zstd chunk, a stage event whose stage id the
# vocabulary does not have).  Each copy is made here from a committed fixture; the report must
# say per CPU what could not be read and exit 8 (report, diff and export).
# weight: 57
. "$(dirname "$0")/lib.sh"

f=$DATA/ppc64le-7.3-stage.dat
# off FILE: the data offset of CPU 0 as trace-cmd dump reads it (an
# independent reader of the file's section index)
off() {
	trace-cmd dump --flyrecord "$1" 2>&1 | awk '/\[offset, size of cpu 0\]/ { print $1; exit }
		/\[id, data offset and size\]/ && $1 == 0 { print $2; exit }'
}
size() {
	trace-cmd dump --flyrecord "$1" 2>&1 | awk '/\[id, data offset and size\]/ && $1 == 0 { print $3; exit }'
}
# mutate IN OUT PYTHON: d is the file's bytes, o CPU 0's data offset, p 4096
mutate() {
	python3 - "$1" "$2" "$(off "$1")" "$3" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); o = int(sys.argv[3]); p = 4096
exec(sys.argv[4])
open(sys.argv[2], 'wb').write(d)
PY
}
# damaged NAME FILE WHAT: exit 8, the header says WHAT (a regex), and
# export and diff exit 8 too
damaged() {
	local name=$1 file=$2 what=$3
	expect_exit "$name: report exits 8" 8 "$ET" report "$file"
	"$ET" report --no-breakdown "$file" > "$name.txt" 2>/dev/null
	check "$name: the header says: $(grep -m1 -o "$what[^(]*" "$name.txt")" \
		grep -q "^DAMAGED: *$what" "$name.txt"
	expect_exit "$name: export exits 8" 8 "$ET" export -o "$name.json" "$file"
	expect_exit "$name: diff exits 8" 8 "$ET" diff "$f" "$file"
}

trace-cmd convert --file-version 6 --compression none -i "$f" -o v6.dat >/dev/null 2>&1
expect_exit "the undamaged copy exits 0" 0 sh -c "'$ET' report v6.dat >/dev/null && echo ok >&2"
"$ET" report --json v6.dat > v6.json
np=$(jget v6.json "d['files'][0]['pages_per_cpu'][0]")
expect_eq "the undamaged copy: every page the file holds gave records" \
	"$(jget v6.json "(d['files'][0]['damaged'], d['files'][0]['pages_per_cpu'] == d['files'][0]['pages_read_per_cpu'])")" "(False, True)"

# 1. a zeroed 4 KiB page of uncompressed data: its records are gone
mutate v6.dat zero.dat 'd[o + 100 * p:o + 101 * p] = bytes(p)'
damaged zeroed zero.dat "CPU 0: 1 of $np pages gave no records"
"$ET" report --json zero.dat > zero.json 2>/dev/null
expect_eq "zeroed: JSON pages read per CPU" "$(jget zero.json "d['files'][0]['pages_read_per_cpu']")" "[$((np - 1))]"
# (the records on that page, as trace-records finds them in the undamaged copy)
o6=$(off v6.dat)
on_page=$("$SAN/tests/trace-records" v6.dat | awk -v lo=$((o6 + 100 * 4096)) -v hi=$((o6 + 101 * 4096)) \
	'$1 == 0 && $2 >= lo && $2 < hi { n++ } END { print n + 0 }')
check "zeroed: the page held records ($on_page)" test "$on_page" -gt 0
expect_eq "zeroed: records missing against the undamaged copy" \
	"$(( $(jget v6.json "d['files'][0]['records']") - $(jget zero.json "d['files'][0]['records']") ))" "$on_page"

# 2. a page duplicated over its neighbour: the same number of pages, but
# time goes back where the copy starts
mutate v6.dat dup.dat 'd[o + 101 * p:o + 102 * p] = d[o + 100 * p:o + 101 * p]'
damaged duplicated dup.dat "CPU 0: 1 records earlier than the record before them"

# 3. one damaged byte inside a zstd chunk
mutate "$f" zstd.dat "d[o + $(size "$f") // 3] ^= 0x55"
# (zstd frames carry no checksum here: libtracecmd either ends the CPU's
# data at the bad chunk or hands over garbage records, which then do not
# fit the stage ABI; either is said and exits 8)
damaged zstd zstd.dat "\(CPU 0: [0-9]* of $np pages gave no records\|[0-9]* entry_stage events that do not fit ABI 3 to 4\)"

# 4. a stage event whose stage id stages.def does not have (u16: 0xee00+)
read -r _ at _ <<< "$("$SAN/tests/trace-records" v6.dat entry_stage:entry_stage_time stage | sed -n 10p)"
python3 -c "
import sys; d = bytearray(open('v6.dat', 'rb').read()); d[$at + 1] = 0xee; open('abi.dat', 'wb').write(d)"
damaged abi abi.dat "1 entry_stage events that do not fit ABI 3 to 4"
"$ET" report --json abi.dat > abi.json 2>/dev/null
expect_eq "abi: JSON abi_errors" "$(jget abi.json "d['files'][0]['abi_errors']")" 1

# The fixtures themselves are whole.
nfix=0 bad=""
for g in "$DATA"/*.dat; do
	"$ET" report --json "$g" > g.json 2>/dev/null
	[ "$(jget g.json "d['files'][0]['damaged']")" = False ] || bad="$bad $(basename "$g")"
	nfix=$((nfix + 1))
done
check "no committed fixture is reported damaged ($nfix read${bad:+; damaged:$bad})" \
	test -z "$bad" -a "$nfix" -gt 20
