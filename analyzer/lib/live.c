// SPDX-License-Identifier: LGPL-2.1
/*
 * Live: events of the running kernel, read from a tracefs instance's raw
 * per-CPU buffers with libtracefs, decoded by the same code as a trace.dat.
 *
 * The formats come from the kernel (those of the events enabled in the
 * instance, parsed from tracefs with libtraceevent); decode.c resolves their
 * fields exactly as it does a file's, and walk.c turns each tep_record into
 * a struct et_event.  What differs is the reading: tracefs_iterate_raw_events() returns only when
 * every CPU buffer is empty, which a busy system, or a reader whose own
 * syscalls are traced, may never allow.  A round therefore has a deadline,
 * checked every 256 records (the vDSO clock, no syscall); at the deadline
 * tracefs_iterate_stop() ends it.  The rest of the sub-buffer each CPU was
 * in is then gone, so a cut is announced as a gap of unknown size on every
 * CPU: the timeline treats it like a ring-buffer overrun.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "entrytrace-local.h"

/*
 * Every event system the decoder looks up by name (lib/events.def), once
 * each; not the syscall tracepoints of the ARGS class, which no live
 * session enables.
 */
#define ET_LIVE_TASK(sys) sys,
#define ET_LIVE_IRQ(sys) sys,
#define ET_LIVE_STOCK(sys) sys,
#define ET_LIVE_ARGS(sys)
static const char *const event_systems[] = {
#define ET_EVENT(sys, name, handler, family, record, link) ET_LIVE_##record(#sys)
#include "events.def"
#undef ET_EVENT
	"entry_stage",
};

static bool first_of_system(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(event_systems[j], event_systems[i]))
			return false;
	return true;
}

struct et_live {
	struct tracefs_instance *instance;
	struct tep_handle *tep;
	struct et_trace *trace;
	/* the round in progress */
	struct et_walk walk;
	uint64_t deadline;	/* CLOCK_MONOTONIC ns; 0: none */
	unsigned int since_check;
	uint64_t last_ts;
	bool cut;
	int ret;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static char *host_uname(void)
{
	struct utsname u;
	char *s;

	if (uname(&u) < 0)
		return NULL;
	/* the layout of trace-cmd's uname option: machine is the last word */
	if (asprintf(&s, "%s %s %s %s", u.sysname, u.nodename, u.release,
		     u.machine) < 0)
		return NULL;
	return s;
}

static bool enabled(struct tracefs_instance *instance, const char *sys,
		    const char *event)
{
	char *on = tracefs_event_file_read(instance, sys, event, "enable", NULL);
	bool ret = on && on[0] == '1';

	free(on);
	return ret;
}

/* Formats of a system's events that are enabled in the instance. */
static int parse_system(struct tep_handle *tep, struct tracefs_instance *instance,
			const char *sys)
{
	char **events = tracefs_system_events(NULL, sys);
	int ret = 0;

	for (int i = 0; events && events[i]; i++) {
		int size = 0;
		char *fmt;

		if (!enabled(instance, sys, events[i]))
			continue;
		fmt = tracefs_event_file_read(NULL, sys, events[i], "format", &size);
		if (fmt && tep_parse_event(tep, fmt, size, sys))
			ret = -1;
		free(fmt);
	}
	tracefs_list_free(events);
	return ret;
}

/*
 * The formats of the events enabled in the instance, among the systems the
 * decoder knows: like a trace.dat, which holds the formats of the recorded
 * events, so the mode and the families reported present are what is being
 * recorded, not all the kernel could record.  Parsed straight from tracefs:
 * tracefs_local_events_system() would also load every symbol of
 * /proc/kallsyms, which nothing here needs and which costs seconds (minutes
 * under ASan).
 */
static struct tep_handle *local_formats(struct tracefs_instance *instance)
{
	enum tep_endian host = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
			       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;
	struct tep_handle *tep = tep_alloc();
	char *page;
	int size = 0;

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, host);
	tep_set_local_bigendian(tep, host);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, getpagesize());
	page = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!page || tep_parse_header_page(tep, page, size, sizeof(long))) {
		free(page);
		tep_free(tep);
		return NULL;
	}
	free(page);
	for (size_t i = 0; i < ET_ARRAY_SIZE(event_systems); i++)
		if (first_of_system(i))
			parse_system(tep, instance, event_systems[i]);
	return tep;
}

