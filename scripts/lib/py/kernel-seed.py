# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/record/kernel-seed (its arguments: see the call there).
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    got = {}
    for c in d['cells']:
        if c['stage'] == 'total':
            got[c['syscall']] = got.get(c['syscall'], 0) + c['count']
except (ValueError, KeyError):
    got = {}
bad, loops = [], 0
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) >= 4 and f[0] == 'sysloop:':
        loops += 1
        if got.get(f[2], 0) < int(f[3]) - 1:
            bad.append('%s %d of %s' % (f[2], got.get(f[2], 0), f[3]))
if not loops:
    bad.append('%s names no sysloop loop to check it against' % sys.argv[2])
if bad:
    print('%s: the recording misses syscalls sysloop made (%s); trace-cmd report --stat %s says what the recorder read; run again' % (sys.argv[3], ', '.join(bad), sys.argv[3]))
    sys.exit(1)
