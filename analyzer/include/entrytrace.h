/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libentrytrace: syscall entry/exit stage timelines from trace-cmd recordings.
 *
 * The public interface, in libtracefs's manner: opaque handles, getters,
 * and ids that stay put.  No structure's fields are part of it, so the
 * library can change them without breaking a caller; what the entrytrace
 * program itself reaches into is entrytrace-private.h, which is not an
 * interface.  Data flows one way:
 *
 *   trace     (et_trace)    a trace.dat (or the running kernel: et_live):
 *                           its facts, its records decoded into events
 *   timeline  (et_timeline) events -> one et_syscall per syscall, with
 *                           its stages, flags and accounting
 *   stats     (et_stats)    syscall x stage histograms (et_hist) in cells
 *
 * Every function here has a caller outside the tests: the entrytrace
 * program, the KernelShark plugin or the library itself
 * (scripts/host/public-audit, which t-scripts runs, counts them).  A
 * getter no program calls waits in entrytrace-private.h until one does.
 *
 * The stage vocabulary is tracepoints/stages.def, shared with the kernel:
 * a kernel stage's id is its list position, a derived stage's is 64 plus
 * its position among the derived ones.
 */
#ifndef _ENTRYTRACE_H
#define _ENTRYTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * libentrytrace.so is built with -fvisibility=hidden: what this file
 * declares is what it exports, and nothing else.
 */
#pragma GCC visibility push(default)

/* ------------------------------------------------------------------ */
/* Stage vocabulary                                                    */

/*
 * Stage ids stay put: the kernel's stages are 0..ET_STAGE_KERNEL_NR-1 in
 * stages.def's order (the kernel appends), the analyzer's derived stages
 * start at ET_STAGE_DERIVED_BASE whatever the kernel's count.  Ids are not
 * contiguous: walk them with et_stage_next(); ET_STAGE_END bounds an array
 * indexed by id.
 */
enum et_stage_id {
#define ENTRY_STAGE(SYM, name, phase, parent, paths, arches, kind, desc) ET_STAGE_##SYM,
#include "stages.def"
	ET_STAGE_KERNEL_NR,	/* this build's kernel stages */
	ET_STAGE_DERIVED_BASE = 64,
	ET_STAGE_DERIVED_BASE_ = ET_STAGE_DERIVED_BASE - 1,	/* not a stage */
#define ENTRY_STAGE_DERIVED(SYM, name, phase, parent, paths, desc) ET_STAGE_##SYM,
#include "stages.def"
	ET_STAGE_END,		/* one past the highest id */
	ET_STAGE_NONE = -1,
};

/* Path signature bits: which optional work a syscall's path ran. */
enum et_work_bit {
#define ENTRY_STAGE_WORK(SYM, name, desc) ET_WORK_BIT_##SYM,
#include "stages.def"
	ET_WORK_NR,
};

#define ET_WORK(SYM) (1u << ET_WORK_BIT_##SYM)
#define ET_WORK_MASK ((1u << ET_WORK_NR) - 1)

/*
 * A statistics row's key beside the syscall number: the path signature in
 * the low bits, and with ET_STATS_BY_ARG the argument shape above
 * (kill(-1, 0), kill(self, 0), ...: which arguments chose the path).
 */
#define ET_WORK_SHAPE_SHIFT 14
#define ET_WORK_SHAPE_MASK (0x3ffu << ET_WORK_SHAPE_SHIFT)

enum et_phase {
	ET_PHASE_ENTRY,
	ET_PHASE_BODY,
	ET_PHASE_EXIT,
	ET_PHASE_USER,
	ET_PHASE_KERNEL,
	ET_PHASE_ALL,
};

enum et_stage_kind {
	ET_KIND_TIMED,
	ET_KIND_NOINSTR,
	ET_KIND_DEFERRED,
	ET_KIND_AGG,
	ET_KIND_DERIVED,
};

