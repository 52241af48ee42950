// SPDX-License-Identifier: GPL-2.0
/*
 * Unit checks of libentrytrace pieces that have exact answers: histogram
 * bucket geometry and its error bound against exact quantiles, merging,
 * the numerically stable stddev, and the stage vocabulary's invariants.
 * Prints one "ok - ..." or "not ok - ..." line per check.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-private.h"
#include "entrytrace-kit.h"
#include "entrytrace-local.h"

static int failures;

#define CHECK(cond, ...)                                   \
	do {                                               \
		printf("%s - ", (cond) ? "ok" : "not ok"); \
		printf(__VA_ARGS__);                       \
		printf("\n");                              \
		if (!(cond))                               \
			failures++;                        \
	} while (0)

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void hist_geometry(void)
{
	bool contiguous = true, roundtrip = true;
	uint32_t last = et_hist_index(UINT64_MAX);

	for (uint32_t i = 0; i < last; i++) {
		if (et_hist_upper(i) + 1 != et_hist_lower(i + 1))
			contiguous = false;
		if (et_hist_index(et_hist_lower(i)) != i ||
		    et_hist_index(et_hist_upper(i)) != i)
			roundtrip = false;
	}
	CHECK(contiguous, "histogram buckets tile [0, 2^64) without gaps (%u buckets)", last + 1);
	CHECK(roundtrip, "every bucket's bounds index back to it");
	CHECK(et_hist_index(255) == 255 && et_hist_lower(255) == 255,
	      "values below 256 have buckets of their own");
	for (uint32_t i = 256; i < last; i++) {
		double w = (double)(et_hist_upper(i) - et_hist_lower(i) + 1);

		if (w / (double)et_hist_lower(i) > 1.0 / 128 + 1e-12) {
			CHECK(false, "bucket %u wider than 1/128 of its lower bound", i);
			return;
		}
	}
	CHECK(true, "no bucket is wider than 1/128 of its lower bound");
}

/* Against exact nearest-rank quantiles of a heavy-tailed sample. */
static void hist_error_bound(void)
{
	enum { N = 200000 };
	static const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct et_hist h;
	double worst = 0;

	et_hist_init(&h);
	for (int i = 0; i < N; i++) {
		/* 50 ns .. ~50 ms, log-uniform */
		double e = (double)(rng() % 1000000) / 1000000.0 * 20.0;
		v[i] = (uint64_t)(50.0 * pow(2.0, e));
		et_hist_add(&h, v[i], (uint64_t)i);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t exact = v[(size_t)ceil(qs[k] * N) - 1];
		uint64_t got = et_hist_quantile(&h, qs[k]);
		double err = fabs((double)got - (double)exact) / (double)exact;

		if (err > worst)
			worst = err;
	}
	CHECK(worst <= 1.0 / 256, "quantiles within 1/256 of exact (worst %.5f%%)", worst * 100);
	CHECK(h.min == v[0] && h.max == v[N - 1], "min and max are exact");
	CHECK(et_hist_quantile(&h, 0) == h.min && et_hist_quantile(&h, 1) == h.max,
	      "q=0 and q=1 are min and max");
	et_hist_fini(&h);
	free(v);
}

/*
 * A histogram holds the buckets of the powers of two from its smallest
 * value's to its largest's, and no others.
 */
static void hist_growth(void)
{
	struct et_hist h, m;
	uint32_t sub = 1u << ET_HIST_SUB_BITS, idx = 8 * sub + 6, low = 3 * sub + 5;
	bool zero = true, merged;

	et_hist_init(&h);
	et_hist_add(&h, 100, 1);
	CHECK(h.first == 0 && h.nr_buckets == sub, "100 ns: buckets 0..%u held (0..%u)",
	      h.nr_buckets - 1, sub - 1);
	/* just past 1024 buckets: a doubling would make 2048 */
	et_hist_add(&h, et_hist_lower(idx), 2);
	CHECK(et_hist_index(et_hist_lower(idx)) == idx && h.first == 0 && h.nr_buckets == 9 * sub,
	      "%" PRIu64 " ns (bucket %u): buckets to its power of two's end (%u), not a doubling",
	      et_hist_lower(idx), idx, h.nr_buckets);
	CHECK(et_hist_bucket(&h, et_hist_index(100)) == 1 && et_hist_bucket(&h, idx) == 1 &&
	      et_hist_quantile(&h, 1.0) >= et_hist_lower(idx), "both values in their buckets");
	et_hist_fini(&h);

	/* microseconds only: no bucket of the nanoseconds below them */
	et_hist_add(&h, et_hist_lower(idx), 1);
	CHECK(h.first == 8 * sub && h.nr_buckets == 9 * sub,
	      "%" PRIu64 " ns alone: buckets %u..%u held", et_hist_lower(idx), h.first,
	      h.nr_buckets - 1);
	et_hist_add(&h, et_hist_lower(low), 2);
	for (uint32_t i = 0; i < 9 * sub; i++)
		zero &= et_hist_bucket(&h, i) == (i == idx || i == low);
	CHECK(h.first == 3 * sub && h.nr_buckets == 9 * sub && zero,
	      "then %" PRIu64 " ns: held from its power of two (%u..%u), both counted once",
	      et_hist_lower(low), h.first, h.nr_buckets - 1);
	et_hist_init(&m);
	et_hist_add(&m, 7, 3);
	merged = et_hist_merge(&m, &h);
	CHECK(merged && m.first == 0 && m.nr_buckets == 9 * sub &&
	      et_hist_bucket(&m, 7) == 1 && et_hist_bucket(&m, low) == 1 &&
	      et_hist_bucket(&m, idx) == 1 && et_hist_quantile(&m, 0.5) == et_hist_lower(low) +
	      (et_hist_upper(low) - et_hist_lower(low)) / 2,
	      "merged into one that holds lower buckets: the three values, the median the middle one");
	et_hist_fini(&m);
	et_hist_fini(&h);
}

