# SPDX-License-Identifier: GPL-2.0
# The public interface: analyzer/include/entrytrace.h alone is enough to
# build a report (the program is compiled with no other analyzer header in
# reach and run against libentrytrace.so), the report equals entrytrace's,
# and the .so exports exactly what the header declares.  The getters that
# left the header for the private tier while no program calls them
# (issue 49) are checked the same way through private-api, which is
# linked with the library's objects.
. "$(dirname "$0")/lib.sh"

make -s -C "$TOP" build/libentrytrace.so >/dev/null
so=$TOP/build/libentrytrace.so
check "libentrytrace.so builds" test -s "$so"

# exported symbols against the header's declarations
nm -D --defined-only "$so" | awk '{ print $3 }' | sort > exported.txt
grep -o '^[a-z][a-z_ 0-9*]*[ *]et_[a-z_0-9]*(' "$TOP/analyzer/include/entrytrace.h" |
	grep -o 'et_[a-z_0-9]*(' | tr -d '(' | sort > declared.txt
check "the header declares functions ($(wc -l < declared.txt))" test -s declared.txt
check "the .so exports exactly the header's functions ($(wc -l < exported.txt) exported)" \
	cmp declared.txt exported.txt
check "nothing private leaks: no et_stages table, no decoder, no walker exported" \
	sh -c "! grep -qE '^(et_stages|et_decode|et_walk_|et_cpu_reader|tl_)' exported.txt"

# a program on the public header only
check "public-api.c builds with only analyzer/include and tracepoints/ in reach" \
	gcc -std=c11 -Wall -Wextra -Werror -I"$TOP/analyzer/include" -I"$TOP/tracepoints" \
		-o public-api "$TOP/analyzer/tests/public-api.c" "$so" -Wl,-rpath,"$TOP/build"

PRIV=$SAN/tests/private-api
check "private-api is built (make san)" test -x "$PRIV"
check "... and the .so exports none of the getters it calls beyond the header" \
	sh -c "! grep -qE '^et_(trace_(path|uname|clock|damaged|lost_[a-z_]*)|event_[a-z]*|group_[a-z]*|hist_(alloc|min|max)|syscall_(ret|comm|tgid|overlay))\$' exported.txt"

# val FILE KEY: the rest of public-api's (private-api's) "KEY ..." line in FILE
val() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$1"; }
v() { val pub.txt "$1"; }
w() { val priv.txt "$1"; }

for f in "$DATA"/host-kill-getppid.dat "$DATA"/host-lost.dat; do
	b=$(basename "$f" .dat)
	./public-api "$f" > pub.txt 2>&1 || { _fail "$b: public-api ran"; continue; }
	"$PRIV" "$f" > priv.txt 2>&1 || { _fail "$b: private-api ran"; continue; }
	"$ET" report --json "$f" > r.json 2>/dev/null
	expect_eq "$b: records through the public API = report's" "$(v records)" \
		"$(jget r.json "d['files'][0]['records']")"
	expect_eq "$b: syscalls seen = report's" "$(v seen)" \
		"$(jget r.json "d['files'][0]['syscalls']['seen']")"
	expect_eq "$b: syscalls in the table = report's" "$(v table)" \
		"$(jget r.json "d['syscalls']")"
	expect_eq "$b: et_trace_lost_events = report's lost events" "$(w lost_events)" \
		"$(jget r.json "d['files'][0]['lost_events']")"
	# every cell's count, total, p50 (and, through et_hist_max, max), in report's order
	awk '$1 == "cell" { print $2, $3, $4, $5, $6 }' pub.txt > cells-pub.txt
	awk '$1 == "cell" { print $2, $3, $4, $5, $6, $7 }' priv.txt > cells-priv.txt
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for c in d["cells"]: print(c["syscall"], c["stage"], c["count"], c["total"], c["p50"], c["max"])' \
		r.json > cells-report.txt
	check "$b: every cell ($(wc -l < cells-pub.txt)) equals report's, in its order" \
		cmp cells-pub.txt <(cut -d' ' -f1-5 cells-report.txt)
	check "$b: ... and et_hist_max of each is report's max" cmp cells-priv.txt cells-report.txt
	expect_eq "$b: the slowest total = list --slowest=1's" "$(v slowest)" \
		"$("$ET" list --slowest=1 "$f" 2>/dev/null | grep -o ' total [0-9]*' | awk '{ print $2 }')"
done

