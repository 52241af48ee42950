# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-coverage (its arguments: see the call there).
import glob, json, os, re, statistics, subprocess, sys

out, defs, statsfile, entrytrace = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
arch = sys.argv[5]
sys.path.insert(0, os.path.join(os.path.dirname(defs), '..', 'scripts', 'lib'))
import stagesdef
import sysnr
_defs = stagesdef.load(defs)
stages = [(s.sym, s.name, s.phase, s.parent, s.paths, s.kind) for s in _defs.stages]
works = [(w.sym, w.name) for w in _defs.works]
name_of = {sym: name for sym, name, *_ in stages}
kind_of = {name: kind for _, name, _, _, _, kind in stages}
stage_id = {name: i for i, (_, name, *_) in enumerate(stages)}
work_bit = {name: i for i, (_, name) in enumerate(works)}
NR = sysnr.NR[arch]

every = ['arch_enter', 'ct_user_exit', 'rcu_eqs_exit', 'kstack_rand', 'irq_on',
         'syscall', 'exit_prepare', 'arch_exit_prepare']
# exit_restart: only when powerpc redoes the exit (an interrupt became pending)
deferred = [n for n, k in kind_of.items() if k == 'DEFERRED' and n != 'exit_restart']
work_stages = ['entry_work', 'user_dispatch', 'rseq_slice', 'enter_ptrace', 'seccomp',
               'enter_tracepoint', 'enter_audit', 'lsm_task_kill', 'exit_work',
               'exit_audit', 'exit_tracepoint', 'exit_ptrace', 'uprobe', 'klp', 'signal']
# mode -> syscall -> (work stages it must run, path signature bits it must show)
want = {
    'getppid': {'getppid': ([], [])},
    'kill0': {'kill': (['lsm_task_kill'], [])},
    'killsig': {'kill': (['lsm_task_kill', 'signal'], ['signal']),
                'rt_sigreturn': ([], [])},
    'seccomp': {'getppid': (['entry_work', 'seccomp'], ['seccomp'])},
    'sud': {'getppid': (['entry_work', 'user_dispatch', 'exit_work'], ['user_dispatch'])},
    'ptrace': {'getppid': (['entry_work', 'enter_ptrace', 'exit_work', 'exit_ptrace'],
                           ['ptrace'])},
    'audit': {'getppid': (['entry_work', 'enter_audit', 'exit_work', 'exit_audit'],
                          ['audit'])},
}
raw_want = (['entry_work', 'enter_tracepoint', 'exit_work', 'exit_tracepoint'], ['tracepoint'])
# Series v3 (a kernel whose events name arch_syscall_entry): the stages tile
# the syscall, so entry_work, arch_syscall_entry, arch_syscall_exit and
# exit_work run on every syscall, on every arch.
def is_v3():
    for dat in glob.glob(f'{out}/stage-*.dat'):
        r = subprocess.run(['trace-cmd', 'report', '-i', dat], capture_output=True, text=True)
        if 'arch_syscall_entry' in r.stdout:
            return True
    return False
v3 = is_v3()
if v3:
    every += ['entry_work', 'arch_syscall_entry', 'arch_syscall_exit', 'exit_work']
    work_stages = [s for s in work_stages if s not in ('entry_work', 'exit_work')]
    for m in want.values():
        for sc, (st, bits) in list(m.items()):
            m[sc] = ([s for s in st if s not in ('entry_work', 'exit_work')], bits)
    raw_want = ([s for s in raw_want[0] if s not in ('entry_work', 'exit_work')], raw_want[1])
print('# series %s stage set' % ('v3' if v3 else 'v2'))
if arch == 'ppc64le':
    kver = re.search(r'Linux version (\d+)\.(\d+)', open(f'{out}/version').read())
    legacy = tuple(map(int, kver.groups())) < (7, 2)
    if 'arch_syscall_exit' not in every:
        every.append('arch_syscall_exit')   # syscall_exit_prepare()'s head
    if legacy and not v3:
        # _TIF_SECCOMP is in _TIF_SYSCALL_DOTRACE: do_syscall_trace_leave() runs
        want['seccomp'] = {'getppid': (['entry_work', 'seccomp', 'exit_work'], ['seccomp'])}

# where a stage is: stages.def's arches column, not a list here.  A mode
# whose stages are not all on this arch is not recorded on it (sud:
# user_dispatch is X86's)
here = {s.name for s in _defs.stages if _defs.on_arch(s, arch)}
every = [st for st in every if st in here]
deferred = [st for st in deferred if st in here]
for m in [m for m, scs in want.items()
          if any(st not in here for need, _ in scs.values() for st in need)]:
    del want[m]

