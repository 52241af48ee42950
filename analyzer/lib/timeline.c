// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline: a per-task state machine that turns decoded events into one
 * struct et_syscall per syscall.  This file holds the tasks and what is
 * common to every mode; the modes' own events are timeline-stock.c's and
 * timeline-stage.c's, time spent off the CPU or in interrupts overlay.c's
 * (timeline.h says what each shares).
 *
 * Each task holds at most two syscalls: `cur`, the one being built, and
 * `pend`, the previous one, kept until the task's next syscall is under way
 * because things that belong to it still arrive after it returned: signal
 * delivery and context tracking on a stock kernel, the DEFERRED stages of an
 * entrytrace kernel (emitted at the next entry).  Memory is bounded by the
 * number of tasks, never by the number of events.
 *
 * Nothing is dropped silently: every syscall reaches the sink, with flags
 * saying why it is incomplete, and the counts say how many of each.
 *
 * Task names: until an event names a task (sched_switch, fork, rename,
 * exit), the only name is the file's saved cmdlines entry, which is the
 * pid's *last* name - wrong for syscalls before an exec.  Such a task's
 * syscalls are held back (at most ET_HOLD_MAX) until its name is confirmed,
 * then labelled with the name they really ran under.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
/* ------------------------------------------------------------------ */
/* Task table                                                          */

static size_t slot_of(const struct et_timeline *tl, int pid)
{
	return ((uint32_t)pid * 2654435761u) & (tl->nr_slots - 1);
}

static bool rehash(struct et_timeline *tl)
{
	size_t n = tl->nr_slots ? tl->nr_slots * 2 : 1024;
	struct et_task **old = tl->slots;
	size_t old_n = tl->nr_slots;

	tl->slots = calloc(n, sizeof(*tl->slots));
	if (!tl->slots) {
		tl->slots = old;
		return false;
	}
	tl->nr_slots = n;
	for (size_t i = 0; i < old_n; i++) {
		struct et_task *t = old[i];
		size_t s;

		if (!t)
			continue;
		for (s = slot_of(tl, t->pid); tl->slots[s]; s = (s + 1) & (n - 1))
			;
		tl->slots[s] = t;
	}
	free(old);
	return true;
}

struct et_task *tl_task_find(struct et_timeline *tl, int pid)
{
	if (tl->last && tl->last->pid == pid)
		return tl->last;
	for (size_t s = slot_of(tl, pid); tl->slots[s];
	     s = (s + 1) & (tl->nr_slots - 1))
		if (tl->slots[s]->pid == pid)
			return tl->last = tl->slots[s];
	return NULL;
}

struct et_task *tl_task_get(struct et_timeline *tl, int pid)
{
	struct et_task *t = tl_task_find(tl, pid);
	size_t s;

	if (t)
		return t;
	if ((tl->nr_tasks + 1) * 2 > tl->nr_slots && !rehash(tl))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tgid = -1;
	for (int i = 0; i < ET_ARGS_RING; i++)
		t->args[i].nr = -1;
	for (s = slot_of(tl, pid); tl->slots[s]; s = (s + 1) & (tl->nr_slots - 1))
		;
	tl->slots[s] = t;
	tl->nr_tasks++;
	tl->counts.tasks++;
	return t;
}

/*
 * A name into a comm buffer, zero-padded: a syscall takes its task's
 * buffer whole, and the stats find its per-task group by comparing the 16
 * bytes at once (stats.c's same_comm()).  A shorter name over a longer
 * one left the longer one's tail behind the NUL, and every syscall of the
 * task missed the group cache (a map lookup and a strncmp each).
 */
static void set_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, ET_COMM_LEN - 1);

	memcpy(dst, src, n);
	memset(dst + n, 0, ET_COMM_LEN - n);
}

static const char *task_comm(struct et_timeline *tl, struct et_task *t)
{
	if (!t->comm_known) {
		const char *c = et_trace_comm(tl->trace, t->pid);

		set_comm(t->comm, c ? c : "<...>");
		t->comm_known = true;
		t->comm_tentative = true;
	}
	return t->comm;
}

static void flush_held(struct et_timeline *tl, struct et_task *t)
{
	for (size_t i = 0; i < t->nr_held; i++)
		tl->sink(&t->held[i], tl->data);
	t->nr_held = 0;
}

/*
 * An event says what the task was called up to now (before: NULL when only
 * the new name is known) and what it is called from now on (now).
 */
