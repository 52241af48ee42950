/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The staged copy of a syscall path (CONFIG_ENTRY_STAGE_TRACE, series v4).
 *
 * The file of an arch's syscall path defines ENTRY_STAGE_PLAIN: it has no
 * entry_stage site (<linux/entry_stage_stamp.h>).  Its staged copy is the
 * same file built a second time with this header included first: it gets
 * every site, and calls the staged variants of the out-of-line functions
 * below, whose plain variants have no site either.
 */
#ifndef _LINUX_ENTRY_STAGE_COPY_H
#define _LINUX_ENTRY_STAGE_COPY_H

#define ENTRY_STAGE_COPY

/* kernel/context_tracking.c: with the rcu_eqs_enter/rcu_eqs_exit stamps */
#define __ct_user_enter	entry_stage_ct_user_enter
#define __ct_user_exit	entry_stage_ct_user_exit

#endif /* _LINUX_ENTRY_STAGE_COPY_H */
