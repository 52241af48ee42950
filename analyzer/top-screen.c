// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace top's terminal screen.  A short header, then one row per
 * syscall, the busiest first (by the sort key), as many as the terminal
 * holds: calls, rate, the statistics of lib/columns.c's top list, its
 * share of all syscall time and the stages it spends most in.  Columns are added as the
 * terminal widens; times carry their own unit (ns, us, ms, s), as perf
 * trace prints them.  With 'x' each syscall's stages follow it, indented
 * under their parents.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "top-screen.h"

const char top_keys_help[] = "q quit  s sort  f filter  x stages  d delta";

/*
 * A time in at most 7 columns, with its unit: 999ns, 12.3us, 999.9ms,
 * 12.34s, 1234s, 12.3ks (the column never widens: a value that would is
 * shown coarser).
 */
static const char *t7(double ns, char *buf, size_t size)
{
	if (ns < 999.5)
		snprintf(buf, size, "%.0fns", ns);
	else if (ns < 999.95e3)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < 999.95e6)
		snprintf(buf, size, "%.1fms", ns / 1e6);
	else if (ns < 99.995e9)
		snprintf(buf, size, "%.2fs", ns / 1e9);
	else if (ns < 9999.5e9)
		snprintf(buf, size, "%.0fs", ns / 1e9);
	else if (ns < 9999.5e12)
		snprintf(buf, size, "%.1fks", ns / 1e12);
	else
		snprintf(buf, size, ">10Ms");
	return buf;
}

/* A count in at most 7 columns: 1234567 -> 1.2M, then G, T. */
static const char *c7(double v, char *buf, size_t size)
{
	if (v < 999999.5)
		snprintf(buf, size, "%.0f", v);
	else if (v < 99999.95e6)
		snprintf(buf, size, "%.1fM", v / 1e6);
	else if (v < 99999.95e9)
		snprintf(buf, size, "%.1fG", v / 1e9);
	else
		snprintf(buf, size, "%.1fT", v / 1e12);
	if (strlen(buf) > 7)
		snprintf(buf, size, ">1e17");
	return buf;
}

/* A share in at most 5 columns: 12.3%, 100%. */
static const char *p5(double pct, char *buf, size_t size)
{
	snprintf(buf, size, pct < 99.95 ? "%.1f%%" : "%.0f%%", pct);
	return buf;
}

/*
 * A header line built from items, most important first, each in a long
 * and a short form: every item goes in long while the line fits, then in
 * short, and the items that fit in neither are left out (not cut).
 */
struct fit {
	char buf[512];
	int width;
};

static void fit_line(struct fit *f, const char *const *items_long,
		     const char *const *items_short, int n, const char *sep)
{
	char try[512];

	for (int form = 0; form < 2; form++) {
		const char *const *items = form ? items_short : items_long;
		int len = 0;

		try[0] = '\0';
		for (int i = 0; i < n; i++) {
			int add;

			if (!items[i] || !items[i][0])
				continue;
			add = (int)strlen(items[i]) + (len ? (int)strlen(sep) : 0);
			if (len + add > f->width) {
				if (i == 0 || form == 0)
					goto next_form;
				continue;	/* short form: leave this one out */
			}
			len += snprintf(try + len, sizeof(try) - len, "%s%s", len ? sep : "",
					items[i]);
		}
		snprintf(f->buf, sizeof(f->buf), "%s", try);
		return;
next_form:
		;
	}
	/* even the first item in short does not fit: cut it, marked */
	snprintf(f->buf, sizeof(f->buf), "%.*s~", f->width > 1 ? f->width - 1 : 0, items_short[0]);
}

/* One output line, cut at the terminal's width. */
struct screen {
	FILE *out;
	int cols, rows, used;
};

static void line(struct screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (s->used >= s->rows)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if ((int)strlen(buf) > s->cols)
		buf[s->cols] = '\0';
	fprintf(s->out, "%s\n", buf);
	s->used++;
}

