/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall entry/exit stages (CONFIG_ENTRY_STAGE_TRACE): the staged syscall.
 *
 * The entry code brackets each stage of a syscall with the stamps of
 * <linux/entry_stage_stamp.h>.  No event is written between two stamps of
 * a syscall: entry_stage_burst(), at the syscall's last instrumentable
 * point, turns the stamps into events (that is the emit stage); the stages
 * after it (DEFERRED) go out with the task's next burst.
 *
 * A staged syscall begins with entry_stage_syscall_begin() and ends with
 * entry_stage_syscall_end() (or, for an architecture with an exit tail of
 * its own, entry_stage_tail_end()).
 */
#ifndef _LINUX_ENTRY_STAGE_H
#define _LINUX_ENTRY_STAGE_H

#include <linux/entry_stage_stamp.h>

#ifdef CONFIG_ENTRY_STAGE_TRACE
/*
 * The task's countdown reached zero: this is its sampled syscall.  Count
 * the syscalls since the last one into @seq and start the countdown over
 * (entry_stage.sample, or 1 in windows).
 */
static __always_inline void entry_stage_sample_taken(struct task_struct *t,
						     struct entry_stage_task *es)
{
	u32 every = READ_ONCE(entry_stage_every);

	es->seq += es->period;
	es->period = every;
	t->entry_stage_countdown = every;
}

/*
 * Series v4: the one selection point of a syscall.  The file of an entry
 * path that has a staged copy is ENTRY_STAGE_PLAIN (no site), and the same
 * source built a second time with the sites (ENTRY_STAGE_COPY) is the
 * staged copy.  The arch selects in front of the plain path: x86's
 * entry_SYSCALL_64 has a static branch on entry_stage_key (a NOP with every
 * event off, the only instruction the series adds to the path) to a
 * decrement of task_struct::entry_stage_countdown; at zero it calls
 * entry_stage_syscall_64(), which asks entry_stage_select_task().  An armed
 * task (one with scratch) takes its sampled syscall into the staged copy.
 * A task without scratch (entry_stage.pid) has a countdown of zero, and
 * comes here once in 2^32 syscalls to run the plain path.  The countdown
 * is written by the task itself and, while entry_stage_key is off, by the
 * arming of staging and by fork, so that no write is lost.
 */
static __always_inline bool entry_stage_select_task(void)
{
	struct task_struct *t = arch_entry_stage_current();
	struct entry_stage_task *es = READ_ONCE(t->entry_stage);

	if (!es || !entry_stage_armed(es))
		return false;
	entry_stage_sample_taken(t, es);
	return true;
}

/*
 * The helpers below are written once for both copies: in a plain copy
 * (ENTRY_STAGE_PLAIN) entry_stage_site() leaves a marker and is false, and
 * what follows it is not compiled in.
 */

/*
 * Begin a staged syscall: count it, and take it if it is the task's
 * sampled one (entry_stage.sample: one in N).  Unsampled syscalls only
 * pass their sites' branches and this count.  With entry_stage.window
 * every syscall of an armed window is sampled, and one outside the
 * windows passes NOPs.  In the staged copy of a path (ENTRY_STAGE_COPY)
 * entry_stage_select_task() has counted and taken the syscall already.
 */
static __always_inline void entry_stage_syscall_begin(void)
{
	struct task_struct *t;
	struct entry_stage_task *es;
	unsigned int epoch;

	if (!entry_stage_site(ENTRY_STAGE_NONE, ENTRY_STAGE_EDGE_BEGIN,
			      ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_SYSCALL_BEGIN))
		return;
	t = arch_entry_stage_current();
#ifndef ENTRY_STAGE_COPY
	es = READ_ONCE(t->entry_stage);
	if (!es)
		return;
	if (--t->entry_stage_countdown || !entry_stage_armed(es))
		return;
	entry_stage_sample_taken(t, es);
#else
	es = entry_stage_cur();
#endif
	/*
	 * New period (entry_stage.window): a window that closed in the
	 * middle of a syscall left its scratch current, and stamps in shared
	 * code may have written into it since.
	 */
	epoch = READ_ONCE(entry_stage_epoch);
	if (unlikely(es->epoch != epoch))
		es->ran = 0;
	es->epoch = epoch;
	es->work = 0;
	es->entry = arch_entry_stage_read();
	/* PMU counters are per CPU: the burst drops a syscall that moved */
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) && IS_ENABLED(CONFIG_SMP))
		es->migrations = t->se.nr_migrations;
	WRITE_ONCE(t->entry_stage_cur, es);
}

