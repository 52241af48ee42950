// SPDX-License-Identifier: GPL-2.0
/*
 * private-api: public-api's report, with the getters of libentrytrace's
 * private tier (analyzer/include/entrytrace-private.h) that used to be
 * public and that no program calls yet: the trace's single facts and
 * counts, events, a syscall's tgid, comm, return, CPU of exit, overlays,
 * AGG counts and path signature, the timeline's counts, histograms on the
 * heap with their extremes, a cell's counts and the per-pid groups.
 * t-public.sh compares them with 'entrytrace report --json', list and
 * trace-cmd, as it does public-api's; linked with the library's objects
 * (the .so does not export these).
 *
 *   private-api FILE
 *
 * prints "key value" lines, public-api's keys and these.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "entrytrace-private.h"

#define MAX_CPUS 64

struct slowest {
	char comm[64];
	int pid, tgid, cpu_enter, cpu_exit, nr, overlays;
	long ret;
	uint64_t start;
	bool has_start;
};

struct state {
	struct et_stats *stats;
	struct et_hist *totals;
	struct et_timeline *tl;
	uint64_t added, open_start, stages_seen, slowest_total;
	uint64_t events_cpu[MAX_CPUS], events_nopid, overlays, bad_overlays;
	uint64_t ev_first, ev_last, agg_count;
	uint32_t work_seen;
	struct slowest slow;
	bool failed;
};

/* every event: counted by CPU (and whether it has a pid), then the timeline */
static int on_event(const struct et_event *ev, void *data)
{
	struct state *s = data;
	int cpu = et_event_cpu(ev);

	if (cpu >= 0 && cpu < MAX_CPUS)
		s->events_cpu[cpu]++;
	if (et_event_kind(ev) != ET_EV_LOST) {
		if (!s->ev_first || et_event_ts(ev) < s->ev_first)
			s->ev_first = et_event_ts(ev);
		if (et_event_ts(ev) > s->ev_last)
			s->ev_last = et_event_ts(ev);
	}
	if (et_event_pid(ev) < 0)
		s->events_nopid++;
	return et_timeline_feed(ev, s->tl);
}

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct state *s = data;

	if (et_syscall_flags(sc) & ET_SC_OPEN_START)
		s->open_start++;
	if (et_syscall_flags(sc) & ET_SC_INCOMPLETE)
		return;
	for (int st = et_stage_next(ET_STAGE_NONE); st != ET_STAGE_NONE; st = et_stage_next(st)) {
		s->stages_seen += et_syscall_has(sc, st);
		if (et_stage_kind(st) == ET_KIND_AGG)
			s->agg_count += et_syscall_count(sc, st);
	}
	s->work_seen |= et_syscall_work(sc);
	if (et_syscall_has(sc, ET_STAGE_TOTAL) &&
	    !et_hist_add(s->totals, et_syscall_ns(sc, ET_STAGE_TOTAL), et_syscall_ts_enter(sc)))
		s->failed = true;
	if (et_syscall_ns(sc, ET_STAGE_TOTAL) > s->slowest_total) {
		const char *comm = et_syscall_comm(sc);

		s->slowest_total = et_syscall_ns(sc, ET_STAGE_TOTAL);
		snprintf(s->slow.comm, sizeof(s->slow.comm), "%s", comm ? comm : "?");
		s->slow.pid = et_syscall_pid(sc);
		s->slow.tgid = et_syscall_tgid(sc);
		s->slow.cpu_enter = et_syscall_cpu_enter(sc);
		s->slow.cpu_exit = et_syscall_cpu_exit(sc);
		s->slow.nr = et_syscall_nr(sc);
		s->slow.ret = et_syscall_ret(sc);
		s->slow.has_start = et_syscall_start(sc, ET_STAGE_TOTAL, &s->slow.start);
		s->slow.overlays = et_syscall_nr_overlays(sc);
	}
	/*
	 * every interval a syscall was switched out or interrupted lies inside
	 * it: its start to start + total (stage modes: the stamps' clock; the
	 * events themselves are written later, in the burst)
	 */
	uint64_t lo = et_syscall_ts_enter(sc), hi = et_syscall_ts_exit(sc);

	if (et_syscall_start(sc, ET_STAGE_TOTAL, &lo))
		hi = lo + et_syscall_ns(sc, ET_STAGE_TOTAL);
	for (int i = 0; i < et_syscall_nr_overlays(sc); i++) {
		uint64_t a, b;

		s->overlays++;
		if (et_syscall_overlay(sc, i, &a, &b) < 0 || b < a || a < lo || b > hi)
			s->bad_overlays++;
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
		fprintf(stderr, "usage: private-api FILE\n");
		return 2;
	}
	t = et_trace_open(argv[1], &e, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "private-api: %s\n", err);
		return 3;
	}
	s.stats = et_stats_new(0);
	s.totals = et_hist_alloc();
	tl = et_timeline_new(t, on_syscall, &s);
	s.tl = tl;
	if (!s.stats || !s.totals || !tl || et_trace_iterate(t, on_event, &s) < 0)
		return 1;
	et_timeline_finish(tl);
	if (s.failed)
		return 1;

	printf("mode %s\n", et_mode_name(et_trace_mode(t)));
	printf("machine %s\n", et_trace_machine(t) ? et_trace_machine(t) : "?");
	printf("cpus %d\n", et_trace_cpus(t));
	printf("records %" PRIu64 "\n", et_trace_records(t));
	printf("decoded %" PRIu64 "\n", et_trace_decoded(t));
	printf("lost_events %" PRIu64 "\n", et_trace_lost_events(t));
	printf("damaged %d\n", et_trace_damaged(t));
	printf("seen %" PRIu64 "\n", et_timeline_syscalls(tl));
	printf("complete %" PRIu64 "\n", et_timeline_complete(tl));
	printf("tasks %" PRIu64 "\n", et_timeline_tasks(tl));
	printf("open_start %" PRIu64 " %" PRIu64 "\n", s.open_start,
	       et_timeline_flagged(tl, ET_SC_OPEN_START));
	printf("table %" PRIu64 "\n", et_stats_syscalls(s.stats));
	for (size_t i = 0; i < et_stats_nr_cells(s.stats); i++) {
		const struct et_cell *c = et_stats_cell_at(s.stats, i);
		const struct et_hist *h = et_cell_hist(c);
		const char *name = et_syscall_name(t, et_cell_nr(c));

		printf("cell %s %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		       name ? name : "?", et_stage_name(et_cell_stage(c)), et_hist_count(h),
		       et_hist_total(h), et_hist_quantile(h, 0.5), et_hist_max(h));
		printf("cellx %s %s %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		       " %" PRIu64 "\n", name ? name : "?", et_stage_name(et_cell_stage(c)),
		       et_cell_work(c), et_cell_occurrences(c), et_cell_subtracted_exclusive(c),
		       et_cell_subtracted_overhead(c), et_hist_min(h), et_hist_min_ts(h),
		       et_hist_max_ts(h));
	}
	printf("slowest %" PRIu64 "\n", s.slowest_total);
	printf("slowest_sc %s %d %d %d %d %d %ld %s%" PRIu64 " %d\n", s.slow.comm, s.slow.pid,
	       s.slow.tgid, s.slow.cpu_enter, s.slow.cpu_exit, s.slow.nr, s.slow.ret,
	       s.slow.has_start ? "" : "-", s.slow.start, s.slow.overlays);
	printf("overlays %" PRIu64 " %" PRIu64 "\n", s.overlays, s.bad_overlays);
	printf("totals %" PRIu64 " %" PRIu64 "\n", et_hist_count(s.totals), et_hist_max(s.totals));
	et_hist_free(s.totals);
	for (size_t i = 0; i < et_stats_nr_groups(s.stats, ET_BY_PID); i++) {
		const struct et_group *g = et_stats_group_at(s.stats, ET_BY_PID, i);
		const char *name = et_syscall_name(t, et_group_nr(g));

		printf("group %s %ld %s %" PRIu64 " %" PRIu64 "\n", name ? name : "?",
		       et_group_key(g), et_group_comm(g) ? et_group_comm(g) : "?",
		       et_hist_count(et_group_hist(g)), et_hist_total(et_group_hist(g)));
	}
	for (int c = 0; c < MAX_CPUS && c < et_trace_cpus(t); c++)
		printf("events_cpu %d %" PRIu64 "\n", c, s.events_cpu[c]);
	printf("events_nopid %" PRIu64 "\n", s.events_nopid);
	printf("first_ts %" PRIu64 " %" PRIu64 "\n", et_trace_first_ts(t), s.ev_first);
	printf("last_ts %" PRIu64 " %" PRIu64 "\n", et_trace_last_ts(t), s.ev_last);
	printf("lost_gaps %" PRIu64 "\n", et_trace_lost_gaps(t));
	for (int c = 0; c < MAX_CPUS && c < et_trace_cpus(t); c++)
		printf("lost_cpu %d %" PRIu64 "\n", c, et_trace_lost_on_cpu(t, c));
	printf("excluded_open_start %" PRIu64 "\n", et_timeline_excluded(tl, ET_SC_OPEN_START));
	printf("agg_count %" PRIu64 "\n", s.agg_count);
	printf("work_seen 0x%x\n", s.work_seen);
	printf("path %s\n", et_trace_path(t));
	printf("uname %s\n", et_trace_uname(t) ? et_trace_uname(t) : "-");
	printf("clock %s\n", et_trace_clock(t));
	printf("file_version %lu\n", et_trace_file_version(t));
	printf("compression %s\n", et_trace_compression(t) ? et_trace_compression(t) : "-");
	printf("present 0x%x\n", et_trace_present(t));
	printf("entry_path 0x%x\n", et_trace_entry_path(t));
	printf("kernel_stages %d\n", et_stage_kernel_count());
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
		printf("stage_count %d walked %d bits %d clashes %d hole_bit %d\n", et_stage_count(), n,
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
