// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline, entrytrace kernel: entry_stage_time events join their syscall
 * by the task's sequence number (lost syscalls show as gaps, a sequence
 * going back means a new task has the pid), entry_stage_summary gives a
 * whole syscall in one event.  A syscall is final once its successor is
 * under way, its deferred stages in; then the stamps' own cost comes off
 * (entry_stage_calib) and its total and user gap are computed from the
 * kernel's stamps.
 */
#include "timeline-local.h"
/*
 * Every stage time includes about one stamp: the part of the stamp that
 * begins it after its counter read and the part of the one that ends it
 * before its read, which together are what back-to-back stamps measure
 * (the kernel's calibration, C).  A parent also holds its children's two
 * stamps each (2C, their time within it already counting one) and one AGG
 * begin/end pair per occurrence of an AGG descendant (A); an AGG stage's
 * own sum holds about C per occurrence.  Subtract that, as the
 * calibration estimates it; --raw-stamps keeps it in.  (A stage the kernel
 * resumed, stage_gaps(), holds one C per piece: a summary cannot tell it
 * was resumed, so both modes leave the second piece's C in it.)
 */
static void stamp_correct(struct et_timeline *tl, struct et_syscall *sc)
{
	uint64_t ns[ET_SLOT_NR];
	double c = tl->stamp_ns, a = tl->agg_ns > 0 ? tl->agg_ns : tl->stamp_ns;
	uint64_t mask = sc->stage_mask & ((1ull << ET_STAGE_KERNEL_NR) - 1);

	if (tl->raw_stamps)
		return;
	if (c <= 0) {
		tl->counts.stamp_uncorrected++;
		return;
	}
	for (uint64_t m = mask; m; m &= m - 1) {
		int st = __builtin_ctzll(m);
		double cut = 0;

		if (et_stages[st].kind == ET_KIND_AGG) {
			cut = c * sc->count[st];
		} else {
			cut = c;
			for (uint64_t k = tl->kids[st] & mask; k; k &= k - 1) {
				int d = __builtin_ctzll(k);

				cut += et_stages[d].kind == ET_KIND_AGG ? a * sc->count[d] : 2 * c;
			}
		}
		cut += 0.5;
		ns[st] = sc->ns[st] > (uint64_t)cut ? sc->ns[st] - (uint64_t)cut : 0;
	}
	/*
	 * On a timeline a stage keeps its stamped interval less one stamp,
	 * half off each end: its children, and their stamps, stay inside.
	 */
	for (uint64_t m = mask; m; m &= m - 1) {
		int st = __builtin_ctzll(m);

		if (sc->start_mask & (1ull << st)) {
			uint64_t raw = sc->extent[st], off = raw > c ? (uint64_t)(c + 0.5) : raw;

			sc->start[st] += off / 2;
			sc->extent[st] = (uint32_t)(raw - off);
		}
		sc->ns[st] = ns[st];
	}
	tl->counts.stamp_corrected++;
}

/* The top-level stages but the tracer's own (emit), and their sum. */
static uint64_t top_stages(const struct et_syscall *sc, uint64_t *sum)
{
	uint64_t top = 0;

	*sum = 0;
	for (int i = 0; i < ET_STAGE_KERNEL_NR; i++) {
		if (et_stages[i].parent != ET_STAGE_NONE || i == ET_STAGE_EMIT ||
		    !et_sc_has(sc, i))
			continue;
		top |= 1ull << i;
		*sum += sc->ns[i];
	}
	return top;
}

/*
 * Stage mode: the time between the syscall's top-level stages that no
 * stage covers (each gap holding about one stamp too, unless
 * --raw-stamps), from the stamps as they are; false if some top-level
 * stage has no start.
 *
 * A stage the kernel resumed after a nested one (a resume switch:
 * exit_prepare after the exit loop, 7.2's arch_syscall_entry after
 * kstack_rand) comes as one interval of its summed time that ends where
 * its last piece ends, so it begins inside the stage before it by the
 * length of its first piece.  That piece lies in a gap between the other
 * stages' intervals (the smallest that holds it): the gap less the piece
 * is untimed, not the piece.
 */
