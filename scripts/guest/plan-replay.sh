# SPDX-License-Identifier: GPL-2.0
# Guest plan: scripts/guest/workloads/replaytest.c on a kernel with the
# debug hook arch/powerpc/fixes/debug/0001-*.patch (scripts/kernel/dev/kernel-fix
# --plan replay): is a signal raised by an interrupt replayed at syscall
# exit delivered on that exit?  /plan.env may set ROUNDS (default 20).
out=$1
set -eu
. /plan.env
uname -r >$out/uname.txt
rc=0
/work/replaytest "${ROUNDS:-20}" >$out/replay.txt || rc=$?
echo "replaytest-exit: $rc" >>$out/replay.txt
cat $out/replay.txt
