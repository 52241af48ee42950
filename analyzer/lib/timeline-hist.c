// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline, aggregation (entry_stage_hist): the kernel kept no syscall,
 * only per-CPU cells of (syscall, path signature), flushed as one event
 * per stage and a last one for the span.  A cell's stages are held until
 * its span arrives, then each goes to the sink as an ET_SC_CELL record:
 * in ns, less the stamps' own cost as the summary mode takes it off one
 * syscall at a time.  Here the children a stage held are known only as
 * counts over the cell, so a stage loses c plus, per syscall on average,
 * 2c for each descendant occurrence (an AGG pair's cost for an AGG one);
 * the total, which the kernel keeps per syscall as the span and the
 * top-level deferred stages after it but emit, less one stamp and those cuts of
 * the top-level stages.  Exact when every syscall of the cell ran the
 * same stages (a path signature fixes the optional ones), an average
 * otherwise.  A stage's cell has moments (count, mean, spread, min, max),
 * or from ABI 4 on its count and mean alone (the kernel keeps no spread);
 * the total has the kernel's histogram, its buckets at their midpoints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline-local.h"
#include "hist.h"

struct tl_hist_pend {
	bool open;
	int cpu, nr;
	uint32_t work;
	uint64_t have;			/* stage ids held */
	struct et_event cells[ET_SLOT_NR];
	struct et_syscall sc;		/* the record handed to the sink */
	struct et_agg_cell agg;
};

static uint64_t round_ns(double v)
{
	return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

/* ticks (cycles) to ns: the events' khz */
static double per_tick(const struct et_event *ev)
{
	return ev->hist.khz ? 1e6 / (double)ev->hist.khz : 1.0;
}

/*
 * The moments of v = f * t - cut over the cell's values t (kernel units):
 * shifted to the smallest, so that they stay exact in integers.
 */
static void moments(struct et_timeline *tl, struct et_hist *h, const struct et_event *ev,
		    double cut, double f)
{
	long double n = (long double)ev->hist.count, k, sum, sumsq;

	h->count = ev->hist.count;
	h->total = round_ns(f * (double)ev->hist.sum - cut * (double)ev->hist.count);
	if (ev->hist.mean_only) {
		/*
		 * count, mean and total: no spread, no extremes (min, max 0).
		 * A stage shorter than the stamps cut from it reads 0, as the
		 * summary mode reads it one syscall at a time, and as the total
		 * above does.
		 */
		long double s = (long double)f * ev->hist.sum - (long double)cut * n;

		tl->counts.hist_mean_only++;
		h->mean_only = true;
		h->sum = s > 0 ? (__int128)llroundl(s) : 0;
		h->sumsq = 0;
		return;
	}
	h->min = round_ns(f * ev->hist.min - cut);
	h->max = round_ns(f * ev->hist.max - cut);
	h->min_ts = h->max_ts = ev->ts;
	h->shift = h->min;
	k = (long double)cut + (long double)h->shift;
	sum = (long double)f * ev->hist.sum - k * n;
	if (ev->hist.sumsq == UINT64_MAX) {
		tl->counts.hist_saturated++;
		sumsq = sum * sum / n;
	} else {
		sumsq = (long double)f * f * ev->hist.sumsq -
			2 * (long double)f * k * ev->hist.sum + n * k * k;
		if (sumsq < sum * sum / n)	/* rounding: no negative spread */
			sumsq = sum * sum / n;
	}
	h->sum = (__int128)llroundl(sum);
	h->sumsq = (unsigned __int128)(sumsq > 0 ? sumsq + 0.5L : 0);
}

/* What a stage's value holds of the stamps, per syscall on average. */
static double stage_cut(const struct et_timeline *tl, const struct tl_hist_pend *p, int st)
{
	double c = tl->stamp_ns;
	double a = tl->agg_ns > 0 ? tl->agg_ns : c, n = (double)p->cells[st].hist.count, cut;

	if (tl->raw_stamps || c <= 0)
		return 0;
	if (et_stages[st].kind == ET_KIND_AGG)
		return c * (double)p->cells[st].hist.agg / n;
	cut = c;
	for (uint64_t k = tl->kids[st] & p->have; k; k &= k - 1) {
		int d = __builtin_ctzll(k);
		const struct et_event *e = &p->cells[d];

		cut += et_stages[d].kind == ET_KIND_AGG ? a * (double)e->hist.agg / n :
			2 * c * (double)e->hist.count / n;
	}
	return cut;
}

static void to_sink(struct et_timeline *tl, struct tl_hist_pend *p, int stage,
		    uint64_t occurrences)
{
	struct et_syscall *sc = &p->sc;

	sc->pid = -1;
	sc->nr = p->nr;
	sc->work = p->work;
	sc->flags = ET_SC_CELL;
	sc->stage_mask = 1ull << stage;
	sc->cpu_enter = sc->cpu_exit = p->cpu;
	sc->cell = &p->agg;
	p->agg.occurrences = occurrences;
	tl->sink(sc, tl->data);
	et_hist_fini(&p->agg.hist);
}

/* The total's histogram, shifted by k ns, into h (its buckets' midpoints). */
static bool span_hist(struct et_timeline *tl, struct et_hist *h, const struct et_event *ev,
		      double f, double k)
{
	uint64_t seen = 0;

	moments(tl, h, ev, -k, f);
	for (uint32_t i = 0; i < ev->hist.nr_buckets; i++) {
		uint32_t b = ev->hist.buckets[i], idx;
		uint64_t lo, hi, mid;

		if (!b)
			continue;
		lo = et_hist_lower_bits(ev->hist.lo + i, ev->hist.bits);
		hi = et_hist_upper_bits(ev->hist.lo + i, ev->hist.bits);
		mid = lo + (hi - lo) / 2;
		if (mid < ev->hist.min)
			mid = ev->hist.min;
		if (mid > ev->hist.max)
			mid = ev->hist.max;
		idx = et_hist_index(round_ns(f * (double)mid + k));
		if (!et_hist_reserve(h, idx))
			return false;
		h->buckets[idx - h->first] += b;
		seen += b;
	}
	/* buckets that do not add up to the count: the cell is damaged */
	return seen == ev->hist.count;
}

static void pend_flush(struct et_timeline *tl, struct tl_hist_pend *p, const struct et_event *span)
{
	double f = per_tick(span), c = tl->raw_stamps ? 0 : tl->stamp_ns, k = -c;
	double n = (double)span->hist.count, cut[ET_SLOT_NR];

	for (uint64_t m = p->have; m; m &= m - 1) {
		int st = __builtin_ctzll(m);

		cut[st] = stage_cut(tl, p, st);
	}
	/*
	 * The kernel's total is the span and the top-level deferred stages:
	 * each top-level stage's cut, in the share of the totals it ran in
	 * (its count also has the syscalls whose tail never came: at most 1)
	 */
	for (uint64_t m = n > 0 ? p->have : 0; m; m &= m - 1) {
		int st = __builtin_ctzll(m);
		double share = (double)p->cells[st].hist.count / n;

		if (et_stages[st].parent != ET_STAGE_NONE || st == ET_STAGE_EMIT)
			continue;
		k -= cut[st] * (share < 1 ? share : 1);
	}
	for (uint64_t m = p->have; m; m &= m - 1) {
		int st = __builtin_ctzll(m);

		et_hist_init(&p->agg.hist);
		p->agg.hist.moments_only = true;
		moments(tl, &p->agg.hist, &p->cells[st], cut[st], per_tick(&p->cells[st]));
		to_sink(tl, p, st, p->cells[st].hist.agg);
	}
	/* no total: the tails of the cell's syscalls never came */
	if (span->hist.count) {
		et_hist_init(&p->agg.hist);
		if (span_hist(tl, &p->agg.hist, span, f, k)) {
			tl->counts.hist_syscalls += span->hist.count;
			to_sink(tl, p, ET_SLOT_TOTAL, 0);
		} else {
			((struct et_trace *)tl->trace)->counts.abi_errors++;
			et_hist_fini(&p->agg.hist);
		}
	}
	p->open = false;
	p->have = 0;
}

/* Stage cells whose span never came: counted and left out. */
static void pend_drop(struct et_timeline *tl, struct tl_hist_pend *p)
{
	uint64_t n = (uint64_t)__builtin_popcountll(p->have);

	tl->counts.hist_orphans += n;
	((struct et_trace *)tl->trace)->counts.abi_errors += n;
	p->open = false;
	p->have = 0;
}

void tl_hist_event(struct et_timeline *tl, const struct et_event *ev)
{
	struct tl_hist_pend *p = tl->hist;

	if (!p) {
		p = tl->hist = calloc(1, sizeof(*p));
		if (!p) {
			tl->counts.hist_orphans++;
			return;
		}
	}
	tl->counts.hist_cells++;
	if (ev->hist.dropped > tl->counts.hist_dropped)
		tl->counts.hist_dropped = ev->hist.dropped;
	if (ev->hist.sample)
		tl->sample = tl->counts.sample = ev->hist.sample;
	if (ev->hist.stamp_ns > 0)
		tl->stamp_ns = tl->counts.stamp_ns = ev->hist.stamp_ns;
	if (ev->hist.agg_ns > 0)
		tl->agg_ns = tl->counts.agg_ns = ev->hist.agg_ns;
	tl->counts.pmu |= !ev->hist.khz;
	if (p->open && (p->cpu != ev->hist.cpu || p->nr != ev->hist.nr ||
			p->work != ev->hist.work))
		pend_drop(tl, p);
	if (!p->open) {
		p->open = true;
		p->cpu = ev->hist.cpu;
		p->nr = ev->hist.nr;
		p->work = ev->hist.work;
	}
	if (ev->hist.stage == ET_SLOT_TOTAL) {
		pend_flush(tl, p, ev);
		return;
	}
	if (p->have & (1ull << ev->hist.stage)) {
		/* the stage twice: the first is left out */
		tl->counts.hist_orphans++;
		((struct et_trace *)tl->trace)->counts.abi_errors++;
	}
	p->cells[ev->hist.stage] = *ev;
	p->cells[ev->hist.stage].hist.buckets = NULL;
	p->have |= 1ull << ev->hist.stage;
}

void tl_hist_finish(struct et_timeline *tl)
{
	if (tl->hist && tl->hist->open)
		pend_drop(tl, tl->hist);
}

void tl_hist_free(struct et_timeline *tl)
{
	free(tl->hist);
	tl->hist = NULL;
}
