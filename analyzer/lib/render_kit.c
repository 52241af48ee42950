// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading a kit: the reporter's table (report KIT) and two kits compared
 * (diff KIT_A KIT_B), text and JSON.
 *
 * The repetitions are the replicates: every figure is the mean over a
 * workload x SELinux mode's runs with its 95% t interval, and a comparison
 * is Welch's t on the logarithms of the per-run values, so that a ratio
 * and its interval come out, and so that cycles per op splits exactly into
 * instructions per op times cycles per instruction:
 *
 *	ln(cycles/op) = ln(instructions/op) + ln(cycles/instruction)
 *
 * diff calls a part moved when its interval (Bonferroni over every test it
 * makes) leaves out 1 and its ratio is at least the threshold (1%) away
 * from 1, and classifies each workload x mode: instructions per op (the
 * path got longer or shorter: what an instruction-counting model such as
 * QEMU sees, and the stages say where), cycles per instruction (the same
 * instructions ran slower or faster: barriers, caches, SMT, only the
 * machine itself shows it), both, or no change.  Before any of that it
 * lists the facts in which the two boots differ.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"
#include "entrytrace-kit.h"

static const char *const mode_order[] = { "enforcing", "permissive", "disabled" };

/* ------------------------------------------------------------------ */
/* Groups: one workload x mode                                          */

struct group {
	const char *workload, *mode;
	int boot;
	int used, left_out;	/* runs used; interrupted or failed runs */
	const char *counter;
	double *v[ET_KM_NR];	/* per used run */
	int n[ET_KM_NR];
	struct et_kit_stat st[ET_KM_NR];
};

struct groups {
	struct group *g;
	size_t n;
};

static int mode_rank(const char *m)
{
	for (size_t i = 0; i < ET_ARRAY_SIZE(mode_order); i++)
		if (!strcmp(m, mode_order[i]))
			return (int)i;
	return (int)ET_ARRAY_SIZE(mode_order);
}

static void stat_of(const double *v, int n, struct et_kit_stat *s)
{
	double sum = 0, ss = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n) {
		s->mean = s->sd = s->lo = s->hi = s->min = s->max = NAN;
		return;
	}
	s->min = s->max = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		s->min = v[i] < s->min ? v[i] : s->min;
		s->max = v[i] > s->max ? v[i] : s->max;
	}
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
	if (n > 1) {
		double h = et_student_t_crit(0.05, n - 1) * s->sd / sqrt(n);

		s->lo = s->mean - h;
		s->hi = s->mean + h;
	} else {
		s->lo = s->hi = NAN;
	}
}

static struct group *find_group(struct groups *gs, const char *w, const char *m)
{
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].workload, w) && !strcmp(gs->g[i].mode, m))
			return &gs->g[i];
	return NULL;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	/* workloads in their first appearance (kept by a stable key), modes ranked */
	if (x->workload != y->workload)
		return 0;
	return mode_rank(x->mode) - mode_rank(y->mode);
}

static void groups_free(struct groups *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		for (int m = 0; m < ET_KM_NR; m++)
			free(gs->g[i].v[m]);
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

/* The workload names in order of first appearance. */
static size_t workloads(const struct et_kit *k, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < k->nr_runs; i++) {
		size_t j = 0;

		while (j < n && strcmp(out[j], k->runs[i].workload))
			j++;
		if (j == n && n < max)
			out[n++] = k->runs[i].workload;
	}
	return n;
}