# The getters the CLI does not call (issue 23: test or remove every public
# function; issue 49: private while no program calls them), each against
# what report --json, list, report --stages or trace-cmd print of the same
# file.
F=$DATA/host-kill-getppid.dat
./public-api "$F" > pub.txt 2>&1 || _fail "public-api ran on $(basename "$F")"
"$PRIV" "$F" > priv.txt 2>&1 || _fail "private-api ran on $(basename "$F")"
"$ET" report --json "$F" > r.json 2>/dev/null
f0() { jget r.json "d['files'][0]['$1']"; }
expect_eq "et_trace_path = report's path" "$(w path)" "$(f0 path)"
expect_eq "et_trace_uname = report's uname" "$(w uname)" "$(f0 uname)"
expect_eq "et_trace_clock = report's clock" "$(w clock)" "$(f0 clock)"
expect_eq "et_trace_file_version = report's" "$(w file_version)" "$(f0 file_version)"
expect_eq "et_trace_compression = report's" "$(w compression)" "$(f0 compression)"
# ET_HAVE_* bits from the families report names
want=$(python3 -c 'import json,sys
bits = {"raw_syscalls": 0x1, "context_tracking": 0x2, "signal_deliver": 0x4, "rseq_update": 0x8,
        "sched_switch": 0x10, "irq": 0x20, "entry_stage_time": 0x40, "entry_stage_summary": 0x80,
        "sched_process_*": 0x100}
p = json.load(open(sys.argv[1]))["files"][0]["events_present"]
print(hex(sum(bits[x.strip()] for x in p.split(","))))' r.json)
expect_eq "et_trace_present = the event families report names" "$(w present)" "$want"
expect_eq "et_trace_entry_path: a stock recording is path S" "$(w entry_path)" 0x4
# the slowest syscall's getters, as 'list --slowest=1' prints it:
#   COMM-PID [CPU] SECONDS: NAME(NR) = RET  total NS ...
"$ET" list --slowest=1 "$F" 2>/dev/null | head -n1 > slow.txt
read -r comm pid tgid cpu_in cpu_out nr ret start overlays <<<"$(w slowest_sc)"
want=$(sed -E 's/^ *(.+)-([0-9]+) \[0*([0-9]+)\] ([0-9]+)\.([0-9]+): [a-z_0-9]+\(([0-9]+)\) = (-?[0-9]+).*/\1 \2 \3 \4\5 \6 \7/' slow.txt)
expect_eq "et_syscall_comm/pid/cpu_enter/start/nr/ret = list --slowest=1's" \
	"$comm $pid $cpu_in $start $nr $ret" "$want"
check "et_syscall_tgid is the pid or -1 (single-threaded sysloop: $tgid)" \
	sh -c "[ '$tgid' = '$pid' ] || [ '$tgid' = -1 ]"
check "et_syscall_cpu_exit is one of the trace's CPUs ($cpu_out of $(v cpus))" \
	sh -c "[ '$cpu_out' -ge 0 ] && [ '$cpu_out' -lt '$(v cpus)' ]"
# (host-edges.dat: a stock recording with switches and interrupts in syscalls)
read -r nov badov <<<"$("$PRIV" "$DATA/host-edges.dat" 2>/dev/null | awk '$1 == "overlays" { print $2, $3 }')"
check "et_syscall_nr_overlays/et_syscall_overlay: host-edges' $nov intervals switched out or interrupted, each inside its syscall" \
	sh -c "[ '${nov:-0}' -gt 0 ] && [ '$badov' = 0 ]"
expect_eq "public-api: one total per syscall in the table" "$(v totals)" "$(v table)"
read -r tcount tmax <<<"$(w totals)"
expect_eq "et_hist_alloc/add/free: one total per syscall in the table" "$tcount" "$(v table)"
expect_eq "... and its max is the slowest syscall's" "$tmax" "$(v slowest)"
# per-pid groups: et_stats_nr_groups, et_stats_group_at, et_group_*
awk '$1 == "group" { print $2, $3, $4, $5, $6 }' priv.txt | sort > groups-pub.txt
python3 -c 'import json,sys
for g in json.load(open(sys.argv[1]))["breakdown"]["pid"]:
    print(g["syscall"], g["pid"], g["comm"], g["count"], g["total"])' r.json | sort > groups-report.txt
check "et_stats_group_at by pid: every group ($(wc -l < groups-pub.txt)) = report's pid breakdown" \
	cmp groups-pub.txt groups-report.txt
check "... and there are groups to compare" test -s groups-pub.txt
# events by CPU (et_event_cpu) against trace-cmd's own report of the file
trace-cmd report -i "$F" 2>/dev/null | awk 'match($0, /\[[0-9]+\]/) { c[substr($0, RSTART + 1, RLENGTH - 2) + 0]++ }
	END { for (k in c) print k, c[k] }' | sort > cpu-tc.txt
awk '$1 == "events_cpu" && $3 > 0 { print $2, $3 }' priv.txt | sort > cpu-pub.txt
check "et_event_cpu: events per CPU = trace-cmd report's ($(tr '\n' ' ' < cpu-pub.txt))" cmp cpu-pub.txt cpu-tc.txt
expect_eq "et_event_pid: no event without a pid (no events lost here)" "$(w events_nopid)" 0
# the stage and path-signature tables against report --stages
"$ET" report --stages > stages.txt
awk '/^bit +work/ { exit } NR > 1 && $1 ~ /^[0-9]+$/ { d = ""; for (i = 7; i <= NF; i++) d = d (i > 7 ? " " : "") $i
	print $1, $2, ($6 == "-" ? "" : $6), d }' stages.txt > st-cli.txt
