// SPDX-License-Identifier: LGPL-2.1
/*
 * Sources: one file of syscalls, whatever wrote it.  Each kind is a row of
 * kinds[] below: how to recognise it, open it, and hand its syscalls out,
 * what its values count and when it is damaged.  A trace (trace.dat, v6 or
 * v7) gives events, which go through a timeline; QEMU plugin output (.mix)
 * gives samples that are syscalls already; the running kernel (a tracefs
 * instance's buffers, lib/live.c) gives events in rounds, each until a
 * deadline, through one timeline that lives as long as the source.
 * et_load_files() opens every command's files here and top the running
 * kernel, so a new kind of input is one row.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"
#include "entrytrace-kit.h"

struct et_source {
	const struct source_kind *kind;
	const struct et_source_opts *o;
	const char *path;		/* as the caller named it */
	struct et_trace *trace;		/* a trace, or the names of a mix's machine */
	struct et_mix *mix;
	struct et_live *live;		/* the running kernel: owns trace */
	struct et_timeline *tl;		/* while a trace is fed; a live source's */
	struct et_report_file file;	/* what et_source_feed() read */
};

struct source_kind {
	struct et_file_kind k;		/* what the outputs see: et_report_file.kind */
	bool (*probe)(const char *path);
	enum et_err (*open)(struct et_source *s, const char *path, char *errbuf,
			    size_t errlen);
	enum et_err (*feed)(struct et_source *s, et_syscall_fn fn, void *data, char *errbuf,
			    size_t errlen);
	bool (*damaged)(const struct et_source *s);
	/* a source read in rounds (the running kernel): one round */
	int (*round)(struct et_source *s, uint64_t timeout_ns, et_syscall_fn fn, void *data);
};

/* ---- a trace: events, through a timeline ---- */

static bool trace_probe(const char *path)
{
	(void)path;
	return true;	/* the last row: anything else is read as a trace */
}

/* Only the events of mode o->mode, when it is set. */
static enum et_err set_mode(struct et_source *s, const char *path, char *errbuf, size_t errlen)
{
	if (s->o->mode >= 0 && !et_trace_set_mode(s->trace, s->o->mode)) {
		snprintf(errbuf, errlen, "%s: has no events for mode %s", path,
			 et_mode_name(s->o->mode));
		return ET_ERR_NO_EVENTS;
	}
	return ET_OK;
}

static enum et_err trace_open(struct et_source *s, const char *path, char *errbuf,
			      size_t errlen)
{
	const struct et_source_opts *o = s->o;
	enum et_err e;

	s->trace = et_trace_open(path, &e, errbuf, errlen);
	if (!s->trace)
		return e;
	e = set_mode(s, path, errbuf, errlen);
	if (e)
		return e;
	et_trace_set_jobs(s->trace, o->jobs);
	if (o->progress)
		et_trace_set_progress(s->trace, o->progress, o->progress_data);
	return ET_OK;
}

/* Each event to the caller's hook (export's lost markers), then the timeline. */
static int trace_event(const struct et_event *ev, void *data)
{
	struct et_source *s = data;
	int r = s->o->event(ev, s->o->event_data);

	return r < 0 ? r : et_timeline_feed(ev, s->tl);
}

static enum et_err trace_feed(struct et_source *s, et_syscall_fn fn, void *data,
			      char *errbuf, size_t errlen)
{
	struct et_timeline *tl;
	int r;

	tl = s->tl = et_timeline_new(s->trace, fn, data);
	if (!tl) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	et_timeline_set_raw_stamps(tl, s->o->raw_stamps);
	r = s->o->event ? et_trace_iterate(s->trace, trace_event, s)
			: et_trace_iterate(s->trace, et_timeline_feed, tl);
	if (r >= 0) {
		et_timeline_finish(tl);
		s->file.counts = *et_trace_counts(s->trace);
		s->file.tl = *et_timeline_counts(tl);
	}
	et_timeline_free(tl);
	s->tl = NULL;
	if (r < 0) {
		snprintf(errbuf, errlen, "%s: reading the events failed", s->path);
		return ET_ERR_FORMAT;
	}
	return ET_OK;
}

static bool trace_damaged(const struct et_source *s)
{
	return et_counts_damaged(&s->file.counts);
}

/* ---- QEMU plugin output: samples, syscalls already ---- */

