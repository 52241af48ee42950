// SPDX-License-Identifier: LGPL-2.1
/*
 * Load: the pipeline every subcommand starts with.  Open each file, pick
 * its mode, run its events through a timeline, filter the syscalls and add
 * the complete ones to one et_stats; keep the per-file accounting for the
 * report header and, on request, the excluded syscalls.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

struct load_ctx {
	struct et_load *ld;
	const struct et_load_opts *o;
	struct et_filter filter;	/* o->filter with this file's syscall numbers */
	bool filtering;
	uint64_t first_ts;
	const char *first_path;
	bool failed;
	size_t cap_excluded;
	int cur;		/* the file being loaded */
	struct et_source_opts src_opts;
};

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct load_ctx *c = data;
	struct et_load *ld = c->ld;
	const struct et_load_opts *o = c->o;
	bool incomplete = sc->flags & ET_SC_INCOMPLETE;

	/* an aggregated cell: into the stats; no syscall to tap, pass or list */
	if (sc->flags & ET_SC_CELL) {
		if (c->filtering && !et_filter_match(&c->filter, sc, c->first_ts)) {
			ld->filtered_out += sc->stage_mask & (1ull << ET_SLOT_TOTAL) ?
					    sc->cell->hist.count : 0;
			return;
		}
		if (o->no_stats)
			return;
		if (!et_stats_add(ld->stats, sc) ||
		    (ld->run_stats && !et_stats_add(ld->run_stats[c->cur], sc)))
			c->failed = true;
		return;
	}
	if (o->tap)
		o->tap(sc, o->tap_data);
	if (incomplete && o->keep_excluded) {
		if (et_grow((void **)&ld->excluded, &c->cap_excluded,
			    ld->nr_excluded + 1, sizeof(*sc)))
			c->failed = true;
		else
			ld->excluded[ld->nr_excluded++] = *sc;
	}
	if (incomplete && !o->passed)
		return;
	if (c->filtering && !et_filter_match(&c->filter, sc, c->first_ts)) {
		ld->filtered_out += !incomplete;
		return;
	}
	if (o->passed)
		o->passed(sc, o->passed_data);
	if (incomplete || o->no_stats)
		return;
	if (!et_stats_add(ld->stats, sc) ||
	    (ld->run_stats && !et_stats_add(ld->run_stats[c->cur], sc)))
		c->failed = true;
	else if (o->added)
		o->added(sc, o->added_data);
}

/* Syscall names depend on the architecture: resolve them per file. */
static enum et_err resolve_syscalls(struct load_ctx *c, const struct et_trace *t,
				    char *errbuf, size_t errlen)
{
	const struct et_load_opts *o = c->o;
	const struct et_trace_info *in = et_trace_info(t);

	free(c->filter.syscalls);
	c->filter.syscalls = NULL;
	c->filter.nr_syscalls = o->nr_syscall_names;
	if (!o->nr_syscall_names)
		return ET_OK;
	c->filter.syscalls = calloc(o->nr_syscall_names, sizeof(long));
	if (!c->filter.syscalls)
		return ET_ERR_NOMEM;
	for (int i = 0; i < o->nr_syscall_names; i++) {
		long nr = et_syscall_number(t, o->syscall_names[i]);

		if (nr < 0) {
			snprintf(errbuf, errlen, "%s: no syscall '%s' on %s", in->path,
				 o->syscall_names[i],
				 in->machine ? in->machine : "this architecture");
			return ET_ERR_USAGE;
		}
		c->filter.syscalls[i] = nr;
	}
	return ET_OK;
}

static const char *machine_of(const struct et_trace_info *in)
{
	return in->machine ? in->machine : "of unknown architecture";
}

/* Files after the first must be of its architecture; errbuf says why not. */
static bool other_machine(const struct load_ctx *c, int i, const struct et_trace *t,
			  const char *path, char *errbuf, size_t errlen)
{
	const struct et_trace *first = c->ld->traces[0];

	if (i == 0 || et_same_machine(et_trace_info(first), et_trace_info(t)))
		return false;
	snprintf(errbuf, errlen, "%s is %s but %s is %s: syscall numbers differ "
		 "between architectures; give files of one architecture", path,
		 machine_of(et_trace_info(t)), c->first_path, machine_of(et_trace_info(first)));
	return true;
}

/*
 * One file, whatever its kind (source.c): opened, checked against the
 * first, its syscalls through the filter into the stats.
 */
