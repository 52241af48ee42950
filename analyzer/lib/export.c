// SPDX-License-Identifier: LGPL-2.1
/*
 * Export: one file's syscall and stage timelines for trace viewers
 * (entrytrace export).
 *
 * chrome-json is the Trace Event Format (the JSON that chrome://tracing and
 * ui.perfetto.dev open): one thread track per task, an "X" slice per
 * syscall with its stages as nested "X" slices, "i" instants for signal
 * deliveries and lost-event gaps.  proto is Perfetto's protobuf
 * (perfetto.c), the same slices as begin and end events on the same
 * tracks.  Events are written as the timeline produces them, through the
 * load's hooks, so memory does not grow with the trace.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"
#include "perfetto.h"

#define MAX_TASKS_NAMED 65536

struct named;

struct et_export {
	FILE *out;
	const struct et_load *ld;	/* the one file: ld->traces[0] */
	const char *path;
	bool header;		/* the JSON's head is out */
	bool first;		/* no event written yet */
	struct et_export_counts n;
	struct named *named;	/* tasks whose thread_name is out */
	size_t nr_named, cap_named;
	bool failed;
	struct et_perfetto *pf;	/* --format=proto */
};

#define PF_THREAD(tid) ((1ull << 32) | (uint32_t)(tid))
#define PF_PROCESS(pid) ((2ull << 32) | (uint32_t)(pid))
#define PF_LOST 1

/* Whether a stage of a syscall is drawn (a slice, or a marker outside it). */
static bool drawn(const struct et_syscall *sc, int st)
{
	return st != ET_SLOT_TOTAL && (sc->start_mask & (1ull << st)) &&
	       et_stages[st].phase != ET_PHASE_USER;
}

/* One slice or instant of a syscall, for the protobuf writer. */
struct item {
	uint64_t ts, end;
	bool instant;
	const char *cat, *name;
	int stage;		/* -1: the syscall itself */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* the longer one encloses the shorter: it begins first */
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->stage - y->stage;
}

/* Microseconds with nanosecond digits, as the format wants. */
static void us(FILE *out, const char *key, uint64_t ns)
{
	fprintf(out, "\"%s\":%" PRIu64 ".%03" PRIu64, key, ns / 1000, ns % 1000);
}

/* The JSON's head: written before the first event (the mode is known then). */
static void header(struct et_export *x)
{
	if (x->header || x->pf)
		return;
	x->header = true;
	fprintf(x->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"entrytrace\","
		"\"trace\":");
	et_json_str(x->out, x->path);
	fprintf(x->out, ",\"mode\":\"%s\"},\n\"traceEvents\":[",
		et_mode_name(et_trace_info(x->ld->traces[0])->mode));
}

static void sep(struct et_export *x)
{
	header(x);
	fputs(x->first ? "\n" : ",\n", x->out);
	x->first = false;
}

struct named {
	int pid;
	int tgid;
	char comm[ET_COMM_LEN];
};

/* "comm-pid" as a JSON string: comm is whatever the task called itself. */
static void task_label(FILE *out, const char *comm, int pid)
{
	char buf[4 * ET_COMM_LEN + 16], nt[4 * ET_COMM_LEN + 1];

	snprintf(buf, sizeof(buf), "%s-%d", et_name_text(comm, nt, sizeof(nt)), pid);
	et_json_str(out, buf);
}

/*
 * A thread_name record when a task is first seen or its name or group
 * changed; a process_name record for a thread group's leader.
 */
static void name_task(struct et_export *x, int pid, int tgid, const char *comm)
{
	struct named *n = NULL;

	for (size_t i = 0; i < x->nr_named; i++)
		if (x->named[i].pid == pid)
			n = &x->named[i];
	if (n && !strncmp(n->comm, comm, ET_COMM_LEN) && n->tgid == tgid)
		return;
	if (!n) {
		if (x->nr_named >= MAX_TASKS_NAMED)
			return;
		if (x->nr_named == x->cap_named) {
			size_t cap = x->cap_named ? 2 * x->cap_named : 64;
			struct named *p = realloc(x->named, cap * sizeof(*p));

			if (!p) {
				x->failed = true;
				return;
			}
			x->named = p;
			x->cap_named = cap;
		}
		n = &x->named[x->nr_named++];
		n->pid = pid;
	}
	snprintf(n->comm, sizeof(n->comm), "%s", comm);
	n->tgid = tgid;
	if (x->pf) {
		char label[4 * ET_COMM_LEN + 16], nt[4 * ET_COMM_LEN + 1];

		/* (protobuf strings are UTF-8: the name text is) */
		snprintf(label, sizeof(label), "%s-%d", et_name_text(comm, nt, sizeof(nt)), pid);
		if (tgid == pid)
			et_perfetto_process(x->pf, PF_PROCESS(tgid), tgid, label);
		et_perfetto_thread(x->pf, PF_THREAD(pid), tgid, pid, label);
		return;
	}
	sep(x);
	fprintf(x->out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"name\":", tgid, pid);
	task_label(x->out, comm, pid);
	fputs("}}", x->out);
	if (tgid == pid) {
		sep(x);
		fprintf(x->out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,"
			"\"tid\":%d,\"args\":{\"name\":", tgid, pid);
		task_label(x->out, comm, pid);
		fputs("}}", x->out);
	}
}

