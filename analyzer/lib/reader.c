// SPDX-License-Identifier: LGPL-2.1
/*
 * Parallel reading: R reader threads, each with its own libtracecmd handle
 * on the file, so the library shares no state between threads.  Reader i
 * walks CPUs i, i+R, i+2R, ... in timestamp order (et_walk_cpus) and fills
 * chunks of decoded events; the calling thread merges the R ordered streams
 * by (timestamp, CPU), the same order as the one-thread walk, and calls the
 * user's function for each event.  Record decoding, decompression of zstd
 * chunks and page handling thus run on R cores; the timeline stays on one.
 *
 * Each stream is a bounded queue of chunks: a reader waits while its queue
 * is full, the merge waits while a stream it needs is empty.  A reader only
 * ever fills its own stream, and the merge only waits for an empty one, so
 * the two cannot wait on each other.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "entrytrace.h"
#include "internal.h"

#define CHUNK_EVENTS 2048
#define QUEUE_CHUNKS 4

struct slot_strings {
	char a[ET_COMM_LEN + 1];
	char b[ET_COMM_LEN + 1];
};

struct chunk {
	int n;
	struct et_event ev[CHUNK_EVENTS];
	struct slot_strings str[CHUNK_EVENTS];
	uint64_t *deltas;		/* CHUNK_EVENTS x nr_delta, summaries */
	struct chunk *next;
};

struct stream {
	struct et_trace *trace;
	pthread_t thread;
	struct tracecmd_input *handle;
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
	bool stop;			/* merge asks the reader to give up */
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

/* et_event_fn of the reader's walker: copy the event into the chunk. */
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
	/* the strings live in the walker's scratch: give them the slot's */
	switch (ev->kind) {
	case ET_EV_SCHED_SWITCH:
		snprintf(str->a, sizeof(str->a), "%s", ev->sw.prev_comm);
		snprintf(str->b, sizeof(str->b), "%s", ev->sw.next_comm);
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
		ret = et_walk_cpus(s->trace, s->handle, s->cpus, s->nr_cpus, &s->walk);
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
 * Merge side: the stream's next event, or NULL when it has ended.  *failed
 * is set when the reader stopped on an error.
 */
static const struct et_event *peek(struct stream *s, bool *failed)
{
	if (s->reading && s->pos < s->reading->n)
		return &s->reading->ev[s->pos];

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
	return s->reading && s->reading->n ? &s->reading->ev[0] : NULL;
}

static bool earlier(const struct et_event *a, const struct et_event *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

static void stream_stop(struct stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

int et_iterate_parallel(struct et_trace *t, int jobs, et_event_fn fn, void *data)
{
	int ncpu = et_trace_cpus(t), started = 0, ret = 0;
	struct stream *st;
	bool failed = false;

	if (jobs > ncpu)
		jobs = ncpu;
	st = calloc(jobs, sizeof(*st));
	if (!st)
		return -1;
	for (int i = 0; i < jobs; i++) {
		struct stream *s = &st[i];

		s->trace = t;
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->cond, NULL);
		s->cpus = calloc(ncpu / jobs + 1, sizeof(int));
		if (!s->cpus)
			goto fail;
		for (int c = i; c < ncpu; c += jobs)
			s->cpus[s->nr_cpus++] = c;
		if (et_walk_init(t, &s->walk, push, s))
			goto fail;
		s->nr_delta = 0;
		if (s->walk.su_buf)
			s->nr_delta = et_trace_summary_slots(t);
		s->handle = et_trace_reopen(t);
		if (!s->handle)
			goto fail;
	}
	for (; started < jobs; started++)
		if (pthread_create(&st[started].thread, NULL, reader_main, &st[started]))
			goto fail;

	for (;;) {
		const struct et_event *best = NULL, *ev;
		struct stream *from = NULL;

		for (int i = 0; i < jobs; i++) {
			ev = peek(&st[i], &failed);
			if (ev && (!best || earlier(ev, best))) {
				best = ev;
				from = &st[i];
			}
		}
		if (failed) {
			ret = -1;
			break;
		}
		if (!best)
			break;
		from->pos++;
		ret = fn(best, data);
		if (ret)
			break;
	}
	goto out;
fail:
	ret = -1;
out:
	for (int i = 0; i < started; i++) {
		stream_stop(&st[i]);
		pthread_join(st[i].thread, NULL);
	}
	for (int i = 0; i < jobs; i++) {
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
	return ret;
}