/* End stage @id, the last of the syscall, and the staged syscall. */
static __always_inline void entry_stage_syscall_end(const u8 id)
{
	struct task_struct *t;
	struct entry_stage_task *es;

	if (!entry_stage_site(id, ENTRY_STAGE_EDGE_END, ENTRY_STAGE_NONE,
			      ENTRY_STAGE_SITE_SYSCALL_END | ENTRY_STAGE_SITE_SHARED))
		return;
	t = arch_entry_stage_current();
	es = READ_ONCE(t->entry_stage_cur);
	if (!es)
		return;
	es->ts[1][id] = arch_entry_stage_read();
	es->ran |= BIT_ULL(id);
	WRITE_ONCE(t->entry_stage_cur, NULL);
}

/*
 * The generic entry is done: entry_work ends and arch_syscall_entry, the
 * arch code up to the handler call, begins, for syscall @nr (-1 when the
 * entry work skips the syscall).
 */
static __always_inline void entry_stage_arch_entry_begin(long nr)
{
	struct entry_stage_task *es;
	u64 now;

	if (!entry_stage_site(ENTRY_STAGE_ENTRY_WORK, ENTRY_STAGE_EDGE_SWITCH,
			      ENTRY_STAGE_ARCH_SYSCALL_ENTRY, 0))
		return;
	es = entry_stage_cur();
	if (!es)
		return;
	now = arch_entry_stage_read();
	es->ts[1][ENTRY_STAGE_ENTRY_WORK] = now;
	es->ts[0][ENTRY_STAGE_ARCH_SYSCALL_ENTRY] = now;
	es->ran |= BIT_ULL(ENTRY_STAGE_ENTRY_WORK);
	es->nr = nr;
}

/*
 * The body, the handler call alone, begins: right before the arch calls
 * the handler, and ends (entry_stage_body_switch() to arch_syscall_exit)
 * right after it returns.
 */
static __always_inline void entry_stage_body_begin(void)
{
	entry_stage_switch(ENTRY_STAGE_ARCH_SYSCALL_ENTRY, ENTRY_STAGE_SYSCALL);
}

/* The body ends with return value @ret, and stage @next begins (or none). */
static __always_inline void entry_stage_body_switch(long ret, const u8 next)
{
	struct entry_stage_task *es;
	u64 now;

	if (!entry_stage_site(ENTRY_STAGE_SYSCALL,
			      next == ENTRY_STAGE_NONE ? ENTRY_STAGE_EDGE_END :
			      ENTRY_STAGE_EDGE_SWITCH, next, 0))
		return;
	es = entry_stage_cur();
	if (!es)
		return;
	now = arch_entry_stage_read();
	es->ts[1][ENTRY_STAGE_SYSCALL] = now;
	if (next != ENTRY_STAGE_NONE)
		es->ts[0][next] = now;
	es->ran |= BIT_ULL(ENTRY_STAGE_SYSCALL);
	es->ret = ret;
}

static __always_inline void entry_stage_body_end(long ret)
{
	entry_stage_body_switch(ret, ENTRY_STAGE_NONE);
}

/*
 * The syscall's last instrumentable point: end stage @prev, begin the emit
 * stage and write the syscall's events (and the previous syscall's
 * DEFERRED stages).  The emit stage ends at the next stamp.
 */
