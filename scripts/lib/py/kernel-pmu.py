# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/kernel-pmu (its arguments: see the call there).
import os, re, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(sys.argv[1]), '..', 'scripts', 'lib'))
import stagesdef
import sysnr
stages = [s.name for s in stagesdef.load(sys.argv[1]).stages]
names = {sysnr.NR['ppc64le'][n]: n for n in ('getppid', 'kill')}
def nums(s):
    return [int(x, 0) for x in s.strip('{}').split(',') if x]
def summaries(path, pmu):
    res, n = {}, 0
    for line in open(path):
        m = re.search(r'entry_stage_summary: .*\bnr=(\d+) .*\bkhz=(\d+) .*\binsns=(\{[^}]*\}) delta=(\{[^}]*\})', line)
        if not m or int(m.group(1)) not in names:
            continue
        n += 1
        khz = int(m.group(2))
        ins, cyc = nums(m.group(3)), nums(m.group(4))
        if len(cyc) != len(stages) or (pmu and len(ins) != len(stages)):
            print('   FAIL: a summary with %d/%d stages, stages.def has %d' % (len(ins), len(cyc), len(stages)))
            sys.exit(1)
        for i, c in enumerate(cyc):
            if c:
                # PMU: cycles; timebase: ticks of khz, to ns (= instructions under -icount)
                res.setdefault((names[int(m.group(1))], stages[i]), []).append(
                    (ins[i] if pmu else None, c if pmu else c * 1e6 / khz))
    return res, n
pmu, npmu = summaries(sys.argv[2] + '/entry_stage_summary.txt', True)
tb, ntb = summaries(sys.argv[3] + '/entry_stage_summary.txt', False)
ptime = {}
for line in open(sys.argv[2] + '/entry_stage_time.txt'):
    m = re.search(r'entry_stage_time: .*\bnr=(\d+) stage=(\w+) .*\bdelta=(\d+) insns=(\d+)', line)
    if m and int(m.group(1)) in names:
        ptime.setdefault((names[int(m.group(1))], m.group(2)), []).append(int(m.group(4)))
if not npmu or not ntb or not ptime:
    print('   FAIL: checked nothing (%d PMU summaries, %d timebase summaries, %d per-stage stages)'
          % (npmu, ntb, len(ptime)))
    sys.exit(2)
med = statistics.median
bad = 0
eq5 = ne5 = 0
print('   %d PMU summaries, %d timebase summaries of getppid and kill' % (npmu, ntb))
print('   %-8s %-18s %5s %9s %9s %9s %9s  %s' % ('syscall', 'stage', 'n', 'PMC5', 'PMC6', 'timebase', 'per-stage', 'PMC5 / PMC6'))
# the loop's stages: those on at least half of a syscall's summaries in both
# kernels; one a timer tick brought into a syscall or two (exit_loop,
# notify_resume) ran at another place in each boot: shown, not compared
def loop_stage(key):
    return all(key in d and 2 * len(d[key]) >= len(d.get((key[0], 'syscall'), []))
               for d in (pmu, tb))
for key in sorted(pmu, key=lambda k: (k[0], stages.index(k[1]))):
    v = pmu[key]
    i5, c6 = med([a for a, _ in v]), med([b for _, b in v])
    t = med([b for _, b in tb[key]]) if key in tb else float('nan')
    ps = med(ptime[key]) if key in ptime else float('nan')
    flag = ''
    if not all(a > 0 and b > 0 for a, b in v):
        flag += ' ZERO'
    # the stamps differ (two mfspr against one mftb): a few instructions
    loop = loop_stage(key)
    if loop and key[1] != 'emit' and not abs(c6 - t) <= max(6, 0.03 * t):
        flag += ' PMC6!=TIMEBASE'
    if loop and key[1] != 'emit' and key in ptime and abs(ps - i5) > max(2, 0.01 * i5):
        flag += ' MODES-DIFFER'
    bad += bool(flag)
    if not loop:
        flag += ' (not the loop\'s: not compared)'
    if key[1] != 'emit':
        eq5 += i5 == c6
        ne5 += i5 != c6
    print('   %-8s %-18s %5d %9.0f %9.0f %9.1f %9.0f  %.2f%s' % (key[0], key[1], len(v), i5, c6, t, ps, i5 / c6, flag))
print('   checks: every stage counted (PMC5, PMC6 > 0); on the loop\'s stages, PMC6 cycles = the timebase'
      ' kernel\'s stage time (-icount: 1 ns = 1 instruction) within max(6, 3%); per-stage PMC5 ='
      ' compact PMC5 (medians)')
print('   %s' % ('FAIL: %d stages' % bad if bad else 'ok'))
print('   PMC5 = PMC6 (the instruction count) on %d of %d stages (emit aside): %s' % (
    eq5, eq5 + ne5, 'MET' if not ne5 else
    'MISSED: QEMU 7.2 TCG counts PMC5 at the end of a translation block chained by goto_tb or'
    ' exit_tb, not of one that ends in an indirect branch (blr, bctr: lookup_and_goto_ptr),'
    ' so PMC5 undercounts any stage with a call or a return in it'))
sys.exit(1 if bad else 0)
