// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline: a per-task state machine that turns decoded events into one
 * struct et_syscall per syscall.
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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "entrytrace.h"
#include "internal.h"

#define ET_HOLD_MAX 1024
#define ET_MAX_OVERLAYS ET_SC_MAX_OVERLAYS	/* interrupt/off-CPU intervals */
#define ET_EMIT_RING 256	/* a task's recent stage-event times */
#define ET_SPAN_RING 16		/* a task's off-CPU/irq intervals not yet placed */

/*
 * Stage mode (ABI 3): a syscall's events come in one burst at its end, so
 * while the task is switched out or interrupted nothing says yet whether
 * it was inside a syscall.  The intervals wait here, on the trace clock,
 * and go to the syscall whose stamps hold them when it is final.
 */
struct et_span {
	uint64_t start, end;
	uint8_t stage;		/* ET_STAGE_OFF_CPU or ET_STAGE_IRQ */
};

/* What happened inside a syscall, kept until it is emitted. */
struct et_slot_log {
	uint16_t nov;
	bool dropped;
	uint64_t ov_start[ET_MAX_OVERLAYS];
	uint64_t ov_end[ET_MAX_OVERLAYS];
	uint8_t ov_stage[ET_MAX_OVERLAYS];
};

#define CUR(t) (&(t)->sc[(t)->ci])
#define PEND(t) (&(t)->sc[(t)->ci ^ 1])

struct et_task {
	int pid;
	bool has_cur;
	bool has_pend;
	bool pend_returned;	/* stock + ct: user_enter seen after pend */
	bool seen_syscall;	/* a syscall of this task was seen */
	bool created;		/* fork/clone seen inside the trace */
	bool comm_known;
	bool comm_tentative;	/* comm came from the saved cmdlines */
	bool user_exit_valid;	/* stock + ct: kernel entered, no sys_enter yet */
	bool off_cpu;		/* switched out inside a syscall */
	bool off_in_pend;	/* ...inside pend's exit path */
	bool spans_lost;	/* stage mode: spans[] overflowed */
	bool have_return;	/* last_return is valid */
	bool pid_reused;	/* the next syscall is a reused pid's first */
	bool seq_gap;		/* the next syscall follows lost ones */
	int tgid;		/* thread group, -1 unknown */
	uint32_t gen;		/* bumped per syscall, for overlays */
	uint32_t off_gen;
	uint32_t last_seq;	/* stage modes: seq of last_return */
	uint64_t user_exit_ts;
	uint64_t last_event;	/* trace clock of this task's last event */
	uint64_t off_ts;
	uint64_t last_return;	/* stock: trace clock; stage modes: kernel clock */
	char comm[ET_COMM_LEN];
	struct et_syscall sc[2];	/* cur is sc[ci], pend the other */
	struct et_slot_log log[2];	/* ...and what happened inside them */
	int ci;
	/*
	 * When the task's entry_stage events were written (trace clock).  An
	 * event costs the syscall running when it is written, which for the
	 * previous syscall's deferred stages is not the one it describes.
	 */
	uint64_t emits[ET_EMIT_RING];
	unsigned int emit_next, emit_count;
	struct et_span spans[ET_SPAN_RING];	/* oldest first */
	unsigned int nr_spans;
	struct et_syscall *held;	/* emitted while comm_tentative */
	size_t nr_held, cap_held;
};

struct et_cpu {
	int depth;		/* irq nesting */
	int pid;		/* task the outermost irq interrupted */
	uint32_t gen;
	bool in_syscall;
	uint64_t start;
	/* the last stage event on this CPU, for the per-event cost */
	int last_pid;
	bool last_burst;	/* NOINSTR or DEFERRED: emitted in a burst */
	uint64_t last_ts;
};

struct et_timeline {
	const struct et_trace *trace;
	enum et_mode mode;
	bool have_ct;
	et_syscall_fn sink;
	void *data;

	struct et_task **slots;	/* open addressing by pid */
	size_t nr_slots;
	size_t nr_tasks;
	struct et_task *last;	/* the previous lookup: events come in runs */