static bool stage_gaps(struct et_timeline *tl, const struct et_syscall *sc,
		       uint64_t *out)
{
	uint64_t sum, end = 0, gaps = 0, top = top_stages(sc, &sum);
	uint64_t raw[ET_SLOT_NR], piece[ET_SLOT_NR], held = 0;
	double c = tl->raw_stamps ? 0 : tl->stamp_ns;
	int order[ET_SLOT_NR], n = 0, ng = 0, np = 0;

	*out = 0;
	if (!top || (top & ~sc->start_mask))
		return false;
	/* emit is no gap: it is the tracer's own interval */
	if (et_sc_has(sc, ET_STAGE_EMIT) && (sc->start_mask & (1ull << ET_STAGE_EMIT)))
		top |= 1ull << ET_STAGE_EMIT;
	for (uint64_t m = top; m; m &= m - 1)
		order[n++] = __builtin_ctzll(m);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sc->start[order[j]] < sc->start[order[j - 1]]; j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int i = 0; i < n; i++) {
		uint64_t s0 = sc->start[order[i]], e = s0 + sc->ns[order[i]];

		if (i && s0 > end + 1) {
			raw[ng++] = s0 - end;
		} else if (i && s0 + 1 < end && e > end + 1 && order[i] != ET_STAGE_EMIT) {
			piece[np++] = end - s0;
		}
		if (e > end)
			end = e;
	}
	for (int p = 0; p < np; p++) {
		int best = -1;

		for (int k = 0; k < ng; k++)
			if (!(held & (1ull << k)) && raw[k] + 1 >= piece[p] &&
			    (best < 0 || raw[k] < raw[best]))
				best = k;
		if (best < 0)
			continue;
		held |= 1ull << best;
		raw[best] = raw[best] > piece[p] + 1 ? raw[best] - piece[p] : 0;
	}
	for (int k = 0; k < ng; k++) {
		double gap = (double)raw[k] - c;

		gaps += gap > 0 ? (uint64_t)(gap + 0.5) : 0;
	}
	*out = gaps;
	return true;
}

/*
 * Summary mode, series v3: the kernel's span (first stamp to burst) less
 * the top-level stages before the burst as stamped, less the one stamp
 * that begins the first stage (unless --raw-stamps); false without a span.
 */
static bool summary_untimed(struct et_timeline *tl, const struct et_syscall *sc,
			    uint64_t *out)
{
	double c = tl->raw_stamps ? 0 : tl->stamp_ns, left;
	uint64_t sum, core = 0;

	*out = 0;
	if (!sc->span)
		return false;
	for (uint64_t m = top_stages(sc, &sum) & ~tl->deferred_mask; m; m &= m - 1)
		core += sc->ns[__builtin_ctzll(m)];
	left = (double)sc->span - (double)core - c;
	*out = left > 0 ? (uint64_t)(left + 0.5) : 0;
	return true;
}

/*
 * Stage modes: a syscall is final once the next one is under way, so its
 * tail has arrived if it ever will.  Its stamp cost is subtracted, its
 * total and the user gap before it are computed here, from the kernel's
 * own stamps.
 */
