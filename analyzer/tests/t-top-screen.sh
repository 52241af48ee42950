# SPDX-License-Identifier: GPL-2.0
# entrytrace top on a terminal (tmux, capture-pane) at 80x24 and 160x40: the
# screen fits, the busiest syscalls first, the keys sort, filter, expand and
# quit.  The workload: two loops of this host's syscalls (getppid, kill)
# and ls in a loop (many kinds of syscall, more than a screen holds), run
# under top as its command.  Each is paced (sysloop -u: 0.2 ms of user time
# before each syscall; ls twice a second) and niced: unpaced, the two
# loops made ~1 million events a second, the kernel overwrote all but what
# the last timeslice wrote, and which loop was on the screen was chance (a
# third of the runs without kill on a loaded host).  After a key the test
# waits for the screen to show what the key does (up to 10 s), not a fixed
# half second that a loaded host overran.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || { _fail "tmux missing: run scripts/setup --tests"; exit 0; }
wl=$PWD/toploop	# a name of its own, to find what is left running
cp "$(sysloop)" "$wl"
sock=$PWD/tmux.sock
t() { tmux -S "$sock" "$@"; }
# screen W H: start top in a W x H terminal; wait for its third table
screen() {
	t kill-server 2>/dev/null
	t new-session -d -s top -x "$1" -y "$2" \
		"'$ET' top -d 0.3 -- nice -n 10 sh -c '$wl -u 200000 -n 100000000 -o /dev/null getppid & $wl -u 200000 -n 100000000 -o /dev/null kill0 & while :; do ls / > /dev/null; sleep 0.5; done'; echo EXIT=\$? > '$PWD/top.rc'; sleep 60"
	await third_table_both_loops
}
rows() { awk '$1 ~ /^[a-z_0-9]+$/ && $2 ~ /^[0-9.]+[MG]?$/' cap.txt; }
third_table_both_loops() {
	grep -q 'table [3-9]' cap.txt &&
		[ "$(rows | awk '$1 == "kill" || $1 == "getppid"' | wc -l)" = 2 ]
}
# await CMD...: capture the screen until CMD holds on it (10 s at most)
await() {
	for _ in $(seq 100); do
		t capture-pane -t top -p > cap.txt
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

for size in 80x24 160x40; do
	w=${size%x*} h=${size#*x}
	rm -f top.rc
	# a server of its own per size: one started on the socket of a server
	# still shutting down went with it under load (fresh-clone make check,
	# two tests at a time: "no server running" at 160x40)
	t kill-server 2>/dev/null
	sock=$PWD/tmux-$size.sock
	screen "$w" "$h"
	check "$size: the first line is top's header (table 3 or later)" grep -q '^entrytrace top .* table [3-9]' <(head -1 cap.txt)
	expect_eq "$size: no line wider than the terminal" "$(awk -v w="$w" 'length > w { n++ } END { print n + 0 }' cap.txt)" 0
	check "$size: nothing scrolled off: the column names on line 4" test "$(sed -n '4p' cap.txt | awk '{ print $1 }')" = syscall
	if grep -q '^([0-9]* more syscalls below' cap.txt; then
		expect_eq "$size: as many rows as fit: all $((h - 1)) lines used, the last one empty" "$(grep -c . cap.txt)" $((h - 1))
	else
		expect_eq "$size: every syscall fits: one line each after the four" "$(grep -c . cap.txt)" $(( $(rows | wc -l) + 4 ))
	fi
	expect_eq "$size: kill and getppid are on the screen" \
		"$(rows | awk '$1 == "kill" || $1 == "getppid" { print $1 }' | sort | tr '\n' ' ')" "getppid kill "
	check "$size: rows by their share of the time, largest first" \
		awk '$1 ~ /^[a-z_0-9]+$/ && $2 ~ /^[0-9.]+[MG]?$/ { v = $0; sub(/%.*/, "", v); n = split(v, a, " "); p = a[n] + 0; if (seen && p > last + 0.05) exit 1; last = p; seen = 1 }' cap.txt
	[ "$w" -lt 100 ] && check "$size: more syscalls than rows: the last line says how many did not fit" \
		grep -q '^([0-9]* more syscalls below' cap.txt
	check "$size: the header names the keys" grep -q 'q quit  s sort  f filter  x stages  d delta' cap.txt
	# the header fits whole: items left out or in short form, never cut
	check "$size: line 2 holds whole items (syscalls and tasks, dropped, overwritten)" \
		grep -Eq '^[0-9]+ syscalls(, | by )[0-9]+ tasks; [0-9]+ dropped( at deadlines)?; [0-9]+ overwr(\.|itten)(; (events )?[0-9.]+[MG]? read)?$' <(sed -n 2p cap.txt)
	check "$size: line 1 ends in the target, whole or marked as cut (~)" \
		sh -c "sed -n 1p cap.txt | grep -Eq '(and its children|~)\$'"
	check "$size: the column names fit whole (stages' heading too)" \
		sh -c "sed -n 4p cap.txt | grep -Eq 'time%  stages( \(share of the syscall\))?\$'"
	if [ "$w" -ge 130 ]; then
		check "$size: the wide columns (/s, p90, max, stddev)" grep -q '^syscall  *calls  */s  *mean  *p50  *p90  *p99  *max  *stddev  *time%' cap.txt
	else
		check "$size: the narrow columns (no /s, p90, max)" grep -q '^syscall  *calls  *mean  *p50  *p99  *time%' cap.txt
	fi
	t send-keys -t top s
	await grep -q '^sort count ' cap.txt
	check "$size: s sorts by calls" grep -q '^sort count ' cap.txt
	# the rows of the first table drawn after the key may be the last
	# sort's (a fresh clone's make check saw it once, beside another
	# test): wait up to 10 s for a table in the new order, then judge it
	by_calls() {
		sh -c "rows() { awk '\$1 ~ /^[a-z_0-9]+\$/ && \$2 ~ /^[0-9.]+[MG]?\$/' cap.txt; }; rows | head -1 | grep -Eq '^(getppid|kill) ' &&
		       rows | awk '{ v = \$2; m = v ~ /M\$/ ? 1e6 : v ~ /G\$/ ? 1e9 : 1; v = v * m; if (NR > 1 && v > last * 1.05) exit 1; last = v }'"
	}
	await by_calls
	check "$size: ...a loop (getppid or kill) first, then calls descending" by_calls
	t send-keys -t top f k i l Enter
	await grep -q '^sort count  filter kil ' cap.txt
	expect_eq "$size: f kil Enter: only kill is left" "$(rows | awk '{ print $1 }' | tr '\n' ' ')" "kill "
	t send-keys -t top x
	await grep -q '^ user_gap ' cap.txt
	check "$size: x shows kill's stages under it, indented" grep -q '^ user_gap ' cap.txt
	t send-keys -t top q
	for _ in $(seq 50); do [ -s top.rc ] && break; sleep 0.1; done
	expect_eq "$size: q quits, exit 0" "$(cat top.rc 2>/dev/null)" EXIT=0
	for _ in $(seq 30); do ps -C toploop -o stat= | grep -qv Z || break; sleep 0.1; done
	check "$size: ...and ends the command it started, children too ($(ps -C toploop -o pid=,stat= | tr '\n' ' '))" \
		sh -c '! ps -C toploop -o stat= | grep -qv Z'
done
t kill-server 2>/dev/null
pkill -x toploop 2>/dev/null
exit 0
