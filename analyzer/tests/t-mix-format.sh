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
