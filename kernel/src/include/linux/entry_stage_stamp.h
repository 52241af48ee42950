/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall entry/exit stage stamps (CONFIG_ENTRY_STAGE_TRACE): the stamp
 * itself, and what kernel/entry/stage.c provides.
 *
 * A stamp is a static branch (a NOP while no entry_stage event is enabled)
 * and, behind it, one store of a free-running counter (TSC, timebase; the
 * PMU with CONFIG_ENTRY_STAGE_PMU) into current's scratch, if current is
 * inside a sampled syscall.  Stamps are __always_inline and call nothing,
 * so they are safe where RCU is not watching.
 *
 * Every site also leaves an entry in the non-allocated .entry_stage_sites
 * section of vmlinux (the branch's address, stage, edge, flags), so that a
 * tool watching instruction addresses can time the stages with every
 * event off.
 *
 * Stamps in code shared with interrupt and exception entry or exit (the
 * _shared variants) only count inside a staged syscall.  The helpers that
 * begin, end and emit a staged syscall are in <linux/entry_stage.h>, the
 * header the entry code includes; they call into kernel/entry/stage.c,
 * which includes this header only.
 */
#ifndef _LINUX_ENTRY_STAGE_STAMP_H
#define _LINUX_ENTRY_STAGE_STAMP_H

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
extern unsigned int entry_stage_session;
extern unsigned int entry_stage_sample;
extern unsigned int entry_stage_every;
extern unsigned int entry_stage_khz;
extern struct entry_stage_calib entry_stage_calib;

int entry_stage_reg(void);
void entry_stage_unreg(void);
int entry_stage_hist_reg(void);
void entry_stage_hist_unreg(void);
int entry_stage_batch_reg(void);
void entry_stage_batch_unreg(void);
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

#if defined(ENTRY_STAGE_COPY)

/*
 * Series v4's staged copy of a path (<linux/entry_stage_copy.h>) runs only
 * inside a sampled syscall of an armed task: its sites have no branch.  A
 * site is its .entry_stage_sites entry, as a zero-width marker (flag
 * ENTRY_STAGE_SITE_MARK: no static branch at its address) in front of its
 * stamp, which always runs.  The plain copy's markers are the same entries
 * without the stamp.
 */
static __always_inline bool entry_stage_site(const u8 st, const u8 ed,
					     const u8 st2, const u8 fl)
{
	asm_inline volatile("1:\n\t" ENTRY_STAGE_SITE_ASM
			    : : ENTRY_STAGE_SITE_ARGS(st, ed, st2, fl | ENTRY_STAGE_SITE_MARK));
	return true;
}

#elif !defined(ENTRY_STAGE_PLAIN)

static __always_inline bool entry_stage_site(const u8 st, const u8 ed,
					     const u8 st2, const u8 fl)
{
	return arch_entry_stage_branch(&entry_stage_key.key, st, ed, st2, fl);
}

#endif

#ifndef ENTRY_STAGE_PLAIN

/*
 * Staging is on: for a body probe that calls its stamped variant out of
 * line (a NOP while every event is off).
 */
static __always_inline bool entry_stage_on(void)
{
	return static_branch_unlikely(&entry_stage_key);
}

#else /* ENTRY_STAGE_PLAIN */

/*
 * Series v4: a file that defines ENTRY_STAGE_PLAIN before its first include
 * (the arch's syscall entry function, the plain copy of the path) has no
 * site: every site is constant false, so the plain path has no branch and
 * no stamp, only the one selection point of <linux/entry_stage.h>.  Every
 * other file, the staged copy of the path among them, has the sites.
 *
 * Where the staged copy has the site of a top-level stage, the plain copy
 * keeps a zero-width marker: the site's .entry_stage_sites entry, flagged
 * ENTRY_STAGE_SITE_MARK, at the address of the code that follows, and no
 * instruction.  A tool watching instruction addresses (the QEMU mix
 * plugin) times the top-level stages of every plain syscall with them,
 * with every event off, and the top-level stages tile the path.
 *
 * A marker is still an asm statement, which the compiler does not move
 * code across: a child stage's markers (in the entry work's conditional
 * blocks) changed how x86's do_syscall_64() was laid out, so children have
 * none, and their time is their parent's (scripts/kernel/check/
 * kernel-plain-identity compares the plain copy with the base kernel's).
 * asm_inline: the compiler weighs it as no code when it inlines.  A marker
 * at the end of a conditional block has the address where the paths join;
 * the tool skips a marker that ends a stage its path did not begin.  A
 * plain copy whose code the markers changed has none (ENTRY_STAGE_NO_MARKS),
 * unless CONFIG_ENTRY_STAGE_PLAIN_MARKS asks for them everywhere (per-stage
 * timing of that path with every event off, its code then not the base
 * kernel's).
 */
#include <linux/entry_stage_names.h>

#if defined(ENTRY_STAGE_NO_MARKS) && !IS_ENABLED(CONFIG_ENTRY_STAGE_PLAIN_MARKS)
#define ENTRY_STAGE_MARKS	0
#else
#define ENTRY_STAGE_MARKS	1
#endif

static __always_inline bool entry_stage_site(const u8 st, const u8 ed,
					     const u8 st2, const u8 fl)
{
	u64 stages = (st == ENTRY_STAGE_NONE ? 0 : BIT_ULL(st)) |
		     (st2 == ENTRY_STAGE_NONE ? 0 : BIT_ULL(st2));

	if (!(stages & ~ENTRY_STAGE_TOP_MASK) && ENTRY_STAGE_MARKS)
		asm_inline volatile("1:\n\t" ENTRY_STAGE_SITE_ASM
				    : : ENTRY_STAGE_SITE_ARGS(st, ed, st2,
							      fl | ENTRY_STAGE_SITE_MARK));
	return false;
}

static __always_inline bool entry_stage_on(void)
{
	return false;
}

#endif /* ENTRY_STAGE_PLAIN */

/* @es's task is armed: staging is on and armed it (kernel/entry/stage.c) */
static __always_inline bool entry_stage_armed(const struct entry_stage_task *es)
{
	unsigned int session = READ_ONCE(entry_stage_session);

	return session && READ_ONCE(es->armed) == session;
}

/* current's scratch while it is inside a sampled syscall, else NULL */
static __always_inline struct entry_stage_task *entry_stage_in_syscall(void)
{
	return READ_ONCE(arch_entry_stage_current()->entry_stage_cur);
}

#ifndef ENTRY_STAGE_COPY
static __always_inline struct entry_stage_task *entry_stage_cur(void)
{
	return entry_stage_in_syscall();
}
#else
/*
 * In the staged copy: the task's scratch, which its stamps write without a
 * test.  The copy runs only for a task that had scratch when it was
 * selected, and a task keeps its scratch until it is freed (staging's end
 * disarms it, kernel/entry/stage.c), so it is never NULL here and never
 * changes under the copy: arch_entry_stage_scratch() is a load the
 * compiler may keep in a register for the whole copy.  A stamp is then
 * the counter's read and its store.
 */
#ifndef arch_entry_stage_scratch
static __always_inline struct entry_stage_task *arch_entry_stage_scratch(void)
{
	return current->entry_stage;
}
#endif

static __always_inline struct entry_stage_task *entry_stage_cur(void)
{
	struct entry_stage_task *es = arch_entry_stage_scratch();

	if (!es)
		__builtin_unreachable();
	return es;
}
#endif

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
	es->ts[ed != ENTRY_STAGE_EDGE_BEGIN][st] = now;
	if (ed == ENTRY_STAGE_EDGE_SWITCH)
		es->ts[0][st2] = now;
	if (ed != ENTRY_STAGE_EDGE_BEGIN)
		es->ran |= BIT_ULL(st);
}

