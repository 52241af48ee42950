// SPDX-License-Identifier: LGPL-2.1
/*
 * Rendering of a diff: text sorted by contribution, JSON, CSV.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

static const char *status_text(enum et_diff_status s, const char *base,
			       const char *test, char *buf, size_t size)
{
	switch (s) {
	case ET_DIFF_BOTH:
		return "both";
	case ET_DIFF_BASE_ONLY:
		return "ran on base only";
	case ET_DIFF_TEST_ONLY:
		return "ran on test only";
	case ET_DIFF_NO_COUNTERPART_BASE:
		snprintf(buf, size, "no counterpart on %s", base);
		return buf;
	case ET_DIFF_NO_COUNTERPART_TEST:
		snprintf(buf, size, "no counterpart on %s", test);
		return buf;
	}
	return "?";
}

static const char *status_key(enum et_diff_status s)
{
	static const char *const k[] = {
		[ET_DIFF_BOTH] = "both", [ET_DIFF_BASE_ONLY] = "base_only",
		[ET_DIFF_TEST_ONLY] = "test_only",
		[ET_DIFF_NO_COUNTERPART_BASE] = "no_counterpart_on_base",
		[ET_DIFF_NO_COUNTERPART_TEST] = "no_counterpart_on_test",
	};
	return k[s];
}

const char *et_path_name(unsigned int path)
{
	return path == ET_PATH_L ? "legacy entry" :
	       path == ET_PATH_G ? "generic entry" : "stock kernel";
}

static const char *sc_name(const struct et_diff_report *r, int nr, char *buf,
			   size_t size)
{
	const char *n = et_syscall_name(r->names, nr);

	if (n)
		return n;
	snprintf(buf, size, "sys_%d", nr);
	return buf;
}

/* The syscall's name, with its argument shape where the key has one. */
static const char *sc_label(const struct et_diff_report *r, int nr, uint32_t key, char *buf,
			    size_t size)
{
	char nb[32], tmp[96];

	snprintf(buf, size, "%s", et_syscall_label(sc_name(r, nr, nb, sizeof(nb)), key,
						   tmp, sizeof(tmp)));
	return buf;
}

/* JSON: the argument shape of a key that has one. */
static void json_args(uint32_t key, FILE *out)
{
	char ab[48];

	if (key & ET_WORK_SHAPE_MASK) {
		fprintf(out, ", \"args\": ");
		et_json_str(out, et_shape_str(key, ab, sizeof(ab)));
	}
}

static const char *sh(double v, char *buf, size_t size);

/* What the where column says: a stage, or why there is none. */
static const char *where_word(const struct et_diff *df, const struct et_diff_group *g)
{
	if (df->replicates == ET_REP_NONE)
		return "untested";
	if (g->focus != ET_STAGE_NONE)
		return et_stages[g->focus].name;
	return g->moved ? "no_stage" : "not_moved";
}

static void side_line(FILE *out, const char *label, const struct et_report_file *f,
		      int n, unsigned int path)
{
	fprintf(out, "%s %d file%s, %s, %s mode: %s%s\n", label, n, n == 1 ? "" : "s",
		et_path_name(path), et_mode_name(f->info.mode),
		f->info.uname ? f->info.uname : f->info.path, n > 1 ? ", ..." : "");
}

static const struct et_diff_group *group_of(const struct et_diff *df, int nr,
					    uint32_t work)
{
	for (size_t i = 0; i < df->nr_groups; i++)
		if (df->groups[i].nr == nr && df->groups[i].work == work)
			return &df->groups[i];
	return NULL;
}

static bool group_shown(const struct et_diff_report *r, const struct et_diff_group *g)
{
	return r->all || (g->n_base >= r->min_count && g->n_test >= r->min_count);
}

