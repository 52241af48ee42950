// SPDX-License-Identifier: LGPL-2.1
/*
 * Syscalls one by one, and histograms a terminal can show: the views
 * 'entrytrace list', 'report --slowest' and 'report --hist' print.
 *
 * A syscall line reads like a trace-cmd report line, then the syscall's
 * own times:
 *
 *   sysloop-21398    [000] 866.844434015: kill(62) = 0  total 2755  signal_exit 2442
 *
 * so the timestamp can be searched for in trace-cmd report or KernelShark.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "entrytrace-local.h"

/*
 * When the syscall started on the trace clock: in the stage modes the
 * kernel's own stamp of its first stage (where KernelShark draws it;
 * the entry_stage event carrying it is written microseconds later), else
 * its sys_enter event.
 */
uint64_t et_sc_start(const struct et_syscall *sc)
{
	if (sc->t0 && sc->t0 + sc->clock_offset < sc->ts_enter)
		return sc->t0 + sc->clock_offset;
	return sc->ts_enter;
}

void et_render_syscall(FILE *out, const struct et_syscall *sc, const struct et_trace *names,
		       uint64_t stages)
{
	const char *name = et_syscall_name(names, sc->nr);
	char task[4 * ET_COMM_LEN + 16], nt[4 * ET_COMM_LEN + 1], nb[32], fb[160];
	char pb[4 * ET_COMM_LEN + 48];

	if (!name) {
		snprintf(nb, sizeof(nb), sc->nr < 0 ? "nr(%d)" : "sys_%d", sc->nr);
		name = nb;
	}
	if (sc->flags & ET_SC_SAMPLE) {
		/*
		 * QEMU plugin output: no task, CPU, clock or return value, a
		 * sample number (its line in the file) and instructions
		 */
		fprintf(out, "sample %8u: %s(%d) ", sc->seq, name, sc->nr);
	} else {
		snprintf(task, sizeof(task), "%s-%d", et_name_text(sc->comm, nt, sizeof(nt)),
			 sc->pid);
		fprintf(out, "%s [%03d] %.9f: %s(%d) = %ld ", et_pad_text(task, 16, false, pb, sizeof(pb)),
			sc->cpu_enter,
			et_sc_start(sc) / 1e9, name, sc->nr, sc->ret);
	}
	if (et_sc_has(sc, ET_SLOT_TOTAL))
		fprintf(out, " total %" PRIu64, sc->ns[ET_SLOT_TOTAL]);
	for (int st = 0; st < ET_SLOT_NR; st++) {
		if (st == ET_SLOT_TOTAL || !et_sc_has(sc, st))
			continue;
		if (stages && !(stages & (1ull << st)))
			continue;
		fprintf(out, "  %s %" PRIu64, et_stages[st].name, sc->ns[st]);
		if (et_stages[st].kind == ET_KIND_AGG && sc->count[st] > 1)
			fprintf(out, "(x%u)", sc->count[st]);
	}
	if (sc->cpu_exit != sc->cpu_enter)
		fprintf(out, "  cpu %d>%d", sc->cpu_enter, sc->cpu_exit);
	if (sc->flags & ~(ET_SC_MIGRATED | ET_SC_SIGRETURN | ET_SC_SAMPLE))
		fprintf(out, "  [%s]", et_sc_flags_str(sc->flags & ~(ET_SC_MIGRATED | ET_SC_SIGRETURN |
								     ET_SC_SAMPLE), fb, sizeof(fb)));
	fputc('\n', out);
}

/* ------------------------------------------------------------------ */
/* The N slowest                                                       */

struct et_slowest {
	size_t max, n;
	struct et_syscall *sc;	/* a min-heap by total */
};

struct et_slowest *et_slowest_new(size_t n)
{
	struct et_slowest *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->max = n;
	s->sc = calloc(n ? n : 1, sizeof(*s->sc));
	if (!s->sc) {
		free(s);
		return NULL;
	}
	return s;
}

static uint64_t key(const struct et_syscall *sc)
{
	return sc->ns[ET_SLOT_TOTAL];
}

static void swap_sc(struct et_syscall *a, struct et_syscall *b)
{
	struct et_syscall t = *a;

	*a = *b;
	*b = t;
}

static void sift_up(struct et_slowest *s, size_t i)
{
	while (i && key(&s->sc[(i - 1) / 2]) > key(&s->sc[i])) {
		swap_sc(&s->sc[(i - 1) / 2], &s->sc[i]);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct et_slowest *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->n && key(&s->sc[l]) < key(&s->sc[m]))
			m = l;
		if (r < s->n && key(&s->sc[r]) < key(&s->sc[m]))
			m = r;
		if (m == i)
			return;
		swap_sc(&s->sc[m], &s->sc[i]);
		i = m;
	}
}

