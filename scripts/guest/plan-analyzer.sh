# SPDX-License-Identifier: GPL-2.0
# Guest plan: the analyzer where a POWER user runs it, on the guest's own
# kernel (mkinitramfs --bin entrytrace): entrytrace record of sysloop's
# loops (/plan.env: N, MODES), then entrytrace report and report --json on
# the recording, inside the guest.  The host reads the same trace.dat and
# compares (scripts/kernel/record/kernel-own-analyzer).
out=$1
set -eu
. /plan.env
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
entrytrace record -q -o $out/guest.dat -- /work/sysloop -n $N $MODES >$out/guest.expect
entrytrace report $out/guest.dat >$out/guest-report.txt 2>$out/guest-report.err || echo "report exit $?" >>$out/guest-report.err
entrytrace report --json $out/guest.dat >$out/guest-report.json 2>>$out/guest-report.err || true
uname -a >$out/uname
cat $out/guest-report.txt | head -n 20
