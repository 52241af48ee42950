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
the series adds is added here once.
"""

import collections
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
HEADER = os.path.join(TOP, 'kernel', 'src', 'include', 'linux', 'entry_stage_types.h')
EDGES_WANTED = ('BEGIN', 'END', 'SWITCH')

Abi = collections.namedtuple('Abi', 'path edges edge_values flags all_flags none')

# (stage, edges, flags, stage2, what).  stage and stage2: 'none' (no stage),
# 'any' stage, '!AGG' (a stage that is not AGG) or a kind of stages.def
# (AGG, DEFERRED, ...); stage2 None: not a switch.  flags: the
# ENTRY_STAGE_SITE_ names it carries, exactly ('' for none).
FORMS = (
    ('none', ('begin',), 'SYSCALL_BEGIN', None, 'the syscall begin (entry_stage_syscall_begin)'),
    ('none', ('begin',), 'TAIL|SHARED', None, 'the tail begin (entry_stage_tail_begin)'),
    ('DEFERRED', ('begin',), 'SYSCALL_BEGIN', None,
     'a restart begin (entry_stage_restart_begin: a DEFERRED stage redone after the syscall)'),
    ('any', ('end',), 'SYSCALL_END', None,
     'a syscall end (entry_stage_syscall_end, _tail_end, _restart_end)'),
    ('any', ('end',), 'SYSCALL_END|SHARED', None, 'a shared syscall end (entry_stage_syscall_end)'),
    ('!AGG', ('switch',), 'RESUME', '!AGG',
     'a resume switch (entry_stage_resume_switch: back into a stage that ran before)'),
    ('AGG', ('begin', 'end'), 'AGG', None, "an AGG stage's begin or end (entry_stage_agg_begin, _rep_begin)"),
    ('!AGG', ('begin', 'end'), '', None, "a stage's begin or end"),
    ('!AGG', ('begin', 'end'), 'SHARED', None, 'a shared begin or end (entry_stage_shared_begin)'),
    ('!AGG', ('switch',), '', 'any', 'a switch'),
    ('!AGG', ('switch',), 'SHARED', 'any', 'a shared switch'),
)


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


def form_problem(a, kind, edge, kind2, fl, site):
    """Why a site (kind: its stage's kind or None; edge: its name; kind2: the
    switch target's kind) is none of FORMS, or None.  site: the site in
    words, for the message."""
    for st, edges, names, st2, _ in FORMS:
        if (_kind_ok(st, kind) and edge in edges and form_flags(a, names) == fl and
                (st2 is None or _kind_ok(st2, kind2))):
            return None
    alike = [f for f in FORMS if form_flags(a, f[2]) == fl] or \
        [f for f in FORMS if form_flags(a, f[2]) & fl]
    hint = '; '.join(f'{w}: {"no" if st == "none" else st} stage, {"/".join(e)}'
                     f'{"" if st2 is None else f" to {st2}"}' for st, e, _, st2, w in alike)
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
    out.append(f'#define ENTRY_STAGE_NONE {a.none:#x}')
    out.append('')
    out.append('/* The sites the series emits (siteabi.py FORMS): stage and stage2 are')
    out.append(' * "none", "any", "!AGG" or a kind of stages.def; stage2 NULL: no switch. */')
    out.append('struct site_form {')
    out.append('\tconst char *stage, *stage2, *what;')
    out.append('\tunsigned edges;\t/* 1 << ENTRY_STAGE_EDGE_* */')
    out.append('\tunsigned flags;')
    out.append('};')
    out.append('static const struct site_form site_forms[] = {')
    for st, edges, names, st2, what in FORMS:
        em = ' | '.join(f'1 << ENTRY_STAGE_EDGE_{e.upper()}' for e in edges)
        s2 = 'NULL' if st2 is None else f'"{st2}"'
        out.append(f'\t{{ "{st}", {s2}, "{what}", {em}, {form_flags(a, names):#04x} }},')
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