void et_slowest_add(struct et_slowest *s, const struct et_syscall *sc)
{
	if (!s->max || !et_sc_has(sc, ET_SLOT_TOTAL))
		return;
	if (s->n < s->max) {
		s->sc[s->n] = *sc;
		sift_up(s, s->n++);
	} else if (key(sc) > key(&s->sc[0])) {
		s->sc[0] = *sc;
		sift_down(s, 0);
	}
}

static int cmp_slow(const void *a, const void *b)
{
	uint64_t x = key(a), y = key(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

size_t et_slowest_sort(struct et_slowest *s)
{
	/* sorted, it is no longer a heap: only read from now on */
	qsort(s->sc, s->n, sizeof(*s->sc), cmp_slow);
	s->max = 0;
	return s->n;
}

const struct et_syscall *et_slowest_at(const struct et_slowest *s, size_t i)
{
	return i < s->n ? &s->sc[i] : NULL;
}

void et_slowest_free(struct et_slowest *s)
{
	if (!s)
		return;
	free(s->sc);
	free(s);
}

/* ------------------------------------------------------------------ */
/* A histogram for the terminal                                        */

#define HIST_ROWS_PER_OCTAVE 4
#define HIST_BAR 50

/*
 * Rows of a quarter octave each ([2^k, 1.25 * 2^k), ...): their bounds fall
 * on bucket bounds, so each bucket's count lands in exactly one row.  A bar
 * is scaled to the fullest row; a count that rounds to no '#' still shows
 * as '.'.
 */
/* The histogram's title line: these columns of lib/columns.c's table. */
static const enum et_col hist_cols[] = {
	ET_COL_MIN, ET_COL_P50, ET_COL_P99, ET_COL_P999, ET_COL_MAX,
};

void et_render_hist(FILE *out, const struct et_hist *h, const char *title)
{
	uint64_t lo, hi, rmax = 0;
	size_t nrows = 0;
	struct { uint64_t lo, hi, n; } *rows;

	if (!h->count || h->moments_only)
		return;
	rows = calloc(64 * HIST_ROWS_PER_OCTAVE + 1, sizeof(*rows));
	if (!rows)
		return;
	/* the rows from min's to max's */
	for (int k = 63 - __builtin_clzll(h->min | 1); k < 64 && nrows < 64 * HIST_ROWS_PER_OCTAVE; k++) {
		for (int j = 0; j < HIST_ROWS_PER_OCTAVE; j++) {
			lo = (1ull << k) + (((1ull << k) * j) >> 2);
			hi = (1ull << k) + (((1ull << k) * (j + 1)) >> 2);
			if (hi <= lo || hi <= h->min)
				continue;
			if (lo > h->max)
				goto counted;
			rows[nrows].lo = lo < h->min ? h->min : lo;
			rows[nrows].hi = hi;
			nrows++;
		}
	}
counted:
	if (!h->min && nrows) {	/* a zero value: the first row starts at 0 */
		rows[0].lo = 0;
	}
	for (uint32_t b = h->first; b < h->nr_buckets; b++) {
		uint64_t v;

		if (!et_hist_bucket(h, b))
			continue;
		v = et_hist_lower(b);
		for (size_t r = 0; r < nrows; r++)
			if ((v >= rows[r].lo || r == 0) && (v < rows[r].hi || r == nrows - 1)) {
				rows[r].n += et_hist_bucket(h, b);
				break;
			}
	}
	for (size_t r = 0; r < nrows; r++)
		if (rows[r].n > rmax)
			rmax = rows[r].n;
	fprintf(out, "\n%s: %" PRIu64 " values, ns (", title, h->count);
	for (size_t i = 0; i < ET_ARRAY_SIZE(hist_cols); i++)
		fprintf(out, "%s%s %.0f", i ? ", " : "", et_stat_col_heading(hist_cols[i]),
			et_stat_col_value(hist_cols[i], h));
	fputs(")\n", out);
	for (size_t r = 0; r < nrows; r++) {
		int bar = rmax ? (int)((rows[r].n * HIST_BAR + rmax / 2) / rmax) : 0;
		uint64_t lo = rows[r].lo, hi = r == nrows - 1 ? h->max : rows[r].hi - 1;
		char b[HIST_BAR + 1];

		/* a run of empty rows is one row */
		while (!rows[r].n && r + 1 < nrows && !rows[r + 1].n)
			hi = rows[++r].hi - 1;
		memset(b, '#', bar);
		if (!bar && rows[r].n)
			b[bar++] = '.';
		b[bar] = '\0';
		fprintf(out, "%12" PRIu64 " .. %-12" PRIu64 " |%-*s| %" PRIu64 "\n", lo,
			hi, HIST_BAR, b, rows[r].n);
	}
	free(rows);
}
