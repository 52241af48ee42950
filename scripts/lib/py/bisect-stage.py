# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/dev/bisect-stage (its arguments: see the call there).
import json, sys
d = json.load(open(sys.argv[1]))
out = []
for r in sys.argv[2].split(','):
    if '.' in r.split('>')[0]:
        # a class rule: the kind or class per syscall, base -> test, whole syscall
        sc, _, acc_what = r.split('>')[0].rpartition(':')
        acc, _, what = acc_what.partition('.')
        def per_call(side, name):
            for f in d.get('mix_' + side, []):
                for row in f['rows']:
                    if row['syscall'] == name and row['account'] == (acc if acc != '*' else 'whole'):
                        v = row['classes'].get(what, row['kinds'].get(what, 0))
                        return v / row['calls'] if row['calls'] else 0
            return None
        for name in ([sc] if sc else ['getppid', 'kill']):
            b, t = per_call('base', name), per_call('test', name)
            if b is not None and t is not None:
                out.append(f"{name} {acc} {what} {b:.2f} -> {t:.2f} per call")
        continue
    sc, _, st = r.split('>')[0].rpartition(':')
    cells = [c for c in d['cells'] if (not sc or c['syscall'] == sc) and
             st in ('*', c['stage']) and c['status'] == 'both']
    # the path most of the syscalls took (kill [-], not kill [notify_resume])
    cells.sort(key=lambda c: -(c['n_base'] + c['n_test']))
    for c in cells[:1 if st != '*' else 3]:
        pct = 100 * c['d_mean'] / c['mean_base'] if c['mean_base'] else float('nan')
        out.append(f"{c['syscall']} [{c['work']}] {c['stage']} {c['mean_base']:.1f} -> "
                   f"{c['mean_test']:.1f} ns ({pct:+.1f}%)")
print('; '.join(out) or 'no cell')
