# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/kernel-overhead (its arguments: see the call there).
import json, os, re, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import sysnr  # noqa: E402
pre, cmode, arch, base, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])

def load(variant):
    runs = {}
    for line in open(f'{pre}-{variant}-{cmode}/out/overhead.txt'):
        p = line.split()
        if len(p) == 3 and p[2].isdigit():
            runs.setdefault(p[1], {}).setdefault(p[0], []).append(int(p[2]) / n)
    return runs

res = {'arch': arch, 'base': base, 'config': cmode, 'n': n, 'runs': {}}
# the BPF anchor, when kernel-overhead booted it: the base kernel of
# --config bpf, a third variant
bdir = f'{pre}-bpf-{cmode}'
anchor = ('bpf',) if os.path.isdir(bdir) else ()
for variant in ('base', 'entrytrace') + anchor:
    res['runs'][variant] = load(variant)
    res.setdefault('kernels', {})[variant] = open(f'{pre}-{variant}-{cmode}/kernel').read().strip().split('/')[-1]
    # the settle rounds before the measured ones (plan-overhead.sh)
    st = f'{pre}-{variant}-{cmode}/out/settle.txt'
    if os.path.exists(st):
        last = open(st).read().split('\n')[-2].split()
        res.setdefault('settle', {})[variant] = {'settled': last[1] == 'yes', 'rounds': int(last[2])}
# the anchor's rounds (events off, then the loop under syslat): every
# bpf-hist round must have counted at least the loop's syscalls, with the JIT
if anchor:
    seen = []
    for line in open(f'{bdir}/out/syslat.txt'):
        m = re.match(r'syslat: (\d+) syscalls, (\d+) without an entry time, JIT (\w+)', line)
        if m:
            seen.append({'syscalls': int(m.group(1)), 'orphans': int(m.group(2)),
                         'jit': m.group(3) == 'yes'})
    rounds = sum(len(v.get('bpf-hist', [])) for v in res['runs']['bpf'].values())
    if not rounds or len(seen) != rounds:
        sys.exit(f'kernel-overhead: {bdir}: {rounds} bpf-hist rounds, {len(seen)} syslat counts')
    short = [r for r in seen if r['syscalls'] < n or not r['jit']]
    if short:
        sys.exit(f'kernel-overhead: {bdir}: syslat saw fewer than {n} syscalls or ran without '
                 f'the JIT: {short[0]}')
    res['bpf'] = {'syslat': seen}
# the compact recording: calibration and per-stage medians (ticks -> ns)
calib, stages = None, {}
names = None
txt = f'{pre}-entrytrace-{cmode}/out/compact-trace.txt'
for line in open(txt):
    m = re.search(r'entry_stage_calib: (.*)$', line)
    if m:
        calib = dict(re.findall(r'(\w+)=(\S+)', m.group(1)))
        continue
    m = re.search(r'entry_stage_summary: (.*) delta=\{([^}]*)\}', line)
    if m:
        f = dict(re.findall(r'(\w+)=(\S+)', m.group(1)))
        if int(f['nr']) != sysnr.NR[arch]['getppid']:
            continue          # getppid only
        khz = int(f['khz'])
        for i, v in enumerate(m.group(2).split(',')):
            v = int(v, 16)
            if v:
                stages.setdefault(i, []).append(v * 1e6 / khz)
res['calib'] = calib
# entry_stage.window rounds: instructions per iteration, the staged share
try:
    for line in open(f'{pre}-entrytrace-{cmode}/out/window.txt'):
        p = line.split()
        if len(p) == 7 and p[0] in ('window', 'awindow'):
            t, it, w = int(p[4]), int(p[5]), int(p[6])
            # awindow: aggregated, w the staged getppids the flush counted
            res.setdefault(p[0], []).append({'sample': int(p[1]), 'ms': int(p[2]), 'mode': p[3],
                                             'per_iter': t / it, 'n': it, 'events': w})
except FileNotFoundError:
    pass
# aggregation: the one flush after every aggregate round, getppid's span cell
try:
    cells = spans = 0
    for line in open(f'{pre}-entrytrace-{cmode}/out/aggregate-trace.txt'):
        m = re.search(r'entry_stage_hist: (.*)$', line)
        if not m:
            continue
        f = dict(re.findall(r'(\w+)=(\S+)', m.group(1)))
        cells += 1
        # the span's cell: stage == stages (the kernel's stage count)
        if int(f['nr']) == sysnr.NR[arch]['getppid'] and f['stage'] == f['stages']:
            spans += int(f['count'])
    res['aggregate'] = {'cells': cells, 'getppid_spans': spans,
                        'dropped': int(open(f'{pre}-entrytrace-{cmode}/out/aggregate-dropped.txt').read())}
except FileNotFoundError:
    pass
# packed batches (series v4): what the ring buffer kept of the batches
# written in the batch rounds and at their flush (the oldest may have been
# overwritten); a gap in a CPU's numbers inside what was kept is a batch lost
try:
    last, b = {}, {'batches': 0, 'records': 0, 'words': 0, 'gaps': 0}
    for line in open(f'{pre}-entrytrace-{cmode}/out/batch-trace.txt'):
        cpu, seq, records, words = (int(x) for x in line.split())
        if cpu in last and seq != last[cpu] + 1:
            b['gaps'] += 1
        last[cpu] = seq
        b['batches'] += 1
        b['records'] += records
        b['words'] += words
    res['batch'] = b
except FileNotFoundError:
    pass
res['stages'] = {i: statistics.median(v) for i, v in stages.items()}
res['getppid_summaries'] = max((len(v) for v in stages.values()), default=0)
json.dump(res, sys.stdout, indent=1)
