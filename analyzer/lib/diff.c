// SPDX-License-Identifier: LGPL-2.1
/*
 * Diff: two sets of statistics (a base and a test kernel), compared per
 * syscall x path signature x stage.
 *
 * Everything works on the histograms, so memory stays bounded by cells:
 *
 *   - Mann-Whitney U from the two histograms (ties at bucket resolution),
 *     normal approximation with tie correction, two-sided p; Holm's
 *     step-down correction over every tested cell.
 *   - Effect size: Cliff's delta, P(test > base) - P(test < base).
 *   - Bootstrap 95% CI of the median difference: the median of a bootstrap
 *     resample of n values is F^-1(U(m)), U(m) ~ Beta(m, n + 1 - m), so a
 *     replicate costs two Beta draws and two quantile lookups, not n draws.
 *   - Bootstrap 95% CI of the mean difference: resampling from the histogram
 *     below ET_DIFF_SMALL values, the normal limit of the bootstrap mean
 *     (mean, s^2/n) above it.
 *     The median interval is widened by half a histogram bucket per median:
 *     the resolution the medians are known to.
 *   - Contribution: each stage's mean time per syscall, counting syscalls in
 *     which it did not run as 0; over the stages that partition a syscall
 *     (top level, entry/body/exit) these add up to the total, and what they
 *     do not explain of the total's change is reported as the residual.
 *
 * All of the above takes each syscall as a replicate, which holds for a
 * deterministic clock (QEMU -icount, plugin counts).  On a real machine
 * two recordings of the same kernel differ by more than their syscalls
 * scatter within one: the recording is the unit of replication
 * (ET_REP_RUNS).  Each file's mean and median of a cell are then one value
 * each, and the change of the medians is tested with Yuen's trimmed t over
 * them (Welch's t on 20%-trimmed means; plain Welch's with fewer than five
 * recordings a side; pyperf's compare_to tests runs' values with a t test
 * too), the intervals from the same t: the
 * spread between recordings is in every interval and test, and more
 * syscalls per recording do not shrink them.  With one recording a side
 * on a real clock (ET_REP_NONE) nothing is tested.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

#define ET_DIFF_SMALL 30

/* ------------------------------------------------------------------ */
/* Random numbers: xoshiro256**, seeded, so results are reproducible.  */

