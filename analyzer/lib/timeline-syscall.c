// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline, syscalls: what every mode does with a task's two syscalls,
 * `cur`, the one being built, and `pend`, the previous one, kept until the
 * task's next syscall is under way because things that belong to it still
 * arrive after it returned: signal delivery and context tracking on a
 * stock kernel, the DEFERRED stages of an entrytrace kernel (emitted at
 * the next entry).  A syscall is begun here, moved from cur to pend, held
 * against what cannot be (damage, counted) and handed to the sink.
 *
 * Nothing is dropped silently: every syscall reaches the sink, with flags
 * saying why it is incomplete, and the counts say how many of each.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "timeline-local.h"

/* The task's name as a syscall takes it (the cmdlines one until confirmed). */
static inline const char *tl_task_comm(struct et_timeline *tl, struct et_task *t)
{
	return t->comm_known ? t->comm : tl_task_comm_slow(tl, t);
}

uint32_t et_sc_reason(uint32_t flags)
{
	static const uint32_t order[] = {
		ET_SC_IMPLAUSIBLE, ET_SC_LOST, ET_SC_OPEN_START, ET_SC_OPEN_END,
		ET_SC_NORETURN, ET_SC_CHILD, ET_SC_NO_EXIT, ET_SC_MISMATCH,
	};

	for (size_t i = 0; i < ET_ARRAY_SIZE(order); i++)
		if (flags & order[i])
			return order[i];
	return 0;
}

/*
 * What a syscall's times can be in this trace: nothing before its first
 * record or after its last (1 ms of slack), no stage longer than the
 * trace, no kernel stage (the tracer's emit aside) longer than its
 * syscall.  No end known (a live trace), or samples without a clock: off.
 */
struct tl_bounds tl_bounds_of(const struct et_trace_info *in)
{
	const uint64_t slack = 1000000;	/* 1 ms */
	/*
	 * Packed batches are written up to about two seconds after their
	 * first record (a second at the next append, or the timer's next
	 * round): the file's first record may be that much after its first
	 * syscall
	 */
	uint64_t before = in->present & ET_HAVE_BATCH ? 3000000000ull : slack;

	_Static_assert(ET_SLOT_NR <= 64, "stage_mask has a bit per stage");
	if (!in->last_ts || in->last_ts < in->first_ts || in->clockless)
		return (struct tl_bounds){ .on = false };
	return (struct tl_bounds){
		.on = true,
		.lo = in->first_ts > before ? in->first_ts - before : 0,
		.hi = in->last_ts + slack,
		.span = in->last_ts - in->first_ts + before,
		.inner = ((1ull << ET_STAGE_KERNEL_NR) - 1) &
			 ~(1ull << ET_SLOT_TOTAL | 1ull << ET_STAGE_EMIT),
	};
}

/*
 * Runs for every complete syscall, so it looks only at the stages the
 * syscall has (stage_mask's bits, two or three on a stock kernel), against
 * bounds worked out once per timeline.
 */
static inline bool plausible(const struct tl_bounds *b, const struct et_syscall *sc)
{
	uint64_t inner = 0, total = 0;

	if (!b->on)
		return true;
	if (sc->ts_enter < b->lo || sc->ts_exit > b->hi)
		return false;
	if (sc->stage_mask & (1ull << ET_SLOT_TOTAL)) {
		inner = b->inner;
		total = sc->ns[ET_SLOT_TOTAL];
	}
	for (uint64_t m = sc->stage_mask; m; m &= m - 1) {
		int st = __builtin_ctzll(m);

		if (sc->ns[st] > b->span || (inner >> st & 1 && sc->ns[st] > total))
			return false;
	}
	return true;
}

bool et_sc_plausible(const struct et_syscall *sc, const struct et_trace_info *in)
{
	struct tl_bounds b = tl_bounds_of(in);

	return plausible(&b, sc);
}

/*
 * Stage modes: the shape of sc's argument event, the one of its number
 * between the task's previous syscall's end and sc's end.  Not sc's
 * start: in summary mode that is worked out from the stages' sum, which
 * runs short of the trace clock on a long syscall (a kill(-1, 0) of
 * 80,000 instructions lost 11 of 20 shapes that way).
 */
static void args_place(struct et_task *t, struct et_syscall *sc)
{
	int best = -1;

	for (int i = 0; i < ET_ARGS_RING; i++) {
		if (t->args[i].nr != sc->nr || t->args[i].ts < t->args_floor ||
		    t->args[i].ts > sc->ts_exit)
			continue;
		if (best < 0 || t->args[i].ts < t->args[best].ts)
			best = i;
	}
	if (best >= 0) {
		sc->shape = t->args[best].shape;
		t->args[best].nr = -1;
	}
}

/* syscalls:sys_enter_<name>: held until its syscall is handed on. */
void tl_args_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev)
{
	unsigned int i = t->args_next++ % ET_ARGS_RING;

	if (t->args[i].nr >= 0)
		tl->counts.stray++;	/* never placed: fits no syscall */
	t->args[i].ts = ev->ts;
	t->args[i].nr = (int)ev->enter.nr;
	t->args[i].shape = et_shape_of(&tl->shapes, (int)ev->enter.nr, ev->enter.arg,
				       ev->enter.nargs, t->pid, t->tgid);
}

