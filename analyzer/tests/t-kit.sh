# SPDX-License-Identifier: GPL-2.0
# weight: 15
# entrytrace kit on this host for real (perf, stress-ng, no hardware
# counters, no SELinux: the degraded path), each degraded path with its
# one-line message and exit code, Ctrl-C into a partial archive, --merge,
# and report/diff on the committed ppc64le guest kits: a same-kernel pair
# is "no change", the same kernel booted with audit=1 (a planted longer
# path) is "instructions per op", as is the kernel with 256 empty
# iterations in kill() (plant-kill-loop.patch), and the same runs at 10%
# more cycles (scaled through the real format) "cycles per instruction"
# (Documentation/kit.md); and report on the x86_64 guest's kit: task-clock
# only (no PMU in x86 TCG), with its stage recording.
. "$(dirname "$0")/lib.sh"

man() { tar xzf "$1" manifest.json -O; }
# jm KIT PYEXPR: an expression of the manifest (d)
jm() {
	man "$1" >"$1.manifest.json" && jget "$1.manifest.json" "$2"
}
# first line of the kit's stderr with WORDS
said() { grep -m1 -F "$2" "$1" >/dev/null; }

# ---- usage, refusals ----------------------------------------------------
check "kit --help exits 0 and documents the exit codes" grep -q "16 + the sum" <("$ET" kit --help)
check "entrytrace help kit = kit --help" cmp <("$ET" help kit) <("$ET" kit --help)
check "entrytrace --help lists kit" grep -q "^  kit " <("$ET" --help)
expect_exit "kit -n 1: the intervals need two runs" 2 "$ET" kit -n 1
expect_exit "kit --workload nosuch" 2 "$ET" kit -w nosuch
expect_exit "kit --modes disabled: needs a reboot" 2 "$ET" kit --modes disabled
expect_exit "kit with an operand" 2 "$ET" kit somefile
expect_exit "kit not as root: nothing run" 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$ET" kit -o "$TMP/nobody.tar.gz"
check "...and nothing written" test ! -e "$TMP/nobody.tar.gz"
: >taken.tar.gz
expect_exit "kit -o an existing file: never overwritten" 11 "$ET" kit -o taken.tar.gz
expect_eq "...the file is left as it was" "$(stat -c %s taken.tar.gz)" 0

# PATH directories: the tools the kit looks for, or not
mkdir -p bin-none bin-stress bin-perf
for d in bin-none bin-stress bin-perf; do
	for t in sh cat; do ln -sf "$(command -v $t)" $d/; done
done
ln -sf "$(command -v stress-ng)" bin-stress/
ln -sf "$(command -v stress-ng)" bin-perf/stress-ng.not
ln -sf "$(command -v perf)" bin-perf/
expect_exit "no stress-ng and no perf: no workload can run" 12 env PATH="$TMP/bin-none" "$ET" kit -o none.tar.gz
check "...nothing written" test ! -e none.tar.gz

# ---- what this host has, found independently of the kit -----------------
bits=0
perf stat -x, -e instructions true 2>&1 | grep -q '<not supported>\|<not counted>' && bits=$((bits | 1))
[ -e /sys/fs/selinux/enforce ] || bits=$((bits | 8))
expect_exit "kit --check: what a run would give ($((16 + bits)) here)" $((bits ? 16 + bits : 0)) \
	"$ET" kit --check

# ---- a real run ----------------------------------------------------------
"$ET" kit -n 2 -t 1 -w stress-kill,basic -l 200000 -o host.tar.gz 2>host.log
rc=$?
expect_eq "kit -n 2 -t 1 here: exit 16 + what the host lacks" "$rc" "$((bits ? 16 + bits : 0))"
[ $((bits & 1)) = 1 ] && check "...says task-clock only" said host.log "no hardware counters: task-clock only"
[ $((bits & 8)) = 8 ] && check "...says SELinux is absent" said host.log "SELinux absent"
check "...progress on stderr, a line per run" grep -q '^entrytrace kit: \[4/4\] basic, disabled, run 2: ' host.log
expect_eq "the archive is a gzip'd tar, manifest.json first" "$(tar tzf host.tar.gz | head -1)" manifest.json
expect_eq "manifest: format, version, complete" \
	"$(jm host.tar.gz "(d['format'], d['version'], d['partial'])")" "('entrytrace-kit', 1, False)"
