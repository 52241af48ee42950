/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libentrytrace: syscall entry/exit stage timelines from trace-cmd recordings.
 *
 * Data flows one way through four layers, each usable on its own:
 *
 *   decode   (et_trace)    libtracecmd records -> typed events (struct et_event)
 *   timeline (et_timeline) per-task state machine -> one struct et_syscall per
 *                          syscall, with its stages, flags and accounting
 *   stats    (et_stats)    syscall x stage aggregates, breakdowns, percentiles
 *   render                 text, JSON, CSV
 *
 * The stage vocabulary is tracepoints/stages.def, shared with the kernel.
 */
#ifndef _ENTRYTRACE_H
#define _ENTRYTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Stage vocabulary                                                    */

enum et_stage_id {
#define ENTRY_STAGE(SYM, name, phase, parent, paths, kind, desc) ET_STAGE_##SYM,
#define ENTRY_STAGE_DERIVED(SYM, name, phase, parent, paths, desc) ET_STAGE_##SYM,
#include "stages.def"
	ET_STAGE_NR,
	ET_STAGE_NONE = -1,
};

enum et_work_bit {
#define ENTRY_STAGE_WORK(SYM, name, desc) ET_WORK_BIT_##SYM,
#include "stages.def"
	ET_WORK_NR,
};

#define ET_WORK(SYM) (1u << ET_WORK_BIT_##SYM)

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

struct et_stage_info {
	const char *name;
	const char *desc;
	enum et_phase phase;
	enum et_stage_kind kind;
	int parent;		/* stage id or ET_STAGE_NONE */
	unsigned int paths;	/* ET_PATH_* */
};

extern const struct et_stage_info et_stages[ET_STAGE_NR];
extern const char *const et_work_names[ET_WORK_NR];
extern const char *const et_work_descs[ET_WORK_NR];
/* First id of the stages the kernel emits; ids >= this are derived. */
extern const int et_stage_nr_kernel;

int et_stage_by_name(const char *name);
const char *et_phase_name(enum et_phase phase);
const char *et_kind_name(enum et_stage_kind kind);
/* "audit|seccomp"; buf must hold at least 160 bytes. "-" when empty. */
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
/* Decode                                                              */

struct et_trace;

enum et_mode {
	ET_MODE_STOCK,		/* raw_syscalls (+ ct, signal, rseq, sched, irq) */
	ET_MODE_SUMMARY,	/* entry_stage:summary, one event per syscall */
	ET_MODE_STAGES,		/* entry_stage:<stage>, one event per stage */
};

enum et_event_kind {
	ET_EV_SYS_ENTER,
	ET_EV_SYS_EXIT,
	ET_EV_USER_EXIT,	/* context_tracking:user_exit: kernel entered */
	ET_EV_USER_ENTER,	/* context_tracking:user_enter: back to user */
	ET_EV_SIGNAL_DELIVER,
	ET_EV_RSEQ_UPDATE,
	ET_EV_SCHED_SWITCH,
	ET_EV_IRQ_ENTER,	/* hard irq or softirq handler starts */
	ET_EV_IRQ_EXIT,
	ET_EV_TASK_EXIT,	/* sched_process_exit */
	ET_EV_TASK_NEW,		/* sched_process_fork / task_newtask (child) */
	ET_EV_COMM,		/* task_rename, sched_process_exec */
	ET_EV_STAGE,		/* entry_stage:entry_stage_time */
	ET_EV_SUMMARY,		/* entry_stage:entry_stage_summary */
	ET_EV_CALIB,		/* entry_stage:entry_stage_calib */
	ET_EV_LOST,		/* events were lost on ev.cpu before this point */
};