static void stage_finalize(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	bool tail = sc->stage_mask & tl->deferred_mask;
	uint64_t total, gaps, raw_end = 0;
	bool have_gaps;

	sc->clock_offset = tl->clock_offset;
	if (tl->ops->spans)
		tl_spans_place(tl, t, sc);
	if (sc->flags & ET_SC_NORETURN)
		return;
	if (!tail)
		sc->flags |= ET_SC_NO_TAIL;
	have_gaps = tl->ops->untimed(tl, sc, &gaps);
	/*
	 * Summary mode has no stamp times: the syscall's last stamp is placed
	 * at t0 plus its stages as they were stamped (the stamps' own cost is
	 * time that passed), the tracer's interval included (no user time).
	 */
	if (tl->ops->stampless) {
		top_stages(sc, &raw_end);
		if (et_sc_has(sc, ET_STAGE_EMIT))
			raw_end += sc->ns[ET_STAGE_EMIT];
		raw_end += sc->t0;
	}
	stamp_correct(tl, sc);
	top_stages(sc, &total);
	total += gaps;
	/* what lies between the first and the last stamp outside every stage */
	if (have_gaps)
		et_sc_set(sc, ET_SLOT_UNTIMED, gaps);
	if (tl->ops->stampless)
		sc->t1 = raw_end + (sc->span ? gaps : 0);
	if (tail)
		et_sc_span(sc, ET_SLOT_TOTAL, sc->t0, total);
	if (t->have_return && t->last_seq == sc->seq - 1 &&
	    sc->stage_mask & tl->entry_mask && sc->t0 >= t->last_return) {
		uint64_t gap = sc->t0 - t->last_return;
		double c = tl->raw_stamps ? 0 : tl->stamp_ns;

		/* between the last stamp of one syscall and the first of the next */
		if (c > 0)
			gap = gap > (uint64_t)(c + 0.5) ? gap - (uint64_t)(c + 0.5) : 0;
		et_sc_span(sc, ET_SLOT_USER_GAP, t->last_return, gap);
	}
	t->have_return = tail;
	t->last_return = sc->t1;
	t->last_seq = sc->seq;
}

/*
 * The task's next syscall is d sequence numbers after the current one: with
 * 1-in-N sampling the kernel skips N - 1 in between, anything beyond is
 * lost.  The current syscall waits for its deferred stages.
 */
static void tl_seq_advance(struct et_timeline *tl, struct et_task *t, int32_t d)
{
	if (d > (int32_t)tl->sample) {
		tl->counts.seq_lost += (uint32_t)d - tl->sample;
		t->seq_gap = true;
	}
	tl_cur_to_pend(tl, t);
}


/* Make cur the syscall seq; false if the event belongs to no timeline. */
static bool stage_open(struct et_timeline *tl, struct et_task *t,
		       const struct et_event *ev, uint32_t seq)
{
	if (t->has_cur) {
		int32_t d = seq_cmp(seq, CUR(t)->seq);

		if (d < 0) {
			if (t->has_pend && seq_cmp(seq, PEND(t)->seq) <= 0) {
				tl->counts.stray++;
				return false;
			}
			/* The sequence went back: a new task has the pid. */
			tl_task_reset(tl, t);
		} else {
			tl_seq_advance(tl, t, d);
		}
	}
	tl_sc_begin(tl, t, ev);
	CUR(t)->seq = seq;
	if (!t->seen_syscall && !t->created)
		CUR(t)->flags |= ET_SC_OPEN_START;	/* cleared by an entry stage */
	t->seen_syscall = true;
	return true;
}

/*
 * The events an entry emits at its first instrumentable point (NOINSTR
 * stages, the previous syscall's DEFERRED ones) come back to back: the gap
 * between two of them is what one event costs.  Its median over the trace
 * is the tracer overhead per event.
 */
static void note_emission(struct et_timeline *tl, struct et_task *t,
			  const struct et_event *ev, bool burst)
{
	struct et_cpu *c;

	t->emits[t->emit_next] = ev->ts;
	t->emit_next = (t->emit_next + 1) % ET_EMIT_RING;
	if (t->emit_count < ET_EMIT_RING)
		t->emit_count++;
	if (ev->cpu < 0 || ev->cpu >= tl->nr_cpus)
		return;
	c = &tl->cpus[ev->cpu];
	if (burst && c->last_burst && c->last_pid == ev->pid && ev->ts > c->last_ts) {
		et_hist_add(&tl->cost, ev->ts - c->last_ts, ev->ts);
		if (tl->cost.count < 64 || !(tl->cost.count & 1023))
			tl->cost_median = et_hist_quantile(&tl->cost, 0.5);
	}
	c->last_pid = ev->pid;
	c->last_burst = burst;
	c->last_ts = ev->ts;
}

