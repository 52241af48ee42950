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
};

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct load_ctx *c = data;
	struct et_load *ld = c->ld;

	if (c->o->tap)
		c->o->tap(sc, c->o->tap_data);
	if (sc->flags & ET_SC_INCOMPLETE) {
		if (c->o->keep_excluded) {
			if (et_grow((void **)&ld->excluded, &c->cap_excluded,
				    ld->nr_excluded + 1, sizeof(*sc)))
				c->failed = true;
			else
				ld->excluded[ld->nr_excluded++] = *sc;
		}
		return;
	}
	if (c->filtering && !et_filter_match(&c->filter, sc, c->first_ts)) {
		ld->filtered_out++;
		return;
	}
	if (!et_stats_add(ld->stats, sc) ||
	    (ld->run_stats && !et_stats_add(ld->run_stats[c->cur], sc)))
		c->failed = true;
	else if (c->o->added)
		c->o->added(sc, c->o->added_data);
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
 * Plugin output: its samples go through the same filter and stats as a
 * trace's syscalls; the file itself stays open for the mix tables.
 */
static enum et_err load_mix(struct load_ctx *c, int i, const char *path,
			    char *errbuf, size_t errlen)
{
	struct et_load *ld = c->ld;
	struct et_report_file *f = &ld->files[i];
	struct et_mix *m;
	struct et_trace *t;
	enum et_err e;

	m = ld->mixes[i] = et_mix_open(path, &e, errbuf, errlen);
	if (!m)
		return e;
	t = ld->traces[i] = et_trace_new_mix(path, et_mix_arch(m), et_mix_release(m), &e,
					     errbuf, errlen);
	if (!t)
		return e;
	if (c->o->mode >= 0 && c->o->mode != ET_MODE_STAGES) {
		snprintf(errbuf, errlen, "%s: QEMU plugin output has per-stage counts only "
			 "(mode stages), not mode %s", path, et_mode_name(c->o->mode));
		return ET_ERR_USAGE;
	}
	if (other_machine(c, i, t, path, errbuf, errlen))
		return ET_ERR_USAGE;
	if (i > 0 && !ld->mixes[0]) {
		snprintf(errbuf, errlen, "%s is QEMU plugin output but %s is a trace: "
			 "instructions and nanoseconds do not add up; give files of one kind",
			 path, c->first_path);
		return ET_ERR_USAGE;
	}
	e = resolve_syscalls(c, t, errbuf, errlen);
	if (e)
		return e;
	c->first_ts = 0;
	if (et_mix_feed(m, t, on_syscall, c) < 0 || c->failed) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	f->info = *et_trace_info(t);
	f->mix = m;
	f->tl.syscalls = et_mix_nr_samples(m);
	f->tl.complete = et_mix_kept(m);
	ld->seen += f->tl.syscalls;
	/* a file QEMU did not finish writing is data lost */
	ld->damaged += !et_mix_complete(m) || et_mix_unnamed(m);
	return ET_OK;
}

static enum et_err load_one(struct load_ctx *c, int i, const char *path,
			    char *errbuf, size_t errlen)
{
	struct et_load *ld = c->ld;
	const struct et_load_opts *o = c->o;
	struct et_report_file *f = &ld->files[i];
	struct et_timeline *tl;
	struct et_trace *t;
	enum et_err e;

	if (et_mix_probe(path))
		return load_mix(c, i, path, errbuf, errlen);
	if (i > 0 && ld->mixes[0]) {
		snprintf(errbuf, errlen, "%s is a trace but %s is QEMU plugin output: "
			 "nanoseconds and instructions do not add up; give files of one kind",
			 path, c->first_path);
		return ET_ERR_USAGE;
	}
	t = ld->traces[i] = et_trace_open(path, &e, errbuf, errlen);
	if (!t)
		return e;
	if (o->mode >= 0 && !et_trace_set_mode(t, o->mode)) {
		snprintf(errbuf, errlen, "%s: has no events for mode %s", path,
			 et_mode_name(o->mode));
		return ET_ERR_NO_EVENTS;
	}
	if (other_machine(c, i, t, path, errbuf, errlen))
		return ET_ERR_USAGE;
	et_trace_set_jobs(t, o->jobs);
	if (o->progress)
		et_trace_set_progress(t, o->progress, o->progress_data);
	e = resolve_syscalls(c, t, errbuf, errlen);
	if (e)
		return e;
	c->first_ts = et_trace_info(t)->first_ts;
	tl = et_timeline_new(t, on_syscall, c);
	if (!tl)
		return ET_ERR_NOMEM;
	et_timeline_set_raw_stamps(tl, o->raw_stamps);
	if (et_trace_iterate(t, et_timeline_feed, tl) < 0) {
		et_timeline_free(tl);
		snprintf(errbuf, errlen, "%s: reading the events failed", path);
		return c->failed ? ET_ERR_NOMEM : ET_ERR_FORMAT;
	}
	et_timeline_finish(tl);
	f->info = *et_trace_info(t);
	f->counts = *et_trace_counts(t);
	f->tl = *et_timeline_counts(tl);
	ld->seen += f->tl.syscalls;
	ld->damaged += et_counts_damaged(&f->counts);
	ld->lost += f->tl.flagged[__builtin_ctz(ET_SC_LOST)] +
		    f->counts.lost_events + f->counts.lost_unknown;
	et_timeline_free(tl);
	if (c->failed) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	return ET_OK;
}

enum et_err et_load_files(struct et_load *ld, char *const *paths, int n,
			  const struct et_load_opts *o, char *errbuf, size_t errlen)
{
	struct load_ctx c = { .ld = ld, .o = o, .first_path = n ? paths[0] : NULL };
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
	if (!ld->files || !ld->traces || !ld->mixes || !ld->stats || !runs_ok) {
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
	for (int i = 0; ld->traces && i < ld->nr_files; i++)
		et_trace_close(ld->traces[i]);
	for (int i = 0; ld->mixes && i < ld->nr_files; i++)
		et_mix_free(ld->mixes[i]);
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
	if (f->mix)
		return "instructions";
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
	if (len && len < size && buf[len - 1] == ';')
		buf[len - 1] = '\0';
	return buf;
}

/* The first damaged file's et_damage_text(), or the mix file without its end. */
const char *et_load_damage(const struct et_load *ld, char *buf, size_t size)
{
	for (int i = 0; i < ld->nr_files; i++) {
		if (ld->files[i].mix && !et_mix_complete(ld->files[i].mix)) {
			snprintf(buf, size, "%s: no \"end\" line: QEMU did not finish the file "
				 "(killed before its exit?); its tables are missing", ld->files[i].info.path);
			return buf;
		}
		if (ld->files[i].mix && et_mix_unnamed(ld->files[i].mix)) {
			snprintf(buf, size, "%s: %" PRIu64 " samples name a syscall %s does not "
				 "have: left out", ld->files[i].info.path,
				 et_mix_unnamed(ld->files[i].mix), et_mix_arch(ld->files[i].mix));
			return buf;
		}
		if (et_counts_damaged(&ld->files[i].counts))
			return et_damage_text(ld->files[i].info.path, &ld->files[i].counts, buf, size);
	}
	snprintf(buf, size, "no damage");
	return buf;
}