bool et_diff_shown(const struct et_diff_report *r, const struct et_diff_cell *c)
{
	const struct et_diff_group *g = group_of(r->diff, c->nr, c->work);

	if (r->filter && r->filter->stages && !(r->filter->stages & (1ull << c->stage)))
		return false;
	if (g && !group_shown(r, g))
		return false;
	return r->all || c->significant || c->status != ET_DIFF_BOTH ||
	       c->stage == ET_SLOT_TOTAL;
}

/* What --exclusive and --no-overhead took off the totals, per side. */
static void subtracted(const struct et_diff_report *r, FILE *out)
{
	uint64_t sub[2] = { 0 }, ovh[2] = { 0 };

	for (size_t i = 0; i < r->diff->nr_cells; i++) {
		const struct et_diff_cell *c = &r->diff->cells[i];

		if (c->stage != ET_SLOT_TOTAL)
			continue;
		if (c->cell_base) {
			sub[0] += c->cell_base->sub_total;
			ovh[0] += c->cell_base->ovh_total;
		}
		if (c->cell_test) {
			sub[1] += c->cell_test->sub_total;
			ovh[1] += c->cell_test->ovh_total;
		}
	}
	fprintf(out, "taken off the totals: base %" PRIu64 " ns interrupts/preemption + %" PRIu64
		" ns tracer; test %" PRIu64 " + %" PRIu64 " ns\n", sub[0], ovh[0], sub[1], ovh[1]);
}

/* What a replicate is, how the cells were tested, the unit: the header. */
static void method(const struct et_diff_report *r, FILE *out)
{
	const struct et_diff *df = r->diff;
	const struct et_file_kind *k = r->base_files[0].kind;

	switch (df->replicates) {
	case ET_REP_SYSCALLS:
		fprintf(out, "replicates: syscalls: each syscall one value, as a deterministic "
			"clock allows (%s)\n", k->diff_exact ? k->diff_exact :
			r->virtual_clock ? "the recordings' clock counts instructions: QEMU -icount" :
			"--replicates=syscalls: the clock taken as deterministic");
		fprintf(out, "method: bootstrap 95%% CIs (%d replicates, seed %" PRIu64
			"), Mann-Whitney U with Holm's correction over %zu tests, alpha %.3g\n",
			r->opts.bootstrap, r->opts.seed, df->tests, df->alpha);
		break;
	case ET_REP_RUNS:
		fprintf(out, "replicates: runs: each recording's mean and median of a cell one "
			"value, %d base and %d test recordings\n", df->nr_base_runs,
			df->nr_test_runs);
		fprintf(out, "method: Yuen's t over the recordings' medians (20%% trimmed; Welch's with "
			"fewer than five a side), 95%% t intervals, Holm's correction over %zu tests, "
			"alpha %.3g\n", df->tests, df->alpha);
		break;
	case ET_REP_NONE:
		fprintf(out, "replicates: none: one recording a side on a real clock, so a change "
			"cannot be told from run-to-run noise: nothing is tested or starred\n"
			"(record two or more runs a side: BASE... -- TEST...; --replicates=syscalls "
			"if the clock is deterministic, e.g. QEMU -icount)\n");
		break;
	}
	if (k->diff_values)
		fprintf(out, "%s\n", k->diff_values);
	else
		fprintf(out, "times in %s; contribution = change of a stage's mean time per syscall\n",
			r->virtual_clock ? "virtual ns (QEMU -icount: one per guest instruction)" :
			"ns");
}

