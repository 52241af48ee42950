# SPDX-License-Identifier: GPL-2.0
"""Questions to `entrytrace diff --json` of two plugin outputs, for the tests.

  python3 mixq.py moved FILE.json SYSCALL     places of entry code (arch or generic)
                                              whose barriers or atomics moved:
                                              "FUNCTION FILE (INLINED) CODE KIND+N..."
  python3 mixq.py code FILE.json SYSCALL CODE...   instructions per syscall, test - base,
                                              of those code classes
  python3 mixq.py kinds FILE.json SYSCALL CODE    that code's classed kinds, test - base,
                                              those that moved: "KIND+N ..."
  python3 mixq.py whole FILE.json SYSCALL        the whole syscall per call, base test
"""
import json
import sys

BARRIERS_ATOMICS = lambda k: k.endswith('sync') or k.endswith('arx') or k.endswith('cx')


def kinds(side):
    return (side or {}).get('kinds', {})


def moved(d, name):
    out = set()
    for w in d['mix_where']:
        if w['syscall'] != name or w['code'] not in ('arch_entry', 'generic_entry'):
            continue
        ks = []
        for k in sorted(set(kinds(w['base'])) | set(kinds(w['test']))):
            dv = kinds(w['test']).get(k, 0) - kinds(w['base']).get(k, 0)
            if BARRIERS_ATOMICS(k) and abs(dv) > 0.005:
                ks.append('%s%+g' % (k, dv))
        if ks:
            out.add('%s %s (%s) %s %s' % (w['function'], w['file'], w['inlined'], w['code'],
                                          ' '.join(ks)))
    return sorted(out)


def code(d, name, codes):
    return round(sum(x['test'] - x['base'] for x in d['mix_code']
                     if x['syscall'] == name and x['code'] in codes), 1)


def main():
    d = json.load(open(sys.argv[2]))
    if sys.argv[1] == 'moved':
        print(moved(d, sys.argv[3]))
    elif sys.argv[1] == 'code':
        print(code(d, sys.argv[3], sys.argv[4:]))
    elif sys.argv[1] == 'kinds':
        ks = {}
        for x in d['mix_code']:
            if x['syscall'] == sys.argv[3] and x['code'] == sys.argv[4]:
                for k, v in x['kinds'].items():
                    ks[k] = ks.get(k, 0) + v
        print(' '.join('%s%+g' % (k, round(v, 3)) for k, v in sorted(ks.items()) if abs(v) > 0.005) or '-')
    elif sys.argv[1] == 'whole':
        print(' '.join('%.1f' % r['mean'] for f in (d['mix_base'][0], d['mix_test'][0])
                       for r in f['rows'] if r['syscall'] == sys.argv[3] and r['account'] == 'whole'))
    else:
        sys.exit(f'mixq: unknown question {sys.argv[1]}')


main()
