# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-tiling (its arguments: see the call there).
import gzip, os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import stagesdef  # noqa: E402

maxgap, bases, files = int(sys.argv[1]), sys.argv[2].split(), sys.argv[3:]
# The top-level stages in path order: by phase, then by id (stages.def
# appends, and a phase's stages are listed in the order they run).
PHASES = ('ENTRY', 'BODY', 'EXIT')
TOP = tuple(s.name for s in sorted((s for s in stagesdef.load().stages if s.parent == 'NONE'),
                                   key=lambda s: (PHASES.index(s.phase), s.id)))
data = []
for f in files:
    op = gzip.open if f.endswith('.gz') else open
    per = {}
    with op(f, 'rt') as fh:
        for ln in fh:
            w = ln.split()
            if len(w) < 4 or w[0] != 'sample' or w[3] != 'ok':
                continue
            kv = dict(x.split('=', 1) for x in w[4:] if '=' in x)
            d = per.setdefault(w[2], {'gap': [], 'stages': {}})
            d['gap'].append(int(kv['gap']))
            for s in TOP:
                if 's.' + s in kv:
                    d['stages'].setdefault(s, []).append(int(kv['s.' + s]))
    data.append(per)

bad = 0
print('%-8s %-22s' % ('syscall', 'median (instructions)') + ''.join('%12s' % b for b in bases))
for sc in ('getppid', 'kill'):
    row = []
    for b, per in zip(bases, data):
        if sc not in per or not per[sc]['gap']:
            print('kernel-tiling: %s: no ok sample of %s: nothing checked' % (b, sc), file=sys.stderr)
            bad = 1
    gaps = [statistics.median(p[sc]['gap']) if sc in p and p[sc]['gap'] else None for p in data]
    print('%-8s %-22s' % (sc, 'gap') + ''.join('%12s' % ('-' if g is None else '%g' % g) for g in gaps))
    print('%-8s %-22s' % (sc, 'gap (max)') + ''.join(
        '%12s' % (max(p[sc]['gap']) if sc in p and p[sc]['gap'] else '-') for p in data))
    for s in TOP:
        vals = [statistics.median(p[sc]['stages'][s]) if sc in p and s in p[sc]['stages'] else None
                for p in data]
        if all(v is None for v in vals):
            continue
        print('%-8s %-22s' % (sc, s) + ''.join('%12s' % ('-' if v is None else '%g' % v) for v in vals))
    for b, g in zip(bases, gaps):
        if g is not None and g > maxgap:
            print('kernel-tiling: %s %s: median gap %g instructions, over %d: the stages do not tile'
                  % (b, sc, g, maxgap), file=sys.stderr)
            bad = 1
print('samples: ' + ', '.join('%s %s' % (b, '/'.join('%s %d' % (sc, len(p.get(sc, {}).get('gap', [])))
                                                     for sc in ('getppid', 'kill')))
                              for b, p in zip(bases, data)))
sys.exit(bad)
