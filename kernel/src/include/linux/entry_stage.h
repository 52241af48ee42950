/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall entry/exit stage stamps (CONFIG_ENTRY_STAGE_TRACE).
 *
 * The entry code brackets each stage of a syscall with the stamps below.
 * A stamp is a static branch (a NOP while no entry_stage event is enabled)
 * and, behind it, one store of a free-running counter (TSC, timebase; the
 * PMU with CONFIG_ENTRY_STAGE_PMU) into current's scratch, if current is
 * inside a sampled syscall.  Stamps are __always_inline and call nothing,
 * so they are safe where RCU is not watching.  No event is written between
 * two stamps of a syscall: entry_stage_burst(), at the syscall's last
 * instrumentable point, turns the stamps into events (that is the emit
 * stage); the stages after it (DEFERRED) go out with the task's next burst.
 *
 * Every site also leaves an entry in the non-allocated .entry_stage_sites
 * section of vmlinux (the branch's address, stage, edge, flags), so that a
 * tool watching instruction addresses can time the stages with every
 * event off.
 *
 * A staged syscall begins with entry_stage_syscall_begin() and ends with
 * entry_stage_syscall_end() (or, for an architecture with an exit tail of
 * its own, entry_stage_tail_end()).  Stamps in code shared with interrupt
 * and exception entry or exit (the _shared variants) only count in between.
 */
#ifndef _LINUX_ENTRY_STAGE_H
#define _LINUX_ENTRY_STAGE_H

#include <linux/entry_stage_types.h>

#ifdef CONFIG_ENTRY_STAGE_TRACE

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/preempt.h>
#include <linux/sched.h>

/*
 * A site's .entry_stage_sites entry, for the architecture's site branch:
 * label 1 is the branch, the operands are named es_st, es_ed, es_st2 and
 * es_fl.  ARCH_ENTRY_STAGE_SITE_ADDR emits the 8-byte address.
 */
#define ENTRY_STAGE_SITE_ASM						\
	".pushsection .entry_stage_sites, \"\", @progbits\n\t"		\
	".balign 8\n\t"							\
	ARCH_ENTRY_STAGE_SITE_ADDR "\n\t"				\
	".byte %c[es_st], %c[es_ed], %c[es_st2], %c[es_fl]\n\t"	\
	".long 0\n\t"							\
	".popsection\n\t"

#define ENTRY_STAGE_SITE_ARGS(st, ed, st2, fl)				\
	[es_st] "i" (st), [es_ed] "i" (ed), [es_st2] "i" (st2), [es_fl] "i" (fl)

/*
 * asm/entry_stage.h provides:
 *   arch_entry_stage_branch(key, st, ed, st2, fl)  the site's static branch
 *   arch_entry_stage_current()	current, read afresh at every stamp
 *   arch_entry_stage_read()	the stamp value (counter, or packed PMU)
 *   arch_entry_stage_counter_hz() the counter's frequency
 */
#include <asm/entry_stage.h>

DECLARE_STATIC_KEY_FALSE(entry_stage_key);

extern unsigned int entry_stage_epoch;
extern unsigned int entry_stage_sample;
extern unsigned int entry_stage_every;
extern unsigned int entry_stage_khz;
extern struct entry_stage_calib entry_stage_calib;

int entry_stage_reg(void);
void entry_stage_unreg(void);
void __entry_stage_burst(void);
void entry_stage_fill(u32 *delta, u32 *insns, const struct entry_stage_task *es,
		      u64 mask);
void entry_stage_fork(struct task_struct *p);
void entry_stage_free(struct task_struct *p);

/*
 * CONFIG_ENTRY_STAGE_PMU: the two counters the stamps read, instructions
 * and cycles, held as pinned in-kernel perf events on every online CPU
 * (kernel/entry/stage.c).  The architecture names them, where perf must
 * place them (the perf_event's hw.idx) for its stamps to read them, and
 * whether this CPU has them at all.
 */
struct entry_stage_pmu_counter {
	u32		type;		/* perf_event_attr.type and .config */
	u64		config;
	const char	*name;		/* for messages: "instructions" */
	int		idx;		/* hw.idx the stamps read */
	const char	*where;		/* for messages: "fixed counter 0" */
};
extern const struct entry_stage_pmu_counter arch_entry_stage_pmu[2];
int arch_entry_stage_pmu_usable(void);

static __always_inline bool entry_stage_site(const u8 st, const u8 ed,
					     const u8 st2, const u8 fl)
{
	return arch_entry_stage_branch(&entry_stage_key.key, st, ed, st2, fl);
}

/* current's scratch while it is inside a sampled syscall, else NULL */
static __always_inline struct entry_stage_task *entry_stage_cur(void)
{
	return READ_ONCE(arch_entry_stage_current()->entry_stage_cur);
}

/*
 * The stamp behind a site: one counter read, stored; a stage that ends
 * also sets its bit in @ran.
 */
static __always_inline void __entry_stage_stamp(const u8 st, const u8 ed,
						const u8 st2)
{
	struct entry_stage_task *es = entry_stage_cur();
	u64 now;

	if (!es)
		return;
	now = arch_entry_stage_read();
	es->ts[st][ed != ENTRY_STAGE_EDGE_BEGIN] = now;
	if (ed == ENTRY_STAGE_EDGE_SWITCH)
		es->ts[st2][0] = now;
	if (ed != ENTRY_STAGE_EDGE_BEGIN)
		es->ran |= BIT_ULL(st);
}

static __always_inline void entry_stage_stamp(const u8 st, const u8 ed,
					      const u8 st2, const u8 fl)
{
	if (entry_stage_site(st, ed, st2, fl))
		__entry_stage_stamp(st, ed, st2);
}

static __always_inline void entry_stage_begin(const u8 id)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_BEGIN, ENTRY_STAGE_NONE, 0);
}

