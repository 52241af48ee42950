# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-stage-compare (its arguments: see the call there).
import json, os, sys

path, allowf, sc, tol, lines, top, cfg = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), \
    sys.argv[5] == '1', sys.argv[6], sys.argv[7]
configs = sys.argv[8].split()     # kernel-lib.sh's MIX_CONFIGS
sys.path.insert(0, os.path.join(top, 'scripts', 'lib'))
import stagesdef
from mixfile import Mix, MixError

defs = stagesdef.load()
d = json.load(open(path))
toplevel = [s.name for s in defs.stages if s.parent == 'NONE' and s.phase != 'BODY']


def rows(mix):
    out = {}
    for r in mix[0]['rows']:
        if r['syscall'] == sc:
            out[r['account']] = r
    return out


base, test = rows(d['mix_base']), rows(d['mix_test'])
if not base or not test:
    sys.exit('kernel-stage-compare: no %s sample in %s' % (sc, 'the legacy file' if not base else 'the generic file'))

# how many calls of the syscall each file holds (the stage rows' calls are
# the calls that ran the stage)
nb, nt = (base.get('total', {}).get('calls', 0), test.get('total', {}).get('calls', 0))
if not nb or not nt:
    which, m = ('the legacy file', d['mix_base']) if not nb else ('the generic file', d['mix_test'])
    why = ''
    try:
        mode = Mix(m[0]['path']).head['mode']
    except (MixError, KeyError, IndexError):
        mode = ''
    if mode == 'fallback':
        # whole syscalls only: --events, or a plain path without markers
        # (series v4 on powerpc, which kernel-mix names when it records)
        why = ': it was recorded in fallback mode (whole syscalls, no stage)'
    sys.exit('kernel-stage-compare: no %s total row in %s%s' % (sc, which, why))

kver = d['mix_test'][0].get('kernel', '')
lver = d['mix_base'][0].get('kernel', '')
if not kver:
    # the allowlist's lines are per generic base: without it none applies
    print('kernel-stage-compare: the generic file names no kernel release: annotate it '
          '(entrytrace annotate --vmlinux, as kernel-mix does)', file=sys.stderr)
    sys.exit(2)


def read_bases():
    """scripts/lib/bases: {base or variant: its powerpc entry path},
    {variant: its base}."""
    out, var = {}, {}
    for ln in open(os.path.join(top, 'scripts', 'lib', 'bases')):
        w = ln.split()
        if len(w) >= 3 and w[0] == 'base':
            out[w[1]] = w[2]
        elif len(w) >= 4 and w[0] == 'variant':
            out[w[1]] = w[3]
            var[w[1]] = w[2]
    return out, var


entry, variant_base = read_bases()


def name_of(release):
    """A release's base, or variant: 7.2.12+ is 7.2, 7.2.12-legacy+ (the
    variant's LOCALVERSION, scripts/kernel/configs/7.2-legacy.config)
    7.2-legacy."""
    b = '.'.join(release.split('.')[:2])
    for n in entry:
        if n.startswith(b + '-') and '-' + n.split('-', 1)[1] in release:
            return n
    return b


gbase = name_of(kver)
# a kernel built with scripts/kernel/configs/entrytrace-marks.config
# (kernel-mix --marks): its plain copy keeps the markers where they change
# its code (powerpc's syscall.c and interrupt.c), and its release says so
marks = '-marks' in kver
lbase = name_of(lver) if lver else ''
# a pair of a legacy base (6.12) and a generic one is what the plain scope
# items (X.Y, X.Y/CONFIG) are for; any other pair (7.2-legacy>7.2,
# 6.12>7.2-legacy) has items that name both, LEGACY>GENERIC[/CONFIG]
plain = lbase in entry and '-' not in lbase and '-' not in gbase


def bad_allow(msg):
    # a broken allowlist is a usage error (2), not a difference (1)
    print('kernel-stage-compare: %s: %s' % (allowf, msg), file=sys.stderr)
    sys.exit(2)


