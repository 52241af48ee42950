# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/check/kernel-hotpath (its arguments: see the call there).

import sys
sys.path.insert(0, sys.argv[4])
sys.path.insert(0, sys.argv[4] + '/../lib')
from kelf import Elf, disasm, is_uncond, jump_labels, objdump_tool, sites, target_of
import siteabi
import stagesdef

base, var, cmode = Elf(sys.argv[1]), Elf(sys.argv[2]), sys.argv[3]
nobase = sys.argv[5] == '1'
tool, kind = objdump_tool(var)
jl = jump_labels(var)
abi = siteabi.load()
mark = siteabi.mark_flag(abi)
table = sites(var)
# zero-width markers (MARK: no branch of their own; a plain copy's, or a
# staged copy's in front of its stamp, which always runs) apart
site = {a: (st, ed, st2, fl) for a, st, ed, st2, fl in table if not fl & mark}
nmarks = 0
marks = {}
for a, st, ed, st2, fl in table:
    if fl & mark:
        nmarks += 1
        marks.setdefault(var.func_at(a) or '?', set()).add(a)
by_func = {}
for addr in site:
    by_func.setdefault(var.func_at(addr) or '?', set()).add(addr)
if not by_func:
    sys.exit('kernel-hotpath: %s has no .entry_stage_sites' % var.path)

def func(elf, name):
    for a, size, n in elf.funcs:
        if n == name and size:
            return a, size
    return None

bad = inline = 0
total = 0
jumps = []	# (function, offset, site, jmp) of every NOP + jmp over stamp code
exits = []	# the same, for a NOP that ends an out-of-line block


def block_exit(vi, idx, j, target):
    """True if the stamp code at vi[idx] (the static branch's target, right
    after the NOP's jmp at j) ends by jumping back to the jmp's own target,
    behind the site: the jmp is then the way back of an out-of-line block
    (a cold branch GCC put at the end of the function), which that block
    has without the stamp too, and the off path runs no instruction more."""
    if target is None or target > j:
        return False
    for a, m, o in vi[idx:idx + 40]:
        if is_uncond(kind, m):
            return m in ('jmp', 'jmpq', 'b') and target_of(o) == target
    return False

print('%-34s %10s %10s %5s  %s' % ('function', 'base insns', 'entrytrace', 'sites',
                                    'off-state instruction at each site'))
for name in sorted(by_func, key=lambda n: (-len(by_func[n]), n)):
    f = func(var, name)
    if not f:
        continue
    vi = disasm(tool, var.path, f[0], f[0] + f[1])
    bf = None if nobase else func(base, name)
    bi = disasm(tool, base.path, bf[0], bf[0] + bf[1]) if bf else []
    at = {a: (m, o) for a, m, o in vi}
    nxt = {vi[i][0]: vi[i + 1] for i in range(len(vi) - 1)}
    pos = {vi[i][0]: i for i in range(len(vi))}
    kinds = {}
    for s in sorted(by_func[name]):
        total += 1
        m = at.get(s, ('?', ''))[0]
        desc = 'nop' if m in ('nop', 'xchg', 'nopl', 'nopw') or m.startswith('nop') else m
        if s not in jl or desc != 'nop':
            bad += 1
        n = nxt.get(s)
        if n and n[1] in ('jmp', 'b') and jl.get(s) == (nxt.get(n[0]) or (0,))[0]:
            if block_exit(vi, pos[jl[s]], n[0], target_of(n[2])):
                desc += ' ending a block'
                exits.append((name, s - f[0], s, n[0]))
            else:
                desc += '+jmp'
                inline += 1
                jumps.append((name, s - f[0], s, n[0]))
        kinds[desc] = kinds.get(desc, 0) + 1
    print('%-34s %10s %10d %5d  %s' % (name, len(bi) if bf else '-', len(vi),
                                        len(by_func[name]),
                                        ', '.join('%d x %s' % (c, k) for k, c in sorted(kinds.items()))))
print('stamp sites: %d, %d of them NOP + a jump over in-line stamp code (%s build)'
      % (total, inline, cmode))
print('zero-width markers (no branch: a plain copy\'s, or a staged copy\'s stamp): %d at %d addresses%s' % (
    nmarks, sum(map(len, marks.values())),
    ''.join(', %s %d' % (n, len(marks[n])) for n in sorted(marks))))
names = [st.name for st in stagesdef.load().stages]
nm = lambda i: names[i] if i < len(names) else '-'


def show(title, rows):
    if rows:
        print(title)
    for name, off, s, j in rows:
        st, ed, st2, fl = site[s]
        e = abi.edges[ed] if ed < len(abi.edges) else str(ed)
        print('  %s+0x%x %s %s%s%s, jmp at 0x%x' % (
            name, off, nm(st), e, ' to ' + nm(st2) if e == 'switch' else '',
            ' (shared)' if fl & abi.flags['SHARED'] else '', j))


show('the sites with a jump over stamp code (and the jmp, which the off path runs):', jumps)
show('NOPs alone that end an out-of-line block: the jmp after them is the block\'s way '
     'back, which the stamp code takes too (%d):' % len(exits), exits)

# Series v4: the branches of entry_stage_key that are no stamp site.  An
# entry function with a staged copy has one, its selection point (x86:
# entry_SYSCALL_64, in front of the call of do_syscall_64); the others gate
# the out-of-line probes and helpers (entry_stage_on()).
def label_at(elf, addr):
    """The function holding addr, or in assembly without a symbol size the
    nearest label before it (entry_SYSCALL_64_after_hwframe)."""
    name = elf.func_at(addr)
    if name:
        return name
    below = [f for f in elf.funcs if f[0] <= addr]
    return below[-1][2] if below else '?'


gates = {}
for a in jl:
    if a not in site:
        gates.setdefault(label_at(var, a), []).append(a)
print('branches of entry_stage_key outside the site table: %d%s' % (
    sum(map(len, gates.values())),
    ''.join(', %s %d' % (n, len(gates[n])) for n in sorted(gates))))
selection = {'entry_stage_do_syscall_64': 'entry_SYSCALL_64'}
for copy, entry in sorted(selection.items()):
    if copy not in by_func:
        continue
    n = sum(len(v) for k, v in gates.items() if k.startswith(entry))
    if n == 1:
        print('selection point: %s has 1 (its staged copy: %s)' % (entry, copy))
    else:
        print('%s has %d selection points, want 1 (its staged copy: %s)' % (entry, n, copy))
        bad += 1
if bad:
    print('%d sites are not NOPs of entry_stage_key while it is off, '
          'or entry functions without their one selection point' % bad)
    sys.exit(1)
if cmode == 'distro' and inline:
    print('-O2: %d sites are not a NOP alone' % inline)
    sys.exit(1)
