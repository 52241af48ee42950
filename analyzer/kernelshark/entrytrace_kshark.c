// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for entrytrace: load side.
 *
 * When KernelShark opens a trace, the plugin hands the file to
 * libentrytrace (decode + timeline, the analyzer's own code) for one pass
 * and keeps, per syscall, one box for the syscall and one per stage that
 * has a start time.  Nothing of the events stays in memory: KernelShark
 * loads those itself.  The boxes are sorted by task and indexed by CPU,
 * with a running maximum of their end times so the draw handler finds the
 * visible ones by binary search.
 *
 *   kernelshark -p build/plugin-entrytrace.so trace.dat
 *   ENTRYTRACE_KSHARK_LOG=FILE: append what the plugin loaded and drew
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "entrytrace.h"
#include "entrytrace_kshark.h"
#include "libkshark-tepdata.h"

#define ETS_MAX_STREAMS KS_DEFAULT_NUM_STREAMS

const int ets_total_stage = ET_STAGE_TOTAL;
const int ets_stage_end = ET_STAGE_END;
const unsigned int ets_lost_flag = ET_SC_LOST;
const struct ets_rgb ets_lost_rgb = { 0xff, 0x00, 0x00 };

/*
 * One colour per stage id, by phase: entry stages blue to violet, the body
 * green, exit stages orange to brown, the deferred exit tail pink, and the
 * stock-kernel stages in the same families.  Pure red is kept for lost
 * events.  Documentation/kernelshark.md has the same table; the plugin's
 * log prints this one, and t-kernelshark.sh compares the two.
 */
#define RGB(hex) { ((hex) >> 16) & 0xff, ((hex) >> 8) & 0xff, (hex) & 0xff }

static const struct ets_rgb palette[ET_STAGE_END] = {
	[ET_STAGE_ARCH_ENTER]		= RGB(0x1b3a6b),
	[ET_STAGE_CT_USER_EXIT]		= RGB(0x2f6db5),
	[ET_STAGE_RCU_EQS_EXIT]		= RGB(0x8db7e8),
	[ET_STAGE_KSTACK_RAND]		= RGB(0x5a4fcf),
	[ET_STAGE_IRQ_ENABLE]		= RGB(0x29a3a3),
	[ET_STAGE_ENTRY_WORK]		= RGB(0x1f78b4),
	[ET_STAGE_USER_DISPATCH]	= RGB(0xa6cee3),
	[ET_STAGE_RSEQ_SLICE]		= RGB(0xb2abd2),
	[ET_STAGE_ENTER_PTRACE]		= RGB(0x7570b3),
	[ET_STAGE_SECCOMP]		= RGB(0x984ea3),
	[ET_STAGE_ENTER_TRACEPOINT]	= RGB(0x80b1d3),
	[ET_STAGE_ENTER_AUDIT]		= RGB(0xbebada),
	[ET_STAGE_SYSCALL]		= RGB(0x33a02c),
	[ET_STAGE_LSM_TASK_KILL]	= RGB(0xb2df8a),
	[ET_STAGE_RCU_UNLOCK_SLOW]	= RGB(0x66c2a5),
	[ET_STAGE_ARCH_SYSCALL_EXIT]	= RGB(0xfdbf6f),
	[ET_STAGE_EXIT_WORK]		= RGB(0xff7f00),
	[ET_STAGE_EXIT_AUDIT]		= RGB(0xfdae6b),
	[ET_STAGE_EXIT_TRACEPOINT]	= RGB(0xe6ab02),
	[ET_STAGE_EXIT_PTRACE]		= RGB(0xa6761d),
	[ET_STAGE_EXIT_PREPARE]		= RGB(0xd95f02),
	[ET_STAGE_EXIT_LOOP]		= RGB(0x8c510a),
	[ET_STAGE_RESCHED]		= RGB(0xbf812d),
	[ET_STAGE_UPROBE]		= RGB(0xdfc27d),
	[ET_STAGE_KLP]			= RGB(0xf6e8c3),
	[ET_STAGE_SIGNAL]		= RGB(0xffd92f),
	[ET_STAGE_NOTIFY_RESUME]	= RGB(0xb35806),
	[ET_STAGE_ARCH_EXIT_PREPARE]	= RGB(0xf4a582),
	[ET_STAGE_EMIT]			= RGB(0xfafafa),
	[ET_STAGE_EXIT_RESTART]		= RGB(0x6b3e26),
	[ET_STAGE_CT_USER_ENTER]	= RGB(0xc51b7d),
	[ET_STAGE_RCU_EQS_ENTER]	= RGB(0xde77ae),
	[ET_STAGE_ARCH_EXIT_TAIL]	= RGB(0x8e0152),
	[ET_STAGE_TOTAL]		= RGB(0x7d8a9a),
	[ET_STAGE_KERNEL_ENTRY]		= RGB(0x4575b4),
	[ET_STAGE_SYSCALL_WINDOW]	= RGB(0x1a9850),
	[ET_STAGE_KERNEL_EXIT]		= RGB(0xf46d43),
	[ET_STAGE_SIGNAL_EXIT]		= RGB(0xfee090),
	[ET_STAGE_OFF_CPU]		= RGB(0x878787),
	[ET_STAGE_IRQ]			= RGB(0x542788),
	[ET_STAGE_USER_GAP]		= RGB(0xd9d9d9),
	[ET_STAGE_UNTIMED]		= RGB(0x4d4d4d),
};

/* A stage added to stages.def without a colour here gets its phase's. */
static const struct ets_rgb phase_rgb[] = {
	[ET_PHASE_ENTRY]	= RGB(0x6a8caf),
	[ET_PHASE_BODY]		= RGB(0x7fbf7f),
	[ET_PHASE_EXIT]		= RGB(0xd9a066),
	[ET_PHASE_USER]		= RGB(0xd9d9d9),
	[ET_PHASE_KERNEL]	= RGB(0xa0a0a0),
	[ET_PHASE_ALL]		= RGB(0x7d8a9a),
};

static bool palette_has(int stage)
{
	const struct ets_rgb *c = &palette[stage];

	return c->r || c->g || c->b;
}

struct ets_rgb ets_stage_rgb(int stage)
{
	if (!et_stage_name(stage))
		return phase_rgb[ET_PHASE_ALL];
	if (palette_has(stage))
		return palette[stage];
	return phase_rgb[et_stage_phase(stage)];
}

const char *ets_stage_name(int stage)
{
	if (!et_stage_name(stage))
		return "?";
	return et_stage_name(stage);
}

/* Nesting depth of a stage: 0 for a stage without a parent. */
static int stage_depth(int stage)
{
	int depth = 0;

	while (et_stage_parent(stage) != ET_STAGE_NONE && depth < 8) {
		stage = et_stage_parent(stage);
		depth++;
	}
	return depth;
}

int ets_box_row(const struct ets_box *box)
{
	if (box->stage == ET_STAGE_TOTAL)
		return 0;
	return 1 + stage_depth(box->stage);
}

/* ------------------------------------------------------------------ */
/* Log                                                                 */

static FILE *log_file;
static bool log_tried;

void ets_log(const char *fmt, ...)
{
	va_list ap;

	if (!log_tried) {
		const char *path = getenv("ENTRYTRACE_KSHARK_LOG");

		log_tried = true;
		if (path && *path) {
			log_file = fopen(path, "a");
			if (!log_file)
				fprintf(stderr, "entrytrace: %s: %s\n", path,
					strerror(errno));
		}
	}
	if (!log_file)
		return;
	va_start(ap, fmt);
	vfprintf(log_file, fmt, ap);
	va_end(ap);
	fputc('\n', log_file);
	fflush(log_file);
}

/* ------------------------------------------------------------------ */
/* Load: one timeline pass, boxes out                                  */

static struct ets_context *contexts[ETS_MAX_STREAMS];

struct ets_context *ets_get_context(int sd)
{
	if (sd < 0 || sd >= ETS_MAX_STREAMS)
		return NULL;
	return contexts[sd];
}

struct load {
	struct ets_context *ctx;
	size_t alloc;
	int max_row;
	bool nomem;
	time_calib_func calib;		/* KernelShark's clock calibration */
	int64_t *calib_array;
	long max_nr;
};

static int64_t trace_ts(const struct load *ld, int64_t ts)
{
	if (ld->calib)
		ld->calib(&ts, ld->calib_array);
	return ts;
}

static bool add_box(struct load *ld, const struct et_syscall *sc, int stage,
		    uint64_t start, uint64_t dur)
{
	struct ets_context *ctx = ld->ctx;
	struct ets_box *box;

	if (ctx->nr_boxes == ld->alloc) {
		size_t n = ld->alloc ? ld->alloc * 2 : 4096;
		struct ets_box *p = realloc(ctx->boxes, n * sizeof(*p));

		if (!p) {
			ld->nomem = true;
			return false;
		}
		ctx->boxes = p;
		ld->alloc = n;
	}
	box = &ctx->boxes[ctx->nr_boxes++];
	box->start = trace_ts(ld, (int64_t)start);
	box->dur = dur;
	box->pid = et_syscall_pid(sc);
	box->stage = (int16_t)stage;
	box->cpu = (int16_t)et_syscall_cpu_enter(sc);
	box->flags = (uint16_t)et_syscall_flags(sc);
	box->nr = (int16_t)et_syscall_nr(sc);
	if (ets_box_row(box) > ld->max_row)
		ld->max_row = ets_box_row(box);
	return true;
}

/*
 * The sink of et_timeline: the syscall's box spans its total (from the
 * stage's start if it has one, else from the first to the last known
 * point), then a box for every stage with a start.  Stages without one
 * (aggregates, off_cpu, irq) cannot be placed; user_gap lies outside the
 * syscall.
 */
static void sink(const struct et_syscall *sc, void *data)
{
	struct load *ld = data;
	uint64_t start, dur;

	if (ld->nomem)
		return;
	if (et_syscall_nr(sc) > ld->max_nr)
		ld->max_nr = et_syscall_nr(sc);

	if (et_syscall_start(sc, ET_STAGE_TOTAL, &start)) {
		dur = et_syscall_ns(sc, ET_STAGE_TOTAL);
	} else {
		uint64_t enter = et_syscall_ts_enter(sc), exit = et_syscall_ts_exit(sc);

		start = enter;
		dur = exit > enter ? exit - enter : 0;
	}
	if (!add_box(ld, sc, ET_STAGE_TOTAL, start, dur))
		return;

	for (int s = et_stage_next(ET_STAGE_NONE); s != ET_STAGE_NONE; s = et_stage_next(s)) {
		uint64_t at;

		if (s == ET_STAGE_TOTAL || !et_syscall_start(sc, s, &at))
			continue;
		if (et_stage_phase(s) == ET_PHASE_USER)
			continue;
		if (!add_box(ld, sc, s, at, et_syscall_ns(sc, s)))
			return;
	}
}

static int cmp_pid(const void *a, const void *b)
{
	const struct ets_box *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return ets_box_row(x) - ets_box_row(y);
}

static int cmp_cpu(const void *a, const void *b, void *boxes)
{
	const struct ets_box *x = (const struct ets_box *)boxes + *(const uint32_t *)a;
	const struct ets_box *y = (const struct ets_box *)boxes + *(const uint32_t *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return ets_box_row(x) - ets_box_row(y);
}

static int64_t box_end(const struct ets_box *box)
{
	return box->start + (int64_t)box->dur;
}

/* Sort the boxes, build the CPU index and both running maxima. */
static int index_boxes(struct ets_context *ctx)
{
	size_t n = ctx->nr_boxes;
	int64_t end;

	if (!n)
		return 0;
	if (n > UINT32_MAX)
		return -ENOMEM;
	qsort(ctx->boxes, n, sizeof(*ctx->boxes), cmp_pid);
	ctx->pid_maxend = malloc(n * sizeof(*ctx->pid_maxend));
	ctx->cpu_maxend = malloc(n * sizeof(*ctx->cpu_maxend));
	ctx->by_cpu = malloc(n * sizeof(*ctx->by_cpu));
	if (!ctx->pid_maxend || !ctx->cpu_maxend || !ctx->by_cpu)
		return -ENOMEM;

	for (size_t i = 0; i < n; i++) {
		end = box_end(&ctx->boxes[i]);
		if (i && ctx->boxes[i - 1].pid == ctx->boxes[i].pid &&
		    ctx->pid_maxend[i - 1] > end)
			end = ctx->pid_maxend[i - 1];
		ctx->pid_maxend[i] = end;
		ctx->by_cpu[i] = (uint32_t)i;
	}

	qsort_r(ctx->by_cpu, n, sizeof(*ctx->by_cpu), cmp_cpu, ctx->boxes);
	for (size_t i = 0; i < n; i++) {
		const struct ets_box *box = &ctx->boxes[ctx->by_cpu[i]];

		end = box_end(box);
		if (i && ctx->boxes[ctx->by_cpu[i - 1]].cpu == box->cpu &&
		    ctx->cpu_maxend[i - 1] > end)
			end = ctx->cpu_maxend[i - 1];
		ctx->cpu_maxend[i] = end;
	}
	return 0;
}

static int save_names(struct ets_context *ctx, const struct et_trace *trace,
		      long max_nr)
{
	if (max_nr < 0)
		return 0;
	ctx->nr_names = (int)max_nr + 1;
	ctx->names = calloc(ctx->nr_names, ETS_NAME_LEN);
	if (!ctx->names)
		return -ENOMEM;
	for (int nr = 0; nr < ctx->nr_names; nr++) {
		const char *name = et_syscall_name(trace, nr);

		snprintf(ctx->names + (size_t)nr * ETS_NAME_LEN, ETS_NAME_LEN,
			 "%s", name ? name : "");
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int load_boxes(struct ets_context *ctx, struct kshark_data_stream *stream)
{
	struct load ld = { .ctx = ctx, .max_nr = -1 };
	struct et_timeline *tl = NULL;
	struct et_trace *trace;
	double t0 = now_ms();
	char errbuf[256];
	enum et_err err;
	int ret;

	trace = et_trace_open(stream->file, &err, errbuf, sizeof(errbuf));
	if (!trace) {
		fprintf(stderr, "entrytrace: %s\n", errbuf);
		ets_log("error %s", errbuf);
		return -1;
	}
	/* The library chooses its threads from the trace and the machine. */
	et_trace_set_jobs(trace, 0);

	if (stream->calib && stream->calib_array) {
		ld.calib = stream->calib;
		ld.calib_array = stream->calib_array;
	}

	tl = et_timeline_new(trace, sink, &ld);
	if (!tl) {
		ret = -1;
		goto out;
	}
	ret = et_trace_iterate(trace, et_timeline_feed, tl);
	if (ret == 0)
		et_timeline_finish(tl);
	if (ret || ld.nomem) {
		fprintf(stderr, "entrytrace: %s: reading failed\n", stream->file);
		ret = -1;
		goto out;
	}
	/* what the timeline handed out, as report counts it */
	ctx->syscalls = et_timeline_syscalls(tl);
	ctx->lost = et_timeline_flagged(tl, ET_SC_LOST);
	ctx->rows = ld.max_row + 1;
	ret = save_names(ctx, trace, ld.max_nr);
	if (!ret)
		ret = index_boxes(ctx);
	if (ret) {
		fprintf(stderr, "entrytrace: %s: out of memory\n", stream->file);
		goto out;
	}

	ets_log("load file=%s stream=%d mode=%s syscalls=%llu boxes=%zu lost=%llu rows=%d ms=%.0f",
		stream->file, stream->stream_id, et_mode_name(et_trace_mode(trace)),
		(unsigned long long)ctx->syscalls, ctx->nr_boxes,
		(unsigned long long)ctx->lost, ctx->rows, now_ms() - t0);
out:
	if (tl)
		et_timeline_free(tl);
	et_trace_close(trace);
	return ret;
}

static void free_context(struct ets_context *ctx)
{
	if (!ctx)
		return;
	free(ctx->boxes);
	free(ctx->pid_maxend);
	free(ctx->by_cpu);
	free(ctx->cpu_maxend);
	free(ctx->names);
	free(ctx);
}

static void log_palette(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	for (int s = et_stage_next(ET_STAGE_NONE); s != ET_STAGE_NONE; s = et_stage_next(s)) {
		struct ets_rgb c = ets_stage_rgb(s);

		ets_log("palette %s #%02x%02x%02x%s", et_stage_name(s),
			c.r, c.g, c.b, palette_has(s) ? "" : " (phase default)");
	}
	ets_log("palette lost #%02x%02x%02x", ets_lost_rgb.r, ets_lost_rgb.g,
		ets_lost_rgb.b);
}

/*
 * libentrytrace reads a file's top buffer: a second stream of the same file
 * (a buffer instance, opened after the top one) gets no boxes.
 */
static bool file_taken(const char *file)
{
	struct kshark_context *kctx = NULL;
	struct kshark_data_stream *s;

	if (!kshark_instance(&kctx))
		return false;
	for (int sd = 0; sd < ETS_MAX_STREAMS; sd++) {
		if (!contexts[sd])
			continue;
		s = kshark_get_data_stream(kctx, sd);
		if (s && s->file && strcmp(s->file, file) == 0)
			return true;
	}
	return false;
}

/* Load this plugin for a data stream. */
ETS_EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	int sd = stream->stream_id;
	struct ets_context *ctx;

	log_palette();
	if (sd < 0 || sd >= ETS_MAX_STREAMS || !kshark_is_tep(stream) ||
	    !stream->file || contexts[sd] || file_taken(stream->file))
		return 0;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return 0;
	ctx->sd = sd;
	ctx->selected = -1;
	if (load_boxes(ctx, stream) < 0) {
		free_context(ctx);
		return 0;
	}
	contexts[sd] = ctx;
	kshark_register_draw_handler(stream, ets_draw);
	return 1;
}

/* Unload it. */
ETS_EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	int sd = stream->stream_id;
	struct ets_context *ctx = ets_get_context(sd);

	if (!ctx)
		return 0;
	kshark_unregister_draw_handler(stream, ets_draw);
	ets_log("unload stream=%d drawn=%llu drawn_lost=%llu", sd,
		(unsigned long long)ctx->drawn,
		(unsigned long long)ctx->drawn_lost);
	contexts[sd] = NULL;
	free_context(ctx);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

void ets_task_range(const struct ets_context *ctx, int pid,
		    size_t *first, size_t *last)
{
	size_t lo = 0, hi = ctx->nr_boxes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->boxes[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	hi = ctx->nr_boxes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->boxes[mid].pid <= pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*last = lo;
}

void ets_cpu_range(const struct ets_context *ctx, int cpu,
		   size_t *first, size_t *last)
{
	size_t lo = 0, hi = ctx->nr_boxes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->boxes[ctx->by_cpu[mid]].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	hi = ctx->nr_boxes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->boxes[ctx->by_cpu[mid]].cpu <= cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*last = lo;
}

size_t ets_first_ending_after(const int64_t *maxend, size_t first,
			      size_t last, int64_t ts)
{
	while (first < last) {
		size_t mid = first + (last - first) / 2;

		if (maxend[mid] <= ts)
			first = mid + 1;
		else
			last = mid;
	}
	return first;
}

static const char *syscall_name(const struct ets_context *ctx, int nr,
				char *buf, size_t size)
{
	if (nr >= 0 && nr < ctx->nr_names && ctx->names[(size_t)nr * ETS_NAME_LEN])
		return ctx->names + (size_t)nr * ETS_NAME_LEN;
	snprintf(buf, size, nr < 0 ? "nr(%d)" : "sys_%d", nr);
	return buf;
}

/* Flags worth a word on a box: the ones that make a timeline incomplete. */
#define ETS_TEXT_FLAGS (ET_SC_INCOMPLETE | ET_SC_NO_TAIL | ET_SC_SEQ_GAP)

int ets_box_text(const struct ets_context *ctx, const struct ets_box *box,
		 char *buf, size_t size)
{
	char nrbuf[16], flags[160] = "";

	char marks[96] = "";

	if (box->flags & ETS_TEXT_FLAGS)
		et_sc_flags_str(box->flags & ETS_TEXT_FLAGS, flags, sizeof(flags));
	if (ctx->marked && ctx->selected == box - ctx->boxes &&
	    (ctx->mark_off_a || ctx->mark_off_b))
		snprintf(marks, sizeof(marks), "; markers on the nearest events, %+lld ns and %+lld ns off",
			 (long long)ctx->mark_off_a, (long long)ctx->mark_off_b);
	return snprintf(buf, size, "%s pid %d: %s %llu ns at %lld.%09lld%s%s%s%s",
			syscall_name(ctx, box->nr, nrbuf, sizeof(nrbuf)),
			box->pid,
			box->stage == ET_STAGE_TOTAL ? "syscall" :
			ets_stage_name(box->stage),
			(unsigned long long)box->dur,
			(long long)(box->start / 1000000000),
			(long long)(box->start % 1000000000),
			*flags ? " [" : "", flags, *flags ? "]" : "", marks);
}

const char *ets_box_name(const struct ets_context *ctx, const struct ets_box *box,
			 char *buf, size_t size)
{
	return syscall_name(ctx, box->nr, buf, size);
}

void ets_box_clicked(struct ets_context *ctx, const struct ets_box *box)
{
	char text[256];

	ctx->selected = box - ctx->boxes;
	ets_mark_box(ctx, box);
	ets_box_text(ctx, box, text, sizeof(text));
	printf("entrytrace: %s\n", text);
	fflush(stdout);
	ets_log("click %s", text);
	if (ctx->marked)
		ets_log("markers A=%lld B=%lld start=%lld end=%lld offset_a=%lld offset_b=%lld",
			(long long)ctx->mark_a, (long long)ctx->mark_b, (long long)box->start,
			(long long)(box->start + (int64_t)box->dur), (long long)ctx->mark_off_a,
			(long long)ctx->mark_off_b);
}
