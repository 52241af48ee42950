#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one reader of tracepoints/stages.def for the scripts.

stages.def is an X-macro list (ENTRY_STAGE_WORK, ENTRY_STAGE,
ENTRY_STAGE_DERIVED) that the kernel and the analyzer expand with the C
preprocessor.  The scripts read it here, and only here:

    sys.path.insert(0, os.path.join(TOP, 'scripts', 'lib'))
    import stagesdef
    d = stagesdef.load()            # or load(path)
    d.stages    # ENTRY_STAGE lines in order: Stage(id, sym, name, phase,
                #   parent, paths, kind, desc, arches); id = position
    d.on_arch(s, 'ppc64le')         # whether stage s is on that guest arch
    d.derived   # ENTRY_STAGE_DERIVED lines: ids DERIVED_BASE + position (kind None)
    d.works     # ENTRY_STAGE_WORK lines: Work(bit, sym, name, desc)
    d.abi       # ENTRY_STAGE_ABI
    d.by_name['syscall'].id, d.by_sym['SYSCALL'].name

Bash reads it through the command line:
    scripts/lib/stagesdef.py [--def FILE] stages|derived|works|abi
    scripts/lib/stagesdef.py [--def FILE] on ARCH STAGE   exit 0 if STAGE is
                                                    on ARCH, 1 if not
prints one tab-separated line per entry (id sym name phase parent paths
kind arches; bit sym name for works).  A line that starts one of the macros but
does not parse is an error naming its line number (exit 2), never skipped.
"""

import collections
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
DEFAULT = os.path.join(TOP, 'tracepoints', 'stages.def')
# entrytrace.h's ET_STAGE_DERIVED_BASE: derived ids do not move with the kernel's count
DERIVED_BASE = 64

Stage = collections.namedtuple('Stage', 'id sym name phase parent paths kind desc arches')
# stages.def's arches column: the guest arches (scripts/lib/bases) of each value
ARCHES = {'ALL': None, 'X86': ('x86_64',), 'POWERPC': ('ppc64le', 'ppc750', 'ppce500')}
Work = collections.namedtuple('Work', 'bit sym name desc')


class Defs:
    def __init__(self, stages, derived, works, abi):
        self.stages, self.derived, self.works, self.abi = stages, derived, works, abi
        self.all = stages + derived
        self.by_name = {s.name: s for s in self.all}
        self.by_sym = {s.sym: s for s in self.all}

    @staticmethod
    def on_arch(stage, arch):
        """Whether STAGE's syscall path exists on the guest ARCH (x86_64,
        ppc64le, ppc750, ppce500): its arches column."""
        a = ARCHES[stage.arches]
        return a is None or arch in a


class DefError(Exception):
    pass


def _calls(text):
    """(line, macro, [args]) for every macro call at the start of a line."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^(ENTRY_STAGE_WORK|ENTRY_STAGE_DERIVED|ENTRY_STAGE)\(', lines[i])
        if not m:
            i += 1
            continue
        start, buf = i + 1, lines[i][m.end():]
        # up to the closing parenthesis outside the string
        while True:
            depth, instr, end = 1, False, None
            for k, c in enumerate(buf):
                if c == '"' and (k == 0 or buf[k - 1] != '\\'):
                    instr = not instr
                elif not instr and c == '(':
                    depth += 1
                elif not instr and c == ')':
                    depth -= 1
                    if depth == 0:
                        end = k
                        break
            if end is not None:
                break
            i += 1
            if i >= len(lines):
                raise DefError('line %d: %s( is never closed' % (start, m.group(1)))
            buf += '\n' + lines[i]
        args, cur, instr = [], '', False
        for k, c in enumerate(buf[:end]):
            if c == '"' and (k == 0 or buf[k - 1] != '\\'):
                instr = not instr
                cur += c
            elif c == ',' and not instr:
                args.append(cur.strip())
                cur = ''
            else:
                cur += c
        args.append(cur.strip())
        yield start, m.group(1), args
        i += 1


def _desc(s):
    return ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', s))


def load(path=DEFAULT):
    with open(path) as f:
        text = f.read()
    stages, derived, works = [], [], []
    calls = list(_calls(text))
    want = {'ENTRY_STAGE_WORK': 3, 'ENTRY_STAGE': 8, 'ENTRY_STAGE_DERIVED': 6}
    # a stages.def from before the arches column (change-homes reads older
    # trees): every ENTRY_STAGE has 7 arguments, and every stage is on ALL
    old = all(len(a) == 7 for _, m, a in calls if m == 'ENTRY_STAGE')
    if old:
        want['ENTRY_STAGE'] = 7
    for line, macro, args in calls:
        if macro in want and len(args) != want[macro]:
            raise DefError('%s:%d: %s with %d arguments, not %d'
                           % (path, line, macro, len(args), want[macro]))
        if any(not re.match(r'^\w+$', a) for a in args[:-1]):
            raise DefError('%s:%d: %s: a non-word argument in %s' % (path, line, macro, args[:-1]))
        if macro == 'ENTRY_STAGE_WORK':
            works.append(Work(len(works), args[0], args[1], _desc(args[2])))
        elif macro == 'ENTRY_STAGE':
            if old:
                args = args[:5] + ['ALL'] + args[5:]
            if args[5] not in ARCHES:
                raise DefError('%s:%d: %s: arches %s is none of %s'
                               % (path, line, args[0], args[5], ', '.join(ARCHES)))
            stages.append(Stage(len(stages), *args[:5], args[6], _desc(args[7]), args[5]))
        else:
            derived.append((args[:5], _desc(args[5])))
    if not stages:
        raise DefError('%s: no ENTRY_STAGE lines' % path)
    derived = [Stage(DERIVED_BASE + i, a[0], a[1], a[2], a[3], a[4], None, d, 'ALL')
               for i, (a, d) in enumerate(derived)]
    m = re.search(r'^#define ENTRY_STAGE_ABI (\d+)', text, re.M)
    abi = int(m.group(1)) if m else None
    defs = Defs(stages, derived, works, abi)
    for s in defs.all:
        if s.parent != 'NONE' and s.parent not in defs.by_sym:
            raise DefError('%s: stage %s: unknown parent %s' % (path, s.name, s.parent))
    return defs


def main(argv):
    path = DEFAULT
    if len(argv) >= 2 and argv[0] == '--def':
        path, argv = argv[1], argv[2:]
    if not ((len(argv) == 1 and argv[0] in ('stages', 'derived', 'works', 'abi')) or
            (len(argv) == 3 and argv[0] == 'on')):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        d = load(path)
    except (OSError, DefError) as e:
        print('stagesdef: %s' % e, file=sys.stderr)
        return 2
    if argv[0] == 'on':
        arches = [a for v in ARCHES.values() if v for a in v]
        if argv[1] not in arches or argv[2] not in d.by_name:
            print('stagesdef: on: want an arch (%s) and a stage, not %s %s'
                  % (' '.join(arches), argv[1], argv[2]), file=sys.stderr)
            return 2
        return 0 if d.on_arch(d.by_name[argv[2]], argv[1]) else 1
    if argv[0] == 'abi':
        print(d.abi)
    elif argv[0] == 'works':
        for w in d.works:
            print('%d\t%s\t%s' % (w.bit, w.sym, w.name))
    else:
        for s in d.stages if argv[0] == 'stages' else d.derived:
            print('\t'.join(str(x) for x in (s.id, s.sym, s.name, s.phase, s.parent,
                                             s.paths, s.kind or '-', s.arches)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
