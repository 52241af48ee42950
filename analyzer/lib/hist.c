// SPDX-License-Identifier: LGPL-2.1
/*
 * Log-linear histogram (HDR style): values below 2^(B+1) have a bucket of
 * their own; above, each power of two is split into 2^B equal buckets.
 * With B = ET_HIST_SUB_BITS = 7 a bucket spans at most 1/128 of its lower
 * bound, and reporting its midpoint bounds the relative error by 1/256.
 * The buckets held are those of the powers of two from the smallest value
 * seen to the largest, so memory depends on the range of the data, not on
 * how many values were added.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define SUB (1u << ET_HIST_SUB_BITS)

uint32_t et_hist_index(uint64_t v)
{
	return et_hist_index_inline(v);
}

uint64_t et_hist_lower_bits(uint32_t idx, uint32_t bits)
{
	uint32_t sub = 1u << bits, shift;

	if (idx < 2 * sub)
		return idx;
	shift = idx / sub - 1;
	return (uint64_t)(sub + idx % sub) << shift;
}

uint64_t et_hist_upper_bits(uint32_t idx, uint32_t bits)
{
	uint32_t sub = 1u << bits, shift;

	if (idx < 2 * sub)
		return idx;
	shift = idx / sub - 1;
	return et_hist_lower_bits(idx, bits) + ((1ull << shift) - 1);
}

uint64_t et_hist_lower(uint32_t idx)
{
	return et_hist_lower_bits(idx, ET_HIST_SUB_BITS);
}

uint64_t et_hist_upper(uint32_t idx)
{
	return et_hist_upper_bits(idx, ET_HIST_SUB_BITS);
}

void et_hist_init(struct et_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/*
 * Hold bucket idx: the buckets held grow to the start or the end of idx's
 * power of two, no further (one far outlier would otherwise double a
 * cell's buckets, or a cell of microseconds hold every nanosecond's).
 */
bool et_hist_reserve(struct et_hist *h, uint32_t idx)
{
	uint32_t first, end, held = h->buckets ? h->nr_buckets - h->first : 0;
	uint64_t *b;

	if (h->buckets && idx >= h->first && idx < h->nr_buckets)
		return true;
	first = idx & ~(SUB - 1);
	end = (idx | (SUB - 1)) + 1;
	if (h->buckets) {
		first = first < h->first ? first : h->first;
		end = end > h->nr_buckets ? end : h->nr_buckets;
	}
	b = realloc(h->buckets, (size_t)(end - first) * sizeof(*b));
	if (!b)
		return false;
	if (h->buckets && first < h->first) {
		memmove(b + (h->first - first), b, held * sizeof(*b));
		memset(b, 0, (h->first - first) * sizeof(*b));
		held += h->first - first;
	}
	memset(b + held, 0, (end - first - held) * sizeof(*b));
	h->buckets = b;
	h->first = first;
	h->nr_buckets = end;
	return true;
}

bool et_hist_add(struct et_hist *h, uint64_t v, uint64_t ts)
{
	return et_hist_add_inline(h, v, ts);
}

bool et_hist_merge(struct et_hist *dst, const struct et_hist *src)
{
	if (!src->count)
		return true;
	if (src->moments_only)
		dst->moments_only = true;
	if (src->mean_only)
		dst->mean_only = true;
	if (!dst->moments_only && src->buckets) {
		if (!et_hist_reserve(dst, src->first) ||
		    !et_hist_reserve(dst, src->nr_buckets - 1))
			return false;
		for (uint32_t i = src->first; i < src->nr_buckets; i++)
			dst->buckets[i - dst->first] += src->buckets[i - src->first];
	}
	if (!dst->count || src->min < dst->min) {
		dst->min = src->min;
		dst->min_ts = src->min_ts;
	}
	if (!dst->count || src->max > dst->max) {
		dst->max = src->max;
		dst->max_ts = src->max_ts;
	}
	if (!dst->count) {
		dst->shift = src->shift;
		dst->sum = src->sum;
		dst->sumsq = src->sumsq;
	} else {
		/* re-base src's moments from src->shift onto dst->shift */
		__int128 d = (__int128)src->shift - (__int128)dst->shift;
		__int128 n = (__int128)src->count;

		dst->sum += src->sum + n * d;
		dst->sumsq += src->sumsq + (unsigned __int128)(2 * d * src->sum) +
			      (unsigned __int128)(n * d * d);
	}
	dst->count += src->count;
	dst->total += src->total;
	return true;
}

