// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU stamp source of the syscall stage stamps on 64-bit Book3S
 * (CONFIG_ENTRY_STAGE_PMU).  PMC5 counts instructions and PMC6 cycles
 * whenever MMCR0 does not freeze them (ISA 2.07 and later).  While staging
 * is on, entry_stage owns the PMU through reserve_pmc_hardware(): enabling
 * an entry_stage event fails while perf holds it, and perf cannot count
 * until staging is off again.  CPUs brought online meanwhile keep their
 * counters frozen (their stages then read 0).
 */
#include <linux/entry_stage.h>
#include <linux/smp.h>
#include <asm/pmc.h>
#include <asm/reg.h>

/* PMXE is never set; clear a stray alert and leave the counters alone. */
static void entry_stage_pmu_irq(struct pt_regs *regs)
{
	mtspr(SPRN_MMCR0, mfspr(SPRN_MMCR0) & ~(MMCR0_PMAO | MMCR0_PMXE));
}

static void entry_stage_pmu_on(void *unused)
{
	ppc_set_pmu_inuse(1);
	/* count in every state; no freeze, no exception */
	mtspr(SPRN_MMCR0, 0);
}

static void entry_stage_pmu_off(void *unused)
{
	mtspr(SPRN_MMCR0, MMCR0_FC);
	ppc_set_pmu_inuse(0);
}

int arch_entry_stage_pmu_start(void)
{
	if (!cpu_has_feature(CPU_FTR_ARCH_207S)) {
		pr_warn("entry_stage: PMU stamps: PMC5/PMC6 need ISA 2.07 (POWER8) or later; not staging\n");
		return -ENODEV;
	}
	if (reserve_pmc_hardware(entry_stage_pmu_irq)) {
		pr_warn("entry_stage: PMU stamps: the PMU is in use (perf); not staging\n");
		return -EBUSY;
	}
	on_each_cpu(entry_stage_pmu_on, NULL, 1);
	return 0;
}

void arch_entry_stage_pmu_stop(void)
{
	on_each_cpu(entry_stage_pmu_off, NULL, 1);
	release_pmc_hardware();
}
