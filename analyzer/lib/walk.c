// SPDX-License-Identifier: LGPL-2.1
/*
 * Walk: every record of a trace, merged across CPUs into one order, and
 * what each CPU held against what could be read of it.
 *
 * The order is tracecmd_iterate_events()': repeatedly the CPU whose next
 * record is earliest, ties to the lower CPU.  Taken literally that order
 * depends on every record, even ones no event is decoded from, which a
 * merge of already decoded events cannot see.  It is the same order,
 * though, as sorting the records by (the latest timestamp of their CPU up
 * to and including them, CPU, position): that key never decreases along a
 * CPU, so each CPU is a sorted sequence and any merge tree of sorted
 * sequences gives the one sorted order.  So there is one merge, here, on
 * that key:
 *
 *   one thread   the calling thread merges the CPUs' records, decodes each
 *                and hands the event on;
 *   N threads    N - 1 readers each merge and decode a share of the CPUs
 *                (CPU i to reader i mod N-1) into a queue of event chunks;
 *                the calling thread merges the readers' queues on the same
 *                key and hands the events on.  Reading pages, decompressing
 *                zstd and decoding thus run beside the timeline, which
 *                stays on the calling thread, and the result is the same
 *                for every N, damaged files included.
 *
 * Each queue is bounded: a reader waits while its queue is full, the merge
 * while a queue it needs is empty.  A reader only fills its own queue and
 * the merge only waits for an empty one, so they cannot wait on each other.
 *
 * Lost events: a CPU's missed-events mark arrives with the first record
 * after the gap, but in merged order other CPUs' records inside the gap
 * come before it, so the gap is announced right after the record before it
 * (the walk holds each CPU's next record anyway).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "entrytrace-local.h"
#include "tracecmd-compat.h"

#define CHUNK_EVENTS 2048
#define QUEUE_CHUNKS 4
/* below this much ring-buffer data, threads cost more than they save */
#define AUTO_MIN_BYTES (8ull << 20)

/* ------------------------------------------------------------------ */
/* The merge: sources ordered by (key, tie), the smallest first         */

struct merge {
	int n;			/* sources still in */
	int *src;		/* a heap of them (a plain array while n <= 8) */
	uint64_t *key;		/* per source */
	int *tie;
};

static int merge_init(struct merge *m, int nsrc)
{
	m->n = 0;
	m->src = calloc(nsrc ? nsrc : 1, sizeof(*m->src));
	m->key = calloc(nsrc ? nsrc : 1, sizeof(*m->key));
	m->tie = calloc(nsrc ? nsrc : 1, sizeof(*m->tie));
	return m->src && m->key && m->tie ? 0 : -1;
}

static void merge_free(struct merge *m)
{
	free(m->src);
	free(m->key);
	free(m->tie);
}

static inline bool before(const struct merge *m, int a, int b)
{
	return m->key[a] < m->key[b] || (m->key[a] == m->key[b] && m->tie[a] < m->tie[b]);
}

static void sift_down(struct merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i, tmp;

		if (l < m->n && before(m, m->src[l], m->src[s]))
			s = l;
		if (r < m->n && before(m, m->src[r], m->src[s]))
			s = r;
		if (s == i)
			return;
		tmp = m->src[i];
		m->src[i] = m->src[s];
		m->src[s] = tmp;
		i = s;
	}
}

static void merge_add(struct merge *m, int s, uint64_t key, int tie)
{
	m->key[s] = key;
	m->tie[s] = tie;
	m->src[m->n++] = s;
}

static void merge_build(struct merge *m)
{
	for (int i = m->n / 2 - 1; i >= 0; i--)
		sift_down(m, i);
}

/* The smallest source, -1 when none is left; with few, a scan. */
static inline int merge_top(struct merge *m)
{
	int best;

	if (!m->n)
		return -1;
	if (m->n > 8)
		return m->src[0];
	best = 0;
	for (int i = 1; i < m->n; i++)
		if (before(m, m->src[i], m->src[best]))
			best = i;
	if (best) {
		int tmp = m->src[0];

		m->src[0] = m->src[best];
		m->src[best] = tmp;
	}
	return m->src[0];
}

/* The top source (merge_top's) moved on to (key, tie), or ran out. */
static inline void merge_update_top(struct merge *m, uint64_t key, int tie)
{
	m->key[m->src[0]] = key;
	m->tie[m->src[0]] = tie;
	if (m->n > 8)
		sift_down(m, 0);
}

