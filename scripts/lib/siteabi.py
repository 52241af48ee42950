#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stamp-site ABI, read from the one header the kernel builds with.

A stamp site is a 16-byte entry of vmlinux's .entry_stage_sites (u64
address, u8 stage, u8 edge, u8 stage2, u8 flags, four zero bytes).  Its
edges and flags are #defines in kernel/src/include/linux/entry_stage_types.h
(ENTRY_STAGE_EDGE_*, ENTRY_STAGE_SITE_*), and "no stage" is the enum value
ENTRY_STAGE_NONE.  scripts/kernel/build/kernel-sites reads them here, and the QEMU
plugin's build (analyzer/qemu-plugin/plugin.mk) generates its header from
the same lines with this script, so a flag the series adds is known to both
or the build says so:

    sys.path.insert(0, os.path.join(TOP, 'scripts', 'lib'))
    import siteabi
    a = siteabi.load()          # or load(path)
    a.edges                     # ('begin', 'end', 'switch'): names by value
    a.flags                     # {'SYSCALL_BEGIN': 0x01, ...}
    a.all_flags, a.none

    scripts/lib/siteabi.py [--header FILE] c    the plugin's header, on stdout
    scripts/lib/siteabi.py [--header FILE] list NAME VALUE lines

A header without the edges, the flags or ENTRY_STAGE_NONE is an error
naming what is missing (exit 2).

