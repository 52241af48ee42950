#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest plan: does a timed sleep return?  (ppc64le --config noforce, the
# NO_HZ tick: with FG=1 it hangs on every base, base kernels and
# entrytrace ones, unless booted nohz=off; the forced tiny kernels,
# HZ_PERIODIC, return in about a second.)  The sleep runs in the
# background while the shell spins, so that the plan finishes either way
# and prints what the timers did meanwhile: interrupts, the clock, the
# tick's state.
#   ARCH=ppc64le scripts/guest/kernel-guest --icount --timeout 120 [--config noforce] 7.2 base sleeptest DIR
state() {
	echo "== $1: uptime $(cat /proc/uptime)"
	cat /proc/interrupts 2>&1
	grep -E 'now at|\.tick_stopped|\.idle_active|\.nohz_mode|\.next_timer|\.idle_jiffies|jiffies:|expires_next|event_handler|set_next_event|Clock Event Device|: *<' \
		/proc/timer_list 2>&1 | head -60
}
echo "sleeptest: before"
state before
# FG=1 (kernel-guest --env FG=1): sleep in the foreground first, so that
# the CPU goes idle; a kernel that never wakes from it hangs here
[ -f /plan.env ] && . /plan.env
if [ "${FG:-0}" = 1 ]; then
	sleep 1
	echo "sleeptest: after a foreground sleep 1"
	state foreground
fi
sleep 1 &
sp=$!
i=0
while [ $i -lt 200000 ] && kill -0 $sp 2>/dev/null; do i=$((i + 1)); done
if kill -0 $sp 2>/dev/null; then
	echo "sleeptest: sleep 1 still running after $i spins"
	state spinning
	kill $sp
else
	echo "sleeptest: after sleep 1 ($i spins)"
fi
state after