void tl_task_name(struct et_timeline *tl, struct et_task *t,
		      const char *before, const char *now)
{
	if (t->comm_tentative) {
		for (size_t i = 0; i < t->nr_held; i++) {
			if (before && before[0])
				set_comm(t->held[i].comm, before);
			else
				tl->counts.comm_unverified++;
		}
		flush_held(tl, t);
		t->comm_tentative = false;
		if (before && before[0]) {
			/* cur and pend began under the old name too */
			set_comm(CUR(t)->comm, before);
			set_comm(PEND(t)->comm, before);
		}
	}
	if (now && now[0]) {
		set_comm(t->comm, now);
		t->comm_known = true;
	}
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
static struct tl_bounds tl_bounds_of(const struct et_trace_info *in)
{
	const uint64_t slack = 1000000;	/* 1 ms */

	_Static_assert(ET_STAGE_NR <= 64, "stage_mask has a bit per stage");
	if (!in->last_ts || in->last_ts < in->first_ts || in->clockless)
		return (struct tl_bounds){ .on = false };
	return (struct tl_bounds){
		.on = true,
		.lo = in->first_ts > slack ? in->first_ts - slack : 0,
		.hi = in->last_ts + slack,
		.span = in->last_ts - in->first_ts + slack,
		.inner = ((1ull << et_stage_nr_kernel) - 1) &
			 ~(1ull << ET_STAGE_TOTAL | 1ull << ET_STAGE_EMIT),
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
	if (sc->stage_mask & (1ull << ET_STAGE_TOTAL)) {
		inner = b->inner;
		total = sc->ns[ET_STAGE_TOTAL];
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
	if (tl->mode != ET_MODE_STOCK) {
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
		flush_held(tl, t);
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
	memcpy(sc->comm, task_comm(tl, t), ET_COMM_LEN);
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
	if (tl->mode != ET_MODE_STOCK)
		tl_stage_finalize(tl, t, PEND(t));
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

/* The pid now names another task: emit everything of the old one. */
void tl_task_reset(struct et_timeline *tl, struct et_task *t)
{
	tl_flush_pend(tl, t);
	if (t->has_cur) {
		if (is_noreturn(tl, CUR(t)->nr))
			CUR(t)->flags |= ET_SC_NORETURN;
		else if (tl->mode == ET_MODE_STOCK ||
			 !(CUR(t)->stage_mask & tl->exit_mask))
			CUR(t)->flags |= ET_SC_NO_EXIT;
		if (tl->mode != ET_MODE_STOCK)
			tl_stage_finalize(tl, t, CUR(t));
		tl_emit(tl, t, CUR(t));
		t->has_cur = false;
	}
	t->have_return = false;
	t->user_exit_valid = false;
	t->off_cpu = false;
	t->seen_syscall = false;
	t->created = false;
	if (t->comm_tentative) {
		/* the old task was never named: its cmdlines name stands */
		tl->counts.comm_unverified += t->nr_held;
		flush_held(tl, t);
		t->comm_tentative = false;
	}
	t->comm_known = false;
	t->pid_reused = true;
	t->tgid = -1;
}

/* The task's thread group is now known (counted once per task). */
static void set_tgid(struct et_timeline *tl, struct et_task *t, int tgid)
{
	if (t->tgid < 0)
		tl->counts.tasks_grouped++;
	t->tgid = tgid;
	if (t->has_cur)
		CUR(t)->tgid = tgid;
}

/* ------------------------------------------------------------------ */
/* Lost events                                                         */

static void on_lost(struct et_timeline *tl, const struct et_event *ev)
{
	/*
	 * Records were lost on one CPU just before this point.  Any task may
	 * have run there, so every syscall still open is suspect, and so is a
	 * stage-mode pend still waiting for its deferred stages.
	 */
	for (size_t i = 0; i < tl->nr_slots; i++) {
		struct et_task *t = tl->slots[i];

		if (!t)
			continue;
		if (t->has_cur)
			CUR(t)->flags |= ET_SC_LOST;
		/*
		 * pend is paired already; it is suspect only while a stage
		 * of it can still arrive: deferred stages, or the exit span
		 * up to context_tracking:user_enter.
		 */
		if (t->has_pend && (tl->mode != ET_MODE_STOCK ||
				    (tl->have_ct && !t->pend_returned)))
			PEND(t)->flags |= ET_SC_LOST;
		t->user_exit_valid = false;
		t->have_return = false;
		t->off_cpu = false;
	}
	for (int c = 0; c < tl->nr_cpus; c++)
		tl->cpus[c].depth = 0;
	tl->last_gap = ev->ts;
}

/* ------------------------------------------------------------------ */
/* Task lifetime                                                       */

static void on_task_new(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t = tl_task_find(tl, ev->task.pid);

	if (t && (t->has_cur || t->has_pend || t->seen_syscall))
		tl_task_reset(tl, t);
	t = tl_task_get(tl, ev->task.pid);
	if (!t)
		return;
	tl_task_name(tl, t, NULL, ev->task.comm);
	t->comm_tentative = false;
	t->created = true;
	if (ev->task.clone_flags >= 0) {
		/* task_newtask runs in the parent: CLONE_THREAD joins its group */
		struct et_task *parent = ev->pid ? tl_task_find(tl, ev->pid) : NULL;

		if (!(ev->task.clone_flags & 0x00010000))	/* CLONE_THREAD */
			set_tgid(tl, t, t->pid);
		else if (parent && parent->tgid >= 0)
			set_tgid(tl, t, parent->tgid);
	}
}

static void on_task_exit(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t = tl_task_find(tl, ev->task.pid);

	if (t) {
		tl_task_name(tl, t, ev->task.comm, ev->task.comm);
		tl_task_reset(tl, t);
		t->pid_reused = false;	/* only a later task_new says so */
	}
}

static void on_comm(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t;

	if (ev->task.old_pid != ev->task.pid) {
		/* exec from a thread: it takes over the leader's pid */
		struct et_task *old = tl_task_find(tl, ev->task.old_pid);
		struct et_task *lead = tl_task_get(tl, ev->task.pid);

		if (old && lead && old->has_cur) {
			tl_task_reset(tl, lead);
			lead->pid_reused = false;
			*CUR(lead) = *CUR(old);
			CUR(lead)->pid = lead->pid;
			lead->has_cur = true;
			lead->seen_syscall = true;
			old->has_cur = false;
			tl_task_reset(tl, old);
		}
	}
	t = tl_task_get(tl, ev->task.pid);
	if (t)
		tl_task_name(tl, t, ev->task.old_comm, ev->task.comm);
	/* after an exec the task leads its thread group */
	if (t && ev->task.exec)
		set_tgid(tl, t, t->pid);
}

/* ------------------------------------------------------------------ */

int et_timeline_feed(const struct et_event *ev, void *data)
{
	struct et_timeline *tl = data;
	struct et_task *t;

	switch (ev->kind) {
	case ET_EV_LOST:
		on_lost(tl, ev);
		return 0;
	case ET_EV_SCHED_SWITCH:
		tl_on_switch(tl, ev);
		return 0;
	case ET_EV_IRQ_ENTER:
	case ET_EV_IRQ_EXIT:
		tl_on_irq(tl, ev);
		return 0;
	case ET_EV_TASK_NEW:
		on_task_new(tl, ev);
		return 0;
	case ET_EV_TASK_EXIT:
		on_task_exit(tl, ev);
		return 0;
	case ET_EV_COMM:
		on_comm(tl, ev);
		return 0;
	case ET_EV_CALIB:
		tl_stage_calib(tl, ev);
		return 0;
	case ET_EV_HIST:
		tl_hist_event(tl, ev);
		return 0;
	default:
		break;
	}

	/* a CPU's events come in runs of one task's */
	if (ev->cpu >= 0 && ev->cpu < tl->nr_cpus) {
		t = tl->cpus[ev->cpu].task;
		if (!t || t->pid != ev->pid) {
			t = tl_task_get(tl, ev->pid);
			tl->cpus[ev->cpu].task = t;
		}
	} else {
		t = tl_task_get(tl, ev->pid);
	}
	if (!t)
		return -1;

	switch (ev->kind) {
	case ET_EV_SYS_ENTER:
		tl_stock_enter(tl, t, ev);
		break;
	case ET_EV_SYS_EXIT:
		tl_stock_exit(tl, t, ev);
		break;
	case ET_EV_USER_EXIT:
		tl_stock_user_exit(t, ev);
		break;
	case ET_EV_USER_ENTER:
		tl_stock_user_enter(t, ev);
		break;
	case ET_EV_SIGNAL_DELIVER:
		tl_stock_signal(tl, t, ev);
		break;
	case ET_EV_RSEQ_UPDATE:
		tl_stock_rseq(t);
		break;
	case ET_EV_STAGE:
		tl_stage_event(tl, t, ev);
		break;
	case ET_EV_SUMMARY:
		tl_summary_event(tl, t, ev);
		break;
	case ET_EV_SYS_ARGS:
		tl_args_event(tl, t, ev);
		break;
	default:
		break;
	}
	t->last_event = ev->ts;
	return 0;
}

struct et_timeline *et_timeline_new(const struct et_trace *trace,
				    et_syscall_fn sink, void *data)
{
	const struct et_trace_info *info = et_trace_info(trace);
	struct et_timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->trace = trace;
	tl->mode = info->mode;
	tl->bounds = tl_bounds_of(info);
	/* an entrytrace kernel's syscall numbers: within its table, or ENOSYS */
	if (tl->mode != ET_MODE_STOCK)
		tl->bounds.nr_max = et_syscall_table_size(trace);
	tl->have_ct = info->present & ET_HAVE_CT;
	tl->sink = sink;
	tl->data = data;
	tl->nr_cpus = info->cpus;
	tl->cpus = calloc(info->cpus, sizeof(*tl->cpus));
	if (!tl->cpus || !rehash(tl)) {
		et_timeline_free(tl);
		return NULL;
	}
	et_shapes_init(&tl->shapes, trace);
	tl->nr_exit = et_syscall_number(trace, "exit");
	tl->nr_exit_group = et_syscall_number(trace, "exit_group");
	tl->nr_clone = et_syscall_number(trace, "clone");
	tl->nr_clone3 = et_syscall_number(trace, "clone3");
	tl->nr_fork = et_syscall_number(trace, "fork");
	tl->nr_vfork = et_syscall_number(trace, "vfork");
	tl->sample = 1;
	/*
	 * The kernel places its stamps on trace_clock_local() (ABI 3): on a
	 * trace of that clock, the default, they need no offset.  Another
	 * trace clock gets the smallest event-after-stage-end distance seen.
	 */
	if (!info->clock || !strcmp(info->clock, "local")) {
		tl->offset_fixed = tl->have_offset = true;
		tl->clock_offset = 0;
	}
	for (int i = 0; i < et_stage_nr_kernel; i++) {
		for (int p = et_stages[i].parent; p != ET_STAGE_NONE; p = et_stages[p].parent)
			tl->kids[p] |= 1ull << i;
		if (et_stages[i].kind == ET_KIND_DEFERRED)
			tl->deferred_mask |= 1ull << i;
		else if (et_stages[i].phase == ET_PHASE_ENTRY)
			tl->entry_mask |= 1ull << i;
		else if (et_stages[i].phase == ET_PHASE_EXIT)
			tl->exit_mask |= 1ull << i;
	}
	return tl;
}

/*
 * A live reader's table cannot wait for an event to confirm a task's name:
 * what is held for one goes out now, under the saved cmdlines name (as at
 * the end of a file), and the task's later syscalls are held again.
 */
void et_timeline_release_held(struct et_timeline *tl)
{
	for (size_t i = 0; i < tl->nr_slots; i++)
		if (tl->slots[i])
			flush_held(tl, tl->slots[i]);
}

void et_timeline_finish(struct et_timeline *tl)
{
	for (size_t i = 0; i < tl->nr_slots; i++) {
		struct et_task *t = tl->slots[i];

		if (!t)
			continue;
		tl_flush_pend(tl, t);
		if (!t->has_cur)
			continue;
		if (is_noreturn(tl, CUR(t)->nr))
			CUR(t)->flags |= ET_SC_NORETURN;
		else if (tl->mode == ET_MODE_STOCK ||
			 (tl->mode == ET_MODE_STAGES &&
			  !(CUR(t)->stage_mask & tl->exit_mask)))
			CUR(t)->flags |= ET_SC_OPEN_END;
		if (tl->mode != ET_MODE_STOCK)
			tl_stage_finalize(tl, t, CUR(t));
		tl_emit(tl, t, CUR(t));
		t->has_cur = false;
	}
	tl_hist_finish(tl);
	/* never renamed in the trace: the saved cmdlines name is right */
	et_timeline_release_held(tl);
	/*
	 * Syscalls missing from a task's sequence numbers where the kernel
	 * reported no lost events: records went missing without a word
	 */
	if (tl->counts.seq_lost && !tl->trace->counts.lost_events &&
	    !tl->trace->counts.lost_unknown)
		((struct et_trace *)tl->trace)->counts.seq_unexplained = tl->counts.seq_lost;
}

const struct et_timeline_counts *et_timeline_counts(const struct et_timeline *tl)
{
	struct et_timeline *w = (struct et_timeline *)tl;

	w->counts.event_cost = tl->cost.count ? et_hist_quantile(&tl->cost, 0.5) : 0;
	w->counts.event_cost_samples = tl->cost.count;
	return &tl->counts;
}

void et_timeline_set_raw_stamps(struct et_timeline *tl, bool raw)
{
	tl->raw_stamps = tl->counts.raw_stamps = raw;
}

void et_timeline_free(struct et_timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; i < tl->nr_slots; i++) {
		if (tl->slots[i])
			free(tl->slots[i]->held);
		free(tl->slots[i]);
	}
	free(tl->slots);
	free(tl->cpus);
	et_hist_fini(&tl->cost);
	tl_hist_free(tl);
	free(tl);
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */

uint64_t et_timeline_syscalls(const struct et_timeline *tl)
{
	return tl->counts.syscalls;
}

uint64_t et_timeline_complete(const struct et_timeline *tl)
{
	return tl->counts.complete;
}

uint64_t et_timeline_tasks(const struct et_timeline *tl)
{
	return tl->counts.tasks;
}

uint64_t et_timeline_flagged(const struct et_timeline *tl, uint32_t flag)
{
	return flag && !(flag & (flag - 1)) && flag < (1u << 16) ?
	       tl->counts.flagged[__builtin_ctz(flag)] : 0;
}

uint64_t et_timeline_excluded(const struct et_timeline *tl, uint32_t flag)
{
	return flag && !(flag & (flag - 1)) && flag < (1u << 16) ?
	       tl->counts.excluded[__builtin_ctz(flag)] : 0;
}

int et_syscall_pid(const struct et_syscall *sc)
{
	return sc->pid;
}

int et_syscall_tgid(const struct et_syscall *sc)
{
	return sc->tgid;
}

const char *et_syscall_comm(const struct et_syscall *sc)
{
	return sc->comm;
}

int et_syscall_nr(const struct et_syscall *sc)
{
	return sc->nr;
}

long et_syscall_ret(const struct et_syscall *sc)
{
	return sc->ret;
}

uint32_t et_syscall_flags(const struct et_syscall *sc)
{
	return sc->flags;
}

uint32_t et_syscall_work(const struct et_syscall *sc)
{
	return sc->work;
}

int et_syscall_cpu_enter(const struct et_syscall *sc)
{
	return sc->cpu_enter;
}

int et_syscall_cpu_exit(const struct et_syscall *sc)
{
	return sc->cpu_exit;
}

uint64_t et_syscall_ts_enter(const struct et_syscall *sc)
{
	return sc->ts_enter;
}

uint64_t et_syscall_ts_exit(const struct et_syscall *sc)
{
	return sc->ts_exit;
}

bool et_syscall_has(const struct et_syscall *sc, int stage)
{
	return stage >= 0 && stage < ET_STAGE_NR && et_sc_has(sc, stage);
}

uint64_t et_syscall_ns(const struct et_syscall *sc, int stage)
{
	return et_syscall_has(sc, stage) ? sc->ns[stage] : 0;
}

uint32_t et_syscall_count(const struct et_syscall *sc, int stage)
{
	return et_syscall_has(sc, stage) ? sc->count[stage] : 0;
}

bool et_syscall_start(const struct et_syscall *sc, int stage, uint64_t *ts)
{
	if (stage < 0 || stage >= ET_STAGE_NR || !(sc->start_mask & (1ull << stage)))
		return false;
	*ts = sc->start[stage] + sc->clock_offset;
	return true;
}

int et_syscall_nr_overlays(const struct et_syscall *sc)
{
	return sc->nr_overlays;
}

int et_syscall_overlay(const struct et_syscall *sc, int i, uint64_t *start, uint64_t *end)
{
	if (i < 0 || i >= sc->nr_overlays)
		return ET_STAGE_NONE;
	*start = sc->overlays[i].start;
	*end = sc->overlays[i].end;
	return sc->overlays[i].stage;
}
