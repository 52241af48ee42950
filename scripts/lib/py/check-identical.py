# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/host/check-identical (its arguments: see the call there).
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); o = int(sys.argv[3]); s = int(sys.argv[4]); p = 4096
exec(sys.argv[5])
open(sys.argv[2], 'wb').write(d)