static __always_inline void entry_stage_stamp(const u8 st, const u8 ed,
					      const u8 st2, const u8 fl)
{
	if (entry_stage_site(st, ed, st2, fl))
		__entry_stage_stamp(st, ed, st2);
}

static __always_inline void __entry_stage_resume_switch(const u8 id, const u8 next,
							const u8 fl)
{
	struct entry_stage_task *es;
	u64 now;

	if (!entry_stage_site(id, ENTRY_STAGE_EDGE_SWITCH, next,
			      ENTRY_STAGE_SITE_RESUME | fl))
		return;
	es = entry_stage_cur();
	if (!es)
		return;
	now = arch_entry_stage_read();
	es->ts[1][id] = now;
	es->ran |= BIT_ULL(id);
	es->ts[0][next] = now - (es->ts[1][next] - es->ts[0][next]);
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
	       es->ts[0][ENTRY_STAGE_SYSCALL] > es->ts[1][ENTRY_STAGE_SYSCALL];
}

static __always_inline void __entry_stage_acc_begin(const u8 id, bool body)
{
	struct entry_stage_task *es = entry_stage_cur();

	if (!es || (body && !__entry_stage_in_body(es)))
		return;
	es->ts[0][id] = arch_entry_stage_read();
}

static __always_inline void __entry_stage_acc_end(const u8 id, bool body)
{
	struct entry_stage_task *es = entry_stage_cur();
	u64 d;

	if (!es || (body && !__entry_stage_in_body(es)))
		return;
	d = arch_entry_stage_read();
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))	/* two 32-bit counts */
		d = (u64)(u32)((d >> 32) - (es->ts[0][id] >> 32)) << 32 |
		    (u32)((u32)d - (u32)es->ts[0][id]);
	else
		d -= es->ts[0][id];
	if (!(es->ran & BIT_ULL(id))) {		/* first in this syscall */
		es->ran |= BIT_ULL(id);
		es->count[id] = 0;
		es->ts[1][id] = 0;
	}
	es->ts[1][id] += d;
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
	es->ts[1][id] = arch_entry_stage_read();
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
	if (!entry_stage_on())
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
 * The helpers the entry code calls: over entry_stage_stamp(), a site's
 * branch and stamp, or in a plain copy its marker.
 */
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
 * tracking user exit; the exit work loop goes back to exit_prepare).  The
 * stage then holds two stamps' cost, not one.
 */