allow = {}
for ln in open(allowf):
    if not ln.strip() or ln.startswith('#'):
        continue
    f = ln.rstrip('\n').split('\t')
    if len(f) != 4 or not f[3].strip():
        bad_allow('want STAGE<TAB>WHAT<TAB>BASES<TAB>reason, not %r' % ln.strip())
    # BASES: X.Y for every config, X.Y/CONFIG for that config only; +marks
    # at the end: only for a generic kernel built with the markers
    scope, only_marks = [], set()
    for b in f[2].split(','):
        if b.endswith('+marks'):
            b = b[:-len('+marks')]
            only_marks.add(b)
        scope.append(b)
    for b in scope:
        if '/' in b and b.split('/', 1)[1] not in configs:
            bad_allow('%s: no such config in %r' % (b, ln.strip()))
        pair = b.split('/', 1)[0].split('>')
        for k in pair:
            if k not in entry:
                bad_allow('%s: %s is no base or variant of scripts/lib/bases in %r'
                          % (b, k, ln.strip()))
        # the same tree on both sides (7.2-legacy>7.2): only the conversion
        # may differ, and the line says so
        if len(pair) == 2 and variant_base.get(pair[0]) == pair[1] and \
                not f[3].startswith('the conversion:'):
            bad_allow('%s compares %s with its own tree: the reason must begin '
                      '"the conversion:", not %r' % (b, pair[0], f[3][:40]))
    want = ['%s>%s' % (lbase, gbase), '%s>%s/%s' % (lbase, gbase, cfg)]
    if plain:
        want += [gbase, '%s/%s' % (gbase, cfg)]
    if any(w in scope and (marks or w not in only_marks) for w in want):
        allow[(f[0], f[1])] = [f[3], False]

diffs = []
lk, gk = entry.get(lbase, '?'), entry.get(gbase, '?')
print('%s, %s %s -> %s %s, %s config (median instructions per call; kinds per call)'
      % (sc, lk, d['mix_base'][0].get('kernel', '?'), gk, kver, cfg))
# the columns: the entry paths where they differ, else the kernels
cl, cg = (lk, gk) if lk != gk else (lbase, gbase)
print('%-20s %8s %8s %7s  %s' % ('stage', cl, cg, 'delta', 'kinds (%s - %s)' % (cg, cl)))
for st in toplevel:
    b, t = base.get(st), test.get(st)
    if b is None and t is None:
        continue
    bi, ti = (b['p50'] if b else 0), (t['p50'] if t else 0)
    bk = {k: v / b['calls'] for k, v in (b['kinds'] if b else {}).items()}
    tk = {k: v / t['calls'] for k, v in (t['kinds'] if t else {}).items()}
    kd = {k: tk.get(k, 0) - bk.get(k, 0) for k in set(bk) | set(tk)}
    kd = {k: v for k, v in kd.items() if abs(v) >= 0.5}
    print('%-20s %8s %8s %+7g  %s' % (st, bi if b else '-', ti if t else '-', ti - bi,
                                      ' '.join('%s %+g' % (k, round(v, 2)) for k, v in sorted(kd.items()))))
    # A stage that runs in a few calls (a reschedule in the exit loop under
    # stress-ng) has a median of those calls only: what it adds to the
    # syscall is its sum over every call.  Such a stage differs only if
    # that share differs as well.
    bs, ts = (b['sum'] / nb if b else 0), (t['sum'] / nt if t else 0)
    rare = (b and b['calls'] < nb) or (t and t['calls'] < nt)
    if rare:
        print('%-20s ran in %d of %d legacy calls, %d of %d generic: %+.2f instructions per call of %s'
              % ('', b['calls'] if b else 0, nb, t['calls'] if t else 0, nt, ts - bs, sc))
    if abs(ti - bi) > tol and not (rare and abs(ts - bs) <= tol):
        diffs.append((st, 'insns', '%+g instructions' % (ti - bi)))
    for k, v in sorted(kd.items()):
        share = ((t['kinds'].get(k, 0) if t else 0) / nt) - ((b['kinds'].get(k, 0) if b else 0) / nb)
        if not (rare and abs(share) < 0.5):
            diffs.append((st, k, '%s %+g per call' % (k, round(v, 2))))
for g in ('gap',):
    b, t = base.get(g), test.get(g)
    print('%-20s %8s %8s' % ('(' + g + ')', b['p50'] if b else '-', t['p50'] if t else '-'))

bad = 0
print()
for st, what, desc in diffs:
    a = allow.get((st, what))
    if a:
        a[1] = True
        print('allowed: %s %s: %s (%s)' % (st, what, desc, a[0]))
    else:
        print('NOT EXPLAINED: %s %s: %s' % (st, what, desc))
        bad = 1
for (st, what), (why, used) in sorted(allow.items()):
    if not used:
        print('STALE: %s %s is allowed (%s) but does not differ' % (st, what, why))
        bad = 1
if lines:
    seen = {st for st, _, _ in diffs}
    for w in d.get('mix_where', []):
        if w['syscall'] != sc or w['account'] not in seen:
            continue
        for side in ('base', 'test'):
            x = w.get(side)
            if not x:
                continue
            print('  %-18s %-7s %6.1f  %-13s %s %s:%s%s' % (
                w['account'], cl if side == 'base' else cg, x['insns'], w['code'],
                x['first'], w['file'], ','.join(map(str, x['lines'][:8])),
                ' (%s)' % w['inlined'] if w['inlined'] else ''))
print('%d differences, %d explained' % (len(diffs), len(diffs) - sum(
    1 for st, what, _ in diffs if (st, what) not in allow)))
sys.exit(bad)
