/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libentrytrace's private tier: the structures and calls the entrytrace
 * program, its tests and plugins built from this tree use beside the public
 * interface (trace-cmd's trace-cmd-private.h).  Not an interface: fields
 * and calls here change with the library, and nothing installed includes
 * this file.  Library internals are lib/entrytrace-local.h.  Getters of the
 * public handles that no program calls wait here too (issue 49:
 * scripts/host/public-audit fails on a public call only tests make).
 */
#ifndef _ENTRYTRACE_PRIVATE_H
#define _ENTRYTRACE_PRIVATE_H

#include <sys/types.h>

#include "entrytrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Stage vocabulary, as tables                                         */

struct et_stage_info {
	const char *name;
	const char *desc;
	enum et_phase phase;
	enum et_stage_kind kind;
	int parent;		/* slot, or ET_STAGE_NONE */
	unsigned int paths;	/* ET_PATH_* */
};

/*
 * Inside the library and the program a stage is a slot: dense, the kernel
 * stages' slots are their ids, the derived stages follow the last kernel
 * stage.  Arrays and bit masks are per slot; the public calls take and
 * return ids (et_stage_slot() and et_slot_stage() convert).  A derived
 * stage is ET_SLOT_<SYM> here and ET_STAGE_<SYM> only in the public calls.
 */
enum et_slot {
	ET_SLOT_DERIVED_ = ET_STAGE_KERNEL_NR - 1,	/* not a slot */
#define ENTRY_STAGE_DERIVED(SYM, name, phase, parent, paths, desc) ET_SLOT_##SYM,
#include "stages.def"
	ET_SLOT_NR,
};

/* A public id's slot, -1 for an id that names no stage; and back. */
static inline int et_stage_slot(int id)
{
	if (id >= 0 && id < ET_STAGE_KERNEL_NR)
		return id;
	if (id >= ET_STAGE_DERIVED_BASE && id < ET_STAGE_END)
		return id - ET_STAGE_DERIVED_BASE + ET_STAGE_KERNEL_NR;
	return -1;
}

static inline int et_slot_stage(int slot)
{
	if (slot >= ET_STAGE_KERNEL_NR && slot < ET_SLOT_NR)
		return slot - ET_STAGE_KERNEL_NR + ET_STAGE_DERIVED_BASE;
	return slot >= 0 && slot < ET_STAGE_KERNEL_NR ? slot : ET_STAGE_NONE;
}

extern const struct et_stage_info et_stages[ET_SLOT_NR];	/* by slot */
int et_slot_by_name(const char *name);	/* a slot, or -1 */
int et_stage_path_rank(int stage);
extern const char *const et_work_names[ET_WORK_NR];
extern const char *const et_work_descs[ET_WORK_NR];
/* The library's stages (ET_SLOT_NR) and kernel stages (ET_STAGE_KERNEL_NR). */
int et_stage_count(void);
int et_stage_kernel_count(void);

/* ------------------------------------------------------------------ */
/* Events and traces                                                   */

#define ET_SC_ARGS 3	/* arguments an event carries: what the shapes read */

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
	ET_EV_LOST,		/* events were lost on its CPU before this point */
	ET_EV_HIST,		/* entry_stage:entry_stage_hist, one aggregated cell */
	ET_EV_SYS_ARGS,		/* syscalls:sys_enter_<name>: a syscall's arguments */
};

/* An event's getters (lib/decode.c); the program reads struct et_event. */
enum et_event_kind et_event_kind(const struct et_event *ev);
uint64_t et_event_ts(const struct et_event *ev);	/* trace clock, ns */
int et_event_cpu(const struct et_event *ev);
int et_event_pid(const struct et_event *ev);		/* common_pid; -1 for LOST */