expect_eq "manifest: 4 runs, interleaved (workload order per repetition)" \
	"$(jm host.tar.gz "[(r['rep'], r['workload'], r['mode']) for r in d['runs']]")" \
	"[(1, 'stress-kill', 'disabled'), (1, 'basic', 'disabled'), (2, 'stress-kill', 'disabled'), (2, 'basic', 'disabled')]"
expect_eq "every run: ops > 0, CPU time counted by perf, exit 0" \
	"$(jm host.tar.gz "all(r['ops'] > 0 and r['counts']['task_clock_ns'] > 0 and r['counter'] == 'perf' and r['exit_status'] == 0 for r in d['runs'])")" True
expect_eq "instructions counted exactly when the host has counters" \
	"$(jm host.tar.gz "all((r['counts']['instructions'] is None) == $(( bits & 1 ? 1 : 0 )) for r in d['runs'])")" True
expect_eq "the facts: this kernel, its .config in the archive" \
	"$(jm host.tar.gz "(d['boots'][0]['facts']['release'], d['boots'][0]['facts']['config'])")" \
	"('$(uname -r)', 'b0/config')"
if [ -r /proc/config.gz ]; then
	check "...the .config is the running kernel's" cmp <(zcat /proc/config.gz) <(tar xzf host.tar.gz b0/config -O)
fi
expect_eq "the facts: process count near ps's" \
	"$(jm host.tar.gz "abs(d['boots'][0]['facts']['processes'] - $(ls -d /proc/[0-9]* | wc -l)) < 30")" True
check "no host name in the archive" sh -c "! tar xzf host.tar.gz -O | grep -a -q -w \"$(hostname)\""
check "no staging directory or temporary file left" sh -c '! ls -a | grep -q -e "^.entrytrace-kit" -e partial-'

"$ET" report host.tar.gz >report.txt 2>report.err
expect_eq "report KIT exits 0" "$?" 0
check "...the table per workload and mode" grep -q '^disabled  *2 ' report.txt
check "...names what was missing" grep -q '^missing: ' report.txt
"$ET" report --json host.tar.gz >report.json
expect_eq "report --json: both workloads, 2 runs each, CPU ns/op from the runs" \
	"$(jget report.json "[(w['workload'], m['runs'], round(m['measures']['task_clock_ns_per_op']['mean'] / (sum(r['counts']['task_clock_ns'] / r['ops'] for r in json.load(open('host.tar.gz.manifest.json'))['runs'] if r['workload'] == w['workload']) / 2), 6)) for w in d['workloads'] for m in w['modes']]")" \
	"[('stress-kill', 2, 1.0), ('basic', 2, 1.0)]"
expect_exit "report --csv of a kit: no CSV" 2 "$ET" report --csv host.tar.gz
expect_exit "report of a kit and a trace together" 2 "$ET" report host.tar.gz "$DATA/host-kill-getppid.dat"
expect_exit "list of a kit: not syscalls" 2 "$ET" list host.tar.gz

# ---- the degraded paths, for real ----------------------------------------
env PATH="$TMP/bin-stress" "$ET" kit -n 2 -t 1 -o noperf.tar.gz 2>noperf.log
expect_eq "no perf: exit 16 + 2 + the host's" "$?" "$((16 + (bits | 2)))"
check "...one line says so" said noperf.log "perf not found: counting with perf_event_open directly"
expect_eq "...counted with perf_event_open, CPU time > 0" \
	"$(jm noperf.tar.gz "all(r['counter'] == 'perf_event_open' and r['counts']['task_clock_ns'] > 0 for r in d['runs'])")" True
# the two counting paths measure the same thing: CPU time per op within 2x
expect_eq "...its CPU ns per stress-kill op within 2x of perf stat's" \
	"$(python3 -c 'import json,sys
def cpo(f):
    d = json.load(open(f)); v = [r["counts"]["task_clock_ns"] / r["ops"] for r in d["runs"] if r["workload"] == "stress-kill"]
    return sum(v) / len(v)
a, b = cpo("noperf.tar.gz.manifest.json"), cpo("host.tar.gz.manifest.json")
print(0.5 < a / b < 2)')" True
env PATH="$TMP/bin-perf" "$ET" kit -n 2 -t 1 -w stress-kill,basic -l 200000 -o nostress.tar.gz 2>nostress.log
expect_eq "no stress-ng: exit 16 + 4 + the host's" "$?" "$((16 + (bits | 4)))"
check "...one line says so" said nostress.log "stress-ng not found: the report's workload (stress-ng --kill) skipped"
expect_eq "...only perf bench ran" "$(jm nostress.tar.gz "sorted(set(r['workload'] for r in d['runs']))")" "['basic']"