static enum et_err mix_open(struct et_source *s, const char *path, char *errbuf,
			    size_t errlen)
{
	enum et_err e;

	s->mix = et_mix_open(path, &e, errbuf, errlen);
	if (!s->mix)
		return e;
	s->trace = et_trace_new_mix(path, et_mix_arch(s->mix), et_mix_release(s->mix), &e,
				    errbuf, errlen);
	if (!s->trace)
		return e;
	if (s->o->mode >= 0 && s->o->mode != ET_MODE_STAGES) {
		snprintf(errbuf, errlen, "%s: QEMU plugin output has per-stage counts only "
			 "(mode stages), not mode %s", path, et_mode_name(s->o->mode));
		return ET_ERR_USAGE;
	}
	return ET_OK;
}

static enum et_err mix_feed(struct et_source *s, et_syscall_fn fn, void *data, char *errbuf,
			    size_t errlen)
{
	if (et_mix_feed(s->mix, s->trace, fn, data) < 0) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	s->file.mix = s->mix;
	s->file.tl.syscalls = et_mix_nr_samples(s->mix);
	s->file.tl.complete = et_mix_kept(s->mix);
	return ET_OK;
}

/* a file QEMU did not finish writing is data lost, and so are unnamed samples */
static bool mix_damaged(const struct et_source *s)
{
	return !et_mix_complete(s->mix) || et_mix_unnamed(s->mix);
}

static const char *mix_damage(const struct et_report_file *f, char *buf, size_t size)
{
	if (!et_mix_complete(f->mix)) {
		snprintf(buf, size, "%s: no \"end\" line: QEMU did not finish the file "
			 "(killed before its exit?); its tables are missing", f->info.path);
		return buf;
	}
	if (et_mix_unnamed(f->mix)) {
		snprintf(buf, size, "%s: %" PRIu64 " samples name a syscall %s does not "
			 "have: left out", f->info.path, et_mix_unnamed(f->mix), et_mix_arch(f->mix));
		return buf;
	}
	return NULL;
}

/* ---- a kit archive: counted runs, not syscalls ---- */

/*
 * entrytrace kit's archive holds workload runs and their counts, which
 * report and diff read themselves (builtin-kit.c, lib/render_kit.c); a
 * command that wants syscalls is told so instead of "not a trace.dat".
 */
static enum et_err kit_open(struct et_source *s, const char *path, char *errbuf,
			    size_t errlen)
{
	(void)s;
	snprintf(errbuf, errlen, "%s is a kit archive (entrytrace kit): counted workload runs, "
		 "no syscalls; read it with 'entrytrace report' or 'entrytrace diff'", path);
	return ET_ERR_USAGE;
}

/* ---- the running kernel: a tracefs instance's buffers, in rounds ---- */

/* Opened from an instance, not a path: et_source_open_live(). */
static int live_round(struct et_source *s, uint64_t timeout_ns, et_syscall_fn fn, void *data)
{
	int r;

	if (!s->tl) {
		s->tl = et_timeline_new(s->trace, fn, data);
		if (!s->tl)
			return -1;
		et_timeline_set_raw_stamps(s->tl, s->o->raw_stamps);
	}
	r = et_live_read(s->live, timeout_ns, et_timeline_feed, s->tl);
	/* every syscall this round completed is in the table it ends */
	et_timeline_release_held(s->tl);
	s->file.info = *et_trace_info(s->trace);
	s->file.counts = *et_trace_counts(s->trace);
	s->file.tl = *et_timeline_counts(s->tl);
	return r;
}

/*
 * Probed in order, rows without a probe skipped: the first whose probe says
 * yes is the file's kind (a trace's says yes to anything, so it is last).
 */
static const struct source_kind kinds[] = {
	{ .k = { .key = "mix", .what = "QEMU plugin output", .counts = "instructions",
		 .unit = "instructions", .counted = true, .samples = true,
		 .legend = "counts in instructions, min_at/max_at: the plugin's sample numbers",
		 .slowest = "total, guest instructions; the number is the plugin's: its line "
			    "'sample N ...'",
		 .damage = mix_damage,
		 .diff_exact = "plugin counts",
		 .diff_values = "counts in guest instructions (QEMU plugin, events off); "
				"contribution = change of a stage's mean count per syscall" },
	  .probe = et_mix_probe, .open = mix_open, .feed = mix_feed, .damaged = mix_damaged },
	{ .k = { .key = "kit", .what = "a kit archive", .counts = "workload runs" },
	  .probe = et_kit_probe, .open = kit_open },
	{ .k = { .key = "live", .what = "the running kernel", .counts = "nanoseconds" },
	  .damaged = trace_damaged, .round = live_round },
	{ .k = { .key = "trace", .what = "a trace", .counts = "nanoseconds" },
	  .probe = trace_probe, .open = trace_open, .feed = trace_feed, .damaged = trace_damaged },
};