static inline void merge_remove_top(struct merge *m)
{
	m->src[0] = m->src[--m->n];
	if (m->n > 8)
		sift_down(m, 0);
}

/* ------------------------------------------------------------------ */
/* Records to events, with their accounting                            */

int et_walk_init(const struct et_trace *t, struct et_walk *w, et_event_fn fn,
		 void *data)
{
	memset(w, 0, sizeof(*w));
	w->fn = fn;
	w->data = data;
	return et_scratch_init(&t->dec, &w->scratch);
}

void et_walk_fini(struct et_trace *t, struct et_walk *w)
{
	t->counts.records += w->records;
	t->counts.used += w->used;
	t->counts.lost_events += w->lost_events;
	t->counts.lost_unknown += w->lost_unknown;
	t->counts.batches += w->batches;
	t->counts.lost_batches += w->lost_batches;
	t->counts.batches_unexplained += w->batches_unexplained;
	if (w->last_ts > t->counts.last_ts)
		t->counts.last_ts = w->last_ts;
	t->counts.abi_errors += w->scratch.abi_errors;
	t->counts.unknown_stages += w->scratch.unknown_stages;
	t->counts.unregistered += w->scratch.unregistered;
	t->counts.short_records += w->scratch.short_records;
	et_scratch_fini(&w->scratch);
}

static int emit_lost(struct et_trace *t, struct et_walk *w, int cpu, uint64_t ts,
		     long long missed)
{
	struct et_event ev = {
		.kind = ET_EV_LOST, .cpu = cpu, .pid = -1, .ts = ts,
		.lost.count = missed > 0 ? missed : -1,
	};

	if (missed > 0) {
		w->lost_events += missed;
	} else {
		w->lost_unknown++;
		if (t->lost_unknown_per_cpu)
			t->lost_unknown_per_cpu[cpu]++;
	}
	t->counts.lost_per_cpu[cpu] += missed > 0 ? missed : 1;
	return w->fn(&ev, w->data);
}

/*
 * A CPU's batch of packed records, which et_decode() has just opened: a
 * gap in its sequence numbers is a batch missing (the first batch of each
 * CPU may follow one written before the recording began: not counted),
 * its records with it.  Where the ring buffer told of lost events just
 * before, that is what it was; otherwise the batch went missing without a
 * word: damage, and the timeline is told of a gap of unknown size.  Then
 * each record, as a summary at its own time.  Out of et_walk_record()'s
 * way: there, it cost every record of a stock trace 11 instructions
 * (callgrind, the bench's getppid trace).
 */
static __attribute__((noinline)) int walk_batch(struct et_trace *t, struct et_walk *w,
						const struct et_rec *rec, int cpu)
{
	struct et_batch_cursor *b = &w->scratch.batch;
	uint32_t last = t->batch_seq[cpu];
	struct et_event ev;
	int ret;

	b->pending = false;
	/* written on its own CPU: another CPU's number is damage */
	if (b->cpu != cpu) {
		w->scratch.abi_errors += b->records;
		b->records = 0;
		return 0;
	}
	w->used++;
	w->batches++;
	if (last && b->seq != last + 1) {
		uint32_t gap = b->seq - last - 1;
		struct et_event lost = {
			.kind = ET_EV_LOST, .cpu = cpu, .pid = -1, .ts = rec->ts,
			.lost.count = -1,
		};

		/* a number gone back: the kernel's count began again */
		if (gap >= (1u << 31))
			gap = 1;
		w->lost_batches += gap;
		if (!rec->missed) {
			w->batches_unexplained += gap;
			ret = w->fn(&lost, w->data);
			if (ret)
				return ret;
		}
	}
	t->batch_seq[cpu] = b->seq;
	while (et_decode_batch_next(&t->dec, &w->scratch, &ev)) {
		ev.cpu = cpu;
		ret = w->fn(&ev, w->data);
		if (ret)
			return ret;
	}
	return 0;
}

