# SPDX-License-Identifier: GPL-2.0
# Reading with several threads (each its own libtracecmd handle, merged by
# timestamp) must give exactly the report one thread gives, lost events and
# excluded syscalls included.
. "$(dirname "$0")/lib.sh"

for f in "$DATA"/*.dat; do
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