static const char *sc_name(const struct et_export *x, int nr, char *buf, size_t n)
{
	const char *s = et_syscall_name(x->ld->traces[0], nr);

	if (s)
		return s;
	snprintf(buf, n, "sys_%d", nr);
	return buf;
}

/*
 * The intervals the task was switched out or interrupted inside the
 * syscall, as slices.  Each is clipped to the innermost stage slice
 * holding its start, so the slices on a track stay properly nested.
 */
static void overlays(struct et_export *x, const struct et_syscall *sc, int pid,
		     uint64_t t0, uint64_t t1)
{
	for (int i = 0; i < sc->nr_overlays; i++) {
		uint64_t a = sc->overlays[i].start, b = sc->overlays[i].end;
		uint64_t lo = t0, hi = t1;
		int depth = -1;

		for (int st = 0; st < ET_SLOT_NR; st++) {
			uint64_t s, e;
			int d = 0;

			if (st == ET_SLOT_TOTAL || !(sc->start_mask & (1ull << st)) ||
			    et_stages[st].phase == ET_PHASE_USER)
				continue;
			s = sc->start[st] + sc->clock_offset;
			e = s + sc->extent[st];
			if (s < t0 || e > t1 || a < s || a >= e)
				continue;
			for (int p = et_stages[st].parent; p != ET_STAGE_NONE; p = et_stages[p].parent)
				d++;
			if (d > depth) {
				depth = d;
				lo = s;
				hi = e;
			}
		}
		if (a < lo)
			a = lo;
		if (b > hi)
			b = hi;
		if (b <= a)
			continue;
		sep(x);
		fprintf(x->out, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,",
			et_stages[sc->overlays[i].stage].name, et_stages[sc->overlays[i].stage].name,
			pid, sc->pid);
		us(x->out, "ts", a);
		fputc(',', x->out);
		us(x->out, "dur", b - a);
		fprintf(x->out, ",\"args\":{\"ns\":%" PRIu64 "}}", sc->overlays[i].end -
			sc->overlays[i].start);
		x->n.overlays++;
	}
}

/*
 * The protobuf form of a syscall: the same slices and instants as the
 * JSON, as BEGIN/END pairs in nesting order on the thread's track.
 */