/* Each CPU is walked by exactly one walker: per-CPU state needs no lock. */
__attribute__((noinline)) int et_walk_record(struct et_trace *t, struct et_walk *w, const struct et_rec *rec,
		   int cpu)
{
	struct et_event ev;
	int ret;

	if (cpu < 0 || cpu >= t->info.cpus)
		return 0;
	w->records++;
	t->counts.records_per_cpu[cpu]++;
	if (t->page_size > 0) {
		if (rec->page != t->last_page[cpu]) {
			/* one writer per CPU; the progress reads it from the merge */
			__atomic_store_n(&t->counts.pages_read_per_cpu[cpu],
					 t->counts.pages_read_per_cpu[cpu] + 1, __ATOMIC_RELAXED);
			t->last_page[cpu] = rec->page;
		}
		if (rec->ts < t->last_rec_ts[cpu])
			t->counts.time_back_per_cpu[cpu]++;
		t->last_rec_ts[cpu] = rec->ts;
	}
	if (rec->ts > w->last_ts)
		w->last_ts = rec->ts;

	/* only a CPU's first record can carry a gap not announced yet */
	if (rec->missed && !t->lost_announced[cpu]) {
		ret = emit_lost(t, w, cpu, rec->ts, rec->missed);
		if (ret)
			return ret;
	}
	t->lost_announced[cpu] = false;

	if (!et_decode(&t->dec, rec, &w->scratch, &ev))
		return w->scratch.batch.pending ? walk_batch(t, w, rec, cpu) : 0;
	ev.cpu = cpu;
	ev.ts = rec->ts;
	w->used++;
	return w->fn(&ev, w->data);
}

int et_walk_gap(struct et_trace *t, struct et_walk *w, int cpu, uint64_t ts)
{
	if (cpu < 0 || cpu >= t->info.cpus)
		return 0;
	t->lost_announced[cpu] = false;
	return emit_lost(t, w, cpu, ts, -1);
}

/* ------------------------------------------------------------------ */
/* One thread: merge records, decode, hand on                          */

struct cursor {
	struct et_cpu_reader *r;
	struct et_rec next;
	bool have;
	uint64_t key;		/* latest timestamp of the CPU so far */
	int cpu;
};

static void advance(struct cursor *c)
{
	c->have = et_cpu_reader_next(c->r, &c->next) > 0;
	if (c->have && c->next.ts > c->key)
		c->key = c->next.ts;
}

static bool has_data(const struct et_trace *t, int cpu)
{
	if (t->direct)
		return t->layout[cpu].source != ET_SRC_NONE;
	return t->counts.pages_per_cpu[cpu] || tracecmd_get_cpu_file_size(t->handle, cpu) > 0;
}

/* Walk the given CPUs, reading them through handle (NULL: directly). */
static int walk_cpus(struct et_trace *t, struct tracecmd_input *handle, const int *cpus,
		     int ncpus, struct et_walk *w)
{
	struct cursor *cur = calloc(ncpus ? ncpus : 1, sizeof(*cur));
	struct merge m = { 0 };
	int ret = 0, s;

	if (!cur || merge_init(&m, ncpus)) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < ncpus; i++) {
		cur[i].cpu = cpus[i];
		cur[i].r = et_cpu_reader_new(t, cpus[i], handle);
		if (!cur[i].r) {
			ret = -1;
			goto out;
		}
		advance(&cur[i]);
		if (cur[i].have)
			merge_add(&m, i, cur[i].key, cur[i].cpu);
	}
	merge_build(&m);

	while (!ret && (s = merge_top(&m)) >= 0) {
		struct cursor *c = &cur[s];
		struct et_rec rec = c->next;

		w->key = c->key;
		ret = et_walk_record(t, w, &rec, c->cpu);
		/* rec's payload is no longer needed: the reader may move on */
		advance(c);
		if (!ret && c->have && c->next.missed) {
			t->lost_announced[c->cpu] = true;
			ret = emit_lost(t, w, c->cpu, rec.ts, c->next.missed);
		}
		if (c->have)
			merge_update_top(&m, c->key, c->cpu);
		else
			merge_remove_top(&m);
	}
out:
	for (int i = 0; cur && i < ncpus; i++)
		et_cpu_reader_free(cur[i].r);
	free(cur);
	merge_free(&m);
	return ret;
}

/* ------------------------------------------------------------------ */
/* N threads: readers decode into queues, the caller merges them        */

struct slot_strings {
	char a[ET_COMM_LEN + 1];
	char b[ET_COMM_LEN + 1];
};

struct chunk {
	int n;
	struct et_event ev[CHUNK_EVENTS];
	uint64_t key[CHUNK_EVENTS];
	struct slot_strings str[CHUNK_EVENTS];
	uint64_t *deltas;		/* CHUNK_EVENTS x nr_delta, summaries */
	struct chunk *next;
};