struct et_event {
	enum et_event_kind kind;
	int cpu;
	int pid;		/* common_pid */
	uint64_t ts;
	union {
		struct {
			long nr;
		} enter;
		struct {
			long nr;
			long ret;
		} exit;
		struct {
			int sig;
		} signal;
		struct {
			int prev_pid;
			int next_pid;
			long prev_state;
			const char *prev_comm;	/* valid during the callback */
			const char *next_comm;
		} sw;
		struct {
			int pid;		/* the task concerned */
			int old_pid;		/* exec: pid before de_thread */
			const char *comm;	/* valid during the callback */
			const char *old_comm;	/* task_rename: name before */
			/*
			 * TASK_NEW from task_newtask: the clone flags
			 * (CLONE_THREAD: a thread of the parent, ev.pid);
			 * -1 when the event does not say (sched_process_fork).
			 */
			long long clone_flags;
			bool exec;		/* COMM from sched_process_exec */
		} task;
		/*
		 * The kernel's counter ticks are converted to ns with the
		 * events' khz; with PMU stamps (pmu) times are cycles.
		 */
		struct {
			uint32_t seq;
			int nr;
			int stage;
			uint32_t work;
			uint32_t count;
			uint64_t start;
			uint64_t delta;
			uint64_t insns;		/* PMU stamps: instructions */
			long ret;
			bool pmu;
			uint32_t sample;	/* 1-in-N sampling in effect */
			double stamp_ns;	/* calibrated cost of one stamp */
		} stage;
		struct {
			uint32_t seq;
			uint32_t tail_seq;
			int nr;
			uint32_t work;
			long ret;
			uint64_t start;
			uint32_t rcu_unlock_slow;
			uint32_t sample;	/* 1-in-N sampling in effect */
			double stamp_ns;	/* calibrated cost of one stamp */
			bool pmu;
			const uint64_t *delta;	/* ET_STAGE_NR kernel slots, ns */
			int nr_delta;
		} summary;
		struct {
			uint32_t source;	/* 0 counter, 1 PMU */
			uint64_t counter_hz;
			uint32_t sample;
			uint32_t epoch;
			double cost_ns, cost_min_ns;	/* one stamp */
			double agg_ns;		/* an AGG stage's begin/end pair */
			uint32_t scratch, failed;
		} calib;
		struct {
			long long count;	/* -1: unknown how many */
		} lost;
	};
};

struct et_trace_info {
	const char *path;
	const char *uname;	/* "Linux host 6.12.117 ... x86_64" or NULL */
	const char *machine;	/* last word of uname: "x86_64", "ppc64le" */
	const char *clock;
	unsigned long file_version;
	const char *compression;	/* NULL when uncompressed */
	int cpus;
	uint64_t first_ts;	/* first record, trace clock ns */
	int long_size;
	bool big_endian;
	enum et_mode mode;
	unsigned int present;	/* ET_HAVE_* */
	int stage_events;	/* how many entry_stage:<stage> formats exist */
	uint64_t stage_formats;	/* bit per stage id with a format in the file */
};

/* Which event families the file has formats for. */
#define ET_HAVE_RAW_SYSCALLS	(1u << 0)
#define ET_HAVE_CT		(1u << 1)
#define ET_HAVE_SIGNAL		(1u << 2)
#define ET_HAVE_RSEQ		(1u << 3)
#define ET_HAVE_SCHED_SWITCH	(1u << 4)
#define ET_HAVE_IRQ		(1u << 5)
#define ET_HAVE_STAGES		(1u << 6)
#define ET_HAVE_SUMMARY		(1u << 7)
#define ET_HAVE_TASK		(1u << 8)

struct et_trace *et_trace_open(const char *path, enum et_err *err,
			       char *errbuf, size_t errlen);
void et_trace_close(struct et_trace *trace);
const struct et_trace_info *et_trace_info(const struct et_trace *trace);
/* Force a coarser mode than detected; false if the file cannot do it. */
bool et_trace_set_mode(struct et_trace *trace, enum et_mode mode);

typedef int (*et_event_fn)(const struct et_event *ev, void *data);

struct et_trace_counts {
	uint64_t records;	/* every record read */
	uint64_t used;		/* records decoded into events */
	uint64_t lost_events;	/* sum of known missed-event counts */
	uint64_t lost_unknown;	/* gaps whose size the kernel did not know */
	int nr_cpus;
	uint64_t *lost_per_cpu;	/* nr_cpus entries; unknown gaps count 1 */
	uint64_t *records_per_cpu;
	uint64_t last_ts;	/* latest record read, trace clock ns */
	/*
	 * What the file holds against what could be read (files only; live
	 * traces have no pages to count).  The file says how many bytes of
	 * ring-buffer pages each CPU holds; every one of them should give at
	 * least one record.  A page that gives none (its header empty or
	 * invalid, a compressed chunk that does not decompress and so ends
	 * the CPU's data early) is a hole; so is a record earlier than the one
	 * before it on its CPU (a page repeated or out of place).
	 */
	uint64_t *pages_per_cpu;	/* pages the file holds */
	uint64_t *pages_read_per_cpu;	/* ...that gave records */
	uint64_t *time_back_per_cpu;	/* records earlier than their predecessor */
	uint64_t pages_unread;		/* sum over CPUs of held - read */
	uint64_t time_back;
	uint64_t abi_errors;	/* stage events whose id field contradicts their name */
};