static __always_inline void entry_stage_resume_switch(const u8 id, const u8 next)
{
	__entry_stage_resume_switch(id, next, 0);
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

static __always_inline void entry_stage_shared_resume_switch(const u8 id, const u8 next)
{
	__entry_stage_resume_switch(id, next, ENTRY_STAGE_SITE_SHARED);
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

#else /* !CONFIG_ENTRY_STAGE_TRACE */

static inline void entry_stage_begin(const u8 id) { }
static inline void entry_stage_end(const u8 id) { }
static inline void entry_stage_switch(const u8 id, const u8 next) { }
static inline void entry_stage_resume_switch(const u8 id, const u8 next) { }
static inline void entry_stage_shared_begin(const u8 id) { }
static inline void entry_stage_shared_end(const u8 id) { }
static inline void entry_stage_shared_switch(const u8 id, const u8 next) { }
static inline void entry_stage_shared_resume_switch(const u8 id, const u8 next) { }
static inline void entry_stage_agg_begin(const u8 id) { }
static inline void entry_stage_agg_end(const u8 id) { }
static inline void entry_stage_rep_begin(const u8 id) { }
static inline void entry_stage_rep_end(const u8 id) { }
static inline void entry_stage_end_if(const u8 id, bool cond) { }
static inline void entry_stage_work_if(int bit, bool cond) { }
static inline bool entry_stage_on(void) { return false; }

struct task_struct;

static inline void entry_stage_fork(struct task_struct *p) { }
static inline void entry_stage_free(struct task_struct *p) { }

#endif /* CONFIG_ENTRY_STAGE_TRACE */

#endif /* _LINUX_ENTRY_STAGE_STAMP_H */