static const struct source_kind *kind_of(const char *path)
{
	size_t i = 0;

	while (!kinds[i].probe || !kinds[i].probe(path))
		i++;
	return &kinds[i];
}

const char *et_source_what(const char *path)
{
	return kind_of(path)->k.what;
}

const char *et_source_counts(const char *what)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].k.what, what))
			return kinds[i].k.counts;
	return "?";
}

const struct et_file_kind *et_source_kind_of(const char *key)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].k.key, key))
			return &kinds[i].k;
	return NULL;
}

bool et_source_is_mix(const char *path)
{
	return kind_of(path)->open == mix_open;
}

static void set_kind(struct et_source *s)
{
	s->file.kind = &s->kind->k;
}

struct et_source *et_source_open(const char *path, const struct et_source_opts *o,
				 enum et_err *err, char *errbuf, size_t errlen)
{
	struct et_source *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(errbuf, errlen, "out of memory");
		*err = ET_ERR_NOMEM;
		return NULL;
	}
	s->o = o;
	s->path = path;
	s->kind = kind_of(path);
	set_kind(s);
	if (o->mix_refused && s->kind->open == mix_open) {
		snprintf(errbuf, errlen, "%s is QEMU plugin output: instruction counts "
			 "per syscall, %s", path, o->mix_refused);
		*err = ET_ERR_USAGE;
		return s;
	}
	*err = s->kind->open(s, path, errbuf, errlen);
	return s;	/* on error too: the caller closes it */
}

struct et_source *et_source_open_live(struct tracefs_instance *instance,
				      const struct et_source_opts *o, enum et_err *err,
				      char *errbuf, size_t errlen)
{
	struct et_source *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(errbuf, errlen, "out of memory");
		*err = ET_ERR_NOMEM;
		return NULL;
	}
	s->o = o;
	s->kind = kinds;
	while (!s->kind->round)	/* the row read in rounds */
		s->kind++;
	set_kind(s);
	s->path = s->kind->k.what;
	s->live = et_live_new(instance, err, errbuf, errlen);
	if (!s->live)
		return s;
	s->trace = et_live_trace(s->live);
	*err = set_mode(s, s->path, errbuf, errlen);
	return s;
}

int et_source_read(struct et_source *s, uint64_t timeout_ns, et_syscall_fn fn, void *data)
{
	return s->kind->round ? s->kind->round(s, timeout_ns, fn, data) : -1;
}

void et_source_finish(struct et_source *s)
{
	if (s->tl) {
		et_timeline_finish(s->tl);
		s->file.tl = *et_timeline_counts(s->tl);
	}
}

const char *et_source_kind_what(const struct et_source *s)
{
	return s->kind->k.what;
}

struct et_trace *et_source_trace(const struct et_source *s)
{
	return s->trace;
}

struct et_mix *et_source_mix(const struct et_source *s)
{
	return s->mix;
}

enum et_err et_source_feed(struct et_source *s, et_syscall_fn fn, void *data, char *errbuf,
			   size_t errlen)
{
	enum et_err e;

	if (!s->kind->feed) {
		snprintf(errbuf, errlen, "%s: read in rounds (et_source_read), not fed", s->path);
		return ET_ERR_USAGE;
	}
	e = s->kind->feed(s, fn, data, errbuf, errlen);
	s->file.info = *et_trace_info(s->trace);
	return e;
}

const struct et_report_file *et_source_file(const struct et_source *s)
{
	return &s->file;
}

bool et_source_damaged(const struct et_source *s)
{
	return s->kind->damaged(s);
}

void et_source_close(struct et_source *s)
{
	if (!s)
		return;
	et_timeline_free(s->tl);
	if (s->live)
		et_live_free(s->live);	/* and its trace */
	else
		et_trace_close(s->trace);
	et_mix_free(s->mix);
	free(s);
}
