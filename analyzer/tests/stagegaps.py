# SPDX-License-Identifier: GPL-2.0
"""The boundaries between a syscall's top-level stages, from
`entrytrace export` (Trace Event JSON) of a per-stage recording, for the
tests.

  python3 stagegaps.py FILE.json
      one line per boundary that is not a switch (its median gap at least
      one and a half stamps), over the syscalls without work ('-'):
      "FROM TO MEDIAN_GAP_NS COUNT"; the stamp is the commonest gap.

The export's stage slices have the stamps' own cost taken off (the
analyzer's default), so a switch (one stamp ends a stage and begins the
next) leaves a gap of one stamp, and an end followed by a separate begin
leaves two stamps and whatever ran between them.  A stage that resumes
after a nested one (x86_64 7.2's arch_syscall_entry around kstack_rand)
is one slice in the export, placed by its summed time, so the boundary
before it can read as more than a switch: compare such kernels with care
(t-tiling reads only x86_64 6.12, ppc64le 7.2 and 7.3, which have none).
"""
import collections
import json
import sys


def top_level(stages):
    out = []
    for s in stages:
        if out and s['ts'] >= out[-1]['ts'] and \
                s['ts'] + s['dur'] <= out[-1]['ts'] + out[-1]['dur'] + 1e-9:
            continue
        out.append(s)
    return out


def main(path):
    with open(path) as f:
        d = json.load(f)
    ev = d['traceEvents'] if isinstance(d, dict) else d
    xs = sorted((e for e in ev if e.get('ph') == 'X'),
                key=lambda e: (e['tid'], e['ts'], -e['dur']))
    gaps = collections.Counter()
    cur, stages = None, []

    def flush():
        if not cur or cur['args'].get('work') != '-':
            return
        tl = top_level([s for s in stages if s['cat'] == 'stage'])
        for a, b in zip(tl, tl[1:]):
            gaps[(a['name'], b['name'], round((b['ts'] - a['ts'] - a['dur']) * 1000))] += 1

    for e in xs:
        if e['cat'] == 'syscall':
            flush()
            cur, stages = e, []
        elif cur and e['tid'] == cur['tid']:
            stages.append(e)
    flush()
    # one stamp: the commonest gap
    by_gap = collections.Counter()
    by_pair = collections.defaultdict(list)
    for (a, b, g), n in gaps.items():
        by_gap[g] += n
        by_pair[(a, b)] += [g] * n
    stamp = by_gap.most_common(1)[0][0] if by_gap else 0
    for (a, b), gs in sorted(by_pair.items(), key=lambda x: (-len(x[1]), x[0])):
        med = sorted(gs)[len(gs) // 2]
        if med * 2 >= stamp * 3:
            print(a, b, med, len(gs))


if __name__ == '__main__':
    main(sys.argv[1])
