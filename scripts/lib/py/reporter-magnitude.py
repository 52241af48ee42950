# SPDX-License-Identifier: GPL-2.0
"""The Python half of scripts/host/reporter-magnitude: seed 000's table in
time per bogo-op, what its SELinux-specific part is in cycles, what the
two `sync` per syscall of the generic entry can be worth per op, and where
one op's SELinux work is in the committed guest recordings.

Usage: reporter-magnitude.py ENTRYTRACE ANATOMY.json GUEST-6.12.dat GUEST-7.2.dat
"""
import json
import statistics
import subprocess
import sys

# Seed 000 (the POWER10 report, reply to "[PATCH v5 0/8] Generic IRQ
# entry/exit support for powerpc"): stress-ng --kill 1 -t 23, bogo-ops/s.
REPORT = {
    '7.1': {'enforcing': 69107, 'permissive': 70248, 'disabled': 93566},
    '7.2-rc4': {'enforcing': 56247, 'permissive': 59075, 'disabled': 99240},
}
MODES = ('enforcing', 'permissive', 'disabled')
# Assumed, not known: the clock of the reporter's 9080-HEX (POWER10 E1080
# processor options run at about 3.5 to 4.2 GHz), and what one `sync`
# costs (tens of cycles with nothing to drain, hundreds behind cache-missing
# stores: a range, not a measurement).
GHZ = (3.5, 4.2)
SYNC_CYCLES = (30, 300)
SYNC_PER_SYSCALL = 2  # test_and_clear_thread_flag(): PPC_ATOMIC_ENTRY/EXIT_BARRIER


def die(msg):
    print(f'reporter-magnitude: {msg}', file=sys.stderr)
    sys.exit(1)


def us(ops):
    return 1e6 / ops


def guest_kills(et, path):
    """Per kill(): (total, lsm_task_kill) instructions, from entrytrace list."""
    r = subprocess.run([et, 'list', '-s', 'kill', path], capture_output=True, text=True)
    if r.returncode != 0:
        die(f'entrytrace list {path}: exit {r.returncode}: {r.stderr.strip()[:200]}')
    out = []
    for line in r.stdout.splitlines():
        f = line.split()
        vals = dict(zip(f[6::2], f[7::2])) if len(f) > 7 else {}
        if 'total' not in vals:
            continue
        out.append((int(vals['total']), int(vals.get('lsm_task_kill', 0))))
    if not out:
        die(f'{path}: no kill() in it')
    return out


def main():
    if len(sys.argv) != 5:
        die('usage: reporter-magnitude.py ENTRYTRACE ANATOMY.json GUEST-6.12.dat GUEST-7.2.dat')
    et, anatomy_path = sys.argv[1], sys.argv[2]
    anatomy = json.load(open(anatomy_path))

    print('1. Seed 000 in time per bogo-op (1e6 / bogo-ops/s; POWER10, stress-ng --kill 1 -t 23)')
    print(f'{"mode":<11} {"7.1 us/op":>10} {"7.2-rc4 us/op":>14} {"change us/op":>13}')
    per = {k: {m: us(v[m]) for m in MODES} for k, v in REPORT.items()}
    for m in MODES:
        a, b = per['7.1'][m], per['7.2-rc4'][m]
        print(f'{m:<11} {a:10.3f} {b:14.3f} {b - a:+13.3f}')
    print('SELinux cost per op (mode - disabled):')
    extra = {}
    for m in ('enforcing', 'permissive'):
        a = per['7.1'][m] - per['7.1']['disabled']
        b = per['7.2-rc4'][m] - per['7.2-rc4']['disabled']
        extra[m] = b - a
        print(f'  {m:<10} {a:6.2f} -> {b:6.2f} us ({100 * (b - a) / a:+.0f}%): '
              f'{b - a:+.2f} us = {(b - a) * GHZ[0] * 1e3:,.0f} to {(b - a) * GHZ[1] * 1e3:,.0f} '
              f'cycles more per op at {GHZ[0]}-{GHZ[1]} GHz (assumed clock)')

    rows = anatomy['rows']
    parent = sum(r['per_op'] for r in rows if r['role'] == 'parent')
    child = sum(r['per_op'] for r in rows if r['role'] == 'child')
    ops_kill_all = sum(r['per_op'] for r in rows
                       if r['role'] == 'parent' and r['syscall'] == 'kill(-1, 0)')
    print()
    print(f'2. One op ({anatomy["label"]}, scripts/host/op-anatomy): '
          f'{parent:.2f} syscalls in the parent, {child:.2f} in the child; '
          f'kill(-1, 0) {ops_kill_all:.2f} per op')
    syncs = SYNC_PER_SYSCALL * (parent + child)
    lo = syncs * SYNC_CYCLES[0] / (GHZ[1] * 1e3)
    hi = syncs * SYNC_CYCLES[1] / (GHZ[0] * 1e3)
    print(f'   the generic entry\'s {SYNC_PER_SYSCALL} sync per syscall: {syncs:.1f} per op, '
          f'at {SYNC_CYCLES[0]}-{SYNC_CYCLES[1]} cycles each (a range, not measured) '
          f'{lo:.2f}-{hi:.2f} us per op')
    need = extra['enforcing'] * 1e3 / syncs
    print(f'   to be the SELinux-specific +{extra["enforcing"]:.2f} us alone each would have to cost '
          f'{need:.0f} ns ({need * GHZ[0]:.0f}-{need * GHZ[1]:.0f} cycles) more with SELinux on than off;')
    print(f'   they run before each handler, in every mode: with selinux=0 7.2 was '
          f'{per["7.2-rc4"]["disabled"] - per["7.1"]["disabled"]:+.2f} us per op (faster)')

    print()
    print('3. kill(-1, 0) in the committed guest stress recordings (Debian configs, SELinux enforcing, '
          'ppc64le, QEMU -icount: instructions, not cycles)')
    print(f'{"kernel":<6} {"kills":>6} {"kill(-1,0)":>10} {"its total":>10} {"its lsm_task_kill":>18} '
          f'{"the rest":>9} {"one-target lsm_task_kill":>25} {"checks (ratio)":>15}')
    for path, name in ((sys.argv[3], '6.12'), (sys.argv[4], '7.2')):
        k = guest_kills(et, path)
        # kill(-1, 0) asks every process: the only kill whose LSM hook runs
        # thousands of instructions (one target runs a few hundred)
        many = [x for x in k if x[1] > 8000]
        one = [x[1] for x in k if 0 < x[1] < 2000]
        if not many or not one:
            die(f'{path}: no kill(-1, 0)-like kill (lsm_task_kill > 8000) or no single-target one')
        tot = statistics.median(x[0] for x in many)
        lsm = statistics.median(x[1] for x in many)
        one_m = statistics.median(one)
        rest = statistics.median(x[0] - x[1] for x in many)
        print(f'{name:<6} {len(k):6d} {len(many):10d} {tot:10.0f} {lsm:18.0f} {rest:9.0f} {one_m:25.0f} '
              f'{lsm / one_m:15.1f}')
    print('(medians; kill(-1, 0) is the kill whose LSM hook runs more than 8000 instructions:')
    print(' these recordings carry no arguments, and no other kill() of the op asks more than one task)')


if __name__ == '__main__':
    main()
