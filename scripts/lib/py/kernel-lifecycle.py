# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-lifecycle (its arguments: see the call there).
import sys
v = {}
for line in open(sys.argv[1]):
    k, _, x = line.strip().partition(' ')
    v[k] = x
def num(k):
    try:
        return int(v.get(k, ''))
    except ValueError:
        return None
checks = [('scratch at boot is 0', num('scratch_boot') == 0, v.get('scratch_boot'))]
for r in (1, 2, 3):
    checks += [
        ('round %d: scratch while on > 0' % r, (num('scratch_on%d' % r) or 0) > 0, v.get('scratch_on%d' % r)),
        ('round %d: scratch after off is 0' % r, num('scratch_off%d' % r) == 0, v.get('scratch_off%d' % r)),
        ('round %d: scratch after 20 forks while off is 0' % r, num('scratch_fork%d' % r) == 0, v.get('scratch_fork%d' % r)),
        ('round %d: summary events recorded' % r, (num('events%d' % r) or 0) > 0, v.get('events%d' % r)),
        ('round %d: no event with stamp_cost=0' % r, num('cost0_%d' % r) == 0, v.get('cost0_%d' % r)),
    ]
checks.append(('no BUG/WARNING in the kernel log', num('dmesg_bad') == 0, v.get('dmesg_bad')))
bad = 0
for name, ok, val in checks:
    print('   %-48s %-6s %s' % (name, 'ok' if ok else 'FAIL', val))
    bad += not ok
print('   %d checks, %d failed' % (len(checks), bad))
sys.exit(1 if bad else 0)