struct et_event {
	enum et_event_kind kind;
	int cpu;
	int pid;		/* common_pid */
	uint64_t ts;
	union {
		/*
		 * SYS_ENTER (raw_syscalls, every syscall) and SYS_ARGS
		 * (syscalls:sys_enter_<name>, one syscall): the first nargs
		 * arguments, as the registers held them.
		 */
		struct {
			long nr;
			int nargs;
			long arg[ET_SC_ARGS];
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
			const uint64_t *delta;	/* ET_SLOT_NR kernel slots, ns */
			int nr_delta;
			uint64_t span;		/* first stamp to burst, ns (0: none: v2) */
			bool batch;		/* a packed record of an entry_stage_batch */
			uint64_t batch_at;	/* ...written at this time (trace clock) */
			bool batch_last;	/* ...of which it is the last record */
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
		/*
		 * entry_stage_hist: one cell of a CPU's aggregation table,
		 * in the kernel's units (ticks at khz; cycles with the PMU).
		 */
		struct {
			int cpu;		/* the table's CPU */
			int nr;
			int stage;		/* this analyzer's id; ET_SLOT_TOTAL: the span */
			uint32_t work;
			uint32_t sample;
			uint64_t khz;		/* 0: PMU stamps */
			double stamp_ns, agg_ns;
			uint32_t dropped;	/* the kernel's count, so far */
			uint64_t count, sum, sumsq, agg;
			uint32_t min, max;
			bool mean_only;		/* a stage's (ABI 4): count, sum, agg */
			uint32_t bits;		/* the span's sub-bucket bits */
			uint32_t lo;		/* its first bucket's index */
			const uint32_t *buckets;
			uint32_t nr_buckets;
		} hist;
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
	uint64_t last_ts;	/* files: the latest of the CPUs' last records; 0 unknown */
	int long_size;
	bool big_endian;
	enum et_mode mode;
	unsigned int present;	/* ET_HAVE_* */
	int stage_events;	/* how many entry_stage:<stage> formats exist */
	uint64_t stage_formats;	/* bit per stage id with a format in the file */
	bool clockless;	/* no trace clock: QEMU plugin samples, values are counts */
};

const struct et_trace_info *et_trace_info(const struct et_trace *trace);

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
	/*
	 * What the size fields and page headers say against the bytes (the
	 * damage a size bookkeeping taken from one header cannot see):
	 */
	uint64_t *bad_pages_per_cpu;	/* pages with bytes past their commit */
	uint64_t *unread_bytes_per_cpu;	/* data bytes no size field lets be read */
	uint64_t implausible;	/* syscalls with values that cannot be (timeline.c) */
	uint64_t seq_unexplained; /* stage modes: syscalls missing from the sequence
				     numbers with no lost events reported */
	uint64_t abi_errors;	/* stage events whose id field contradicts their name */
	uint64_t unknown_stages; /* stage values of stages this analyzer does not know */
	const char *unknown_stage_names; /* their names, "a, b" */
	/*
	 * What the file states about itself against what was read
	 * (lib/index.c): a CPU's records, lost events, first and last time
	 * stamps against its CPUSTAT; one line each, "\n"-separated.
	 */
	uint64_t index_mismatches;
	const char *index_notes;
	uint64_t unregistered;	/* records of a type no format registers */
	uint64_t short_records;	/* records shorter than their event's format */
	uint64_t batches;	/* entry_stage_batch events read */
	uint64_t lost_batches;	/* ...and missing from their CPU's sequence */
	uint64_t batches_unexplained; /* ...where the ring buffer told of no loss */
	uint64_t bad_nr;	/* stage modes: syscall numbers beyond the table */
	long bad_nr_example;	/* ...one of them */
	int nr_table;		/* ...the table's size */
};

const struct et_trace_counts *et_trace_counts(const struct et_trace *trace);
/* The data has holes: pages that gave no records, time going back, ABI errors. */
bool et_counts_damaged(const struct et_trace_counts *counts);
/* Both traces are of one architecture (syscall numbers comparable). */
bool et_same_machine(const struct et_trace_info *a, const struct et_trace_info *b);
/*
 * The recording's clock counts instructions: a QEMU -icount guest, which
 * scripts/guest/run-guest --icount names qemu-icount (the uname's
 * nodename); its times are virtual ns and repeat exactly.
 */
bool et_info_virtual_clock(const struct et_trace_info *in);

/*
 * Getters of single facts and counts (lib/trace.c), out of entrytrace.h
 * while no program calls them: the program reads et_trace_info() and
 * et_trace_counts(), t-public checks these against report.
 */
const char *et_trace_path(const struct et_trace *trace);
const char *et_trace_uname(const struct et_trace *trace);	/* NULL if not recorded */
const char *et_trace_clock(const struct et_trace *trace);
unsigned long et_trace_file_version(const struct et_trace *trace);	/* 0: live */
const char *et_trace_compression(const struct et_trace *trace);	/* NULL: none */
unsigned int et_trace_present(const struct et_trace *trace);	/* ET_HAVE_* */
uint64_t et_trace_first_ts(const struct et_trace *trace);	/* trace clock, ns */
/* ET_PATH_G, ET_PATH_L (powerpc before 7.2) or ET_PATH_S (stock mode). */
unsigned int et_trace_entry_path(const struct et_trace *trace);
/* After et_trace_iterate: what was read, and what could not be. */
uint64_t et_trace_decoded(const struct et_trace *trace);
uint64_t et_trace_last_ts(const struct et_trace *trace);
uint64_t et_trace_lost_events(const struct et_trace *trace);	/* known counts */
uint64_t et_trace_lost_gaps(const struct et_trace *trace);	/* of unknown size */
uint64_t et_trace_lost_on_cpu(const struct et_trace *trace, int cpu);
/* Pages the file holds that gave no records, time going back, ABI errors. */
bool et_trace_damaged(const struct et_trace *trace);

/* ------------------------------------------------------------------ */
/* Syscalls and the timeline                                           */

#define ET_SC_MAX_OVERLAYS 16

/*
 * Argument shapes (lib/shape.c): "-1, 0" for a key whose shape bits say
 * kill(-1, 0); "" without them.  et_syscall_label() gives "kill(-1, 0)",
 * or name itself for a key without a shape.
 */
char *et_shape_str(uint32_t key, char *buf, size_t size);
const char *et_syscall_label(const char *name, uint32_t key, char *buf, size_t size);
bool et_stats_by_arg(const struct et_stats *st);

/*
 * struct et_syscall is the library's (lib/entrytrace-local.h): the program
 * reads a syscall through entrytrace.h's et_syscall_*() getters.
 */
/* ...and these, which no program outside the library calls yet. */
int et_syscall_tgid(const struct et_syscall *sc);	/* -1: the trace does not say */
const char *et_syscall_comm(const struct et_syscall *sc);	/* name it ran under */
long et_syscall_ret(const struct et_syscall *sc);
uint32_t et_syscall_work(const struct et_syscall *sc);	/* ET_WORK() bits */
int et_syscall_cpu_exit(const struct et_syscall *sc);
/* Occurrences of an AGG stage. */
uint32_t et_syscall_count(const struct et_syscall *sc, int stage);
/*
 * The intervals inside the syscall it was switched out or interrupted
 * (the first few): et_syscall_overlay gives the i-th's bounds on the trace
 * clock and returns its stage, ET_STAGE_OFF_CPU or ET_STAGE_IRQ.
 */
int et_syscall_nr_overlays(const struct et_syscall *sc);
int et_syscall_overlay(const struct et_syscall *sc, int i, uint64_t *start, uint64_t *end);

struct et_timeline_counts {
	uint64_t syscalls;	/* records handed to the sink */
	uint64_t complete;	/* ...without ET_SC_INCOMPLETE flags */
	uint64_t flagged[16];	/* per ET_SC_* bit */
	uint64_t excluded[16];	/* incomplete ones by first reason, see below */
	uint64_t tasks;		/* distinct tasks seen in any event */
	uint64_t syscall_tasks;	/* ...of them the ones that made a syscall */
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
	/*
	 * Aggregation (entry_stage_hist): cells read, the syscalls their spans
	 * count, the kernel's count of staged syscalls its full tables left
	 * out, stage cells that came without their span (left out), and cells
	 * whose sum of squares saturated (spread unknown: shown as 0).
	 */
	uint64_t hist_cells, hist_syscalls, hist_dropped, hist_orphans, hist_saturated;
	uint64_t hist_mean_only;	/* stage cells of count and mean alone (ABI 4) */
	/*
	 * Packed batches: records that waited for an earlier one of their
	 * task (it had moved CPU), and records that came after a later one of
	 * their task had been handed on (too late to be put in order).
	 */
	uint64_t batch_held, batch_late;
};

const struct et_timeline_counts *et_timeline_counts(const struct et_timeline *tl);
/* Single counts of it (no program calls them: it reads the above). */
uint64_t et_timeline_complete(const struct et_timeline *tl);	/* without ET_SC_INCOMPLETE */
uint64_t et_timeline_tasks(const struct et_timeline *tl);
/* Syscalls counted under this ET_SC_* flag as their reason. */
uint64_t et_timeline_excluded(const struct et_timeline *tl, uint32_t flag);

/* ------------------------------------------------------------------ */
/* Histograms, cells, groups, filters                                  */

#define ET_HIST_SUB_BITS 7

struct et_hist {
	uint64_t *buckets;	/* of buckets first .. nr_buckets - 1 */
	uint32_t first;		/* the lowest bucket held (a power of two's first) */
	uint32_t nr_buckets;	/* one past the highest */
	bool moments_only;	/* no buckets: count, min, max, mean, stddev */
	bool mean_only;		/* moments_only, and no spread: count, mean, total */
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

/* Bucket i's count: 0 outside the buckets held. */
static inline uint64_t et_hist_bucket(const struct et_hist *h, uint32_t i)
{
	return i >= h->first && i < h->nr_buckets ? h->buckets[i - h->first] : 0;
}

/* A histogram inside another structure: init, and fini to free its buckets. */
void et_hist_init(struct et_hist *h);
void et_hist_fini(struct et_hist *h);
/* One on the heap; add a value, merge another in (adding counts). */
struct et_hist *et_hist_alloc(void);
void et_hist_free(struct et_hist *h);
bool et_hist_add(struct et_hist *h, uint64_t value, uint64_t ts);
bool et_hist_merge(struct et_hist *dst, const struct et_hist *src);
/* The exact extremes, and when an exemplar of each was added. */
uint64_t et_hist_min(const struct et_hist *h);
uint64_t et_hist_max(const struct et_hist *h);
uint64_t et_hist_min_ts(const struct et_hist *h);
uint64_t et_hist_max_ts(const struct et_hist *h);
/*
 * Threads for a walk (lib/walk.c): bytes of ring-buffer data on ncpus
 * CPUs, online CPUs in the machine, others tasks runnable besides us now
 * (-1 unknown).
 */
int et_choose_jobs(uint64_t bytes, int ncpus, int online, int others);
/* The clock's step the values show (ns): 1, or ~10 on a coarse clock. */
uint64_t et_hist_step(const struct et_hist *h);

/*
 * The breakdowns of a syscall's total: et_stats_groups() below, or one
 * group at a time (groups by syscall, then time; valid until the next
 * et_stats_add).
 */
struct et_group;	/* one syscall's totals for a task, CPU or result */

enum et_breakdown {
	ET_BY_PID,
	ET_BY_CPU,
	ET_BY_RET,
	ET_BY_NR_BREAKDOWNS,
};

size_t et_stats_nr_groups(const struct et_stats *st, enum et_breakdown by);
const struct et_group *et_stats_group_at(const struct et_stats *st, enum et_breakdown by,
					 size_t i);
int et_group_nr(const struct et_group *g);
long et_group_key(const struct et_group *g);	/* pid, cpu, errno (0: success) */
const char *et_group_comm(const struct et_group *g);	/* by pid */
const struct et_hist *et_group_hist(const struct et_group *g);

/*
 * An aggregated cell (entry_stage_hist) in ns, stamp-corrected: a stage's
 * moments, or the total's histogram; what et_stats merges into its cell.
 */
struct et_agg_cell {
	struct et_hist hist;
	uint64_t occurrences;	/* AGG stages */
};

struct et_cell {
	int nr;
	uint32_t work;		/* 0 unless by_work */
	int stage;
	struct et_hist hist;
	uint64_t agg_count;	/* AGG stages: sum of occurrences */
	uint64_t sub_total;	/* exclusive: interrupt/preemption ns taken off */
	uint64_t ovh_total;	/* no_overhead: tracer ns taken off */
};

/* A cell's counts beside its histogram. */
uint64_t et_cell_occurrences(const struct et_cell *c);	/* AGG stages */
uint64_t et_cell_subtracted_exclusive(const struct et_cell *c);
uint64_t et_cell_subtracted_overhead(const struct et_cell *c);

struct et_group {
	enum et_breakdown by;
	long key;		/* pid, cpu, errno (0 = success) */
	int nr;
	char comm[ET_COMM_LEN];
	struct et_hist hist;	/* per-syscall total */
};

/* One cell of a row, by slot, or NULL; work 0 unless by work. */
const struct et_cell *et_stats_slot(const struct et_stats *st, int nr, uint32_t work, int slot);
/* Sorted arrays of et_stats_cell_at() and et_stats_group_at(). */
size_t et_stats_cells(const struct et_stats *st, const struct et_cell ***cells);
size_t et_stats_groups(const struct et_stats *st, enum et_breakdown by,
		       const struct et_group ***groups);

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
	uint64_t stages;	/* stages to show, et_stage_bit() of each; 0 = all */
	/* results: any of ok (>= 0), error (-4095..-1) or these errnos */
	bool result_ok, result_error;
	int *errnos;
	int nr_errnos;
};

bool et_filter_match(const struct et_filter *f, const struct et_syscall *sc,
		     uint64_t first_ts);

/* ------------------------------------------------------------------ */
/* Mix: the QEMU plugin's instruction counts (lib/mix.c)               */

struct et_mix;

/* An aggregated line of the file: stat (per syscall and account). */
struct et_mix_stat {
	int name, account;	/* et_mix_name() ids */
	uint64_t n, runs, sum, min, p50, max;
	double mean;
};

/* kinds/class (what: a kind or class name) and func (what: a function) lines */
struct et_mix_sum {
	int name, account, what;
	int rank;		/* func lines */
	bool is_class;
	uint64_t sum;
};

struct et_mix_count {
	int name;
	int reason;		/* setapart lines; -1 for count lines */
	uint64_t n;
};

/* A regular file whose first line is the plugin's ("entrytrace-mix 1"), plain or gzip'd. */
bool et_mix_probe(const char *path);
struct et_mix *et_mix_open(const char *path, enum et_err *err, char *errbuf, size_t errlen);
void et_mix_free(struct et_mix *m);
/*
 * Hand each sample to fn as an et_syscall whose stage values (ns[]) are
 * instructions; names: a trace of the file's architecture (et_trace_new_mix).
 * Samples the plugin flagged switched/desync/unfinished/anomaly are set apart
 * and counted (et_mix_set_apart), as are names that are no syscall.
 */
int et_mix_feed(struct et_mix *m, const struct et_trace *names, et_syscall_fn fn, void *data);
/* A names-only trace for an architecture: syscall names, no events. */
struct et_trace *et_trace_new_mix(const char *path, const char *arch, const char *release,
				  enum et_err *err, char *errbuf, size_t errlen);

const char *et_mix_name(const struct et_mix *m, int id);
const char *et_mix_path(const struct et_mix *m);
const char *et_mix_arch(const struct et_mix *m);
const char *et_mix_build_id(const struct et_mix *m);
const char *et_mix_table_hash(const struct et_mix *m);
const char *et_mix_mode(const struct et_mix *m);	/* "sites" or "fallback" */
const char *et_mix_release(const struct et_mix *m);	/* the kernel line, or NULL */
const char *et_mix_calls(const struct et_mix *m);	/* "f:g" counted calls, or "none" */
const char *et_mix_tables(const struct et_mix *m);	/* "getppid:kill": syscalls with classes */
bool et_mix_complete(const struct et_mix *m);		/* the "end" line was read */
size_t et_mix_nr_samples(const struct et_mix *m);
uint64_t et_mix_kept(const struct et_mix *m);
/* samples named by a syscall this architecture's table lacks: left out, damage */
uint64_t et_mix_unnamed(const struct et_mix *m);
/* samples the plugin took of no syscall ([user], [unsynced], irq:...): by design */
uint64_t et_mix_not_syscall(const struct et_mix *m);
uint64_t et_mix_set_apart(const struct et_mix *m);
const char *et_mix_set_apart_str(const struct et_mix *m, char *buf, size_t size);
uint64_t et_mix_count(const struct et_mix *m, const char *name);
size_t et_mix_stats(const struct et_mix *m, const struct et_mix_stat **st);
size_t et_mix_sums(const struct et_mix *m, const struct et_mix_sum **s);
size_t et_mix_funcs(const struct et_mix *m, const struct et_mix_sum **s);
const char *et_mix_kind_class(const struct et_mix *m, const char *kind);
uint64_t et_mix_sum(const struct et_mix *m, const char *name, const char *account,
		    const char *what, bool is_class);
const struct et_mix_stat *et_mix_stat(const struct et_mix *m, const char *name,
				      const char *account);
/*
 * Two files' rows (lib/mix_diff.c): a syscall's account on the base (a),
 * the test (b) or both; the base's rows in its order, then the test's
 * the base lacks.  *out is the caller's to free.
 */
struct et_mix_pair {
	const char *name, *account;
	const struct et_mix_stat *a, *b;
};
size_t et_mix_pairs(const struct et_mix *ma, const struct et_mix *mb,
		    struct et_mix_pair **out);
/*
 * A class or kind's count in row st over the N of row over: st itself
 * for a count per call of its account, the syscall's "whole" row for one
 * per syscall; 0 without that N.
 */
double et_mix_per(const struct et_mix *m, const struct et_mix_stat *st, const char *what,
		  bool is_class, const struct et_mix_stat *over);
/* The stage an account is (total: ET_SLOT_TOTAL), ET_STAGE_NONE for whole/gap/outside. */
int et_mix_account_stage(const char *account);
int et_mix_version(const struct et_mix *m);		/* 1 or 2 */
/*
 * The function tables: complete (every function that ran), or each
 * syscall x account's top N only (version 1 files, topk=N): then a
 * function not listed ran at most as often as the last one listed.
 */
bool et_mix_funcs_complete(const struct et_mix *m);
/* The smallest count listed for a name x account when the list is cut at top N, else 0. */
uint64_t et_mix_funcs_floor(const struct et_mix *m, int name, int account);

/* Version 2: the instructions the tables counted, and how often each ran where. */
struct et_mix_insn {
	uint64_t addr;
	int where;		/* et_mix_name(): "system_call_exception+0x5c", "-" */
	int kind, callkind;	/* et_mix_name() ids of its kinds, -1: none */
	int src;		/* et_mix_name(): its src frames, -1 if not annotated */
};
struct et_mix_at {
	int name, account, insn;
	uint64_t n;
	uint64_t m[8];		/* version 3: its cat line (ET_MET_*), else zeros */
};
size_t et_mix_insns(const struct et_mix *m, const struct et_mix_insn **insns);
size_t et_mix_ats(const struct et_mix *m, const struct et_mix_at **at);
bool et_mix_annotated(const struct et_mix *m);	/* src lines: entrytrace annotate ran */

/*
 * Version 3: the timing model (the plugin's model=FILE,
 * Documentation/cycles-model.md).  Its metrics, in the order of the cstat,
 * ctotal and cat lines: modelled cycles at the parameters' low end, middle
 * and high end, and misses in L1I, L1D, L2, L3 and the data TLB.
 */
enum {
#define MIX_MET(SYM, name) ET_MET_##SYM,
#include "mix-format.def"
	ET_NR_MET,
};
extern const char *const et_met_names[ET_NR_MET];
struct et_mix_cstat {
	int name, account;
	uint64_t n;		/* the syscalls of its stat line */
	uint64_t m[ET_NR_MET];	/* sums over them */
};
bool et_mix_has_model(const struct et_mix *m);
const char *et_mix_model(const struct et_mix *m);	/* the CPU's name, NULL: no model */
const char *et_mix_model_hash(const struct et_mix *m);	/* of its parameter file */
/* a parameter at a point (0 low end, 1 middle, 2 high end); false if the file has none */
bool et_mix_model_param(const struct et_mix *m, const char *key, int point, double *v);
const struct et_mix_cstat *et_mix_cstat(const struct et_mix *m, const char *name,
					const char *account);
/* everything a name ran (ctotal; "*": every name), NULL if not in the file */
const uint64_t *et_mix_ctotal(const struct et_mix *m, const char *name);

/*
 * Annotate: name the kernel of plugin output (its release, from the
 * vmlinux's banner) and the source line of every instruction it counted
 * ("src" lines, from the vmlinux's DWARF), checking that the vmlinux is the
 * kernel that ran (build id).  Rewrites path in place (gzip'd if it was),
 * with a new checksum.  Returns 0, or -1 with errbuf set.
 */
struct et_annotate_result {
	size_t insns, resolved, with_lines;
	char release[128];
};
int et_mix_annotate(const char *path, const char *vmlinux, struct et_annotate_result *res,
		    char *errbuf, size_t errlen);

/* Source lines through DWARF (lib/srcline.c) */
struct et_srcmap;
struct et_srcmap *et_srcmap_open(const char *vmlinux, char *err, size_t errlen);
void et_srcmap_close(struct et_srcmap *sm);
const char *et_srcmap_build_id(const struct et_srcmap *sm);
const char *et_srcmap_release(const struct et_srcmap *sm);
bool et_srcmap_has_dwarf(const struct et_srcmap *sm);
int et_srcmap_lookup(struct et_srcmap *sm, uint64_t addr, char *buf, size_t size);

/* Code places (lib/codeplace.c, the table in lib/codeplace.def) */
enum et_code {
	ET_CODE_HANDLER,	/* the syscall's own code and what it calls */
	ET_CODE_GENERIC,	/* generic entry */
	ET_CODE_ARCH,		/* the architecture's entry code */
	ET_CODE_TRACER,		/* the entrytrace series, tracing */
	ET_CODE_OTHER,		/* anything else outside the body */
	ET_CODE_NR,
};
struct et_place {
	enum et_code code;
	char func[96];		/* the function of the deciding frame */
	char callee[96];	/* the function inlined at that line, "" if none */
	char outer[96];		/* the out-of-line function the code is in */
	char file[160];
	int line;
};
/* A place's instructions in one syscall x account, per call (lib/mix_where.c) */
struct et_where {
	struct et_place place;
	int lines[8];		/* the place's lines, sorted */
	int nr_lines;
	bool more_lines, more_kinds;
	uint64_t addr;		/* its first instruction */
	char where[128];	/* and that as FUNC+OFF */
	double insns;
	double m[8];		/* version 3: the timing model's ET_MET_* per syscall */
	struct {
		const char *kind;	/* et_mix_name() of the file */
		double n;
	} kinds[8];
	int nr_kinds;
};
ssize_t et_mix_where(const struct et_mix *m, const char *name, const char *account,
		     struct et_where **out);
bool et_where_same_place(const struct et_where *a, const struct et_where *b);
double et_where_kind(const struct et_where *w, const char *kind);
char *et_where_lines(const struct et_where *w, char *buf, size_t size);
char *et_where_culprit(const struct et_mix *base, const struct et_mix *test, const char *name,
		       const char *what, char *buf, size_t size);
const char *et_code_name(enum et_code code);
const char *et_code_key(enum et_code code);
int et_code_of_path(const char *path);
int et_place_of(const char *frames, bool body, struct et_place *p);

/* ------------------------------------------------------------------ */
/* Load: files -> timelines -> filtered stats, what every command needs */

/* ------------------------------------------------------------------ */
/* Sources: one file of syscalls, whatever wrote it (lib/source.c)     */

/*
 * A trace (trace.dat: events through a timeline), QEMU plugin output
 * (.mix: samples with instruction counts) or the running kernel (a tracefs
 * instance, read in rounds); a new kind is a row of source.c's table.
 * et_load_files() opens every command's files here, top the running kernel.
 */
struct et_source;
struct et_report_file;

struct et_source_opts {
	int mode;			/* enum et_mode, or -1 to detect */
	int jobs;			/* traces: threads, 0: the library chooses */
	et_progress_fn progress;	/* traces: see et_trace_set_progress */
	void *progress_data;
	bool raw_stamps;		/* traces: et_timeline_set_raw_stamps */
	et_event_fn event;		/* traces: each event, before the timeline */
	void *event_data;
	const char *mix_refused;	/* set: plugin output is refused, for this reason */
};

/* The kind a file is, by its first bytes: "a trace", "QEMU plugin output". */
const char *et_source_what(const char *path);
/* What a kind's values count, in words: "nanoseconds", "instructions". */
const char *et_source_counts(const char *what);
/* The kind whose key is @key ("trace", "mix", "live"), or NULL. */
const struct et_file_kind *et_source_kind_of(const char *key);
bool et_source_is_mix(const char *path);
/* NULL only when out of memory; on *err != ET_OK errbuf says why, and the
 * source still needs closing.  @o must outlive the source. */
struct et_source *et_source_open(const char *path, const struct et_source_opts *o,
				 enum et_err *err, char *errbuf, size_t errlen);
/* The file's facts and syscall names (a mix's: its machine's). */
struct et_trace *et_source_trace(const struct et_source *s);
struct et_mix *et_source_mix(const struct et_source *s);	/* NULL: not a mix */
const char *et_source_kind_what(const struct et_source *s);	/* et_source_what()'s */
/* Every syscall to @fn, once; then et_source_file() holds what was read. */
enum et_err et_source_feed(struct et_source *s, et_syscall_fn fn, void *data, char *errbuf,
			   size_t errlen);
const struct et_report_file *et_source_file(const struct et_source *s);
/*
 * The running kernel: the events enabled in @instance (et_live_new()).
 * Read in rounds: et_source_read() decodes what the buffers hold now into
 * one timeline that lives as long as the source (@fn, @data: the first
 * round's, kept), for timeout_ns at most, and returns et_live_read()'s
 * value; every syscall completed by then has gone to @fn, even one whose
 * task's name no event has confirmed yet (under the saved cmdlines name),
 * and et_source_file() holds what every round so far read.
 * et_source_finish() ends the timeline: syscalls in flight as incomplete.
 */
struct et_source *et_source_open_live(struct tracefs_instance *instance,
				      const struct et_source_opts *o, enum et_err *err,
				      char *errbuf, size_t errlen);
int et_source_read(struct et_source *s, uint64_t timeout_ns, et_syscall_fn fn, void *data);
/* (a live source's rounds: the syscalls a timeline holds for a task's name, out now) */
void et_timeline_release_held(struct et_timeline *tl);
void et_source_finish(struct et_source *s);
/* Holes in a trace, a mix QEMU did not finish or with unnamed samples. */
bool et_source_damaged(const struct et_source *s);
void et_source_close(struct et_source *s);

struct et_load_opts {
	int jobs;			/* threads per file, 0: the library chooses */
	int mode;			/* enum et_mode, or -1 to detect */
	const struct et_filter *filter;	/* its syscalls are ignored: */
	char *const *syscall_names;	/* names or numbers, resolved per file */
	int nr_syscall_names;
	bool keep_excluded;
	unsigned int stats_flags;	/* ET_STATS_* */
	et_syscall_fn tap;		/* optional: sees every syscall first */
	void *tap_data;
	et_syscall_fn added;		/* optional: each syscall added to the stats */
	void *added_data;
	/*
	 * optional: every syscall the filters let through, complete or not,
	 * before the stats (export's slices); with no_stats, none are kept
	 */
	et_syscall_fn passed;
	void *passed_data;
	bool no_stats;
	et_event_fn event;		/* optional: each event, before the timeline */
	void *event_data;
	const char *mix_refused;	/* set: plugin output is refused, for this reason */
	et_progress_fn progress;	/* optional: see et_trace_set_progress */
	void *progress_data;
	bool raw_stamps;		/* et_timeline_set_raw_stamps */
	bool per_file_stats;		/* also one et_stats per file: run_stats */
};

struct et_load {
	struct et_report_file *files;
	int nr_files;
	struct et_source **sources;	/* open until et_load_free */
	struct et_trace **traces;	/* per file: et_source_trace() */
	struct et_mix **mixes;		/* per file: et_source_mix(), plugin output */
	struct et_stats *stats;
	struct et_stats **run_stats;	/* per file (per_file_stats), else NULL */
	uint64_t filtered_out;
	uint64_t seen;			/* syscalls of all files */
	uint64_t lost;			/* lost events and lost-touched syscalls */
	int damaged;			/* files with holes (et_counts_damaged) */
	struct et_syscall *excluded;	/* with keep_excluded */
	size_t nr_excluded;
};

/* On error errbuf says why, for one line; the load still needs freeing. */
enum et_err et_load_files(struct et_load *ld, char *const *paths, int n,
			  const struct et_load_opts *opts, char *errbuf, size_t errlen);
void et_load_free(struct et_load *ld);
/* One line naming the first damaged file and what could not be read. */
const char *et_load_damage(const struct et_load *ld, char *buf, size_t size);
/*
 * Whether a syscall's values can be: nothing longer than the trace (its
 * first to its last record, with 1 ms to spare), no kernel stage longer
 * than the syscall's total, its times inside the trace.  A file's flipped
 * byte can give a 4 s kill in a 0.4 s trace; that is damage, counted and
 * left out of the statistics, not averaged in.
 */
bool et_sc_plausible(const struct et_syscall *sc, const struct et_trace_info *in);
const char *et_damage_text(const char *path, const struct et_trace_counts *c, char *buf,
			   size_t size);

/* et_trace_entry_path() from a file's facts. */
unsigned int et_info_entry_path(const struct et_trace_info *info);

/* ------------------------------------------------------------------ */
/* Diff: base vs test, per syscall x path signature x stage            */

enum et_diff_status {
	ET_DIFF_BOTH,
	ET_DIFF_BASE_ONLY,		/* ran on base only, exists on both paths */
	ET_DIFF_TEST_ONLY,
	ET_DIFF_NO_COUNTERPART_BASE,	/* the base's entry path has no such stage */
	ET_DIFF_NO_COUNTERPART_TEST,
};

/*
 * What a replicate is, the unit the tests and intervals take as independent:
 *   SYSCALLS  every syscall (a deterministic clock: QEMU -icount, plugin
 *             counts): today's per-syscall statistics
 *   RUNS      every recording: per cell, each file's mean (median) is one
 *             value, and base and test are compared with Yuen's trimmed t
 *             over the medians (Welch's t below five a side), so the spread
 *             between recordings is in every interval and test (two or more
 *             files a side)
 *   NONE      one recording a side on a real clock: run-to-run noise cannot
 *             be told from a change; nothing is tested (no star, no trip)
 */
enum et_replicates { ET_REP_SYSCALLS, ET_REP_RUNS, ET_REP_NONE };
/* RUNS: a cell is tested when each run that has it has this many syscalls */
#define ET_RUN_MIN_VALUES 30
/* ...and Yuen's test trims this much of each end of the runs' values */
#define ET_RUN_TRIM 0.2

struct et_diff_opts {
	int bootstrap;		/* replicates, e.g. 2000 */
	uint64_t seed;		/* results are reproducible for one seed */
	double alpha;		/* family-wise, after Holm's correction */
	enum et_replicates replicates;
	/* RUNS: each side's files' own stats */
	struct et_stats *const *base_runs, *const *test_runs;
	int nr_base_runs, nr_test_runs;
};
const char *et_replicates_name(enum et_replicates r);
/*
 * The replicates (lib/gate.c), before the files are read: with is_auto,
 * RUNS when both sides have two or more recordings; an asked-for RUNS
 * without them is -1, said on stderr.
 */
int et_replicates_plan(struct et_diff_opts *o, bool is_auto, int nb, int nt);
/*
 * ...and once they are read: is_auto and not RUNS becomes SYSCALLS when
 * every file's clock is deterministic (plugin counts, -icount), else NONE;
 * RUNS takes each side's per-file stats.  Returns whether every clock was
 * deterministic.
 */
bool et_replicates_settle(struct et_diff_opts *o, bool is_auto, const struct et_load *base,
			  const struct et_load *test);

/* Stage columns: a child indented under its parent (stage.c) */
int et_stage_depth(int stage);
const char *et_stage_label(int stage, char *buf, size_t size);
int et_stage_label_width(void);
/* P(|T| > |t|), Student's t with df degrees of freedom (two-sided) */
double et_student_t_p(double t, double df);
/* q with P(|T| > q) = alpha */
double et_student_t_crit(double alpha, double df);

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
	/* RUNS: the recordings that had the cell, and Welch's t over their means */
	int runs_base, runs_test;
	double t, df_t;
	bool significant;
	/*
	 * What the data could have found: the smallest change of the tested
	 * statistic (runs: the trimmed median; syscalls: the mean) that 80%
	 * of such comparisons would call significant at the strictest level
	 * Holm's correction tests at, and never below the clock's step the
	 * values show (ns; 0 untested).
	 */
	double mde, mde_se, mde_df;
	uint64_t clock_step;
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
	size_t compared;	/* cells with values on both sides */
	double alpha;
	enum et_replicates replicates;
	int nr_base_runs, nr_test_runs;
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

struct et_report;
struct et_report_file;
struct et_diff_report;

/*
 * A kind of input as the outputs see it (lib/source.c holds one row per
 * kind): its words and what its values are.  What it adds to a report or
 * a diff is the renderers' (lib/sections.c, by key).
 */
struct et_file_kind {
	const char *key;	/* "trace", "mix", "live" (JSON "kind") */
	const char *what;	/* in words: "a trace", "QEMU plugin output" */
	const char *counts;	/* what its values count, in words */
	const char *unit;	/* its values' unit; NULL: the clock's (ns or cycles) */
	bool counted;		/* values counted, not timed: the same in every run */
	/* syscalls are samples: exemplars are sample numbers, and there is
	 * no task, CPU or result to break a total down by */
	bool samples;
	const char *legend;	/* the text table's note on its values; NULL: a clock's */
	const char *slowest;	/* report --slowest: what the list shows; NULL: a trace's */
	/* what holes the file has beyond its pages' (into @buf), or NULL */
	const char *(*damage)(const struct et_report_file *f, char *buf, size_t size);
	/* diff (both sides are of one kind): why values are exact, on the
	 * replicates line, and the header's line on the values; NULL: a clock's */
	const char *diff_exact;
	const char *diff_values;
};

struct et_report_file {
	struct et_trace_info info;
	struct et_trace_counts counts;
	struct et_timeline_counts tl;
	const struct et_mix *mix;	/* plugin output, else NULL */
	const struct et_file_kind *kind;	/* its source's kind */
};

/*
 * What a file's values count: nanoseconds (a trace's clock), cycles (the
 * PMU stamp source) or instructions (QEMU plugin output).
 */
const char *et_file_unit(const struct et_report_file *f);

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
	int where;		/* plugin output: places per stage (0: none) */
	/* text: the order of the syscalls, how many, the unit of times */
	/* a sort key of lib/columns.c (ET_SORT_TOTAL, the first), or the name */
	enum et_sort { ET_SORT_TOTAL = 0, ET_SORT_NAME = 0xff } sort;
	int top;		/* at most this many syscalls (0: all) */
	enum et_unit { ET_UNIT_NS, ET_UNIT_US, ET_UNIT_MS, ET_UNIT_S } unit;
};