static void proto_syscall(struct et_export *x, const struct et_syscall *sc, uint64_t t0,
			  uint64_t t1)
{
	struct item it[ET_SLOT_NR * 2 + ET_SC_MAX_OVERLAYS + 1], *stack[ET_SLOT_NR + ET_SC_MAX_OVERLAYS + 2];
	int n = 0, depth = 0;
	char nb[32], wb[160], fb[128];
	uint64_t track = PF_THREAD(sc->pid);
	struct et_perfetto_arg args[7] = {
		{ .name = "nr", .i = sc->nr },
		{ .name = "ret", .i = sc->ret },
		{ .name = "cpu_enter", .i = sc->cpu_enter },
	};
	int nargs = 3;

	/* only what differs from the common case, to keep packets small */
	if (sc->work)
		args[nargs++] = (struct et_perfetto_arg){ .name = "work",
			.str = et_work_str(sc->work, wb, sizeof(wb)) };
	if (sc->flags)
		args[nargs++] = (struct et_perfetto_arg){ .name = "flags",
			.str = et_sc_flags_str(sc->flags, fb, sizeof(fb)) };
	if (sc->flags & ET_SC_INCOMPLETE)
		args[nargs++] = (struct et_perfetto_arg){ .name = "complete", .is_bool = true };
	if (sc->cpu_exit != sc->cpu_enter)
		args[nargs++] = (struct et_perfetto_arg){ .name = "cpu_exit", .i = sc->cpu_exit };

	it[n++] = (struct item){ t0, t1, false, "syscall", sc_name(x, sc->nr, nb, sizeof(nb)), -1 };
	for (int st = 0; st < ET_SLOT_NR; st++) {
		uint64_t s, e;

		if (!drawn(sc, st))
			continue;
		s = sc->start[st] + sc->clock_offset;
		e = s + sc->extent[st];
		if (s < t0 || e > t1) {
			it[n++] = (struct item){ e, e, true, "marker", st == ET_SLOT_SIGNAL_EXIT ?
						 "signal delivered" : et_stages[st].name, st };
			continue;
		}
		it[n++] = (struct item){ s, e, false, "stage", et_stages[st].name, st };
		if (st == ET_STAGE_SIGNAL)
			it[n++] = (struct item){ e, e, true, "marker", "signal delivered", st };
	}
	for (int i = 0; i < sc->nr_overlays; i++) {
		uint64_t a = sc->overlays[i].start, b = sc->overlays[i].end;

		if (a < t0)
			a = t0;
		if (b > t1)
			b = t1;
		if (b > a)
			it[n++] = (struct item){ a, b, false, et_stages[sc->overlays[i].stage].name,
						 et_stages[sc->overlays[i].stage].name,
						 ET_SLOT_NR + i };
	}
	qsort(it, n, sizeof(*it), cmp_item);
	for (int i = 0; i < n; i++) {
		/* close what ended before this one starts */
		while (depth && stack[depth - 1]->end <= it[i].ts && !(it[i].instant &&
		       stack[depth - 1]->end == it[i].ts)) {
			et_perfetto_event(x->pf, ET_PF_END, stack[depth - 1]->end, track, NULL,
					  NULL, NULL, 0);
			depth--;
		}
		if (it[i].instant) {
			et_perfetto_event(x->pf, ET_PF_INSTANT, it[i].ts, track, it[i].cat,
					  it[i].name, NULL, 0);
			continue;
		}
		/* a child reaching past its parent is cut at the parent's end */
		if (depth && it[i].end > stack[depth - 1]->end)
			it[i].end = stack[depth - 1]->end;
		et_perfetto_event(x->pf, ET_PF_BEGIN, it[i].ts, track, it[i].cat, it[i].name,
				  it[i].stage < 0 ? args : NULL, it[i].stage < 0 ? nargs : 0);
		if (it[i].stage >= ET_SLOT_NR)
			x->n.overlays++;
		stack[depth++] = &it[i];
	}
	while (depth) {
		et_perfetto_event(x->pf, ET_PF_END, stack[depth - 1]->end, track, NULL, NULL,
				  NULL, 0);
		depth--;
	}
}

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct et_export *x = data;
	uint64_t t0, t1, end;
	char nb[32], wb[160], fb[128];
	bool complete = !(sc->flags & ET_SC_INCOMPLETE);
	int pid;

	x->n.passed++;
	if (sc->start_mask & (1ull << ET_SLOT_TOTAL)) {
		t0 = sc->start[ET_SLOT_TOTAL] + sc->clock_offset;
		t1 = t0 + sc->ns[ET_SLOT_TOTAL];
	} else if (sc->t1 > sc->t0) {
		/* an entrytrace kernel without the tail (exit_group, end of trace) */
		t0 = sc->t0 + sc->clock_offset;
		t1 = t0;
	} else {
		/* no span to draw: open at an end on a stock kernel, exit_group */
		x->n.no_span++;
		return;
	}
	pid = sc->tgid >= 0 ? sc->tgid : sc->pid;
	x->n.partial += !complete;
	/* entrytrace kernels: the span runs to the last stamp, emit and tail included */
	if (sc->t1 + sc->clock_offset > t1)
		t1 = sc->t1 + sc->clock_offset;
	name_task(x, sc->pid, pid, sc->comm);
	x->n.slices++;
	x->n.complete += complete;
	if (x->pf) {
		proto_syscall(x, sc, t0, t1);
		return;
	}
	sep(x);
	fprintf(x->out, "{\"ph\":\"X\",\"cat\":\"syscall\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,",
		sc_name(x, sc->nr, nb, sizeof(nb)), pid, sc->pid);
	us(x->out, "ts", t0);
	fputc(',', x->out);
	us(x->out, "dur", t1 - t0);
	fprintf(x->out, ",\"args\":{\"nr\":%d,\"ret\":%ld,\"work\":\"%s\",\"flags\":\"%s\","
		"\"complete\":%s,\"cpu_enter\":%d,\"cpu_exit\":%d}}", sc->nr, sc->ret,
		et_work_str(sc->work, wb, sizeof(wb)), et_sc_flags_str(sc->flags, fb, sizeof(fb)),
		complete ? "true" : "false", sc->cpu_enter, sc->cpu_exit);

	for (int st = 0; st < ET_SLOT_NR; st++) {
		uint64_t s;

		if (!drawn(sc, st))
			continue;
		s = sc->start[st] + sc->clock_offset;
		end = s + sc->extent[st];
		if (s < t0 || end > t1) {
			/* not inside its syscall: a marker where it ends */
			sep(x);
			fprintf(x->out, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"marker\",\"name\":\"%s\","
				"\"pid\":%d,\"tid\":%d,", st == ET_SLOT_SIGNAL_EXIT ?
				"signal delivered" : et_stages[st].name, pid, sc->pid);
			us(x->out, "ts", end);
			fprintf(x->out, ",\"args\":{\"stage\":\"%s\",\"ns\":%" PRIu64 "}}",
				et_stages[st].name, sc->ns[st]);
			continue;
		}
		sep(x);
		fprintf(x->out, "{\"ph\":\"X\",\"cat\":\"stage\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,",
			et_stages[st].name, pid, sc->pid);
		us(x->out, "ts", s);
		fputc(',', x->out);
		us(x->out, "dur", end - s);
		fprintf(x->out, ",\"args\":{\"stage\":%d,\"count\":%u,\"ns\":%" PRIu64 "}}",
			et_slot_stage(st), sc->count[st], sc->ns[st]);
		if (st == ET_STAGE_SIGNAL) {
			sep(x);
			fprintf(x->out, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"marker\",\"name\":\"signal delivered\","
				"\"pid\":%d,\"tid\":%d,", pid, sc->pid);
			us(x->out, "ts", end);
			fputc('}', x->out);
		}
	}
	overlays(x, sc, pid, t0, t1);
}