/* One row of the cells table. */
static void cell_row(const struct et_diff_report *r, const struct et_diff_cell *c, int cw,
		     FILE *out)
{
	char ci_mean[48], ci_med[48], ci_shift[64], p[16], cl[16], share[16], lb[48];
	char nb[96], wb[160], sb[64], label[224];

	snprintf(label, sizeof(label), "%s [%s]", sc_label(r, c->nr, c->work, nb, sizeof(nb)),
		 et_work_str(c->work, wb, sizeof(wb)));
	if (c->tested) {
		snprintf(ci_mean, sizeof(ci_mean), "%+.1f [%+.1f, %+.1f]", c->d_mean,
			 c->d_mean_lo, c->d_mean_hi);
		snprintf(ci_med, sizeof(ci_med), "%+.1f [%+.1f, %+.1f]", c->d_median,
			 c->d_median_lo, c->d_median_hi);
		char s0[24], s1[24], s2[24];

		if (isnan(c->shift))
			snprintf(ci_shift, sizeof(ci_shift), "-");
		else
			snprintf(ci_shift, sizeof(ci_shift), "%s [%s, %s]",
				 sh(c->shift, s0, sizeof(s0)), sh(c->shift_lo, s1, sizeof(s1)),
				 sh(c->shift_hi, s2, sizeof(s2)));
		if (c->p_adj > 0)
			snprintf(p, sizeof(p), "%.2g", c->p_adj);
		else
			snprintf(p, sizeof(p), "<1e-300");	/* erfc underflowed */
		snprintf(cl, sizeof(cl), "%+.2f", c->cliff);
	} else if (c->base && c->test) {
		snprintf(ci_mean, sizeof(ci_mean), "%+.1f", c->d_mean);
		if (isnan(c->d_median))	/* moments only: no median */
			snprintf(ci_med, sizeof(ci_med), "-");
		else
			snprintf(ci_med, sizeof(ci_med), "%+.1f", c->d_median);
		snprintf(ci_shift, sizeof(ci_shift), "-");
		snprintf(p, sizeof(p), "-");
		snprintf(cl, sizeof(cl), "-");
	} else {
		/* one side only: there is no change to show */
		snprintf(ci_mean, sizeof(ci_mean), "-");
		snprintf(ci_med, sizeof(ci_med), "-");
		snprintf(ci_shift, sizeof(ci_shift), "-");
		snprintf(p, sizeof(p), "-");
		snprintf(cl, sizeof(cl), "-");
	}
	if (isnan(c->share))
		snprintf(share, sizeof(share), "-");
	else
		snprintf(share, sizeof(share), "%.1f%%", 100 * c->share);
	fprintf(out, "%-*s %-18s %+11.1f %24s %24s %26s %9s %6s %7s %s%s\n", cw, label,
		et_stage_label(c->stage, lb, sizeof(lb)), c->contrib, ci_mean, ci_med, ci_shift, p, cl,
		share, c->significant ? "*" : "",
		c->status == ET_DIFF_BOTH ? "" :
		status_text(c->status, et_path_name(r->base_path),
			    et_path_name(r->test_path), sb, sizeof(sb)));
}

/* A shown cell, or one with a shown stage below it in its group. */
static bool tree_shown(const struct et_diff_report *r, const struct et_diff_cell *c)
{
	const struct et_diff *df = r->diff;

	if (et_diff_shown(r, c))
		return true;
	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *d = &df->cells[i];

		if (d->nr == c->nr && d->work == c->work && et_stages[d->stage].parent == c->stage &&
		    tree_shown(r, d))
			return true;
	}
	return false;
}

/*
 * A cell and, indented under it, its child stages' cells in the order of
 * the table (a parent a shown child needs is printed with it).
 */
static void cell_tree(const struct et_diff_report *r, const struct et_diff_cell *c, int cw,
		      size_t *rows, FILE *out)
{
	const struct et_diff *df = r->diff;

	if (r->top && *rows >= (size_t)r->top)
		return;
	(*rows)++;
	cell_row(r, c, cw, out);
	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *d = &df->sorted[i];

		if (d->nr == c->nr && d->work == c->work && et_stages[d->stage].parent == c->stage &&
		    tree_shown(r, d))
			cell_tree(r, d, cw, rows, out);
	}
}

/* Whether the group has a cell for the stage's parent: then it prints there. */
static bool parent_in_group(const struct et_diff *df, const struct et_diff_cell *c)
{
	int parent = et_stages[c->stage].parent;

	if (parent == ET_STAGE_NONE)
		return false;
	for (size_t i = 0; i < df->nr_cells; i++)
		if (df->cells[i].nr == c->nr && df->cells[i].work == c->work &&
		    df->cells[i].stage == parent)
			return true;
	return false;
}