int et_render(const struct et_report *rep, enum et_format fmt, FILE *out);
/* "total" -> ET_SORT_TOTAL ..., "name" -> ET_SORT_NAME; -1 if none */
int et_sort_by_name(const char *name);
const char *et_sort_name(enum et_sort s);
/* The sort key after @s, in the table's order; the name follows the last. */
enum et_sort et_sort_next(enum et_sort s);
/* What a row sorts by, largest first (ET_SORT_NAME: 0, sorted by name). */
double et_sort_key(enum et_sort by, const struct et_hist *h);
/* For help texts: "total, count, ... or name"; the statistic columns. */
void et_sort_keys(char *buf, size_t size);
void et_cols_names(char *buf, size_t size);
/*
 * A statistic column for a table of another shape (top): by its key
 * ("mean", "p50", "stddev", ...; -1 if none), its text heading and its
 * value in an et_hist (lib/columns.c's table: no percentile is spelled
 * twice).
 */
int et_stat_col(const char *key);
const char *et_stat_col_heading(int col);
double et_stat_col_value(int col, const struct et_hist *h);
/* top's i-th statistic column (et_stat_col), shown from a terminal width on; -1 past the last */
int et_top_col(size_t i, int *from_width);
void et_top_cols_str(char *buf, size_t size);	/* "mean, p50, ...": for its help */
/* a plot panel's note on a histogram: its count and quantiles (lib/columns.c) */
void et_stat_note(const struct et_hist *h, const char *unit, char *buf, size_t size);
int et_unit_by_name(const char *name);

