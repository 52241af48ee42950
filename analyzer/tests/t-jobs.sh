# SPDX-License-Identifier: GPL-2.0
# Reading with several threads (readers decoding shares of the CPUs, merged
# on the calling thread) must give exactly the report one thread gives, lost
# events and excluded syscalls included; and the two readers of a file -
# entrytrace's own page reader and libtracecmd - must give the same.
# weight: 37
. "$(dirname "$0")/lib.sh"

# The fixtures read: with ET_FULL=1 (make check-full) every committed
# recording; otherwise one of each kind - recording machine (host or a guest
# arch) x what it holds (stage, compact, bench or another workload) - and
# the ones named for what only they have (lost events, the largest).
fixtures() {
	if [ -n "${ET_FULL:-}" ]; then
		ls "$DATA"/*.dat
		return
	fi
	ls "$DATA"/*.dat | awk -F/ '{
		f = $NF; m = f; sub(/-.*/, "", m)
		k = "other"
		if (f ~ /-(stage|compact|bench)\.dat$/) { k = f; sub(/\.dat$/, "", k); sub(/.*-/, "", k) }
		if (!seen[m " " k]++ || f ~ /^host-lost\.dat$|debian-stress/)
			print
	}'
}
FIXTURES=$(fixtures)
echo "# $(echo "$FIXTURES" | wc -l) of $(ls "$DATA"/*.dat | wc -l) recordings (ET_FULL=1: all)"
check "fixtures to read ($(echo "$FIXTURES" | wc -l))" test -n "$FIXTURES"

for f in $FIXTURES; do
	"$ET" report -j1 --json --show-excluded --by-work "$f" > one.json
	for j in 2 3 8; do
		"$ET" report -j$j --json --show-excluded --by-work "$f" > many.json
		check "$(basename "$f"): -j$j = -j1" cmp one.json many.json
	done
done
# compressed and uncompressed, v6 and v7: each reader decompresses its CPUs
trace-cmd convert --file-version 6 --compression none -i "$DATA/host-lost.dat" -o v6.dat >/dev/null 2>&1
"$ET" report -j1 --json v6.dat > a.json
"$ET" report -j2 --json v6.dat > b.json
check "v6 uncompressed: -j2 = -j1" cmp a.json b.json
expect_exit "-j0 is a usage error" 2 "$ET" report -j0 "$DATA/host-lost.dat"

# Two readers of the same bytes: entrytrace's own page reader (v7 files)
# and libtracecmd's (ENTRYTRACE_READER=libtracecmd; what v6 files get).
# Same records, same report, on every fixture, with one thread and many.
n=0
for f in $FIXTURES; do
	reader=$(ENTRYTRACE_DEBUG=1 "$ET" report -j1 --json "$f" 2>&1 >/dev/null |
		 grep -o 'reading the pages directly\|reading through libtracecmd' | head -1)
	[ "$reader" = "reading the pages directly" ] || continue
	n=$((n + 1))
	"$ET" report -j1 --json --show-excluded --by-work "$f" > direct.json 2>/dev/null
	ENTRYTRACE_READER=libtracecmd "$ET" report -j1 --json --show-excluded --by-work "$f" \
		> lib.json 2>/dev/null
	check "$(basename "$f"): the page reader gives libtracecmd's report" cmp direct.json lib.json
	ENTRYTRACE_READER=libtracecmd "$ET" report -j3 --json --show-excluded --by-work "$f" \
		> lib3.json 2>/dev/null
	check "$(basename "$f"): ...and so do three threads through libtracecmd" cmp direct.json lib3.json
done
check "the page reader read fixtures ($n)" test "$n" -gt 0
check "v6 goes through libtracecmd" sh -c \
	"ENTRYTRACE_DEBUG=1 '$ET' report v6.dat 2>&1 >/dev/null | grep -q 'reading through libtracecmd: file version 6'"
# the threads chosen: one for a small trace, with the same result
"$ET" report --json --show-excluded --by-work "$DATA/host-lost.dat" > auto.json
"$ET" report -j1 --json --show-excluded --by-work "$DATA/host-lost.dat" > one.json
check "no -j (the library's choice) = -j1" cmp auto.json one.json
