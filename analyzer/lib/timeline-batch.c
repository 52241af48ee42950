// SPDX-License-Identifier: LGPL-2.1
/*
 * Packed batches (entry_stage_batch, series v4): a task's records in the
 * order its syscalls ran.
 *
 * Each CPU appends the syscalls staged on it to its own batch and writes
 * the batch as one event when it is full, a second old, or on a timer.
 * The walk hands the records on in the order the batches were written,
 * so a task that moved CPU can have its later records in a batch of the
 * new CPU written before the old CPU's batch with its earlier ones.  The
 * summary timeline would then see the later syscall first: the earlier
 * one's DEFERRED stages (carried by the later record) find no syscall to
 * go to, and the order of the task's syscalls is wrong.
 *
 * A record waits here, in its task's queue ordered by sequence number,
 * while an earlier one may still come: its sequence number does not
 * follow the task's last one handed on (1, or the sample's step; a
 * task's first staged syscall is 1).  It goes on when the missing one
 * comes, when every CPU has written a batch since its burst (what was
 * missing is lost), after three seconds of batches (a CPU that wrote
 * none: it stages nothing), when its task has ET_BATCH_HOLD_MAX records
 * waiting, before its task's exit or a new task on its pid, and at the
 * end of the trace.  The records of a task that stays on one CPU follow
 * each other and never wait.
 */
#include <stdlib.h>
#include <string.h>

#include "timeline-local.h"

/*
 * A CPU writes a record's batch within about two seconds of its burst:
 * by its age at the next append (one second), else the kernel's timer
 * (every second).
 */
#define ET_BATCH_HORIZON_NS	3000000000ull
#define ET_BATCH_HOLD_MAX	4096	/* records one task may have waiting */

struct tl_batch_rec {
	struct et_event ev;
	uint64_t delta[ET_STAGE_KERNEL_NR];
};

/*
 * Nothing of @t can come before @r any more: its sequence number follows
 * the task's last one handed on (a task's first staged syscall is 1), or
 * every CPU wrote a batch after @r's burst, or it waited long enough.
 */
static bool batch_ready(const struct et_timeline *tl, const struct et_task *t,
			const struct et_event *r)
{
	uint32_t step = r->summary.seq - t->batch_seq;

	if (step == 1 || (r->summary.sample > 1 && step == r->summary.sample))
		return true;
	if (tl->batch_min >= r->ts)
		return true;
	return tl->batch_now > r->ts + ET_BATCH_HORIZON_NS;
}

static void batch_deliver(struct et_timeline *tl, struct et_task *t, const struct et_event *ev)
{
	/* a record after one of its task's later records: too late to order */
	if (t->batch_seen && seq_cmp(ev->summary.seq, t->batch_seq) <= 0)
		tl->counts.batch_late++;
	t->batch_seen = true;
	t->batch_seq = ev->summary.seq;
	tl_summary_event(tl, t, ev);
}

static void wait_list_remove(struct et_timeline *tl, struct et_task *t)
{
	for (size_t i = 0; i < tl->nr_batch_wait; i++) {
		if (tl->batch_wait[i] == t) {
			tl->batch_wait[i] = tl->batch_wait[--tl->nr_batch_wait];
			return;
		}
	}
}

static bool wait_list_add(struct et_timeline *tl, struct et_task *t)
{
	if (tl->nr_batch_wait == tl->cap_batch_wait) {
		size_t cap = tl->cap_batch_wait ? 2 * tl->cap_batch_wait : 16;
		struct et_task **w = realloc(tl->batch_wait, cap * sizeof(*w));

		if (!w)
			return false;
		tl->batch_wait = w;
		tl->cap_batch_wait = cap;
	}
	tl->batch_wait[tl->nr_batch_wait++] = t;
	return true;
}

/* Hand on @t's waiting records from the first while they may go (@all: every one). */
static void batch_release(struct et_timeline *tl, struct et_task *t, bool all)
{
	struct tl_batch_rec *q = t->batch_q;
	uint32_t n = 0;

	while (n < t->nr_batch_q &&
	       (all || t->nr_batch_q - n > ET_BATCH_HOLD_MAX ||
		batch_ready(tl, t, &q[n].ev))) {
		q[n].ev.summary.delta = q[n].delta;
		batch_deliver(tl, t, &q[n].ev);
		n++;
	}
	if (!n)
		return;
	t->nr_batch_q -= n;
	memmove(q, q + n, t->nr_batch_q * sizeof(*q));
	if (!t->nr_batch_q)
		wait_list_remove(tl, t);
}

/* Queue @ev in @t's records by sequence number; false: out of memory. */
static bool batch_hold(struct et_timeline *tl, struct et_task *t, const struct et_event *ev)
{
	struct tl_batch_rec *q = t->batch_q;
	uint32_t i;

	if (t->nr_batch_q == t->cap_batch_q) {
		uint32_t cap = t->cap_batch_q ? 2 * t->cap_batch_q : 8;

		q = realloc(t->batch_q, cap * sizeof(*q));
		if (!q)
			return false;
		t->batch_q = q;
		t->cap_batch_q = cap;
	}
	if (!t->nr_batch_q && !wait_list_add(tl, t))
		return false;
	for (i = t->nr_batch_q; i > 0 && seq_cmp(q[i - 1].ev.summary.seq, ev->summary.seq) > 0; i--)
		;
	memmove(q + i + 1, q + i, (t->nr_batch_q - i) * sizeof(*q));
	q[i].ev = *ev;
	memcpy(q[i].delta, ev->summary.delta, sizeof(q[i].delta));
	t->nr_batch_q++;
	tl->counts.batch_held++;
	return true;
}

void tl_batch_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev)
{
	uint64_t at = ev->summary.batch_at;

	if (at > tl->batch_now)
		tl->batch_now = at;
	if (!t->nr_batch_q && batch_ready(tl, t, ev)) {
		batch_deliver(tl, t, ev);
	} else if (!batch_hold(tl, t, ev)) {
		batch_release(tl, t, true);
		batch_deliver(tl, t, ev);
	} else {
		batch_release(tl, t, false);
	}
	/*
	 * The batch's last record: the CPU has handed on everything staged
	 * on it before the batch was written, and what waited for it may go
	 */
	if (!ev->summary.batch_last || ev->cpu < 0 || ev->cpu >= tl->nr_cpus ||
	    at <= tl->batch_at[ev->cpu])
		return;
	tl->batch_at[ev->cpu] = at;
	tl->batch_min = at;
	for (int c = 0; c < tl->nr_cpus; c++)
		if (tl->batch_at[c] < tl->batch_min)
			tl->batch_min = tl->batch_at[c];
	for (size_t i = 0; i < tl->nr_batch_wait; ) {
		struct et_task *w = tl->batch_wait[i];

		batch_release(tl, w, false);
		if (i < tl->nr_batch_wait && tl->batch_wait[i] == w)
			i++;
	}
}

void tl_batch_flush(struct et_timeline *tl, struct et_task *t)
{
	if (t->nr_batch_q)
		batch_release(tl, t, true);
}

void tl_batch_finish(struct et_timeline *tl)
{
	while (tl->nr_batch_wait)
		batch_release(tl, tl->batch_wait[0], true);
}

void tl_batch_free(struct et_timeline *tl, struct et_task *t)
{
	if (t)
		free(t->batch_q);
	else
		free(tl->batch_wait);
}