/* The data has holes: pages that gave no records, time going back, ABI errors. */
bool et_counts_damaged(const struct et_trace_counts *counts);

/*
 * Read every record in global time order and call fn for each decoded
 * event.  A non-zero return from fn stops the walk and is returned.
 */
int et_trace_iterate(struct et_trace *trace, et_event_fn fn, void *data);
/*
 * Read with this many threads (default 1): each reads a share of the CPUs
 * through its own libtracecmd handle, and the events still arrive in the
 * same order, on the calling thread.
 */
void et_trace_set_jobs(struct et_trace *trace, int jobs);
/*
 * Called now and then during et_trace_iterate, on the calling thread, with
 * the share of the file's pages read so far (0..1), and once with 1 at the
 * end.  Files only (a live trace has no pages to count).
 */
typedef void (*et_progress_fn)(const char *path, double done, void *data);
void et_trace_set_progress(struct et_trace *trace, et_progress_fn fn, void *data);
const struct et_trace_counts *et_trace_counts(const struct et_trace *trace);

/* Syscall names for the trace's own architecture. */
const char *et_syscall_name(const struct et_trace *trace, long nr);
long et_syscall_number(const struct et_trace *trace, const char *name);

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
/* Timeline                                                            */

#define ET_COMM_LEN 16

/* struct et_syscall.flags */
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

/* Flags that keep a syscall out of the statistics. */
#define ET_SC_INCOMPLETE (ET_SC_OPEN_START | ET_SC_OPEN_END | ET_SC_LOST | \
			  ET_SC_NORETURN | ET_SC_NO_EXIT | ET_SC_MISMATCH | \
			  ET_SC_CHILD)

/* The one reason an incomplete syscall is counted under, most telling first. */
uint32_t et_sc_reason(uint32_t flags);

#define ET_SC_MAX_OVERLAYS 16

struct et_syscall {
	int pid;
	int nr;
	long ret;
	uint32_t seq;		/* stage modes: kernel sequence number */
	uint32_t work;		/* path signature, ET_WORK(...) bits */
	uint32_t flags;		/* ET_SC_* */
	int cpu_enter;
	int cpu_exit;
	uint64_t ts_enter;	/* earliest known point of the syscall */
	uint64_t ts_exit;	/* latest known point (return to user) */
	uint64_t t0;		/* stage modes: kernel clock of the first */
	uint64_t t1;		/* stage start and of the last stage end
				 * (emit and the tail included: the span
				 * a timeline draws; summary mode: t0 +
				 * the stages as stamped + emit) */
	char comm[ET_COMM_LEN];
	uint64_t stage_mask;	/* bit per stage id that has a value */
	uint64_t start_mask;	/* ...and that has a start time */
	/*
	 * Stage starts are on the kernel's clock in the stage modes (the
	 * entry_stage events' trace_clock_local(): 0 offset on a trace of
	 * the default "local" clock), on the trace clock otherwise;
	 * start + clock_offset is always the trace clock.  Aggregates (AGG
	 * stages' later occurrences, off_cpu, irq) and summary mode have no
	 * start.
	 */
	int64_t clock_offset;
	/* valid only where stage_mask (start_mask) has the bit: */
	uint64_t ns[ET_STAGE_NR];
	uint32_t count[ET_STAGE_NR];
	uint64_t start[ET_STAGE_NR];
	/*
	 * Where start_mask has the bit: how long the stage lasts on a
	 * timeline, from start.  Stamp-corrected, a stage's ns leaves out
	 * its children's stamps too; its extent keeps them (the stamped
	 * interval less one stamp, half off each end), so children stay
	 * inside their parent.
	 */
	uint32_t extent[ET_STAGE_NR];
	/*
	 * For stages with a start: time of interrupts and of being switched
	 * out that fell inside the stage (subtracted for exclusive time), and
	 * the estimated cost of the trace events this syscall emitted inside
	 * it (subtracted with the tracer overhead).
	 */
	uint64_t sub[ET_STAGE_NR];
	uint32_t ovh[ET_STAGE_NR];
	uint32_t flags2;	/* ET_SC2_* */
	/*
	 * The intervals inside the syscall it was switched out (off_cpu) or
	 * interrupted (irq), on the trace clock: the first ET_SC_MAX_OVERLAYS.
	 */
	uint8_t nr_overlays;
	struct {
		uint64_t start, end;
		uint8_t stage;		/* ET_STAGE_OFF_CPU or ET_STAGE_IRQ */
	} overlays[ET_SC_MAX_OVERLAYS];
	/*
	 * Thread group (process) of the task, from task:task_newtask's clone
	 * flags or an exec; -1 when the trace does not say.
	 */
	int tgid;
};

