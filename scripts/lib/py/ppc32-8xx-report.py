# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/host/ppc32-8xx-report (its arguments: see the call there).
import json, os, re, subprocess, sys

et, defs, d, what, basesfile, only = sys.argv[1:7]
arches = sys.argv[7:]
names = {'ppc750': 'Book3S-32, 750 core (g3beige)', 'ppce500': 'e500v2 (mpc8544ds)'}
leroy = {'getppid': '~0%', 'getpgid': '+2.80%', 'fork': '+2.00%', 'execve': '+1.10%'}
sys.path.insert(0, os.path.join(os.path.dirname(defs), '..', 'scripts', 'lib'))
import stagesdef
_defs = stagesdef.load(defs)
order = {s.name: s.id for s in _defs.stages}
paths = {s.name: s.paths for s in _defs.stages}


def need(path):
    if not os.path.exists(path):
        sys.exit(f'ppc32-8xx-report: {path} missing: run scripts/kernel/record/ppc32-fixtures with the bases of scripts/lib/bases')
    return path


def ops(arch, base):
    r = {}
    for line in open(need(f'{d}/{arch}-{base}-bench.out')):
        w = line.split()
        if len(w) >= 7 and w[0] == 'sysbench:':
            r[w[1]] = (int(w[2]), int(w[4]) / int(w[2]))
    return r


# the legacy base first; every other is generic entry, shown beside it
bases = [tuple(l.split()[1:3]) for l in open(basesfile) if l.split()[:1] == ['base']]
if only:
    # --bases may name a powerpc variant too ('variant NAME BASE ENTRY
    # DONOR': 7.2-legacy, 7.2 with the legacy entry): the conversion alone
    bases += [(w[1], w[3]) for w in (l.split() for l in open(basesfile)) if w[:1] == ['variant']]
    bad = [b for b in only.split() if b not in [x for x, _ in bases]]
    if bad:
        sys.exit('ppc32-8xx-report: --bases: %s not in %s' % (' '.join(bad), basesfile))
    bases = [x for x in bases if x[0] in only.split()]
bases.sort(key=lambda x: x[1] != 'legacy')
if not bases or bases[0][1] != 'legacy':
    sys.exit('ppc32-8xx-report: --bases: no legacy base to compare against')
gen = [b for b, k in bases[1:]]

if what in ('both', 'ops'):
    print('Instructions per op, every entry_stage event off (sysbench, -icount):')
    print()
    head = ''.join(f" {b + ' ' + k:>12}" for b, k in bases)
    chg = ''.join(f" {b + ' chg':>8}" for b in gen)
    print(f"{'proxy':8} {'loop':8}{head}{chg}   8xx (Leroy)")
    for a in arches:
        r = {b: ops(a, b) for b, k in bases}
        for m in ('getppid', 'getpgid', 'fork', 'execve'):
            for b, k in bases:
                if m not in r[b]:
                    sys.exit(f'ppc32-8xx-report: {a} {b}: no {m} line in the bench output')
            l = r[bases[0][0]][m][1]
            cols = ''.join(f' {r[b][m][1]:12.0f}' for b, k in bases)
            chs = ''.join(f" {(r[b][m][1] - l) / l * 100:+7.2f}%" for b in gen)
            print(f'{a:8} {m:8}{cols}{chs}   {leroy[m]}')
    print()
    print(f'chg: against {bases[0][0]} legacy.')
    print()


def cells(f):
    r = subprocess.run([et, 'report', '--json', '-c', 'sysbench', '-s',
                        'getppid,getpgid,clone,execve,wait4', f],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'ppc32-8xx-report: entrytrace report {f}: {r.stderr.strip()}')
    j = json.loads(r.stdout)
    return j['files'][0].get('uname', ''), {(c['syscall'], c['stage']): c for c in j['cells']}


if what in ('both', 'stages'):
    for a in arches:
        u, t = {}, {}
        for b, k in bases:
            u[b], t[b] = cells(need(f'{d}/{a}-{b}-bench.dat'))
        print(f'{a}: {names.get(a, a)}; medians in instructions, stamps subtracted')
        for b, k in bases:
            print(f'  {b + " " + k + ":":14} {u[b]}')
        head = ''.join(f" {'n ' + b:>7} {'p50':>6}" for b, k in bases)
        dh = ''.join(f" {'d ' + b:>7}" for b in gen)
        print(f"  {'syscall':8} {'stage':18}{head}{dh}")
        for sc in ('getppid', 'getpgid', 'clone', 'execve', 'wait4'):
            st = sorted({s for b in t for (c, s) in t[b] if c == sc},
                        key=lambda s: (order.get(s, 99), s))
            for s in st:
                c = {b: t[b].get((sc, s)) for b, k in bases}
                # a stage in fewer than 5% of the calls: incidental (a tick)
                n = {b: t[b].get((sc, 'syscall'), {'count': 1})['count'] for b, k in bases}
                if all(not c[b] or c[b]['count'] < 0.05 * n[b] for b, k in bases):
                    continue
                f = ''.join(f" {c[b]['count']:>7} {c[b]['p50']:>6.0f}" if c[b]
                            else f" {'-':>7} {'':>6}" for b, k in bases)
                l = c[bases[0][0]]
                df = ''.join(f" {c[b]['p50'] - l['p50']:>+7.0f}" if l and c[b]
                             else f" {'':>7}" for b in gen)
                on = [b for b, k in bases if c[b]]
                note = '' if len(on) == len(bases) else \
                    f"   only on {', '.join(on)} (paths {paths.get(s, 'derived')})"
                print(f'  {sc:8} {s:18}{f}{df}{note}'.rstrip())
        print(f"  d: the median's change against {bases[0][0]} legacy")
        print()


