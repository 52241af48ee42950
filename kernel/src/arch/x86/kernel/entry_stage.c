// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU stamp source of the syscall stage stamps (CONFIG_ENTRY_STAGE_PMU):
 * pinned in-kernel perf counters of instructions and cycles on every CPU,
 * used only where perf put them on fixed counters 0 and 1, which the
 * stamps read with rdpmc.  perf owns the counters throughout.
 */
#include <linux/cpu.h>
#include <linux/entry_stage.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/cpufeature.h>
#include <asm/perf_event.h>

static DEFINE_PER_CPU(struct perf_event *, entry_stage_pmu_insn);
static DEFINE_PER_CPU(struct perf_event *, entry_stage_pmu_cyc);

static struct perf_event *entry_stage_pmu_event(int cpu, u64 config)
{
	struct perf_event_attr attr = {
		.type	= PERF_TYPE_HARDWARE,
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

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON)) {
		pr_warn("entry_stage: PMU stamps: this CPU has no architectural PMU (CPUID leaf 0xa); not staging\n");
		return -ENODEV;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		insn = entry_stage_pmu_event(cpu, PERF_COUNT_HW_INSTRUCTIONS);
		cyc = entry_stage_pmu_event(cpu, PERF_COUNT_HW_CPU_CYCLES);
		per_cpu(entry_stage_pmu_insn, cpu) = insn;
		per_cpu(entry_stage_pmu_cyc, cpu) = cyc;
		if (IS_ERR(insn) || IS_ERR(cyc)) {
			ret = IS_ERR(insn) ? PTR_ERR(insn) : PTR_ERR(cyc);
			pr_warn("entry_stage: PMU stamps: perf cannot count instructions and cycles on CPU %d (%d); not staging\n",
				cpu, ret);
			break;
		}
		if (insn->state != PERF_EVENT_STATE_ACTIVE ||
		    cyc->state != PERF_EVENT_STATE_ACTIVE ||
		    insn->hw.idx != INTEL_PMC_IDX_FIXED ||
		    cyc->hw.idx != INTEL_PMC_IDX_FIXED + 1) {
			pr_warn("entry_stage: PMU stamps: perf did not put instructions and cycles on fixed counters 0 and 1 of CPU %d (counters %d, %d); not staging\n",
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