#define ET_SC2_OVERLAYS_DROPPED	(1u << 0)	/* > ET_SC_MAX_OVERLAYS intervals */

_Static_assert(ET_STAGE_NR <= 64, "stage_mask holds one bit per stage");

static inline bool et_syscall_has(const struct et_syscall *sc, int stage)
{
	return sc->stage_mask & (1ull << stage);
}

struct et_timeline_counts {
	uint64_t syscalls;	/* records handed to the sink */
	uint64_t complete;	/* ...without ET_SC_INCOMPLETE flags */
	uint64_t flagged[16];	/* per ET_SC_* bit */
	uint64_t excluded[16];	/* incomplete ones by first reason, see below */
	uint64_t tasks;		/* distinct tasks seen */
	uint64_t seq_lost;	/* syscalls missing from seq gaps */
	uint64_t stray;		/* events that fit no timeline */
	uint64_t dup_stage;	/* a stage seen twice for one seq */
	uint64_t comm_unverified; /* named from saved cmdlines only */
	/*
	 * Tracer overhead: the median gap between back-to-back entry_stage
	 * events of one task on one CPU (the burst each entry emits), i.e. the
	 * cost of one event, and how many gaps it comes from.
	 */
	uint64_t event_cost;
	uint64_t event_cost_samples;
	uint64_t overlays_dropped;	/* syscalls with too many intervals */
	/*
	 * Stage modes: the stamp cost subtracted from the stage times (the
	 * kernel's calibration), the syscalls it could not be subtracted from
	 * (no calibration yet in the trace), and the sampling the kernel ran.
	 */
	double stamp_ns, agg_ns;
	uint64_t stamp_corrected, stamp_uncorrected;
	uint32_t sample;
	uint64_t calib_events;
	bool pmu;			/* PMU stamps: times are cycles */
	bool raw_stamps;		/* the stamp cost was left in */
	uint64_t tasks_grouped;		/* tasks whose thread group is known */
};

struct et_timeline;
typedef void (*et_syscall_fn)(const struct et_syscall *sc, void *data);

struct et_timeline *et_timeline_new(const struct et_trace *trace,
				    et_syscall_fn sink, void *data);
/* Feed one decoded event; matches et_event_fn. */
int et_timeline_feed(const struct et_event *ev, void *timeline);
/* Flush syscalls still open at the end of the trace. */
void et_timeline_finish(struct et_timeline *tl);
const struct et_timeline_counts *et_timeline_counts(const struct et_timeline *tl);
/* Keep the stamps' own cost in the stage times (default: subtract it). */
void et_timeline_set_raw_stamps(struct et_timeline *tl, bool raw);
void et_timeline_free(struct et_timeline *tl);

/* ------------------------------------------------------------------ */
/* Histogram: log-linear, 128 sub-buckets per power of two             */

/*
 * Values below 256 are exact; above, a bucket spans 1/128 of its power of
 * two.  A percentile is reported as its bucket's midpoint, so its relative
 * error is at most 1/256 (0.39%).  Histograms merge by adding counts.
 */
#define ET_HIST_SUB_BITS 7

struct et_hist {
	uint64_t *buckets;
	uint32_t nr_buckets;
	bool moments_only;	/* no buckets: count, min, max, mean, stddev */
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t min_ts;	/* timestamp of a min exemplar */
	uint64_t max_ts;
	uint64_t total;		/* exact sum of the values */
	uint64_t shift;		/* the first value; the moments below are */
	__int128 sum;		/* of value - shift, in exact integers, so */
	unsigned __int128 sumsq; /* mean and stddev lose nothing to rounding */
};

