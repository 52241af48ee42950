// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline, stock kernel: raw_syscalls:sys_enter opens a syscall and
 * sys_exit closes it - by pid, not by syscall number, since rt_sigreturn's
 * exit reports nr -1.  With context tracking, user_exit..sys_enter is the
 * kernel entry and sys_exit..user_enter the exit; signal delivery and rseq
 * updates after sys_exit belong to the syscall's exit work.
 */
#include "timeline-local.h"
void tl_stock_enter(struct et_timeline *tl, struct et_task *t,
			const struct et_event *ev)
{
	uint64_t entry_ts = ev->ts;

	if (t->has_cur) {
		if (is_noreturn(tl, CUR(t)->nr)) {
			/* exit_group never returns: this is a new task */
			tl_task_reset(tl, t);
		} else {
			CUR(t)->flags |= ET_SC_NO_EXIT;
			tl_emit(tl, t, CUR(t));
			t->has_cur = false;
			t->have_return = false;
		}
	}
	tl_flush_pend(tl, t);
	tl_sc_begin(tl, t, ev);
	t->seen_syscall = true;
	CUR(t)->nr = (int)ev->enter.nr;
	CUR(t)->work |= ET_WORK(TRACEPOINT);
	CUR(t)->shape = et_shape_of(&tl->shapes, CUR(t)->nr, ev->enter.arg, ev->enter.nargs,
				    t->pid, t->tgid);
	if (t->user_exit_valid && t->user_exit_ts <= ev->ts) {
		et_sc_span(CUR(t), ET_SLOT_KERNEL_ENTRY, t->user_exit_ts, ev->ts - t->user_exit_ts);
		entry_ts = t->user_exit_ts;
		CUR(t)->ts_enter = entry_ts;
	}
	t->user_exit_valid = false;
	if (t->have_return && t->last_return <= entry_ts)
		et_sc_span(CUR(t), ET_SLOT_USER_GAP, t->last_return, entry_ts - t->last_return);
}

static void stock_orphan_exit(struct et_timeline *tl, struct et_task *t,
			      const struct et_event *ev)
{
	struct et_syscall *sc = CUR(t);

	tl_flush_pend(tl, t);
	tl_sc_begin(tl, t, ev);
	sc->nr = (int)ev->exit.nr;
	sc->ret = ev->exit.ret;
	if (is_fork(tl, ev->exit.nr) && ev->exit.ret == 0)
		sc->flags |= ET_SC_CHILD;
	else if (tl->last_gap && tl->last_gap >= t->last_event)
		sc->flags |= ET_SC_LOST;	/* its entry may be in the gap */
	else if (!t->seen_syscall && !t->created)
		sc->flags |= ET_SC_OPEN_START;
	else
		sc->flags |= ET_SC_MISMATCH;
	t->seen_syscall = true;
	tl_emit(tl, t, sc);
	t->has_cur = false;
	t->last_return = ev->ts;
	t->have_return = true;
}

void tl_stock_exit(struct et_timeline *tl, struct et_task *t,
		       const struct et_event *ev)
{
	struct et_syscall *sc = CUR(t);
	uint64_t start;

	if (!t->has_cur) {
		stock_orphan_exit(tl, t, ev);
		return;
	}
	sc->ret = ev->exit.ret;
	sc->cpu_exit = ev->cpu;
	sc->ts_exit = ev->ts;
	if (sc->cpu_exit != sc->cpu_enter)
		sc->flags |= ET_SC_MIGRATED;
	if (ev->exit.nr != sc->nr) {
		if (ev->exit.nr != -1) {
			sc->flags |= ET_SC_MISMATCH;
			tl_emit(tl, t, sc);
			t->has_cur = false;
			t->have_return = false;
			return;
		}
		/* rt_sigreturn (and restarts) report nr -1 on exit */
		sc->flags |= ET_SC_SIGRETURN;
	}
	/*
	 * Without context tracking the whole syscall is the sys_enter..sys_exit
	 * window: it is reported once, as total, not twice.
	 */
	et_sc_span(sc, ET_SLOT_TOTAL, sc->ts_enter, ev->ts - sc->ts_enter);
	if (tl->have_ct) {
		start = sc->ts_enter;
		if (et_sc_has(sc, ET_SLOT_KERNEL_ENTRY))
			start += sc->ns[ET_SLOT_KERNEL_ENTRY];
		et_sc_span(sc, ET_SLOT_SYSCALL_WINDOW, start, ev->ts - start);
	}
	t->last_return = ev->ts;
	t->have_return = true;
	tl_cur_to_pend(tl, t);
}

void tl_stock_user_enter(struct et_task *t, const struct et_event *ev)
{
	struct et_syscall *sc = PEND(t);

	t->user_exit_valid = false;
	if (!t->has_pend || t->pend_returned)
		return;
	/* pend's exit path ends here, back in user mode */
	et_sc_span(sc, ET_SLOT_KERNEL_EXIT, sc->ts_exit, ev->ts - sc->ts_exit);
	et_sc_span(sc, ET_SLOT_TOTAL, sc->ts_enter, ev->ts - sc->ts_enter);
	sc->ts_exit = ev->ts;
	sc->cpu_exit = ev->cpu;
	if (sc->cpu_exit != sc->cpu_enter)
		sc->flags |= ET_SC_MIGRATED;
	t->pend_returned = true;
	t->last_return = ev->ts;
	t->have_return = true;
}

void tl_stock_signal(struct et_timeline *tl, struct et_task *t,
			 const struct et_event *ev)
{
	struct et_syscall *sc = PEND(t);

	if (!t->has_pend || t->pend_returned || t->has_cur ||
	    et_sc_has(sc, ET_SLOT_SIGNAL_EXIT)) {
		/* delivery after an interrupt or a fault, not a syscall */
		tl->counts.stray++;
		return;
	}
	sc->work |= ET_WORK(SIGNAL);
	et_sc_span(sc, ET_SLOT_SIGNAL_EXIT, sc->ts_exit, ev->ts - sc->ts_exit);
}

/* context_tracking:user_exit: the kernel was entered, sys_enter follows. */
void tl_stock_user_exit(struct et_task *t, const struct et_event *ev)
{
	t->user_exit_valid = true;
	t->user_exit_ts = ev->ts;
}

/* rseq:rseq_update on the way out of pend: part of its exit work. */
void tl_stock_rseq(struct et_task *t)
{
	if (t->has_pend && !t->pend_returned && !t->has_cur)
		PEND(t)->work |= ET_WORK(RSEQ);
}

/*
 * Inside a syscall for overlay purposes: from sys_enter to sys_exit, and
 * on to context_tracking's user_enter where the trace has it.
 */
static struct et_syscall *stock_in_kernel(struct et_timeline *tl, struct et_task *t)
{
	if (t->has_cur)
		return CUR(t);
	if (tl->have_ct && t->has_pend && !t->pend_returned)
		return PEND(t);
	return NULL;
}

/* an open syscall never saw its sys_exit */
static bool stock_open(const struct et_timeline *tl, const struct et_syscall *sc)
{
	return true;
}

const struct tl_mode tl_mode_stock = {
	.in_kernel = stock_in_kernel,
	.open_end = stock_open,
	.no_exit = stock_open,
};
