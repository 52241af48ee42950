/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powerpc part of the syscall entry/exit stage stamps (see
 * include/linux/entry_stage.h): the site's static branch, current, and the
 * stamp value, the timebase (or, with CONFIG_ENTRY_STAGE_PMU, PMC5 and
 * PMC6: instructions and cycles).
 */
#ifndef _ASM_POWERPC_ENTRY_STAGE_H
#define _ASM_POWERPC_ENTRY_STAGE_H

#include <linux/stddef.h>
#include <linux/jump_label.h>
#include <asm/asm-compat.h>
#include <asm/paca.h>
#include <asm/reg.h>
#include <asm/time.h>

#ifdef CONFIG_PPC64
#define ARCH_ENTRY_STAGE_SITE_ADDR	".8byte 1b"
#else
/* the entry's 8-byte address field, big-endian: a zero upper word */
#define ARCH_ENTRY_STAGE_SITE_ADDR	".long 0, 1b"
#endif

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

#ifdef CONFIG_PPC64
/*
 * current, loaded from the paca at every stamp (get_current() lets the
 * compiler cache it), so that every stamp is the same few instructions.
 */
static __always_inline struct task_struct *arch_entry_stage_current(void)
{
	struct task_struct *t;

	asm volatile("ld %0,%1(13)" : "=r" (t)
		     : "i" (offsetof(struct paca_struct, __current)));
	return t;
}
#else
/* current lives in r2 on 32-bit: there is nothing to cache */
static __always_inline struct task_struct *arch_entry_stage_current(void)
{
	return current;
}
#endif

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

	asm (PPC_LL "%0,%1(%2)" : "=r" (es)
	     : "i" (offsetof(struct task_struct, entry_stage)), "b" (current));
	return es;
}
#define arch_entry_stage_scratch arch_entry_stage_scratch

#ifdef CONFIG_ENTRY_STAGE_PMU
/* PMC5 (instructions) in the upper, PMC6 (cycles) in the lower 32 bits. */
static __always_inline u64 arch_entry_stage_read(void)
{
	return (u64)mfspr(SPRN_PMC5) << 32 | (u32)mfspr(SPRN_PMC6);
}
#else
static __always_inline u64 arch_entry_stage_read(void)
{
	return get_tb();
}
#endif

static inline u64 arch_entry_stage_counter_hz(void)
{
	return ppc_tb_freq;
}

/*
 * syscall_exit_prepare() goes on after syscall_exit_to_user_mode()
 * (user_enter_irqoff() again, prep_irq_for_enabled_exit() and its retry,
 * the kuap restore): it ends arch_exit_tail there (entry_stage_tail_end()),
 * not exit_to_user_mode().
 */
#define ARCH_ENTRY_STAGE_EXIT_TAIL	1

/*
 * Series v4: one selection point.  syscall.c and interrupt.c define
 * ENTRY_STAGE_PLAIN, so the syscall path they compile has no stamp site;
 * syscall_staged.c and interrupt_staged.c build system_call_exception(),
 * syscall_exit_prepare() and (64-bit) syscall_exit_restart() a second
 * time with every site, as the entry_stage_ variants below.
 * interrupt_64.S (sc, and scv's two vectors) and entry_32.S have a static
 * branch on entry_stage_key (a NOP with every event off) in front of the
 * call of system_call_exception(), to a decrement of
 * task_struct::entry_stage_countdown; at zero they call
 * entry_stage_syscall() for the syscall's entry and exit both.  On 64-bit
 * the exit's restart (an interrupt pending at its end) has a static
 * branch of its own, to entry_stage_syscall_restart().
 */
#ifdef CONFIG_HAVE_ARCH_ENTRY_STAGE_COPY
struct pt_regs;

long entry_stage_system_call_exception(struct pt_regs *regs, unsigned long r0);
unsigned long entry_stage_syscall_exit_prepare(unsigned long r3, struct pt_regs *regs,
					       long scv);
unsigned long entry_stage_syscall(struct pt_regs *regs, unsigned long r0, long scv);
#ifdef CONFIG_PPC64
unsigned long entry_stage_syscall_exit_restart(unsigned long r3, struct pt_regs *regs);
unsigned long entry_stage_syscall_restart(unsigned long r3, struct pt_regs *regs);
#endif
#endif /* CONFIG_HAVE_ARCH_ENTRY_STAGE_COPY */

#endif /* _ASM_POWERPC_ENTRY_STAGE_H */
