// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU stamp source of the syscall stage stamps on 64-bit Book3S
 * (CONFIG_ENTRY_STAGE_PMU): PMC5 and PMC6, which the stamps read with
 * mfspr, through the two events only they count from ISA 2.07 on,
 * PM_RUN_INST_CMPL and PM_RUN_CYC, held by kernel/entry/stage.c as pinned
 * perf events: perf programs MMCR0-2 and MMCRA as for any event (on ISA
 * 3.1 MMCR0[PMCCEXT] as Linux sets it) and keeps PMC1-4 for other users.
 */
#include <linux/entry_stage_stamp.h>
#include <linux/perf_event.h>
#include <asm/cputable.h>

/* hw.idx is the PMC's number, from 1 */
const struct entry_stage_pmu_counter arch_entry_stage_pmu[2] = {
	{ PERF_TYPE_RAW, 0x500fa, "instructions (PM_RUN_INST_CMPL)", 5, "PMC5" },
	{ PERF_TYPE_RAW, 0x600f4, "cycles (PM_RUN_CYC)", 6, "PMC6" },
};

int arch_entry_stage_pmu_usable(void)
{
	if (!cpu_has_feature(CPU_FTR_ARCH_207S)) {
		pr_warn("entry_stage: PMU stamps: PMC5/PMC6 need ISA 2.07 (POWER8) or later; not staging\n");
		return -ENODEV;
	}
	return 0;
}