static __always_inline void entry_stage_end(const u8 id)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_END, ENTRY_STAGE_NONE, 0);
}

/* End stage @id and begin stage @next at the same point. */
static __always_inline void entry_stage_switch(const u8 id, const u8 next)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_SWITCH, next, 0);
}

/*
 * End stage @id and resume stage @next, which ran before in this syscall
 * and was ended by a switch: @next's begin is set back by what it ran so
 * far, so that its end gives the sum of both pieces.  For an entry path
 * that does one stage's work in two places (powerpc's legacy entry locks
 * KUAP first, and does the rest of arch_enter's work after the context
 * tracking user exit).  The stage then holds two stamps' cost, not one.
 */
static __always_inline void entry_stage_resume_switch(const u8 id, const u8 next)
{
	struct entry_stage_task *es;
	u64 now;

	if (!entry_stage_site(id, ENTRY_STAGE_EDGE_SWITCH, next,
			      ENTRY_STAGE_SITE_RESUME))
		return;
	es = entry_stage_cur();
	if (!es)
		return;
	now = arch_entry_stage_read();
	es->ts[id][1] = now;
	es->ran |= BIT_ULL(id);
	es->ts[next][0] = now - (es->ts[next][1] - es->ts[next][0]);
}

/*
 * The same stamps in code shared with interrupt and exception entry and
 * exit from user mode: they only count inside a syscall (entry_stage_cur()
 * is NULL outside), the flag only tells tools so.
 */
static __always_inline void entry_stage_shared_begin(const u8 id)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_BEGIN, ENTRY_STAGE_NONE,
			  ENTRY_STAGE_SITE_SHARED);
}

static __always_inline void entry_stage_shared_end(const u8 id)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_END, ENTRY_STAGE_NONE,
			  ENTRY_STAGE_SITE_SHARED);
}

static __always_inline void entry_stage_shared_switch(const u8 id, const u8 next)
{
	entry_stage_stamp(id, ENTRY_STAGE_EDGE_SWITCH, next,
			  ENTRY_STAGE_SITE_SHARED);
}

