# SPDX-License-Identifier: GPL-2.0
# Guest plan: run the entry-path kernel selftests built by
# scripts/kernel/build/kernel-selftests (under /work/selftests), one log per test.
# With STAGE_EVENTS=1 in /plan.env, all entry_stage events are enabled
# while the tests run.  TEST_TIMEOUT (seconds, default 600) bounds each
# test; every log ends with the test's exit status and its wall time.
out=$1
set -u
. /plan.env
if [ "${STAGE_EVENTS:-0}" = 1 ]; then
	echo 1 >/sys/kernel/tracing/events/entry_stage/enable ||
		{ echo "plan: enabling entry_stage failed; the kernel said:"; dmesg | grep entry_stage; exit 1; }
fi
cd /work/selftests || exit 1
for t in $(cat list); do
	echo "# $t"
	t0=$(date +%s)
	timeout "${TEST_TIMEOUT:-600}" ./$t >$out/selftest-$t.log 2>&1
	rc=$?
	echo "rc=$rc" >>$out/selftest-$t.log
	echo "seconds=$(($(date +%s) - t0))" >>$out/selftest-$t.log
	tail -n 3 $out/selftest-$t.log
done