struct stream {
	struct et_trace *trace;
	pthread_t thread;
	struct tracecmd_input *handle;	/* reading through libtracecmd: its own */
	int *cpus;
	int nr_cpus;
	struct et_walk walk;
	int nr_delta;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk *head, *tail;	/* full chunks, oldest first */
	int queued;
	struct chunk *free;		/* chunks the merge has consumed */
	struct chunk *filling;		/* the reader's current chunk */
	bool done;			/* reader finished (or failed) */
	bool stop;			/* the merge asks the reader to give up */
	int ret;

	struct chunk *reading;		/* the merge's current chunk */
	int pos;
};

static struct chunk *chunk_new(int nr_delta)
{
	struct chunk *c = calloc(1, sizeof(*c));

	if (c && nr_delta) {
		c->deltas = calloc((size_t)CHUNK_EVENTS * nr_delta, sizeof(uint64_t));
		if (!c->deltas) {
			free(c);
			return NULL;
		}
	}
	return c;
}

static void chunk_free(struct chunk *c)
{
	if (c)
		free(c->deltas);
	free(c);
}

/* Reader side: hand a full chunk to the merge, get an empty one back. */
static struct chunk *publish(struct stream *s, struct chunk *c)
{
	struct chunk *fresh;

	pthread_mutex_lock(&s->lock);
	while (s->queued >= QUEUE_CHUNKS && !s->stop)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->stop) {
		pthread_mutex_unlock(&s->lock);
		chunk_free(c);
		return NULL;
	}
	if (c) {
		c->next = NULL;
		if (s->tail)
			s->tail->next = c;
		else
			s->head = c;
		s->tail = c;
		s->queued++;
		pthread_cond_broadcast(&s->cond);
	}
	fresh = s->free;
	if (fresh)
		s->free = fresh->next;
	pthread_mutex_unlock(&s->lock);
	if (!fresh)
		fresh = chunk_new(s->nr_delta);
	if (fresh)
		fresh->n = 0;
	return fresh;
}

/* The reader's et_event_fn: copy the event, its key and strings into the chunk. */
static int push(const struct et_event *ev, void *data)
{
	struct stream *s = data;
	struct chunk *c = s->filling;
	struct et_event *dst;
	struct slot_strings *str;

	if (c->n == CHUNK_EVENTS) {
		c = s->filling = publish(s, c);
		if (!c)
			return -1;
	}
	dst = &c->ev[c->n];
	str = &c->str[c->n];
	*dst = *ev;
	c->key[c->n] = s->walk.key;
	/* the strings live in the walker's scratch: give them the slot's */
	switch (ev->kind) {
	case ET_EV_SCHED_SWITCH:
		memcpy(str->a, ev->sw.prev_comm, strnlen(ev->sw.prev_comm, ET_COMM_LEN) + 1);
		memcpy(str->b, ev->sw.next_comm, strnlen(ev->sw.next_comm, ET_COMM_LEN) + 1);
		str->a[ET_COMM_LEN] = str->b[ET_COMM_LEN] = '\0';
		dst->sw.prev_comm = str->a;
		dst->sw.next_comm = str->b;
		break;
	case ET_EV_TASK_EXIT:
	case ET_EV_TASK_NEW:
	case ET_EV_COMM:
		if (ev->task.comm) {
			snprintf(str->a, sizeof(str->a), "%s", ev->task.comm);
			dst->task.comm = str->a;
		}
		if (ev->task.old_comm) {
			snprintf(str->b, sizeof(str->b), "%s", ev->task.old_comm);
			dst->task.old_comm = str->b;
		}
		break;
	case ET_EV_SUMMARY: {
		uint64_t *d = c->deltas + (size_t)c->n * s->nr_delta;

		memcpy(d, ev->summary.delta, s->nr_delta * sizeof(*d));
		dst->summary.delta = d;
		break;
	}
	default:
		break;
	}
	c->n++;
	return 0;
}