	struct et_cpu *cpus;
	int nr_cpus;
	uint64_t last_gap;	/* start of the latest lost-events gap */
	int64_t clock_offset;	/* trace clock - kernel clock, smallest seen */
	bool have_offset;
	bool offset_fixed;	/* a "local" trace: the stamps' own clock */
	struct et_hist cost;	/* back-to-back stage event gaps */
	uint64_t cost_median;	/* its median, refreshed now and then */

	long nr_exit, nr_exit_group;
	long nr_clone, nr_clone3, nr_fork, nr_vfork;
	uint64_t deferred_mask;	/* stage ids of kind DEFERRED */
	uint64_t entry_mask;	/* kernel stages of phase ENTRY */
	uint64_t exit_mask;	/* kernel stages of phase EXIT, not deferred */
	uint64_t kids[ET_STAGE_NR];	/* per stage: its descendants */

	/* the kernel's stamp calibration (entry_stage_calib, summaries) */
	bool raw_stamps;
	double stamp_ns, agg_ns;
	uint32_t sample;	/* 1-in-N: seq steps of N are not losses */

	struct et_timeline_counts counts;
};

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

static struct et_task *task_find(struct et_timeline *tl, int pid)
{
	if (tl->last && tl->last->pid == pid)
		return tl->last;
	for (size_t s = slot_of(tl, pid); tl->slots[s];
	     s = (s + 1) & (tl->nr_slots - 1))
		if (tl->slots[s]->pid == pid)
			return tl->last = tl->slots[s];
	return NULL;
}

static struct et_task *task_get(struct et_timeline *tl, int pid)
{
	struct et_task *t = task_find(tl, pid);
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
	for (s = slot_of(tl, pid); tl->slots[s]; s = (s + 1) & (tl->nr_slots - 1))
		;
	tl->slots[s] = t;
	tl->nr_tasks++;
	tl->counts.tasks++;
	return t;
}

