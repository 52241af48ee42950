/* SPDX-License-Identifier: LGPL-2.1 */
/* libentrytrace internals shared between its files; not installed. */
#ifndef _ET_INTERNAL_H
#define _ET_INTERNAL_H

#include <stddef.h>

#include "entrytrace.h"

struct tep_handle;
struct tep_record;
struct tracecmd_input;

struct tep_handle *et_trace_tep(const struct et_trace *trace);
struct tracecmd_input *et_trace_handle(const struct et_trace *trace);
/* Stage events whose id field disagreed with their name. */
unsigned long long et_trace_abi_errors(const struct et_trace *trace);

#define ET_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 32-bit powerpc syscall names by number (syscalls-ppc32.c, generated). */
extern const char *const et_ppc32_syscalls[];
extern const int et_ppc32_nr_syscalls;

/*
 * A walker decodes the records of some CPUs of a trace and hands each
 * event to fn: the sequential walk has one over all CPUs, the parallel one
 * (reader.c) one per reader thread, on its own libtracecmd handle.  Events'
 * strings point into the walker's scratch, valid during the call.
 */
struct et_walk {
	et_event_fn fn;
	void *data;
	char comm_a[ET_COMM_LEN + 1];
	char comm_b[ET_COMM_LEN + 1];
	uint64_t *su_buf;		/* summary deltas, ns */
	uint64_t records, used, lost_events, lost_unknown;
	uint64_t last_ts;
	unsigned long long abi_errors;
};

/*
 * The kernel's counter ticks at @khz to ns, rounded; khz 0 (PMU stamps):
 * cycles, as they are.
 */
static inline uint64_t et_ticks_ns(uint64_t ticks, uint64_t khz)
{
	if (!khz)
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * 1000000 + khz / 2) / khz);
}

/* The events' stamp_cost, thousandths of a tick at @khz, in ns (cycles). */
static inline double et_stamp_ns(uint64_t milli_ticks, uint64_t khz)
{
	return khz ? milli_ticks * 1000.0 / khz : milli_ticks / 1000.0;
}

int et_walk_init(const struct et_trace *t, struct et_walk *w, et_event_fn fn,
		 void *data);
/* Adds the walker's counts to the trace's. */
void et_walk_fini(struct et_trace *t, struct et_walk *w);
int et_walk_cpus(struct et_trace *t, struct tracecmd_input *handle,
		 const int *cpus, int ncpus, struct et_walk *w);
struct tracecmd_input *et_trace_reopen(const struct et_trace *t);
int et_trace_cpus(const struct et_trace *t);
int et_trace_summary_slots(const struct et_trace *t);
int et_iterate_parallel(struct et_trace *t, int jobs, et_event_fn fn, void *data);

/*
 * Live traces (live.c): the same field resolution and decoding over the
 * running kernel's formats.  tep stays the caller's (freed after
 * et_trace_close); records are decoded one at a time by a walker, and a
 * gap of unknown size can be announced where the reader dropped records.
 */
struct et_trace *et_trace_new_live(struct tep_handle *tep, const char *name,
				   const char *uname, const char *clock, int cpus,
				   enum et_err *err, char *errbuf, size_t errlen);
int et_trace_decode_record(struct et_trace *t, struct et_walk *w,
			   const struct tep_record *rec, int cpu);
int et_trace_decode_gap(struct et_trace *t, struct et_walk *w, int cpu,
			uint64_t ts);

/* Grow *arr (of *cap elements of size sz) to hold at least need. */
int et_grow(void **arr, size_t *cap, size_t need, size_t sz);

/* The histogram add, inlined into the per-syscall paths. */
bool et_hist_reserve(struct et_hist *h, uint32_t idx);

static inline uint32_t et_hist_index_inline(uint64_t v)
{
	const uint32_t sub = 1u << ET_HIST_SUB_BITS;
	int shift;

	if (v < 2 * sub)
		return (uint32_t)v;
	shift = 63 - __builtin_clzll(v) - ET_HIST_SUB_BITS;
	return (uint32_t)((shift + 1) * sub + ((v >> shift) - sub));
}

static inline bool et_hist_add_inline(struct et_hist *h, uint64_t v, uint64_t ts)
{
	uint32_t idx = h->moments_only ? 0 : et_hist_index_inline(v);
	int64_t x;

	if (!h->moments_only) {
		if (__builtin_expect(idx >= h->nr_buckets, 0) &&
		    !et_hist_reserve(h, idx))
			return false;
		h->buckets[idx]++;
	}
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
	return true;
}

#endif /* _ET_INTERNAL_H */
