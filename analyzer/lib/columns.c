// SPDX-License-Identifier: LGPL-2.1
/*
 * The statistic columns: one row per statistic, read by every renderer of
 * a per-stage or per-group table (lib/columns.h), and the keys the text
 * table sorts by.  A new statistic is one row here and its place in the
 * lists below; the help texts print the lists from here.
 */
#include <inttypes.h>
#include <string.h>

#include "columns.h"
#include "entrytrace-local.h"

enum col_type {
	COL_COUNT,	/* an integer count */
	COL_TIME,	/* an integer time in ns (instructions for .mix) */
	COL_FRAC,	/* a fractional time: mean, stddev */
	COL_QUANTILE,	/* an integer time, null where the hist keeps none */
	COL_AT,		/* an exemplar's timestamp */
};

static const struct col_def {
	const char *text;	/* text heading */
	const char *key;	/* JSON key, CSV heading */
	int width;		/* text width */
	enum col_type type;
	double q;		/* COL_QUANTILE */
} cols[ET_COL_NR] = {
	[ET_COL_COUNT]	= { "count",  "count",  9,  COL_COUNT, 0 },
	[ET_COL_MIN]	= { "min",    "min",    9,  COL_TIME, 0 },
	[ET_COL_MIN_AT]	= { "min_at", "min_at", 15, COL_AT, 0 },
	[ET_COL_MEAN]	= { "mean",   "mean",   11, COL_FRAC, 0 },
	[ET_COL_P50]	= { "p50",    "p50",    9,  COL_QUANTILE, 0.5 },
	[ET_COL_P90]	= { "p90",    "p90",    9,  COL_QUANTILE, 0.9 },
	[ET_COL_P99]	= { "p99",    "p99",    9,  COL_QUANTILE, 0.99 },
	[ET_COL_P999]	= { "p99.9",  "p999",   9,  COL_QUANTILE, 0.999 },
	[ET_COL_MAX]	= { "max",    "max",    10, COL_TIME, 0 },
	[ET_COL_MAX_AT]	= { "max_at", "max_at", 15, COL_AT, 0 },
	[ET_COL_STDDEV]	= { "stddev", "stddev", 11, COL_FRAC, 0 },
	[ET_COL_TOTAL]	= { "total",  "total",  14, COL_TIME, 0 },
};

/*
 * The text table's sort keys, largest first (report --sort, and the order
 * top's 's' key steps through them); sorting by name follows the last.
 */
static const enum et_col sort_cols[] = {
	ET_COL_TOTAL, ET_COL_COUNT, ET_COL_MEAN, ET_COL_P50, ET_COL_P99, ET_COL_MAX,
};

/* The breakdown tables' columns, in their order. */
static const enum et_col group_cols[] = {
	ET_COL_COUNT, ET_COL_MEAN, ET_COL_P50, ET_COL_P99, ET_COL_STDDEV,
	ET_COL_MAX, ET_COL_TOTAL,
};

/*
 * top's statistic columns, left to right, each from the terminal width it
 * needs on (0: at 80 columns too).
 */
static const struct {
	enum et_col col;
	int from;
} top_cols[] = {
	{ ET_COL_MEAN, 0 }, { ET_COL_P50, 0 }, { ET_COL_P90, 130 }, { ET_COL_P99, 0 },
	{ ET_COL_MAX, 100 }, { ET_COL_STDDEV, 130 },
};

/* A plot panel's note on a histogram: its count, median and p99. */
static const struct {
	enum et_col col;
	const char *label;
} note_cols[] = {
	{ ET_COL_COUNT, "n" }, { ET_COL_P50, "median" }, { ET_COL_P99, "p99" },
};

static const double unit_div[] = { 1, 1e3, 1e6, 1e9 };

int et_col_by_key(const char *key)
{
	for (int c = 0; c < ET_COL_NR; c++)
		if (!strcmp(key, cols[c].key))
			return c;
	return -1;
}

void et_cols_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < ET_COL_NR && n < size; c++)
		if (cols[c].type != COL_AT)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
					      cols[c].text);
}

int et_sort_by_name(const char *name)
{
	if (!strcmp(name, "name"))
		return ET_SORT_NAME;
	for (size_t i = 0; i < ET_ARRAY_SIZE(sort_cols); i++)
		if (!strcmp(name, cols[sort_cols[i]].key))
			return (int)i;
	return -1;
}