static int build_groups(const struct et_kit *k, struct groups *gs)
{
	const char *wl[64];
	size_t nw = workloads(k, wl, 64);

	gs->g = calloc(k->nr_runs + 1, sizeof(*gs->g));
	gs->n = 0;
	if (!gs->g)
		return -1;
	for (size_t w = 0; w < nw; w++) {
		size_t first = gs->n;

		for (size_t i = 0; i < k->nr_runs; i++) {
			const struct et_kit_run *r = &k->runs[i];
			struct group *g;

			if (strcmp(r->workload, wl[w]))
				continue;
			g = find_group(gs, wl[w], r->mode);
			if (!g) {
				g = &gs->g[gs->n++];
				g->workload = wl[w];	/* one pointer per workload: cmp_group */
				g->mode = r->mode;
				g->boot = r->boot;
				for (int m = 0; m < ET_KM_NR; m++) {
					g->v[m] = calloc(k->nr_runs, sizeof(double));
					if (!g->v[m])
						return -1;
				}
			}
			if (r->interrupted || r->failed) {
				g->left_out++;
				continue;
			}
			g->used++;
			g->counter = r->counter;
			for (int m = 0; m < ET_KM_NR; m++)
				if (!isnan(r->v[m]))
					g->v[m][g->n[m]++] = r->v[m];
		}
		qsort(gs->g + first, gs->n - first, sizeof(*gs->g), cmp_group);
	}
	for (size_t i = 0; i < gs->n; i++)
		for (int m = 0; m < ET_KM_NR; m++)
			stat_of(gs->g[i].v[m], gs->g[i].n[m], &gs->g[i].st[m]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Formatting                                                           */

/* v with thousands separators and @prec decimals */
static char *num(char *buf, size_t size, double v, int prec)
{
	char tmp[64], *d;
	int len, digits, lead, o = 0;

	if (isnan(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", prec, fabs(v));
	d = strchr(tmp, '.');
	digits = d ? (int)(d - tmp) : (int)strlen(tmp);
	len = (int)strlen(tmp);
	lead = digits % 3 ? digits % 3 : 3;
	if (v < 0 && o < (int)size - 1)
		buf[o++] = '-';
	for (int i = 0; i < len && o < (int)size - 1; i++) {
		if (i < digits && i && (i - lead) % 3 == 0 && o < (int)size - 1)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
	return buf;
}

/* decimals that show 4 significant digits of v, at most 3 */
static int prec_for(double v)
{
	double a = fabs(v);

	if (a >= 1000 || a == 0)
		return 0;
	if (a >= 1)
		return a >= 100 ? 1 : a >= 10 ? 2 : 3;
	/* three significant digits below 1 (0.00213 context switches per op) */
	return (int)ceil(-log10(a)) + 2;
}

/* "50,893 +-0.8%": the mean and its interval's half-width relative to it */
static char *mean_pm(char *buf, size_t size, const struct et_kit_stat *s)
{
	char a[40];

	if (!s->n) {
		snprintf(buf, size, "-");
		return buf;
	}
	num(a, sizeof(a), s->mean, prec_for(s->mean));
	if (s->n < 2 || isnan(s->hi) || !s->mean)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s ±%.1f%%", a, 100 * (s->hi - s->mean) / fabs(s->mean));
	return buf;
}

static const char *fact_str(const struct et_jv *facts, const char *key, const char *dflt)
{
	return et_jstr(et_jget(facts, key), dflt);
}

static void json_stat(FILE *out, const struct et_kit_stat *s)
{
	const double v[] = { s->mean, s->sd, s->lo, s->hi, s->min, s->max };
	static const char *const k[] = { "mean", "sd", "lo", "hi", "min", "max" };

	fprintf(out, "{\"n\": %d", s->n);
	for (size_t i = 0; i < ET_ARRAY_SIZE(v); i++) {
		fprintf(out, ", \"%s\": ", k[i]);
		if (isnan(v[i]))
			fputs("null", out);
		else
			fprintf(out, "%.10g", v[i]);
	}
	fputc('}', out);
}

static void json_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.10g", v);
}

static void json_jv(FILE *out, const struct et_jv *v)
{
	if (v)
		et_jv_write(out, v);
	else
		fputs("null", out);
}

/* ------------------------------------------------------------------ */
/* Two sets of runs: Welch's t on logarithms                           */

struct cmp {
	bool tested;		/* two or more runs a side */
	double ratio, lo, hi;	/* b / a of the geometric means, interval at alpha */
	double d;		/* the log difference */
	double p;
};

static void welch_log(const double *a, int na, const double *b, int nb, double alpha,
		      struct cmp *c)
{
	double ma = 0, mb = 0, va = 0, vb = 0, se, df, q;

	memset(c, 0, sizeof(*c));
	c->ratio = c->lo = c->hi = NAN;
	c->p = 1;
	for (int i = 0; i < na; i++)
		if (a[i] <= 0)
			return;
	for (int i = 0; i < nb; i++)
		if (b[i] <= 0)
			return;
	if (na < 2 || nb < 2)
		return;
	for (int i = 0; i < na; i++)
		ma += log(a[i]) / na;
	for (int i = 0; i < nb; i++)
		mb += log(b[i]) / nb;
	for (int i = 0; i < na; i++)
		va += (log(a[i]) - ma) * (log(a[i]) - ma) / (na - 1);
	for (int i = 0; i < nb; i++)
		vb += (log(b[i]) - mb) * (log(b[i]) - mb) / (nb - 1);
	c->tested = true;
	c->d = mb - ma;
	c->ratio = exp(c->d);
	se = sqrt(va / na + vb / nb);
	if (se < 1e-12) {
		/* identical spreads of zero: a deterministic count */
		c->lo = c->hi = c->ratio;
		c->p = c->d ? 0 : 1;
		return;
	}
	df = (va / na + vb / nb) * (va / na + vb / nb) /
	     ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	q = et_student_t_crit(alpha, df);
	c->lo = exp(c->d - q * se);
	c->hi = exp(c->d + q * se);
	c->p = et_student_t_p(c->d / se, df);
}

static bool moved(const struct cmp *c, double threshold)
{
	return c->tested && (c->lo > 1 || c->hi < 1) && fabs(c->ratio - 1) >= threshold;
}

/* ------------------------------------------------------------------ */
/* report KIT                                                           */

static void text_facts(const struct et_kit *k, FILE *out)
{
	size_t nb = et_kit_nr_boots(k);

	for (size_t b = 0; b < nb; b++) {
		const struct et_jv *f = et_kit_facts(k, (int)b);
		const struct et_jv *se = et_jget(f, "selinux"), *au = et_jget(f, "audit");
		char sel[160], aud[200];

		if (et_jtrue(et_jget(se, "present")))
			snprintf(sel, sizeof(sel), "%s at start, policy %s, %g types in use",
				 fact_str(se, "mode_at_start", "?"), fact_str(se, "policy", "unknown"),
				 et_jnum(et_jget(se, "types_in_use"), 0));
		else
			snprintf(sel, sizeof(sel), "absent");
		if (et_jstr(et_jget(au, "status"), NULL))
			snprintf(aud, sizeof(aud), "enabled %s, %g rules",
				 fact_str(au, "enabled", "?"), et_jnum(et_jget(au, "rules"), 0));
		else
			snprintf(aud, sizeof(aud), "%s", fact_str(au, "note", "unknown"));
		fprintf(out, "boot %zu: Linux %s %s (%s)\n", b, fact_str(f, "release", "?"),
			fact_str(f, "machine", "?"), fact_str(f, "version", "?"));
		fprintf(out, "  cpu: %s; %g CPUs online, %g threads per core (SMT %s)\n",
			fact_str(f, "cpu_model", "?"), et_jnum(et_jget(f, "nr_cpus"), 0),
			et_jnum(et_jget(f, "threads_per_core"), 0), fact_str(f, "smt", "?"));
		fprintf(out, "  cmdline: %s\n", fact_str(f, "cmdline", "?"));
		fprintf(out, "  processes: %g; SELinux: %s; lsm: %s; audit: %s\n",
			et_jnum(et_jget(f, "processes"), 0), sel, fact_str(f, "lsm", "unknown (securityfs not mounted)"), aud);
		fprintf(out, "  stress-ng: %s; perf: %s\n", fact_str(f, "stress_ng", "not found"),
			fact_str(f, "perf", "not found"));
		fprintf(out, "  counters: %s\n", fact_str(f, "counters", "?"));
		fprintf(out, "  stages: %s\n", fact_str(f, "stages", "?"));
	}
}

static void text_settings(const struct et_kit *k, FILE *out)
{
	const struct et_jv *m = k->manifest, *miss = et_jget(m, "missing");

	fprintf(out, "entrytrace kit %s: format %d, written by %s, %s\n", k->path, k->version,
		et_jstr(et_jget(m, "tool"), "?"), et_jstr(et_jget(m, "created"), "?"));
	if (k->partial)
		fprintf(out, "PARTIAL: interrupted (%s); the runs before it are below\n",
			k->interrupted ? k->interrupted : "?");
	for (size_t i = 0; i < et_jlen(miss); i++) {
		const struct et_jv *e = et_jat(miss, i), *b = et_jget(e, "boot");

		/* a merged kit: each boot says what it lacked */
		if (b && et_jlen(et_jget(m, "boots")) > 1)
			fprintf(out, "missing (boot %g): ", et_jnum(b, 0));
		else
			fputs("missing: ", out);
		fprintf(out, "%s: %s\n", et_jstr(et_jget(e, "what"), "?"),
			et_jstr(et_jget(e, "effect"), "?"));
	}
	text_facts(k, out);
	for (size_t i = 0; i < et_jlen(et_jget(m, "recordings")); i++) {
		const struct et_jv *r = et_jat(et_jget(m, "recordings"), i);
		const char *file = et_jstr(et_jget(r, "file"), NULL);

		fprintf(out, "stages of %s, %s: ", et_jstr(et_jget(r, "workload"), "?"),
			et_jstr(et_jget(r, "mode"), "?"));
		if (file)
			fprintf(out, "%s (%s, %g s): tar xzf %s %s; entrytrace report %s\n", file,
				et_jstr(et_jget(r, "how"), "?"), et_jnum(et_jget(r, "seconds"), 0),
				k->path, file, file);
		else
			fprintf(out, "not recorded (%s exited %g)\n", et_jstr(et_jget(r, "how"), "?"),
				et_jnum(et_jget(r, "exit_status"), -1));
	}
}

static const char *workload_command(const struct et_kit *k, const char *w)
{
	const struct et_jv *ws = et_jget(k->manifest, "workloads");

	for (size_t i = 0; i < et_jlen(ws); i++)
		if (!strcmp(et_jstr(et_jget(et_jat(ws, i), "name"), ""), w))
			return et_jstr(et_jget(et_jat(ws, i), "command"), "?");
	return "?";
}

static const char *workload_op(const struct et_kit *k, const char *w)
{
	const struct et_jv *ws = et_jget(k->manifest, "workloads");

	for (size_t i = 0; i < et_jlen(ws); i++)
		if (!strcmp(et_jstr(et_jget(et_jat(ws, i), "name"), ""), w))
			return et_jstr(et_jget(et_jat(ws, i), "op"), "op");
	return "op";
}

static const int shown[] = { ET_KM_OPS_S, ET_KM_US_OP, ET_KM_INSN_OP, ET_KM_CYC_OP, ET_KM_IPC,
			     ET_KM_TASK_NS_OP, ET_KM_CS_OP, ET_KM_AVC_LOOKUPS_OP };

static bool any_value(const struct groups *gs, const char *w, int m)
{
	for (size_t i = 0; i < gs->n; i++)
		if (gs->g[i].workload == w && gs->g[i].n[m])
			return true;
	return false;
}

/* the SELinux tax of @g against @dis: ratio of ops/s, and per op deltas */
struct tax {
	struct cmp ops, insn, us;
	double d_us, d_insn, d_cyc;	/* differences of the means */
};

static void tax_of(const struct group *g, const struct group *dis, struct tax *t)
{
	welch_log(dis->v[ET_KM_OPS_S], dis->n[ET_KM_OPS_S], g->v[ET_KM_OPS_S],
		  g->n[ET_KM_OPS_S], 0.05, &t->ops);
	welch_log(dis->v[ET_KM_INSN_OP], dis->n[ET_KM_INSN_OP], g->v[ET_KM_INSN_OP],
		  g->n[ET_KM_INSN_OP], 0.05, &t->insn);
	welch_log(dis->v[ET_KM_US_OP], dis->n[ET_KM_US_OP], g->v[ET_KM_US_OP],
		  g->n[ET_KM_US_OP], 0.05, &t->us);
	t->d_us = g->st[ET_KM_US_OP].mean - dis->st[ET_KM_US_OP].mean;
	t->d_insn = g->st[ET_KM_INSN_OP].mean - dis->st[ET_KM_INSN_OP].mean;
	t->d_cyc = g->st[ET_KM_CYC_OP].mean - dis->st[ET_KM_CYC_OP].mean;
}

static void text_report(const struct et_kit *k, const struct groups *gs, FILE *out)
{
	const char *wl[64];
	size_t nw = workloads(k, wl, 64);
	char b[64];

	text_settings(k, out);
	for (size_t w = 0; w < nw; w++) {
		const struct group *dis = find_group((struct groups *)gs, wl[w], "disabled");

		fprintf(out, "\n%s: %s\n  op: %s; each figure the mean of the runs, ±: its 95%% "
			"interval\n", wl[w], workload_command(k, wl[w]), workload_op(k, wl[w]));
		fprintf(out, "%-11s %4s", "mode", "runs");
		for (size_t c = 0; c < ET_ARRAY_SIZE(shown); c++)
			if (any_value(gs, wl[w], shown[c]))
				fprintf(out, "  %17s", et_kit_measures[shown[c]].head);
		fputc('\n', out);
		for (size_t i = 0; i < gs->n; i++) {
			const struct group *g = &gs->g[i];

			if (g->workload != wl[w])
				continue;
			fprintf(out, "%-11s %4d", g->mode, g->used);
			for (size_t c = 0; c < ET_ARRAY_SIZE(shown); c++)
				if (any_value(gs, wl[w], shown[c]))
					fprintf(out, "  %17s", mean_pm(b, sizeof(b), &g->st[shown[c]]));
			if (g->left_out)
				fprintf(out, "  (%d run%s left out: interrupted or failed)", g->left_out,
					g->left_out > 1 ? "s" : "");
			fputc('\n', out);
		}
		{
			size_t modes = 0;

			for (size_t i = 0; i < gs->n; i++)
				modes += gs->g[i].workload == wl[w];
			if (dis && modes < 2)
				continue;
		}
		if (!dis) {
			fprintf(out, "SELinux tax: needs the disabled mode (boot with selinux=0 and "
				"run 'entrytrace kit --merge' on this archive)\n");
			continue;
		}
		fprintf(out, "SELinux tax against disabled (ops/s ratio - 1, as the report's; per op: "
			"what the mode adds):\n");
		for (size_t i = 0; i < gs->n; i++) {
			const struct group *g = &gs->g[i];
			struct tax t;
			char u[40], n[40];

			if (g->workload != wl[w] || g == dis)
				continue;
			tax_of(g, dis, &t);
			fprintf(out, "  %-11s", g->mode);
			if (t.ops.tested)
				fprintf(out, " %+.1f%% [%+.1f%%, %+.1f%%]", 100 * (t.ops.ratio - 1),
					100 * (t.ops.lo - 1), 100 * (t.ops.hi - 1));
			else
				fprintf(out, " %s", "- (fewer than two runs a side)");
			if (!isnan(t.d_us))
				fprintf(out, "; %s%s us/op", t.d_us >= 0 ? "+" : "",
					num(u, sizeof(u), t.d_us, prec_for(t.d_us)));
			if (!isnan(t.d_insn))
				fprintf(out, "; %s%s instructions/op (%+.1f%%)", t.d_insn >= 0 ? "+" : "",
					num(n, sizeof(n), t.d_insn, 0), 100 * (t.insn.ratio - 1));
			if (!isnan(t.d_cyc))
				fprintf(out, "; %s%s cycles/op", t.d_cyc >= 0 ? "+" : "",
					num(n, sizeof(n), t.d_cyc, 0));
			fputc('\n', out);
		}
	}
	if (k->partial)
		fprintf(out, "\nPARTIAL kit: the runs above are complete ones; the interrupted run is "
			"left out\n");
}

static void json_report(const struct et_kit *k, const struct groups *gs, FILE *out)
{
	const char *wl[64];
	size_t nw = workloads(k, wl, 64), nb = et_kit_nr_boots(k);

	fputs("{\"kit\": ", out);
	et_json_str(out, k->path);
	fprintf(out, ", \"format_version\": %d, \"partial\": %s, \"interrupted\": ", k->version,
		k->partial ? "true" : "false");
	if (k->interrupted)
		et_json_str(out, k->interrupted);
	else
		fputs("null", out);
	fputs(", \"missing\": ", out);
	json_jv(out, et_jget(k->manifest, "missing"));
	fputs(", \"recordings\": ", out);
	json_jv(out, et_jget(k->manifest, "recordings"));
	fputs(", \"boots\": [", out);
	for (size_t b = 0; b < nb; b++) {
		fputs(b ? ", " : "", out);
		json_jv(out, et_kit_facts(k, (int)b));
	}
	fputs("], \"workloads\": [", out);
	for (size_t w = 0; w < nw; w++) {
		const struct group *dis = find_group((struct groups *)gs, wl[w], "disabled");
		bool first = true;

		fprintf(out, "%s{\"workload\": ", w ? ", " : "");
		et_json_str(out, wl[w]);
		fputs(", \"command\": ", out);
		et_json_str(out, workload_command(k, wl[w]));
		fputs(", \"op\": ", out);
		et_json_str(out, workload_op(k, wl[w]));
		fputs(", \"modes\": [", out);
		for (size_t i = 0; i < gs->n; i++) {
			const struct group *g = &gs->g[i];

			if (g->workload != wl[w])
				continue;
			fprintf(out, "%s{\"mode\": ", first ? "" : ", ");
			first = false;
			et_json_str(out, g->mode);
			fprintf(out, ", \"boot\": %d, \"runs\": %d, \"runs_left_out\": %d, \"counter\": ",
				g->boot, g->used, g->left_out);
			et_json_str(out, g->counter ? g->counter : "?");
			fputs(", \"measures\": {", out);
			for (int m = 0; m < ET_KM_NR; m++) {
				fprintf(out, "%s\"%s\": ", m ? ", " : "", et_kit_measures[m].key);
				json_stat(out, &g->st[m]);
			}
			fputs("}}", out);
		}
		fputs("], \"selinux_tax\": [", out);
		first = true;
		for (size_t i = 0; dis && i < gs->n; i++) {
			const struct group *g = &gs->g[i];
			struct tax t;

			if (g->workload != wl[w] || g == dis)
				continue;
			tax_of(g, dis, &t);
			fprintf(out, "%s{\"mode\": ", first ? "" : ", ");
			first = false;
			et_json_str(out, g->mode);
			fputs(", \"against\": \"disabled\", \"ops_per_s_ratio\": ", out);
			json_num(out, t.ops.ratio);
			fputs(", \"ops_per_s_ratio_lo\": ", out);
			json_num(out, t.ops.lo);
			fputs(", \"ops_per_s_ratio_hi\": ", out);
			json_num(out, t.ops.hi);
			fputs(", \"us_per_op_delta\": ", out);
			json_num(out, t.d_us);
			fputs(", \"instructions_per_op_delta\": ", out);
			json_num(out, t.d_insn);
			fputs(", \"cycles_per_op_delta\": ", out);
			json_num(out, t.d_cyc);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

void et_kit_render(const struct et_kit *k, enum et_format fmt, FILE *out)
{
	struct groups gs;

	if (build_groups(k, &gs)) {
		groups_free(&gs);
		fprintf(out, "out of memory\n");
		return;
	}
	if (fmt == ET_FMT_JSON)
		json_report(k, &gs, out);
	else
		text_report(k, &gs, out);
	groups_free(&gs);
}

/* ------------------------------------------------------------------ */
/* diff KIT_A KIT_B: the facts first                                    */

/* facts whose change is no fact about the machine */
static bool fact_ignored(const char *key)
{
	static const char *const skip[] = { "boot_id", "uptime_s", "hostname", "config",
					    "config_from", "date" };

	for (size_t i = 0; i < ET_ARRAY_SIZE(skip); i++)
		if (!strcmp(key, skip[i]))
			return true;
	return false;
}

static void scalar_text(const struct et_jv *v, char *buf, size_t size)
{
	if (!v)
		snprintf(buf, size, "(none)");
	else if (v->t == ET_JSTR)
		snprintf(buf, size, "%s", v->str);
	else if (v->t == ET_JNUM)
		snprintf(buf, size, "%.10g", v->num);
	else if (v->t == ET_JTRUE || v->t == ET_JFALSE)
		snprintf(buf, size, "%s", v->t == ET_JTRUE ? "yes" : "no");
	else if (v->t == ET_JNULL)
		snprintf(buf, size, "(none)");
	else if (v->t == ET_JARR) {
		size_t o = 0;

		/* a list of words: the words */
		buf[0] = 0;
		for (size_t i = 0; i < v->n && o < size; i++)
			o += snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
				      v->items[i].t == ET_JSTR ? v->items[i].str : "...");
	} else {
		snprintf(buf, size, "(%zu keys)", v->n);
	}
}

static bool scalar(const struct et_jv *v)
{
	return !v || (v->t != ET_JARR && v->t != ET_JOBJ);
}

static bool same(const char *key, const struct et_jv *a, const struct et_jv *b)
{
	char x[4096], y[4096];

	/* a process count moves from boot to boot: 10% is a difference */
	if (!strcmp(key, "processes") && a && b && a->t == ET_JNUM && b->t == ET_JNUM)
		return fabs(a->num - b->num) <= 0.1 * fmax(a->num, b->num);
	scalar_text(a, x, sizeof(x));
	scalar_text(b, y, sizeof(y));
	/* a fact a kit could not find: null, or "?" from the first kits */
	if ((!strcmp(x, "?") || !strcmp(x, "(none)")) && (!strcmp(y, "?") || !strcmp(y, "(none)")))
		return true;
	return !strcmp(x, y);
}


struct fact_diff {
	char key[96];
	char a[512], b[512];
};

struct fact_diffs {
	struct fact_diff *d;
	size_t n, cap;
};

static void add_diff(struct fact_diffs *fd, const char *key, const struct et_jv *a,
		     const struct et_jv *b)
{
	struct fact_diff *d;

	if (fd->n == fd->cap) {
		size_t ncap = fd->cap ? 2 * fd->cap : 32;

		d = realloc(fd->d, ncap * sizeof(*d));
		if (!d)
			return;
		fd->d = d;
		fd->cap = ncap;
	}
	d = &fd->d[fd->n++];
	snprintf(d->key, sizeof(d->key), "%s", key);
	scalar_text(a, d->a, sizeof(d->a));
	scalar_text(b, d->b, sizeof(d->b));
}

/*
 * An object inside a fact (the SELinux types and how many processes have
 * each): its keys are the fact, the counts move from boot to boot.
 */
static void diff_keys(struct fact_diffs *fd, const char *key, const struct et_jv *a,
		      const struct et_jv *b)
{
	char gone[300] = "", added[300] = "";
	size_t og = 0, oa = 0, ng = 0, na = 0;

	for (size_t i = 0; i < a->n; i++)
		if (!et_jget(b, a->keys[i]) && ++ng && og < sizeof(gone))
			og += snprintf(gone + og, sizeof(gone) - og, "%s%s", og ? " " : "", a->keys[i]);
	for (size_t i = 0; i < b->n; i++)
		if (!et_jget(a, b->keys[i]) && ++na && oa < sizeof(added))
			oa += snprintf(added + oa, sizeof(added) - oa, "%s%s", oa ? " " : "", b->keys[i]);
	if (!ng && !na)
		return;
	add_diff(fd, key, a, b);
	snprintf(fd->d[fd->n - 1].a, sizeof(fd->d[0].a), "%zu, %zu not in the test%s%s", a->n, ng,
		 ng ? ": " : "", gone);
	snprintf(fd->d[fd->n - 1].b, sizeof(fd->d[0].b), "%zu, %zu not in the base%s%s", b->n, na,
		 na ? ": " : "", added);
}

/* scalar facts and one level of objects; keys of either side */
static void diff_obj(struct fact_diffs *fd, const char *prefix, const struct et_jv *a,
		     const struct et_jv *b)
{
	const struct et_jv *sides[2] = { a, b };

	for (int s = 0; s < 2; s++) {
		const struct et_jv *o = sides[s];

		for (size_t i = 0; o && o->t == ET_JOBJ && i < o->n; i++) {
			const char *key = o->keys[i];
			const struct et_jv *va = et_jget(a, key), *vb = et_jget(b, key);
			char full[96];

			if (s == 1 && et_jget(a, key))
				continue;	/* seen from a's side */
			if (fact_ignored(key))
				continue;
			snprintf(full, sizeof(full), "%s%s%s", prefix, *prefix ? "." : "", key);
			if (scalar(va) && scalar(vb)) {
				if (!same(key, va, vb))
					add_diff(fd, full, va, vb);
			} else if (!*prefix && (!va || va->t == ET_JOBJ) && (!vb || vb->t == ET_JOBJ)) {
				diff_obj(fd, full, va, vb);
			} else if (va && vb && va->t == ET_JOBJ && vb->t == ET_JOBJ) {
				diff_keys(fd, full, va, vb);
			} else if (va && vb && va->t == ET_JARR && vb->t == ET_JARR) {
				char x[8192], y[8192];
				FILE *fx = fmemopen(x, sizeof(x), "w"), *fy = fmemopen(y, sizeof(y), "w");

				if (fx && fy) {
					et_jv_write(fx, va);
					et_jv_write(fy, vb);
					fputc(0, fx);
					fputc(0, fy);
				}
				if (fx)
					fclose(fx);
				if (fy)
					fclose(fy);
				if (fx && fy && strcmp(x, y)) {
					struct et_jv na = { .t = ET_JNUM, .num = (double)va->n };
					struct et_jv nb = { .t = ET_JNUM, .num = (double)vb->n };

					add_diff(fd, full, &na, &nb);
					snprintf(fd->d[fd->n - 1].a, sizeof(fd->d[0].a), "%zu items", va->n);
					snprintf(fd->d[fd->n - 1].b, sizeof(fd->d[0].b), "%zu items (differ)",
						 vb->n);
				}
			} else {
				add_diff(fd, full, va, vb);
			}
		}
	}
}

/* ---- .config lines ---- */

struct cfg {
	char **key, **val;
	size_t n;
};

static void cfg_free(struct cfg *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->key[i]);
		free(c->val[i]);
	}
	free(c->key);
	free(c->val);
	memset(c, 0, sizeof(*c));
}

static int cfg_load(const struct et_kit *k, int boot, struct cfg *c)
{
	const char *name = et_jstr(et_jget(et_kit_facts(k, boot), "config"), NULL);
	const struct et_kit_member *m = name ? et_kit_member(k, name) : NULL;
	const char *s, *end;
	size_t cap = 0;

	memset(c, 0, sizeof(*c));
	if (!m)
		return -1;
	s = (const char *)m->data;
	end = s + m->size;
	while (s < end) {
		const char *nl = memchr(s, '\n', end - s), *eq;
		char *key = NULL, *val = NULL;
		size_t len;

		nl = nl ? nl : end;
		len = (size_t)(nl - s);
		if (len > 7 && !strncmp(s, "CONFIG_", 7) && (eq = memchr(s, '=', len))) {
			key = strndup(s, eq - s);
			val = strndup(eq + 1, nl - eq - 1);
		} else if (len > 9 && !strncmp(s, "# CONFIG_", 9) &&
			   len > 11 && !strncmp(nl - 11, " is not set", 11)) {
			key = strndup(s + 2, len - 2 - 11);
			val = strdup("n");
		}
		if (key && val) {
			if (c->n == cap) {
				size_t ncap = cap ? 2 * cap : 1024;
				char **k2 = realloc(c->key, ncap * sizeof(char *));
				char **v2 = k2 ? realloc(c->val, ncap * sizeof(char *)) : NULL;

				if (k2)
					c->key = k2;
				if (!v2) {
					free(key);
					free(val);
					return -1;
				}
				c->val = v2;
				cap = ncap;
			}
			c->key[c->n] = key;
			c->val[c->n++] = val;
		} else {
			free(key);
			free(val);
		}
		s = nl + 1;
	}
	return 0;
}

static const char *cfg_get(const struct cfg *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->key[i], key))
			return c->val[i];
	return NULL;
}

/* the options that change the syscall path's cost, shown first */
static bool cfg_notable(const char *key)
{
	static const char *const pre[] = {
		"CONFIG_PREEMPT", "CONFIG_RCU", "CONFIG_TREE_RCU", "CONFIG_HZ", "CONFIG_NO_HZ",
		"CONFIG_SECURITY", "CONFIG_DEFAULT_SECURITY", "CONFIG_LSM", "CONFIG_AUDIT",
		"CONFIG_CONTEXT_TRACKING", "CONFIG_VIRT_CPU_ACCOUNTING", "CONFIG_RANDOMIZE_KSTACK",
		"CONFIG_GENERIC_ENTRY", "CONFIG_SECCOMP", "CONFIG_ENTRY_STAGE", "CONFIG_KASAN",
		"CONFIG_DEBUG_", "CONFIG_PROVE_", "CONFIG_LOCKDEP", "CONFIG_PPC_KUAP",
		"CONFIG_PPC_RADIX", "CONFIG_MITIGATION", "CONFIG_SMP", "CONFIG_NR_CPUS",
		"CONFIG_SCHED_", "CONFIG_CC_OPTIMIZE",
	};

	for (size_t i = 0; i < ET_ARRAY_SIZE(pre); i++)
		if (!strncmp(key, pre[i], strlen(pre[i])))
			return true;
	return false;
}

struct cfg_diff {
	size_t n, notable;
	char **lines;	/* "CONFIG_X: a -> b" */
	bool *is_notable;
	bool missing_a, missing_b;
};

static void cfg_diff_free(struct cfg_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->lines[i]);
	free(d->lines);
	free(d->is_notable);
}

static void cfg_add(struct cfg_diff *d, const char *key, const char *a, const char *b)
{
	char **l = realloc(d->lines, (d->n + 1) * sizeof(char *));
	bool *nb = l ? realloc(d->is_notable, (d->n + 1) * sizeof(bool)) : NULL;

	if (l)
		d->lines = l;
	if (!nb)
		return;
	d->is_notable = nb;
	if (asprintf(&d->lines[d->n], "%s: %s -> %s", key, a ? a : "(absent)",
		     b ? b : "(absent)") < 0)
		return;
	d->is_notable[d->n] = cfg_notable(key);
	d->notable += d->is_notable[d->n];
	d->n++;
}

static void cfg_compare(const struct et_kit *ka, int ba, const struct et_kit *kb, int bb,
			struct cfg_diff *d)
{
	struct cfg a, b;

	memset(d, 0, sizeof(*d));
	d->missing_a = cfg_load(ka, ba, &a) != 0;
	d->missing_b = cfg_load(kb, bb, &b) != 0;
	if (!d->missing_a && !d->missing_b) {
		for (size_t i = 0; i < a.n; i++) {
			const char *vb = cfg_get(&b, a.key[i]);

			if (!vb || strcmp(vb, a.val[i]))
				cfg_add(d, a.key[i], a.val[i], vb);
		}
		for (size_t i = 0; i < b.n; i++)
			if (!cfg_get(&a, b.key[i]))
				cfg_add(d, b.key[i], NULL, b.val[i]);
	}
	cfg_free(&a);
	cfg_free(&b);
}

/* ---- the comparison of one workload x mode ---- */

enum verdict { V_UNTESTED, V_NONE, V_INSN, V_CPI, V_BOTH, V_CYC_ONLY, V_OFFSET, V_NO_COUNTERS };

static const char *const verdict_key[] = {
	[V_UNTESTED] = "untested", [V_NONE] = "no change", [V_INSN] = "instructions per op",
	[V_CPI] = "cycles per instruction", [V_BOTH] = "both",
	[V_CYC_ONLY] = "cycles per op, neither part alone",
	[V_OFFSET] = "instructions and cycles per instruction offset",
	[V_NO_COUNTERS] = "unknown: no cycles and instructions",
};

struct pair {
	const struct group *a, *b;
	struct cmp insn, cpi, cyc, task, us, ops;
	enum verdict v;
	double share_insn;	/* of the change of ln(cycles/op) */
};

static void compare_pair(struct pair *p, double alpha, double threshold)
{
	const struct group *a = p->a, *b = p->b;
	bool mi, mc;

	welch_log(a->v[ET_KM_INSN_OP], a->n[ET_KM_INSN_OP], b->v[ET_KM_INSN_OP],
		  b->n[ET_KM_INSN_OP], alpha, &p->insn);
	welch_log(a->v[ET_KM_CPI], a->n[ET_KM_CPI], b->v[ET_KM_CPI], b->n[ET_KM_CPI], alpha,
		  &p->cpi);
	welch_log(a->v[ET_KM_CYC_OP], a->n[ET_KM_CYC_OP], b->v[ET_KM_CYC_OP], b->n[ET_KM_CYC_OP],
		  alpha, &p->cyc);
	welch_log(a->v[ET_KM_TASK_NS_OP], a->n[ET_KM_TASK_NS_OP], b->v[ET_KM_TASK_NS_OP],
		  b->n[ET_KM_TASK_NS_OP], alpha, &p->task);
	welch_log(a->v[ET_KM_US_OP], a->n[ET_KM_US_OP], b->v[ET_KM_US_OP], b->n[ET_KM_US_OP],
		  alpha, &p->us);
	welch_log(a->v[ET_KM_OPS_S], a->n[ET_KM_OPS_S], b->v[ET_KM_OPS_S], b->n[ET_KM_OPS_S],
		  alpha, &p->ops);
	p->share_insn = NAN;
	if (!a->n[ET_KM_INSN_OP] || !b->n[ET_KM_INSN_OP] || !a->n[ET_KM_CPI] || !b->n[ET_KM_CPI]) {
		p->v = V_NO_COUNTERS;
		return;
	}
	if (!p->insn.tested || !p->cpi.tested) {
		p->v = V_UNTESTED;
		return;
	}
	if (p->cyc.d)
		p->share_insn = p->insn.d / p->cyc.d;
	mi = moved(&p->insn, threshold);
	mc = moved(&p->cpi, threshold);
	/*
	 * The side that explains a change of cycles per op is the part that
	 * moved with it: a longer path of cheap instructions has more
	 * instructions and a lower CPI, and is a longer path.
	 */
	if (moved(&p->cyc, threshold)) {
		bool up = p->cyc.d > 0;
		bool wi = mi && (p->insn.d > 0) == up, wc = mc && (p->cpi.d > 0) == up;

		p->v = wi && wc ? V_BOTH : wi ? V_INSN : wc ? V_CPI : V_CYC_ONLY;
	} else {
		p->v = mi && mc ? V_OFFSET : mi ? V_INSN : mc ? V_CPI : V_NONE;
	}
}

static char *ratio_text(char *buf, size_t size, const struct cmp *c)
{
	if (!c->tested)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%+.2f%% [%+.2f%%, %+.2f%%]", 100 * (c->ratio - 1),
			 100 * (c->lo - 1), 100 * (c->hi - 1));
	return buf;
}

