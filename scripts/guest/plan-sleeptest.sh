#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest plan: does a timed sleep return?  (ppc64le 7.2 --config noforce
# hangs here, base kernel and entrytrace alike; the forced tiny kernel
# returns in about a second.)
#   ARCH=ppc64le scripts/guest/kernel-guest --icount --timeout 120 [--config noforce] 7.2 base sleeptest DIR
echo "sleeptest: before"
sleep 1
echo "sleeptest: after sleep 1"