results = []
def check(ok, desc, detail=''):
    results.append(bool(ok))
    print(('ok - ' if ok else 'not ok - ') + desc + ('' if ok or not detail else ': ' + detail))

line_re = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\w+):\s+(.*)$')
def events(dat):
    rep = subprocess.run(['trace-cmd', 'report', '-i', dat], capture_output=True,
                         text=True, check=True).stdout
    for line in rep.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        rest, name = m.group(6), m.group(5)
        f = {}
        if ' delta=' in rest and name == 'entry_stage_summary':
            # the delta array is the last field and may contain spaces
            rest, f['delta'] = rest.split(' delta=', 1)
        f.update(re.findall(r'(\w+)=(\S+)', rest))
        if name == 'entry_stage_time':
            name = f['stage']       # printed by name (__print_symbolic)
        elif name == 'entry_stage_summary':
            name = 'summary'
        yield int(m.group(2)), name, f

def announced(outfile):
    return [(m, sc, int(n), int(pid)) for m, sc, n, pid in
            re.findall(r'^sysloop: (\S+) (\S+) (\d+) pid=(\d+)$', open(outfile).read(), re.M)]

def num(v):
    return int(v, 0)

def u32_array(v):
    # libtraceevent prints __print_array as decimals separated by spaces;
    # the kernel's own output is {0x1,0x2,...}; a libtraceevent that cannot
    # parse the element size prints the raw bytes: ARRAY[01, 00, 00, 00, ...]
    if v.startswith('ARRAY['):
        b = bytes(int(x, 16) for x in v[6:-1].split(','))
        return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b), 4)]
    if v.startswith('{'):
        return [int(x, 16) for x in v.strip('{}').split(',')]
    return [int(x) for x in v.split()]

def check_report(tag, dat, pid, sc, n, need, bits, with_deferred):
    """The same expectations, through the analyzer: entrytrace report --json."""
    r = subprocess.run([entrytrace, 'report', '--json', '--by-work', '--no-breakdown',
                        '-p', str(pid), '-s', sc, dat], capture_output=True, text=True)
    if r.returncode != 0:
        check(False, f'{tag}: entrytrace report {sc}', r.stderr.strip()[:200])
        return
    rep = json.loads(r.stdout)
    cells = [c for c in rep['cells'] if c['syscall'] == sc]
    count = {}
    for c in cells:
        count[c['stage']] = count.get(c['stage'], 0) + c['count']
    if rep['files'][0]['syscalls']['flagged']['no_tail']:
        # both modes (series v2): a loop syscall followed by exit_group
        # never gets its deferred stages (they would ride on exit_group's
        # burst, which never comes): the analyzer flags it no_tail, counts
        # its stages and leaves it out of 'total'
        n_ok = (n, n - 1)
    else:
        n_ok = (n,)
    check(count.get('total') in n_ok, f'{tag}: entrytrace report: {n} complete {sc} syscalls',
          f'total count {count.get("total")}, want {n_ok}')
    want_st = every + need
    bad = [f'{st}={count.get(st, 0)}' for st in want_st if count.get(st, 0) != n]
    if with_deferred:
        bad += [f'{st}={count.get(st, 0)}' for st in deferred if count.get(st, 0) not in n_ok]
    check(not bad, f'{tag}: entrytrace report: {sc}: every required stage on every syscall', ' '.join(bad))
    extra = [f'{st}={count[st]}' for st in work_stages if st not in need and count.get(st)]
    check(not extra, f'{tag}: entrytrace report: {sc}: no other work stage', ' '.join(extra))
    sigs = {c['work'] for c in cells}
    nobits = [w for w in sigs if not all(b in w.split('|') for b in bits)]
    check(not nobits, f'{tag}: entrytrace report: {sc}: path signature has {bits}', str(nobits))