/*
 * Begin a staged syscall: count it, and take it if it is the task's
 * sampled one (entry_stage.sample: one in N).  Unsampled syscalls only
 * pass their sites' branches and this count.  With entry_stage.window
 * every syscall of an armed window is sampled, and one outside the
 * windows passes NOPs.
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
	es = READ_ONCE(t->entry_stage);
	if (!es)
		return;
	es->seq++;
	if (--es->countdown)
		return;
	es->countdown = READ_ONCE(entry_stage_every);
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
	es->ts[id][1] = arch_entry_stage_read();
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
	es->ts[ENTRY_STAGE_ENTRY_WORK][1] = now;
	es->ts[ENTRY_STAGE_ARCH_SYSCALL_ENTRY][0] = now;
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
	es->ts[ENTRY_STAGE_SYSCALL][1] = now;
	if (next != ENTRY_STAGE_NONE)
		es->ts[next][0] = now;
	es->ran |= BIT_ULL(ENTRY_STAGE_SYSCALL);
	es->ret = ret;
}

static __always_inline void entry_stage_body_end(long ret)
{
	entry_stage_body_switch(ret, ENTRY_STAGE_NONE);
}

/*
 * AGG stages may run many times in a syscall; the syscall reports their
 * sum and count.  The body probes (entry_stage_agg_*) count in task context
 * inside the syscall body only; the exit loop's work (entry_stage_rep_*)
 * wherever the loop runs it.
 */
static __always_inline bool __entry_stage_in_body(struct entry_stage_task *es)
{
	return in_task() &&
	       es->ts[ENTRY_STAGE_SYSCALL][0] > es->ts[ENTRY_STAGE_SYSCALL][1];
}

static __always_inline void __entry_stage_acc_begin(const u8 id, bool body)
{
	struct entry_stage_task *es = entry_stage_cur();

	if (!es || (body && !__entry_stage_in_body(es)))
		return;
	es->ts[id][0] = arch_entry_stage_read();
}

static __always_inline void __entry_stage_acc_end(const u8 id, bool body)
{
	struct entry_stage_task *es = entry_stage_cur();
	u64 d;

	if (!es || (body && !__entry_stage_in_body(es)))
		return;
	d = arch_entry_stage_read();
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))	/* two 32-bit counts */
		d = (u64)(u32)((d >> 32) - (es->ts[id][0] >> 32)) << 32 |
		    (u32)((u32)d - (u32)es->ts[id][0]);
	else
		d -= es->ts[id][0];
	if (!(es->ran & BIT_ULL(id))) {		/* first in this syscall */
		es->ran |= BIT_ULL(id);
		es->count[id] = 0;
		es->ts[id][1] = 0;
	}
	es->ts[id][1] += d;
	es->count[id]++;
}

static __always_inline void entry_stage_acc(const u8 id, const u8 ed, bool body)
{
	if (!entry_stage_site(id, ed, ENTRY_STAGE_NONE, ENTRY_STAGE_SITE_AGG))
		return;
	if (ed == ENTRY_STAGE_EDGE_BEGIN)
		__entry_stage_acc_begin(id, body);
	else
		__entry_stage_acc_end(id, body);
}

static __always_inline void entry_stage_agg_begin(const u8 id)
{
	entry_stage_acc(id, ENTRY_STAGE_EDGE_BEGIN, true);
}

static __always_inline void entry_stage_agg_end(const u8 id)
{
	entry_stage_acc(id, ENTRY_STAGE_EDGE_END, true);
}

static __always_inline void entry_stage_rep_begin(const u8 id)
{
	entry_stage_acc(id, ENTRY_STAGE_EDGE_BEGIN, false);
}

static __always_inline void entry_stage_rep_end(const u8 id)
{
	entry_stage_acc(id, ENTRY_STAGE_EDGE_END, false);
}

/* A site's scratch if it is to stamp (for the conditional helpers below). */
static __always_inline struct entry_stage_task *entry_stage_site_cur(const u8 st,
								     const u8 ed)
{
	if (!entry_stage_site(st, ed, ENTRY_STAGE_NONE, 0))
		return NULL;
	return entry_stage_cur();
}

