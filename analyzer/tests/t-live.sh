# SPDX-License-Identifier: GPL-2.0
# Record the workload on this host now (scripts/host/record-host: trace-cmd in a
# private mount namespace) and check the report against what it did.
. "$(dirname "$0")/lib.sh"

wl=$(sysloop) || { _fail "building sysloop"; exit 0; }
n=$((500 + RANDOM % 500))	# a count no fixture has
if ! out=$("$TOP/scripts/host/record-host" -o live.dat -- "$wl" -n "$n" -o expect.txt \
	getppid kill0 killsig seccomp 2>&1); then
	_fail "record-host failed: $(printf '%s' "$out" | tail -3)"
	exit 0
fi
_pass "recorded $(stat -c %s live.dat) bytes live"
pid=$(awk 'NR == 1 { sub("pid=", "", $5); print $5 }' expect.txt)
"$ET" report --json -p "$pid" live.dat > r.json
expect_eq "getppid: $n loop + $n under seccomp" "$(cell r.json getppid total count)" "$(expected getppid expect.txt)"
expect_eq "kill: kill0 + killsig" "$(cell r.json kill total count)" "$(expected kill expect.txt)"
expect_eq "rt_sigreturn" "$(cell r.json rt_sigreturn total count)" "$(expected rt_sigreturn expect.txt)"
expect_eq "signal deliveries" "$(cell r.json kill signal_exit count)" "$n"
expect_eq "the workload's timelines are all complete" \
	"$(jget r.json "d['files'][0]['syscalls']['excluded']['lost']")" 0
check "no ASan/UBSan finding on a live trace" "$ET" report --by-work --show-excluded live.dat