/*
 * Export (lib/export.c): one file's syscalls for trace viewers, as the
 * Trace Event JSON or Perfetto's protobuf (proto), written while the file
 * loads through the hooks et_export_hooks() sets (tap, passed, event).
 */
struct et_export;
struct et_export_counts {
	uint64_t seen;		/* syscalls the timeline gave */
	uint64_t passed;	/* ...that the filters let through */
	uint64_t slices;	/* syscall slices written */
	uint64_t complete;
	uint64_t partial;	/* ...of incomplete syscalls (args.complete false) */
	uint64_t no_span;	/* not written: no start or no end */
	uint64_t overlays;	/* off_cpu and irq slices */
};
struct et_export *et_export_new(FILE *out, const char *path, bool proto,
				const struct et_load *ld);
void et_export_hooks(struct et_export *x, struct et_load_opts *lo);
/* The JSON's tail, or the protobuf's last packets; false if memory ran out. */
bool et_export_finish(struct et_export *x, uint64_t *packets, uint64_t *bytes);
const struct et_export_counts *et_export_counts(const struct et_export *x);
void et_export_free(struct et_export *x);

/* The N syscalls with the longest total, kept as they come. */
struct et_slowest;
struct et_slowest *et_slowest_new(size_t n);
void et_slowest_add(struct et_slowest *s, const struct et_syscall *sc);
/* Sorts them, slowest first (no et_slowest_add after it); how many. */
size_t et_slowest_sort(struct et_slowest *s);
/* The i-th slowest; valid until et_slowest_free. */
const struct et_syscall *et_slowest_at(const struct et_slowest *s, size_t i);
void et_slowest_free(struct et_slowest *s);