static __always_inline void entry_stage_burst(const u8 prev)
{
	if (!entry_stage_site(prev, ENTRY_STAGE_EDGE_SWITCH, ENTRY_STAGE_EMIT, 0))
		return;
	__entry_stage_stamp(prev, ENTRY_STAGE_EDGE_SWITCH, ENTRY_STAGE_EMIT);
	if (entry_stage_in_syscall())
		__entry_stage_burst();
}

/*
 * An architecture whose own exit code goes on after exit_to_user_mode()
 * (and may go back through shared entry/exit code, as powerpc's interrupt
 * replay does) keeps arch_exit_tail open there: entry_stage_tail_begin()
 * stops every other stamp, entry_stage_tail_end() ends the stage and the
 * staged syscall.
 */
static __always_inline void entry_stage_tail_begin(void)
{
	struct task_struct *t;
	struct entry_stage_task *es;

	if (!entry_stage_site(ENTRY_STAGE_NONE, ENTRY_STAGE_EDGE_BEGIN,
			      ENTRY_STAGE_NONE,
			      ENTRY_STAGE_SITE_TAIL | ENTRY_STAGE_SITE_SHARED))
		return;
	t = arch_entry_stage_current();
	es = READ_ONCE(t->entry_stage_cur);
	if (!es)
		return;
	es->flags |= ENTRY_STAGE_TAIL;
	WRITE_ONCE(t->entry_stage_cur, NULL);
}

static __always_inline void entry_stage_tail_end(void)
{
	struct entry_stage_task *es;

	if (!entry_stage_site(ENTRY_STAGE_ARCH_EXIT_TAIL, ENTRY_STAGE_EDGE_END,
			      ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_SYSCALL_END))
		return;
	es = READ_ONCE(arch_entry_stage_current()->entry_stage);
	if (!es || !(es->flags & ENTRY_STAGE_TAIL))
		return;
	es->ts[1][ENTRY_STAGE_ARCH_EXIT_TAIL] = arch_entry_stage_read();
	es->ran |= BIT_ULL(ENTRY_STAGE_ARCH_EXIT_TAIL);
	es->flags &= ~ENTRY_STAGE_TAIL;
}

/*
 * A stage inside the exit tail (a DEFERRED child of arch_exit_tail in
 * stages.def): entry_stage_tail_begin() stopped the plain stamps, so a
 * child of the tail is stamped through the task's scratch while the tail is
 * open, as entry_stage_tail_end() is.  A stage of the tail is its row and
 * these two calls around its code.
 */
static __always_inline void entry_stage_tail_stamp(const u8 id, const u8 ed)
{
	struct entry_stage_task *es;

	if (!entry_stage_site(id, ed, ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_TAIL))
		return;
	es = READ_ONCE(arch_entry_stage_current()->entry_stage);
	if (!es || !(es->flags & ENTRY_STAGE_TAIL))
		return;
	es->ts[ed == ENTRY_STAGE_EDGE_END][id] = arch_entry_stage_read();
	if (ed == ENTRY_STAGE_EDGE_END)
		es->ran |= BIT_ULL(id);
}

static __always_inline void entry_stage_tail_stage_begin(const u8 id)
{
	entry_stage_tail_stamp(id, ENTRY_STAGE_EDGE_BEGIN);
}

static __always_inline void entry_stage_tail_stage_end(const u8 id)
{
	entry_stage_tail_stamp(id, ENTRY_STAGE_EDGE_END);
}

/*
 * The exit redone after the staged syscall ended (powerpc's
 * syscall_exit_restart()): timed as exit_restart, a DEFERRED stage of the
 * task's last syscall if that one was staged.  Several restarts in a row
 * are one stage, from the first begin to the last end.
 */
