# SPDX-License-Identifier: GPL-2.0
# Guest plan: ground truth for 'entrytrace diff'.  The ptrace mode recorded
# three times with entry_stage_summary: twice as is (a null pair) and once
# with the tracer busy-waiting INJECT ns at every getppid() entry stop
# (sysloop -P), which lengthens exactly the tracee's enter_ptrace stage.
# /plan.env sets N and INJECT.
out=$1
set -eu
. /plan.env
rec() {
	name=$1
	shift
	trace-cmd record -q -b 8192 -e entry_stage:entry_stage_summary \
		-e entry_stage:entry_stage_calib -o $out/$name.dat -F -c \
		/work/sysloop -n $N "$@" ptrace >$out/$name.expect
}
rec null-a
rec null-b
rec inject -P $INJECT
trace-cmd --version >$out/trace-cmd.version 2>&1 || true
cat $out/*.expect
