/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The histogram add, inlined into the per-syscall paths (stats.c); the
 * rest of the histogram is hist.c's, declared with struct et_hist in
 * entrytrace-private.h.
 */
#ifndef _ET_HIST_H
#define _ET_HIST_H

#include "entrytrace-local.h"

/* Make bucket idx one the histogram holds (hist.c). */
bool et_hist_reserve(struct et_hist *h, uint32_t idx);
/*
 * A bucket's bounds in a log-linear histogram of @bits sub-buckets per
 * power of two: ours (ET_HIST_SUB_BITS, et_hist_lower/upper) or the
 * kernel's entry_stage_hist (its event's bits).
 */
uint64_t et_hist_lower_bits(uint32_t idx, uint32_t bits);
uint64_t et_hist_upper_bits(uint32_t idx, uint32_t bits);

static inline uint32_t et_hist_index_inline(uint64_t v)
{
	const uint32_t sub = 1u << ET_HIST_SUB_BITS;
	int shift;

	if (v < 2 * sub)
		return (uint32_t)v;
	shift = 63 - __builtin_clzll(v) - ET_HIST_SUB_BITS;
	return (uint32_t)((shift + 1) * sub + ((v >> shift) - sub));
}

/* The count, extremes and moments of an add; the buckets are the caller's. */
static inline void et_hist_add_moments_inline(struct et_hist *h, uint64_t v, uint64_t ts)
{
	int64_t x;

	if (__builtin_expect(!h->count, 0)) {
		h->shift = v;
		h->min = h->max = v;
		h->min_ts = h->max_ts = ts;
	} else if (v < h->min) {
		h->min = v;
		h->min_ts = ts;
	} else if (v > h->max) {
		h->max = v;
		h->max_ts = ts;
	}
	h->count++;
	h->total += v;
	/* |v - shift| < 2^63 for any nanosecond duration: one 64x64 multiply */
	x = (int64_t)(v - h->shift);
	h->sum += x;
	h->sumsq += (unsigned __int128)((__int128)x * x);
}

static inline bool et_hist_add_inline(struct et_hist *h, uint64_t v, uint64_t ts)
{
	if (!h->moments_only) {
		uint32_t idx = et_hist_index_inline(v);

		if (__builtin_expect(idx - h->first >= h->nr_buckets - h->first, 0) &&
		    !et_hist_reserve(h, idx))
			return false;
		h->buckets[idx - h->first]++;
	}
	et_hist_add_moments_inline(h, v, ts);
	return true;
}

#endif /* _ET_HIST_H */