# ---- Ctrl-C: a partial archive ---------------------------------------------
"$ET" kit -n 5 -t 3 -o cut.tar.gz 2>cut.log &
pid=$!
for _ in $(seq 100); do grep -q 'run 1 of 5 \.\.\.' cut.log && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit 13" "$?" 13
check "...one line says it wrote a partial archive" said cut.log "interrupted (signal 2 during stress-kill, disabled, run 1 of 5): wrote cut.tar.gz, marked partial"
expect_eq "...the archive is valid and marked partial, its run interrupted" \
	"$(jm cut.tar.gz "(d['partial'], d['interrupted'][:9], [r['interrupted'] for r in d['runs']])")" \
	"(True, 'signal 2 ', [True])"
expect_exit "report of a partial kit: exit 8" 8 "$ET" report cut.tar.gz
check "...its table says PARTIAL" grep -q '^PARTIAL' <("$ET" report cut.tar.gz 2>/dev/null)
check "...no staging directory left" sh -c '! ls -a | grep -q -e "^.entrytrace-kit" -e partial-'

# ---- --merge: the second boot of one kernel ----------------------------------
sum=$(md5sum <host.tar.gz)
"$ET" kit -n 2 -t 1 --merge host.tar.gz -o merged.tar.gz 2>merged.log
rc=$?
# (this boot's missing SELinux is the disabled mode the merge is for: no bit 8)
mbits=$((bits & ~8))
expect_eq "--merge: runs as a kit does, SELinux's absence expected" "$rc" "$((mbits ? 16 + mbits : 0))"
expect_eq "...two boots, the merged kit's runs first, every member kept" \
	"$(jm merged.tar.gz "(len(d['boots']), [r['boot'] for r in d['runs']])"),$(tar tzf merged.tar.gz | grep -c '^b0/')" \
	"(2, [0, 0, 0, 0, 1, 1]),$(tar tzf host.tar.gz | grep -c '^b0/')"
expect_eq "...and leaves the merged kit as it was" "$(md5sum <host.tar.gz)" "$sum"
if [ "$mbits" != 0 ]; then
	check "...its report says per boot what each lacked" grep -q '^missing (boot 1): ' \
		<("$ET" report merged.tar.gz 2>/dev/null)
fi

# ---- diff on this host: no counters, so no split ------------------------------
"$ET" diff --json host.tar.gz noperf.tar.gz >hd.json
expect_eq "diff of two host kits: exit 0" "$?" 0
if [ $((bits & 1)) = 1 ]; then
	expect_eq "...no counters here: whether instructions or CPI is unknown, said" \
		"$(jget hd.json "[c['verdict'] for c in d['comparisons']]")" "['unknown: no cycles and instructions']"
fi
expect_eq "...the fact that differs first: perf missing on one side" \
	"$(jget hd.json "[f['fact'] for f in d['facts_differ'] if f['fact'] == 'perf']")" "['perf']"
expect_exit "diff of a kit with a partial one: exit 8" 8 "$ET" diff host.tar.gz cut.tar.gz
expect_exit "diff --fail-on with kits: not for kits" 2 "$ET" diff --fail-on 'total>1%' host.tar.gz noperf.tar.gz

# ---- damaged archives, made through the real format -----------------------------
head -c 3000 host.tar.gz >cut-gz.tar.gz
expect_exit "a kit cut short: exit 3, said" 3 "$ET" report cut-gz.tar.gz
python3 - host.tar.gz <<'EOF'
import io, json, sys, tarfile
src = tarfile.open(sys.argv[1])
members = [(m, src.extractfile(m).read()) for m in src.getmembers()]
def write(name, edit):
    with tarfile.open(name, 'w:gz', format=tarfile.USTAR_FORMAT) as t:
        for m, data in members:
            if m.name == 'manifest.json':
                data = edit(data)
                m.size = len(data)
            t.addfile(m, io.BytesIO(data))
write('newer.tar.gz', lambda d: d.replace(b'"version": 1', b'"version": 99', 1))
write('badjson.tar.gz', lambda d: d.replace(b'"runs": [', b'"runs": [,', 1))
EOF
expect_exit "a kit of a newer format version: exit 3, said" 3 "$ET" report newer.tar.gz
check "...naming the versions" grep -q "version 99; this entrytrace reads 1 to 1" <("$ET" report newer.tar.gz 2>&1)
expect_exit "a manifest that is no JSON: exit 3, with the byte" 3 "$ET" report badjson.tar.gz