void tl_stage_event(struct et_timeline *tl, struct et_task *t,
			const struct et_event *ev)
{
	const struct et_stage_info *si;
	struct et_syscall *sc;
	int stage = ev->stage.stage;
	uint64_t end = ev->stage.start + ev->stage.delta;

	if (stage < 0 || stage >= ET_STAGE_KERNEL_NR) {
		tl->counts.stray++;
		return;
	}
	si = &et_stages[stage];
	if (ev->stage.sample)
		tl->sample = tl->counts.sample = ev->stage.sample;
	if (ev->stage.stamp_ns > 0)
		tl->stamp_ns = tl->counts.stamp_ns = ev->stage.stamp_ns;
	tl->counts.pmu |= ev->stage.pmu;

	if (t->has_cur && ev->stage.seq == CUR(t)->seq) {
		sc = CUR(t);
	} else if (t->has_pend && ev->stage.seq == PEND(t)->seq) {
		sc = PEND(t);	/* deferred stages of the previous syscall */
	} else {
		if (!stage_open(tl, t, ev, ev->stage.seq))
			return;
		sc = CUR(t);
	}

	note_emission(tl, t, ev, si->kind == ET_KIND_NOINSTR ||
			      si->kind == ET_KIND_DEFERRED);
	if (et_sc_has(sc, stage)) {
		if (si->kind != ET_KIND_AGG)
			tl->counts.dup_stage++;
		et_sc_add(sc, stage, ev->stage.delta,
		       si->kind == ET_KIND_AGG ? ev->stage.count : 1);
	} else {
		et_sc_span(sc, stage, ev->stage.start, ev->stage.delta);
		sc->count[stage] = si->kind == ET_KIND_AGG ? ev->stage.count : 1;
	}
	if (!tl->offset_fixed && si->kind == ET_KIND_TIMED && ev->ts >= end) {
		/* emitted right where it ends: the clocks' offset, plus latency */
		int64_t off = (int64_t)(ev->ts - end);

		if (!tl->have_offset || off < tl->clock_offset) {
			tl->clock_offset = off;
			tl->have_offset = true;
		}
	}

	if (!sc->t0 || ev->stage.start < sc->t0)
		sc->t0 = ev->stage.start;
	if (end > sc->t1)
		sc->t1 = end;
	if (ev->stage.nr >= 0 || sc->nr < 0)
		sc->nr = ev->stage.nr;
	sc->work |= ev->stage.work;
	if (si->phase == ET_PHASE_ENTRY)
		sc->flags &= ~ET_SC_OPEN_START;
	if (si->phase == ET_PHASE_EXIT && si->kind != ET_KIND_DEFERRED)
		sc->ret = ev->stage.ret;
	if (si->kind != ET_KIND_DEFERRED) {
		sc->ts_exit = ev->ts;
		sc->cpu_exit = ev->cpu;
		if (sc->cpu_exit != sc->cpu_enter)
			sc->flags |= ET_SC_MIGRATED;
	}
}


