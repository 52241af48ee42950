# SPDX-License-Identifier: GPL-2.0
"""The measuring half of scripts/host/bench-analyzer (see its --help).

  bench-analyzer.py CUR PIN PIN_NAME ROUNDS TOL BARE KILL UNC ZST UNC16 UNC4 ZST16 ZST4

Every comparison is a pair run in turn (A then B, the order flipped every
round), each run a whole process measured by the kernel's accounting of it
(GNU time: user + system CPU seconds of it and its children, peak RSS of
its largest process) and a monotonic clock (wall).  A pair gives a ratio; what
is printed is the median of the pairs' ratios with their min and max, and
each side's median [min-max].
"""
import os
import statistics
import subprocess
import sys
import time

(cur, pin, pin_name, rounds, tol, bare, kill, unc, zst, unc16, unc4, zst16,
 zst4) = sys.argv[1:14]
rounds, tol = int(rounds), float(tol)
nul = open(os.devnull, 'wb')
acct = os.path.join(os.path.dirname(bare), '.bench-time.%d' % os.getpid())


def run(cmd):
    """(cpu s, wall s, peak RSS KB) of one run; exits on a failed run.
    Through GNU time: a child forked from Python starts with Python's own
    peak RSS (about 15 MB) and would report no less; time's is 2 MB."""
    t0 = time.monotonic()
    r = subprocess.run(['/usr/bin/time', '-f', '%U %S %M', '-o', acct] + cmd, stdout=nul,
                       stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit('bench: %s exited %d: %s' % (' '.join(cmd), r.returncode,
                                             r.stderr.decode(errors='replace')[:300]))
    u, s, m = open(acct).read().split()[-3:]
    return float(u) + float(s), wall, int(m)


def pairs(a, b, n):
    """n pairs of runs of a and b, in turn, the order flipped each round"""
    ra, rb = [], []
    for k in range(n):
        if k % 2:
            y = run(b)
            x = run(a)
        else:
            x = run(a)
            y = run(b)
        ra.append(x)
        rb.append(y)
    return ra, rb


def mmm(v, fmt='%.3f'):
    """median [min-max]"""
    return (fmt + ' [' + fmt + '-' + fmt + ']') % (statistics.median(v), min(v), max(v))


def ratios(ra, rb, i):
    return [x[i] / y[i] for x, y in zip(ra, rb) if y[i] > 0]


rows, goals, gates = [], [], []


def show(label, name_a, name_b, ra, rb):
    print('%s (%d pairs, A then B, the order flipped each round)' % (label, len(ra)))
    print('  %-34s %-24s %-24s %s' % ('', 'CPU s', 'wall s', 'peak RSS MB'))
    for name, r in ((name_a, ra), (name_b, rb)):
        print('  %-34s %-24s %-24s %s' % (name, mmm([x[0] for x in r]), mmm([x[1] for x in r]),
                                          mmm([x[2] / 1024 for x in r], '%.1f')))
    print('  %-34s %-24s %-24s %s' % ('A/B', mmm(ratios(ra, rb, 0), '%.2f'),
                                      mmm(ratios(ra, rb, 1), '%.2f'),
                                      mmm(ratios(ra, rb, 2), '%.2f')))


def med(ra, rb, i):
    r = ratios(ra, rb, i)
    return statistics.median(r) if r else None


def goal(text, r, op, target):
    if r is None:
        ok, fig = False, 'no figure'
    else:
        ok = r >= target if op == '>=' else r > target if op == '>' else r <= target
        fig = '%.2fx' % r
    goals.append('%-72s %9s  %s' % (text, fig, 'MET' if ok else 'MISSED'))


def gate(text, r):
    """a regression against the pinned build: more than tol over it"""
    bad = r is None or r > 1 + tol
    gates.append('%-72s %9s  %s' % (text, 'no figure' if r is None else '%.2fx' % r,
                                    'REGRESSION' if bad else 'ok'))
    return not bad


print('pinned: %s (%s); tolerance of the regression gate: %.0f%% (median of the '
      'paired ratios)\n' % (pin_name, pin, tol * 100))

# ---- the current build against the pinned commit ------------------------------
ok = True
files = (('kill/getppid 1.6M uncompressed', kill), ('getppid 5.6M uncompressed', unc),
         ('getppid 5.6M zstd', zst))
checked = 0
for label, f in files:
    for mode, opt in (('-j1', ['-j1']), ('default', [])):
        ra, rb = pairs([cur, 'report'] + opt + [f], [pin, 'report'] + opt + [f], rounds)
        show('%s, report %s: A this build, B %s' % (label, mode, pin_name),
             'A entrytrace report ' + mode, 'B %s report %s' % (pin_name, mode), ra, rb)
        c, m = med(ra, rb, 0), med(ra, rb, 2)
        goal('%s, report %s: CPU <= 1.0x %s' % (label, mode, pin_name), c, '<=', 1.0)
        goal('%s, report %s: peak RSS <= 1.0x %s' % (label, mode, pin_name), m, '<=', 1.0)
        ok &= gate('%s, report %s: CPU against %s' % (label, mode, pin_name), c)
        ok &= gate('%s, report %s: peak RSS against %s' % (label, mode, pin_name), m)
        checked += 2
print()

# ---- threads: the default against -j1 on this build ---------------------------
for label, f in files:
    ra, rb = pairs([cur, 'report', f], [cur, 'report', '-j1', f], rounds)
    show('%s: A default (its own threads), B -j1' % label, 'A report', 'B report -j1', ra, rb)
    goal('%s: default not slower than -j1 (wall, A/B)' % label, med(ra, rb, 1), '<=', 1.0)
print()

# ---- against libtracecmd and trace-cmd -----------------------------------------
# the bare loop and trace-cmd report --profile on the whole uncompressed
# trace; trace-cmd report (20x slower) and everything zstd through
# libtracecmd (its chunk list makes it quadratic) on the first 1/16
tr = max(3, rounds // 2)
ra, rb = pairs([cur, 'report', '-j1', unc], [bare, unc], tr)
show('getppid 5.6M uncompressed: A report -j1, B the bare libtracecmd loop', 'A report -j1',
     'B bare-iterate', ra, rb)
goal('uncompressed: -j1 within 1.1x of the bare loop (CPU, A/B)', med(ra, rb, 0), '<=', 1.1)
ra, rb = pairs([bare, unc], [cur, 'report', unc], tr)
show('getppid 5.6M uncompressed: A the bare loop, B report (default)', 'A bare-iterate',
     'B report', ra, rb)
goal('uncompressed: default faster than the bare loop (wall, A/B)', med(ra, rb, 1), '>', 1.0)
ra, rb = pairs(['trace-cmd', 'report', '--profile', unc], [cur, 'report', unc], tr)
show('getppid 5.6M uncompressed: A trace-cmd report --profile, B report', 'A trace-cmd --profile',
     'B report', ra, rb)
goal('uncompressed: default >= 2x trace-cmd report --profile (wall, A/B)', med(ra, rb, 1), '>=', 2)
for label, f in (('uncompressed, first 1/16', unc16), ('zstd, first 1/16', zst16)):
    ra, rb = pairs(['trace-cmd', 'report', f], [cur, 'report', f], tr)
    show('getppid %s: A trace-cmd report, B report' % label, 'A trace-cmd report', 'B report',
         ra, rb)
    goal('%s: default >= 20x trace-cmd report (wall, A/B)' % label, med(ra, rb, 1), '>=', 20)
ra, rb = pairs([bare, zst16], [cur, 'report', zst16], tr)
show('getppid zstd, first 1/16: A the bare loop, B report', 'A bare-iterate', 'B report', ra, rb)
goal('zstd, first 1/16: default >= 3x the bare loop (wall, A/B)', med(ra, rb, 1), '>=', 3)
print()

# ---- memory flat in trace length ----------------------------------------------
print('peak RSS of report (default), MB       1/16        1/4       whole')
for label, parts in (('uncompressed', (unc16, unc4, unc)), ('zstd', (zst16, zst4, zst))):
    rss = [run([cur, 'report', p])[2] / 1024 for p in parts]
    print('  %-34s %8.1f %10.1f %10.1f' % (label, *rss))
    goal('%s: peak RSS flat (whole / first 1/16, 16x the records)' % label,
         rss[2] / rss[0] if rss[0] else None, '<=', 1.5)
print()

print('goals (medians of paired ratios, this run):')
for g in goals:
    print('  ' + g)
print('regression gate (this build against %s, more than %.0f%% over it fails):'
      % (pin_name, tol * 100))
for g in gates:
    print('  ' + g)
if os.path.exists(acct):
    os.unlink(acct)
if checked == 0 or not gates:
    print('bench: FAILED: nothing was checked against the pinned build')
    sys.exit(3)
print('bench: %s: %d of %d gate checks passed' % ('PASSED' if ok else 'FAILED: a regression',
                                                  sum(g.endswith(' ok') for g in gates), len(gates)))
sys.exit(0 if ok else 1)
