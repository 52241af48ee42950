/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 part of the syscall entry/exit stage stamps (see
 * include/linux/entry_stage.h): the site's static branch, current, and the
 * stamp value, the TSC (or, with CONFIG_ENTRY_STAGE_PMU, the fixed PMU
 * counters of instructions and cycles).
 */
#ifndef _ASM_X86_ENTRY_STAGE_H
#define _ASM_X86_ENTRY_STAGE_H

#include <linux/percpu.h>
#include <asm/current.h>
#include <linux/jump_label.h>
#include <asm/tsc.h>

#define ARCH_ENTRY_STAGE_SITE_ADDR	".quad 1b"

/* A static branch, as arch_static_branch(), with its site entry. */
static __always_inline bool arch_entry_stage_branch(struct static_key *key,
						    const u8 st, const u8 ed,
						    const u8 st2, const u8 fl)
{
	asm goto(ARCH_STATIC_BRANCH_ASM("%c[key]", "%l[l_yes]")
		 ENTRY_STAGE_SITE_ASM
		 : : [key] "i" (key), ENTRY_STAGE_SITE_ARGS(st, ed, st2, fl)
		 : : l_yes);
	return false;
l_yes:
	return true;
}

/*
 * current, read from the per-CPU variable at every stamp (not the cached
 * const alias), so that every stamp is the same few instructions.
 */
static __always_inline struct task_struct *arch_entry_stage_current(void)
{
	return this_cpu_read(current_task);
}

/*
 * The staged copy's scratch (<linux/entry_stage_stamp.h>): current's
 * entry_stage, loaded by an asm statement that reads no memory the
 * compiler knows of, so that it may load it once and keep it in a
 * register across the copy's stores and calls.  That is only right
 * because the pointer does not change while the task is in the copy.
 */
static __always_inline struct entry_stage_task *arch_entry_stage_scratch(void)
{
	struct entry_stage_task *es;

	asm ("movq %c1(%2), %0" : "=r" (es)
	     : "i" (offsetof(struct task_struct, entry_stage)), "r" (current));
	return es;
}
#define arch_entry_stage_scratch arch_entry_stage_scratch

#ifdef CONFIG_ENTRY_STAGE_PMU
/*
 * Fixed counter 0 (instructions retired) in the upper and fixed counter 1
 * (unhalted core cycles) in the lower 32 bits.  kernel/entry/stage.c only
 * enables staging when perf put its kernel counters on exactly these.
 */
static __always_inline u64 arch_entry_stage_read(void)
{
	u32 insn, cyc, hi;

	asm volatile("rdpmc" : "=a" (insn), "=d" (hi) : "c" (1U << 30));
	asm volatile("rdpmc" : "=a" (cyc), "=d" (hi) : "c" ((1U << 30) | 1));
	return (u64)insn << 32 | cyc;
}
#else
static __always_inline u64 arch_entry_stage_read(void)
{
	return rdtsc();
}
#endif

static inline u64 arch_entry_stage_counter_hz(void)
{
	return (u64)tsc_khz * 1000;
}

#endif /* _ASM_X86_ENTRY_STAGE_H */