void tl_emit(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	uint32_t reason, flags;

	tl_settle(tl, t, sc);
	if (tl->ops->stamped) {
		if (!sc->shape)
			args_place(t, sc);
		if (sc->ts_exit > t->args_floor)
			t->args_floor = sc->ts_exit;
	}
	/* values that cannot be: damage, counted, kept out like an incomplete one */
	if (!(sc->flags & ET_SC_INCOMPLETE) && !plausible(&tl->bounds, sc)) {
		sc->flags |= ET_SC_IMPLAUSIBLE;
		((struct et_trace *)tl->trace)->counts.implausible++;	/* (the file's count) */
	} else if (tl->bounds.nr_max && (sc->nr >= tl->bounds.nr_max || sc->nr < -1) &&
		   sc->ret != -ENOSYS && !(sc->flags & ET_SC_INCOMPLETE)) {
		/* a number the kernel's table does not have, yet not refused */
		struct et_trace_counts *c = &((struct et_trace *)tl->trace)->counts;

		sc->flags |= ET_SC_IMPLAUSIBLE;
		if (!c->bad_nr++)
			c->bad_nr_example = sc->nr;
		c->nr_table = tl->bounds.nr_max;
	}
	flags = sc->flags;
	tl->counts.syscalls++;
	if (!t->emitted) {
		t->emitted = true;
		tl->counts.syscall_tasks++;
	}
	if (!(flags & ET_SC_INCOMPLETE))
		tl->counts.complete++;
	if (flags) {
		reason = et_sc_reason(flags);
		if (reason)
			tl->counts.excluded[__builtin_ctz(reason)]++;
		for (; flags; flags &= flags - 1)
			tl->counts.flagged[__builtin_ctz(flags)]++;
	}
	if (!t->comm_tentative) {
		tl->sink(sc, tl->data);
		return;
	}
	if (t->nr_held == ET_HOLD_MAX ||
	    et_grow((void **)&t->held, &t->cap_held, t->nr_held + 1, sizeof(*sc))) {
		/* never named: give up waiting, the cmdlines name stands */
		tl->counts.comm_unverified += t->nr_held;
		tl_flush_held(tl, t);
		if (et_grow((void **)&t->held, &t->cap_held, 1, sizeof(*sc))) {
			tl->counts.comm_unverified++;
			tl->sink(sc, tl->data);
			return;
		}
	}
	t->held[t->nr_held++] = *sc;
}

void tl_sc_begin(struct et_timeline *tl, struct et_task *t,
		     const struct et_event *ev)
{
	struct et_syscall *sc = CUR(t);

	memset(sc, 0, offsetof(struct et_syscall, ns));	/* ns[], count[]: by mask */
	sc->nr_overlays = 0;
	t->log[t->ci].nov = 0;
	t->log[t->ci].dropped = false;
	sc->pid = t->pid;
	sc->nr = -1;
	sc->cpu_enter = ev->cpu;
	sc->cpu_exit = ev->cpu;
	sc->ts_enter = ev->ts;
	sc->ts_exit = ev->ts;
	memcpy(sc->comm, tl_task_comm(tl, t), ET_COMM_LEN);
	sc->tgid = t->tgid;
	if (t->pid_reused)
		sc->flags |= ET_SC_PID_REUSE;
	if (t->seq_gap)
		sc->flags |= ET_SC_SEQ_GAP;
	t->pid_reused = false;
	t->seq_gap = false;
	t->has_cur = true;
	t->gen++;
	t->off_cpu = false;
}

void tl_flush_pend(struct et_timeline *tl, struct et_task *t)
{
	if (!t->has_pend)
		return;
	if (tl->ops->finalize)
		tl->ops->finalize(tl, t, PEND(t));
	tl_emit(tl, t, PEND(t));
	t->has_pend = false;
}

/* cur's core is complete: it waits as pend for what comes after it. */
void tl_cur_to_pend(struct et_timeline *tl, struct et_task *t)
{
	tl_flush_pend(tl, t);
	t->ci ^= 1;	/* cur becomes pend */
	t->has_pend = true;
	t->pend_returned = false;
	t->has_cur = false;
}

/*
 * Emit a task's syscall that is still open (the trace ended, or its pid
 * now names another task): a noreturn one as such, else with @flag when
 * the mode's @lost says its end did not come, finished as every other.
 */
void tl_close_cur(struct et_timeline *tl, struct et_task *t,
		  bool (*lost)(const struct et_timeline *tl, const struct et_syscall *sc),
		  uint32_t flag)
{
	if (is_noreturn(tl, CUR(t)->nr))
		CUR(t)->flags |= ET_SC_NORETURN;
	else if (lost(tl, CUR(t)))
		CUR(t)->flags |= flag;
	if (tl->ops->finalize)
		tl->ops->finalize(tl, t, CUR(t));
	tl_emit(tl, t, CUR(t));
	t->has_cur = false;
}

/* The pid now names another task: emit everything of the old one. */
void tl_task_reset(struct et_timeline *tl, struct et_task *t)
{
	tl_flush_pend(tl, t);
	if (t->has_cur)
		tl_close_cur(tl, t, tl->ops->no_exit, ET_SC_NO_EXIT);
	t->have_return = false;
	t->user_exit_valid = false;
	t->off_cpu = false;
	t->seen_syscall = false;
	t->created = false;
	if (t->comm_tentative) {
		/* the old task was never named: its cmdlines name stands */
		tl->counts.comm_unverified += t->nr_held;
		tl_flush_held(tl, t);
		t->comm_tentative = false;
	}
	t->comm_known = false;
	t->pid_reused = true;
	t->tgid = -1;
}