static void *reader_main(void *arg)
{
	struct stream *s = arg;
	int ret = -1;

	s->filling = publish(s, NULL);
	if (s->filling)
		ret = walk_cpus(s->trace, s->handle, s->cpus, s->nr_cpus, &s->walk);
	if (!ret && s->filling && s->filling->n) {
		/* the last, partly filled chunk; the fresh one is freed at the end */
		s->filling = publish(s, s->filling);
		if (!s->filling)
			ret = -1;
	}
	pthread_mutex_lock(&s->lock);
	s->ret = ret;
	s->done = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Merge side: make the stream's next event readable at reading[pos];
 * false when the stream has ended (*failed: on an error).
 */
static bool refill(struct stream *s, bool *failed)
{
	pthread_mutex_lock(&s->lock);
	if (s->reading) {
		/* recycle the consumed chunk */
		s->reading->next = s->free;
		s->free = s->reading;
		s->reading = NULL;
	}
	while (!s->head && !s->done)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->head) {
		s->reading = s->head;
		s->head = s->head->next;
		if (!s->head)
			s->tail = NULL;
		s->queued--;
		s->pos = 0;
		pthread_cond_broadcast(&s->cond);
	} else if (s->ret) {
		*failed = true;
	}
	pthread_mutex_unlock(&s->lock);
	return s->reading && s->reading->n;
}

static void stream_stop(struct stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static int walk_threads(struct et_trace *t, const int *cpus, int ncpus, int readers,
			et_event_fn fn, void *data)
{
	struct stream *st = calloc(readers, sizeof(*st));
	struct merge m = { 0 };
	int started = 0, ret = 0, i;
	bool failed = false;

	if (!st || merge_init(&m, readers)) {
		free(st);
		merge_free(&m);
		return -1;
	}
	for (i = 0; i < readers; i++) {
		struct stream *s = &st[i];

		s->trace = t;
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->cond, NULL);
		s->cpus = calloc(ncpus / readers + 1, sizeof(int));
		if (!s->cpus)
			goto fail;
		for (int c = i; c < ncpus; c += readers)
			s->cpus[s->nr_cpus++] = cpus[c];
		if (et_walk_init(t, &s->walk, push, s))
			goto fail;
		s->nr_delta = s->walk.scratch.su_buf ? ET_STAGE_KERNEL_NR : 0;
		if (!t->direct) {
			/* libtracecmd shares nothing between handles, and needs that */
			s->handle = et_trace_reopen(t);
			if (!s->handle)
				goto fail;
		}
	}
	for (; started < readers; started++)
		if (pthread_create(&st[started].thread, NULL, reader_main, &st[started]))
			goto fail;

	for (i = 0; i < readers; i++)
		if (refill(&st[i], &failed))
			merge_add(&m, i, st[i].reading->key[0], st[i].reading->ev[0].cpu);
	merge_build(&m);
	while (!failed) {
		int k = merge_top(&m);
		struct stream *s;

		if (k < 0)
			break;
		s = &st[k];
		ret = fn(&s->reading->ev[s->pos], data);
		if (ret)
			break;
		if (++s->pos < s->reading->n || refill(s, &failed))
			merge_update_top(&m, s->reading->key[s->pos], s->reading->ev[s->pos].cpu);
		else
			merge_remove_top(&m);
	}
	if (failed)
		ret = -1;
	goto out;
fail:
	ret = -1;
out:
	for (i = 0; i < started; i++) {
		stream_stop(&st[i]);
		pthread_join(st[i].thread, NULL);
	}
	for (i = 0; i < readers; i++) {
		struct stream *s = &st[i];
		struct chunk *c, *n;

		for (c = s->head; c; c = n) {
			n = c->next;
			chunk_free(c);
		}
		for (c = s->free; c; c = n) {
			n = c->next;
			chunk_free(c);
		}
		chunk_free(s->reading);
		chunk_free(s->filling);
		if (s->handle)
			tracecmd_close(s->handle);
		et_walk_fini(t, &s->walk);
		free(s->cpus);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
	}
	free(st);
	merge_free(&m);
	return ret;
}

/* ------------------------------------------------------------------ */

/* Sum up what each CPU held and what could be read of it. */
static void count_holes(struct et_trace *t)
{
	struct et_trace_counts *c = &t->counts;

	c->pages_unread = 0;
	c->time_back = 0;
	for (int cpu = 0; cpu < t->info.cpus; cpu++) {
		if (c->pages_per_cpu[cpu] > c->pages_read_per_cpu[cpu])
			c->pages_unread += c->pages_per_cpu[cpu] - c->pages_read_per_cpu[cpu];
		c->time_back += c->time_back_per_cpu[cpu];
	}
}

struct progress {
	struct et_trace *t;
	et_event_fn fn;
	void *data;
	unsigned int n;
};