static enum et_err load_one(struct load_ctx *c, int i, const char *path,
			    char *errbuf, size_t errlen)
{
	struct et_load *ld = c->ld;
	struct et_report_file *f = &ld->files[i];
	struct et_source *s;
	struct et_trace *t;
	enum et_err e;

	/* a file of another kind is refused before it is read */
	if (i > 0 && ld->sources[0]) {
		const char *what = et_source_what(path);
		const char *first = et_source_kind_what(ld->sources[0]);

		if (what != first) {
			snprintf(errbuf, errlen, "%s is %s but %s is %s: %s and %s do not add "
				 "up; give files of one kind", path, what, c->first_path, first,
				 et_source_counts(what), et_source_counts(first));
			return ET_ERR_USAGE;
		}
	}
	s = ld->sources[i] = et_source_open(path, &c->src_opts, &e, errbuf, errlen);
	if (!s)
		return e;
	t = ld->traces[i] = et_source_trace(s);
	ld->mixes[i] = et_source_mix(s);
	if (e)
		return e;
	if (other_machine(c, i, t, path, errbuf, errlen))
		return ET_ERR_USAGE;
	e = resolve_syscalls(c, t, errbuf, errlen);
	if (e)
		return e;
	c->first_ts = et_trace_info(t)->first_ts;
	e = et_source_feed(s, on_syscall, c, errbuf, errlen);
	if (e)
		return c->failed ? ET_ERR_NOMEM : e;
	if (c->failed) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	*f = *et_source_file(s);
	if (f->tl.hist_cells && f->tl.syscalls) {
		snprintf(errbuf, errlen, "%s: has both entry_stage_hist cells and syscall events: "
			 "the cells count the same syscalls again; record one of them", path);
		return ET_ERR_USAGE;
	}
	ld->seen += f->tl.syscalls + f->tl.hist_syscalls;
	ld->damaged += et_source_damaged(s);
	/* the kernel's aggregation tables full: staged syscalls it left out */
	ld->lost += f->tl.flagged[__builtin_ctz(ET_SC_LOST)] +
		    f->counts.lost_events + f->counts.lost_unknown + f->tl.hist_dropped +
		    f->counts.batches_unexplained;
	return ET_OK;
}

enum et_err et_load_files(struct et_load *ld, char *const *paths, int n,
			  const struct et_load_opts *o, char *errbuf, size_t errlen)
{
	struct load_ctx c = {
		.ld = ld, .o = o, .first_path = n ? paths[0] : NULL,
		.src_opts = {
			.mode = o->mode, .jobs = o->jobs, .raw_stamps = o->raw_stamps,
			.progress = o->progress, .progress_data = o->progress_data,
			.event = o->event, .event_data = o->event_data,
			.mix_refused = o->mix_refused,
		},
	};
	enum et_err e = ET_OK;

	memset(ld, 0, sizeof(*ld));
	if (o->filter)
		c.filter = *o->filter;
	c.filter.syscalls = NULL;
	c.filtering = (o->filter && (o->filter->nr_pids || o->filter->nr_comms ||
				     o->filter->nr_cpus || o->filter->have_window ||
				     o->filter->result_ok || o->filter->result_error ||
				     o->filter->nr_errnos)) ||
		      o->nr_syscall_names;
	ld->files = calloc(n, sizeof(*ld->files));
	ld->sources = calloc(n, sizeof(*ld->sources));
	ld->traces = calloc(n, sizeof(*ld->traces));
	ld->mixes = calloc(n, sizeof(*ld->mixes));
	ld->stats = et_stats_new(o->stats_flags);
	bool runs_ok = !o->per_file_stats;

	if (o->per_file_stats && (ld->run_stats = calloc(n, sizeof(*ld->run_stats)))) {
		runs_ok = true;
		for (int i = 0; i < n; i++)
			runs_ok &= !!(ld->run_stats[i] = et_stats_new(o->stats_flags));
	}
	ld->nr_files = n;	/* (et_load_free frees what there is) */
	if (!ld->files || !ld->sources || !ld->traces || !ld->mixes || !ld->stats || !runs_ok) {
		snprintf(errbuf, errlen, "out of memory");
		e = ET_ERR_NOMEM;
		goto out;
	}
	for (int i = 0; i < n && !e; i++) {
		c.cur = i;
		e = load_one(&c, i, paths[i], errbuf, errlen);
	}
out:
	free(c.filter.syscalls);
	return e;
}