uint64_t et_hist_quantile(const struct et_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count || h->moments_only)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (uint32_t i = h->first; i < h->nr_buckets; i++) {
		seen += h->buckets[i - h->first];
		if (seen >= rank) {
			uint64_t lo = et_hist_lower(i), hi = et_hist_upper(i);
			uint64_t mid = lo + (hi - lo) / 2;

			/* the exact extremes are known: never report past them */
			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double et_hist_mean(const struct et_hist *h)
{
	if (!h->count)
		return 0;
	return (double)h->shift + (double)((long double)h->sum / h->count);
}

/*
 * Sample standard deviation from the exact moments: n*sumsq - sum^2 is
 * computed in 128-bit integers when it fits (always, unless values spread
 * over more than ~2^40 ns across ~2^40 samples), else in long double.
 */
double et_hist_stddev(const struct et_hist *h)
{
	unsigned __int128 nsq, s2;
	__int128 sum = h->sum < 0 ? -h->sum : h->sum;
	long double n = h->count, num;

	if (h->count < 2)
		return 0;
	if (!__builtin_mul_overflow(h->sumsq, (unsigned __int128)h->count, &nsq) &&
	    !__builtin_mul_overflow((unsigned __int128)sum, (unsigned __int128)sum, &s2) &&
	    nsq >= s2)
		num = (long double)(nsq - s2) / n;
	else
		num = (long double)h->sumsq - (long double)h->sum * (long double)h->sum / n;
	return num > 0 ? (double)sqrtl(num / (n - 1)) : 0;
}

void et_hist_fini(struct et_hist *h)
{
	bool moments_only = h->moments_only;

	free(h->buckets);
	memset(h, 0, sizeof(*h));
	h->moments_only = moments_only;
}

struct et_hist *et_hist_alloc(void)
{
	return calloc(1, sizeof(struct et_hist));
}

void et_hist_free(struct et_hist *h)
{
	if (!h)
		return;
	free(h->buckets);
	free(h);
}

uint64_t et_hist_count(const struct et_hist *h)
{
	return h->count;
}

uint64_t et_hist_min(const struct et_hist *h)
{
	return h->min;
}

uint64_t et_hist_max(const struct et_hist *h)
{
	return h->max;
}

uint64_t et_hist_min_ts(const struct et_hist *h)
{
	return h->min_ts;
}

uint64_t et_hist_max_ts(const struct et_hist *h)
{
	return h->max_ts;
}

uint64_t et_hist_total(const struct et_hist *h)
{
	return h->total;
}

bool et_hist_has_quantiles(const struct et_hist *h)
{
	return !h->moments_only;
}

int et_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * sz);
	if (!p)
		return -1;
	memset((char *)p + *cap * sz, 0, (n - *cap) * sz);
	*arr = p;
	*cap = n;
	return 0;
}

/*
 * The step of the clock the values were measured with, as the values show
 * it: on a clock that moves in ~10 ns steps (this project's VMs) durations
 * fall in clusters 10 ns apart ({200, 201}, {210, 211}, ...), on a 1 ns
 * clock they fill every bucket.  Read where the buckets are 4 ns or finer
 * (below 1024 ns): clusters of occupied buckets (each holding at least
 * 1/2000 of the values there), their centres, and the median gap between
 * neighbours; 1 where no three clusters stand apart by 3 ns or more.
 */
uint64_t et_hist_step(const struct et_hist *h)
{
	uint64_t in = 0, floor_n, gaps[64];
	double centre[65], w = 0, wv = 0;
	int nc = 0, ng = 0;
	uint64_t last = 0;
	bool open = false;

	if (h->moments_only || !h->buckets)
		return 1;
	for (uint32_t i = h->first; i < h->nr_buckets && et_hist_lower(i) < 1024; i++)
		in += et_hist_bucket(h, i);
	if (in < 100)
		return 1;
	floor_n = in / 2000 > 2 ? in / 2000 : 2;
	for (uint32_t i = h->first; i < h->nr_buckets && et_hist_lower(i) < 1024 && nc < 65; i++) {
		uint64_t lo = et_hist_lower(i), n = et_hist_bucket(h, i);

		if (n < floor_n)
			continue;
		if (open && lo - last > 2 + (et_hist_upper(i) - lo)) {
			centre[nc++] = wv / w;
			w = wv = 0;
		}
		w += (double)n;
		wv += (double)n * (double)(lo + et_hist_upper(i)) / 2;
		last = lo;
		open = true;
	}
	if (open && nc < 65)
		centre[nc++] = wv / w;
	for (int i = 1; i < nc && ng < 64; i++)
		gaps[ng++] = (uint64_t)(centre[i] - centre[i - 1] + 0.5);
	if (ng < 4)
		return 1;
	/* the median gap: insertion sort of at most 64 */
	for (int i = 1; i < ng; i++)
		for (int j = i; j > 0 && gaps[j] < gaps[j - 1]; j--) {
			uint64_t t = gaps[j];

			gaps[j] = gaps[j - 1];
			gaps[j - 1] = t;
		}
	/*
	 * A clock's steps are regular: most gaps within a fifth of the median
	 * (or a multiple of it, where a tick had no value), and small; the
	 * modes of a distribution of several paths are neither.
	 */
	{
		uint64_t m = gaps[ng / 2];
		int regular = 0;

		if (m < 3 || m > 64)
			return 1;
		for (int i = 0; i < ng; i++) {
			uint64_t k = (gaps[i] + m / 2) / m;
			int64_t off = (int64_t)gaps[i] - (int64_t)(k * m);

			regular += k >= 1 && 5 * (off < 0 ? -off : off) <= (int64_t)m;
		}
		return 4 * regular >= 3 * ng ? m : 1;
	}
}
