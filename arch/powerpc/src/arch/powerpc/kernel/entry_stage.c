// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU stamp source of the syscall stage stamps on 64-bit Book3S
 * (CONFIG_ENTRY_STAGE_PMU): pinned in-kernel perf counters on every online
 * CPU, PM_RUN_INST_CMPL on PMC5 and PM_RUN_CYC on PMC6 (the only events
 * those two counters count from ISA 2.07 on), which the stamps read with
 * mfspr.  perf owns the PMU throughout: it programs MMCR0-2 and MMCRA as
 * it does for any event (MMCR0[PMCCEXT] on ISA 3.1 included), gives the
 * other counters to other users, and puts everything back when the
 * counters are released.  Enabling an entry_stage event fails when perf
 * cannot place both events on every online CPU.
 */
#include <linux/cpu.h>
#include <linux/entry_stage.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <asm/cputable.h>

#define ENTRY_STAGE_PM_RUN_INST_CMPL	0x500fa	/* PMC5: instructions */
#define ENTRY_STAGE_PM_RUN_CYC		0x600f4	/* PMC6: cycles */

static DEFINE_PER_CPU(struct perf_event *, entry_stage_pmu_insn);
static DEFINE_PER_CPU(struct perf_event *, entry_stage_pmu_cyc);

static struct perf_event *entry_stage_pmu_event(int cpu, u64 config)
{
	struct perf_event_attr attr = {
		.type	= PERF_TYPE_RAW,
		.config	= config,
		.size	= sizeof(attr),
		.pinned	= 1,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

static void entry_stage_pmu_put(struct perf_event **ev)
{
	if (!IS_ERR_OR_NULL(*ev))
		perf_event_release_kernel(*ev);
	*ev = NULL;
}

void arch_entry_stage_pmu_stop(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		entry_stage_pmu_put(per_cpu_ptr(&entry_stage_pmu_insn, cpu));
		entry_stage_pmu_put(per_cpu_ptr(&entry_stage_pmu_cyc, cpu));
	}
}

int arch_entry_stage_pmu_start(void)
{
	struct perf_event *insn, *cyc;
	int cpu, ret = 0;

	if (!cpu_has_feature(CPU_FTR_ARCH_207S)) {
		pr_warn("entry_stage: PMU stamps: PMC5/PMC6 need ISA 2.07 (POWER8) or later; not staging\n");
		return -ENODEV;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		insn = entry_stage_pmu_event(cpu, ENTRY_STAGE_PM_RUN_INST_CMPL);
		cyc = entry_stage_pmu_event(cpu, ENTRY_STAGE_PM_RUN_CYC);
		per_cpu(entry_stage_pmu_insn, cpu) = insn;
		per_cpu(entry_stage_pmu_cyc, cpu) = cyc;
		if (IS_ERR(insn) || IS_ERR(cyc)) {
			ret = IS_ERR(insn) ? PTR_ERR(insn) : PTR_ERR(cyc);
			pr_warn("entry_stage: PMU stamps: perf cannot count PM_RUN_INST_CMPL and PM_RUN_CYC on CPU %d (%d); not staging\n",
				cpu, ret);
			break;
		}
		/* hw.idx is the PMC's number, from 1 */
		if (insn->state != PERF_EVENT_STATE_ACTIVE ||
		    cyc->state != PERF_EVENT_STATE_ACTIVE ||
		    insn->hw.idx != 5 || cyc->hw.idx != 6) {
			pr_warn("entry_stage: PMU stamps: perf did not put instructions and cycles on PMC5 and PMC6 of CPU %d (PMC%d, PMC%d); not staging\n",
				cpu, insn->hw.idx, cyc->hw.idx);
			ret = -EBUSY;
			break;
		}
	}
	cpus_read_unlock();
	if (ret)
		arch_entry_stage_pmu_stop();
	return ret;
}