/*
 * Breakdowns: two tasks whose pids share the stats' cache slot (1 and 5),
 * interleaved, changing CPU and result on the way: every syscall lands in
 * its own task's, CPU's and result's group.
 */
static void stats_groups(void)
{
	struct et_stats *st = et_stats_new(0);
	static const struct { int pid, cpu; long ret; } seq[] = {
		{ 1, 0, 0 }, { 5, 1, 0 }, { 1, 0, 0 }, { 5, 1, -2 }, { 1, 1, 0 },
		{ 5, 1, -2 }, { 1, 1, -9 }, { 5, 0, 0 }, { 1, 0, 0 }, { 5, 0, 0 },
	};
	struct et_syscall sc;
	uint64_t want[3][10] = { { 0 } };	/* [by][key] */
	bool ok = st != NULL;

	for (size_t i = 0; ok && i < sizeof(seq) / sizeof(seq[0]); i++) {
		memset(&sc, 0, sizeof(sc));
		sc.pid = seq[i].pid;
		sc.nr = 39;
		sc.ret = seq[i].ret;
		sc.cpu_enter = sc.cpu_exit = seq[i].cpu;
		snprintf(sc.comm, sizeof(sc.comm), "task%d", seq[i].pid);
		sc.ts_enter = 1000 * (i + 1);
		sc.ts_exit = sc.ts_enter + 100 + i;
		sc.stage_mask = sc.start_mask = 1ull << ET_SLOT_TOTAL;
		sc.ns[ET_SLOT_TOTAL] = 100 + i;
		ok = et_stats_add(st, &sc);
		want[ET_BY_PID][seq[i].pid]++;
		want[ET_BY_CPU][seq[i].cpu]++;
		want[ET_BY_RET][-seq[i].ret]++;
	}
	CHECK(ok, "ten syscalls added");
	for (int by = 0; ok && by < ET_BY_NR_BREAKDOWNS; by++) {
		uint64_t n = 0, bad = 0;

		for (size_t i = 0; i < et_stats_nr_groups(st, by); i++) {
			const struct et_group *g = et_stats_group_at(st, by, i);

			n += et_hist_count(et_group_hist(g));
			bad += et_hist_count(et_group_hist(g)) != want[by][et_group_key(g)];
		}
		CHECK(n == 10 && !bad, "breakdown %d: ten syscalls, each group its own count "
		      "(%" PRIu64 " in all, %" PRIu64 " groups off)", by, n, bad);
	}
	et_stats_free(st);
}

static void hist_merge_and_stddev(void)
{
	enum { N = 100000 };
	struct et_hist a, b, all;
	double mean = 0, m2 = 0, sd;
	uint64_t *v = malloc(N * sizeof(*v));

	et_hist_init(&a);
	et_hist_init(&b);
	et_hist_init(&all);
	/*
	 * Values near 1e12 with a spread of 100: a sum of squares would cancel.
	 * The reference works on the exact offsets from 1e12.
	 */
	for (int i = 0; i < N; i++) {
		v[i] = 1000000000000ull + rng() % 100;
		et_hist_add(i % 3 ? &a : &b, v[i], (uint64_t)i);
		et_hist_add(&all, v[i], (uint64_t)i);
		mean += (double)(v[i] - 1000000000000ull);
	}
	mean /= N;
	for (int i = 0; i < N; i++) {
		double d = (double)(v[i] - 1000000000000ull) - mean;

		m2 += d * d;
	}
	sd = sqrt(m2 / (N - 1));
	et_hist_merge(&a, &b);
	CHECK(a.count == all.count && a.total == all.total && a.min == all.min &&
	      a.max == all.max, "merge keeps count, total, min and max");
	{
		uint32_t lo = a.first < all.first ? a.first : all.first;
		uint32_t hi = a.nr_buckets > all.nr_buckets ? a.nr_buckets : all.nr_buckets;
		bool same = true;

		for (uint32_t i = lo; i < hi; i++)
			same &= et_hist_bucket(&a, i) == et_hist_bucket(&all, i);
		CHECK(same, "merge gives the same buckets as adding everything to one");
	}
	CHECK(fabs(et_hist_stddev(&all) - sd) < 1e-6 * sd,
	      "stddev of 1e12+U(0,100) matches two-pass (%.4f vs %.4f)", et_hist_stddev(&all), sd);
	CHECK(fabs(et_hist_stddev(&a) - sd) < 1e-6 * sd, "merged stddev matches (%.4f)",
	      et_hist_stddev(&a));
	et_hist_fini(&a);
	et_hist_fini(&b);
	et_hist_fini(&all);
	free(v);
}