static void text(const struct et_diff_report *r, FILE *out)
{
	const struct et_sections *sec = et_sections_of(r->base_files[0].kind);
	const struct et_diff *df = r->diff;
	char nb[96], wb[160], label[224];
	size_t rows = 0, hidden = 0;
	int gw = 40, cw = 34;	/* label columns: widen, never truncate */

	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *c = &df->cells[i];
		int n = snprintf(label, sizeof(label), "%s [%s]",
				 sc_label(r, c->nr, c->work, nb, sizeof(nb)),
				 et_work_str(c->work, wb, sizeof(wb)));

		if (n > gw)
			gw = n;
		if (n > cw)
			cw = n;
	}

	side_line(out, "base:", &r->base_files[0], r->nr_base, r->base_path);
	side_line(out, "test:", &r->test_files[0], r->nr_test, r->test_path);
	method(r, out);
	for (int side = 0; side < 2; side++) {
		const struct et_report_file *f = side ? r->test_files : r->base_files;

		if (f->tl.event_cost_samples)
			fprintf(out, "tracer (%s): one entry_stage event ~%" PRIu64 " ns (median of %"
				PRIu64 " back-to-back pairs)%s\n", side ? "test" : "base",
				f->tl.event_cost, f->tl.event_cost_samples,
				r->no_overhead ? ", taken off each stage" : "");
	}
	if (r->exclusive || r->no_overhead)
		subtracted(r, out);

	fprintf(out, "\n%-*s %9s %9s %12s %12s %11s %11s %10s  %s\n", gw, "syscall [work]",
		"n base", "n test", "total base", "total test", "change", "explained",
		"residual", "where");
	for (size_t i = 0; i < df->nr_groups; i++) {
		const struct et_diff_group *g = &df->groups[i];
		const struct et_diff_cell *tot = NULL;

		if (!group_shown(r, g)) {
			hidden++;
			continue;
		}
		for (size_t k = g->first; k < g->first + g->count; k++)
			if (df->cells[k].stage == ET_SLOT_TOTAL)
				tot = &df->cells[k];
		snprintf(label, sizeof(label), "%s [%s]", sc_label(r, g->nr, g->work, nb, sizeof(nb)),
			 et_work_str(g->work, wb, sizeof(wb)));
		fprintf(out, "%-*s %9" PRIu64 " %9" PRIu64 " %12.1f %12.1f %+11.1f %+11.1f %+10.1f  %s",
			gw, label, g->n_base, g->n_test, tot ? tot->mean_base : 0,
			tot ? tot->mean_test : 0, g->d_total, g->explained, g->residual,
			where_word(df, g));
		if (g->focus != ET_STAGE_NONE && g->d_total)
			fprintf(out, " %+.1f (%.0f%%)", g->focus_contrib,
				100 * g->focus_contrib / g->d_total);
		fprintf(out, "\n");
	}

	if (hidden)
		fprintf(out, "(%zu syscall [work] groups with fewer than %" PRIu64
			" syscalls on a side not shown; --all shows them)\n", hidden,
			r->min_count);
	fprintf(out, "\n%-*s %-18s %11s %24s %24s %26s %9s %6s %7s %s\n", cw, "syscall [work]",
		"stage", "contrib", "mean change [95% CI]", "median change [95% CI]",
		"shift (HL) [MW CI]", "p (Holm)", "cliff", "share", "");
	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *c = &df->sorted[i];

		if (parent_in_group(df, c) || !tree_shown(r, c))
			continue;
		if (r->top && rows >= (size_t)r->top)
			break;
		cell_tree(r, c, cw, &rows, out);
	}
	if (df->replicates == ET_REP_RUNS)
		fprintf(out, "\n* significant: Yuen's t over the recordings' medians, p after Holm's\n"
			"correction < alpha; significant cells are listed first.  Each recording's\n"
			"mean (median) of a cell is one value, so the spread between recordings is\n"
			"in every interval and test; more syscalls per recording do not narrow them,\n"
			"more recordings do; a fifth of them at each end is trimmed (five or more\n"
			"a side), so one run that ran slow as a whole does not hide a change, and\n"
			"the median columns are those trimmed means.  A cell is tested when two or\n"
			"more recordings a side have it, each with 30 or more syscalls; otherwise\n"
			"-.  cliff: Cliff's delta over the syscalls pooled, a description.\n"
			"A cell on one side only has no change: -.\n");
	else if (df->replicates == ET_REP_NONE)
		fprintf(out, "\nNothing is tested: one recording a side (see replicates above).\n"
			"A cell on one side only has no change: -.\n");
	else
	fprintf(out, "\n* significant: Mann-Whitney U, p after Holm's correction < alpha; significant\n"
		"cells are listed first.  shift (HL): the Hodges-Lehmann shift, the median of\n"
		"the pairwise differences test - base, with the interval Mann-Whitney implies\n"
		"at the level Holm tested the cell at: it leaves out 0 exactly on the starred\n"
		"cells (at the histograms' resolution: values within 0.4%% count as equal,\n"
		"as in the test).  The mean and median intervals are 95%% bootstrap intervals of other\n"
		"statistics and may cover 0 on a starred cell (a shift of most values that a\n"
		"few outliers hide in the mean).  A cell on one side only has no change: -.\n");
	fprintf(out, "share: of the syscall's total change, for the total and the top-level entry,\n"
		"body and exit stages, which add up to it (the residual is what they do not\n"
		"explain); a child stage, indented under its parent, is inside the parent's\n"
		"share, and a stage outside the total (user_gap, emit) has none.\n"
		"where: the most specific stage holding the change (a significant top-level\n"
		"stage, then down into a significant child holding at least half of it);\n"
		"not_moved: the total did not move; no_stage: it moved, and no stage holds\n"
		"the change (or the mode has no stages inside the syscall); untested: nothing\n"
		"was tested (replicates: none).\n");
	if (!r->all)
		fprintf(out, "Shown: totals, significant cells, cells on one side only (--all shows\n"
			"every cell).\n");
	if (sec->diff_text_tail)
		sec->diff_text_tail(r, out);
}


