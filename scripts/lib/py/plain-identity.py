# SPDX-License-Identifier: GPL-2.0
"""For scripts/kernel/check/kernel-plain-identity.

  plain-identity.py DELTA             judge a 'diff' of two 'objdump -dr'
                                      listings (base, then entrytrace) on
                                      standard input
  plain-identity.py DELTA --func BASE.o ENTRYTRACE.o FUNC...
                                      the same for the functions FUNC of two
                                      objects, wherever in them they are

Every changed line must pair with one whose only difference is one
displacement larger by exactly DELTA (x86's hex 0x..., powerpc's decimal
N(rX)); DELTA "auto" takes it from the first
such line (positive, at most 64) and holds every other line to it.
Prints the verdict in one line; exits 0 when the listings agree but for
such displacements, 1 if not.
"""
import os
import re
import subprocess
import sys

# the arch's objdump (kernel-plain-identity sets it for a cross build)
OBJDUMP = os.environ.get('OBJDUMP', 'objdump')


def func_listing(obj, funcs):
    """FUNC's instructions and relocations, addresses relative to it."""
    out = subprocess.run([OBJDUMP, '-dr', '--no-show-raw-insn', obj],
                         capture_output=True, text=True, check=True).stdout
    res, cur, start = [], None, 0
    for line in out.splitlines():
        m = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
        if m:
            cur = m.group(2) if m.group(2) in funcs else None
            start = int(m.group(1), 16)
            if cur:
                res.append('%s:' % cur)
            continue
        if not cur or not line.strip():
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s*(.*)$', line)
        if not m:
            continue
        body = re.sub(r'\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>',
                      lambda x: '<%s%s>' % ('' if x.group(1) == cur else x.group(1), x.group(2) or ''),
                      m.group(2))
        res.append('%x\t%s' % (int(m.group(1), 16) - start, body))
    return res


delta = None if sys.argv[1] == 'auto' else int(sys.argv[1])
if len(sys.argv) > 2 and sys.argv[2] == '--func':
    a_obj, b_obj, funcs = sys.argv[3], sys.argv[4], set(sys.argv[5:])
    a, b = func_listing(a_obj, funcs), func_listing(b_obj, funcs)
    found = {x[:-1] for x in a if x.endswith(':')} & {x[:-1] for x in b if x.endswith(':')}
    if found != funcs:
        print('not in both objects: %s' % ' '.join(sorted(funcs - found)))
        sys.exit(1)
    import difflib
    lines = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != 'equal':
            lines += ['< ' + x for x in a[i1:i2]] + ['> ' + x for x in b[j1:j2]]
else:
    lines = sys.stdin
old, new = [], []
for line in lines:
    if line.startswith('< '):
        old.append(line[2:].rstrip('\n'))
    elif line.startswith('> '):
        new.append(line[2:].rstrip('\n'))

if len(old) != len(new):
    print('%d lines against %d: not the same instructions' % (len(old), len(new)))
    sys.exit(1)
if not old:
    print('byte for byte')
    sys.exit(0)

# a displacement: hex (x86), or decimal in front of a base register (powerpc)
DISP = re.compile(r'0x[0-9a-f]+|(?<=[ ,])-?[0-9]+(?=\(r[0-9]+\))')


def value(x):
    return int(x, 16) if x.startswith('0x') else int(x)


shifted = 0
for a, b in zip(old, new):
    # the raw bytes hold the displacement too: compare the instruction text
    ta, tb = a.split('\t')[-1], b.split('\t')[-1]
    ha, hb = DISP.findall(ta), DISP.findall(tb)
    if DISP.sub('#', ta) != DISP.sub('#', tb) or len(ha) != len(hb):
        print('differs: %r against %r' % (ta, tb))
        sys.exit(1)
    moved = [(x, y) for x, y in zip(ha, hb) if x != y]
    d = value(moved[0][1]) - value(moved[0][0]) if len(moved) == 1 else None
    if delta is None and d is not None and 0 < d <= 64:
        delta = d
    if d is None or d != delta:
        print('differs: %r against %r (not one displacement +%s)' % (ta, tb, delta or 'N'))
        sys.exit(1)
    shifted += 1
print('but for %d task_struct offsets (+%d)' % (shifted, delta))
