// SPDX-License-Identifier: LGPL-2.1
/*
 * Overlays: the time a task was switched out (sched_switch) or interrupted
 * (hard and soft irq handlers) inside a syscall.  Each interval is added to
 * the syscall's off_cpu or irq stage and logged, so that when the syscall
 * is emitted every stage with a start knows how much of it was not its own
 * (--exclusive) and how many of the tracer's events it paid for
 * (--no-overhead).  In stage mode a syscall's events come in one burst at
 * its end, so the task's intervals wait as spans until that burst says
 * where the syscall was.
 */
#include <string.h>

#include "timeline-local.h"

static struct et_slot_log *log_of(struct et_task *t, const struct et_syscall *sc)
{
	if (sc == &t->sc[0])
		return &t->log[0];
	if (sc == &t->sc[1])
		return &t->log[1];
	return NULL;
}

static void log_overlay(struct et_task *t, const struct et_syscall *sc,
			uint64_t start, uint64_t end, int stage)
{
	struct et_slot_log *l = log_of(t, sc);

	if (!l || end <= start)
		return;
	if (l->nov == ET_MAX_OVERLAYS) {
		l->dropped = true;
		return;
	}
	l->ov_start[l->nov] = start;
	l->ov_stage[l->nov] = (uint8_t)stage;
	l->ov_end[l->nov++] = end;
}

/* Stage mode: keep an interval the task spent switched out or interrupted. */
static void span_push(struct et_task *t, uint64_t a, uint64_t b, int stage)
{
	if (b <= a)
		return;
	if (t->nr_spans == ET_SPAN_RING) {
		memmove(t->spans, t->spans + 1, (ET_SPAN_RING - 1) * sizeof(*t->spans));
		t->nr_spans--;
		t->spans_lost = true;
	}
	t->spans[t->nr_spans++] = (struct et_span){ a, b, (uint8_t)stage };
}

/*
 * Stage mode: the intervals within the syscall's stamps (trace clock) are
 * its off_cpu and irq time; those that reach past its end may hold the next
 * syscall's too.
 */
void tl_spans_place(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	uint64_t s0 = sc->t0 + sc->clock_offset, s1 = sc->t1 + sc->clock_offset;
	unsigned int keep = 0;

	if (t->spans_lost) {
		tl->counts.overlays_dropped++;
		t->spans_lost = false;
	}
	for (unsigned int i = 0; i < t->nr_spans; i++) {
		const struct et_span *p = &t->spans[i];
		uint64_t a = p->start > s0 ? p->start : s0;
		uint64_t b = p->end < s1 ? p->end : s1;

		if (s1 > s0 && b > a) {
			et_sc_add(sc, p->stage, b - a, 1);
			log_overlay(t, sc, a, b, p->stage);
		}
		if (p->end > s1)
			t->spans[keep++] = *p;
	}
	t->nr_spans = keep;
}

/* How many of the task's stage events were written inside (s0, s1). */
static unsigned int emissions_in(const struct et_task *t, uint64_t s0, uint64_t s1)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < t->emit_count; i++) {
		uint64_t ts = t->emits[(t->emit_next + ET_EMIT_RING - 1 - i) % ET_EMIT_RING];

		if (ts <= s0)
			break;	/* newest first: the rest are older still */
		n += ts < s1;
	}
	return n;
}

/*
 * Per stage with a start: how much interrupt and off-CPU time fell inside
 * it, and what the trace events written inside it cost.
 */