void et_hist_init(struct et_hist *h);
bool et_hist_add(struct et_hist *h, uint64_t value, uint64_t ts);
bool et_hist_merge(struct et_hist *dst, const struct et_hist *src);
/* q in [0, 1]: nearest-rank quantile; 0 for a moments_only histogram. */
uint64_t et_hist_quantile(const struct et_hist *h, double q);
static inline bool et_hist_has_quantiles(const struct et_hist *h)
{
	return !h->moments_only;
}
double et_hist_mean(const struct et_hist *h);
double et_hist_stddev(const struct et_hist *h);
void et_hist_free(struct et_hist *h);
/* Exposed for tests: bucket of a value and the bucket's bounds. */
uint32_t et_hist_index(uint64_t value);
uint64_t et_hist_lower(uint32_t index);
uint64_t et_hist_upper(uint32_t index);

/* ------------------------------------------------------------------ */
/* Filters and stats                                                   */

struct et_filter {
	int *pids;
	int nr_pids;
	char **comms;
	int nr_comms;
	long *syscalls;
	int nr_syscalls;
	int *cpus;
	int nr_cpus;
	bool have_window;
	bool window_relative;	/* offsets from the first event */
	double window_start;	/* seconds */
	double window_end;
	uint64_t stages;	/* stages to show; 0 = all */
};

bool et_filter_match(const struct et_filter *f, const struct et_syscall *sc,
		     uint64_t first_ts);

enum et_breakdown {
	ET_BY_PID,
	ET_BY_CPU,
	ET_BY_RET,
	ET_BY_NR_BREAKDOWNS,
};

struct et_stats;

struct et_stats_opts {
	bool by_work;		/* split cells by path signature */
	bool exclusive;		/* subtract interrupts and preemption (sub) */
	bool no_overhead;	/* subtract the tracer's own events (ovh) */
};

struct et_stats *et_stats_new(const struct et_stats_opts *opts);
bool et_stats_add(struct et_stats *st, const struct et_syscall *sc);
bool et_stats_merge(struct et_stats *dst, const struct et_stats *src);
void et_stats_free(struct et_stats *st);

struct et_cell {
	int nr;
	uint32_t work;		/* 0 unless by_work */
	int stage;
	struct et_hist hist;
	uint64_t agg_count;	/* AGG stages: sum of occurrences */
	uint64_t sub_total;	/* exclusive: interrupt/preemption ns taken off */
	uint64_t ovh_total;	/* no_overhead: tracer ns taken off */
};

struct et_group {
	enum et_breakdown by;
	long key;		/* pid, cpu, errno (0 = success) */
	int nr;
	char comm[ET_COMM_LEN];
	struct et_hist hist;	/* per-syscall total */
};

/*
 * Cells sorted by syscall (largest total time first), then stage: total
 * first, then the stages in vocabulary order.  The array stays valid until
 * the next et_stats_add or et_stats_merge.
 */
size_t et_stats_cells(const struct et_stats *st, const struct et_cell ***cells);
/* Breakdown groups of the per-syscall total, sorted by nr then key. */
size_t et_stats_groups(const struct et_stats *st, enum et_breakdown by,
		       const struct et_group ***groups);
uint64_t et_stats_syscalls(const struct et_stats *st);
/* Cells split by path signature (their work is meaningful, "-" = none). */
bool et_stats_by_work(const struct et_stats *st);
/* Syscalls added for (nr, work) and one cell of that row, or 0 / NULL. */
uint64_t et_stats_row_syscalls(const struct et_stats *st, int nr, uint32_t work);
const struct et_cell *et_stats_cell(const struct et_stats *st, int nr,
				    uint32_t work, int stage);

/* ------------------------------------------------------------------ */
/* Load: files -> timelines -> filtered stats, what every command needs */

struct et_load_opts {
	int jobs;			/* reader threads per file */
	int mode;			/* enum et_mode, or -1 to detect */
	const struct et_filter *filter;	/* its syscalls are ignored: */
	char *const *syscall_names;	/* names or numbers, resolved per file */
	int nr_syscall_names;
	bool keep_excluded;
	struct et_stats_opts stats;
	et_syscall_fn tap;		/* optional: sees every syscall first */
	void *tap_data;
	et_syscall_fn added;		/* optional: each syscall added to the stats */
	void *added_data;
	et_progress_fn progress;	/* optional: see et_trace_set_progress */
	void *progress_data;
	bool raw_stamps;		/* et_timeline_set_raw_stamps */
};

