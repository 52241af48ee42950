// SPDX-License-Identifier: GPL-2.0
/*
 * public-api: a report built from libentrytrace's public interface alone
 * (analyzer/include/entrytrace.h: opaque handles and getters), for
 * t-public.sh to compare with 'entrytrace report --json' and to build
 * against libentrytrace.so with nothing but the public header in reach.
 *
 *   public-api FILE
 *
 * prints "key value" lines: the trace's facts and counts, the timeline's,
 * then one "cell SYSCALL STAGE COUNT TOTAL P50" line per cell, the slowest
 * syscall's total, and the stage and path-signature tables.  Only what
 * entrytrace.h declares: the getters a program does not call yet are the
 * private tier's, and private-api.c checks those.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "entrytrace.h"

struct state {
	struct et_stats *stats;
	uint64_t added, open_start, stages_seen, slowest_total, totals;
	bool failed;
};

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct state *s = data;

	if (et_syscall_flags(sc) & ET_SC_OPEN_START)
		s->open_start++;
	if (et_syscall_flags(sc) & ET_SC_INCOMPLETE)
		return;
	for (int st = et_stage_next(ET_STAGE_NONE); st != ET_STAGE_NONE; st = et_stage_next(st))
		s->stages_seen += et_syscall_has(sc, st);
	if (et_syscall_has(sc, ET_STAGE_TOTAL)) {
		s->totals++;
		if (et_syscall_ns(sc, ET_STAGE_TOTAL) > s->slowest_total)
			s->slowest_total = et_syscall_ns(sc, ET_STAGE_TOTAL);
	}
	if (!et_stats_add(s->stats, sc))
		s->failed = true;
	s->added++;
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	struct et_timeline *tl;
	struct et_trace *t;
	char err[512];
	enum et_err e;

	if (argc != 2) {
		fprintf(stderr, "usage: public-api FILE\n");
		return 2;
	}
	t = et_trace_open(argv[1], &e, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "public-api: %s\n", err);
		return 3;
	}
	s.stats = et_stats_new(0);
	tl = et_timeline_new(t, on_syscall, &s);
	if (!s.stats || !tl || et_trace_iterate(t, et_timeline_feed, tl) < 0)
		return 1;
	et_timeline_finish(tl);
	if (s.failed)
		return 1;

	printf("mode %s\n", et_mode_name(et_trace_mode(t)));
	printf("machine %s\n", et_trace_machine(t) ? et_trace_machine(t) : "?");
	printf("cpus %d\n", et_trace_cpus(t));
	printf("records %" PRIu64 "\n", et_trace_records(t));
	printf("seen %" PRIu64 "\n", et_timeline_syscalls(tl));
	printf("open_start %" PRIu64 " %" PRIu64 "\n", s.open_start,
	       et_timeline_flagged(tl, ET_SC_OPEN_START));
	printf("table %" PRIu64 "\n", et_stats_syscalls(s.stats));
	for (size_t i = 0; i < et_stats_nr_cells(s.stats); i++) {
		const struct et_cell *c = et_stats_cell_at(s.stats, i);
		const struct et_hist *h = et_cell_hist(c);
		const char *name = et_syscall_name(t, et_cell_nr(c));

		printf("cell %s %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		       name ? name : "?", et_stage_name(et_cell_stage(c)), et_hist_count(h),
		       et_hist_total(h), et_hist_quantile(h, 0.5));
	}
	printf("slowest %" PRIu64 "\n", s.slowest_total);
	printf("totals %" PRIu64 "\n", s.totals);
	/* The enum's values and what the calls say of them (t-public freezes them). */
#define ENTRY_STAGE(SYM, nm, phase, parent, paths, arches, kind, desc) \
	printf("id %s %d %d\n", #nm, ET_STAGE_##SYM, et_stage_by_name(#nm));
#define ENTRY_STAGE_DERIVED(SYM, nm, phase, parent, paths, desc) \
	printf("id %s %d %d\n", #nm, ET_STAGE_##SYM, et_stage_by_name(#nm));
#include "stages.def"
	printf("id_end %d none_name %s\n", ET_STAGE_END,
	       et_stage_name(ET_STAGE_DERIVED_BASE - 1) ? "named" : "null");
	{
		uint64_t bits = 0;
		int n = 0, dup = 0;

		for (int st = et_stage_next(ET_STAGE_NONE); st != ET_STAGE_NONE;
		     st = et_stage_next(st), n++) {
			dup += !et_stage_bit(st) || (bits & et_stage_bit(st));
			bits |= et_stage_bit(st);
		}
		printf("stage_walk %d bits %d clashes %d hole_bit %d\n", n,
		       __builtin_popcountll(bits), dup, et_stage_bit(ET_STAGE_DERIVED_BASE - 1) != 0);
	}
	for (int st = et_stage_next(ET_STAGE_NONE); st != ET_STAGE_NONE; st = et_stage_next(st))
		printf("stage %d %s %s%s%s %s\n", st, et_stage_name(st),
		       et_stage_paths(st) & ET_PATH_G ? "G" : "",
		       et_stage_paths(st) & ET_PATH_L ? "L" : "",
		       et_stage_paths(st) & ET_PATH_S ? "S" : "", et_stage_desc(st));
	for (int b = 0; b < et_work_count(); b++)
		printf("work %d %s %s\n", b, et_work_name(b), et_work_desc(b));
	et_timeline_free(tl);
	et_stats_free(s.stats);
	et_trace_close(t);
	return 0;
}