struct rng {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t res = rotl(r->s[1] * 5, 7) * 9, t = r->s[1] << 17;

	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = rotl(r->s[3], 45);
	return res;
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {	/* splitmix64 */
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

static double uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static double normal(struct rng *r)
{
	double u = uniform(r), v = uniform(r);

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* Marsaglia and Tsang; shape >= 1 here. */
static double gamma_draw(struct rng *r, double shape)
{
	double d = shape - 1.0 / 3, c = 1 / sqrt(9 * d);

	for (;;) {
		double x = normal(r), v = 1 + c * x, u;

		if (v <= 0)
			continue;
		v = v * v * v;
		u = uniform(r);
		if (u < 1 - 0.0331 * x * x * x * x ||
		    log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v;
	}
}

static double beta_draw(struct rng *r, double a, double b)
{
	double x = gamma_draw(r, a), y = gamma_draw(r, b);

	return x / (x + y);
}

/* ------------------------------------------------------------------ */
/* Cumulative view of a histogram: quantiles in log(buckets).          */

struct cdf {
	const struct et_hist *h;
	uint64_t *cum;		/* cum[i]: values in buckets 0..i */
	uint32_t n;
};

static bool cdf_init(struct cdf *c, const struct et_hist *h)
{
	uint64_t run = 0;

	c->h = h;
	c->n = h->nr_buckets;
	c->cum = malloc((c->n ? c->n : 1) * sizeof(*c->cum));
	if (!c->cum)
		return false;
	for (uint32_t i = 0; i < c->n; i++)
		c->cum[i] = run += et_hist_bucket(h, i);
	return true;
}

/* The value of rank k (1-based), as the bucket midpoint within [min, max]. */
static double cdf_rank(const struct cdf *c, uint64_t k)
{
	uint32_t lo = 0, hi = c->n - 1;
	uint64_t l, u, mid;

	if (k <= 1)
		return (double)c->h->min;
	if (k >= c->h->count)
		return (double)c->h->max;
	while (lo < hi) {
		uint32_t m = lo + (hi - lo) / 2;

		if (c->cum[m] >= k)
			hi = m;
		else
			lo = m + 1;
	}
	l = et_hist_lower(lo);
	u = et_hist_upper(lo);
	mid = l + (u - l) / 2;
	if (mid < c->h->min)
		mid = c->h->min;
	if (mid > c->h->max)
		mid = c->h->max;
	return (double)mid;
}

static double cdf_quantile(const struct cdf *c, double q)
{
	uint64_t k = (uint64_t)ceil(q * (double)c->h->count);

	return cdf_rank(c, k ? k : 1);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/*
 * Mann-Whitney U of test over base from histograms: pairs with the test
 * value in a higher bucket count 1, in the same bucket 1/2.
 */
static void mann_whitney(const struct et_hist *b, const struct et_hist *t,
			 double *u_out, double *z_out, double *p_out, double *sigma_out)
{
	uint32_t n = b->nr_buckets > t->nr_buckets ? b->nr_buckets : t->nr_buckets;
	double n1 = (double)b->count, n2 = (double)t->count, N = n1 + n2;
	double below = 0, u = 0, ties = 0, mu, sigma;

	for (uint32_t i = 0; i < n; i++) {
		double cb = (double)et_hist_bucket(b, i);
		double ct = (double)et_hist_bucket(t, i);
		double tie = cb + ct;

		u += ct * (below + cb / 2);
		below += cb;
		ties += tie * tie * tie - tie;
	}
	mu = n1 * n2 / 2;
	sigma = sqrt(n1 * n2 / 12 * ((N + 1) - ties / (N * (N - 1))));
	*u_out = u;
	*sigma_out = sigma;
	*z_out = sigma > 0 ? (u - mu) / sigma : 0;
	*p_out = sigma > 0 ? erfc(fabs(*z_out) / M_SQRT2) : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void ci(double *v, int n, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = v[(int)floor(0.025 * (n - 1))];
	*hi = v[(int)ceil(0.975 * (n - 1))];
}

/* One bootstrap mean of a histogram sample. */
static double boot_mean(struct rng *r, const struct cdf *c)
{
	const struct et_hist *h = c->h;
	double sum = 0;

	if (h->count >= ET_DIFF_SMALL)
		return et_hist_mean(h) + et_hist_stddev(h) / sqrt((double)h->count) *
			normal(r);
	for (uint64_t i = 0; i < h->count; i++)
		sum += cdf_rank(c, 1 + (uint64_t)(uniform(r) * (double)h->count));
	return sum / (double)h->count;
}

static double boot_median(struct rng *r, const struct cdf *c)
{
	double n = (double)c->h->count, m = ceil(n / 2);

	if (c->h->count == 1)
		return (double)c->h->min;
	return cdf_quantile(c, beta_draw(r, m, n + 1 - m));
}

static double half_bucket(double v)
{
	uint32_t i = et_hist_index((uint64_t)v);

	return (double)(et_hist_upper(i) - et_hist_lower(i)) / 2;
}

/* ------------------------------------------------------------------ */
/* Runs as replicates: Welch's t over each recording's value           */

const char *et_replicates_name(enum et_replicates r)
{
	switch (r) {
	case ET_REP_SYSCALLS:
		return "syscalls";
	case ET_REP_RUNS:
		return "runs";
	case ET_REP_NONE:
		return "none";
	}
	return "?";
}

/* Regularized incomplete beta I_x(a, b), Lentz's continued fraction. */
static double betai(double a, double b, double x)
{
	double bt, c = 1, d, h, tiny = 1e-300;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - betai(b, a, 1 - x);
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return bt * h / a;
}

/* P(|T| > |t|) for Student's t with df degrees of freedom */
double et_student_t_p(double t, double df)
{
	return betai(df / 2, 0.5, df / (df + t * t));
}

/* q with P(|T| > q) = a, by bisection */
double et_student_t_crit(double a, double df)
{
	double lo = 0, hi = 1e6;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (et_student_t_p(mid, df) > a)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Each run's mean and median of one cell; returns the runs that have it,
 * or -1 if one of them has fewer than ET_RUN_MIN_VALUES: the median of a
 * handful of syscalls (a startup syscall's one call per run) is no
 * statistic of the run, and testing such cells only adds to the family
 * Holm corrects over.
 */
static int run_values(struct et_stats *const *runs, int n, const struct et_diff_cell *d,
		      double *mean, double *median)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		const struct et_cell *c = et_stats_slot(runs[i], d->nr, d->work, d->stage);

		if (!c || !c->hist.count)
			continue;
		if (c->hist.count < ET_RUN_MIN_VALUES)
			return -1;
		mean[k] = et_hist_mean(&c->hist);
		median[k] = (double)et_hist_quantile(&c->hist, 0.5);
		k++;
	}
	return k;
}

static void mean_var(const double *v, int n, double *m, double *var)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	*m = s / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - *m) * (v[i] - *m);
	*var = n > 1 ? ss / (n - 1) : 0;
}

/*
 * One side of Yuen's test: the mean of v with trim of each end cut off,
 * the squared standard error from the winsorized variance, and how many
 * values were kept.  trim 0 gives the mean and var / n: Welch's.
 */
static void yuen_side(const double *v, int n, double trim, double *m, double *d, int *h)
{
	double *s = malloc(n * sizeof(*s)), sum = 0, mw = 0, ss = 0, r;
	int g = (int)floor(trim * n);

	if (!s) {
		mean_var(v, n, m, d);
		*d /= n;
		*h = n;
		return;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	*h = n - 2 * g;
	for (int i = g; i < n - g; i++)
		sum += s[i];
	*m = sum / *h;
	for (int i = 0; i < n; i++)
		mw += s[i < g ? g : i >= n - g ? n - g - 1 : i];
	mw /= n;
	for (int i = 0; i < n; i++) {
		double w = s[i < g ? g : i >= n - g ? n - g - 1 : i];

		ss += (w - mw) * (w - mw);
	}
	*d = n > 1 ? ss / (*h * (double)(*h - 1)) : 0;
	/*
	 * A recording's value is known to its histogram bucket only: runs
	 * that agree exactly (two medians of 104 ns) say the spread is below
	 * the resolution, not that it is 0.  The variance of a value rounded
	 * to a bucket of width w, w^2 / 12, is the least a value has (w at
	 * least the 1 ns the clock counts in).
	 */
	r = 2 * half_bucket(*m);
	r = r > 1 ? r : 1;	/* (below 256 ns the buckets are single ns) */
	if (*d < r * r / 12 / *h)
		*d = r * r / 12 / *h;
	free(s);
}

/*
 * Yuen's trimmed t of b against t (Welch's when trim is 0 or a side has
 * fewer than 1 / trim values): the difference of the trimmed means, its
 * 95% interval, and (if p) the two-sided p and the degrees of freedom.
 */
static void yuen(const double *b, int nb, const double *t, int nt, double trim, double *diff,
		 double *lo, double *hi, double *p, double *tstat, double *df)
{
	double mb, db, mt, dt, se, q, dof;
	int hb, ht;

	yuen_side(b, nb, trim, &mb, &db, &hb);
	yuen_side(t, nt, trim, &mt, &dt, &ht);
	*diff = mt - mb;
	se = sqrt(db + dt);
	if (se <= 1e-12 * (fabs(mb) + fabs(mt) + 1)) {
		*lo = *hi = *diff;
		if (p)
			*p = *diff != 0 ? 0 : 1;
		if (tstat)
			*tstat = *diff > 0 ? INFINITY : *diff < 0 ? -INFINITY : 0;
		if (df)
			*df = hb + ht - 2;
		return;
	}
	dof = (db + dt) * (db + dt) / (db * db / (hb - 1) + dt * dt / (ht - 1));
	q = et_student_t_crit(0.05, dof);
	*lo = *diff - q * se;
	*hi = *diff + q * se;
	if (p)
		*p = et_student_t_p(*diff / se, dof);
	if (tstat)
		*tstat = *diff / se;
	if (df)
		*df = dof;
}

/* RUNS: each recording's mean and median a replicate; Yuen's t over them. */
static bool compare_runs(struct et_diff_cell *d, const struct et_diff_opts *o)
{
	int nmax = o->nr_base_runs > o->nr_test_runs ? o->nr_base_runs : o->nr_test_runs;
	double *bm = calloc(4 * (nmax + 1), sizeof(double));
	double *bq = bm + nmax + 1, *tm = bq + nmax + 1, *tq = tm + nmax + 1;
	int nb, nt;

	if (!bm)
		return false;
	nb = run_values(o->base_runs, o->nr_base_runs, d, bm, bq);
	nt = run_values(o->test_runs, o->nr_test_runs, d, tm, tq);

	d->runs_base = nb > 0 ? nb : 0;
	d->runs_test = nt > 0 ? nt : 0;
	if (nb >= 2 && nt >= 2) {
		double mb, mt, v;
		int h;

		/*
		 * The test is on the medians: a recording's mean on a real
		 * machine is moved by the few syscalls an interrupt or a
		 * migration hit (one 46 us read of 2000 moves the mean by
		 * 23 ns), its median is not.  And it is Yuen's, on means
		 * trimmed of a fifth at each end: one recording in five that
		 * ran slow as a whole (161 ns where the others ran 101-104)
		 * does not hide a change of 20 ns.
		 */
		yuen(bm, d->runs_base, tm, d->runs_test, 0, &d->d_mean, &d->d_mean_lo,
		     &d->d_mean_hi, NULL, NULL, NULL);
		yuen(bq, d->runs_base, tq, d->runs_test, ET_RUN_TRIM, &d->d_median,
		     &d->d_median_lo, &d->d_median_hi, &d->p, &d->t, &d->df_t);
		mean_var(bm, d->runs_base, &mb, &v);
		mean_var(tm, d->runs_test, &mt, &v);
		d->mean_base = mb;
		d->mean_test = mt;
		/* the medians' side: the trimmed means the test compared */
		yuen_side(bq, d->runs_base, ET_RUN_TRIM, &d->median_base, &v, &h);
		yuen_side(tq, d->runs_test, ET_RUN_TRIM, &d->median_test, &v, &h);
		{
			double db, dt, m;
			int hb, ht;

			yuen_side(bq, d->runs_base, ET_RUN_TRIM, &m, &db, &hb);
			yuen_side(tq, d->runs_test, ET_RUN_TRIM, &m, &dt, &ht);
			d->mde_se = sqrt(db + dt);
			d->mde_df = db + dt > 0 ? (db + dt) * (db + dt) /
				(db * db / (hb - 1) + dt * dt / (ht - 1)) : hb + ht - 2;
		}
		d->tested = true;
	} else {
		d->p = 1;	/* fewer than two recordings a side had it */
	}
	free(bm);
	return true;
}

static bool compare_cell(struct et_diff_cell *d, const struct et_diff_opts *o,
			 struct rng *r)
{
	const struct et_hist *b = d->base, *t = d->test;
	struct cdf cb, ct;
	double *dm, *dx;
	int nb = o->bootstrap;

	/* a cell of moments only (aggregated stages) has no median: NaN */
	d->median_base = et_hist_has_quantiles(b) ? (double)et_hist_quantile(b, 0.5) : NAN;
	d->median_test = et_hist_has_quantiles(t) ? (double)et_hist_quantile(t, 0.5) : NAN;
	d->mean_base = et_hist_mean(b);
	d->mean_test = et_hist_mean(t);
	d->d_median = d->median_test - d->median_base;
	d->d_mean = d->mean_test - d->mean_base;
	d->d_mean_lo = d->d_mean_hi = d->d_median_lo = d->d_median_hi = NAN;
	d->shift = d->shift_lo = d->shift_hi = d->t = d->df_t = NAN;
	if (b->count < 2 || t->count < 2 || b->moments_only || t->moments_only)
		return true;	/* too few values to test */

	mann_whitney(b, t, &d->u, &d->z, &d->p, &d->mw_sigma);
	d->cliff = 2 * d->u / ((double)b->count * (double)t->count) - 1;
	if (o->replicates == ET_REP_NONE) {
		d->p = 1;	/* not tested: one recording a side, a real clock */
		return true;
	}
	if (o->replicates == ET_REP_RUNS)
		return compare_runs(d, o);
	d->tested = true;
	{
		double sb = et_hist_stddev(b), st = et_hist_stddev(t);

		d->mde_se = sqrt(sb * sb / (double)b->count + st * st / (double)t->count);
		d->mde_df = 1e6;	/* thousands of values: the normal's quantiles */
	}

	if (!cdf_init(&cb, b))
		return false;
	if (!cdf_init(&ct, t)) {
		free(cb.cum);
		return false;
	}
	dm = malloc(nb * sizeof(*dm));
	dx = malloc(nb * sizeof(*dx));
	if (dm && dx) {
		for (int i = 0; i < nb; i++) {
			dm[i] = boot_median(r, &ct) - boot_median(r, &cb);
			dx[i] = boot_mean(r, &ct) - boot_mean(r, &cb);
		}
		ci(dm, nb, &d->d_median_lo, &d->d_median_hi);
		ci(dx, nb, &d->d_mean_lo, &d->d_mean_hi);
		/* a median is known to half its bucket: widen by both halves */
		d->d_median_lo -= half_bucket(d->median_base) + half_bucket(d->median_test);
		d->d_median_hi += half_bucket(d->median_base) + half_bucket(d->median_test);
	}
	free(cb.cum);
	free(ct.cum);
	free(dm);
	free(dx);
	return dm && dx;
}


/* ------------------------------------------------------------------ */
/* Hodges-Lehmann shift and the interval Mann-Whitney implies          */

struct wval {
	int64_t v;		/* bucket midpoint, unclamped: one value per bucket */
	double w;		/* values in the bucket */
};

static size_t wvals(const struct et_hist *h, struct wval *out)
{
	size_t n = 0;

	for (uint32_t i = h->first; i < h->nr_buckets; i++) {
		uint64_t l = et_hist_lower(i), u = et_hist_upper(i);

		if (!et_hist_bucket(h, i))
			continue;
		out[n].v = (int64_t)(l + (u - l) / 2);
		out[n++].w = (double)et_hist_bucket(h, i);
	}
	return n;
}

/*
 * Pairs (b, t) with t - b < d and with t - b == d.  Both arrays ascend, so
 * one pass: the pointer into t only moves forward as b grows.
 */
static void pairs_at(const struct wval *b, size_t nb, const struct wval *t, size_t nt,
		     int64_t d, double *lt, double *eq)
{
	double below = 0;
	size_t j = 0;

	*lt = *eq = 0;
	for (size_t i = 0; i < nb; i++) {
		int64_t lim = b[i].v + d;

		while (j < nt && t[j].v < lim)
			below += t[j++].w;
		*lt += b[i].w * below;
		if (j < nt && t[j].v == lim)
			*eq += b[i].w * t[j].w;
	}
}

/*
 * The pairwise differences are integers (bucket midpoints); spread the
 * pairs at each difference v evenly over [v - 1/2, v + 1/2].  Their count
 * below x, F(x), is then continuous and F(v) = (pairs below v) + (pairs at
 * v) / 2: ties count half on each side, as they do in U.  So an interval
 * bound F^-1(k) passes 0 exactly where U passes its critical value, and a
 * shift smaller than a bucket shows as a fraction.  Returns F^-1(k).
 */
static double pair_quantile(const struct wval *b, size_t nb, const struct wval *t,
			    size_t nt, double k)
{
	/* one past the largest difference: where no v reaches k */
	int64_t lo = t[0].v - b[nb - 1].v, hi = t[nt - 1].v - b[0].v + 1;
	double lt, eq;

	/* the smallest v with (pairs at or below v) >= k */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		pairs_at(b, nb, t, nt, mid, &lt, &eq);
		if (lt + eq >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	pairs_at(b, nb, t, nt, lo, &lt, &eq);
	if (eq <= 0)
		return (double)lo;
	return (double)lo - 0.5 + (k - lt) / eq;
}

/* z with erfc(z / sqrt 2) = a: two-sided critical value, by bisection. */
static double z_crit(double a)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > a)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The interval at the level Holm's step-down tested the cell at: a cell is
 * significant when p_adj < alpha, i.e. when p < alpha * p / p_adj, so
 * that is the two-sided level of its interval.
 */
static bool shift_ci(struct et_diff_cell *d, double alpha, size_t tests)
{
	const struct et_hist *b = d->base, *t = d->test;
	double n = (double)b->count * (double)t->count, a, k, z;
	struct wval *vb, *vt;
	size_t nb, nt;

	vb = malloc((b->nr_buckets + 1) * sizeof(*vb));
	vt = malloc((t->nr_buckets + 1) * sizeof(*vt));
	if (!vb || !vt) {
		free(vb);
		free(vt);
		return false;
	}
	nb = wvals(b, vb);
	nt = wvals(t, vt);
	a = d->p_adj > 0 ? alpha * d->p / d->p_adj : alpha / (double)(tests ? tests : 1);
	if (a >= 1)
		a = alpha;
	z = z_crit(a);
	k = n / 2 - z * d->mw_sigma;
	d->shift_level = 1 - a;
	d->shift = pair_quantile(vb, nb, vt, nt, n / 2);
	if (k <= 0) {
		/* too few values for that level: the data bound nothing */
		d->shift_lo = -INFINITY;
		d->shift_hi = INFINITY;
	} else {
		d->shift_lo = pair_quantile(vb, nb, vt, nt, k);
		d->shift_hi = pair_quantile(vb, nb, vt, nt, n - k);
	}
	free(vb);
	free(vt);
	return true;
}

/* ------------------------------------------------------------------ */

static bool partitions(int stage)
{
	const struct et_stage_info *s = &et_stages[stage];

	/* emit, the tracer's own interval, is not in the total */
	return s->parent == ET_STAGE_NONE && stage != ET_STAGE_EMIT &&
	       (s->phase == ET_PHASE_ENTRY || s->phase == ET_PHASE_BODY ||
		s->phase == ET_PHASE_EXIT);
}

struct rowkey {
	int nr;
	uint32_t work;
};

static int add_row(struct rowkey **rows, size_t *n, size_t *cap, int nr,
		   uint32_t work)
{
	for (size_t i = 0; i < *n; i++)
		if ((*rows)[i].nr == nr && (*rows)[i].work == work)
			return 0;
	if (et_grow((void **)rows, cap, *n + 1, sizeof(**rows)))
		return -1;
	(*rows)[(*n)++] = (struct rowkey){ nr, work };
	return 0;
}

static int cmp_pval(const void *a, const void *b)
{
	const struct et_diff_cell *x = *(const struct et_diff_cell *const *)a;
	const struct et_diff_cell *y = *(const struct et_diff_cell *const *)b;

	return x->p < y->p ? -1 : x->p > y->p;
}

/* Significant cells first, each kind by the size of its contribution. */
static int cmp_contrib(const void *a, const void *b)
{
	const struct et_diff_cell *x = a, *y = b;
	double ax = fabs(x->contrib), ay = fabs(y->contrib);

	if (x->significant != y->significant)
		return x->significant ? -1 : 1;
	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	if (x->work != y->work)
		return x->work < y->work ? -1 : 1;
	return x->stage - y->stage;
}

static bool excludes_zero(double lo, double hi)
{
	return lo > 0 || hi < 0;
}

/*
 * A total that moved: significant, and its mean or its median change has a
 * confidence interval that leaves out zero.  On tens of thousands of
 * syscalls Mann-Whitney alone also flags a shift in where a coarse clock's
 * steps fall, with both changes +0.
 */
static bool moved(const struct et_diff_cell *c)
{
	return c->significant && (excludes_zero(c->d_mean_lo, c->d_mean_hi) ||
				  excludes_zero(c->d_median_lo, c->d_median_hi));
}

/*
 * Where a group's change lies: the significant partitioning stage with the
 * largest contribution in the direction of the total's change, then down
 * into its significant child with the largest contribution for as long as
 * that child holds at least half of its parent's change, in the same
 * direction.  A parent and its child are timed over nested intervals, so
 * without this a parent that merely holds the stage that moved would be
 * named with it.  A group whose total did not move (above) has no change
 * to place: a stage significant there alone, say by one outlier that moved
 * the mean and not the median, is in the cell table, not on the group's
 * line.
 */
static void find_focus(const struct et_diff *df, struct et_diff_group *g)
{
	const struct et_diff_cell *at = NULL;

	g->focus = ET_STAGE_NONE;
	g->moved = false;
	for (size_t i = g->first; i < g->first + g->count; i++)
		if (df->cells[i].stage == ET_SLOT_TOTAL)
			g->moved = moved(&df->cells[i]);
	if (!g->moved)
		return;
	for (size_t i = g->first; i < g->first + g->count; i++) {
		const struct et_diff_cell *c = &df->cells[i];

		if (c->partitions && c->significant && c->stage != ET_SLOT_TOTAL &&
		    c->contrib * g->d_total > 0 &&
		    (!at || fabs(c->contrib) > fabs(at->contrib)))
			at = c;
	}
	while (at) {
		const struct et_diff_cell *down = NULL;

		for (size_t i = g->first; i < g->first + g->count; i++) {
			const struct et_diff_cell *c = &df->cells[i];

			if (et_stages[c->stage].parent == at->stage && c->significant &&
			    c->contrib * at->contrib > 0 &&
			    fabs(c->contrib) >= 0.5 * fabs(at->contrib) &&
			    (!down || fabs(c->contrib) > fabs(down->contrib)))
				down = c;
		}
		if (!down)
			break;
		at = down;
	}
	if (at) {
		g->focus = at->stage;
		g->focus_contrib = at->contrib;
	}
}

/*
 * What a tested cell could have found: the change that a comparison of
 * this spread would call significant 80% of the time at the strictest
 * level Holm's step-down uses, alpha / tests, (t quantiles of the test's
 * degrees of freedom; the power of Mann-Whitney on syscalls is taken as
 * the t test's), and never less than the clock's step the values show: a
 * median on a clock of 10 ns steps moves by 10 ns or not at all.
 */
static void detectable(struct et_diff_cell *c, double alpha, size_t tests)
{
	uint64_t sb = c->base ? et_hist_step(c->base) : 1, st = c->test ? et_hist_step(c->test) : 1;
	double a = alpha / (double)(tests ? tests : 1), df = c->mde_df > 1 ? c->mde_df : 1;

	c->clock_step = sb > st ? sb : st;
	c->mde = (et_student_t_crit(a, df) + et_student_t_crit(0.4, df)) * c->mde_se;
	if (c->mde < (double)c->clock_step)
		c->mde = (double)c->clock_step;
}

/* Holm's step-down: p_adj(i) = max over j <= i of min(1, (m - j) p(j)). */
static bool holm(struct et_diff *df)
{
	struct et_diff_cell **tested = malloc((df->nr_cells + 1) * sizeof(*tested));
	size_t m = 0;
	double run = 0;

	if (!tested)
		return false;
	for (size_t i = 0; i < df->nr_cells; i++)
		if (df->cells[i].tested)
			tested[m++] = &df->cells[i];
	qsort(tested, m, sizeof(*tested), cmp_pval);
	for (size_t j = 0; j < m; j++) {
		double adj = (double)(m - j) * tested[j]->p;

		if (adj > 1)
			adj = 1;
		if (adj > run)
			run = adj;
		tested[j]->p_adj = run;
	}
	df->tests = m;
	free(tested);
	return true;
}

int et_diff(const struct et_stats *base, const struct et_stats *test,
	    unsigned int base_path, unsigned int test_path,
	    const struct et_diff_opts *opts, struct et_diff *df)
{
	const struct et_stats *side[2] = { base, test };
	struct rowkey *rows = NULL;
	size_t nr_rows = 0, cap_rows = 0, cap_cells = 0, cap_groups = 0;
	struct rng r;

	memset(df, 0, sizeof(*df));
	df->alpha = opts->alpha;
	df->replicates = opts->replicates;
	df->nr_base_runs = opts->nr_base_runs;
	df->nr_test_runs = opts->nr_test_runs;
	rng_seed(&r, opts->seed);

	for (int s = 0; s < 2; s++) {
		const struct et_cell **cells;
		size_t n = et_stats_cells(side[s], &cells);

		for (size_t i = 0; i < n; i++)
			if (add_row(&rows, &nr_rows, &cap_rows, cells[i]->nr, cells[i]->work))
				goto nomem;
	}

	for (size_t ri = 0; ri < nr_rows; ri++) {
		struct et_diff_group g = { .nr = rows[ri].nr, .work = rows[ri].work };
		const struct et_cell *tb, *tt;
		bool partitioned = false;

		g.n_base = et_stats_row_syscalls(base, g.nr, g.work);
		g.n_test = et_stats_row_syscalls(test, g.nr, g.work);
		tb = et_stats_slot(base, g.nr, g.work, ET_SLOT_TOTAL);
		tt = et_stats_slot(test, g.nr, g.work, ET_SLOT_TOTAL);
		if (tb && tt)
			g.d_total = et_hist_mean(&tt->hist) - et_hist_mean(&tb->hist);
		g.first = df->nr_cells;

		for (int st = 0; st < ET_SLOT_NR; st++) {
			const struct et_cell *cb = et_stats_slot(base, g.nr, g.work, st);
			const struct et_cell *ct = et_stats_slot(test, g.nr, g.work, st);
			struct et_diff_cell *d;

			if (!cb && !ct)
				continue;
			if (et_grow((void **)&df->cells, &cap_cells, df->nr_cells + 1,
				    sizeof(*df->cells)))
				goto nomem;
			d = &df->cells[df->nr_cells++];
			memset(d, 0, sizeof(*d));
			d->nr = g.nr;
			d->work = g.work;
			d->stage = st;
			d->base = cb ? &cb->hist : NULL;
			d->test = ct ? &ct->hist : NULL;
			d->cell_base = cb;
			d->cell_test = ct;
			d->p = d->p_adj = 1;
			if (!cb)
				d->status = et_stages[st].paths & base_path ?
					ET_DIFF_TEST_ONLY : ET_DIFF_NO_COUNTERPART_BASE;
			else if (!ct)
				d->status = et_stages[st].paths & test_path ?
					ET_DIFF_BASE_ONLY : ET_DIFF_NO_COUNTERPART_TEST;
			else
				d->status = ET_DIFF_BOTH;
			/* mean per syscall, 0 where the stage did not run */
			d->per_sc_base = g.n_base && cb ? (double)cb->hist.total / (double)g.n_base : 0;
			d->per_sc_test = g.n_test && ct ? (double)ct->hist.total / (double)g.n_test : 0;
			d->contrib = d->per_sc_test - d->per_sc_base;
			if (cb && ct && !compare_cell(d, opts, &r))
				goto nomem;
			if (!cb || !ct) {
				d->mean_base = cb ? et_hist_mean(&cb->hist) : 0;
				d->mean_test = ct ? et_hist_mean(&ct->hist) : 0;
			}
			if (partitions(st)) {
				d->partitions = true;
				partitioned = true;
				g.explained += d->contrib;
			}
		}
		g.count = df->nr_cells - g.first;
		if (!partitioned) {
			/* no finer stage (stock, no context tracking): total is its own */
			for (size_t i = g.first; i < df->nr_cells; i++)
				if (df->cells[i].stage == ET_SLOT_TOTAL) {
					df->cells[i].partitions = true;
					g.explained += df->cells[i].contrib;
				}
		}
		g.residual = g.d_total - g.explained;
		/*
		 * A share of the total's change only for the total and the
		 * stages that partition it: they add up to 100% less the
		 * residual.  A child is inside its parent's share (the text
		 * indents it), a stage outside the total (user_gap, emit, a
		 * stock kernel's signal_exit) has none.
		 */
		for (size_t i = g.first; i < df->nr_cells; i++)
			df->cells[i].share =
				g.d_total && (df->cells[i].partitions ||
					      df->cells[i].stage == ET_SLOT_TOTAL) ?
				df->cells[i].contrib / g.d_total : NAN;
		if (et_grow((void **)&df->groups, &cap_groups, df->nr_groups + 1,
			    sizeof(*df->groups)))
			goto nomem;
		df->groups[df->nr_groups++] = g;
	}
	free(rows);
	if (!holm(df))
		return -1;
	for (size_t i = 0; i < df->nr_cells; i++) {
		struct et_diff_cell *c = &df->cells[i];

		c->significant = c->tested && c->p_adj < opts->alpha;
		if (c->tested)
			detectable(c, opts->alpha, df->tests);
		if (c->base && c->test)
			df->compared++;
		/* the Hodges-Lehmann shift and its interval are per syscall */
		if (c->tested && opts->replicates == ET_REP_SYSCALLS &&
		    !shift_ci(c, opts->alpha, df->tests))
			return -1;
	}
	for (size_t i = 0; i < df->nr_groups; i++)
		find_focus(df, &df->groups[i]);
	/* sorted by contribution: groups keep their index ranges in `sorted` */
	df->sorted = malloc((df->nr_cells + 1) * sizeof(*df->sorted));
	if (!df->sorted)
		return -1;
	memcpy(df->sorted, df->cells, df->nr_cells * sizeof(*df->cells));
	qsort(df->sorted, df->nr_cells, sizeof(*df->sorted), cmp_contrib);
	return 0;
nomem:
	free(rows);
	et_diff_free(df);
	return -1;
}

void et_diff_free(struct et_diff *df)
{
	free(df->cells);
	free(df->sorted);
	free(df->groups);
	memset(df, 0, sizeof(*df));
}