static const char *task_comm(struct et_timeline *tl, struct et_task *t)
{
	if (!t->comm_known) {
		const char *c = tep_data_comm_from_pid(et_trace_tep(tl->trace), t->pid);

		snprintf(t->comm, sizeof(t->comm), "%s", c ? c : "<...>");
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
static void task_name(struct et_timeline *tl, struct et_task *t,
		      const char *before, const char *now)
{
	if (t->comm_tentative) {
		for (size_t i = 0; i < t->nr_held; i++) {
			if (before && before[0])
				snprintf(t->held[i].comm, ET_COMM_LEN, "%s", before);
			else
				tl->counts.comm_unverified++;
		}
		flush_held(tl, t);
		t->comm_tentative = false;
		if (before && before[0]) {
			/* cur and pend began under the old name too */
			snprintf(CUR(t)->comm, ET_COMM_LEN, "%s", before);
			snprintf(PEND(t)->comm, ET_COMM_LEN, "%s", before);
		}
	}
	if (now && now[0]) {
		snprintf(t->comm, sizeof(t->comm), "%s", now);
		t->comm_known = true;
	}
}

/* ------------------------------------------------------------------ */
/* Syscall records                                                     */

static void sc_set(struct et_syscall *sc, int stage, uint64_t ns)
{
	sc->ns[stage] = ns;
	sc->count[stage] = 1;
	sc->stage_mask |= 1ull << stage;
}

/* A stage that has a start: [start, start + ns). */
static void sc_span(struct et_syscall *sc, int stage, uint64_t start, uint64_t ns)
{
	sc_set(sc, stage, ns);
	sc->start[stage] = start;
	sc->extent[stage] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	sc->start_mask |= 1ull << stage;
}

/* ns[] and count[] are valid only where stage_mask has the bit. */
static void sc_add(struct et_syscall *sc, int stage, uint64_t ns, uint32_t n)
{
	if (!et_syscall_has(sc, stage)) {
		sc_set(sc, stage, ns);
		sc->count[stage] = n;
		return;
	}
	sc->ns[stage] += ns;
	sc->count[stage] += n;
}

static bool is_noreturn(const struct et_timeline *tl, long nr)
{
	return nr >= 0 && (nr == tl->nr_exit || nr == tl->nr_exit_group);
}

static bool is_fork(const struct et_timeline *tl, long nr)
{
	return nr >= 0 && (nr == tl->nr_clone || nr == tl->nr_clone3 ||
			   nr == tl->nr_fork || nr == tl->nr_vfork);
}

uint32_t et_sc_reason(uint32_t flags)
{
	static const uint32_t order[] = {
		ET_SC_LOST, ET_SC_OPEN_START, ET_SC_OPEN_END, ET_SC_NORETURN,
		ET_SC_CHILD, ET_SC_NO_EXIT, ET_SC_MISMATCH,
	};

	for (size_t i = 0; i < ET_ARRAY_SIZE(order); i++)
		if (flags & order[i])
			return order[i];
	return 0;
}

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
static void spans_place(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	uint64_t s0 = sc->t0 + sc->clock_offset, s1 = sc->t1 + sc->clock_offset;
	unsigned int keep = 0;

	if (t->spans_lost) {
		sc->flags2 |= ET_SC2_OVERLAYS_DROPPED;
		tl->counts.overlays_dropped++;
		t->spans_lost = false;
	}
	for (unsigned int i = 0; i < t->nr_spans; i++) {
		const struct et_span *p = &t->spans[i];
		uint64_t a = p->start > s0 ? p->start : s0;
		uint64_t b = p->end < s1 ? p->end : s1;

		if (s1 > s0 && b > a) {
			sc_add(sc, p->stage, b - a, 1);
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
static void settle(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	struct et_slot_log *l = log_of(t, sc);
	uint64_t mask = sc->start_mask;

	if (!l)
		return;
	if (l->dropped) {
		sc->flags2 |= ET_SC2_OVERLAYS_DROPPED;
		tl->counts.overlays_dropped++;
	}
	sc->nr_overlays = (uint8_t)l->nov;
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
	    (sc->start_mask & (1ull << ET_STAGE_TOTAL))) {
		uint64_t sub = 0, ovh = 0;

		for (int i = 0; i < et_stage_nr_kernel; i++) {
			if (et_stages[i].parent != ET_STAGE_NONE || i == ET_STAGE_EMIT ||
			    !(sc->start_mask & (1ull << i)))
				continue;
			sub += sc->sub[i];
			ovh += sc->ovh[i];
		}
		sc->sub[ET_STAGE_TOTAL] = sub < sc->ns[ET_STAGE_TOTAL] ? sub : sc->ns[ET_STAGE_TOTAL];
		sc->ovh[ET_STAGE_TOTAL] = (uint32_t)ovh;
	}
}

static void emit(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc)
{
	uint32_t reason, flags = sc->flags;

	settle(tl, t, sc);
	tl->counts.syscalls++;
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

static void sc_begin(struct et_timeline *tl, struct et_task *t,
		     const struct et_event *ev)
{
	struct et_syscall *sc = CUR(t);

	memset(sc, 0, offsetof(struct et_syscall, ns));	/* ns[], count[]: by mask */
	sc->flags2 = 0;
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

/*
 * Every stage time includes about one stamp: the part of the stamp that
 * begins it after its counter read and the part of the one that ends it
 * before its read, which together are what back-to-back stamps measure
 * (the kernel's calibration, C).  A parent also holds its children's two
 * stamps each (2C, their time within it already counting one) and one AGG
 * begin/end pair per occurrence of an AGG descendant (A); an AGG stage's
 * own sum holds about C per occurrence.  Subtract that, as the
 * calibration estimates it; --raw-stamps keeps it in.
 */
static void stamp_correct(struct et_timeline *tl, struct et_syscall *sc)
{
	uint64_t ns[ET_STAGE_NR];
	double c = tl->stamp_ns, a = tl->agg_ns > 0 ? tl->agg_ns : tl->stamp_ns;
	uint64_t mask = sc->stage_mask & ((1ull << et_stage_nr_kernel) - 1);

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
	for (int i = 0; i < et_stage_nr_kernel; i++) {
		if (et_stages[i].parent != ET_STAGE_NONE || i == ET_STAGE_EMIT ||
		    !et_syscall_has(sc, i))
			continue;
		top |= 1ull << i;
		*sum += sc->ns[i];
	}
	return top;
}

/*
 * Stage mode: the time between the syscall's top-level stages that no
 * stage covers (each gap holding about one stamp too, unless
 * --raw-stamps), from the stamps as they are.
 */
static uint64_t stage_gaps(struct et_timeline *tl, const struct et_syscall *sc)
{
	uint64_t sum, end = 0, gaps = 0, top = top_stages(sc, &sum);
	double c = tl->raw_stamps ? 0 : tl->stamp_ns;
	int order[ET_STAGE_NR], n = 0;

	if (tl->mode != ET_MODE_STAGES || (top & ~sc->start_mask))
		return 0;
	/* emit is no gap: it is the tracer's own interval */
	if (et_syscall_has(sc, ET_STAGE_EMIT) && (sc->start_mask & (1ull << ET_STAGE_EMIT)))
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
			double gap = (double)(s0 - end) - c;

			gaps += gap > 0 ? (uint64_t)(gap + 0.5) : 0;
		}
		if (e > end)
			end = e;
	}
	return gaps;
}

/*
 * Stage modes: a syscall is final once the next one is under way, so its
 * tail has arrived if it ever will.  Its stamp cost is subtracted, its
 * total and the user gap before it are computed here, from the kernel's
 * own stamps.
 */
static void stage_finalize(struct et_timeline *tl, struct et_task *t,
			   struct et_syscall *sc)
{
	bool tail = sc->stage_mask & tl->deferred_mask;
	uint64_t total, gaps, raw_end = 0;

	sc->clock_offset = tl->clock_offset;
	if (tl->mode == ET_MODE_STAGES)
		spans_place(tl, t, sc);
	if (sc->flags & ET_SC_NORETURN)
		return;
	if (!tail)
		sc->flags |= ET_SC_NO_TAIL;
	gaps = stage_gaps(tl, sc);
	/*
	 * Summary mode has no stamp times: the syscall's last stamp is placed
	 * at t0 plus its stages as they were stamped (the stamps' own cost is
	 * time that passed), the tracer's interval included (no user time).
	 */
	if (tl->mode == ET_MODE_SUMMARY) {
		top_stages(sc, &raw_end);
		if (et_syscall_has(sc, ET_STAGE_EMIT))
			raw_end += sc->ns[ET_STAGE_EMIT];
		raw_end += sc->t0;
	}
	stamp_correct(tl, sc);
	top_stages(sc, &total);
	total += gaps;
	if (tl->mode == ET_MODE_SUMMARY)
		sc->t1 = raw_end;
	if (tail)
		sc_span(sc, ET_STAGE_TOTAL, sc->t0, total);
	if (t->have_return && t->last_seq == sc->seq - 1 &&
	    sc->stage_mask & tl->entry_mask && sc->t0 >= t->last_return) {
		uint64_t gap = sc->t0 - t->last_return;
		double c = tl->raw_stamps ? 0 : tl->stamp_ns;

		/* between the last stamp of one syscall and the first of the next */
		if (c > 0)
			gap = gap > (uint64_t)(c + 0.5) ? gap - (uint64_t)(c + 0.5) : 0;
		sc_span(sc, ET_STAGE_USER_GAP, t->last_return, gap);
	}
	t->have_return = tail;
	t->last_return = sc->t1;
	t->last_seq = sc->seq;
}

static void flush_pend(struct et_timeline *tl, struct et_task *t)
{
	if (!t->has_pend)
		return;
	if (tl->mode != ET_MODE_STOCK)
		stage_finalize(tl, t, PEND(t));
	emit(tl, t, PEND(t));
	t->has_pend = false;
}

/* cur's core is complete: it waits as pend for what comes after it. */
static void cur_to_pend(struct et_timeline *tl, struct et_task *t)
{
	flush_pend(tl, t);
	t->ci ^= 1;	/* cur becomes pend */
	t->has_pend = true;
	t->pend_returned = false;
	t->has_cur = false;
}

/* The pid now names another task: emit everything of the old one. */
static void task_reset(struct et_timeline *tl, struct et_task *t)
{
	flush_pend(tl, t);
	if (t->has_cur) {
		if (is_noreturn(tl, CUR(t)->nr))
			CUR(t)->flags |= ET_SC_NORETURN;
		else if (tl->mode == ET_MODE_STOCK ||
			 !(CUR(t)->stage_mask & tl->exit_mask))
			CUR(t)->flags |= ET_SC_NO_EXIT;
		if (tl->mode != ET_MODE_STOCK)
			stage_finalize(tl, t, CUR(t));
		emit(tl, t, CUR(t));
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
/* Stock kernel: raw_syscalls, context tracking, signal, rseq          */

static void stock_enter(struct et_timeline *tl, struct et_task *t,
			const struct et_event *ev)
{
	uint64_t entry_ts = ev->ts;

	if (t->has_cur) {
		if (is_noreturn(tl, CUR(t)->nr)) {
			/* exit_group never returns: this is a new task */
			task_reset(tl, t);
		} else {
			CUR(t)->flags |= ET_SC_NO_EXIT;
			emit(tl, t, CUR(t));
			t->has_cur = false;
			t->have_return = false;
		}
	}
	flush_pend(tl, t);
	sc_begin(tl, t, ev);
	t->seen_syscall = true;
	CUR(t)->nr = (int)ev->enter.nr;
	CUR(t)->work |= ET_WORK(TRACEPOINT);
	if (t->user_exit_valid && t->user_exit_ts <= ev->ts) {
		sc_span(CUR(t), ET_STAGE_KERNEL_ENTRY, t->user_exit_ts, ev->ts - t->user_exit_ts);
		entry_ts = t->user_exit_ts;
		CUR(t)->ts_enter = entry_ts;
	}
	t->user_exit_valid = false;
	if (t->have_return && t->last_return <= entry_ts)
		sc_span(CUR(t), ET_STAGE_USER_GAP, t->last_return, entry_ts - t->last_return);
}

static void stock_orphan_exit(struct et_timeline *tl, struct et_task *t,
			      const struct et_event *ev)
{
	struct et_syscall *sc = CUR(t);

	flush_pend(tl, t);
	sc_begin(tl, t, ev);
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
	emit(tl, t, sc);
	t->has_cur = false;
	t->last_return = ev->ts;
	t->have_return = true;
}

static void stock_exit(struct et_timeline *tl, struct et_task *t,
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
			emit(tl, t, sc);
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
	sc_span(sc, ET_STAGE_TOTAL, sc->ts_enter, ev->ts - sc->ts_enter);
	if (tl->have_ct) {
		start = sc->ts_enter;
		if (et_syscall_has(sc, ET_STAGE_KERNEL_ENTRY))
			start += sc->ns[ET_STAGE_KERNEL_ENTRY];
		sc_span(sc, ET_STAGE_SYSCALL_WINDOW, start, ev->ts - start);
	}
	t->last_return = ev->ts;
	t->have_return = true;
	cur_to_pend(tl, t);
}

static void stock_user_enter(struct et_task *t, const struct et_event *ev)
{
	struct et_syscall *sc = PEND(t);

	t->user_exit_valid = false;
	if (!t->has_pend || t->pend_returned)
		return;
	/* pend's exit path ends here, back in user mode */
	sc_span(sc, ET_STAGE_KERNEL_EXIT, sc->ts_exit, ev->ts - sc->ts_exit);
	sc_span(sc, ET_STAGE_TOTAL, sc->ts_enter, ev->ts - sc->ts_enter);
	sc->ts_exit = ev->ts;
	sc->cpu_exit = ev->cpu;
	if (sc->cpu_exit != sc->cpu_enter)
		sc->flags |= ET_SC_MIGRATED;
	t->pend_returned = true;
	t->last_return = ev->ts;
	t->have_return = true;
}

static void stock_signal(struct et_timeline *tl, struct et_task *t,
			 const struct et_event *ev)
{
	struct et_syscall *sc = PEND(t);

	if (!t->has_pend || t->pend_returned || t->has_cur ||
	    et_syscall_has(sc, ET_STAGE_SIGNAL_EXIT)) {
		/* delivery after an interrupt or a fault, not a syscall */
		tl->counts.stray++;
		return;
	}
	sc->work |= ET_WORK(SIGNAL);
	sc_span(sc, ET_STAGE_SIGNAL_EXIT, sc->ts_exit, ev->ts - sc->ts_exit);
}

/* ------------------------------------------------------------------ */
/* entrytrace kernel: per-stage events                                 */

static int32_t seq_cmp(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
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
			task_reset(tl, t);
		} else {
			if (d > (int32_t)tl->sample) {
				tl->counts.seq_lost += (uint32_t)d - tl->sample;
				t->seq_gap = true;
			}
			cur_to_pend(tl, t);
		}
	}
	sc_begin(tl, t, ev);
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

static void stage_event(struct et_timeline *tl, struct et_task *t,
			const struct et_event *ev)
{
	const struct et_stage_info *si;
	struct et_syscall *sc;
	int stage = ev->stage.stage;
	uint64_t end = ev->stage.start + ev->stage.delta;

	if (stage < 0 || stage >= et_stage_nr_kernel) {
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
	if (et_syscall_has(sc, stage)) {
		if (si->kind != ET_KIND_AGG)
			tl->counts.dup_stage++;
		sc_add(sc, stage, ev->stage.delta,
		       si->kind == ET_KIND_AGG ? ev->stage.count : 1);
	} else {
		sc_span(sc, stage, ev->stage.start, ev->stage.delta);
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

/* ------------------------------------------------------------------ */
/* entrytrace kernel: one summary event per syscall                    */

static void summary_event(struct et_timeline *tl, struct et_task *t,
			  const struct et_event *ev)
{
	struct et_syscall *sc;
	uint64_t core = 0;

	if (t->has_cur && ev->summary.tail_seq == CUR(t)->seq) {
		for (int i = 0; i < et_stage_nr_kernel; i++)
			if (et_stages[i].kind == ET_KIND_DEFERRED &&
			    ev->summary.delta[i])
				sc_set(CUR(t), i, ev->summary.delta[i]);
	}
	if (ev->summary.sample)
		tl->sample = tl->counts.sample = ev->summary.sample;
	if (ev->summary.stamp_ns > 0)
		tl->stamp_ns = tl->counts.stamp_ns = ev->summary.stamp_ns;
	tl->counts.pmu |= ev->summary.pmu;
	if (t->has_cur) {
		int32_t d = seq_cmp(ev->summary.seq, CUR(t)->seq);

		if (d <= 0) {
			task_reset(tl, t);
		} else {
			if (d > (int32_t)tl->sample) {
				tl->counts.seq_lost += (uint32_t)d - tl->sample;
				t->seq_gap = true;
			}
			cur_to_pend(tl, t);
			flush_pend(tl, t);
		}
	}

	sc_begin(tl, t, ev);
	t->seen_syscall = true;
	sc = CUR(t);
	sc->seq = ev->summary.seq;
	sc->nr = ev->summary.nr;
	sc->ret = ev->summary.ret;
	sc->work = ev->summary.work;
	for (int i = 0; i < et_stage_nr_kernel; i++) {
		uint64_t d = ev->summary.delta[i];

		if (!d || et_stages[i].kind == ET_KIND_DEFERRED)
			continue;
		sc_set(sc, i, d);
		if (et_stages[i].parent == ET_STAGE_NONE && i != ET_STAGE_EMIT)
			core += d;
	}
	if (ev->summary.rcu_unlock_slow && et_syscall_has(sc, ET_STAGE_RCU_UNLOCK_SLOW))
		sc->count[ET_STAGE_RCU_UNLOCK_SLOW] = ev->summary.rcu_unlock_slow;
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

/* ------------------------------------------------------------------ */
/* Overlays: off-CPU and interrupt time inside a syscall               */

/* The syscall a task is inside for overlay purposes, or NULL. */
static struct et_syscall *in_kernel(struct et_timeline *tl, struct et_task *t)
{
	switch (tl->mode) {
	case ET_MODE_STOCK:
		if (t->has_cur)
			return CUR(t);
		if (tl->have_ct && t->has_pend && !t->pend_returned)
			return PEND(t);
		return NULL;
	case ET_MODE_STAGES:
		/* between its first event and its exit stages */
		if (t->has_cur && !(CUR(t)->stage_mask & tl->exit_mask &
				    (1ull << ET_STAGE_ARCH_EXIT_PREPARE)))
			return CUR(t);
		return NULL;
	case ET_MODE_SUMMARY:
		return NULL;	/* one event at the end: no span to test */
	}
	return NULL;
}

static void on_switch(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *prev = ev->sw.prev_pid ? task_get(tl, ev->sw.prev_pid) : NULL;
	struct et_task *next = ev->sw.next_pid ? task_get(tl, ev->sw.next_pid) : NULL;

	if (tl->mode == ET_MODE_STAGES) {
		/* placed when the syscall's burst says where it was */
		if (prev) {
			task_name(tl, prev, ev->sw.prev_comm, ev->sw.prev_comm);
			prev->off_cpu = true;
			prev->off_ts = ev->ts;
		}
		if (next) {
			task_name(tl, next, ev->sw.next_comm, ev->sw.next_comm);
			if (next->off_cpu)
				span_push(next, next->off_ts, ev->ts, ET_STAGE_OFF_CPU);
			next->off_cpu = false;
		}
		return;
	}
	if (prev) {
		struct et_syscall *sc = in_kernel(tl, prev);

		task_name(tl, prev, ev->sw.prev_comm, ev->sw.prev_comm);
		if (sc) {
			prev->off_cpu = true;
			prev->off_in_pend = sc == PEND(prev);
			prev->off_ts = ev->ts;
			prev->off_gen = prev->gen;
		}
	}
	if (next) {
		task_name(tl, next, ev->sw.next_comm, ev->sw.next_comm);
		if (next->off_cpu && next->off_gen == next->gen) {
			struct et_syscall *sc = in_kernel(tl, next);

			if (sc && (sc == PEND(next)) == next->off_in_pend) {
				sc_add(sc, ET_STAGE_OFF_CPU, ev->ts - next->off_ts, 1);
				log_overlay(next, sc, next->off_ts, ev->ts, ET_STAGE_OFF_CPU);
				if (next->off_in_pend)
					sc->work |= ET_WORK(RESCHED);
			}
		}
		next->off_cpu = false;
	}
}

static void on_irq(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_cpu *c;
	struct et_task *t;

	if (ev->cpu < 0 || ev->cpu >= tl->nr_cpus)
		return;
	c = &tl->cpus[ev->cpu];
	if (ev->kind == ET_EV_IRQ_ENTER) {
		if (c->depth++ == 0) {
			t = ev->pid ? task_find(tl, ev->pid) : NULL;
			c->pid = ev->pid;
			c->start = ev->ts;
			c->in_syscall = t && (tl->mode == ET_MODE_STAGES || in_kernel(tl, t));
			c->gen = t ? t->gen : 0;
		}
		return;
	}
	if (c->depth == 0 || --c->depth || !c->in_syscall)
		return;	/* unmatched, nested, or not inside a syscall */
	t = task_find(tl, c->pid);
	if (t && tl->mode == ET_MODE_STAGES) {
		span_push(t, c->start, ev->ts, ET_STAGE_IRQ);
		return;
	}
	if (t && t->gen == c->gen) {
		struct et_syscall *sc = in_kernel(tl, t);

		if (sc) {
			sc_add(sc, ET_STAGE_IRQ, ev->ts - c->start, 1);
			log_overlay(t, sc, c->start, ev->ts, ET_STAGE_IRQ);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Task lifetime                                                       */

static void on_task_new(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t = task_find(tl, ev->task.pid);

	if (t && (t->has_cur || t->has_pend || t->seen_syscall))
		task_reset(tl, t);
	t = task_get(tl, ev->task.pid);
	if (!t)
		return;
	task_name(tl, t, NULL, ev->task.comm);
	t->comm_tentative = false;
	t->created = true;
	if (ev->task.clone_flags >= 0) {
		/* task_newtask runs in the parent: CLONE_THREAD joins its group */
		struct et_task *parent = ev->pid ? task_find(tl, ev->pid) : NULL;

		if (!(ev->task.clone_flags & 0x00010000))	/* CLONE_THREAD */
			set_tgid(tl, t, t->pid);
		else if (parent && parent->tgid >= 0)
			set_tgid(tl, t, parent->tgid);
	}
}

static void on_task_exit(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t = task_find(tl, ev->task.pid);

	if (t) {
		task_name(tl, t, ev->task.comm, ev->task.comm);
		task_reset(tl, t);
		t->pid_reused = false;	/* only a later task_new says so */
	}
}

static void on_comm(struct et_timeline *tl, const struct et_event *ev)
{
	struct et_task *t;

	if (ev->task.old_pid != ev->task.pid) {
		/* exec from a thread: it takes over the leader's pid */
		struct et_task *old = task_find(tl, ev->task.old_pid);
		struct et_task *lead = task_get(tl, ev->task.pid);

		if (old && lead && old->has_cur) {
			task_reset(tl, lead);
			lead->pid_reused = false;
			*CUR(lead) = *CUR(old);
			CUR(lead)->pid = lead->pid;
			lead->has_cur = true;
			lead->seen_syscall = true;
			old->has_cur = false;
			task_reset(tl, old);
		}
	}
	t = task_get(tl, ev->task.pid);
	if (t)
		task_name(tl, t, ev->task.old_comm, ev->task.comm);
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
		on_switch(tl, ev);
		return 0;
	case ET_EV_IRQ_ENTER:
	case ET_EV_IRQ_EXIT:
		on_irq(tl, ev);
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
		tl->counts.calib_events++;
		if (ev->calib.cost_ns > 0)
			tl->stamp_ns = tl->counts.stamp_ns = ev->calib.cost_ns;
		tl->agg_ns = tl->counts.agg_ns = ev->calib.agg_ns;
		if (ev->calib.sample)
			tl->sample = tl->counts.sample = ev->calib.sample;
		tl->counts.pmu |= ev->calib.source == 1;
		return 0;
	default:
		break;
	}

	t = task_get(tl, ev->pid);
	if (!t)
		return -1;

	switch (ev->kind) {
	case ET_EV_SYS_ENTER:
		stock_enter(tl, t, ev);
		break;
	case ET_EV_SYS_EXIT:
		stock_exit(tl, t, ev);
		break;
	case ET_EV_USER_EXIT:
		t->user_exit_valid = true;
		t->user_exit_ts = ev->ts;
		break;
	case ET_EV_USER_ENTER:
		stock_user_enter(t, ev);
		break;
	case ET_EV_SIGNAL_DELIVER:
		stock_signal(tl, t, ev);
		break;
	case ET_EV_RSEQ_UPDATE:
		if (t->has_pend && !t->pend_returned && !t->has_cur)
			PEND(t)->work |= ET_WORK(RSEQ);
		break;
	case ET_EV_STAGE:
		stage_event(tl, t, ev);
		break;
	case ET_EV_SUMMARY:
		summary_event(tl, t, ev);
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
	tl->have_ct = info->present & ET_HAVE_CT;
	tl->sink = sink;
	tl->data = data;
	tl->nr_cpus = info->cpus;
	tl->cpus = calloc(info->cpus, sizeof(*tl->cpus));
	if (!tl->cpus || !rehash(tl)) {
		et_timeline_free(tl);
		return NULL;
	}
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

void et_timeline_finish(struct et_timeline *tl)
{
	for (size_t i = 0; i < tl->nr_slots; i++) {
		struct et_task *t = tl->slots[i];

		if (!t)
			continue;
		flush_pend(tl, t);
		if (!t->has_cur)
			continue;
		if (is_noreturn(tl, CUR(t)->nr))
			CUR(t)->flags |= ET_SC_NORETURN;
		else if (tl->mode == ET_MODE_STOCK ||
			 (tl->mode == ET_MODE_STAGES &&
			  !(CUR(t)->stage_mask & tl->exit_mask)))
			CUR(t)->flags |= ET_SC_OPEN_END;
		if (tl->mode != ET_MODE_STOCK)
			stage_finalize(tl, t, CUR(t));
		emit(tl, t, CUR(t));
		t->has_cur = false;
	}
	/* never renamed in the trace: the saved cmdlines name is right */
	for (size_t i = 0; i < tl->nr_slots; i++)
		if (tl->slots[i])
			flush_held(tl, tl->slots[i]);
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
	et_hist_free(&tl->cost);
	free(tl);
}
