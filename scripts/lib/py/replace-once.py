# SPDX-License-Identifier: GPL-2.0
# replace-once.py FILE OLD NEW: replace the one occurrence of OLD in FILE
# with NEW; exit 1 naming FILE when OLD is not there exactly once.
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
if s.count(old) != 1:
    sys.exit(f'{p}: {old!r} found {s.count(old)} times')
open(p, 'w').write(s.replace(old, new))
