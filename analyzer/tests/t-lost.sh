# SPDX-License-Identifier: GPL-2.0
# Ring-buffer overruns from a real recording with a 4 KB buffer: the lost
# events are counted per CPU, equal what trace-cmd reports, and no syscall is
# paired across a gap.
. "$(dirname "$0")/lib.sh"

f=$DATA/host-lost.dat
x=$DATA/host-lost.expect
"$ET" report --json "$f" > r.json
trace-cmd report -N "$f" 2>/dev/null > tc.txt

dropped=$(sed -n 's/.*CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\].*/\1 \2/p' tc.txt)
check "the recording really overran" test -n "$dropped"
expect_eq "lost events equal trace-cmd's DROPPED total" "$(jget r.json "d['files'][0]['lost_events']")" \
	"$(echo "$dropped" | awk '{ n += $2 } END { print n }')"
for cpu in $(echo "$dropped" | awk '{ print $1 }' | sort -u); do
	expect_eq "CPU $cpu lost count" "$(jget r.json "d['files'][0]['lost_per_cpu'][$cpu]")" \
		"$(echo "$dropped" | awk -v c="$cpu" '$1 == c { n += $2 } END { print n }')"
done

# Independent pairing: an enter and the next exit of the same task pair only if
# no DROPPED marker lies between them (in trace-cmd's merged order).
python3 - tc.txt > pairs.txt <<'PY'
import re, sys
open_ = {}
pairs = {}
gap_seen = 0
for line in open(sys.argv[1]):
    if 'EVENTS DROPPED' in line:
        gap_seen += 1
        continue
    m = re.match(r'\s*\S+-(\d+)\s+\[\d+\]\s+[\d.]+:\s+(sys_enter|sys_exit):\s+NR (-?\d+)', line)
    if not m:
        continue
    pid, kind, nr = m.group(1), m.group(2), int(m.group(3))
    if kind == 'sys_enter':
        open_[pid] = (nr, gap_seen)
    else:
        o = open_.pop(pid, None)
        if o and o[1] == gap_seen and (o[0] == nr or nr == -1):
            pairs[o[0]] = pairs.get(o[0], 0) + 1
for nr in (39, 62, 110):
    print(nr, pairs.get(nr, 0))
PY
while read -r nr n; do
	expect_eq "nr $nr: complete syscalls = pairs with no gap between" \
		"$(jget r.json "sum(c['count'] for c in d['cells'] if c['nr']==$nr and c['stage']=='total')")" "$n"
done < pairs.txt

check "the report says so in text" grep -q 'LOST: ' <("$ET" report "$f")
expect_exit "--strict exits 5 on lost events" 5 "$ET" report --strict "$f"
check "--strict is quiet on a clean trace" "$ET" report --strict "$DATA/host-kill-getppid.dat"
check "getppid loop: nothing near a gap is an outlier (max < 1 ms)" \
	jget r.json "[c for c in d['cells'] if c['syscall']=='getppid' and c['stage']=='total'][0]['max'] < 1000000 or sys.exit(1)"
