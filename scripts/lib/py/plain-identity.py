# SPDX-License-Identifier: GPL-2.0
"""Judge a 'diff' of two 'objdump -dr' listings (base, then entrytrace) on
standard input for scripts/kernel/check/kernel-plain-identity: every
changed line must pair with one whose only difference is one hex
displacement larger by exactly DELTA (argv[1]).  Prints the verdict in one
line; exits 0 when the listings agree but for such displacements, 1 if not.
"""
import re
import sys

delta = int(sys.argv[1])
old, new = [], []
hunks = 0
for line in sys.stdin:
    if line.startswith('< '):
        old.append(line[2:].rstrip('\n'))
    elif line.startswith('> '):
        new.append(line[2:].rstrip('\n'))
    elif line[:1].isdigit():
        hunks += 1

if len(old) != len(new):
    print('%d lines against %d: not the same instructions' % (len(old), len(new)))
    sys.exit(1)
if not old:
    print('byte for byte')
    sys.exit(0)

HEX = re.compile(r'0x[0-9a-f]+')
shifted = 0
for a, b in zip(old, new):
    # the raw bytes hold the displacement too: compare the instruction text
    ta, tb = a.split('\t')[-1], b.split('\t')[-1]
    ha, hb = HEX.findall(ta), HEX.findall(tb)
    if HEX.sub('#', ta) != HEX.sub('#', tb) or len(ha) != len(hb):
        print('differs: %r against %r' % (ta, tb))
        sys.exit(1)
    moved = [(x, y) for x, y in zip(ha, hb) if x != y]
    if len(moved) != 1 or int(moved[0][1], 16) - int(moved[0][0], 16) != delta:
        print('differs: %r against %r (not one displacement +%d)' % (ta, tb, delta))
        sys.exit(1)
    shifted += 1
print('but for %d task_struct offsets (+%d)' % (shifted, delta))