static void verdict_text(const struct pair *p, double threshold, FILE *out)
{
	char x[96], y[96], z[96];
	bool mi = moved(&p->insn, threshold), mc = moved(&p->cpi, threshold);
	bool my = moved(&p->cyc, threshold);

	ratio_text(x, sizeof(x), &p->insn);
	ratio_text(y, sizeof(y), &p->cpi);
	ratio_text(z, sizeof(z), &p->cyc);
	switch (p->v) {
	case V_INSN:
		fprintf(out, "  => INSTRUCTIONS PER OP: %s (the path got %s)", x,
			p->insn.ratio > 1 ? "longer" : "shorter");
		if (mc)
			fprintf(out, "; cycles per instruction moved the other way, %s: the %s "
				"instructions run at another CPI than the rest", y,
				p->insn.ratio > 1 ? "added" : "removed");
		else
			fprintf(out, "; cycles per instruction %s, within ±%.0f%% or noise", y,
				100 * threshold);
		if (!my)
			fprintf(out, "; cycles per op %s did not move", z);
		fputc('\n', out);
		break;
	case V_CPI:
		fprintf(out, "  => CYCLES PER INSTRUCTION: %s (the same path ran %s)", y,
			p->cpi.ratio > 1 ? "slower" : "faster");
		if (mi)
			fprintf(out, "; instructions per op moved the other way, %s", x);
		else
			fprintf(out, "; instructions per op %s, within ±%.0f%% or noise", x,
				100 * threshold);
		if (!my)
			fprintf(out, "; cycles per op %s did not move", z);
		fputc('\n', out);
		break;
	case V_BOTH:
		fprintf(out, "  => BOTH: instructions per op %s and cycles per instruction %s; of "
			"the change of cycles per op (%s), %.0f%% is instructions\n", x, y, z,
			100 * p->share_insn);
		break;
	case V_OFFSET:
		fprintf(out, "  => OFFSETTING: instructions per op %s and cycles per instruction %s "
			"moved apart; cycles per op %s did not move\n", x, y, z);
		break;
	case V_CYC_ONLY:
		fprintf(out, "  => CYCLES PER OP moved %s, but neither instructions per op nor "
			"cycles per instruction alone beyond noise: more runs\n", z);
		break;
	case V_NONE:
		fprintf(out, "  => NO CHANGE: instructions per op %s, cycles per instruction %s "
			"(within ±%.0f%% or noise)\n", x, y, 100 * threshold);
		break;
	case V_UNTESTED:
		fprintf(out, "  => not tested: fewer than two runs a side\n");
		break;
	case V_NO_COUNTERS:
		fprintf(out, "  => UNKNOWN whether instructions or cycles per instruction: %s has "
			"no cycle and instruction counts (task-clock only); CPU time per op %s\n",
			!p->a->n[ET_KM_INSN_OP] ? "the base" : "the test",
			ratio_text(x, sizeof(x), &p->task));
		break;
	}
}

