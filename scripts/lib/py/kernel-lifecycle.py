# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-lifecycle (its arguments: see the call there).
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import stagesdef  # noqa: E402
import sysnr  # noqa: E402

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
    ]
    if v.get('kept_on%d' % r, 'missing') != 'missing':
        # series v4: a task keeps its scratch until it is freed, disarmed
        # when staging goes off, and armed again with it when it goes on
        checks += [
            ('round %d: scratch kept while on >= scratch' % r,
             (num('kept_on%d' % r) or 0) >= (num('scratch_on%d' % r) or 1),
             '%s, %s' % (v.get('kept_on%d' % r), v.get('scratch_on%d' % r))),
            ('round %d: scratch kept after off > 0' % r, (num('kept_off%d' % r) or 0) > 0,
             v.get('kept_off%d' % r)),
        ]
    checks += [
        ('round %d: no event with stamp_cost=0' % r, num('cost0_%d' % r) == 0, v.get('cost0_%d' % r)),
    ]
if 'loopw' in v:
    # the window round: the loop's getppid summaries
    pid, wn = (int(x) for x in v['loopw'].split())
    getppid = sysnr.NR[sys.argv[3]]['getppid']
    body = stagesdef.load().by_name['syscall'].id
    mine = timed = 0
    for line in open(sys.argv[2]):
        m = re.search(r'-(\d+) +\[.*entry_stage_summary: .* nr=(\d+) .*delta=\{([^}]*)\}', line)
        if not m or int(m.group(1)) != pid or int(m.group(2)) != getppid:
            continue
        mine += 1
        d = m.group(3).split(',')
        timed += len(d) > body and int(d[body], 16) > 0
    checks += [
        ('window: scratch while on > 0', (num('scratch_onw') or 0) > 0, v.get('scratch_onw')),
        ('window: scratch after off is 0', num('scratch_offw') == 0, v.get('scratch_offw')),
        ('window: summary events recorded', (num('eventsw') or 0) > 0, v.get('eventsw')),
        ('window: no event overwritten (ring buffer overrun)', num('overrunw') == 0, v.get('overrunw')),
        ('window: 1/64 to 1/2 of the loop staged', wn / 64 <= mine <= wn / 2, '%d of %d' % (mine, wn)),
        ('window: every staged loop getppid has its body', mine > 0 and timed == mine,
         '%d of %d' % (timed, mine)),
        ('window: no event with stamp_cost=0', num('cost0_w') == 0, v.get('cost0_w')),
    ]
checks.append(('no BUG/WARNING in the kernel log', num('dmesg_bad') == 0, v.get('dmesg_bad')))
bad = 0
for name, ok, val in checks:
    print('   %-48s %-6s %s' % (name, 'ok' if ok else 'FAIL', val))
    bad += not ok
print('   %d checks, %d failed' % (len(checks), bad))
sys.exit(1 if bad else 0)
