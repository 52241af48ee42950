# SPDX-License-Identifier: GPL-2.0
# The .mix format's vocabulary is spelled once (issue 49): its magic,
# versions, instruction classes, sample flags and timing-model columns are
# analyzer/include/mix-format.def, which the plugin's writer, the library's
# reader and scripts/lib/mixfile.py expand.  A list written out again in a
# source, or a name only the format uses, is found here; and every
# committed .mix file still reads through the one list, in C and Python.
. "$(dirname "$0")/lib.sh"

DEF=$TOP/analyzer/include/mix-format.def
PYV=$(cd "$TOP/scripts/lib" && python3 -c '
import mixfile
print(mixfile.MAGIC, " ".join(map(str, mixfile.VERSIONS)))
print(" ".join(mixfile.CLASSES))
print(" ".join(mixfile.FLAGS))
print(" ".join(mixfile.MET))')
expect_eq "mixfile.py reads mix-format.def's magic and versions" "$(echo "$PYV" | sed -n 1p)" "entrytrace-mix 1 2 3"
expect_eq "...its classes" "$(echo "$PYV" | sed -n 2p)" "barrier sprmsr atomic counter iret call"
expect_eq "...its sample flags" "$(echo "$PYV" | sed -n 3p)" "irq switched desync unfinished anomaly gapirq"
expect_eq "...its model columns" "$(echo "$PYV" | sed -n 4p)" "cyc_lo cyc cyc_hi l1i l1d l2 l3 tlb"

# the sources: C of the plugin, the library, the program; the scripts' Python
srcs() {
	find "$TOP/analyzer" "$TOP/scripts" \( -path '*/tests/data' -prune \) -o \
		\( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.py' \) -print
}
n=$(srcs | wc -l)
[ "$n" -gt 100 ] || _fail "only $n sources to search"
# a list as it used to be written out, in either quoting
lists=$(srcs | xargs grep -lE "[\"']barrier[\"'], *[\"']sprmsr|[\"']irq[\"'], *[\"']switched|[\"']cyc_lo[\"'], *[\"']cyc[\"']|\"[^\"]*\(barrier, sprmsr" || true)
check "no source of $n writes out a class, flag or column list ($(echo $lists))" test -z "$lists"
# names that mean nothing but the format: quoted anywhere, a second spelling
for w in sprmsr switched desync unfinished gapirq cyc_lo cyc_hi; do
	hits=$(srcs | xargs grep -lE "[\"']$w[\"']" || true)
	check "'$w' is spelled only in mix-format.def" test -z "$hits"
done
grep -q '^MIX_FLAG(GAPIRQ, gapirq,' "$DEF" || _fail "mix-format.def has no gapirq line: the search above looked for nothing"

# every committed plugin output still reads in Python with the version its
# first line says, and the C reader reads the first two of each version
(cd "$TOP/scripts/lib" && python3 -c '
import gzip, sys, mixfile
for p in sys.argv[1:]:
    first = gzip.open(p, "rt").readline().split()
    print(p, first[1], mixfile.Mix(p).version)' "$DATA"/*.mix.gz) > py.txt 2>py.err
check "every committed .mix reads in Python with its first line's version ($(wc -l < py.txt) files)" \
	awk '$2 != $3 { bad = 1 } END { exit bad || NR < 10 }' py.txt
declare -A seen=()
nc=0 bad=""
while read -r m v _; do
	[ "${seen[$v]:-0}" -lt 2 ] || continue
	seen[$v]=$(( ${seen[$v]:-0} + 1 ))
	"$ET" report --json "$m" > r.json 2>/dev/null || bad="$bad $(basename "$m")"
	nc=$((nc + 1))
done < py.txt
check "...and in C, two of each version (${!seen[*]}: $nc files)" test -z "$bad" -a "$nc" -ge 4

# ---- the records: each line's fields, spelled once -------------------------------
# mix-format.def's MIX_RECORD lists give every line's fields and their
# types; the C reader (mix-shape.h) and mixfile.py take a line's shape from
# there and name the field that is wrong.
nrec=$(grep -c '^MIX_RECORD(' "$DEF")
expect_eq "mixfile.py reads the records of mix-format.def ($nrec)" \
	"$(cd "$TOP/scripts/lib" && python3 -c 'import mixfile; print(len(mixfile.RECORDS))')" "$nrec"
check "...some 30 of them (a list the search below would find empty)" test "$nrec" -ge 30
# no reader picks a field by its place on the line: C by MIX_POS, Python by name
hits=$(grep -nE 'tok\[[1-9][0-9]?\]|IS\("' "$TOP/analyzer/lib/mix.c" || true)
check "mix.c takes no field by a token number (${hits:-none})" test -z "$hits"
hits=$(sed -n '/def _line/,/def clean/p' "$TOP/scripts/lib/mixfile.py" | grep -nE '\bt\[[2-9]' || true)
check "mixfile.py takes no field by a token number (${hits:-none})" test -z "$hits"
check "...the search read mixfile.py's line reader" grep -q 'def _line' "$TOP/scripts/lib/mixfile.py"

# the same damage, named the same way by both readers, through the real format
G=$(ls "$DATA"/mix-*-7.2-entrytrace-*.mix.gz | head -1)
zcat "$G" | sed '1d;$d' > body.txt
plant() {	# plant NAME SED-EXPR [VERSION-LINE]: a version 2 file with its CRC
	(cd "$TOP/scripts/lib" && python3 -c '
import sys, mixfile
lines = open(sys.argv[2]).read().rstrip("\n").split("\n")
mixfile.write(sys.argv[1], [sys.argv[3]] + lines)' "$OLDPWD/$1" "$OLDPWD/$1.txt" "${3:-entrytrace-mix 2}")
}
mixpy() { (cd "$TOP/scripts/lib" && python3 -c '
import sys, mixfile
try:
    mixfile.Mix(sys.argv[1])
except mixfile.MixError as e:
    print(e); sys.exit(3)' "$OLDPWD/$1"); }
sed '0,/^stat /s/^\(stat [^ ]* [^ ]*\) .*/\1 5/' body.txt > short.mix.txt; plant short.mix
expect_exit "C: a stat line of 3 fields is refused" 3 "$ET" report short.mix
check "...naming the record's fields" grep -q 'short.mix line [0-9]*: malformed stat line: 3 fields after its word, not 9 (name account n runs sum min p50 mean max)' <("$ET" report short.mix 2>&1)
check "...and so does mixfile.py" grep -q 'malformed stat line (3 fields after its word, not 9)' <(mixpy short.mix)
sed '0,/^stat /s/^\(stat [^ ]* [^ ]* [^ ]* [^ ]* [^ ]* [^ ]*\) [^ ]*/\1 x/' body.txt > p50.mix.txt; plant p50.mix
check "C: a p50 that is no number is named" grep -q "malformed stat line: its p50 'x' is not an unsigned number" <("$ET" report p50.mix 2>&1)
check "...and refused by mixfile.py" grep -q 'malformed stat line' <(mixpy p50.mix)
awk '{ print } /^at / && !d { print "cstat getppid whole 1 1 1 1 1 1 1 1 1"; d = 1 }' body.txt > v2c.mix.txt; plant v2c.mix
check "C: a version 3 line in a version 2 file is refused" grep -q 'a cstat line in a version 2 file (version 3 on)' <("$ET" report v2c.mix 2>&1)
check "...and by mixfile.py" grep -q 'a cstat line in a version 2 file (version 3 on)' <(mixpy v2c.mix)
sed '0,/^insn /s/^\(insn [0-9]*\) 0x\([0-9a-f]*\)/\1 \2/' body.txt > hex.mix.txt; plant hex.mix
check "C: an insn address without its 0x is named" grep -q "malformed insn line: its addr '[0-9a-f]*' is not 0x and hexadecimal digits" <("$ET" report hex.mix 2>&1)
check "...and refused by mixfile.py" grep -q 'malformed insn line' <(mixpy hex.mix)
cp body.txt same.mix.txt; plant same.mix
check "...the same body, planted the same way, reads" bash -c '"$ET" report same.mix >/dev/null'
check "...in mixfile.py too" mixpy same.mix

# ---- the writer: every line from the records ---------------------------------
# The plugin writes each line with mix-write.h's mix_put(), made from the
# same lists: no writer of .mix lines (the plugin; annotate's kernel and
# src lines) spells a record's word and fields in a format of its own.
# (sitefile.c reads the site file, whose words are its own.)
words=$(sed -n 's/^MIX_RECORD([A-Z_0-9]*, \([a-z_0-9]*\),.*/\1/p' "$DEF" | paste -sd'|')
pat="\"($words) (%|[^\"]*\\\\n\")"
check "the search finds a line written by hand (fprintf(f, \"stat %s ...\"))" \
	grep -qE "$pat" <<<'	fprintf(f, "stat %s %s %zu %" PRIu64 "\n", a, b, n, v);'
writers=$(ls "$TOP"/analyzer/qemu-plugin/*.c "$TOP"/analyzer/lib/mix_annotate.c | grep -v '/sitefile\.c$')
hits=$(grep -nE "$pat" $writers || true)
check "no writer of $(echo "$writers" | wc -l) sources spells a line's record (${hits:-none})" test -z "$hits"
check "...the plugin writes through mix_put (output.c)" grep -q 'mix_put(f, STAT,' "$TOP/analyzer/qemu-plugin/output.c"
# and the writer writes what the plugin wrote by hand: every line of every
# committed .mix, read as its record's fields and written again, is the same
nf=0 bad="" recs=0
for m in "$DATA"/*.mix.gz "$DATA"/*/*.mix.gz; do
	[ -f "$m" ] || continue
	nf=$((nf + 1))
	out=$(zcat "$m" | "$SAN/tests/mix-rewrite" "$(basename "$m")") || { bad="$bad $(basename "$m")"; echo "$out" | sed -n 1,6p; }
	r=$(echo "$out" | awk '$1 == "records" { print $2 }')
	[ "${r:-0}" -le "$recs" ] || recs=$r
done
check "every line of $nf committed .mix files is written again byte for byte (${bad:-all})" \
	test -z "$bad" -a "$nf" -ge 100
check "...the richest file has $recs of the $(echo "$words" | tr '|' '\n' | wc -l) records" test "$recs" -ge 28
# one line changed is found
zcat "$G" | sed '0,/^stat /s/^\(stat .*\) \([0-9]*\)\.\([0-9]\)\( [0-9]*\)$/\1 \2.\30\4/' > twodec.mix
check "...and a mean written with two decimals is not (mix-rewrite exits 1)" \
	bash -c '! "$SAN/tests/mix-rewrite" twodec.mix < twodec.mix >/dev/null'
