// SPDX-License-Identifier: GPL-2.0
/*
 * diff-split: calibrate 'entrytrace diff' on real data.
 *
 * The complete syscalls of one recording are dealt at random (seeded) into
 * two halves - the same kernel, the same moment, the same distribution - and
 * the halves are diffed.  Random, not alternating: a loop's consecutive
 * syscalls can differ with period two (seen in user_gap here), which strict
 * alternation would turn into a real difference between the halves.  Optionally SHIFT ns are added to STAGE (and to the
 * total) of every syscall of the second half, a known injected delay.
 *
 *   diff-split FILE                      null: how many cells come out significant
 *                                        (DIFF_SPLIT_SPLITS=N: N different random
 *                                        splits, and how many had any)
 *   diff-split FILE STAGE SHIFT          one injected shift: detected? CI covers it?
 *   diff-split FILE STAGE --sensitivity  the smallest shift detected, per syscall
 *
 * Output is one line per result, "key value ...", for scripts and tests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the library's own tier: a shift is injected into a copy of a syscall */
#include "entrytrace-local.h"

static uint64_t split_seed;

struct split {
	struct et_stats *half[2];
	unsigned long n;
	uint64_t rng;
	int stage;
	uint64_t shift;
	bool ok;
};

static void deal(const struct et_syscall *sc, void *data)
{
	struct split *s = data;
	struct et_syscall copy;
	int h;

	if (sc->flags & ET_SC_INCOMPLETE)
		return;
	s->n++;
	s->rng ^= s->rng << 13;	/* xorshift64 */
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	h = (s->rng >> 32) & 1;
	if (h && s->shift && et_sc_has(sc, s->stage)) {
		copy = *sc;
		copy.ns[s->stage] += s->shift;
		if (s->stage != ET_SLOT_TOTAL && et_sc_has(&copy, ET_SLOT_TOTAL))
			copy.ns[ET_SLOT_TOTAL] += s->shift;
		sc = &copy;
	}
	if (!et_stats_add(s->half[h], sc))
		s->ok = false;
}

static int load(const char *path, struct split *s)
{
	struct et_timeline *tl;
	struct et_trace *t;
	char err[256];
	enum et_err e;

	t = et_trace_open(path, &e, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "diff-split: %s\n", err);
		return -1;
	}
	s->half[0] = et_stats_new(ET_STATS_BY_WORK);
	s->half[1] = et_stats_new(ET_STATS_BY_WORK);
	s->ok = true;
	tl = et_timeline_new(t, deal, s);
	if (!tl || !s->half[0] || !s->half[1] ||
	    et_trace_iterate(t, et_timeline_feed, tl) < 0) {
		et_timeline_free(tl);
		et_trace_close(t);
		return -1;
	}
	et_timeline_finish(tl);
	et_timeline_free(tl);
	et_trace_close(t);
	return s->ok ? 0 : -1;
}

static void free_split(struct split *s)
{
	et_stats_free(s->half[0]);
	et_stats_free(s->half[1]);
	memset(s, 0, sizeof(*s));
}

static int run(const char *path, int stage, uint64_t shift, struct et_diff *df,
	       struct split *s)
{
	struct et_diff_opts o = { .bootstrap = 1000, .seed = 1, .alpha = 0.05 };

	s->stage = stage;
	s->shift = shift;
	s->rng = 0x9e3779b97f4a7c15ull * (2 * split_seed + 1);
	if (load(path, s))
		return -1;
	return et_diff(s->half[0], s->half[1], ET_PATH_G, ET_PATH_G, &o, df);
}