void et_load_free(struct et_load *ld)
{
	for (int i = 0; ld->sources && i < ld->nr_files; i++)
		et_source_close(ld->sources[i]);
	free(ld->sources);
	free(ld->traces);
	free(ld->mixes);
	free(ld->files);
	free(ld->excluded);
	et_stats_free(ld->stats);
	for (int i = 0; ld->run_stats && i < ld->nr_files; i++)
		et_stats_free(ld->run_stats[i]);
	free(ld->run_stats);
	memset(ld, 0, sizeof(*ld));
}

/* "FILE: the data has holes: CPU 0: 1 of 260 pages unreadable; ..." */
const char *et_file_unit(const struct et_report_file *f)
{
	if (f->kind && f->kind->unit)
		return f->kind->unit;
	return f->tl.pmu ? "cycles" : "ns";
}

const char *et_damage_text(const char *path, const struct et_trace_counts *c, char *buf,
			   size_t size)
{
	size_t len = snprintf(buf, size, "%s: the data has holes:", path);

	for (int cpu = 0; cpu < c->nr_cpus && len < size; cpu++) {
		if (c->pages_per_cpu[cpu] > c->pages_read_per_cpu[cpu])
			len += snprintf(buf + len, size - len, " CPU %d: %" PRIu64 " of %"
					PRIu64 " pages unreadable;", cpu,
					c->pages_per_cpu[cpu] - c->pages_read_per_cpu[cpu],
					c->pages_per_cpu[cpu]);
		if (c->time_back_per_cpu[cpu] && len < size)
			len += snprintf(buf + len, size - len, " CPU %d: %" PRIu64
					" records out of time order;", cpu, c->time_back_per_cpu[cpu]);
		if (c->bad_pages_per_cpu[cpu] && len < size)
			len += snprintf(buf + len, size - len, " CPU %d: %" PRIu64
					" pages with data past their commit;", cpu,
					c->bad_pages_per_cpu[cpu]);
		if (c->unread_bytes_per_cpu[cpu] && len < size)
			len += snprintf(buf + len, size - len, " CPU %d: %" PRIu64
					" bytes beyond its size fields;", cpu,
					c->unread_bytes_per_cpu[cpu]);
	}
	if (c->implausible && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " syscalls with times "
				"that cannot be;", c->implausible);
	if (c->seq_unexplained && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " syscalls missing from the "
				"sequence numbers, no lost events reported;", c->seq_unexplained);
	if (c->abi_errors && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64
				" entry_stage events that do not fit the stage ABI;", c->abi_errors);
	if (c->unknown_stages && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " stage values of stages "
				"this analyzer does not know (%s);", c->unknown_stages,
				c->unknown_stage_names ? c->unknown_stage_names : "?");
	if (c->unregistered && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " records of a type no "
				"format registers;", c->unregistered);
	if (c->batches_unexplained && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " packed batches missing "
				"from their CPU's numbers, no lost events reported;",
				c->batches_unexplained);
	if (c->short_records && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " records shorter than "
				"their format;", c->short_records);
	if (c->bad_nr && len < size)
		len += snprintf(buf + len, size - len, " %" PRIu64 " syscalls numbered beyond "
				"the table of %d (e.g. %ld);", c->bad_nr, c->nr_table,
				c->bad_nr_example);
	for (const char *l = c->index_mismatches ? c->index_notes : NULL; l && *l && len < size; ) {
		const char *nl = strchr(l, '\n');

		len += snprintf(buf + len, size - len, " %.*s;", nl ? (int)(nl - l) : (int)strlen(l), l);
		l = nl ? nl + 1 : NULL;
	}
	if (len && len < size && buf[len - 1] == ';')
		buf[len - 1] = '\0';
	return buf;
}

/* The first damaged file's holes: its kind's own (a plugin output without its end), or its pages'. */
const char *et_load_damage(const struct et_load *ld, char *buf, size_t size)
{
	for (int i = 0; i < ld->nr_files; i++) {
		const struct et_report_file *f = &ld->files[i];

		if (f->kind->damage && f->kind->damage(f, buf, size))
			return buf;
		if (et_counts_damaged(&ld->files[i].counts))
			return et_damage_text(ld->files[i].info.path, &ld->files[i].counts, buf, size);
	}
	snprintf(buf, size, "no damage");
	return buf;
}