static void vocabulary(void)
{
	bool unique = true, parents = true, kinds = true, derived_last = true;
	bool work_unique = true;

	for (int i = 0; i < ET_SLOT_NR; i++) {
		const struct et_stage_info *s = &et_stages[i];

		for (int j = 0; j < i; j++)
			if (!strcmp(et_stages[j].name, s->name))
				unique = false;
		if (et_slot_by_name(s->name) != i || et_stage_by_name(s->name) != et_slot_stage(i))
			unique = false;
		if (s->parent != ET_STAGE_NONE &&
		    (s->parent >= i || et_stages[s->parent].phase != s->phase))
			parents = false;
		if ((s->kind == ET_KIND_NOINSTR && s->phase != ET_PHASE_ENTRY) ||
		    (s->kind == ET_KIND_DEFERRED && s->phase != ET_PHASE_EXIT) ||
		    (s->kind == ET_KIND_AGG && s->parent == ET_STAGE_NONE))
			kinds = false;
		if ((s->kind == ET_KIND_DERIVED) != (i >= ET_STAGE_KERNEL_NR))
			derived_last = false;
		if (s->kind != ET_KIND_DERIVED && (s->paths & ET_PATH_S))
			kinds = false;
	}
	for (int i = 0; i < ET_WORK_NR; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(et_work_names[i], et_work_names[j]))
				work_unique = false;
	CHECK(unique, "%d stage names, unique, found by name", ET_SLOT_NR);
	CHECK(parents, "every parent precedes its children, in the same phase");
	CHECK(kinds, "NOINSTR only on entry, DEFERRED only on exit, AGG inside a parent, S only derived");
	CHECK(derived_last, "the %d kernel stages come first, derived ones after", ET_STAGE_KERNEL_NR);
	CHECK(work_unique && ET_WORK_NR <= 24, "%d path signature bits, unique, fit the cell key", ET_WORK_NR);
	CHECK(et_stage_by_name("no-such-stage") == ET_STAGE_NONE, "unknown names are refused");
}

/*
 * Student's t, two-sided, against the tables' critical values: 0.05 at
 * 12.706 (1 df), 4.303 (2), 2.228 (10), 1.960 (normal); 0.01 at 3.169
 * (10); t = 0 gives 1; a half-integer df (Welch's) lies between its
 * neighbours.
 */
static void student_t(void)
{
	static const struct { double t, df, p; } tab[] = {
		{ 12.706, 1, 0.05 }, { 4.303, 2, 0.05 }, { 2.228, 10, 0.05 },
		{ 3.169, 10, 0.01 }, { 1.960, 1e6, 0.05 }, { 63.657, 1, 0.01 },
	};
	double worst = 0;

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double e = fabs(et_student_t_p(tab[i].t, tab[i].df) - tab[i].p) / tab[i].p;

		worst = e > worst ? e : worst;
	}
	CHECK(worst < 1e-3, "Student's t p-values within 0.1%% of the tables (worst %.5f%%)",
	      100 * worst);
	CHECK(et_student_t_p(0, 5) == 1 && et_student_t_p(-2.228, 10) == et_student_t_p(2.228, 10),
	      "t = 0 gives p 1, and p is symmetric in t");
	CHECK(et_student_t_p(2.5, 5.5) < et_student_t_p(2.5, 5) &&
	      et_student_t_p(2.5, 5.5) > et_student_t_p(2.5, 6), "a fractional df lies between");
}