awk '$1 == "stage" { d = ""; for (i = 5; i <= NF; i++) d = d (i > 5 ? " " : "") $i; print $2, $3, $4, d }' pub.txt > st-pub.txt
check "et_stage_paths/et_stage_desc = report --stages ($(wc -l < st-pub.txt) stages)" cmp st-pub.txt st-cli.txt
expect_eq "et_stage_kernel_count = report --stages' kernel stages" "$(w kernel_stages)" \
	"$(awk '/^bit +work/ { exit } NR > 1 && $1 ~ /^[0-9]+$/ && $4 != "derived"' stages.txt | wc -l)"
awk '/^bit +work/ { w = 1; next } w && NF { d = ""; for (i = 3; i <= NF; i++) d = d (i > 3 ? " " : "") $i; print $1, $2, d }' \
	stages.txt > work-cli.txt
awk '$1 == "work" { d = ""; for (i = 4; i <= NF; i++) d = d (i > 4 ? " " : "") $i; print $2, $3, d }' pub.txt > work-pub.txt
check "et_work_count/name/desc = report --stages' bits ($(wc -l < work-pub.txt))" cmp work-pub.txt work-cli.txt

# Stage ids are public and stay put (issue 49): the kernel's in stages.def's
# order from 0, the derived ones from 64 whatever the kernel's count.  This
# list is frozen: a stage appended to stages.def needs no line here (it may
# take any id the list does not hold), and a line that no longer holds is an
# ABI break.
cat > ids-frozen.txt <<'EOF'
arch_enter 0
ct_user_exit 1
rcu_eqs_exit 2
kstack_rand 3
irq_on 4
entry_work 5
user_dispatch 6
rseq_slice 7
enter_ptrace 8
seccomp 9
enter_tracepoint 10
enter_audit 11
syscall 12
lsm_task_kill 13
rcu_unlock_slow 14
arch_syscall_exit 15
exit_work 16
exit_audit 17
exit_tracepoint 18
exit_ptrace 19
exit_prepare 20
exit_loop 21
resched 22
uprobe 23
klp 24
signal 25
notify_resume 26
arch_exit_prepare 27
emit 28
ct_user_enter 29
rcu_eqs_enter 30
arch_exit_tail 31
exit_restart 32
arch_syscall_entry 33
total 64
kernel_entry 65
syscall_window 66
kernel_exit 67
signal_exit 68
off_cpu 69
irq 70
user_gap 71
untimed 72
EOF
awk '$1 == "id" { print $2, $3 }' pub.txt > ids.txt
check "the enum keeps every frozen stage id ($(wc -l < ids-frozen.txt) of $(wc -l < ids.txt) stages, derived from $(awk '$1 == "total" { print $2 }' ids.txt))" \
	awk 'NR == FNR { id[$1] = $2; next } !($1 in id) || id[$1] != $2 { print "moved: " $0 " now " ($1 in id ? id[$1] : "gone"); bad = 1 }
		END { exit bad }' ids.txt ids-frozen.txt
check "... and gives no two stages one id" test -z "$(awk '{ print $2 }' ids.txt | sort | uniq -d)"
check "et_stage_by_name gives each stage its enum id" \
	awk '$1 == "id" && $3 != $4 { bad++ } $1 == "id" { n++ } END { exit !(n > 40 && !bad) }' pub.txt
check "et_stage_next walks exactly the enum's ids, in order" \
	cmp <(awk '$1 == "stage" { print $2 }' pub.txt) <(awk '{ print $2 }' ids.txt)
check "et_stage_next walks stages each with a bit of its own from et_stage_bit ($(v stage_walk))" \
	awk '$1 == "stage_walk" { exit !($2 == $4 && $6 == 0 && $8 == 0 && $2 > 40) }' pub.txt
check "et_stage_count = the stages et_stage_next walks ($(w stage_count))" \
	awk '$1 == "stage_count" { exit !($2 == $4 && $4 == $6 && $8 == 0 && $10 == 0 && $2 > 40) }' priv.txt
check "the hole between the kernel's ids and 64 names no stage (ET_STAGE_END $(v id_end | cut -d' ' -f1))" \
	grep -qx 'id_end 73 none_name null' pub.txt