static int with_progress(const struct et_event *ev, void *data)
{
	struct progress *p = data;

	if (!(++p->n & 16383) && p->t->pages_total) {
		uint64_t read = 0;

		for (int c = 0; c < p->t->info.cpus; c++)
			read += __atomic_load_n(&p->t->counts.pages_read_per_cpu[c],
						__ATOMIC_RELAXED);
		p->t->progress(p->t->path, (double)read / (double)p->t->pages_total,
			       p->t->progress_data);
	}
	return p->fn(ev, p->data);
}

static int online_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set))
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/*
 * The tasks running or ready to run on the machine now, besides us:
 * /proc/loadavg's fourth field counts them (ourselves included), at this
 * instant, not as an average.  -1 when it cannot be read.
 */
static int others_runnable(void)
{
	FILE *f = fopen("/proc/loadavg", "re");
	int running = -1, total;
	double a, b, c;

	if (!f)
		return -1;
	if (fscanf(f, "%lf %lf %lf %d/%d", &a, &b, &c, &running, &total) != 5)
		running = -1;
	fclose(f);
	return running > 0 ? running - 1 : running;
}

/*
 * Threads for a walk of ncpus CPUs holding bytes of ring-buffer data.  A
 * reader thread pays for itself only on a core nobody else wants: on a
 * loaded machine the threaded walk took 1.18x the wall time of -j1 (it
 * decodes every CPU on a second thread while the first merges, and both
 * wait for a core).  So: one thread for a small trace, a machine of one
 * CPU, or no idle core now (others runnable >= online - 1); else one more
 * than the readers, at most one reader per CPU with data and no more
 * threads than idle cores and ourselves.
 */
int et_choose_jobs(uint64_t bytes, int ncpus, int online, int others)
{
	int idle = others < 0 ? online - 1 : online - 1 - others, jobs;

	if (online < 2 || bytes < AUTO_MIN_BYTES || idle < 1)
		return 1;
	jobs = ncpus + 1;
	if (jobs > idle + 1)
		jobs = idle + 1;
	return jobs < online ? jobs : online;
}

int et_trace_iterate(struct et_trace *t, et_event_fn fn, void *data)
{
	struct progress prog = { t, fn, data, 0 };
	struct et_walk w;
	int *cpus, ncpus = 0, jobs, ret;
	uint64_t bytes = 0;

	if (t->progress && t->pages_total) {
		fn = with_progress;
		data = &prog;
	}
	et_decoder_activate(&t->dec, t->info.mode);
	cpus = calloc(t->info.cpus ? t->info.cpus : 1, sizeof(*cpus));
	if (!cpus)
		return -1;
	for (int c = 0; c < t->info.cpus; c++) {
		if (!has_data(t, c))
			continue;
		cpus[ncpus++] = c;
		bytes += t->counts.pages_per_cpu[c] * (uint64_t)t->page_size;
	}
	if (t->jobs > 0) {
		jobs = t->jobs;
	} else {
		int online = online_cpus(), others = others_runnable();

		jobs = et_choose_jobs(bytes, ncpus, online, others);
		if (getenv("ENTRYTRACE_DEBUG"))
			fprintf(stderr, "entrytrace: %s: %d thread%s (%llu MB of data on %d CPUs; "
				"%d online, %d other tasks runnable)\n", t->path, jobs,
				jobs == 1 ? "" : "s", (unsigned long long)(bytes >> 20), ncpus,
				online, others);
	}
	if (jobs > 1 && ncpus > 0) {
		ret = walk_threads(t, cpus, ncpus, jobs - 1 < ncpus ? jobs - 1 : ncpus,
				   fn, data);
	} else if (et_walk_init(t, &w, fn, data)) {
		ret = -1;
	} else {
		ret = walk_cpus(t, t->direct ? NULL : t->handle, cpus, ncpus, &w);
		et_walk_fini(t, &w);
	}
	free(cpus);
	count_holes(t);
	/* what the file says it holds, against a whole walk's reading */
	if (!ret)
		et_index_check_walk(t);
	if (t->progress && t->pages_total)
		t->progress(t->path, 1, t->progress_data);
	return ret;
}

void et_trace_set_jobs(struct et_trace *t, int jobs)
{
	t->jobs = jobs;
}

void et_trace_set_progress(struct et_trace *t, et_progress_fn fn, void *data)
{
	t->progress = fn;
	t->progress_data = data;
}