/* The clock's step a histogram's values show (et_hist_step). */
static void clock_step(void)
{
	struct et_hist fine, coarse, modes;

	et_hist_init(&fine);
	et_hist_init(&coarse);
	et_hist_init(&modes);
	/* a 1 ns clock: every value from 150 to 400 */
	for (int i = 0; i < 5000; i++)
		et_hist_add(&fine, 150 + rng() % 250, 0);
	/* ticks of 10.0x ns: 200/201, 210/211, ... (rounding jitter) */
	for (int i = 0; i < 5000; i++)
		et_hist_add(&coarse, 200 + 10 * (rng() % 20) + rng() % 2, 0);
	/* three paths on a 1 ns clock: modes 100 ns apart, no steps */
	for (int i = 0; i < 5000; i++)
		et_hist_add(&modes, 100 * (1 + rng() % 3) + rng() % 6, 0);
	CHECK(et_hist_step(&fine) == 1, "a 1 ns clock's values show step 1 (%llu)",
	      (unsigned long long)et_hist_step(&fine));
	CHECK(et_hist_step(&coarse) == 10, "values in 10 ns ticks show step 10 (%llu)",
	      (unsigned long long)et_hist_step(&coarse));
	CHECK(et_hist_step(&modes) == 1, "three modes 100 ns apart are no clock step (%llu)",
	      (unsigned long long)et_hist_step(&modes));
	et_hist_fini(&fine);
	et_hist_fini(&coarse);
	et_hist_fini(&modes);
}

/* How many threads a walk gets (et_choose_jobs). */
static void jobs(void)
{
	uint64_t big = 64ull << 20, small = 1ull << 20;

	CHECK(et_choose_jobs(small, 2, 2, 0) == 1, "a small trace: one thread");
	CHECK(et_choose_jobs(big, 2, 1, 0) == 1, "one CPU: one thread");
	CHECK(et_choose_jobs(big, 1, 2, 0) == 2, "an idle 2-CPU machine, 1 CPU of data: a reader and the merge");
	CHECK(et_choose_jobs(big, 2, 2, 1) == 1, "2 CPUs, another task runnable: no idle core, one thread");
	CHECK(et_choose_jobs(big, 4, 8, 2) == 5, "8 CPUs, 2 busy, 4 CPUs of data: 4 readers and the merge");
	CHECK(et_choose_jobs(big, 4, 8, 5) == 3, "8 CPUs, 5 busy: as many threads as idle cores and us (3)");
	CHECK(et_choose_jobs(big, 2, 4, -1) == 3, "runnable unknown: the core count decides, as before (3)");
}

/* The kit's JSON reader: what RFC 8259 allows, and only that. */
static bool parses(const char *text)
{
	char err[128];
	struct et_jv *v = et_json_parse(text, strlen(text), err, sizeof(err));

	et_json_free(v);
	return v != NULL;
}

static void json_reader(void)
{
	static const char *const good[] = {
		"{}", "[]", "0", "-0.5e+3", "\"\"", "true", " [1, \"a\", null, false, {\"k\": []}] ",
		"\"\\u00e9\\ud83d\\ude00\"",
	};
	static const char *const bad[] = {
		"", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "nul", "'a'", "{a: 1}", "[1] 2",
		"\"\\ud800\"", "\"\\udc00\"", "\"\\x41\"", "\"tab\there\"", "\"open", "[",
	};
	char deep[200], err[128];
	struct et_jv *v;
	const char *doc = "{\"a\": [1, 2.5], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\", \"t\": true}";
	int ng = 0, nb = 0;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ng += parses(good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		nb += !parses(bad[i]);
	CHECK(ng == (int)(sizeof(good) / sizeof(good[0])), "JSON: every valid text parses (%d)", ng);
	CHECK(nb == (int)(sizeof(bad) / sizeof(bad[0])),
	      "JSON: trailing commas, leading zeros, lone surrogates, raw tabs, bare words refused (%d)",
	      nb);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = 0;
	CHECK(!parses(deep), "JSON: nesting deeper than 64 refused (the stack stays bounded)");
	deep[64] = ']';
	deep[128] = 0;
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	CHECK(parses(deep), "JSON: 64 deep parses");
	v = et_json_parse(doc, strlen(doc), err, sizeof(err));
	CHECK(v && et_jnum(et_jat(et_jget(v, "a"), 1), 0) == 2.5 && et_jtrue(et_jget(v, "t")) &&
	      !strcmp(et_jstr(et_jget(v, "s"), ""), "x\n\xc3\xa9\xf0\x9f\x98\x80"),
	      "JSON: members, numbers, escapes and a surrogate pair decoded to UTF-8");
	et_json_free(v);
	v = et_json_parse("{\"a\": [1,, 2]}", 14, err, sizeof(err));
	CHECK(!v && !strcmp(err, "byte 9: expected a value"), "JSON: an error names its byte (%s)",
	      err);
}

int main(void)
{
	clock_step();
	jobs();
	hist_geometry();
	hist_error_bound();
	hist_merge_and_stddev();
	hist_growth();
	stats_groups();
	vocabulary();
	student_t();
	json_reader();
	return failures ? 1 : 0;
}