const char *et_sort_name(enum et_sort s)
{
	if (s == ET_SORT_NAME)
		return "name";
	return (size_t)s < ET_ARRAY_SIZE(sort_cols) ? cols[sort_cols[s]].key : "?";
}

enum et_sort et_sort_next(enum et_sort s)
{
	if (s == ET_SORT_NAME)
		return ET_SORT_TOTAL;
	return (size_t)s + 1 < ET_ARRAY_SIZE(sort_cols) ? (enum et_sort)(s + 1) : ET_SORT_NAME;
}

void et_sort_keys(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ET_ARRAY_SIZE(sort_cols) && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      cols[sort_cols[i]].key);
	if (n < size)
		snprintf(buf + n, size - n, " or name");
}

/*
 * Whether @h holds column @c: no quantiles in a cell of moments only
 * (with @quantiles false), and a cell of a mean only (an aggregated
 * stage, ABI 4) has count, mean and total alone.
 */
static bool col_kept(enum et_col c, const struct et_hist *h, bool quantiles)
{
	if (cols[c].type == COL_QUANTILE && !quantiles)
		return false;
	return !h->mean_only || c == ET_COL_COUNT || c == ET_COL_MEAN || c == ET_COL_TOTAL;
}

/* Integers print exactly, not through a double. */
static uint64_t col_u64(enum et_col c, const struct et_hist *h)
{
	switch (c) {
	case ET_COL_COUNT:
		return h->count;
	case ET_COL_MIN:
		return h->min;
	case ET_COL_MIN_AT:
		return h->min_ts;
	case ET_COL_MAX:
		return h->max;
	case ET_COL_MAX_AT:
		return h->max_ts;
	case ET_COL_TOTAL:
		return h->total;
	default:
		return cols[c].type == COL_QUANTILE ? et_hist_quantile(h, cols[c].q) : 0;
	}
}

int et_top_col(size_t i, int *from_width)
{
	if (i >= ET_ARRAY_SIZE(top_cols))
		return -1;
	*from_width = top_cols[i].from;
	return top_cols[i].col;
}

void et_top_cols_str(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ET_ARRAY_SIZE(top_cols) && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      cols[top_cols[i].col].key);
}

void et_stat_note(const struct et_hist *h, const char *unit, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ET_ARRAY_SIZE(note_cols) && n < size; i++) {
		enum et_col c = note_cols[i].col;

		n += (size_t)snprintf(buf + n, size - n, "%s%s %" PRIu64 "%s%s", i ? ", " : "",
				      note_cols[i].label, col_u64(c, h),
				      cols[c].type == COL_COUNT ? "" : " ",
				      cols[c].type == COL_COUNT ? "" : unit);
	}
}

int et_stat_col(const char *key)
{
	return et_col_by_key(key);
}

const char *et_stat_col_heading(int col)
{
	return col >= 0 && col < ET_COL_NR ? cols[col].text : NULL;
}

double et_stat_col_value(int col, const struct et_hist *h)
{
	return col >= 0 && col < ET_COL_NR ? et_col_value(col, h) : 0;
}

double et_col_value(enum et_col c, const struct et_hist *h)
{
	if (c == ET_COL_MEAN)
		return et_hist_mean(h);
	if (c == ET_COL_STDDEV)
		return et_hist_stddev(h);
	return (double)col_u64(c, h);
}

/* The per-stage text table: every column, the exemplars last. */
static bool text_pass(enum et_col c, int pass)
{
	return (cols[c].type == COL_AT) == (pass == 1);
}

void et_cols_text_head(FILE *out, bool mix)
{
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < ET_COL_NR; c++) {
			char h[32];

			if (!text_pass(c, pass))
				continue;
			if (cols[c].type == COL_AT)
				snprintf(h, sizeof(h), "%s(%s)", cols[c].text, mix ? "#" : "s");
			else
				snprintf(h, sizeof(h), "%s", cols[c].text);
			fprintf(out, " %*s", cols[c].width, h);
		}
}

