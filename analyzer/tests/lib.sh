# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by every analyzer/tests/t-*.sh.  A check prints one
# "ok"/"not ok" line and appends pass/fail to $RESULTS.

_pass() { echo "ok - $TEST: $1"; echo pass >> "$RESULTS"; }
_fail() { echo "not ok - $TEST: $1"; echo fail >> "$RESULTS"; }

# check DESC CMD...: passes when CMD exits 0
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		_pass "$desc"
	else
		_fail "$desc"
		printf '%s\n' "$out" | tail -20 | sed 's/^/#   /'
	fi
	[ "$VERBOSE" = 1 ] && printf '%s\n' "$out" | sed 's/^/#   /'
	return 0
}

# expect_eq DESC ACTUAL EXPECTED
expect_eq() {
	if [ "$2" == "$3" ]; then
		_pass "$1 ($2)"
	else
		_fail "$1: got '$2', expected '$3'"
	fi
}

# expect_exit DESC CODE CMD...: CMD must exit with CODE and say why on stderr
expect_exit() {
	local desc=$1 code=$2 rc err
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = "$code" ] && [ -n "$err" ]; then
		_pass "$desc (exit $rc: $(printf '%s' "$err" | head -1 | cut -c1-100))"
	else
		_fail "$desc: exit $rc, expected $code; stderr: $(printf '%s' "$err" | head -3)"
	fi
}

# jq-like: jget FILE PYEXPR, with the parsed JSON as d
jget() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
v=eval(sys.argv[2])
print(v)' "$1" "$2"
}

# cell FILE SYSCALL STAGE FIELD: one statistic of one syscall x stage
cell() {
	jget "$1" "sum(c['$4'] for c in d['cells'] if c['syscall']=='$2' and c['stage']=='$3')"
}

# dchange FIELD WORK FILE SYSCALL STAGE...: "STAGE+N ..." each stage's FIELD
# (d_median, d_mean) in a diff --json, rounded, of the syscalls of path
# signature WORK; dmedians and dmeans name the field for the syscalls that
# return straight (work '-')
dchange() {
	local k=$1 w=$2 f=$3 sc=$4
	shift 4
	jget "$f" "' '.join('%s%+.0f' % (st, [x for x in d['cells'] if x['syscall'] == '$sc' and x['work'] == '$w' and x['stage'] == st][0]['$k']) for st in '$*'.split())"
}
dmedians() { dchange d_median - "$@"; }
dmeans() { dchange d_mean - "$@"; }

# expected SYSCALL [FILE.expect]: what the workload said it did
expected() {
	awk -v s="$1" '$3 == s { n += $4 } END { print n + 0 }' "$2"
}

# mode_pid MODE FILE.expect: the pid of the task a sysloop mode ran in
mode_pid() { awk -v m="$1" '$2 == m { sub("pid=", "", $5); print $5; exit }' "$2"; }

# poke_record OUT IN SYSTEM:EVENT FIELD N VALUE: OUT, a copy of the
# uncompressed recording IN with FIELD of its N-th SYSTEM:EVENT record set to
# VALUE (little-endian, the field's size; trace-records finds the bytes)
poke_record() {
	local at size
	read -r _ at size _ <<< "$("$SAN/tests/trace-records" "$2" "$3" "$4" | sed -n "$5p")"
	python3 -c "
import sys; d = bytearray(open('$2', 'rb').read())
d[$at:$at + $size] = int('$6').to_bytes($size, 'little'); open('$1', 'wb').write(d)"
}

# The kernel bases and architectures (scripts/lib/bases); the newest base,
# the one the tests read most fixtures of; the generic-entry bases and the
# oldest legacy one (the seed pair is LEGACY against NEWEST); CONVERSION,
# the first generic base, is where powerpc moved to generic entry (the
# reporters' kernel).  A test that
# asserts one recording's own figures names it through these, so that the
# kernels it speaks of are the list's; a property of every kernel loops
# over the recordings that exist.
. "$TOP/scripts/lib/bases.sh"
BASES=$(et_bases) ARCHES32=$(et_arches32) NEWEST=$(et_newest_base)
GENERIC=$(et_bases_of generic) LEGACY=$(et_bases_of legacy)
LEGACY=${LEGACY%% *} CONVERSION=${GENERIC%% *}
# SAMETREE: CONVERSION's tree with the conversion taken out (the powerpc
# variant of scripts/lib/bases whose base is CONVERSION: 7.2-legacy), the
# same-tree A/B of the conversion alone
SAMETREE=$(for v in $(et_variants); do [ "$(et_variant "$v" base)" = "$CONVERSION" ] && echo "$v"; done | head -n1)

# The workload, built once per run.
sysloop() {
	make -s -C "$TOP" build/sysloop >/dev/null && echo "$TOP/build/sysloop"
}

# tap CMD...: run a program that prints ok/not ok lines, count each one
tap() {
	local out rc line
	out=$("$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) _pass "${line#ok - }" ;;
		"not ok - "*) _fail "${line#not ok - }" ;;
		*) echo "#   $line" ;;
		esac
	done <<< "$out"
	[ $rc -eq 0 ] || _fail "$1 exited $rc"
}

# the QEMU plugin's tests: FQ (the replayer standing in for QEMU), PL (the
# plugin, ASan build) and MC (mix-check); returns 1 (a failed check made)
# when make san has not built them
plugin_tools() {
	FQ=$SAN/fakeqemu
	PL=$SAN/entrytrace-mix.so
	MC=$TOP/scripts/host/mix-check
	[ -x "$FQ" ] && [ -f "$PL" ] && return 0
	_fail "$FQ or $PL missing: run make san"
	return 1
}