/* A diff and what is needed to print it. */
/* --fail-on's verdict, judged before the output is written. */
struct et_gate_verdict {
	const char *result;	/* "passed", "tripped" or "checked_nothing" */
	int exit;		/* the exit status it gives: enum et_gate_result */
	const char *rules;	/* as given, a comma list (valid while the gate is) */
	char *messages;		/* what it printed on stderr, one line each; free() it */
};

/* The verdicts, as entrytrace diff's exit status. */
enum et_gate_result {
	ET_GATE_PASSED = 0,
	ET_GATE_TRIPPED = 6,	/* a rule tripped */
	ET_GATE_NOTHING = 7,	/* a rule checked nothing: no pass on no data */
};

/* Option values (lib/optval.c): split "a,b,c" and call fn for each piece,
 * stopping at the first non-zero return, which it returns. */
int et_for_each_csv(const char *list, int (*fn)(const char *item, void *data),
		    void *data);
/* "WHO: OPT 'VALUE': EXPECT" on stderr; returns -1. */
int et_bad_value(const char *who, const char *opt, const char *value, const char *expect);
/*
 * A number an option takes, checked whole: the text is a number and
 * nothing else (no blank, no empty text), it fits, and it lies in the
 * range; else et_bad_value() with EXPECT, and -1.
 *   et_opt_int:  decimal, lo <= v <= hi
 *   et_opt_u64:  decimal or 0x hexadecimal, no sign, any 64-bit value
 *   et_opt_real: lo <= v <= hi, or lo < v / v < hi where ET_OPT_OPEN_LO /
 *                ET_OPT_OPEN_HI say so; never NaN or infinite
 */