def check_stage_file(tag, dat, outfile, spec):
    ev = [(pid, name, f) for pid, name, f in events(dat) if name in stage_id]
    for mode, sc, n, pid in announced(outfile):
        need, _ = spec[sc]
        nr = NR[sc]
        mine = [(name, f) for p, name, f in ev if p == pid]
        loop = {num(f['seq']) for name, f in mine if name == 'syscall' and num(f['nr']) == nr}
        check(len(loop) == n, f'{tag}: {n} {sc} syscall events of pid {pid}', f'found {len(loop)}')
        seen = {}
        for name, f in mine:
            s = num(f['seq'])
            if s in loop:
                seen.setdefault(name, set()).add(s)
        for st in every + need:
            got = len(seen.get(st, ()))
            check(got == len(loop), f'{tag}: {sc}: {st} on every loop syscall',
                  f'{got} of {len(loop)}')
        for st in deferred:
            # written in the next syscall's burst: the last loop syscall's
            # are lost when the task's next syscall is exit_group
            missing = loop - seen.get(st, set())
            check(not missing or missing == {max(loop)},
                  f'{tag}: {sc}: {st} on every loop syscall (the last one\'s if the task goes on)',
                  f'missing on {len(missing)} of {len(loop)}: seq {sorted(missing)[:5]}')
        for st in work_stages:
            if st in need:
                continue
            got = len(seen.get(st, ()))
            check(got == 0, f'{tag}: {sc}: no {st}', f'on {got} of {len(loop)} syscalls')
        check_report(tag, dat, pid, sc, n, need, spec[sc][1], True)
        if sc == 'getppid' and tag.startswith('stage-getppid'):
            # counter ticks to ns (under -icount: instructions)
            yield {st: sorted(round(num(f['delta']) * 1e6 / num(f['khz'])) for name, f in mine
                              if name == st and num(f['seq']) in loop) for st in seen}

def check_compact_file(tag, dat, outfile, spec):
    ev = [(pid, f) for pid, name, f in events(dat) if name == 'summary']
    for mode, sc, n, pid in announced(outfile):
        need, bits = spec[sc]
        nr = NR[sc]
        mine = [f for p, f in ev if p == pid and num(f['nr']) == nr]
        check(len(mine) == n, f'{tag}: {n} {sc} summary events of pid {pid}', f'found {len(mine)}')
        seqs = {num(f['seq']) for f in mine}
        bad_req, bad_forbid, bad_bits, bad_tail = [], [], [], []
        for f in mine:
            d = u32_array(f['delta'])
            seq, tail = num(f['seq']), num(f['tail_seq'])
            work = num(f['work'])
            for st in every + need:
                if d[stage_id[st]] == 0:
                    bad_req.append((seq, st))
            for st in work_stages:
                if st not in need and d[stage_id[st]] != 0:
                    bad_forbid.append((seq, st))
            for b in bits:
                if not work & (1 << work_bit[b]):
                    bad_bits.append((seq, b))
            if seq - 1 in seqs:
                # the previous syscall was a loop syscall too: its deferred stages
                if tail != seq - 1 or any(d[stage_id[st]] == 0 for st in deferred):
                    bad_tail.append(seq)
        check(not bad_req, f'{tag}: {sc}: summary has every required stage', str(bad_req[:5]))
        check(not bad_forbid, f'{tag}: {sc}: summary has no other work stage', str(bad_forbid[:5]))
        check(not bad_bits, f'{tag}: {sc}: summary path signature has {bits}', str(bad_bits[:5]))
        check(not bad_tail, f'{tag}: {sc}: summary carries the previous syscall\'s deferred stages',
              str(bad_tail[:5]))
        check_report(tag, dat, pid, sc, n, need, bits, False)

stat = None
modes = [m for m in want if os.path.exists(f'{out}/stage-{m}.dat')]
check(len(modes) == len(want), 'every mode was recorded', f'have {modes}')
for m in modes:
    for s in check_stage_file(f'stage-{m}', f'{out}/stage-{m}.dat', f'{out}/stage-{m}.out', want[m]):
        stat = s
    check_compact_file(f'compact-{m}', f'{out}/compact-{m}.dat', f'{out}/compact-{m}.out', want[m])
if os.path.exists(f'{out}/rawsys-getppid.dat'):
    list(check_stage_file('rawsys-getppid', f'{out}/rawsys-getppid.dat',
                          f'{out}/rawsys-getppid.out', {'getppid': raw_want}))
else:
    check(False, 'raw_syscalls run was recorded')

if statsfile and stat:
    with open(statsfile, 'w') as fh:
        for st in sorted(stat, key=lambda s: stage_id[s]):
            v = stat[st]
            if v:
                med = statistics.median(v)
                over = sum(1 for x in v if x > 2 * med)
                fh.write(f'{st} n={len(v)} median={med:.0f} min={v[0]} max={v[-1]} over2x={over}\n')
passed, failed = results.count(True), results.count(False)
print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