/* A bound for JSON: null where it is unbounded. */
static const char *num(double v, char *buf, size_t size)
{
	if (isinf(v) || isnan(v))
		return "null";
	snprintf(buf, size, "%.4g", v);
	return buf;
}

/* A median for JSON, to 0.1: null where the cell keeps none (moments only). */
static const char *num1(double v, char *buf, size_t size)
{
	if (isnan(v))
		return "null";
	snprintf(buf, size, "%.1f", v);
	return buf;
}

/* A statistic for JSON: null where it is unbounded (an exact difference). */
static const char *num6(double v, char *buf, size_t size)
{
	if (isinf(v) || isnan(v))
		return "null";
	snprintf(buf, size, "%.6g", v);
	return buf;
}

/* A shift bound for text: a fraction of a nanosecond keeps its digits. */
static const char *sh(double v, char *buf, size_t size)
{
	if (isinf(v))
		snprintf(buf, size, "%sinf", v < 0 ? "-" : "+");
	else if (v != 0 && fabs(v) < 1)
		snprintf(buf, size, "%+.2g", v);
	else
		snprintf(buf, size, "%+.1f", v);
	return buf;
}

static void json(const struct et_diff_report *r, FILE *out)
{
	const struct et_sections *sec = et_sections_of(r->base_files[0].kind);
	const struct et_diff *df = r->diff;
	char nb[32], wb[160], lo[32], hi[32];

	fprintf(out, "{\n  \"base\": {\"files\": %d, \"path\": \"%s\", \"mode\": \"%s\", \"uname\": ",
		r->nr_base, et_path_name(r->base_path),
		et_mode_name(r->base_files[0].info.mode));
	et_json_str(out, r->base_files[0].info.uname);
	fprintf(out, "},\n  \"test\": {\"files\": %d, \"path\": \"%s\", \"mode\": \"%s\", \"uname\": ",
		r->nr_test, et_path_name(r->test_path),
		et_mode_name(r->test_files[0].info.mode));
	et_json_str(out, r->test_files[0].info.uname);
	fprintf(out, "},\n  \"unit\": \"%s\"", et_file_unit(&r->base_files[0]));
	if (sec->diff_json)
		sec->diff_json(r, out);
	fprintf(out, ",\n  \"gate\": ");
	if (r->gate) {
		const char *m = r->gate->messages ? r->gate->messages : "";

		fprintf(out, "{\"rules\": ");
		et_json_str(out, r->gate->rules);
		fprintf(out, ", \"result\": \"%s\", \"exit\": %d, \"messages\": [",
			r->gate->result, r->gate->exit);
		for (bool first = true; *m; first = false) {
			const char *nl = strchr(m, '\n');
			size_t len = nl ? (size_t)(nl - m) : strlen(m);
			char *line = strndup(m, len);

			fprintf(out, "%s", first ? "" : ", ");
			et_json_str(out, line ? line : "");
			free(line);
			m += len + !!nl;
		}
		fprintf(out, "]}");
	} else {
		fprintf(out, "null");
	}
	fprintf(out, ",\n  \"replicates\": \"%s\", \"runs_base\": %d, \"runs_test\": %d"
		", \"compared\": %zu",
		et_replicates_name(df->replicates), r->nr_base, r->nr_test, df->compared);
	fprintf(out, ",\n  \"bootstrap\": %d, \"seed\": %" PRIu64 ", \"alpha\": %g, \"tests\": %zu,\n",
		r->opts.bootstrap, r->opts.seed, df->alpha, df->tests);
	fprintf(out, "  \"exclusive\": %s, \"no_overhead\": %s, \"event_cost_base\": %" PRIu64
		", \"event_cost_test\": %" PRIu64 ",\n", r->exclusive ? "true" : "false",
		r->no_overhead ? "true" : "false", r->base_files[0].tl.event_cost,
		r->test_files[0].tl.event_cost);
	fprintf(out, "  \"groups\": [");
	for (size_t i = 0; i < df->nr_groups; i++) {
		const struct et_diff_group *g = &df->groups[i];

		fprintf(out, "%s\n    {\"syscall\": ", i ? "," : "");
		et_json_str(out, sc_name(r, g->nr, nb, sizeof(nb)));
		fprintf(out, ", \"nr\": %d, \"work\": ", g->nr);
		et_json_str(out, et_work_str(g->work, wb, sizeof(wb)));
		json_args(g->work, out);
		fprintf(out, ", \"n_base\": %" PRIu64 ", \"n_test\": %" PRIu64
			", \"d_total\": %.3f, \"explained\": %.3f, \"residual\": %.3f"
			", \"moved\": %s, \"where\": \"%s\"",
			g->n_base, g->n_test, g->d_total, g->explained, g->residual,
			g->moved ? "true" : "false", where_word(df, g));
		if (g->focus == ET_STAGE_NONE)
			fprintf(out, ", \"focus\": null, \"focus_contrib\": null}");
		else
			fprintf(out, ", \"focus\": \"%s\", \"focus_contrib\": %.3f}",
				et_stages[g->focus].name, g->focus_contrib);
	}
	fprintf(out, "\n  ],\n  \"cells\": [");
	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *c = &df->sorted[i];

		fprintf(out, "%s\n    {\"syscall\": ", i ? "," : "");
		et_json_str(out, sc_name(r, c->nr, nb, sizeof(nb)));
		fprintf(out, ", \"nr\": %d, \"work\": ", c->nr);
		et_json_str(out, et_work_str(c->work, wb, sizeof(wb)));
		json_args(c->work, out);
		fprintf(out, ", \"stage\": \"%s\", \"status\": \"%s\", \"n_base\": %" PRIu64
			", \"n_test\": %" PRIu64, et_stages[c->stage].name, status_key(c->status),
			c->base ? c->base->count : 0, c->test ? c->test->count : 0);
		if (c->base)
			fprintf(out, ", \"mean_base\": %.3f, \"median_base\": %s",
				c->mean_base, num1(c->median_base, lo, sizeof(lo)));
		else
			fprintf(out, ", \"mean_base\": null, \"median_base\": null");
		if (c->test)
			fprintf(out, ", \"mean_test\": %.3f, \"median_test\": %s",
				c->mean_test, num1(c->median_test, hi, sizeof(hi)));
		else
			fprintf(out, ", \"mean_test\": null, \"median_test\": null");
		if (c->tested && df->replicates == ET_REP_RUNS)
			fprintf(out, ", \"d_mean\": %.3f, \"d_mean_ci\": [%.3f, %.3f]"
				", \"d_median\": %.1f, \"d_median_ci\": [%.1f, %.1f]"
				", \"runs_base\": %d, \"runs_test\": %d, \"t\": %s, \"df\": %.6g"
				", \"p\": %.6g, \"p_adj\": %.6g, \"cliff\": %.4f"
				", \"test\": \"yuen-runs-holm\", \"significant\": %s"
				", \"mean_ci_covers_0\": %s",
				c->d_mean, c->d_mean_lo, c->d_mean_hi, c->d_median,
				c->d_median_lo, c->d_median_hi, c->runs_base, c->runs_test,
				num6(c->t, lo, sizeof(lo)), c->df_t, c->p, c->p_adj, c->cliff,
				c->significant ? "true" : "false",
				c->d_mean_lo <= 0 && c->d_mean_hi >= 0 ? "true" : "false");
		else if (c->tested)
			fprintf(out, ", \"d_mean\": %.3f, \"d_mean_ci\": [%.3f, %.3f]"
				", \"d_median\": %.1f, \"d_median_ci\": [%.1f, %.1f]"
				", \"shift\": %.4g, \"shift_ci\": [%s, %s], \"shift_level\": %.6g"
				", \"u\": %.1f, \"z\": %.4f, \"p\": %.6g, \"p_adj\": %.6g"
				", \"cliff\": %.4f, \"test\": \"mann-whitney-holm\", \"significant\": %s"
				", \"mean_ci_covers_0\": %s",
				c->d_mean, c->d_mean_lo, c->d_mean_hi, c->d_median,
				c->d_median_lo, c->d_median_hi, c->shift,
				num(c->shift_lo, lo, sizeof(lo)), num(c->shift_hi, hi, sizeof(hi)),
				c->shift_level, c->u, c->z, c->p, c->p_adj,
				c->cliff, c->significant ? "true" : "false",
				c->d_mean_lo <= 0 && c->d_mean_hi >= 0 ? "true" : "false");
		else if (c->base && c->test)
			fprintf(out, ", \"d_mean\": %.3f, \"d_median\": %s, \"significant\": false",
				c->d_mean, num1(c->d_median, lo, sizeof(lo)));
		else
			fprintf(out, ", \"d_mean\": null, \"d_median\": null, \"significant\": false");
		if (c->tested) {
			/* what it could have found, of the statistic tested */
			double b = df->replicates == ET_REP_RUNS ? c->median_base : c->mean_base;

			fprintf(out, ", \"detectable\": %.3f, \"detectable_pct\": %s"
				", \"clock_step\": %" PRIu64, c->mde,
				b > 0 ? num6(100 * c->mde / b, lo, sizeof(lo)) : "null", c->clock_step);
		} else {
			fprintf(out, ", \"detectable\": null, \"detectable_pct\": null"
				", \"clock_step\": null");
		}
		fprintf(out, ", \"subtracted_base\": %" PRIu64 ", \"subtracted_test\": %" PRIu64,
			c->cell_base ? c->cell_base->sub_total + c->cell_base->ovh_total : 0,
			c->cell_test ? c->cell_test->sub_total + c->cell_test->ovh_total : 0);
		fprintf(out, ", \"per_syscall_base\": %.3f, \"per_syscall_test\": %.3f"
			", \"contrib\": %.3f, \"partitions\": %s, \"share\": ",
			c->per_sc_base, c->per_sc_test, c->contrib,
			c->partitions ? "true" : "false");
		if (isnan(c->share))
			fprintf(out, "null}");
		else
			fprintf(out, "%.5f}", c->share);
	}
	fprintf(out, "\n  ]\n}\n");
}

