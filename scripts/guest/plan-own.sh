# SPDX-License-Identifier: GPL-2.0
# Guest plan: the in-guest part of Documentation/own-kernel.md, as a user
# types it on the booted kernel.  Each command is printed after a '# '
# prompt with its output into $out/transcript.txt; the recording is
# $out/$NAME.dat.  /plan.env sets N and NAME.
out=$1
set -eu
. /plan.env
# t CMD: the command as typed, then what it printed
t() {
	echo "# $*"
	sh -c "$*" 2>&1 || echo "(exit $?)"
}
{
	t 'uname -r -m'
	t 'grep -o "selinux=[01]\|nokaslr" /proc/cmdline; dmesg | grep -m1 "SELinux:  Initializing" || true'
	t 'ls /sys/kernel/tracing/events/entry_stage/'
	t 'cat /sys/module/entry_stage/parameters/sample'
	t "trace-cmd record -q -b 8192 -e entry_stage:entry_stage_summary -e entry_stage:entry_stage_calib -o /tmp/$NAME.dat -F -c sysloop -n $N getppid kill0"
	t "ls -l /tmp/$NAME.dat | awk '{ print \$5, \$9 }'"
	t "trace-cmd report -i /tmp/$NAME.dat 2>/dev/null | grep -m2 entry_stage_summary"
} >$out/transcript.txt
mv /tmp/$NAME.dat $out/
trace-cmd --version >$out/trace-cmd.version 2>&1 || true
cat $out/transcript.txt