int main(int argc, char **argv)
{
	struct et_diff df;
	struct split s = { 0 };
	int stage = -1;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: diff-split FILE [STAGE SHIFT|--sensitivity]\n");
		return 2;
	}
	if (argc == 4) {
		stage = et_slot_by_name(argv[2]);
		if (stage < 0) {
			fprintf(stderr, "diff-split: unknown stage %s\n", argv[2]);
			return 2;
		}
	}

	if (argc == 2) {
		const char *env = getenv("DIFF_SPLIT_SPLITS");
		unsigned long splits = env ? strtoul(env, NULL, 0) : 1, with = 0;
		size_t sig = 0;

		for (split_seed = 0; split_seed < (splits ? splits : 1); split_seed++) {
			size_t here = 0;

			memset(&s, 0, sizeof(s));
			if (run(argv[1], 0, 0, &df, &s))
				return 1;
			for (size_t i = 0; i < df.nr_cells; i++)
				if (df.cells[i].significant) {
					here++;
					printf("significant %d %s p_adj %g\n", df.cells[i].nr,
					       et_stages[df.cells[i].stage].name,
					       df.cells[i].p_adj);
				}
			sig += here;
			with += here > 0;
			printf("tests %zu\n", df.tests);
			et_diff_free(&df);
			free_split(&s);
		}
		printf("significant %zu\nsplits %lu\nsplits_with_significant %lu\n",
		       sig, splits ? splits : 1, with);
		return 0;
	}

	if (strcmp(argv[3], "--sensitivity")) {
		uint64_t shift = strtoull(argv[3], NULL, 0);

		if (run(argv[1], stage, shift, &df, &s))
			return 1;
		/* the syscalls with most values in the stage */
		for (size_t i = 0; i < df.nr_cells; i++) {
			const struct et_diff_cell *c = &df.sorted[i];

			if (c->stage != stage || !c->tested || c->base->count < 100)
				continue;
			printf("cell %d n %llu rank %zu significant %d d_median %.1f ci %.1f %.1f "
			       "d_mean %.1f ci %.1f %.1f\n", c->nr,
			       (unsigned long long)c->base->count, i, c->significant,
			       c->d_median, c->d_median_lo, c->d_median_hi, c->d_mean,
			       c->d_mean_lo, c->d_mean_hi);
		}
		et_diff_free(&df);
		free_split(&s);
		return 0;
	}

	/* bisect the smallest shift detected, per syscall with >= 100 values */
	if (run(argv[1], stage, 0, &df, &s))
		return 1;
	for (size_t i = 0; i < df.nr_cells; i++) {
		const struct et_diff_cell *c0 = &df.cells[i];
		uint64_t lo = 0, hi = 1;
		int nr = c0->nr;
		uint32_t work = c0->work;
		double median = c0->median_base;
		uint64_t n = c0->base ? c0->base->count : 0;

		if (c0->stage != stage || !c0->tested || n < 100)
			continue;
		for (;;) {	/* find a detected upper bound */
			struct et_diff d2;
			struct split s2 = { 0 };
			bool found = false;

			if (run(argv[1], stage, hi, &d2, &s2))
				return 1;
			for (size_t k = 0; k < d2.nr_cells; k++)
				if (d2.cells[k].nr == nr && d2.cells[k].work == work &&
				    d2.cells[k].stage == stage && d2.cells[k].significant)
					found = true;
			et_diff_free(&d2);
			free_split(&s2);
			if (found || hi > 1000000000)
				break;
			lo = hi;
			hi *= 2;
		}
		while (hi - lo > 1 && hi - lo > hi / 50) {
			uint64_t mid = lo + (hi - lo) / 2;
			struct et_diff d2;
			struct split s2 = { 0 };
			bool found = false;

			if (run(argv[1], stage, mid, &d2, &s2))
				return 1;
			for (size_t k = 0; k < d2.nr_cells; k++)
				if (d2.cells[k].nr == nr && d2.cells[k].work == work &&
				    d2.cells[k].stage == stage && d2.cells[k].significant)
					found = true;
			et_diff_free(&d2);
			free_split(&s2);
			if (found)
				hi = mid;
			else
				lo = mid;
		}
		printf("sensitivity %d n %llu median %.0f smallest_detected %llu\n", nr,
		       (unsigned long long)n, median, (unsigned long long)hi);
	}
	et_diff_free(&df);
	free_split(&s);
	return 0;
}