/* Where a stage exists: generic entry, powerpc legacy entry, stock kernel. */
#define ET_PATH_G 0x1u
#define ET_PATH_L 0x2u
#define ET_PATH_S 0x4u

/*
 * Stages, kernel ones first, in stages.def's order:
 * for (int s = et_stage_next(ET_STAGE_NONE); s != ET_STAGE_NONE; s = et_stage_next(s))
 */
int et_stage_next(int stage);		/* the id after stage (ET_STAGE_NONE: the first) */
/* A stage's bit in a stage mask (et_render_syscall); 0 for an unknown id. */
uint64_t et_stage_bit(int stage);
const char *et_stage_name(int stage);
const char *et_stage_desc(int stage);
enum et_phase et_stage_phase(int stage);
enum et_stage_kind et_stage_kind(int stage);
int et_stage_parent(int stage);		/* a stage id or ET_STAGE_NONE */
unsigned int et_stage_paths(int stage);	/* ET_PATH_* */
int et_stage_by_name(const char *name);	/* ET_STAGE_NONE if unknown */
const char *et_phase_name(enum et_phase phase);
const char *et_kind_name(enum et_stage_kind kind);
/* Path signature bits 0..et_work_count()-1. */
int et_work_count(void);
const char *et_work_name(int bit);
const char *et_work_desc(int bit);
/* "audit|seccomp"; buf must hold at least 160 bytes.  "-" when empty. */
char *et_work_str(unsigned int work, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Errors                                                              */

enum et_err {
	ET_OK = 0,
	ET_ERR_IO,		/* missing file, directory, permission */
	ET_ERR_FORMAT,		/* libtracecmd refused the file */
	ET_ERR_TRUNCATED,	/* file shorter than its own headers say */
	ET_ERR_NO_EVENTS,	/* no event the analyzer can use */
	ET_ERR_ABI,		/* entry_stage events of another vocabulary */
	ET_ERR_NOMEM,
	ET_ERR_USAGE,		/* an argument does not fit the trace */
};

/* ------------------------------------------------------------------ */
/* Trace                                                               */

struct et_trace;

enum et_mode {
	ET_MODE_STOCK,		/* raw_syscalls (+ ct, signal, rseq, sched, irq) */
	ET_MODE_SUMMARY,	/* entry_stage_summary, one event per syscall */
	ET_MODE_STAGES,		/* entry_stage_time, one event per stage */
};

/* Event families a file can have formats for (et_present_str, et_mode_invisible). */
#define ET_HAVE_RAW_SYSCALLS	(1u << 0)
#define ET_HAVE_CT		(1u << 1)
#define ET_HAVE_SIGNAL		(1u << 2)
#define ET_HAVE_RSEQ		(1u << 3)
#define ET_HAVE_SCHED_SWITCH	(1u << 4)
#define ET_HAVE_IRQ		(1u << 5)
#define ET_HAVE_STAGES		(1u << 6)
#define ET_HAVE_SUMMARY		(1u << 7)
#define ET_HAVE_TASK		(1u << 8)
#define ET_HAVE_SPAN		(1u << 9)	/* summaries carry span (v3) */
#define ET_HAVE_HIST		(1u << 10)	/* entry_stage_hist: aggregated cells (v3) */
#define ET_HAVE_BATCH		(1u << 11)	/* entry_stage_batch: packed summaries (v4) */

/* A path, or "-" for standard input; on failure errbuf says why in a line. */
struct et_trace *et_trace_open(const char *path, enum et_err *err,
			       char *errbuf, size_t errlen);
void et_trace_close(struct et_trace *trace);

const char *et_trace_machine(const struct et_trace *trace);	/* "x86_64", "ppc64le" */
int et_trace_cpus(const struct et_trace *trace);
enum et_mode et_trace_mode(const struct et_trace *trace);
/* Force a coarser mode than detected; false if the file cannot do it. */
bool et_trace_set_mode(struct et_trace *trace, enum et_mode mode);

/* Syscall names for the trace's own architecture; numbers pass through. */
const char *et_syscall_name(const struct et_trace *trace, long nr);
long et_syscall_number(const struct et_trace *trace, const char *name);

/* What a mode cannot see with the events present: up to max lines. */
size_t et_mode_invisible(enum et_mode mode, unsigned int present, const char **lines,
			 size_t max);
const char *et_mode_name(enum et_mode mode);
/* "raw_syscalls, sched_switch, ...": the ET_HAVE_* families, named. */
char *et_present_str(unsigned int present, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Events                                                              */

/* A decoded record, handed on to et_timeline_feed (no getters here). */
struct et_event;

typedef int (*et_event_fn)(const struct et_event *ev, void *data);

/*
 * Every record in global time order (tracecmd_iterate_events' order), each
 * decoded event to fn.  A non-zero return from fn stops the walk and is
 * returned; -1 if reading failed.
 */
int et_trace_iterate(struct et_trace *trace, et_event_fn fn, void *data);
/*
 * Threads per walk, 0 (the default) to choose from the trace's size and
 * CPUs.  With N > 1, N - 1 threads read and decode shares of the CPUs and
 * the events still arrive in the same order, on the calling thread.
 */
void et_trace_set_jobs(struct et_trace *trace, int jobs);
/*
 * Called now and then during et_trace_iterate, on the calling thread, with
 * the share of the file's pages read so far (0..1), and once with 1 at the
 * end.  Files only (a live trace has no pages to count).
 */
typedef void (*et_progress_fn)(const char *path, double done, void *data);
void et_trace_set_progress(struct et_trace *trace, et_progress_fn fn, void *data);

/* After et_trace_iterate: the records read. */
uint64_t et_trace_records(const struct et_trace *trace);

/* ------------------------------------------------------------------ */
/* Live: the running kernel's events from a tracefs instance          */

struct tracefs_instance;
struct et_live;

/*
 * A decoder over the running kernel's formats of the events enabled in
 * instance (enable them first), reading its raw per-CPU buffers with
 * libtracefs, with the same decoding as a trace.dat.  Its trace gives a
 * timeline the mode (detected from those events; et_trace_set_mode() for a
 * coarser one) and this machine's syscall names.
 */
struct et_live *et_live_new(struct tracefs_instance *instance, enum et_err *err,
			    char *errbuf, size_t errlen);
struct et_trace *et_live_trace(struct et_live *live);
/*
 * Decode what the instance's buffers hold now, in time order, into fn.
 * Returns when every CPU buffer is empty or, at the latest, after
 * timeout_ns (0: no limit) - a reader whose own activity is traced would
 * otherwise never see them empty.  Records a deadline cut drops (the rest
 * of each CPU's current sub-buffer) are announced as a gap of unknown size.
 * Returns 0, 1 when the deadline cut the round, -1 or fn's non-zero return.
 */
int et_live_read(struct et_live *live, uint64_t timeout_ns, et_event_fn fn,
		 void *data);
void et_live_free(struct et_live *live);

/* ------------------------------------------------------------------ */
/* Syscalls                                                            */

#define ET_COMM_LEN 16

/* et_syscall_flags() */
#define ET_SC_OPEN_START	(1u << 0)  /* entered before the trace began */
#define ET_SC_OPEN_END		(1u << 1)  /* still running when it ended */
#define ET_SC_LOST		(1u << 2)  /* crossed a lost-events gap */
#define ET_SC_MIGRATED		(1u << 3)  /* returned on another CPU */
#define ET_SC_NORETURN		(1u << 4)  /* exit, exit_group, execve success */
#define ET_SC_NO_EXIT		(1u << 5)  /* next entry came without an exit */
#define ET_SC_MISMATCH		(1u << 6)  /* exit nr differs from entry nr */
#define ET_SC_CHILD		(1u << 7)  /* fork child's first return */
#define ET_SC_SIGRETURN		(1u << 8)  /* exit reported nr -1 */
#define ET_SC_NO_TAIL		(1u << 9)  /* deferred stages never arrived */
#define ET_SC_PID_REUSE		(1u << 10) /* first syscall of a reused pid */
#define ET_SC_SEQ_GAP		(1u << 11) /* syscalls of this task were lost */
#define ET_SC_SAMPLE		(1u << 12) /* a QEMU plugin sample: guest
					      instructions, no task, no clock */
#define ET_SC_IMPLAUSIBLE	(1u << 13) /* times that cannot be: damaged data */
#define ET_SC_CELL		(1u << 14) /* no syscall: an aggregated cell (entry_stage_hist) */

/* Flags that keep a syscall out of the statistics. */
#define ET_SC_INCOMPLETE (ET_SC_OPEN_START | ET_SC_OPEN_END | ET_SC_LOST | \
			  ET_SC_NORETURN | ET_SC_NO_EXIT | ET_SC_MISMATCH | \
			  ET_SC_CHILD | ET_SC_IMPLAUSIBLE)

/* The one reason an incomplete syscall is counted under, most telling first. */
uint32_t et_sc_reason(uint32_t flags);
/* "lost|no_exit" for ET_SC_* flags; "-" when none. */
char *et_sc_flags_str(uint32_t flags, char *buf, size_t size);

/* One syscall, valid during the callback that hands it over. */
struct et_syscall;

int et_syscall_pid(const struct et_syscall *sc);
int et_syscall_nr(const struct et_syscall *sc);
uint32_t et_syscall_flags(const struct et_syscall *sc);	/* ET_SC_* */
int et_syscall_cpu_enter(const struct et_syscall *sc);
uint64_t et_syscall_ts_enter(const struct et_syscall *sc);	/* trace clock */
uint64_t et_syscall_ts_exit(const struct et_syscall *sc);
/* A stage's value: ns (PMU stamps: cycles). */
bool et_syscall_has(const struct et_syscall *sc, int stage);
uint64_t et_syscall_ns(const struct et_syscall *sc, int stage);
/* Where a stage began, on the trace clock; false if it has no start. */
bool et_syscall_start(const struct et_syscall *sc, int stage, uint64_t *ts);

/* ------------------------------------------------------------------ */
/* Timeline                                                            */

struct et_timeline;
typedef void (*et_syscall_fn)(const struct et_syscall *sc, void *data);

/* Every syscall reaches sink, complete or flagged as to why not. */
struct et_timeline *et_timeline_new(const struct et_trace *trace,
				    et_syscall_fn sink, void *data);
/* Feed one decoded event; matches et_event_fn. */
int et_timeline_feed(const struct et_event *ev, void *timeline);
/* Flush syscalls still open at the end of the trace. */
void et_timeline_finish(struct et_timeline *tl);
/* Keep the stamps' own cost in the stage times (default: subtract it). */
void et_timeline_set_raw_stamps(struct et_timeline *tl, bool raw);
void et_timeline_free(struct et_timeline *tl);

uint64_t et_timeline_syscalls(const struct et_timeline *tl);	/* handed to the sink */
/* Syscalls with this ET_SC_* flag. */
uint64_t et_timeline_flagged(const struct et_timeline *tl, uint32_t flag);

/* ------------------------------------------------------------------ */
/* Histogram: log-linear, 128 sub-buckets per power of two             */

/*
 * Values below 256 are exact; above, a bucket spans 1/128 of its power of
 * two.  A percentile is reported as its bucket's midpoint, so its relative
 * error is at most 1/256 (0.39%).  The library fills them (a cell's,
 * et_cell_hist); a program reads them.
 */
struct et_hist;

uint64_t et_hist_count(const struct et_hist *h);
uint64_t et_hist_total(const struct et_hist *h);	/* exact sum */
double et_hist_mean(const struct et_hist *h);
double et_hist_stddev(const struct et_hist *h);
/* q in [0, 1]: nearest-rank quantile; 0 without quantiles. */
uint64_t et_hist_quantile(const struct et_hist *h, double q);
/* Per-CPU and per-result breakdowns keep only count, min, max, moments. */
bool et_hist_has_quantiles(const struct et_hist *h);
/* The bucket of a value and its bounds (tests). */
uint32_t et_hist_index(uint64_t value);
uint64_t et_hist_lower(uint32_t index);
uint64_t et_hist_upper(uint32_t index);

/* ------------------------------------------------------------------ */
/* Stats                                                               */

struct et_stats;
struct et_cell;		/* one syscall [x path signature] x stage */

/* et_stats_new() flags */
#define ET_STATS_BY_WORK	(1u << 0)	/* split cells by path signature */
#define ET_STATS_EXCLUSIVE	(1u << 1)	/* take interrupts and preemption off */
#define ET_STATS_NO_OVERHEAD	(1u << 2)	/* take the tracer's own events off */
#define ET_STATS_BY_ARG		(1u << 3)	/* split cells by argument shape */

struct et_stats *et_stats_new(unsigned int flags);
/* Add a complete syscall; false on ENOMEM. */
bool et_stats_add(struct et_stats *st, const struct et_syscall *sc);
void et_stats_free(struct et_stats *st);
uint64_t et_stats_syscalls(const struct et_stats *st);
bool et_stats_by_work(const struct et_stats *st);

/*
 * Cells by syscall (largest total time first), then stage (total first,
 * then vocabulary order).  Valid until the next et_stats_add.
 */
size_t et_stats_nr_cells(const struct et_stats *st);
const struct et_cell *et_stats_cell_at(const struct et_stats *st, size_t i);
/* Syscalls added for (nr, work). */
uint64_t et_stats_row_syscalls(const struct et_stats *st, int nr, uint32_t work);

int et_cell_nr(const struct et_cell *c);
uint32_t et_cell_work(const struct et_cell *c);
int et_cell_stage(const struct et_cell *c);
const struct et_hist *et_cell_hist(const struct et_cell *c);

/* ------------------------------------------------------------------ */
/* Text views                                                          */

/*
 * One line per syscall, as trace-cmd report prints events:
 * "comm-pid [cpu] ts: name(nr) = ret  total N  stage N ...", only the
 * stages in the mask (0: all; et_stage_bit() of each) after the total; ts
 * is et_sc_start().  A
 * QEMU plugin sample (ET_SC_SAMPLE): "sample N: name(nr)  total N ...",
 * in instructions.
 */
void et_render_syscall(FILE *out, const struct et_syscall *sc, const struct et_trace *names,
		       uint64_t stages);
/* When it started, trace clock ns: the kernel's stamp of its first stage
 * in the stage modes, else its sys_enter event. */
uint64_t et_sc_start(const struct et_syscall *sc);
/* A bar per quarter octave between min and max, with its count. */
void et_render_hist(FILE *out, const struct et_hist *h, const char *title);
/*
 * A JSON string, quoted: valid UTF-8 as is, quotes and backslashes
 * escaped, control characters and bytes that are not UTF-8 as \u00XX.
 * NULL prints "".  The _n form stops at n bytes or a NUL.
 */
void et_json_str(FILE *out, const char *s);
/*
 * A task name as every output shows it: printable UTF-8 as is, a
 * backslash doubled, any other byte \xNN (no escape sequence reaches a
 * terminal, no newline forges a row, the bytes can be recovered).  A name
 * of ET_COMM_LEN bytes needs at most 4 * ET_COMM_LEN + 1.
 */
const char *et_name_text(const char *name, char *buf, size_t size);
void et_json_strn(FILE *out, const char *s, size_t n);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* _ENTRYTRACE_H */
