# SPDX-License-Identifier: GPL-2.0
# Guest plan: scripts/guest/workloads/acctest.c on a kernel with the debug
# hook arch/powerpc/fixes/debug/0003-*.patch, built with --config native
# (scripts/kernel/dev/kernel-fix --config native --plan acct): is a syscall
# exit that replays an interrupt charged its CPU time once?  /plan.env may
# set READS (default 20000) and BYTES (default 65536).
out=$1
set -eu
. /plan.env
uname -r >$out/uname.txt
rc=0
/work/acctest "${READS:-20000}" "${BYTES:-65536}" >$out/acct.txt 2>&1 || rc=$?
echo "acctest-exit: $rc" >>$out/acct.txt
cat $out/acct.txt
