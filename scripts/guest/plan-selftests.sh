# SPDX-License-Identifier: GPL-2.0
# Guest plan: run the entry-path kernel selftests built by
# scripts/kernel-selftests (under /work/selftests), one log per test.
# With STAGE_EVENTS=1 in /plan.env, all entry_stage events are enabled
# while the tests run.
out=$1
set -u
. /plan.env
if [ "${STAGE_EVENTS:-0}" = 1 ]; then
	echo 1 >/sys/kernel/tracing/events/entry_stage/enable || exit 1
fi
cd /work/selftests
for t in $(cat list); do
	echo "# $t"
	timeout 600 ./$t >$out/selftest-$t.log 2>&1
	echo "rc=$?" >>$out/selftest-$t.log
	tail -n 2 $out/selftest-$t.log
done
