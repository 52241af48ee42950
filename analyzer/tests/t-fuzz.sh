# SPDX-License-Identifier: GPL-2.0
# Robustness: every input the fuzzer found that crashes the distro libraries
# is a documented status, never a signal: a clean one-line exit 3, or - where
# entrytrace reads the pages itself and so never reaches the library's crash -
# a report whose header says what could not be read, exit 8; and a bounded
# fuzz run finds nothing of ours.
# weight: 115
. "$(dirname "$0")/lib.sh"

# What the release build does with each: a documented status, never a
# signal; exit 3 says so in one line and prints no report.
found=0
for f in "$DATA"/fuzz/*.dat; do
	[ -e "$f" ] || continue
	found=$((found + 1))
	n=$(basename "$f" .dat)
	rc=0
	err=$("$TOP/analyzer/entrytrace" report "$f" 2>&1 >out.txt) || rc=$?
	case "$rc" in
	3)	check "$n: exit 3 in one line, no report" \
			sh -c "[ \$(printf '%s\n' \"\$1\" | grep -c .) -eq 1 ] && [ ! -s out.txt ]" _ "$err" ;;
	0)	check "$n: exit 0 with a whole report (the library's error missed what entrytrace reads)" \
			grep -q '^syscall  *stage' out.txt ;;
	4)	_pass "$n: exit 4, nothing to report" ;;
	8)	check "$n: exit 8 with a report whose header says where the data breaks off" \
			grep -q '^DAMAGED: ' out.txt ;;
	*)	_fail "$n: exit $rc: $err" ;;
	esac
done
check "the fuzzer's regression inputs are committed ($found)" test "$found" -gt 0

# A bounded run (make fuzz runs 30 minutes).
if out=$("$TOP/scripts/host/fuzz" -t "${ET_FUZZ_SECONDS:-60}" 2>&1); then
	_pass "fuzz ${ET_FUZZ_SECONDS:-60} s: $(printf '%s\n' "$out" | tail -1)"
else
	_fail "fuzz: $(printf '%s\n' "$out" | tail -5)"
fi
