// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU stamp source of the syscall stage stamps (CONFIG_ENTRY_STAGE_PMU):
 * fixed counters 0 (instructions) and 1 (cycles), which the stamps read
 * with rdpmc, through the generic hardware events perf puts there, held by
 * kernel/entry/stage.c as pinned perf events: perf owns the counters
 * throughout.
 */
#include <linux/entry_stage_stamp.h>
#include <linux/perf_event.h>
#include <asm/cpufeature.h>
#include <asm/perf_event.h>

const struct entry_stage_pmu_counter arch_entry_stage_pmu[2] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions",
	  INTEL_PMC_IDX_FIXED, "fixed counter 0" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles",
	  INTEL_PMC_IDX_FIXED + 1, "fixed counter 1" },
};

int arch_entry_stage_pmu_usable(void)
{
	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON)) {
		pr_warn("entry_stage: PMU stamps: this CPU has no architectural PMU (CPUID leaf 0xa); not staging\n");
		return -ENODEV;
	}
	return 0;
}
