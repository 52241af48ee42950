# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/kernel-mix (its arguments: see the call there).
import statistics, sys
run, rounds, n = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def t(name):
    r, u, s = (float(x) for x in open(f'{run}/{name}/guest/times').read().split())
    return r, u + s
for kind in ('without', 'with'):
    v = [t(f'slow-{kind}-{i}') for i in range(1, rounds + 1)]
    print(f'slowdown: {kind} the plugin: wall ' + ' '.join(f'{w:.2f}' for w, _ in v)
          + f' s, CPU ' + ' '.join(f'{c:.2f}' for _, c in v) + ' s')
a = [t(f'slow-without-{i}') for i in range(1, rounds + 1)]
b = [t(f'slow-with-{i}') for i in range(1, rounds + 1)]
wa, wb = statistics.median(x for x, _ in a), statistics.median(x for x, _ in b)
ca, cb = statistics.median(y for _, y in a), statistics.median(y for _, y in b)
print(f'slowdown: sysloop -n {n} getppid kill0, whole QEMU run, medians of {rounds}: '
      f'wall {wa:.2f} -> {wb:.2f} s ({wb / wa:.2f}x), CPU {ca:.2f} -> {cb:.2f} s ({cb / ca:.2f}x)')