void tl_settle(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	struct et_slot_log *l = log_of(t, sc);
	uint64_t mask = sc->start_mask;

	if (!l)
		return;
	if (l->dropped)
		tl->counts.overlays_dropped++;
	sc->nr_overlays = (uint8_t)l->nov;
	if (!l->nov && !t->emit_count) {
		/* nothing fell inside: the common case, in short */
		for (; mask; mask &= mask - 1) {
			sc->sub[__builtin_ctzll(mask)] = 0;
			sc->ovh[__builtin_ctzll(mask)] = 0;
		}
		return;
	}
	for (int i = 0; i < l->nov; i++) {
		sc->overlays[i].start = l->ov_start[i];
		sc->overlays[i].end = l->ov_end[i];
		sc->overlays[i].stage = l->ov_stage[i];
	}
	while (mask) {
		int st = __builtin_ctzll(mask);
		uint64_t s0 = sc->start[st] + sc->clock_offset, s1 = s0 + sc->extent[st];
		uint64_t sub = 0, n = 0;

		mask &= mask - 1;
		for (int i = 0; i < l->nov; i++) {
			uint64_t a = l->ov_start[i] > s0 ? l->ov_start[i] : s0;
			uint64_t b = l->ov_end[i] < s1 ? l->ov_end[i] : s1;

			if (b > a)
				sub += b - a;
		}
		n = emissions_in(t, s0, s1);
		sc->sub[st] = sub < sc->ns[st] ? sub : sc->ns[st];
		sc->ovh[st] = (uint32_t)(n * tl->cost_median);
	}
	/*
	 * Entrytrace kernels: emit, the tracer's interval, lies inside the
	 * total's span but not in its time; the total holds what its
	 * top-level stages hold.
	 */
	if ((sc->start_mask & (1ull << ET_STAGE_EMIT)) &&
	    (sc->start_mask & (1ull << ET_SLOT_TOTAL))) {
		uint64_t sub = 0, ovh = 0;

		for (int i = 0; i < ET_STAGE_KERNEL_NR; i++) {
			if (et_stages[i].parent != ET_STAGE_NONE || i == ET_STAGE_EMIT ||
			    !(sc->start_mask & (1ull << i)))
				continue;
			sub += sc->sub[i];
			ovh += sc->ovh[i];
		}
		sc->sub[ET_SLOT_TOTAL] = sub < sc->ns[ET_SLOT_TOTAL] ? sub : sc->ns[ET_SLOT_TOTAL];
		sc->ovh[ET_SLOT_TOTAL] = (uint32_t)ovh;
	}
}


/* A mode with no span to test an interval against (summary: one event at the end). */
struct et_syscall *tl_no_kernel(struct et_timeline *tl, struct et_task *t)
{
	return NULL;
}

void tl_on_switch(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *prev = ev->sw.prev_pid ? tl_task_get(tl, ev->sw.prev_pid) : NULL;
	struct et_task *next = ev->sw.next_pid ? tl_task_get(tl, ev->sw.next_pid) : NULL;

	if (tl->ops->spans) {
		/* placed when the syscall's burst says where it was */
		if (prev) {
			tl_task_name(tl, prev, ev->sw.prev_comm, ev->sw.prev_comm);
			prev->off_cpu = true;
			prev->off_ts = ev->ts;
		}
		if (next) {
			tl_task_name(tl, next, ev->sw.next_comm, ev->sw.next_comm);
			if (next->off_cpu)
				span_push(next, next->off_ts, ev->ts, ET_SLOT_OFF_CPU);
			next->off_cpu = false;
		}
		return;
	}
	if (prev) {
		struct et_syscall *sc = tl->ops->in_kernel(tl, prev);

		tl_task_name(tl, prev, ev->sw.prev_comm, ev->sw.prev_comm);
		if (sc) {
			prev->off_cpu = true;
			prev->off_in_pend = sc == PEND(prev);
			prev->off_ts = ev->ts;
			prev->off_gen = prev->gen;
		}
	}
	if (next) {
		tl_task_name(tl, next, ev->sw.next_comm, ev->sw.next_comm);
		if (next->off_cpu && next->off_gen == next->gen) {
			struct et_syscall *sc = tl->ops->in_kernel(tl, next);

			if (sc && (sc == PEND(next)) == next->off_in_pend) {
				et_sc_add(sc, ET_SLOT_OFF_CPU, ev->ts - next->off_ts, 1);
				log_overlay(next, sc, next->off_ts, ev->ts, ET_SLOT_OFF_CPU);
				if (next->off_in_pend)
					sc->work |= ET_WORK(RESCHED);
			}
		}
		next->off_cpu = false;
	}
}

void tl_on_irq(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_cpu *c;
	struct et_task *t;

	if (ev->cpu < 0 || ev->cpu >= tl->nr_cpus)
		return;
	c = &tl->cpus[ev->cpu];
	if (ev->kind == ET_EV_IRQ_ENTER) {
		if (c->depth++ == 0) {
			t = ev->pid ? tl_task_find(tl, ev->pid) : NULL;
			c->pid = ev->pid;
			c->start = ev->ts;
			c->in_syscall = t && (tl->ops->spans || tl->ops->in_kernel(tl, t));
			c->gen = t ? t->gen : 0;
		}
		return;
	}
	if (c->depth == 0 || --c->depth || !c->in_syscall)
		return;	/* unmatched, nested, or not inside a syscall */
	t = tl_task_find(tl, c->pid);
	if (t && tl->ops->spans) {
		span_push(t, c->start, ev->ts, ET_SLOT_IRQ);
		return;
	}
	if (t && t->gen == c->gen) {
		struct et_syscall *sc = tl->ops->in_kernel(tl, t);

		if (sc) {
			et_sc_add(sc, ET_SLOT_IRQ, ev->ts - c->start, 1);
			log_overlay(t, sc, c->start, ev->ts, ET_SLOT_IRQ);
		}
	}
}