FORMS below are the sites the series emits (which stage, edge, flags and
switch target each entry_stage_*() helper of include/linux/entry_stage.h
and entry_stage_stamp.h writes): kernel-sites refuses a table entry that is none of them
(form_problem()), and the plugin's header carries the same list, so a form
the series adds is added here once.  Each row names its action, one of
ACTIONS: what the site does to the plugin's state of its syscall
(site_forms[].action and SITE_ACTIONS in the header; the plugin resolves
a site to its form once, when it reads the site file, and runs the
action's act_NAME() when the site runs).  A new kind of site that does what
an existing one does is a row; a new behaviour is a row, an action and its
act_NAME().  OPENS and ENDS are the actions a table needs a site of.
load() refuses FORMS and ACTIONS that do not fit (forms_problem()).
"""

import collections
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
HEADER = os.path.join(TOP, 'kernel', 'src', 'include', 'linux', 'entry_stage_types.h')
EDGES_WANTED = ('BEGIN', 'END', 'SWITCH')

Abi = collections.namedtuple('Abi', 'path edges edge_values flags all_flags none')

# What a site does to the QEMU plugin's state of the syscall it is in
# (analyzer/qemu-plugin/harvest.c has one act_NAME() per action, called
# through the SITE_ACTIONS list of the generated site-abi.h: an action
# added here and not there does not build, one there and not here is an
# unused function).  Every site first counts only in a syscall's frame; the
# "window" is the staged syscall, from its begin to its end (or a restart
# of its exit, from the restart's begin to its end); after the tail begin
# only the tail's end counts.  In order: the enum's.
ACTIONS = (
    ('window_open', 'opens the window (an anomaly if it is open, or was)'),
    ('tail_open', 'in the window: the tail begins, only its end counts from here'),
    ('restart_begin', 'after the window closed: a restart of the exit opens it again '
     '(its stage begins, or resumes if a restart ran); in the window before the tail: '
     'an anomaly'),
    ('tail_end', "in the tail: its stage ends and the window closes; in a restart: "
     "the restart's stage ends, and what follows is held for the next restart or outside; "
     "in the window before the tail: an anomaly"),
    ('syscall_end', "in the window, not in a tail: its stage ends and the window closes; "
     "in a restart: as the restart's end"),
    ('resume_switch', 'in the window: a switch whose second stage goes on (one run in two pieces)'),
    ('agg_edge', "in the window: an AGG stage's begin or end, counted inside the body "
     "only if the stage is the body's"),
    ('edge', "in the window: a stage's begin, end or switch"),
    ('tail_stage', 'in the tail: a stage inside it begins or ends (the kernel stamps it only '
     'while the tail is open: before it, outside the window)'),
)

# A site table needs a site that opens the window and one that ends it,
# or no syscall can be staged (kernel-sites and the plugin's site file).
OPENS = ('window_open',)
ENDS = ('tail_end', 'syscall_end')

# (stage, edges, flags, stage2, action, what).  stage and stage2: 'none' (no
# stage), 'any' stage, '!AGG' (a stage that is not AGG) or a kind of
# stages.def (AGG, DEFERRED, ...); stage2 None: not a switch.  flags: the
# ENTRY_STAGE_SITE_ names it carries, exactly ('' for none), MARK aside:
# any form may be a zero-width marker (MARK: the plain copy of a path, no
# branch and no stamp, at the address of the code that follows; several
# may share an address, in the table's order).  action: one of ACTIONS.
# No two rows match one site unless they do the same.
MARK = 'MARK'
FORMS = (
    ('none', ('begin',), 'SYSCALL_BEGIN', None, 'window_open',
     'the syscall begin (entry_stage_syscall_begin)'),
    ('none', ('begin',), 'TAIL|SHARED', None, 'tail_open', 'the tail begin (entry_stage_tail_begin)'),
    ('DEFERRED', ('begin',), 'SYSCALL_BEGIN', None, 'restart_begin',
     'a restart begin (entry_stage_restart_begin: a DEFERRED stage redone after the syscall)'),
    ('any', ('end',), 'SYSCALL_END', None, 'tail_end',
     'a syscall end (entry_stage_syscall_end, _tail_end, _restart_end)'),
    ('any', ('end',), 'SYSCALL_END|SHARED', None, 'syscall_end',
     'a shared syscall end (entry_stage_syscall_end)'),
    ('!AGG', ('switch',), 'RESUME', '!AGG', 'resume_switch',
     'a resume switch (entry_stage_resume_switch: back into a stage that ran before)'),
    ('!AGG', ('switch',), 'RESUME|SHARED', '!AGG', 'resume_switch',
     'a shared resume switch (entry_stage_shared_resume_switch)'),
    ('AGG', ('begin', 'end'), 'AGG', None, 'agg_edge',
     "an AGG stage's begin or end (entry_stage_agg_begin, _rep_begin)"),
    ('!AGG', ('begin', 'end'), '', None, 'edge', "a stage's begin or end"),
    ('!AGG', ('begin', 'end'), 'SHARED', None, 'edge', 'a shared begin or end (entry_stage_shared_begin)'),
    ('!AGG', ('switch',), '', 'any', 'edge', 'a switch'),
    ('!AGG', ('switch',), 'SHARED', 'any', 'edge', 'a shared switch'),
    ('DEFERRED', ('begin', 'end'), 'TAIL', None, 'tail_stage',
     'a stage inside the exit tail (entry_stage_tail_stage_begin, _end)'),
)


def forms_problem(forms=None, actions=None):
    """Why FORMS and ACTIONS do not fit together, or None: a row without
    an action or with one ACTIONS lacks, an action no row does, or two rows
    that match one site and do different things."""
    forms = FORMS if forms is None else forms
    names = [n for n, _ in (ACTIONS if actions is None else actions)]
    for i, f in enumerate(forms):
        if len(f) != 6 or not f[4]:
            return f'FORMS row {i} ({f[-1]}) has no action: give it one of {", ".join(names)}'
        if f[4] not in names:
            return (f'FORMS row {i} ({f[5]}): action {f[4]} is not in ACTIONS '
                    f'(and the plugin would need its act_{f[4]}())')
    for n in names:
        if not any(f[4] == n for f in forms):
            return f'ACTIONS {n}: no row of FORMS does it'
    for n in OPENS + ENDS:
        if n not in names:
            return f'OPENS or ENDS name {n}, which ACTIONS does not'
    for i, f in enumerate(forms):
        for g in forms[i + 1:]:
            if (_names(f[2]) == _names(g[2]) and set(f[1]) & set(g[1]) and _kinds_meet(f[0], g[0]) and
                    (f[3] is None) == (g[3] is None) and
                    (f[3] is None or _kinds_meet(f[3], g[3])) and f[4] != g[4]):
                return f'FORMS rows "{f[5]}" and "{g[5]}" match one site, actions {f[4]} and {g[4]}'
    return None


def _names(flags):
    return set(filter(None, flags.split('|')))


def _kinds_meet(x, y):
    """Can one stage (or none) fit both wants of FORMS?"""
    if 'none' in (x, y):
        return x == y
    if 'any' in (x, y) or x == y:
        return True
    if '!AGG' in (x, y):
        return 'AGG' not in (x, y)
    return False


def form_flags(a, names):
    v = 0
    for n in filter(None, names.split('|')):
        if n not in a.flags:
            raise AbiError(f'{os.path.basename(__file__)}: FORMS name flag {n}, '
                           f'which {a.path} does not define')
        v |= a.flags[n]
    return v


def _kind_ok(want, kind):
    """kind: a stage's kind of stages.def, or None for no stage."""
    if want == 'none' or kind is None:
        return want == 'none' and kind is None
    return want == 'any' or (want == '!AGG' and kind != 'AGG') or want == kind


def flag_names(a, fl):
    return '|'.join(n for n, v in sorted(a.flags.items(), key=lambda kv: kv[1]) if fl & v) or 'none'


def mark_flag(a):
    """ENTRY_STAGE_SITE_MARK's value, or 0 if the header has none."""
    return a.flags.get(MARK, 0)


def form_of(a, kind, edge, kind2, fl):
    """The row of FORMS a site (kind: its stage's kind or None; edge: its
    name; kind2: the switch target's kind) is, or None.  A marker (MARK)
    is the form it marks."""
    fl &= ~mark_flag(a)
    for f in FORMS:
        st, edges, names, st2 = f[:4]
        if (_kind_ok(st, kind) and edge in edges and form_flags(a, names) == fl and
                (st2 is None or _kind_ok(st2, kind2))):
            return f
    return None


def form_problem(a, kind, edge, kind2, fl, site):
    """Why a site is none of FORMS, or None.  site: the site in words,
    for the message."""
    if form_of(a, kind, edge, kind2, fl):
        return None
    fl &= ~mark_flag(a)
    alike = [f for f in FORMS if form_flags(a, f[2]) == fl] or \
        [f for f in FORMS if form_flags(a, f[2]) & fl]
    hint = '; '.join(f'{w}: {"no" if st == "none" else st} stage, {"/".join(e)}'
                     f'{"" if st2 is None else f" to {st2}"}' for st, e, _, st2, _, w in alike)
    return (f'{site}, flags {flag_names(a, fl)}: not a site the series emits'
            + (f' (with these flags: {hint})' if hint else ''))


class AbiError(Exception):
    pass


def load(path=HEADER):
    try:
        text = open(path).read()
    except OSError as e:
        raise AbiError(f'{path}: {e.strerror}')
    defs = {}
    for m in re.finditer(r'^#define\s+ENTRY_STAGE_(EDGE|SITE)_([A-Z0-9_]+)\s+(0x[0-9a-fA-F]+|[0-9]+)\b',
                         text, re.M):
        defs.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3), 0)
    none = re.search(r'\bENTRY_STAGE_NONE\s*=\s*(0x[0-9a-fA-F]+|[0-9]+)', text)
    edges = defs.get('EDGE', {})
    flags = defs.get('SITE', {})
    missing = [f'ENTRY_STAGE_EDGE_{e}' for e in EDGES_WANTED if e not in edges]
    if not flags:
        missing.append('ENTRY_STAGE_SITE_*')
    if not none:
        missing.append('ENTRY_STAGE_NONE')
    if missing:
        raise AbiError(f'{path}: no {", ".join(missing)}')
    by_value = sorted(edges.items(), key=lambda kv: kv[1])
    if [v for _, v in by_value] != list(range(len(by_value))):
        raise AbiError(f'{path}: edges are not 0..{len(by_value) - 1}: {dict(by_value)}')
    all_flags = 0
    for name, v in flags.items():
        if v == 0 or v & (v - 1) or v & all_flags:
            raise AbiError(f'{path}: ENTRY_STAGE_SITE_{name} {v:#x} is not a bit of its own')
        all_flags |= v
    why = forms_problem()
    if why:
        raise AbiError(f'{os.path.basename(__file__)}: {why}')
    return Abi(path, tuple(n.lower() for n, _ in by_value), edges, flags, all_flags,
               int(none.group(1), 0))


