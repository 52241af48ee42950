/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated from entry_stage_defs.h by the entrytrace project's
 * scripts/gen-stage-names: do not edit.  The stage ids and names for
 * __print_symbolic(), and the stage ids of each kind and the top-level
 * ones as masks.
 */
#ifndef _LINUX_ENTRY_STAGE_NAMES_H
#define _LINUX_ENTRY_STAGE_NAMES_H

#define entry_stage_show_stage(stage)					\
	__print_symbolic(stage,						\
			 { 0, "arch_enter" },	\
			 { 1, "ct_user_exit" },	\
			 { 2, "rcu_eqs_exit" },	\
			 { 3, "kstack_rand" },	\
			 { 4, "irq_on" },	\
			 { 5, "entry_work" },	\
			 { 6, "user_dispatch" },	\
			 { 7, "rseq_slice" },	\
			 { 8, "enter_ptrace" },	\
			 { 9, "seccomp" },	\
			 { 10, "enter_tracepoint" },	\
			 { 11, "enter_audit" },	\
			 { 12, "syscall" },	\
			 { 13, "lsm_task_kill" },	\
			 { 14, "rcu_unlock_slow" },	\
			 { 15, "arch_syscall_exit" },	\
			 { 16, "exit_work" },	\
			 { 17, "exit_audit" },	\
			 { 18, "exit_tracepoint" },	\
			 { 19, "exit_ptrace" },	\
			 { 20, "exit_prepare" },	\
			 { 21, "exit_loop" },	\
			 { 22, "resched" },	\
			 { 23, "uprobe" },	\
			 { 24, "klp" },	\
			 { 25, "signal" },	\
			 { 26, "notify_resume" },	\
			 { 27, "arch_exit_prepare" },	\
			 { 28, "emit" },	\
			 { 29, "ct_user_enter" },	\
			 { 30, "rcu_eqs_enter" },	\
			 { 31, "arch_exit_tail" },	\
			 { 32, "exit_restart" },	\
			 { 33, "arch_syscall_entry" })

#define ENTRY_STAGE_TIMED_MASK	0x2083f9ff0ULL
#define ENTRY_STAGE_NOINSTR_MASK	0xfULL
#define ENTRY_STAGE_DEFERRED_MASK	0x1f0000000ULL
#define ENTRY_STAGE_AGG_MASK	0x7c06000ULL
#define ENTRY_STAGE_TOP_MASK	0x3b831903bULL

#endif /* _LINUX_ENTRY_STAGE_NAMES_H */
