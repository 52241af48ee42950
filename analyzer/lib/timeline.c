// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline: a per-task state machine that turns decoded events into one
 * struct et_syscall per syscall.  This file takes the events in and hands
 * each to its place; below it, from the bottom up: the tasks
 * (timeline-task.c), time spent off the CPU or in interrupts (overlay.c),
 * the syscalls every mode builds (timeline-syscall.c), the modes' own
 * events (timeline-stock.c, timeline-stage.c, timeline-hist.c); none of
 * those calls back up here.  timeline-local.h says what they share.
 */
#include <stdlib.h>
#include <string.h>

#include "timeline-local.h"

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
		if (t->has_pend && (tl->ops->stamped ||
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

	if (t)
		tl_batch_flush(tl, t);
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

	if (!t)
		return;
	tl_task_name(tl, t, ev->task.comm, ev->task.comm);
	/*
	 * Packed batches: the task's last records are in batches written
	 * after its exit (its CPU's, or the flush at the end of the
	 * recording).  Nothing is closed here; a new task on the pid
	 * (task_new) or the end of the trace does it.
	 */
	if (tl->batched)
		return;
	tl_task_reset(tl, t);
	t->pid_reused = false;	/* only a later task_new says so */
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
		if (ev->summary.batch)
			tl_batch_event(tl, t, ev);
		else
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
	tl->ops = info->mode == ET_MODE_STAGES ? &tl_mode_stages :
		  info->mode == ET_MODE_SUMMARY ? &tl_mode_summary : &tl_mode_stock;
	tl->bounds = tl_bounds_of(info);
	/* an entrytrace kernel's syscall numbers: within its table, or ENOSYS */
	if (tl->ops->stamped)
		tl->bounds.nr_max = et_syscall_table_size(trace);
	tl->have_ct = info->present & ET_HAVE_CT;
	tl->batched = info->present & ET_HAVE_BATCH;
	tl->sink = sink;
	tl->data = data;
	tl->nr_cpus = info->cpus;
	tl->cpus = calloc(info->cpus, sizeof(*tl->cpus));
	tl->batch_at = calloc(info->cpus ? info->cpus : 1, sizeof(*tl->batch_at));
	if (!tl->cpus || !tl->batch_at || !tl_tasks_grow(tl)) {
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
	for (int i = 0; i < ET_STAGE_KERNEL_NR; i++) {
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
			tl_flush_held(tl, tl->slots[i]);
}

void et_timeline_finish(struct et_timeline *tl)
{
	tl_batch_finish(tl);
	for (size_t i = 0; i < tl->nr_slots; i++) {
		struct et_task *t = tl->slots[i];

		if (!t)
			continue;
		tl_flush_pend(tl, t);
		if (t->has_cur)
			tl_close_cur(tl, t, tl->ops->open_end, ET_SC_OPEN_END);
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
		if (tl->slots[i]) {
			free(tl->slots[i]->held);
			tl_batch_free(tl, tl->slots[i]);
		}
		free(tl->slots[i]);
	}
	tl_batch_free(tl, NULL);
	free(tl->batch_at);
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

/* The public calls take ids: a derived stage's slot is not its id. */
bool et_syscall_has(const struct et_syscall *sc, int stage)
{
	int slot = et_stage_slot(stage);

	return slot >= 0 && et_sc_has(sc, slot);
}

uint64_t et_syscall_ns(const struct et_syscall *sc, int stage)
{
	return et_syscall_has(sc, stage) ? sc->ns[et_stage_slot(stage)] : 0;
}

uint32_t et_syscall_count(const struct et_syscall *sc, int stage)
{
	return et_syscall_has(sc, stage) ? sc->count[et_stage_slot(stage)] : 0;
}

bool et_syscall_start(const struct et_syscall *sc, int stage, uint64_t *ts)
{
	int slot = et_stage_slot(stage);

	if (slot < 0 || !(sc->start_mask & (1ull << slot)))
		return false;
	*ts = sc->start[slot] + sc->clock_offset;
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
	return et_slot_stage(sc->overlays[i].stage);
}