static __always_inline void __entry_stage_end_es(struct entry_stage_task *es,
						 const u8 id)
{
	es->ts[id][1] = arch_entry_stage_read();
	es->ran |= BIT_ULL(id);
}

/* End stage @id only if @cond, which is evaluated only while staging. */
#define entry_stage_end_if(id, cond)					\
	do {								\
		const u8 __id = (id);					\
		struct entry_stage_task *__es =				\
			entry_stage_site_cur(__id, ENTRY_STAGE_EDGE_END);	\
									\
		if (__es && (cond))					\
			__entry_stage_end_es(__es, __id);		\
	} while (0)

/* The scratch to set a path signature bit in, while staging. */
static __always_inline struct entry_stage_task *entry_stage_work_cur(void)
{
	if (!static_branch_unlikely(&entry_stage_key))
		return NULL;
	return entry_stage_cur();
}

/* Set path signature bit @bit if @cond (evaluated only while staging). */
#define entry_stage_work_if(bit, cond)					\
	do {								\
		struct entry_stage_task *__es = entry_stage_work_cur();	\
									\
		if (__es && (cond))					\
			__es->work |= BIT(bit);				\
	} while (0)

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
	if (entry_stage_cur())
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
	es->ts[ENTRY_STAGE_ARCH_EXIT_TAIL][1] = arch_entry_stage_read();
	es->ran |= BIT_ULL(ENTRY_STAGE_ARCH_EXIT_TAIL);
	es->flags &= ~ENTRY_STAGE_TAIL;
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
	es->ts[ENTRY_STAGE_EXIT_RESTART][0] = arch_entry_stage_read();
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
	es->ts[ENTRY_STAGE_EXIT_RESTART][1] = arch_entry_stage_read();
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
	if (es->ts[ENTRY_STAGE_ARCH_SYSCALL_ENTRY][0] >
	    es->ts[ENTRY_STAGE_ARCH_SYSCALL_ENTRY][1])
		id = ENTRY_STAGE_ARCH_SYSCALL_ENTRY;
	es->ts[id][1] = arch_entry_stage_read();
	es->ran |= BIT_ULL(id);
}

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

#else /* !CONFIG_ENTRY_STAGE_TRACE */

struct task_struct;

static inline void entry_stage_begin(const u8 id) { }
static inline void entry_stage_end(const u8 id) { }
static inline void entry_stage_switch(const u8 id, const u8 next) { }
static inline void entry_stage_resume_switch(const u8 id, const u8 next) { }
static inline void entry_stage_shared_begin(const u8 id) { }
static inline void entry_stage_shared_end(const u8 id) { }
static inline void entry_stage_shared_switch(const u8 id, const u8 next) { }
static inline void entry_stage_syscall_begin(void) { }
static inline void entry_stage_syscall_end(const u8 id) { }
static inline void entry_stage_arch_entry_begin(long nr) { }
static inline void entry_stage_body_begin(void) { }
static inline void entry_stage_body_switch(long ret, const u8 next) { }
static inline void entry_stage_body_end(long ret) { }
static inline void entry_stage_agg_begin(const u8 id) { }
static inline void entry_stage_agg_end(const u8 id) { }
static inline void entry_stage_rep_begin(const u8 id) { }
static inline void entry_stage_rep_end(const u8 id) { }
static inline void entry_stage_end_if(const u8 id, bool cond) { }
static inline void entry_stage_work_if(int bit, bool cond) { }
static inline void entry_stage_burst(const u8 prev) { }
static inline void entry_stage_tail_begin(void) { }
static inline void entry_stage_tail_end(void) { }
static inline void entry_stage_restart_begin(void) { }
static inline void entry_stage_restart_end(void) { }
static inline void entry_stage_arch_exit_end(void) { }
static inline void entry_stage_exit_tail(void) { }
static inline void entry_stage_fork(struct task_struct *p) { }
static inline void entry_stage_free(struct task_struct *p) { }

#endif /* CONFIG_ENTRY_STAGE_TRACE */

#endif /* _LINUX_ENTRY_STAGE_H */