# ---- the committed guest kits: the classification -------------------------------
K=$DATA/kit
have() { [ -f "$K/$1" ] || { _fail "committed kit $1 missing"; return 1; }; }
verdicts() {
	"$ET" diff --json "$1" "$2" >v.json 2>/dev/null
	jget v.json "sorted(set((c['workload'], c['mode'], c['verdict']) for c in d['comparisons']))"
}
if have ppc64le-7.2-a.tar.gz && have ppc64le-7.2-b.tar.gz; then
	expect_eq "same kernel, two boots: no change in every mode" \
		"$(verdicts "$K/ppc64le-7.2-a.tar.gz" "$K/ppc64le-7.2-b.tar.gz")" \
		"[('stress-kill', 'enforcing', 'no change'), ('stress-kill', 'permissive', 'no change')]"
fi
if have ppc64le-7.2-a.tar.gz && have ppc64le-7.2-audit.tar.gz; then
	expect_eq "the same kernel booted with audit=1: instructions per op" \
		"$(verdicts "$K/ppc64le-7.2-a.tar.gz" "$K/ppc64le-7.2-audit.tar.gz")" \
		"[('stress-kill', 'enforcing', 'instructions per op'), ('stress-kill', 'permissive', 'instructions per op')]"
	expect_eq "...the fact that differs named first: the command line's audit=1" \
		"$(jget v.json "[f['test'].split()[-1] for f in d['facts_differ'] if f['fact'] == 'cmdline']")" "['audit=1']"
fi
# the same instructions at 10% more cycles each: b's runs with their cycles
# scaled through the real format (no guest kit of a slower machine is
# committed: a synthetic edge case, the side audit=1 does not show)
if have ppc64le-7.2-a.tar.gz && have ppc64le-7.2-b.tar.gz; then
	python3 - "$K/ppc64le-7.2-b.tar.gz" <<'EOF'
import io, json, sys, tarfile
src = tarfile.open(sys.argv[1])
with tarfile.open('slower.tar.gz', 'w:gz', format=tarfile.USTAR_FORMAT) as t:
    for m in src.getmembers():
        data = src.extractfile(m).read()
        if m.name == 'manifest.json':
            d = json.loads(data)
            for r in d['runs']:
                r['counts']['cycles'] = round(r['counts']['cycles'] * 1.1)
            data = json.dumps(d, indent=1).encode()
            m.size = len(data)
        t.addfile(m, io.BytesIO(data))
EOF
	expect_eq "b's runs at 10% more cycles: cycles per instruction, in every mode" \
		"$(verdicts "$K/ppc64le-7.2-a.tar.gz" slower.tar.gz)" \
		"[('stress-kill', 'enforcing', 'cycles per instruction'), ('stress-kill', 'permissive', 'cycles per instruction')]"
	expect_eq "...CPI 1.10 within 1%, instructions per op no change" \
		"$(jget v.json "all(abs(c['cpi']['ratio'] - 1.1) < 0.011 and c['instructions_per_op']['lo'] < 1 < c['instructions_per_op']['hi'] for c in d['comparisons'])")" True
fi
if have ppc64le-7.2-a.tar.gz; then
	"$ET" report --json "$K/ppc64le-7.2-a.tar.gz" >a.json
	expect_eq "the guest kit a: enforcing and permissive, then the merged boot's disabled" \
		"$(jget a.json "[(m['mode'], m['boot'], m['counter']) for m in d['workloads'][0]['modes']]")" \
		"[('enforcing', 0, 'perf_event_open'), ('permissive', 0, 'perf_event_open'), ('disabled', 1, 'perf_event_open')]"
	expect_eq "...QEMU's PMU counted instructions and cycles in every run" \
		"$(jget a.json "all(m['measures']['instructions_per_op']['n'] == m['runs'] > 0 and m['measures']['cycles_per_op']['n'] == m['runs'] for m in d['workloads'][0]['modes'])")" True
	expect_eq "...a SELinux tax for enforcing and permissive, against disabled" \
		"$(jget a.json "[(t['mode'], t['against']) for t in d['workloads'][0]['selinux_tax']]")" \
		"[('enforcing', 'disabled'), ('permissive', 'disabled')]"
	expect_eq "...SELinux costs instructions per op: enforcing runs more than disabled" \
		"$(jget a.json "d['workloads'][0]['selinux_tax'][0]['instructions_per_op_delta'] > 0")" True
	rec=$(jget a.json "[r['file'] for r in d['recordings'] if r['mode'] == 'enforcing'][0]")
	tar xzf "$K/ppc64le-7.2-a.tar.gz" "$rec"
	"$ET" report --json -s kill "$rec" >rec.json
	expect_eq "...its stage recording (record --aggregate) reads, with kill's SELinux hook" \
		"$?,$(jget rec.json "any(c['stage'] == 'lsm_task_kill' and c['count'] > 0 for c in d['cells'])")" "0,True"