static __always_inline void entry_stage_restart_begin(void)
{
	struct entry_stage_task *es;

	if (!entry_stage_site(ENTRY_STAGE_EXIT_RESTART, ENTRY_STAGE_EDGE_BEGIN,
			      ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_SYSCALL_BEGIN))
		return;
	es = READ_ONCE(arch_entry_stage_current()->entry_stage);
	if (!es || !(es->flags & ENTRY_STAGE_TAIL_VALID) ||
	    es->seq != es->tail_seq || (es->flags & ENTRY_STAGE_RESTART))
		return;
	es->ts[0][ENTRY_STAGE_EXIT_RESTART] = arch_entry_stage_read();
	es->flags |= ENTRY_STAGE_RESTART;
}

static __always_inline void entry_stage_restart_end(void)
{
	struct entry_stage_task *es;

	if (!entry_stage_site(ENTRY_STAGE_EXIT_RESTART, ENTRY_STAGE_EDGE_END,
			      ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_SYSCALL_END))
		return;
	es = READ_ONCE(arch_entry_stage_current()->entry_stage);
	if (!es || !(es->flags & ENTRY_STAGE_RESTART))
		return;
	es->ts[1][ENTRY_STAGE_EXIT_RESTART] = arch_entry_stage_read();
	es->ran |= BIT_ULL(ENTRY_STAGE_EXIT_RESTART);
}

/*
 * The arch code after the handler (arch_syscall_exit) ends where the generic
 * exit begins.  A syscall that called no handler (skipped by the entry
 * work, or a number out of range) is still in arch_syscall_entry: that
 * ends here instead, so that the arch code is counted once either way.
 */
static __always_inline void entry_stage_arch_exit_end(void)
{
	struct entry_stage_task *es;
	u8 id = ENTRY_STAGE_ARCH_SYSCALL_EXIT;

	if (!entry_stage_site(ENTRY_STAGE_ARCH_SYSCALL_EXIT, ENTRY_STAGE_EDGE_END,
			      ENTRY_STAGE_NONE, 0))
		return;
	es = entry_stage_cur();
	if (!es)
		return;
	if (es->ts[0][ENTRY_STAGE_ARCH_SYSCALL_ENTRY] >
	    es->ts[1][ENTRY_STAGE_ARCH_SYSCALL_ENTRY])
		id = ENTRY_STAGE_ARCH_SYSCALL_ENTRY;
	es->ts[1][id] = arch_entry_stage_read();
	es->ran |= BIT_ULL(id);
}

#else /* !CONFIG_ENTRY_STAGE_TRACE */

static inline void entry_stage_syscall_begin(void) { }
static inline void entry_stage_syscall_end(const u8 id) { }
static inline void entry_stage_arch_entry_begin(long nr) { }
static inline void entry_stage_body_begin(void) { }
static inline void entry_stage_body_switch(long ret, const u8 next) { }
static inline void entry_stage_body_end(long ret) { }
static inline void entry_stage_burst(const u8 prev) { }
static inline void entry_stage_tail_begin(void) { }
static inline void entry_stage_tail_end(void) { }
static inline void entry_stage_tail_stage_begin(const u8 id) { }
static inline void entry_stage_tail_stage_end(const u8 id) { }
static inline void entry_stage_restart_begin(void) { }
static inline void entry_stage_restart_end(void) { }
static inline void entry_stage_arch_exit_end(void) { }
static inline void entry_stage_exit_tail(void) { }

#endif /* CONFIG_ENTRY_STAGE_TRACE */

#ifdef CONFIG_ENTRY_STAGE_TRACE
/*
 * The generic exit code ends, last, arch_exit_tail and the staged syscall,
 * unless the architecture does that itself (ARCH_ENTRY_STAGE_EXIT_TAIL).
 */
#ifdef ARCH_ENTRY_STAGE_EXIT_TAIL
static __always_inline void entry_stage_exit_tail(void)
{
	entry_stage_tail_begin();
}
#else
static __always_inline void entry_stage_exit_tail(void)
{
	entry_stage_syscall_end(ENTRY_STAGE_ARCH_EXIT_TAIL);
}
#endif
#endif /* CONFIG_ENTRY_STAGE_TRACE */

#endif /* _LINUX_ENTRY_STAGE_H */