/*
 * diff --csv: a cell per row, its columns in this table - each named and
 * formatted once.  Values of a side the cell did not run on are 0.
 */
#define CSV_D(field, fmt) { #field, fmt, offsetof(struct et_diff_cell, field), false }
static const struct csv_col {
	const char *name;
	const char *fmt;	/* of a double; NULL: a bool, 0 or 1 */
	size_t off;		/* its et_diff_cell field */
	bool nan_0;		/* NaN (nothing to divide by) written as 0 */
} csv_cols[] = {
	CSV_D(mean_base, "%.3f"), CSV_D(mean_test, "%.3f"), CSV_D(d_mean, "%.3f"),
	CSV_D(d_mean_lo, "%.3f"), CSV_D(d_mean_hi, "%.3f"),
	CSV_D(median_base, "%.1f"), CSV_D(median_test, "%.1f"), CSV_D(d_median, "%.1f"),
	CSV_D(d_median_lo, "%.1f"), CSV_D(d_median_hi, "%.1f"),
	CSV_D(p, "%.6g"), CSV_D(p_adj, "%.6g"), CSV_D(cliff, "%.4f"),
	CSV_D(significant, NULL), CSV_D(contrib, "%.3f"),
	{ "share", "%.5f", offsetof(struct et_diff_cell, share), true },
	CSV_D(shift, "%.1f"), CSV_D(shift_lo, "%.1f"), CSV_D(shift_hi, "%.1f"),
};

