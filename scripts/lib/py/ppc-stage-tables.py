# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/ppc-stage-tables (its arguments: see the call there).
import json, os, re, subprocess, sys

et, defs, files = sys.argv[1], sys.argv[2], sys.argv[3:5]
sys.path.insert(0, os.path.join(os.path.dirname(defs), '..', 'scripts', 'lib'))
import stagesdef
paths = {s.name: s.paths for s in stagesdef.load(defs).all}
order = {n: i for i, n in enumerate(paths)}

def table(f):
    r = json.loads(subprocess.run([et, 'report', '--json', '-c', 'sysloop', '-s',
                                   'getppid,kill,rt_sigreturn', f], capture_output=True,
                                  text=True, check=True).stdout)
    return r['files'][0]['uname'], {(c['syscall'], c['stage']): c for c in r['cells']}

(ua, ta), (ub, tb) = table(files[0]), table(files[1])
print(f'legacy:  {ua}\ngeneric: {ub}')
print(f"{'syscall':14} {'stage':18} {'paths':5} {'legacy n':>9} {'p50':>7} {'generic n':>10} {'p50':>7}")
# Differences of the two kernels, not of the entry paths: (syscall, stage)
# -> (the path that has it, why)
kernel_diff = {
    ('kill', 'notify_resume'): ('generic',
        "7.3's rseq: signal delivery to a legacy (glibc) rseq registration "
        "calls rseq_force_update(), which raises TIF_RSEQ = TIF_NOTIFY_RESUME "
        "on powerpc (no generic TIF bits): one more exit loop pass; 6.12 "
        "updates rseq inside signal delivery"),
}
bad = []
allowed = []
for sc in ('getppid', 'kill', 'rt_sigreturn'):
    stages = sorted({s for (c, s) in ta if c == sc} | {s for (c, s) in tb if c == sc},
                    key=lambda s: order.get(s, 99))
    for st in stages:
        ca, cb = ta.get((sc, st)), tb.get((sc, st))
        p = paths.get(st, '?')
        fa = f"{ca['count']:>9} {ca['p50']:>7.0f}" if ca else f"{'-':>9} {'':>7}"
        fb = f"{cb['count']:>10} {cb['p50']:>7.0f}" if cb else f"{'-':>10} {'':>7}"
        print(f'{sc:14} {st:18} {p:5} {fa} {fb}')
        one_path = ('L' in p) != ('G' in p)
        # a stage in under 5% of the syscalls is incidental (a tick's
        # resched or notify-resume in the exit loop)
        there = ca or cb
        n = (ta if ca else tb).get((sc, 'syscall'), {'count': 1})['count']
        if (ca is None) != (cb is None) and not one_path and there['count'] >= 0.05 * n:
            side, why = kernel_diff.get((sc, st), (None, ''))
            if side == ('legacy' if ca else 'generic'):
                allowed.append(f'{sc} {st}: on the {side} path only: {why}')
            else:
                bad.append(f'{sc} {st}: on one path only, but stages.def says {p}')
for a in allowed:
    print(f'allowed: {a}')
print('\n'.join(bad) if bad else 'same stage names on both paths' +
      (' but the kernel differences allowed above' if allowed else ''))
sys.exit(bool(bad))
