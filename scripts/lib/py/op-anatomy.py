# SPDX-License-Identifier: GPL-2.0
"""The Python half of scripts/host/op-anatomy: one stress-ng kill bogo-op,
syscall by syscall and argument shape, from a recording of it.

Usage: op-anatomy.py ENTRYTRACE LABEL OPS FILE [--json]

The stressor's worker (the stress-ng-kill task that made the most
syscalls) is the op's parent; every other stress-ng-kill task is its child.
For each, `entrytrace report --by-arg --json -p PID` gives the syscalls by
shape; each count is divided by OPS, the bogo-ops stress-ng reported.
"""
import json
import subprocess
import sys

STRESSOR = 'stress-ng-kill'


def die(msg, code=1):
    print(f'op-anatomy: {msg}', file=sys.stderr)
    sys.exit(code)


def report(et, path, *args):
    extra = ['--no-breakdown'] if args else []  # the first call wants the per-task table
    r = subprocess.run([et, 'report', '--json', *extra, *args, path],
                       capture_output=True, text=True)
    # 0 clean; anything else (damaged 8, no syscall 4, ...) is not an anatomy
    if r.returncode != 0:
        die(f'entrytrace report {" ".join(args)} {path}: exit {r.returncode}: '
            f'{r.stderr.strip()[:300]}')
    return json.loads(r.stdout)


def tasks(et, path):
    """pid -> syscalls made, for the stressor's tasks."""
    per = {}
    for g in report(et, path)['breakdown']['pid']:
        if g['comm'] == STRESSOR:
            per[g['pid']] = per.get(g['pid'], 0) + g['count']
    return per


def shapes(et, path, pids):
    """(syscall label) -> (count, mean ns of its total) over pids."""
    out = {}
    d = report(et, path, '--by-arg', '-p', ','.join(str(p) for p in pids))
    for c in d['cells']:
        if c['stage'] != 'total':
            continue
        label = c['syscall'] + (f'({c["args"]})' if c.get('args') else '')
        n, tot = out.get(label, (0, 0.0))
        out[label] = (n + c['count'], tot + c['mean'] * c['count'])
    return {k: (n, tot / n if n else 0.0) for k, (n, tot) in out.items()}


def main():
    if len(sys.argv) < 5:
        die('usage: op-anatomy.py ENTRYTRACE LABEL OPS FILE [--json]', 2)
    et, label, ops, path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    as_json = '--json' in sys.argv[5:]
    try:
        ops = int(ops)
    except ValueError:
        die(f'bad bogo-op count {ops!r}: want a positive integer', 2)
    if ops <= 0:
        die(f'bad bogo-op count {ops}: want a positive integer', 2)
    per = tasks(et, path)
    if not per:
        die(f'{path}: no task named {STRESSOR} (not a stress-ng --kill recording)')
    parent = max(per, key=per.get)
    children = sorted(p for p in per if p != parent)
    roles = [('parent', [parent])] + ([('child', children)] if children else [])
    rows = []
    for role, pids in roles:
        for name, (n, mean) in sorted(shapes(et, path, pids).items(),
                                      key=lambda kv: (-kv[1][0], kv[0])):
            rows.append({'role': role, 'syscall': name, 'count': n,
                         'per_op': n / ops, 'mean_ns': mean})
    if as_json:
        json.dump({'label': label, 'file': path, 'ops': ops, 'parent': parent,
                   'children': children, 'rows': rows}, sys.stdout, indent=1)
        print()
        return
    print(f'{label}: {ops} bogo-ops; parent pid {parent}, '
          f'{len(children)} child task{"s" if len(children) != 1 else ""}')
    print(f'{"task":<7} {"syscall (arguments)":<28} {"per op":>7} {"calls":>8} {"mean ns (this host)":>20}')
    for role, _ in roles:
        tot = 0.0
        for r in rows:
            if r['role'] != role or r['per_op'] < 0.005:
                continue
            tot += r['per_op']
            print(f'{role:<7} {r["syscall"]:<28} {r["per_op"]:7.2f} {r["count"]:8d} {r["mean_ns"]:20.0f}')
        rest = sum(r['per_op'] for r in rows if r['role'] == role and r['per_op'] < 0.005)
        if rest:
            print(f'{role:<7} {"(rarer, < 0.005 per op)":<28} {rest:7.2f}')
        print(f'{role:<7} {"all syscalls":<28} {tot + rest:7.2f}')


if __name__ == '__main__':
    main()