void tl_summary_event(struct et_timeline *tl, struct et_task *t,
			  const struct et_event *ev)
{
	struct et_syscall *sc;
	uint64_t core = 0;

	if (t->has_cur && ev->summary.tail_seq == CUR(t)->seq) {
		for (int i = 0; i < ET_STAGE_KERNEL_NR; i++)
			if (et_stages[i].kind == ET_KIND_DEFERRED &&
			    ev->summary.delta[i])
				et_sc_set(CUR(t), i, ev->summary.delta[i]);
	}
	if (ev->summary.sample)
		tl->sample = tl->counts.sample = ev->summary.sample;
	if (ev->summary.stamp_ns > 0)
		tl->stamp_ns = tl->counts.stamp_ns = ev->summary.stamp_ns;
	tl->counts.pmu |= ev->summary.pmu;
	if (t->has_cur && ev->summary.batch) {
		/*
		 * Packed batches: what went missing is counted by the batches'
		 * own numbers, and a task that moved CPU has its records in two
		 * CPUs' batches, handed on in the order the batches were
		 * written: a step back or a gap in its numbers is neither a new
		 * task nor a loss
		 */
		tl_cur_to_pend(tl, t);
		tl_flush_pend(tl, t);
	} else if (t->has_cur) {
		int32_t d = seq_cmp(ev->summary.seq, CUR(t)->seq);

		if (d <= 0) {
			tl_task_reset(tl, t);
		} else {
			tl_seq_advance(tl, t, d);
			tl_flush_pend(tl, t);
		}
	}

	tl_sc_begin(tl, t, ev);
	t->seen_syscall = true;
	sc = CUR(t);
	sc->seq = ev->summary.seq;
	sc->nr = ev->summary.nr;
	sc->ret = ev->summary.ret;
	sc->work = ev->summary.work;
	for (int i = 0; i < ET_STAGE_KERNEL_NR; i++) {
		uint64_t d = ev->summary.delta[i];

		if (!d || et_stages[i].kind == ET_KIND_DEFERRED)
			continue;
		et_sc_set(sc, i, d);
		if (et_stages[i].parent == ET_STAGE_NONE && i != ET_STAGE_EMIT)
			core += d;
	}
	if (ev->summary.rcu_unlock_slow && et_sc_has(sc, ET_STAGE_RCU_UNLOCK_SLOW))
		sc->count[ET_STAGE_RCU_UNLOCK_SLOW] = ev->summary.rcu_unlock_slow;
	sc->span = ev->summary.span;
	sc->t0 = ev->summary.start;
	sc->t1 = sc->t0 + core;
	if (!tl->offset_fixed && ev->ts >= sc->t1 &&
	    (!tl->have_offset || (int64_t)(ev->ts - sc->t1) < tl->clock_offset)) {
		/* fired at the end of the exit path: offset plus a little */
		tl->clock_offset = (int64_t)(ev->ts - sc->t1);
		tl->have_offset = true;
	}
	/* Emitted at the end of the exit path: it began about core ns ago. */
	sc->ts_enter = ev->ts >= core ? ev->ts - core : 0;
}

/* entry_stage_calib: the kernel's own measure of what a stamp costs. */
void tl_stage_calib(struct et_timeline *tl, const struct et_event *ev)
{
	tl->counts.calib_events++;
	if (ev->calib.cost_ns > 0)
		tl->stamp_ns = tl->counts.stamp_ns = ev->calib.cost_ns;
	tl->agg_ns = tl->counts.agg_ns = ev->calib.agg_ns;
	if (ev->calib.sample)
		tl->sample = tl->counts.sample = ev->calib.sample;
	tl->counts.pmu |= ev->calib.source == 1;
}

/* no exit stage came: the burst that would have carried it did not */
static bool no_exit_stage(const struct et_timeline *tl, const struct et_syscall *sc)
{
	return !(sc->stage_mask & tl->exit_mask);
}

/* a summary is the syscall's last word: none is open at the end */
static bool summary_open(const struct et_timeline *tl, const struct et_syscall *sc)
{
	return false;
}

const struct tl_mode tl_mode_stages = {
	.stamped = true,
	.spans = true,
	.finalize = stage_finalize,
	.open_end = no_exit_stage,
	.no_exit = no_exit_stage,
	.untimed = stage_gaps,
};

const struct tl_mode tl_mode_summary = {
	.stamped = true,
	.stampless = true,
	.finalize = stage_finalize,
	.in_kernel = tl_no_kernel,
	.open_end = summary_open,
	.no_exit = no_exit_stage,
	.untimed = summary_untimed,
};