struct et_live *et_live_new(struct tracefs_instance *instance, enum et_err *err,
			    char *errbuf, size_t errlen)
{
	struct et_live *l = calloc(1, sizeof(*l));
	char *uname = NULL, *clock = NULL, *name = NULL;
	const char *iname;

	*err = ET_ERR_NOMEM;
	if (!l) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	l->instance = instance;
	l->tep = local_formats(instance);
	if (!l->tep) {
		snprintf(errbuf, errlen,
			 "cannot read the kernel's event formats from tracefs (%s)",
			 tracefs_tracing_dir() ? tracefs_tracing_dir() : "not mounted");
		*err = ET_ERR_IO;
		goto fail;
	}
	tracefs_load_cmdlines(NULL, l->tep);
	iname = instance ? tracefs_instance_get_name(instance) : NULL;
	uname = host_uname();
	clock = tracefs_get_clock(instance);
	if (asprintf(&name, "live: tracefs instance %s", iname ? iname : "(top)") < 0) {
		name = NULL;
		snprintf(errbuf, errlen, "out of memory");
		goto fail;
	}
	l->trace = et_trace_new_live(l->tep, name, uname, clock,
				     (int)sysconf(_SC_NPROCESSORS_CONF), err,
				     errbuf, errlen);
	if (!l->trace)
		goto fail;
	free(name);
	free(uname);
	free(clock);
	return l;
fail:
	free(name);
	free(uname);
	free(clock);
	et_live_free(l);
	return NULL;
}

struct et_trace *et_live_trace(struct et_live *l)
{
	return l->trace;
}

static int on_raw(struct tep_event *event, struct tep_record *rec, int cpu,
		  void *data)
{
	struct et_live *l = data;
	int ret;

	struct et_rec r = {
		.ts = rec->ts, .data = rec->data, .size = rec->size,
		.missed = rec->missed_events,
	};

	(void)event;
	ret = et_walk_record(l->trace, &l->walk, &r, cpu);
	if (ret) {
		l->ret = ret;
		return ret;
	}
	l->last_ts = rec->ts;
	if (l->deadline && ++l->since_check >= 256) {
		l->since_check = 0;
		if (mono_ns() >= l->deadline && !l->cut) {
			l->cut = true;
			tracefs_iterate_stop(l->instance);
		}
	}
	return 0;
}

int et_live_read(struct et_live *l, uint64_t timeout_ns, et_event_fn fn, void *data)
{
	int ret;

	if (et_walk_init(l->trace, &l->walk, fn, data))
		return -1;
	l->deadline = timeout_ns ? mono_ns() + timeout_ns : 0;
	l->since_check = 0;
	l->cut = false;
	l->ret = 0;
	/* names of tasks that appeared since the last round */
	tracefs_load_cmdlines(NULL, l->tep);
	ret = tracefs_iterate_raw_events(l->tep, l->instance, NULL, 0, on_raw, l);
	if (l->ret)
		ret = l->ret;
	else if (!ret && l->cut) {
		for (int c = 0; c < et_trace_info(l->trace)->cpus && !ret; c++)
			ret = et_walk_gap(l->trace, &l->walk, c, l->last_ts);
		if (!ret)
			ret = 1;
	}
	et_walk_fini(l->trace, &l->walk);
	return ret;
}

void et_live_free(struct et_live *l)
{
	if (!l)
		return;
	et_trace_close(l->trace);
	if (l->tep)
		tep_free(l->tep);
	free(l);
}