static void json_cmp(FILE *out, const char *key, const struct cmp *c)
{
	fprintf(out, ", \"%s\": {\"tested\": %s, \"ratio\": ", key, c->tested ? "true" : "false");
	json_num(out, c->ratio);
	fputs(", \"lo\": ", out);
	json_num(out, c->lo);
	fputs(", \"hi\": ", out);
	json_num(out, c->hi);
	fputs(", \"p\": ", out);
	json_num(out, c->p);
	fputc('}', out);
}

int et_kit_render_diff(const struct et_kit *ka, const struct et_kit *kb,
		       const struct et_kit_diff_opts *o, enum et_format fmt, FILE *out)
{
	struct groups ga, gb;
	struct pair *pairs = NULL;
	struct fact_diffs fd = { 0 };
	struct cfg_diff cd[2];
	size_t np = 0, tests = 0, nboots;
	double alpha;
	int ret = 1;

	memset(cd, 0, sizeof(cd));
	if (build_groups(ka, &ga) || build_groups(kb, &gb))
		goto out;
	pairs = calloc(ga.n + 1, sizeof(*pairs));
	if (!pairs)
		goto out;
	for (size_t i = 0; i < ga.n; i++) {
		const struct group *b = find_group(&gb, ga.g[i].workload, ga.g[i].mode);

		if (!b)
			continue;
		pairs[np].a = &ga.g[i];
		pairs[np].b = b;
		np++;
	}
	/* instructions per op, CPI and cycles per op tested per pair: the family */
	tests = 3 * np;
	alpha = tests ? o->alpha / tests : o->alpha;
	for (size_t i = 0; i < np; i++)
		compare_pair(&pairs[i], alpha, o->threshold);

	nboots = et_kit_nr_boots(ka) < et_kit_nr_boots(kb) ? et_kit_nr_boots(ka)
							 : et_kit_nr_boots(kb);
	nboots = nboots > 2 ? 2 : nboots;
	for (size_t b = 0; b < nboots; b++) {
		char prefix[16];

		snprintf(prefix, sizeof(prefix), "%s", "");
		diff_obj(&fd, prefix, et_kit_facts(ka, (int)b), et_kit_facts(kb, (int)b));
		/* how the kits ran: seconds per run, repetitions, loops */
		diff_obj(&fd, "settings",
			 et_jget(et_jat(et_jget(ka->manifest, "boots"), b), "settings"),
			 et_jget(et_jat(et_jget(kb->manifest, "boots"), b), "settings"));
		cfg_compare(ka, (int)b, kb, (int)b, &cd[b]);
	}

	if (fmt == ET_FMT_JSON) {
		fputs("{\"base\": ", out);
		et_json_str(out, ka->path);
		fputs(", \"test\": ", out);
		et_json_str(out, kb->path);
		fprintf(out, ", \"partial\": [%s, %s], \"threshold\": %g, \"alpha\": %g, \"tests\": %zu, "
			"\"facts_differ\": [", ka->partial ? "true" : "false",
			kb->partial ? "true" : "false", o->threshold, o->alpha, tests);
		for (size_t i = 0; i < fd.n; i++) {
			fputs(i ? ", {\"fact\": " : "{\"fact\": ", out);
			et_json_str(out, fd.d[i].key);
			fputs(", \"base\": ", out);
			et_json_str(out, fd.d[i].a);
			fputs(", \"test\": ", out);
			et_json_str(out, fd.d[i].b);
			fputc('}', out);
		}
		fputs("], \"config_differ\": [", out);
		for (size_t b = 0; b < nboots; b++) {
			fprintf(out, "%s{\"boot\": %zu, \"compared\": %s, \"lines\": [", b ? ", " : "", b,
				cd[b].missing_a || cd[b].missing_b ? "false" : "true");
			for (size_t i = 0; i < cd[b].n; i++) {
				fputs(i ? ", " : "", out);
				et_json_str(out, cd[b].lines[i]);
			}
			fputs("]}", out);
		}
		fputs("], \"comparisons\": [", out);
		for (size_t i = 0; i < np; i++) {
			const struct pair *p = &pairs[i];

			fputs(i ? ", {\"workload\": " : "{\"workload\": ", out);
			et_json_str(out, p->a->workload);
			fputs(", \"mode\": ", out);
			et_json_str(out, p->a->mode);
			fprintf(out, ", \"runs\": [%d, %d], \"verdict\": ", p->a->used, p->b->used);
			et_json_str(out, verdict_key[p->v]);
			json_cmp(out, "instructions_per_op", &p->insn);
			json_cmp(out, "cpi", &p->cpi);
			json_cmp(out, "cycles_per_op", &p->cyc);
			json_cmp(out, "task_clock_per_op", &p->task);
			json_cmp(out, "us_per_op", &p->us);
			json_cmp(out, "ops_per_s", &p->ops);
			fputs(", \"share_instructions\": ", out);
			json_num(out, p->share_insn);
			fputc('}', out);
		}
		fputs("]}\n", out);
	} else {
		fprintf(out, "entrytrace diff of two kits\n  base %s%s\n  test %s%s\n", ka->path,
			ka->partial ? " (PARTIAL)" : "", kb->path, kb->partial ? " (PARTIAL)" : "");
		fprintf(out, "\nfacts that differ between the two (before any conclusion):\n");
		if (!fd.n)
			fprintf(out, "  none of the recorded facts\n");
		for (size_t i = 0; i < fd.n; i++)
			fprintf(out, "  %-28s %s  ->  %s\n", fd.d[i].key, fd.d[i].a, fd.d[i].b);
		for (size_t b = 0; b < nboots; b++) {
			size_t shown_n = 0;

			if (cd[b].missing_a || cd[b].missing_b) {
				fprintf(out, "  .config (boot %zu): not compared: %s has none\n", b,
					cd[b].missing_a ? "the base" : "the test");
				continue;
			}
			fprintf(out, "  .config (boot %zu): %zu lines differ, %zu of them on the syscall "
				"path's cost (preemption, RCU, LSM, audit, context tracking, debug)%s\n",
				b, cd[b].n, cd[b].notable, cd[b].notable ? ":" : "");
			for (size_t i = 0; i < cd[b].n && shown_n < 40; i++)
				if (cd[b].is_notable[i]) {
					fprintf(out, "    %s\n", cd[b].lines[i]);
					shown_n++;
				}
			if (cd[b].notable > shown_n)
				fprintf(out, "    ... and %zu more (--json lists every line)\n",
					cd[b].notable - shown_n);
		}
		fprintf(out, "\nper workload x SELinux mode: test / base, with %.1f%% intervals "
			"(Bonferroni over %zu tests: %.4f each); a part moved when its interval "
			"leaves out 0 and it moved %.0f%% or more\n",
			100 * (1 - o->alpha), tests, alpha, 100 * o->threshold);
		if (!np)
			fprintf(out, "  no workload x mode is in both kits\n");
		for (size_t i = 0; i < np; i++) {
			const struct pair *p = &pairs[i];
			char x[96];

			fprintf(out, "\n%s, %s: runs %d base, %d test\n", p->a->workload, p->a->mode,
				p->a->used, p->b->used);
			fprintf(out, "  %-24s %s\n", "ops/s", ratio_text(x, sizeof(x), &p->ops));
			fprintf(out, "  %-24s %s\n", "instructions per op", ratio_text(x, sizeof(x), &p->insn));
			fprintf(out, "  %-24s %s\n", "cycles per instruction", ratio_text(x, sizeof(x), &p->cpi));
			fprintf(out, "  %-24s %s\n", "cycles per op", ratio_text(x, sizeof(x), &p->cyc));
			fprintf(out, "  %-24s %s\n", "cpu time per op", ratio_text(x, sizeof(x), &p->task));
			verdict_text(p, o->threshold, out);
		}
		if (ka->partial || kb->partial)
			fprintf(out, "\na PARTIAL kit: its interrupted run is left out\n");
	}
	ret = np ? 0 : 1;
out:
	for (size_t b = 0; b < 2; b++)
		cfg_diff_free(&cd[b]);
	free(fd.d);
	free(pairs);
	groups_free(&ga);
	groups_free(&gb);
	return ret;
}