static void csv_value(FILE *out, const struct et_diff_cell *c, const struct csv_col *col)
{
	const char *at = (const char *)c + col->off;
	double v;

	if (!col->fmt) {
		fprintf(out, ",%d", *(const bool *)at);
		return;
	}
	memcpy(&v, at, sizeof(v));
	if (isnan(v) && col->nan_0)
		v = 0;
	fputc(',', out);
	fprintf(out, col->fmt, v);
}

static void csv(const struct et_diff_report *r, FILE *out)
{
	const struct et_diff *df = r->diff;
	char nb[96], wb[160];

	fprintf(out, "syscall,nr,work,stage,status,n_base,n_test");
	for (size_t k = 0; k < sizeof(csv_cols) / sizeof(csv_cols[0]); k++)
		fprintf(out, ",%s", csv_cols[k].name);
	fprintf(out, "\n");
	for (size_t i = 0; i < df->nr_cells; i++) {
		const struct et_diff_cell *c = &df->sorted[i];

		fprintf(out, "%s,%d,\"%s\",%s,%s,%" PRIu64 ",%" PRIu64,
			sc_label(r, c->nr, c->work, nb, sizeof(nb)), c->nr,
			et_work_str(c->work, wb, sizeof(wb)), et_stages[c->stage].name,
			status_key(c->status), c->base ? c->base->count : 0,
			c->test ? c->test->count : 0);
		for (size_t k = 0; k < sizeof(csv_cols) / sizeof(csv_cols[0]); k++)
			csv_value(out, c, &csv_cols[k]);
		fprintf(out, "\n");
	}
}

int et_render_diff(const struct et_diff_report *r, enum et_format fmt, FILE *out)
{
	switch (fmt) {
	case ET_FMT_TEXT:
		text(r, out);
		return 0;
	case ET_FMT_JSON:
		json(r, out);
		return 0;
	case ET_FMT_CSV:
		csv(r, out);
		return 0;
	}
	return -1;
}