/* Lost-event gaps become global instants (load.c then feeds the timeline). */
static int on_event(const struct et_event *ev, void *data)
{
	struct et_export *x = data;

	if (ev->kind == ET_EV_LOST && x->pf) {
		char name[48];
		struct et_perfetto_arg args[] = {
			{ .name = "cpu", .i = ev->cpu }, { .name = "count", .i = ev->lost.count },
		};

		snprintf(name, sizeof(name), "events lost on CPU %d", ev->cpu);
		et_perfetto_event(x->pf, ET_PF_INSTANT, ev->ts, PF_LOST, "lost", name, args, 2);
	} else if (ev->kind == ET_EV_LOST) {
		sep(x);
		fprintf(x->out, "{\"ph\":\"i\",\"s\":\"g\",\"cat\":\"lost\",\"name\":\"events lost on CPU %d\","
			"\"pid\":0,\"tid\":0,", ev->cpu);
		us(x->out, "ts", ev->ts);
		fprintf(x->out, ",\"args\":{\"cpu\":%d,\"count\":%lld}}", ev->cpu, ev->lost.count);
	}
	return 0;
}

static void on_seen(const struct et_syscall *sc, void *data)
{
	struct et_export *x = data;

	(void)sc;
	x->n.seen++;
}

struct et_export *et_export_new(FILE *out, const char *path, bool proto,
				const struct et_load *ld)
{
	struct et_export *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->out = out;
	x->path = path;
	x->ld = ld;
	x->first = true;
	if (proto) {
		x->pf = et_perfetto_new(out);
		if (!x->pf) {
			free(x);
			return NULL;
		}
		et_perfetto_track(x->pf, PF_LOST, "lost events");
	}
	return x;
}

void et_export_hooks(struct et_export *x, struct et_load_opts *lo)
{
	lo->tap = on_seen;
	lo->tap_data = x;
	lo->passed = on_syscall;
	lo->passed_data = x;
	lo->event = on_event;
	lo->event_data = x;
}

bool et_export_finish(struct et_export *x, uint64_t *packets, uint64_t *bytes)
{
	if (x->pf) {
		if (!et_perfetto_free(x->pf, packets, bytes))
			x->failed = true;
		x->pf = NULL;
	} else {
		header(x);
		fprintf(x->out, "\n]}\n");
	}
	return !x->failed;
}

const struct et_export_counts *et_export_counts(const struct et_export *x)
{
	return &x->n;
}

void et_export_free(struct et_export *x)
{
	if (!x)
		return;
	if (x->pf)
		et_perfetto_free(x->pf, NULL, NULL);
	free(x->named);
	free(x);
}