struct et_load {
	struct et_report_file *files;
	int nr_files;
	struct et_trace **traces;	/* open until et_load_free */
	struct et_stats *stats;
	uint64_t filtered_out;
	uint64_t seen;			/* syscalls of all files */
	uint64_t lost;			/* lost events and lost-touched syscalls */
	int damaged;			/* files with holes (et_counts_damaged) */
	struct et_syscall *excluded;	/* with keep_excluded */
	size_t nr_excluded;
};

/* Both traces are of one architecture (syscall numbers comparable). */
bool et_same_machine(const struct et_trace_info *a, const struct et_trace_info *b);
/* On error errbuf says why, for one line; the load still needs freeing. */
enum et_err et_load_files(struct et_load *ld, char *const *paths, int n,
			  const struct et_load_opts *opts, char *errbuf, size_t errlen);
void et_load_free(struct et_load *ld);
/* One line naming the first damaged file and what could not be read. */
const char *et_load_damage(const struct et_load *ld, char *buf, size_t size);

/* ET_PATH_G, ET_PATH_L (powerpc before 7.2) or ET_PATH_S (stock mode). */
unsigned int et_trace_entry_path(const struct et_trace_info *info);

/* ------------------------------------------------------------------ */
/* Diff: base vs test, per syscall x path signature x stage            */

enum et_diff_status {
	ET_DIFF_BOTH,
	ET_DIFF_BASE_ONLY,		/* ran on base only, exists on both paths */
	ET_DIFF_TEST_ONLY,
	ET_DIFF_NO_COUNTERPART_BASE,	/* the base's entry path has no such stage */
	ET_DIFF_NO_COUNTERPART_TEST,
};

struct et_diff_opts {
	int bootstrap;		/* replicates, e.g. 2000 */
	uint64_t seed;		/* results are reproducible for one seed */
	double alpha;		/* family-wise, after Holm's correction */
};

struct et_diff_cell {
	int nr;
	uint32_t work;
	int stage;
	enum et_diff_status status;
	const struct et_hist *base, *test;	/* NULL where it did not run */
	const struct et_cell *cell_base, *cell_test;
	double median_base, median_test, d_median, d_median_lo, d_median_hi;
	double mean_base, mean_test, d_mean, d_mean_lo, d_mean_hi;
	bool tested;		/* both sides have >= 2 values */
	double u, z, p, p_adj;	/* Mann-Whitney, Holm-adjusted p */
	double mw_sigma;	/* its standard deviation under the null */
	/*
	 * Hodges-Lehmann shift: the median of the pairwise differences test -
	 * base (at bucket resolution), and the interval Mann-Whitney implies
	 * at the level Holm's correction tested this cell at (shift_level,
	 * e.g. 0.9995): it leaves out 0 exactly when the cell is significant.
	 */
	double shift, shift_lo, shift_hi, shift_level;
	double cliff;		/* Cliff's delta, -1..1 */
	bool significant;
	double per_sc_base;	/* mean time per syscall, 0 where not run */
	double per_sc_test;
	double contrib;		/* per_sc_test - per_sc_base */
	double share;		/* contrib / the total's change */
	bool partitions;	/* adds up to the total with its kind */
};

struct et_diff_group {
	int nr;
	uint32_t work;
	uint64_t n_base, n_test;	/* syscalls */
	double d_total;		/* change of the mean total */
	double explained;	/* sum of partitioning stages' contributions */
	double residual;	/* d_total - explained */
	size_t first, count;	/* its cells in et_diff.cells */
	/*
	 * The total moved: significant, and the confidence interval of its
	 * mean or of its median change leaves out zero.
	 */
	bool moved;
	/*
	 * The most specific stage that holds the change: a significant
	 * top-level stage moving the way the total did, then its significant
	 * child holding at least half of that, and so on.  ET_STAGE_NONE when
	 * the total did not move or no stage holds the change.
	 */
	int focus;
	double focus_contrib;
};

struct et_diff {
	struct et_diff_cell *cells;	/* grouped by syscall, stage order */
	size_t nr_cells;
	struct et_diff_cell *sorted;	/* the same, by |contribution| */
	struct et_diff_group *groups;
	size_t nr_groups;
	size_t tests;		/* cells tested, for the correction */
	double alpha;
};

/*
 * base_path, test_path: ET_PATH_G or ET_PATH_L, the entry path each side's
 * kernel used; stages the other path lacks are reported as without
 * counterpart.  Both stats should be built with by_work.
 */
