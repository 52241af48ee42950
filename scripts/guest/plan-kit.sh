# SPDX-License-Identifier: GPL-2.0
# Guest plan: `entrytrace kit` as a reporter would run it (Documentation/kit.md),
# in the guest (mkinitramfs --bin entrytrace --bin stress-ng).  /plan.env sets
#   POLICY   enforcing: the minimal policy (/work/selinux-policy) loaded and
#            enforcing, so the kit runs enforcing and then permissive; none:
#            nothing loaded (a boot without selinux in lsm=: the disabled mode)
#   KITARGS  the kit's options (-n, -t, -w, --record, ...)
#   MERGE    optional: a kit in /work to --merge into (the disabled boot)
# /work/config, when there, is put where the kit looks for the .config
# (/boot/config-RELEASE): the tiny guest kernels have no /proc/config.gz.
# The archive comes back as OUTDIR/kit.tar.gz, the kit's stderr as kit.log
# and its exit status as kit.rc (the plan fails only if there is no archive).
out=$1
set -u
. /plan.env
. /selinux.sh
selinux_setup "${POLICY:-none}"
mkdir -p /boot
mount -t securityfs none /sys/kernel/security 2>/dev/null || true
[ -f /work/config ] && cp /work/config "/boot/config-$(uname -r)"
merge=""
[ -n "${MERGE:-}" ] && merge="--merge /work/$MERGE"
cd /tmp
# shellcheck disable=SC2086
entrytrace kit $KITARGS $merge -o $out/kit.tar.gz 2>$out/kit.log
echo $? >$out/kit.rc
cat $out/kit.log
echo "kit exit $(cat $out/kit.rc)"
[ -s $out/kit.tar.gz ]