enum { ET_OPT_OPEN_LO = 1, ET_OPT_OPEN_HI = 2 };
/* et_opt_int's test alone, saying nothing (an item of a list: its caller names the list) */
bool et_parse_int(const char *arg, long long lo, long long hi, long long *out);
int et_opt_int(const char *who, const char *opt, const char *arg, long long lo, long long hi,
	       const char *expect, long long *out);
int et_opt_u64(const char *who, const char *opt, const char *arg, const char *expect,
	       uint64_t *out);
int et_opt_real(const char *who, const char *opt, const char *arg, double lo, double hi,
		unsigned int open, const char *expect, double *out);

/* diff --fail-on's rules (lib/gate.c). */
struct et_gate;
struct et_gate *et_gate_new(void);
void et_gate_free(struct et_gate *g);
/* Adds a comma list of rules; -1 after saying on stderr which one is bad. */
int et_gate_parse(struct et_gate *g, const char *list);
int et_gate_nr(const struct et_gate *g);
/* Judges df, fills v; returns v->exit. */
int et_gate_judge(const struct et_gate *g, const struct et_diff *df,
		  const struct et_diff_report *rep, struct et_gate_verdict *v);

struct et_diff_report {
	const struct et_diff *diff;
	const struct et_gate_verdict *gate;	/* NULL: no --fail-on */
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
	int where;			/* plugin output: places whose instructions moved */
	bool virtual_clock;		/* every file's clock counts instructions */
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

/* @unit: of the values: "ns", or what a count counts ("instructions") */
int et_plot_cdf_svg(FILE *out, const char *title, const char *unit,
		    const struct et_plot_panel *panels, int n);

/*
 * A plot being put together: up to @max panels, whose title and note it
 * keeps copies of (report's and diff's --plot).  et_plot_add() hands out
 * the next panel with them set, for its series; NULL when the plot is full.
 */
struct et_plot {
	struct et_plot_panel *panels;
	char (*text)[2][96];
	int n, max;
};
int et_plot_init(struct et_plot *p, int max);
struct et_plot_panel *et_plot_add(struct et_plot *p, const char *title, const char *note);
void et_plot_free(struct et_plot *p);

#ifdef __cplusplus
}
#endif

#endif /* _ENTRYTRACE_PRIVATE_H */
