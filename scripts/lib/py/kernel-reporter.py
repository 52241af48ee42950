# SPDX-License-Identifier: GPL-2.0
"""The Python half of scripts/kernel/record/kernel-reporter.

  kernel-reporter.py collect ENTRYTRACE DIR T OPS CONFIG KERNELS CELLS
      read every run under DIR (DIR/KERNEL/CELL-MODE/out/), derive each
      recording's figures, write DIR/summary.json
  kernel-reporter.py table ENTRYTRACE DIR [--json]
      print the table of DIR/summary.json; every recording that is there
      (DIR/KERNEL-CELL-MODE.dat, or the run's out/stress.dat) is derived
      again and must agree with the summary
  kernel-reporter.py data DIR DEST ARCH CONFIG COMMAND
      copy summary.json and the recordings to DEST with DEST/PROVENANCE.md

Units: the guests run under QEMU -icount shift=0, one instruction is one
nanosecond of guest time, so bogo-ops/s are bogo-ops per 1e9 instructions
and "us per op" is thousands of instructions per op (us-equivalents).
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

MODES = ('enforcing', 'permissive', 'disabled')
SHAPE_ALL, SHAPE_SELF = '-1, 0', 'self, 0'


def die(msg):
    print(f'kernel-reporter: {msg}', file=sys.stderr)
    sys.exit(1)


def bogo(path):
    """(bogo-ops, bogo-ops/s real time) from stress-ng --metrics-brief."""
    try:
        for line in open(path):
            m = re.search(r'\]\s+kill\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)', line)
            if m:
                return int(m.group(1)), float(m.group(5))
    except OSError:
        pass
    return None, None


def keyvals(path, prefix):
    """The first line of PATH starting with PREFIX, as {key: int} pairs."""
    try:
        for line in open(path):
            if line.startswith(prefix):
                f = line[len(prefix):].split()
                return {f[i]: int(f[i + 1]) for i in range(0, len(f) - 1, 2)}
    except OSError:
        pass
    return None


def derive(et, dat):
    """kill(-1, 0) and kill(self, 0) from a recording: count, median and mean
    of their total and of their lsm_task_kill stage (instructions)."""
    r = subprocess.run([et, 'report', '--by-arg', '--json', '-s', 'kill', dat],
                       capture_output=True, text=True)
    if r.returncode != 0:
        die(f'entrytrace report --by-arg {dat}: exit {r.returncode}: {r.stderr.strip()[:300]}')
    d = json.loads(r.stdout)
    out = {}
    for shape, key in ((SHAPE_ALL, 'kill_all'), (SHAPE_SELF, 'kill_self')):
        cells = [c for c in d['cells'] if c.get('args') == shape]
        tot = [c for c in cells if c['stage'] == 'total']
        if not tot:
            die(f'{dat}: no kill({shape}) in it (recorded without syscalls:sys_enter_kill?)')
        # one cell per path signature: the largest is the plain one
        t = max(tot, key=lambda c: c['count'])
        n = sum(c['count'] for c in tot)
        mean = sum(c['mean'] * c['count'] for c in tot) / n
        lsm = [c for c in cells if c['stage'] == 'lsm_task_kill']
        ln = sum(c['count'] for c in lsm)
        out[key] = {'count': n, 'p50': t['p50'], 'mean': round(mean, 1),
                    'lsm_p50': max(lsm, key=lambda c: c['count'])['p50'] if lsm else None,
                    'lsm_mean': round(sum(c['mean'] * c['count'] for c in lsm) / ln, 1) if ln else None}
    return out


def run_dir(d, kern, cell, mode):
    return os.path.join(d, kern, f'{cell}-{mode}')


def collect(et, d, t, ops, config, kernels, cells):
    runs, bad = [], []
    for spec in filter(None, cells.split(';')):
        cell, kv = spec.split(':', 1)
        params = dict(a.split('=', 1) for a in kv.split(','))
        for k in kernels.split(','):
            for m in MODES:
                rd = run_dir(d, k, cell, m)
                out = os.path.join(rd, 'out')
                ops_t, rate = bogo(os.path.join(out, 'stress.txt'))
                ops_r, _ = bogo(os.path.join(out, 'stress-recorded.txt'))
                sel = open(os.path.join(out, 'selinux.txt')).read() if os.path.exists(
                    os.path.join(out, 'selinux.txt')) else ''
                g = lambda rx: (re.search(rx, sel, re.M) or [None, None])[1]
                run = {'kernel': k, 'cell': cell, 'mode': m, 'params': params,
                       'image': open(os.path.join(rd, 'kernel')).read().strip()
                       if os.path.exists(os.path.join(rd, 'kernel')) else None,
                       'bogo_ops': ops_t, 'bogo_ops_s': rate, 'recorded_ops': ops_r,
                       'policy': g(r'^policy: (.*)$'), 'cpus': g(r'^cpus: (\d+)'),
                       'population': g(r'^population: (.*)$'), 'domains': g(r'^domains: (.*)$'),
                       'procs_timed': g(r'^procs: (\d+) before the timed run'),
                       'procs_during': g(r'^procs: (\d+) during the timed run'),
                       'procs_recorded': g(r'^procs: (\d+) before the recorded run'),
                       'stress_ng': (open(os.path.join(out, 'stress-ng.version')).read().split()
                                     or ['', '', '?'])[2] if os.path.exists(
                                         os.path.join(out, 'stress-ng.version')) else None}
                for x in ('cpus', 'procs_timed', 'procs_during', 'procs_recorded'):
                    run[x] = int(run[x]) if run[x] else None
                avc = {}
                for ph in ('before-timed', 'after-timed', 'before-recorded', 'after-recorded'):
                    v = keyvals(os.path.join(out, f'avc-{ph}.txt'), 'cache_stats ')
                    if v:
                        avc[ph] = v
                run['avc'] = avc
                if params.get('AUDIT', 'off') != 'off':
                    a = os.path.join(out, 'audit.txt')
                    txt = open(a).read() if os.path.exists(a) else ''
                    run['audit'] = {
                        'enabled': (re.search(r'^enabled (\d+)', txt, re.M) or [0, None])[1],
                        'pid': (re.search(r'^pid (\d+)', txt, re.M) or [0, None])[1],
                        'rules': txt.split('rules:\n', 1)[1].split('after:')[0].strip()
                        if 'rules:' in txt else None,
                        'lost_after': (re.findall(r'^lost (\d+)', txt, re.M) or [None])[-1],
                        'log_lines': (re.search(r'^audit.log lines: (\d+)', txt, re.M) or [0, None])[1]}
                dat = os.path.join(out, 'stress.dat')
                if os.path.exists(dat):
                    run['rec'] = derive(et, dat)
                why = check_run(run, ops)
                if why:
                    bad.append(f'{k} {cell} {m}: {why} ({out})')
                runs.append(run)
    s = {'t': int(t), 'ops': int(ops), 'config': config, 'kernels': kernels.split(','),
         'cells': [c.split(':', 1)[0] for c in filter(None, cells.split(';'))], 'runs': runs}
    with open(os.path.join(d, 'summary.json'), 'w') as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write('\n')
    for b in bad:
        print(f'kernel-reporter: {b}', file=sys.stderr)
    return 1 if bad else 0


def check_run(run, ops):
    """Why RUN is not the run asked for, or None."""
    ops = int(ops)
    m, p = run['mode'], run['params']
    if not run['bogo_ops_s']:
        return 'no bogo-ops/s from the timed run'
    want = {'enforcing': 'loaded, enforce=1', 'permissive': 'loaded, enforce=0', 'disabled': 'none'}[m]
    # the guests' helper (scripts/guest/selinux/policy.sh) adds ", policyvers V"
    if run['policy'] != want and not (run['policy'] or '').startswith(want + ', '):
        return f'policy {run["policy"]!r}, not {want!r}'
    if run['cpus'] != int(p['SMP']):
        return f'{run["cpus"]} CPUs, not {p["SMP"]}'
    n = int(p['N'])
    if n and not run['population']:
        return 'no population'
    if n and m != 'disabled' and f'moved={n} ' not in run['population'] + ' ':
        return f'population {run["population"]!r}: not all {n} moved to their domains'
    if p.get('AUDIT', 'off') != 'off':
        a = run.get('audit') or {}
        if a.get('enabled') != '1' or not a.get('pid') or a.get('pid') == '0':
            return f'audit not on with auditd registered: {a}'
        has_rule = bool(a.get('rules')) and 'kill' in a['rules']
        if has_rule != (p['AUDIT'] == 'kill'):
            return f'audit rules {a.get("rules")!r} for AUDIT={p["AUDIT"]}'
    if run['recorded_ops'] != ops:
        return f'the recorded run made {run["recorded_ops"]} bogo-ops, not {ops}'
    if 'rec' not in run:
        return 'no recording'
    if run['rec']['kill_all']['count'] != ops:
        return f'{run["rec"]["kill_all"]["count"]} kill(-1, 0) recorded, not one per op ({ops})'
    return None


def targets(run):
    """Processes kill(-1, 0) asks in the recorded run: every process but
    init and the caller (kernel/signal.c kill_something_info()).  Counted
    before the run by the plan, which then adds trace-cmd (its main process
    and a recorder per CPU) and stress-ng's main process and child (the
    worker, the caller, is not a target; init is among those counted)."""
    if run['procs_recorded'] is None:
        return None
    return run['procs_recorded'] - 1 + 1 + run['cpus'] + 2


def targets_timed(run):
    """Processes kill(-1, 0) asks in the timed run: those the plan counted
    while it ran (its sampler among them) but init and the caller."""
    if run['procs_during'] is not None:
        return run['procs_during'] - 2
    return None if run['procs_timed'] is None else run['procs_timed'] + 1


def per_target(run):
    """kill(-1, 0) minus kill(self, 0), per other target, instructions."""
    r, n = run.get('rec'), targets(run)
    if not r or not n or n < 2:
        return None
    return (r['kill_all']['p50'] - r['kill_self']['p50']) / (n - 1)


def fmt(v, f='{:,.0f}'):
    return 'n/a' if v is None else f.format(v)


def table(et, d, as_json):
    s = json.load(open(os.path.join(d, 'summary.json')))
    mismatch = []
    # the recordings, derived again
    for run in s['runs']:
        for dat in (os.path.join(d, f'{run["kernel"]}-{run["cell"]}-{run["mode"]}.dat'),
                    os.path.join(run_dir(d, run['kernel'], run['cell'], run['mode']), 'out', 'stress.dat')):
            if os.path.exists(dat):
                got = derive(et, dat)
                if got != run.get('rec'):
                    mismatch.append(f'{dat}: derives {got}, summary.json says {run.get("rec")}')
                run['rec_file'] = os.path.basename(dat)
                break
    R = {(r['kernel'], r['cell'], r['mode']): r for r in s['runs']}
    kernels, cells = s['kernels'], s['cells']
    rows = []
    for c in cells:
        for k in kernels:
            g = {m: R.get((k, c, m)) for m in MODES}
            if not all(g.values()):
                continue
            us = {m: 1e6 / g[m]['bogo_ops_s'] for m in MODES}
            row = {'cell': c, 'kernel': k, 'params': g['enforcing']['params'],
                   'ops_per_1e9': {m: g[m]['bogo_ops_s'] for m in MODES},
                   'us_per_op': {m: round(us[m], 3) for m in MODES},
                   'tax_pct': round(100 * (g['enforcing']['bogo_ops_s'] / g['disabled']['bogo_ops_s'] - 1), 1),
                   'selinux_us': round(us['enforcing'] - us['disabled'], 3),
                   'selinux_perm_us': round(us['permissive'] - us['disabled'], 3)}
            pe, pd = per_target(g['enforcing']), per_target(g['disabled'])
            n = targets(g['enforcing'])
            row['targets'] = n
            row['per_target'] = {'enforcing': pe and round(pe, 1), 'disabled': pd and round(pd, 1)}
            if pe is not None and pd is not None:
                row['selinux_per_target'] = round(pe - pd, 1)
                # kill(-1, 0)'s SELinux part per op, in us-equivalents, with
                # the targets of the timed run
                nt = targets_timed(g['enforcing'])
                row['targets_timed'] = nt
                row['kill_all_selinux_us'] = round((pe - pd) * nt / 1e3, 3)
                row['rest_selinux_us'] = round(row['selinux_us'] - row['kill_all_selinux_us'], 3)
            a = g['enforcing']['avc']
            if 'before-timed' in a and 'after-timed' in a and g['enforcing']['bogo_ops']:
                row['avc_lookups_per_op'] = round((a['after-timed']['lookups'] - a['before-timed']['lookups'])
                                                  / g['enforcing']['bogo_ops'], 1)
                row['avc_misses_timed'] = a['after-timed']['misses'] - a['before-timed']['misses']
            rows.append(row)
    if as_json:
        json.dump({'rows': rows, 'mismatch': mismatch}, sys.stdout, indent=1)
        print()
        return 1 if mismatch else 0
    print('stress-ng --kill 1 -t %d per SELinux mode; bogo-ops per 1e9 instructions (QEMU -icount shift=0: '
          '1 ns per instruction) and us-equivalents per op (1e6 / bogo-ops/s); config %s'
          % (s['t'], s['config']))
    print()
    print('| cell | kernel | enforcing | permissive | disabled | us/op enf | perm | dis | SELinux tax '
          '| SELinux us/op (enf-dis) | targets | kill(-1,0) per target enf / dis (instr) '
          '| SELinux per target | kill(-1,0) SELinux us/op | rest us/op | AVC lookups/op |')
    print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for r in rows:
        o, u = r['ops_per_1e9'], r['us_per_op']
        print(f'| {r["cell"]} | {r["kernel"]} | {o["enforcing"]:,.0f} | {o["permissive"]:,.0f} | '
              f'{o["disabled"]:,.0f} | {u["enforcing"]:.2f} | {u["permissive"]:.2f} | {u["disabled"]:.2f} | '
              f'{r["tax_pct"]:+.1f}% | {r["selinux_us"]:.2f} | {fmt(r.get("targets_timed"))} | '
              f'{fmt(r["per_target"]["enforcing"])} / {fmt(r["per_target"]["disabled"])} | '
              f'{fmt(r.get("selinux_per_target"))} | {fmt(r.get("kill_all_selinux_us"), "{:.2f}")} | '
              f'{fmt(r.get("rest_selinux_us"), "{:.2f}")} | {fmt(r.get("avc_lookups_per_op"), "{:.1f}")} |')
    # from the first kernel to each other, per cell
    by = {(r['cell'], r['kernel']): r for r in rows}
    print()
    print(f'From {kernels[0]} to each other kernel, per cell (us-equivalents per op; the reporter: '
          f'SELinux cost per op 3.78 -> 7.70 us, +104%):')
    print()
    print('| cell | kernels | enforcing | permissive | disabled | SELinux us/op | of it kill(-1,0) | rest '
          '| SELinux per target (instr) |')
    print('|---|---|---:|---:|---:|---:|---:|---:|---:|')
    growth = {}
    for c in cells:
        a = by.get((c, kernels[0]))
        for k in kernels[1:]:
            b = by.get((c, k))
            if not a or not b:
                continue
            du = {m: b['us_per_op'][m] - a['us_per_op'][m] for m in MODES}
            ds = b['selinux_us'] - a['selinux_us']
            growth[c, k] = ds
            pct = f' ({100 * ds / a["selinux_us"]:+.0f}%)' if a['selinux_us'] else ''
            dk = (b.get('kill_all_selinux_us') - a.get('kill_all_selinux_us')
                  if b.get('kill_all_selinux_us') is not None and a.get('kill_all_selinux_us') is not None else None)
            dr = ds - dk if dk is not None else None
            dp = (b['selinux_per_target'] - a['selinux_per_target']
                  if b.get('selinux_per_target') is not None and a.get('selinux_per_target') is not None else None)
            print(f'| {c} | {kernels[0]} -> {k} | {du["enforcing"]:+.2f} | {du["permissive"]:+.2f} | '
                  f'{du["disabled"]:+.2f} | {a["selinux_us"]:.2f} -> {b["selinux_us"]:.2f}{pct} | '
                  f'{fmt(dk, "{:+.2f}")} | {fmt(dr, "{:+.2f}")} | {fmt(dp, "{:+.1f}")} |')
    # the verdict: does any factor make the SELinux part grow from the
    # first kernel to the others, beyond what it does in the base cell?
    print()
    base = cells[0]
    for k in kernels[1:]:
        if (base, k) not in growth:
            continue
        g0 = growth[base, k]
        a0 = by[base, kernels[0]]['selinux_us']
        print(f'{kernels[0]} -> {k}: SELinux cost per op {g0:+.2f} us-equivalents in cell {base} '
              f'({100 * g0 / a0:+.0f}% of {a0:.2f}).')
        grows = []
        for c in cells[1:]:
            if (c, k) not in growth:
                continue
            a = by[c, kernels[0]]['selinux_us']
            rel = 100 * growth[c, k] / a if a else 0
            # a factor counts when the growth it adds is more than 10 points of
            # the cell's SELinux cost beyond the base cell's growth (single
            # runs move bogo-ops/s by 1-2%: Documentation/reporters.md)
            extra = rel - 100 * g0 / a0
            print(f'  {c:<8} ({by[c, k]["params"]}): {growth[c, k]:+.2f} us ({rel:+.0f}% of {a:.2f}), '
                  f'{extra:+.0f} points against {base}')
            if extra > 10:
                grows.append(c)
        if grows:
            print(f'  the SELinux part grows from {kernels[0]} to {k} with: {", ".join(grows)}')
        else:
            print(f'  in instructions no factor tried makes the SELinux part grow from {kernels[0]} to {k} '
                  f'(none adds more than 10 points to the base cell\'s change)')
    for x in mismatch:
        print(f'kernel-reporter: {x}', file=sys.stderr)
    return 1 if mismatch else 0


def diff_sha(patch):
    """The first 16 digits of the sha256 of a patch's diff parts (its
    message and signature left out), as t-fixes.sh and t-reporter take it."""
    part, keep = [], False
    for ln in open(patch, encoding='utf-8', errors='surrogateescape'):
        if ln.startswith('diff --git '):
            keep = True
        elif ln == '-- \n':
            keep = False
        if keep:
            part.append(ln)
    return hashlib.sha256(''.join(part).encode('utf-8', 'surrogateescape')).hexdigest()[:16]


def image_of(path):
    """An image's name for the table, and for a kernel-fix image (based-on,
    patches) the base image and the patches it was built with."""
    if not path:
        return '?', None
    based = os.path.join(path, 'based-on')
    if not os.path.exists(based):
        return os.path.basename(path.rstrip('/')), None
    base = open(based).read().strip()
    pl = os.path.join(path, 'patches')
    pats = [ln.strip() for ln in open(pl) if ln.strip()] if os.path.exists(pl) else []
    return f'{base} + {len(pats)} patches', (base, pats)


def data(d, dest, arch, config, command):
    s = json.load(open(os.path.join(d, 'summary.json')))
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../..'))
    rows, fixed, compat = [], {}, {}
    for run in s['runs']:
        src = os.path.join(run_dir(d, run['kernel'], run['cell'], run['mode']), 'out', 'stress.dat')
        qc = os.path.join(run_dir(d, run['kernel'], run['cell'], run['mode']), 'guest', 'qemu-command')
        m = re.search(r'max-cpu-compat=(\w+)', open(qc).read()) if os.path.exists(qc) else None
        if m:
            compat.setdefault(m.group(1), set()).add(run['cell'])
        name = f'{run["kernel"]}-{run["cell"]}-{run["mode"]}.dat'
        shutil.copyfile(src, os.path.join(dest, name))
        label, fix = image_of(run['image'])
        if fix:
            fixed[run['kernel']] = fix
        rows.append(f'| {name} | {label} | {run["cell"]} '
                    f'({run["params"]["N"]} processes, {run["params"]["K"]} domains, audit '
                    f'{run["params"]["AUDIT"]}, smp {run["params"]["SMP"]}) | {run["mode"]} | '
                    f'{run["bogo_ops_s"]:.2f} | {run["recorded_ops"]} | {run["stress_ng"]} | '
                    f'{os.path.getsize(os.path.join(dest, name))} |')
    shutil.copyfile(os.path.join(d, 'summary.json'), os.path.join(dest, 'summary.json'))
    with open(os.path.join(dest, 'PROVENANCE.md'), 'w') as f:
        f.write(f'''# The reporter's table: stress-ng kill under the reporter's conditions

Recorded by `{command}`
(scripts/kernel/record/kernel-reporter --help says what each cell is) in QEMU
pseries (POWER10 model), TCG `-icount shift=0,sleep=off` (1 ns per
instruction: every figure is instructions, not silicon time), {arch}
kernels of config `{config}` (scripts/kernel/build/build-kernel --config {config},
entrytrace variant, events off in the timed run), Debian's stress-ng
(ppc64el) and, for the audit cells, Debian's auditd/auditctl
(scripts/guest/guest-sysroot --auditd).  Each guest: the policy of
scripts/guest/selinux/gen-policy K (enforcing, permissive) or none
(disabled: booted without selinux in lsm=), the population workload, audit,
`stress-ng --kill 1 -t {s["t"]} --metrics-brief` untraced (bogo-ops/s below,
the table's), then `stress-ng --kill 1 --kill-ops {s["ops"]} --metrics-brief`
recorded by the guest's `trace-cmd record -e entry_stage:entry_stage_summary
-e entry_stage:entry_stage_calib -e syscalls:sys_enter_kill` (the .dat here).
summary.json: what kernel-reporter collected from each run (stress-ng's
output, the plan's process counts, the AVC's cache_stats, auditctl -s/-l)
and derived from each recording; `kernel-reporter --from {os.path.relpath(dest, os.path.join(os.path.dirname(__file__), '../../..'))}`
derives the recordings' figures again and prints the table
(analyzer/tests/t-reporter.sh).

| file | kernel image | cell | SELinux mode | bogo-ops/s (timed run) | bogo-ops recorded | stress-ng | bytes |
|---|---|---|---|---:|---:|---|---:|
''')
        for r in sorted(rows):
            f.write(r + '\n')
        for cpu, cells in sorted(compat.items()):
            f.write(f'''
The guests of cell {', '.join(sorted(cells))} ran the POWER10 model in {cpu.upper()}
compatibility mode (`-M pseries,...,max-cpu-compat={cpu}`: scripts/guest/run-guest
does so for more than one CPU under -icount and says why): their kernels
took {cpu.upper()}'s paths ("{cpu.upper()} (architected)"), and user space was not
offered ISA 3.1.  A comparison of such a cell with a one-CPU cell mixes
the two.
''')
        for k, (base, pats) in sorted(fixed.items()):
            f.write(f'''
The {k} kernel is `{base}`
with {len(pats)} patches applied, built on a copy of its build directory by
scripts/kernel/dev/kernel-fix (the image's based-on and patches files).
The patches, with the sha256 of their diff parts (first 16 digits) as
the files read when this file was written: the image records their
paths, not their sums.  t-reporter checks them against the tree's.

''')
            for pat in pats:
                rel = os.path.relpath(pat, top) if os.path.isabs(pat) else pat
                num = os.path.basename(pat)[:4]
                sha = diff_sha(pat) if os.path.exists(pat) else 'missing'
                f.write(f'- {num} {sha} `{rel}`\n')
    print(f'wrote {dest}/PROVENANCE.md, summary.json and {len(rows)} recordings', file=sys.stderr)
    return 0


def main():
    a = sys.argv[1:]
    if not a:
        die('usage: kernel-reporter.py collect|table|data ...')
    if a[0] == 'collect' and len(a) == 8:
        return collect(*a[1:])
    if a[0] == 'table' and len(a) in (3, 4):
        return table(a[1], a[2], len(a) == 4 and a[3] == '--json')
    if a[0] == 'data' and len(a) == 6:
        return data(*a[1:])
    die(f'bad arguments {a}')


if __name__ == '__main__':
    sys.exit(main())