struct sc_row {
	int nr;
	const char *name;
	const struct et_cell *total;
	const struct et_cell *const *stages;	/* the cells after the total */
	size_t nr_stages;
	double key;
	bool by_name;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct sc_row *x = a, *y = b;

	if (x->by_name)
		return strcmp(x->name, y->name);
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->nr - y->nr;
}

/* Stages inside the total worth naming: not the total, user space or the tracer. */
static bool busy_stage(int stage)
{
	return stage != ET_SLOT_TOTAL && stage != ET_STAGE_EMIT &&
	       et_stages[stage].phase != ET_PHASE_USER && et_stage_depth(stage) == 0;
}

/* "syscall 62% arch_exit_tail 9%": the stages it spends most in, as fit. */
static void stages_text(const struct sc_row *r, int width, char *buf, size_t size)
{
	const struct et_cell *best[3] = { NULL };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->nr_stages; i++) {
		const struct et_cell *c = r->stages[i];

		if (!busy_stage(c->stage))
			continue;
		for (int k = 0; k < 3; k++)
			if (!best[k] || et_hist_total(&c->hist) > et_hist_total(&best[k]->hist)) {
				memmove(&best[k + 1], &best[k], (2 - k) * sizeof(best[0]));
				best[k] = c;
				break;
			}
	}
	for (int k = 0; k < 3 && best[k] && et_hist_total(&r->total->hist); k++) {
		char item[48];
		int n;

		if (200 * et_hist_total(&best[k]->hist) < et_hist_total(&r->total->hist))
			break;	/* under 0.5%: not where it spends its time */
		n = snprintf(item, sizeof(item), "%s%s %.0f%%", k ? " " : "",
				 et_stages[best[k]->stage].name,
				 100.0 * (double)et_hist_total(&best[k]->hist) /
				 (double)et_hist_total(&r->total->hist));

		if ((int)(len + n) > width || len + n >= size)
			break;
		memcpy(buf + len, item, n + 1);
		len += n;
	}
}

/*
 * The columns shown at a width, left to right: the statistic columns after
 * the calls (and the rate) are the library's (et_top_col(), lib/columns.c:
 * which, in what order, from what width), which reads and names them too.
 */
struct cols {
	bool rate;
	int stat[32], nr_stat;	/* et_stat_col() of each shown (et_top_col()) */
	int stage_width;
};

static struct cols layout(int width)
{
	/* syscall 16, calls 7, the statistics 7 each, %time 5, with blanks */
	struct cols c = { 0 };
	int used = 16 + 8 + 6 + 2;

	if (width >= 100) {
		c.rate = true;
		used += 8;
	}
	for (size_t i = 0;; i++) {
		int from, col = et_top_col(i, &from);

		if (col < 0 || c.nr_stat == (int)(sizeof(c.stat) / sizeof(c.stat[0])))
			break;
		if (width < from)
			continue;
		c.stat[c.nr_stat++] = col;
		used += 8;
	}
	c.stage_width = width - used > 0 ? width - used : 0;
	return c;
}

static void header_row(struct screen *s, const struct cols *c)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%-16s %7s", "syscall", "calls");

	if (c->rate)
		n += snprintf(buf + n, sizeof(buf) - n, " %7s", "/s");
	for (int i = 0; i < c->nr_stat; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %7s", et_stat_col_heading(c->stat[i]));
	n += snprintf(buf + n, sizeof(buf) - n, " %5s", "time%");
	if (c->stage_width >= 10)
		snprintf(buf + n, sizeof(buf) - n, "  %s",
			 c->stage_width >= 29 ? "stages (share of the syscall)" : "stages");
	line(s, "%s", buf);
}

