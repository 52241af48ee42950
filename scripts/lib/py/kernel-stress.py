# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/kernel-stress (its arguments: see the call there).
import os, re, sys
d, t, bases, modes = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
def bogo(path):
    # --metrics-brief: stressor, bogo ops, real time, usr time, sys time,
    # bogo ops/s (real time), ...
    try:
        for l in open(path):
            m = re.search(r'\]\s+kill\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)', l)
            if m:
                return float(m.group(5))
    except OSError:
        pass
    return None
res, bad = {}, []
for b in bases:
    for m in modes:
        v = bogo(os.path.join(d, '%s-%s' % (b, m), 'out', 'stress.txt'))
        if v is None:
            bad.append('%s %s' % (b, m))
        res[b, m] = v
tax = {'enforcing', 'disabled'} <= set(modes)
out = ['stress-ng --kill 1 -t %s, bogo-ops/s per virtual second (-icount shift=0: '
       'per 1e9 guest instructions)' % t, '']
hdr = '| kernel | ' + ' | '.join(modes) + (' | SELinux tax |' if tax else ' |')
out.append(hdr)
out.append('|---|' + '---:|' * (hdr.count('|') - 2))
fmt = lambda v: '{:,.0f}'.format(v) if v is not None else 'n/a'
for b in bases:
    row = '| %s | ' % b + ' | '.join(fmt(res[b, m]) for m in modes)
    if tax:
        e, x = res[b, 'enforcing'], res[b, 'disabled']
        row += ' | %s' % ('%+.1f%%' % (100 * (e / x - 1)) if e and x else 'n/a')
    out.append(row + ' |')
for b in bases[1:]:
    row = '| delta %s -> %s | ' % (bases[0], b)
    row += ' | '.join('%+.1f%%' % (100 * (res[b, m] / res[bases[0], m] - 1))
                      if res[b, m] and res[bases[0], m] else 'n/a' for m in modes)
    out.append(row + (' | |' if tax else ' |'))
text = '\n'.join(out) + '\n'
open(os.path.join(d, 'table.md'), 'w').write(text)
sys.stdout.write(text)
if bad:
    sys.stderr.write('kernel-stress: no bogo-ops/s from: %s\n' % ', '.join(bad))
    sys.exit(1)
