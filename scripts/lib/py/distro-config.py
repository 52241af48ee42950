# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/build/distro-config (its arguments: see the call there).
import os, sys
syms = os.environ['ET_SYMS'].split()	# the shell script's list
def read(p):
    d = {}
    for l in open(p):
        l = l.strip()
        if l.startswith('CONFIG_') and '=' in l:
            k, v = l[7:].split('=', 1); d[k] = v
        elif l.startswith('# CONFIG_') and l.endswith(' is not set'):
            d[l[9:-11]] = 'n'
    return d
files = sys.argv[1:]
cf = [read(f) for f in files]
names = ['debian'] + ['[%d]' % i for i in range(1, len(files))]
for i, f in enumerate(files[1:], 1):
    print('[%d] %s' % (i, f))
w = max(len(s) for s in syms)
print('%-*s  %s' % (w, 'CONFIG_', '  '.join('%-7s' % n for n in names)))
for s in syms:
    vals = [c.get(s, '-') for c in cf]
    if all(v == '-' for v in vals):
        continue
    print('%-*s  %s' % (w, s, '  '.join('%-7s' % v for v in vals)))
print("('-': the symbol does not exist there or is not set; n: not set)")
norm = lambda v: 'n' if v in ('-', 'n') else v
for i, c in enumerate(cf[1:], 1):
    diff = [s for s in syms if norm(c.get(s, '-')) != norm(cf[0].get(s, '-'))]
    print('[%d] differs from Debian in %d: %s' % (i, len(diff), ' '.join(diff) if diff else 'none'))