static void cell_row(struct screen *s, const struct cols *c, const char *label,
		     const struct et_hist *h, double period, double all, const char *stages)
{
	char buf[512], a[16], e[16];
	int n = snprintf(buf, sizeof(buf), "%-16.16s %7s", label, c7((double)et_hist_count(h), a, sizeof(a)));

	if (c->rate)
		n += snprintf(buf + n, sizeof(buf) - n, " %7s",
			      period > 0 ? c7((double)et_hist_count(h) / period, a, sizeof(a)) : "-");
	for (int i = 0; i < c->nr_stat; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %7s",
			      t7(et_stat_col_value(c->stat[i], h), e, sizeof(e)));
	if (all > 0)
		n += snprintf(buf + n, sizeof(buf) - n, " %5s",
			      p5(100.0 * (double)h->total / all, e, sizeof(e)));
	else
		n += snprintf(buf + n, sizeof(buf) - n, " %5s", "-");
	if (stages && *stages)
		snprintf(buf + n, sizeof(buf) - n, "  %s", stages);
	line(s, "%s", buf);
}

void top_screen(FILE *out, const struct top_view *v, const struct top_frame *f)
{
	/* the last line stays empty: a newline there would scroll the screen */
	struct screen s = { out, v->cols > 20 ? v->cols : 20, v->rows > 7 ? v->rows - 1 : 6, 0 };
	const struct et_cell **cells;
	size_t n = et_stats_cells(f->stats, &cells), nr = 0, shown = 0, rows_left;
	struct sc_row *rows = calloc(n + 1, sizeof(*rows));
	struct cols c = layout(s.cols);
	double all = 0;
	char nb[32], a[16];

	/*
	 * The header: what is lost (dropped, overwritten) before what was
	 * read, the keys last; at 80 columns the short forms, never a cut.
	 */
	{
		struct fit fl = { .width = s.cols };
		char l1[3][160], s1[3][160], l2[4][96], s2[4][96], tgt[160];
		const char *L1[3], *S1[3], *L2[4], *S2[4];

		snprintf(l1[0], sizeof(l1[0]), "entrytrace top  %.1f s  table %d", f->elapsed, f->n);
		snprintf(s1[0], sizeof(s1[0]), "top %.0fs #%d", f->elapsed, f->n);
		snprintf(l1[1], sizeof(l1[1]), "%s", v->delta ? "(last period)" : "");
		snprintf(s1[1], sizeof(s1[1]), "%s", v->delta ? "(delta)" : "");
		/* the target last, cut to what is left, marked */
		snprintf(tgt, sizeof(tgt), "%s", f->target);
		snprintf(l1[2], sizeof(l1[2]), "%s", tgt);
		snprintf(s1[2], sizeof(s1[2]), "%s", tgt);
		for (int i = 0; i < 3; i++)
			L1[i] = l1[i], S1[i] = s1[i];
		{
			int room = s.cols - (int)strlen(l1[0]) - 2 - (v->delta ? (int)strlen(l1[1]) + 2 : 0);

			if ((int)strlen(tgt) > room && room > 4) {
				snprintf(l1[2], sizeof(l1[2]), "%.*s~", room - 1, tgt);
				snprintf(s1[2], sizeof(s1[2]), "%.*s~", room - 1, tgt);
			}
		}
		fit_line(&fl, L1, S1, 3, "  ");
		line(&s, "%s", fl.buf);

		snprintf(l2[0], sizeof(l2[0]), "%" PRIu64 " syscalls by %" PRIu64 " tasks",
			 f->complete, f->tasks);
		snprintf(s2[0], sizeof(s2[0]), "%" PRIu64 " syscalls, %" PRIu64 " tasks",
			 f->complete, f->tasks);
		if (f->counts_gone) {
			snprintf(l2[1], sizeof(l2[1]), "the kernel's event counts are gone");
			snprintf(s2[1], sizeof(s2[1]), "kernel counts gone");
			l2[2][0] = s2[2][0] = l2[3][0] = s2[3][0] = '\0';
		} else {
			snprintf(l2[1], sizeof(l2[1]), "%llu dropped at deadlines", f->dropped);
			snprintf(s2[1], sizeof(s2[1]), "%llu dropped", f->dropped);
			snprintf(l2[2], sizeof(l2[2]), "%llu overwritten", f->overwritten);
			snprintf(s2[2], sizeof(s2[2]), "%llu overwr.", f->overwritten);
			snprintf(l2[3], sizeof(l2[3]), "events %s read", c7((double)f->read, a, sizeof(a)));
			snprintf(s2[3], sizeof(s2[3]), "%s read", c7((double)f->read, a, sizeof(a)));
		}
		for (int i = 0; i < 4; i++)
			L2[i] = l2[i], S2[i] = s2[i];
		fit_line(&fl, L2, S2, 4, "; ");
		line(&s, "%s", fl.buf);

		if (f->prompt) {
			line(&s, "filter (a part of the name, Enter applies, empty clears): %s_", f->prompt);
		} else {
			char l3[3][96], s3[3][96];
			const char *L3[3], *S3[3];

			snprintf(l3[0], sizeof(l3[0]), "sort %s", et_sort_name(v->sort));
			snprintf(s3[0], sizeof(s3[0]), "sort %s", et_sort_name(v->sort));
			snprintf(l3[1], sizeof(l3[1]), "filter %s", v->filter[0] ? v->filter : "-");
			snprintf(s3[1], sizeof(s3[1]), "filter %s", v->filter[0] ? v->filter : "-");
			snprintf(l3[2], sizeof(l3[2]), "%s", top_keys_help);
			snprintf(s3[2], sizeof(s3[2]), "%s", "q s f x d");
			for (int i = 0; i < 3; i++)
				L3[i] = l3[i], S3[i] = s3[i];
			fit_line(&fl, L3, S3, 3, "  ");
			line(&s, "%s", fl.buf);
		}
	}
	if (!rows) {
		line(&s, "(out of memory)");
		return;
	}
	/* one row per syscall: its total, the stage cells after it */
	for (size_t i = 0; i < n; i++) {
		const struct et_cell *t = cells[i];
		const char *name;

		if (t->stage != ET_SLOT_TOTAL)
			continue;
		name = et_syscall_name(f->names, t->nr);
		if (!name) {
			snprintf(nb, sizeof(nb), "sys_%d", t->nr);
			name = nb;
		}
		all += (double)et_hist_total(&t->hist);
		if (v->filter[0] && !strstr(name, v->filter))
			continue;
		rows[nr] = (struct sc_row){ .nr = t->nr, .total = t, .stages = cells + i + 1,
					    .key = et_sort_key(v->sort, &t->hist),
					    .by_name = v->sort == ET_SORT_NAME };
		/* names of unnamed syscalls are built in nb: keep them apart */
		rows[nr].name = name == nb ? strdup(nb) : name;
		while (i + 1 + rows[nr].nr_stages < n &&
		       cells[i + 1 + rows[nr].nr_stages]->nr == t->nr &&
		       cells[i + 1 + rows[nr].nr_stages]->stage != ET_SLOT_TOTAL)
			rows[nr].nr_stages++;
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), cmp_rows);
	header_row(&s, &c);
	/* keep the last line for what did not fit */
	rows_left = s.rows - s.used - 1;
	for (size_t r = 0; r < nr && rows_left > 0; r++) {
		char st[256];

		stages_text(&rows[r], c.stage_width, st, sizeof(st));
		cell_row(&s, &c, rows[r].name ? rows[r].name : "?", &rows[r].total->hist,
			 f->period, all, c.stage_width >= 10 ? st : NULL);
		rows_left--;
		shown++;
		for (size_t k = 0; v->expand && k < rows[r].nr_stages && rows_left > 0; k++) {
			const struct et_cell *sc = rows[r].stages[k];
			char label[48];

			snprintf(label, sizeof(label), " %*s%s", 2 * et_stage_depth(sc->stage), "",
				 et_stages[sc->stage].name);
			cell_row(&s, &c, label, &sc->hist, f->period, 0, NULL);
			rows_left--;
		}
	}
	if (!nr)
		line(&s, v->filter[0] ? "(no syscall matches the filter '%s')" :
		     "(no complete syscall yet)", v->filter);
	else if (shown < nr)
		line(&s, "(%zu more syscalls below: f filters, s sorts)", nr - shown);
	for (size_t r = 0; r < nr; r++)
		if (rows[r].name && !et_syscall_name(f->names, rows[r].nr))
			free((char *)rows[r].name);
	free(rows);
}
