# SPDX-License-Identifier: GPL-2.0
# Exact checks of the histogram and the stage vocabulary (analyzer/tests/unit.c).
. "$(dirname "$0")/lib.sh"

tap "$SAN/tests/unit"

# The analyzer's stage list is stages.def, in order: nothing kept twice.
grep -oE '^ENTRY_STAGE(_DERIVED)?\([A-Z_0-9]+, [a-z_0-9]+' "$TOP/tracepoints/stages.def" |
	awk -F', ' '{ print $2 }' > def.txt
"$ET" report --stages | awk '/^bit +work/ { exit } NR > 1 && $1 ~ /^[0-9]+$/ { print $2 }' > cli.txt
check "report --stages lists stages.def's stages in its order" cmp def.txt cli.txt