# The rest, on a stage recording (AGG stages, path signatures, stamps).
F=$DATA/x86_64-7.3-stage.dat
"$PRIV" "$F" > pub2.txt 2>&1 || _fail "private-api ran on $(basename "$F")"
"$ET" report --json "$F" > r2.json 2>/dev/null
"$ET" report --by-work --json "$F" > r2w.json 2>/dev/null
awk '$1 == "cellx" { $1 = ""; sub(/^ /, ""); print }' pub2.txt > cellx-pub.txt
python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cells"]:
    ns = lambda s: round(s * 1e9)
    print(c["syscall"], c["stage"], c["work"] or 0, c["occurrences"], c["subtracted_exclusive"],
          c["subtracted_overhead"], c["min"], ns(c["min_at"]), ns(c["max_at"]))' r2.json > cellx-report.txt
check "et_cell_work/occurrences/subtracted_*, et_hist_min/min_ts/max_ts: every cell ($(wc -l < cellx-pub.txt)) = report's" \
	cmp cellx-pub.txt cellx-report.txt
read -r tfirst efirst <<<"$(val pub2.txt first_ts)"
read -r tlast elast <<<"$(val pub2.txt last_ts)"
expect_eq "et_trace_first_ts = the first et_event_ts = report's first_ts" "$tfirst $efirst" \
	"$(jget r2.json "round(d['files'][0]['first_ts'] * 1e9)") $tfirst"
expect_eq "et_trace_last_ts = the last et_event_ts = report's last_ts" "$tlast $elast" \
	"$(jget r2.json "round(d['files'][0]['last_ts'] * 1e9)") $tlast"
expect_eq "et_trace_lost_gaps = report's lost_unknown_gaps" "$(val pub2.txt lost_gaps)" \
	"$(jget r2.json "d['files'][0]['lost_unknown_gaps']")"
expect_eq "et_trace_lost_on_cpu = report's lost_per_cpu" "$(awk '$1 == "lost_cpu" { printf "%s%s", n++ ? "," : "", $3 }' pub2.txt)" \
	"$(jget r2.json "','.join(map(str, d['files'][0]['lost_per_cpu']))")"
expect_eq "et_timeline_excluded(OPEN_START) = report's" "$(val pub2.txt excluded_open_start)" \
	"$(jget r2.json "d['files'][0]['syscalls']['excluded']['open_start']")"
expect_eq "et_syscall_count: AGG occurrences summed = report's AGG cells'" "$(val pub2.txt agg_count)" \
	"$(jget r2.json "sum(c['occurrences'] for c in d['cells'] if c['kind'] == 'agg')")"
names=$(python3 -c 'import sys
bits = int(sys.argv[1], 16)
names = {int(l.split()[1]): l.split()[2] for l in open(sys.argv[2]) if l.startswith("work ")}
print(" ".join(sorted(names[b] for b in names if bits >> b & 1)))' "$(val pub2.txt work_seen)" pub2.txt)
expect_eq "et_syscall_work: the bits seen = the signatures report --by-work splits by" "$names" \
	"$(jget r2w.json "' '.join(sorted({w for c in d['cells'] if c['work'] and c['work'] != '-' for w in c['work'].split('|')}))")"

# lsan.supp suppresses every leak allocated inside scanf (with frame-pointer
# stacks glibc's leak in tracecmd_parse_trace_clock ends there): safe only
# while the analyzer itself never asks scanf to allocate (%ms, %m[, %mc)
# (a call split over lines too: each file is read as one line per statement)
scanf_m='scanf *\([^;]*%[0-9]*m[sc[]'
scanf_alloc() {	# FILE...: the files with a scanf that allocates
	for f in "$@"; do tr '\n' ' ' <"$f" | tr ';' '\n' | grep -qE "$scanf_m" && echo "${f#"$TOP"/}"; done
}
printf '%s\n' '	sscanf(v, "%ms", &name);' > planted-scanf.c
printf '%s\n' '	n = sscanf(v, "%d",' '		   &a) + sscanf(w, "%d %ms",' '				&b, &name);' > planted-scanf2.c
expect_eq "a scanf that allocates (%ms) is found where planted, on one line or several" \
	"$(scanf_alloc planted-scanf.c planted-scanf2.c | tr '\n' ' ')" "planted-scanf.c planted-scanf2.c "
srcs=$(find "$TOP/analyzer" \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \))
nsrc=$(echo "$srcs" | wc -l)
[ "$nsrc" -gt 50 ] || _fail "only $nsrc analyzer sources: checked nothing"
# shellcheck disable=SC2086
expect_eq "no scanf in the analyzer or its plugins allocates ($nsrc files; lsan.supp's __vfscanf_internal hides only libraries' leaks)" \
	"$(scanf_alloc $srcs | tr '\n' ' ')" ""