void et_cols_text_row(FILE *out, const struct et_hist *h, enum et_unit u, bool mix)
{
	static const int decimals[] = { 0, 3, 3, 6 };
	bool q = et_hist_has_quantiles(h);

	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < ET_COL_NR; c++) {
			int w = cols[c].width;
			double v = et_col_value(c, h);

			if (!text_pass(c, pass))
				continue;
			/* an aggregated stage: no percentiles, or no spread either */
			if (!col_kept(c, h, q)) {
				fprintf(out, " %*s", w, "-");
				continue;
			}
			switch (cols[c].type) {
			case COL_COUNT:
				fprintf(out, " %*" PRIu64, w, col_u64(c, h));
				break;
			case COL_QUANTILE:
				goto time;
			case COL_AT:
				if (mix)
					fprintf(out, " %*.0f", w, v);
				else
					fprintf(out, " %*.6f", w, v / 1e9);
				break;
			case COL_FRAC:
				if (u == ET_UNIT_NS) {
					fprintf(out, " %*.1f", w, v);
					break;
				}
				/* fall through */
			case COL_TIME:
time:
				if (u == ET_UNIT_NS)
					fprintf(out, " %*.0f", w, v);
				else
					fprintf(out, " %*.*f", w, decimals[u], v / unit_div[u]);
				break;
			}
		}
}

double et_sort_key(enum et_sort by, const struct et_hist *h)
{
	if (by == ET_SORT_NAME || (size_t)by >= ET_ARRAY_SIZE(sort_cols))
		return 0;
	return et_col_value(sort_cols[by], h);
}

/*
 * A value for a machine (JSON, CSV): exact integers, fixed decimals; @none
 * where the hist keeps none.
 */
static void col_machine(FILE *out, enum et_col c, const struct et_hist *h, double div,
			bool quantiles, const char *none)
{
	if (!col_kept(c, h, quantiles)) {
		fputs(none, out);
		return;
	}
	switch (cols[c].type) {
	case COL_QUANTILE:
	case COL_COUNT:
	case COL_TIME:
		fprintf(out, "%" PRIu64, col_u64(c, h));
		break;
	case COL_FRAC:
		fprintf(out, "%.3f", et_col_value(c, h));
		break;
	case COL_AT:
		fprintf(out, "%.9f", et_col_value(c, h) / div);
		break;
	}
}

void et_cols_json(FILE *out, const struct et_hist *h, double div)
{
	bool q = et_hist_has_quantiles(h);

	for (int c = 0; c < ET_COL_NR; c++) {
		fprintf(out, "%s\"%s\": ", c ? ", " : "", cols[c].key);
		col_machine(out, c, h, div, q, "null");
	}
}

void et_cols_csv_head(FILE *out)
{
	for (int c = 0; c < ET_COL_NR; c++)
		fprintf(out, "%s%s", c ? "," : "", cols[c].key);
}

/*
 * CSV: exemplar times in seconds, quantiles even where a cell of moments
 * keeps none (0); a cell of a mean only leaves every field but count, mean
 * and total empty
 */
void et_cols_csv_row(FILE *out, const struct et_hist *h)
{
	for (int c = 0; c < ET_COL_NR; c++) {
		if (c)
			fputc(',', out);
		col_machine(out, c, h, 1e9, true, "");
	}
}

void et_cols_group_head(FILE *out)
{
	for (size_t i = 0; i < ET_ARRAY_SIZE(group_cols); i++)
		fprintf(out, " %*s", cols[group_cols[i]].width, cols[group_cols[i]].text);
}

void et_cols_group_row(FILE *out, const struct et_hist *h)
{
	bool q = et_hist_has_quantiles(h);

	for (size_t i = 0; i < ET_ARRAY_SIZE(group_cols); i++) {
		enum et_col c = group_cols[i];
		int w = cols[c].width;

		if (cols[c].type != COL_AT && !col_kept(c, h, q)) {
			fprintf(out, " %*s", w, "-");
			continue;
		}
		switch (cols[c].type) {
		case COL_QUANTILE:
		case COL_COUNT:
		case COL_TIME:
			fprintf(out, " %*" PRIu64, w, col_u64(c, h));
			break;
		case COL_FRAC:
			fprintf(out, " %*.1f", w, et_col_value(c, h));
			break;
		case COL_AT:
			break;
		}
	}
}