fi
if have x86_64-host.tar.gz; then
	"$ET" report --json "$K/x86_64-host.tar.gz" >h.json
	expect_eq "the committed host kit: 5 runs of each workload, task-clock only" \
		"$(jget h.json "[(w['workload'], m['runs'], m['measures']['instructions_per_op']['n']) for w in d['workloads'] for m in w['modes']]")" \
		"[('stress-kill', 5, 0), ('basic', 5, 0)]"
fi
# the kit as a reporter runs it, inside our x86_64 guest (QEMU TCG: no PMU,
# so task-clock only; the 7.3 entrytrace kernel: a stage recording)
if have x86_64-7.3-guest.tar.gz; then
	G=$K/x86_64-7.3-guest.tar.gz
	"$ET" report "$G" >g.txt 2>g.err
	expect_eq "the x86_64 guest kit: report exits 0" "$?" 0
	check "...names the missing counters: task-clock only" \
		grep -q '^missing: no hardware counters: task-clock only' g.txt
	check "...and no other loss but perf (stress-ng and SELinux were there)" \
		sh -c "! grep '^missing' g.txt | grep -v -e 'no hardware counters' -e 'perf not found'"
	"$ET" report --json "$G" >g.json
	expect_eq "...the 7.3 entrytrace kernel on x86_64, one CPU, SELinux enforcing at start" \
		"$(jget g.json "[(b['release'].split('.')[:2], b['machine'], b['nr_cpus'], b['hw_counters'], b['entrytrace_kernel'], b['selinux'].get('mode_at_start')) for b in d['boots']]")" \
		"[(['7', '3'], 'x86_64', 1, False, True, 'enforcing')]"
	expect_eq "...enforcing and permissive, 5 runs each, CPU time from perf_event_open, no instructions" \
		"$(jget g.json "[(m['mode'], m['runs'], m['counter'], m['measures']['task_clock_ns_per_op']['n'], m['measures']['instructions_per_op']['n']) for w in d['workloads'] for m in w['modes']]")" \
		"[('enforcing', 5, 'perf_event_open', 5, 0), ('permissive', 5, 'perf_event_open', 5, 0)]"
	rec=$(jget g.json "[r['file'] for r in d['recordings'] if r['mode'] == 'enforcing'][0]")
	tar xzf "$G" "$rec"
	"$ET" report --json -s kill "$rec" >grec.json
	expect_eq "...its stage recording reads, with kill's SELinux hook" \
		"$?,$(jget grec.json "any(c['stage'] == 'lsm_task_kill' and c['count'] > 0 for c in d['cells'])")" "0,True"
fi
# a planted longer path in the kernel: a's kernel with 256 empty iterations
# in kill() (plant-kill-loop.patch), another boot
if have ppc64le-7.2-a.tar.gz && have ppc64le-7.2-plant.tar.gz; then
	expect_eq "a's kernel with 256 empty iterations in kill(): instructions per op" \
		"$(verdicts "$K/ppc64le-7.2-a.tar.gz" "$K/ppc64le-7.2-plant.tar.gz")" \
		"[('stress-kill', 'enforcing', 'instructions per op'), ('stress-kill', 'permissive', 'instructions per op')]"
	expect_eq "...instructions per op up more than 5% in every mode; only the build differs" \
		"$(jget v.json "(all(c['instructions_per_op']['lo'] > 1.05 for c in d['comparisons']), [f['fact'] for f in d['facts_differ']], [l.split(':')[0] for c in d['config_differ'] for l in c['lines']])")" \
		"(True, ['version'], ['CONFIG_PAHOLE_VERSION', 'CONFIG_PAHOLE_HAS_LANG_EXCLUDE'])"
fi
