/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The statistic columns of a histogram (count, min, mean, percentiles, max,
 * stddev, total and the exemplars' times): one table names each column for
 * every output (text heading, JSON key, CSV heading), gives its width, how
 * it is read from an et_hist and how it is printed.  Every table of
 * statistics the renderers write is a list of these columns.
 */
#ifndef _ET_COLUMNS_H
#define _ET_COLUMNS_H

#include <stdbool.h>
#include <stdio.h>

#include "entrytrace-private.h"

enum et_col {
	ET_COL_COUNT,
	ET_COL_MIN,
	ET_COL_MIN_AT,
	ET_COL_MEAN,
	ET_COL_P50,
	ET_COL_P90,
	ET_COL_P99,
	ET_COL_P999,
	ET_COL_MAX,
	ET_COL_MAX_AT,
	ET_COL_STDDEV,
	ET_COL_TOTAL,
	ET_COL_NR,
};

/* The column named @key (JSON key, e.g. "p50"), or -1. */
int et_col_by_key(const char *key);
/* A column's value: a count, nanoseconds, or an exemplar's raw timestamp. */
double et_col_value(enum et_col c, const struct et_hist *h);

/*
 * The per-stage table (report's text, JSON and CSV): @mix, plugin samples
 * (exemplars are sample numbers, times are instructions, no unit).
 */
void et_cols_text_head(FILE *out, bool mix);
void et_cols_text_row(FILE *out, const struct et_hist *h, enum et_unit u, bool mix);
/* "count": .., "min": .., ...: exemplar timestamps divided by @div */
void et_cols_json(FILE *out, const struct et_hist *h, double div);
void et_cols_csv_head(FILE *out);
void et_cols_csv_row(FILE *out, const struct et_hist *h);

/* The breakdown tables (per task, CPU, result): fewer columns, in ns. */
void et_cols_group_head(FILE *out);
void et_cols_group_row(FILE *out, const struct et_hist *h);

#endif