def c_header(a):
    out = ['/* Generated by scripts/lib/siteabi.py from',
           f' * {os.path.relpath(a.path, TOP)}: do not edit. */',
           '#ifndef ENTRYTRACE_SITE_ABI_H', '#define ENTRYTRACE_SITE_ABI_H']
    for n, v in sorted(a.edge_values.items(), key=lambda kv: kv[1]):
        out.append(f'#define ENTRY_STAGE_EDGE_{n} {v}')
    for n, v in sorted(a.flags.items(), key=lambda kv: kv[1]):
        out.append(f'#define ENTRY_STAGE_SITE_{n} {v:#04x}')
    out.append(f'#define ENTRY_STAGE_SITE_ALL {a.all_flags:#04x}')
    out.append(f'#define ENTRY_STAGE_SITE_MARK_BIT {mark_flag(a):#04x}\t/* 0: no markers */')
    out.append('/* a zero-width marker (MARK) is any form, and runs before the instruction at its address */')
    out.append('#define SITE_IS_MARK(fl) (((fl) & ENTRY_STAGE_SITE_MARK_BIT) != 0)')
    out.append('#define SITE_FORM_FLAGS(fl) ((fl) & ~ENTRY_STAGE_SITE_MARK_BIT)')
    out.append(f'#define ENTRY_STAGE_NONE {a.none:#x}')
    out.append('')
    out.append('/* What a site does (siteabi.py ACTIONS): harvest.c has act_NAME() for each */')
    out.append('#define SITE_ACTIONS(X) \\')
    for n, _ in ACTIONS:
        out.append(f'\tX({n.upper()}, {n}) \\')
    out.append('')
    out.append('enum site_action {')
    for n, what in ACTIONS:
        out.append(f'\tSITE_ACT_{n.upper()},\t/* {what} */')
    out.append('\tSITE_NACTIONS')
    out.append('};')
    out.append('/* a site table needs a site of each (siteabi.py OPENS, ENDS) */')
    for macro, names in (('OPENS', OPENS), ('ENDS', ENDS)):
        out.append(f'#define SITE_ACT_{macro}(a) (' +
                   ' || '.join(f'(a) == SITE_ACT_{n.upper()}' for n in names) + ')')
    out.append('')
    out.append('/* The sites the series emits (siteabi.py FORMS): stage and stage2 are')
    out.append(' * "none", "any", "!AGG" or a kind of stages.def; stage2 NULL: no switch. */')
    out.append('struct site_form {')
    out.append('\tconst char *stage, *stage2, *what;')
    out.append('\tunsigned edges;\t/* 1 << ENTRY_STAGE_EDGE_* */')
    out.append('\tunsigned flags;')
    out.append('\tenum site_action action;')
    out.append('};')
    out.append('static const struct site_form site_forms[] = {')
    for st, edges, names, st2, action, what in FORMS:
        em = ' | '.join(f'1 << ENTRY_STAGE_EDGE_{e.upper()}' for e in edges)
        s2 = 'NULL' if st2 is None else f'"{st2}"'
        out.append(f'\t{{ "{st}", {s2}, "{what}", {em}, {form_flags(a, names):#04x},')
        out.append(f'\t  SITE_ACT_{action.upper()} }},')
    out.append('};')
    out.append('#endif')
    return '\n'.join(out) + '\n'


def main(argv):
    path = HEADER
    if len(argv) >= 2 and argv[0] == '--header':
        path, argv = argv[1], argv[2:]
    if argv not in (['c'], ['list']):
        sys.stderr.write('usage: siteabi.py [--header FILE] c|list\n')
        return 2
    try:
        a = load(path)
    except AbiError as e:
        sys.stderr.write(f'siteabi: {e}\n')
        return 2
    if argv == ['c']:
        try:
            sys.stdout.write(c_header(a))
        except AbiError as e:
            sys.stderr.write(f'siteabi: {e}\n')
            return 2
    else:
        for n, v in sorted(a.edge_values.items(), key=lambda kv: kv[1]):
            print(f'EDGE_{n} {v}')
        for n, v in sorted(a.flags.items(), key=lambda kv: kv[1]):
            print(f'SITE_{n} {v:#x}')
        print(f'NONE {a.none:#x}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