int et_diff(const struct et_stats *base, const struct et_stats *test,
	    unsigned int base_path, unsigned int test_path,
	    const struct et_diff_opts *opts, struct et_diff *df);
void et_diff_free(struct et_diff *df);

/* ------------------------------------------------------------------ */
/* Render                                                              */

enum et_format {
	ET_FMT_TEXT,
	ET_FMT_JSON,
	ET_FMT_CSV,
};

struct et_report_file {
	struct et_trace_info info;
	struct et_trace_counts counts;
	struct et_timeline_counts tl;
};

struct et_report {
	const struct et_report_file *files;
	int nr_files;
	const struct et_stats *stats;
	const struct et_trace *names;	/* for syscall names */
	const struct et_filter *filter;
	uint64_t filtered_out;
	bool breakdown;		/* print pid/cpu/errno tables */
	bool show_excluded;	/* list the syscalls kept out of the table */
	bool exclusive;		/* the stats took interrupts/preemption off */
	bool no_overhead;	/* ...and the tracer's events */
	const struct et_syscall *excluded;
	size_t nr_excluded;
};

/* "lost|no_exit" for ET_SC_* flags; "-" when none. */
char *et_sc_flags_str(uint32_t flags, char *buf, size_t size);

int et_render(const struct et_report *rep, enum et_format fmt, FILE *out);

/*
 * A JSON string, quoted: valid UTF-8 as is, quotes and backslashes
 * escaped, control characters and bytes that are not UTF-8 as \u00XX.
 * NULL prints "".  The _n form stops at n bytes or a NUL.
 */
void et_json_str(FILE *out, const char *s);
void et_json_strn(FILE *out, const char *s, size_t n);

/*
 * One line per syscall, as trace-cmd report prints events:
 * "comm-pid [cpu] ts: name(nr) = ret  total N  stage N ...", only the
 * stages in the mask (0: all) after the total.
 */
void et_render_syscall(FILE *out, const struct et_syscall *sc, const struct et_trace *names,
		       uint64_t stages);
/* The N syscalls with the longest total, kept as they come. */
struct et_slowest;
struct et_slowest *et_slowest_new(size_t n);
void et_slowest_add(struct et_slowest *s, const struct et_syscall *sc);
/* Slowest first; valid until et_slowest_free. */
size_t et_slowest_get(struct et_slowest *s, const struct et_syscall **out);
void et_slowest_free(struct et_slowest *s);
/* A bar per quarter octave between min and max, with its count. */
void et_render_hist(FILE *out, const struct et_hist *h, const char *title);

/* A diff and what is needed to print it. */
struct et_diff_report {
	const struct et_diff *diff;
	struct et_diff_opts opts;
	const struct et_report_file *base_files, *test_files;
	int nr_base, nr_test;
	unsigned int base_path, test_path;
	const struct et_trace *names;
	const struct et_filter *filter;	/* its stages limit the rows */
	bool all;			/* every cell, not only the telling ones */
	bool exclusive, no_overhead;	/* what the stats took off */
	int top;			/* at most this many text rows; 0: all */
	uint64_t min_count;		/* text: hide syscalls with fewer per side */
};

int et_render_diff(const struct et_diff_report *rep, enum et_format fmt, FILE *out);
/* Whether the text view shows a cell (min_count, --all, --stage). */
bool et_diff_shown(const struct et_diff_report *rep, const struct et_diff_cell *c);
const char *et_path_name(unsigned int path);

/* SVG: one panel per stage, cumulative distributions on a log time axis. */
struct et_plot_series {
	const char *label;
	const struct et_hist *hist;
	const char *color;
};

struct et_plot_panel {
	const char *title;
	const char *note;		/* a line under the title, or NULL */
	struct et_plot_series series[2];
	int nr_series;
};

int et_plot_cdf_svg(FILE *out, const char *title, const struct et_plot_panel *panels,
		    int n);

/*
 * What a file cannot show in its mode with the events it has: up to MAX
 * lines, one per hidden stage group or missing event family; returns how many.
 */
size_t et_mode_invisible(enum et_mode mode, unsigned int present, const char **lines,
			 size_t max);
const char *et_mode_name(enum et_mode mode);

#ifdef __cplusplus
}
#endif

#endif /* _ENTRYTRACE_H */