def staged_fork(a, b):
    """The staged run's fork loop: its per op from ARCH-BASE-bench.expect
    (the sysbench line of the run the .dat recorded, the last one), and the
    fork loop's clone and wait4 calls from the .dat: the main task's first
    400 clones (the execve loop's come after them) and the wait4s before
    the next clone, summed by stage."""
    x = need(f'{d}/{a}-{b}-bench.expect')
    pid = per_op = n = None
    for line in open(x):
        w = line.split()
        if w[:3] == ['sysloop:', 'fork', 'clone']:
            pid, n = w[4].removeprefix('pid='), int(w[3])
        elif w[:2] == ['sysbench:', 'fork'] and len(w) >= 7:
            per_op = int(w[4]) / int(w[2])
    if pid is None or per_op is None:
        sys.exit(f'ppc32-8xx-report: {x}: no fork loop')
    f = need(f'{d}/{a}-{b}-bench.dat')
    r = subprocess.run([et, 'list', '-p', pid, '-s', 'clone', f], capture_output=True, text=True)
    ts = [l.split()[2].rstrip(':') for l in r.stdout.splitlines() if ' clone(' in l]
    if r.returncode or len(ts) <= n:
        sys.exit(f'ppc32-8xx-report: {f}: {len(ts)} clones of pid {pid}, the fork loop has {n} and the execve loop more')
    # entered from the first fork clone up to before the execve loop's first
    end = '%d.%09d' % divmod(int(ts[n].replace('.', '')) - 1, 10**9)
    r = subprocess.run([et, 'report', '--json', '-p', pid, '-s', 'clone,wait4',
                        '-w', f'{ts[0]},{end}', f], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'ppc32-8xx-report: entrytrace report {f}: {r.stderr.strip()}')
    sums, counts = {}, {}
    for c in json.loads(r.stdout)['cells']:
        sums[c['stage']] = sums.get(c['stage'], 0) + c['total']
        if c['stage'] == 'syscall':
            counts[c['syscall']] = c['count']
    if counts != {'clone': n, 'wait4': n}:
        sys.exit(f'ppc32-8xx-report: {f}: fork loop window holds {counts}, not {n} clone and {n} wait4')
    top = {s.name for s in _defs.stages if s.parent == 'NONE'}
    # the body and the tracer apart; every other top-level stage is the
    # entry and exit code; the derived ones as they are
    own = ('syscall', 'emit')
    acc = {s: sums.get(s, 0) for s in own}
    acc['entry/exit'] = sum(v for s, v in sums.items() if s in top and s not in own)
    for s in _defs.derived:
        if s.name in sums and s.name != 'total':
            acc[s.name] = sums[s.name]
    acc = {k: v / n for k, v in acc.items()}
    acc['rest'] = per_op - sum(acc.values())
    acc['exit_loop'] = sums.get('exit_loop', 0) / n
    return per_op, acc


if what == 'fork':
    print('fork, per op (instructions), the staged run of the bench recordings:')
    print('the fork loop\'s clone and wait4 calls, each stage summed over both and')
    print('divided by the ops; syscall holds the child\'s run (one CPU: the child')
    print('runs while its parent is inside clone or wait4), entry/exit is every')
    print('other top-level stage of the two but emit (the tracer), rest is per op')
    print('less the parts (the loop\'s own user code outside user_gap);')
    print('exit_loop is the part of entry/exit that is the exit work loop')
    print()
    on = {(a, b): staged_fork(a, b) for a in arches for b, k in bases}
    keys = ['syscall', 'entry/exit', 'emit']
    keys += [s.name for s in _defs.derived if any(s.name in v[1] for v in on.values())]
    keys += ['rest', 'exit_loop']
    print(f"{'proxy':8} {'base':5} {'off/op':>8} {'on/op':>8}" + ''.join(f' {k:>10}' for k in keys))
    for a in arches:
        off = {b: ops(a, b)['fork'][1] for b, k in bases}
        on_ = {b: on[a, b] for b, k in bases}
        l = bases[0][0]
        for b, k in bases:
            print(f'{a:8} {b:5} {off[b]:8.0f} {on_[b][0]:8.0f}' + ''.join(f' {on_[b][1][k]:10.0f}' for k in keys))
        for b in gen:
            print(f"{a:8} {'d ' + b:5} {off[b] - off[l]:+8.0f} {on_[b][0] - on_[l][0]:+8.0f}" +
                  ''.join(f' {on_[b][1][k] - on_[l][1][k]:+10.0f}' for k in keys))
    print()
    print(f'd: the change against {bases[0][0]} legacy; off/op is sysbench with every event off.')
