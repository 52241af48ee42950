/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entrytrace top on a terminal: one screen that fits it, as perf top and
 * htop draw theirs.
 */
#ifndef ENTRYTRACE_TOP_SCREEN_H
#define ENTRYTRACE_TOP_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "entrytrace-private.h"

/* What the user chose with the keys, and the terminal's size. */
struct top_view {
	int rows, cols;
	enum et_sort sort;
	char filter[32];	/* a substring of the syscall names; "" none */
	bool expand;		/* each syscall's stages under it */
	bool delta;		/* the table covers the last period */
};

/* What one screen shows besides the table. */
struct top_frame {
	const struct et_stats *stats;
	const struct et_trace *names;
	const char *target;	/* "the whole system", "pid 42", "sh -c ..." */
	int n;			/* table number */
	double elapsed;		/* s since top started */
	double period;		/* s the table covers (rates) */
	uint64_t complete, tasks;
	unsigned long long read, dropped, overwritten;
	bool counts_gone;	/* the kernel's counts are no more */
	const char *prompt;	/* the filter being typed, or NULL */
};

/* The keys a screen offers, for its last line and --help. */
extern const char top_keys_help[];

/*
 * Draw one screen: a three-line header, the column names, then as many
 * syscalls as fit, busiest first, and a line saying how many did not.
 * Never wider than v->cols, never more than v->rows lines.
 */
void top_screen(FILE *out, const struct top_view *v, const struct top_frame *f);

#endif
