/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libentrytrace's own tier: what its files share and nobody outside the
 * library sees (trace-cmd's trace-cmd-local.h).  The layers, each calling
 * only the ones below it:
 *
 *   trace.c     a trace: the file opened with libtracecmd, its facts, its
 *               mode, syscall names (syscalls-ppc32.c: the 32-bit
 *               powerpc table), task names               (struct et_trace)
 *   pages.c     one CPU's records, read from the file's pages or
 *               decompressed zstd chunks with kbuffer, or through
 *               libtracecmd                              (struct et_rec)
 *   decode.c    records -> typed events: fields resolved once per trace
 *   walk.c      the one CPU merge, on one thread or many; accounting of
 *               records, pages, lost events
 *   timeline*.c events -> syscalls; stats.c, hist.c: syscalls -> cells
 *   render*.c, plot.c, json.c: text, JSON, CSV, SVG
 */
#ifndef _ET_LOCAL_H
#define _ET_LOCAL_H

#include <stddef.h>

#include "entrytrace-private.h"

struct tep_handle;
struct tep_record;
struct tep_event;
struct tracecmd_input;

#define ET_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The .mix instruction classes, in mix-format.def's order (mix.c). */
enum {
#define MIX_CLASS(SYM, name) ET_MIX_CLASS_##SYM,
#include "mix-format.def"
	ET_MIX_NR_CLASSES
};
extern const char *const et_mix_classes[ET_MIX_NR_CLASSES];

/*
 * One syscall as the timeline hands it out (entrytrace.h's opaque struct
 * et_syscall: the program and the plugins read it through the getters).
 */
struct et_syscall {
	int pid;
	int nr;
	long ret;
	uint32_t seq;		/* stage modes: kernel sequence number */
	uint32_t work;		/* path signature, ET_WORK(...) bits */
	uint32_t shape;		/* argument shape, 0 unknown (lib/shape.c) */
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
	uint64_t stage_mask;	/* bit per stage slot that has a value */
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
	uint64_t span;		/* summary mode: the kernel's span, first stamp
				 * to burst, as stamped (0: not recorded) */
	/* valid only where stage_mask (start_mask) has the bit: */
	uint64_t ns[ET_SLOT_NR];
	uint32_t count[ET_SLOT_NR];
	uint64_t start[ET_SLOT_NR];
	/*
	 * Where start_mask has the bit: how long the stage lasts on a
	 * timeline, from start.  Stamp-corrected, a stage's ns leaves out
	 * its children's stamps too; its extent keeps them (the stamped
	 * interval less one stamp, half off each end), so children stay
	 * inside their parent.
	 */
	uint32_t extent[ET_SLOT_NR];
	/*
	 * For stages with a start: time of interrupts and of being switched
	 * out that fell inside the stage (subtracted for exclusive time), and
	 * the estimated cost of the trace events this syscall emitted inside
	 * it (subtracted with the tracer overhead).
	 */
	uint64_t sub[ET_SLOT_NR];
	uint32_t ovh[ET_SLOT_NR];
	/*
	 * The intervals inside the syscall it was switched out (off_cpu) or
	 * interrupted (irq), on the trace clock: the first ET_SC_MAX_OVERLAYS.
	 */
	uint8_t nr_overlays;
	struct {
		uint64_t start, end;
		uint8_t stage;		/* ET_SLOT_OFF_CPU or ET_SLOT_IRQ */
	} overlays[ET_SC_MAX_OVERLAYS];
	/*
	 * Thread group (process) of the task, from task:task_newtask's clone
	 * flags or an exec; -1 when the trace does not say.
	 */
	int tgid;
	/* ET_SC_CELL: the aggregated cell this record carries, nothing else is set */
	const struct et_agg_cell *cell;
};

/*
 * A syscall record's stage slots: ns[], count[], start[] and extent[] are
 * valid only where stage_mask (start_mask) has the stage's bit.  The one
 * test (the hot path of et_syscall_has()) and the writers that keep the
 * masks with the values.
 */
static inline bool et_sc_has(const struct et_syscall *sc, int stage)
{
	return sc->stage_mask & (1ull << stage);
}

/* A stage that ran once for ns, no start. */
static inline void et_sc_set(struct et_syscall *sc, int stage, uint64_t ns)
{
	sc->ns[stage] = ns;
	sc->count[stage] = 1;
	sc->stage_mask |= 1ull << stage;
}

/* A stage that has a start: [start, start + ns). */
static inline void et_sc_span(struct et_syscall *sc, int stage, uint64_t start, uint64_t ns)
{
	et_sc_set(sc, stage, ns);
	sc->start[stage] = start;
	sc->extent[stage] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	sc->start_mask |= 1ull << stage;
}

/* n more runs of a stage, ns in all (an aggregate: no start). */
static inline void et_sc_add(struct et_syscall *sc, int stage, uint64_t ns, uint32_t n)
{
	if (!et_sc_has(sc, stage)) {
		et_sc_set(sc, stage, ns);
		sc->count[stage] = n;
		return;
	}
	sc->ns[stage] += ns;
	sc->count[stage] += n;
}

/* json.c: the length of the valid UTF-8 sequence at s, or 0 */
size_t et_utf8_len(const unsigned char *s, size_t n);
/* escape.c: the columns text takes on a terminal (name text: escapes are ASCII) */
int et_text_width(const char *text);
/* text padded with spaces to width columns, after it (left) or before it */
const char *et_pad_text(const char *text, int width, bool left, char *buf, size_t size);
const char *et_bytes_text(const void *bytes, size_t n, char *buf, size_t size);

/* The kernel's syscall names per uname machine (syscalls.c, generated) */
struct et_syscall_table {
	const char *machine;
	const char *const *names;
	size_t nr;
};
extern const struct et_syscall_table et_syscall_tables[];

/* ------------------------------------------------------------------ */
/* decode.c: the field table                                           */

/*
 * The oldest ENTRY_STAGE_ABI read (series v2); stages.def's is the newest.
 * ABI 2, the first series' events, is refused with its own message.
 */
#define ET_ABI_OLDEST		3

/* entry_stage_hist: the most buckets one event can carry (a ring buffer page). */
#define ET_KHIST_MAX_BUCKETS	1024

struct et_field {
	int offset;
	int size;
	bool is_signed;		/* dynamic fields: "relative" (__rel_loc) */
};

enum et_handler_kind {
	H_NONE,
	H_SYS_ENTER,
	H_SYS_EXIT,
	H_USER_EXIT,
	H_USER_ENTER,
	H_SIGNAL_DELIVER,
	H_RSEQ_UPDATE,
	H_SCHED_SWITCH,
	H_IRQ_ENTER,
	H_IRQ_EXIT,
	H_PROCESS_EXIT,
	H_PROCESS_FORK,
	H_TASK_NEWTASK,
	H_TASK_RENAME,
	H_PROCESS_EXEC,
	H_STAGE,
	H_SUMMARY,
	H_CALIB,
	H_HIST,
	H_BATCH,
	H_SYS_ARGS,
	H_UNREGISTERED,		/* an id no format of the file registers */
};

struct et_decoder {
	bool swap;		/* file endianness differs from ours */
	uint8_t *handlers;	/* per event id: every event the analyzer knows */
	uint8_t *active;	/* ...and those the mode decodes */
	uint16_t *min_size;	/* per event id: the bytes its fields need */
	int max_id;
	bool unregistered_out;	/* ids beyond max_id count as damage (files) */

	struct et_field common_type;
	struct et_field common_pid;

	struct et_field enter_id;
	struct et_field enter_args;	/* raw_syscalls:sys_enter's args[6] */
	int enter_arg_size;		/* ...one element: 8, or 4 on 32-bit */
	/* syscalls:sys_enter_<name> events the shapes read (lib/shape.c) */
	struct et_args_event {
		int id;
		struct et_field nr;
		struct et_field arg[ET_SC_ARGS];
		int nargs;
	} args_ev[4];
	int nr_args_ev;
	struct et_field exit_id, exit_ret;
	struct et_field sig;
	struct et_field sw_prev_comm, sw_prev_pid, sw_prev_state;
	struct et_field sw_next_comm, sw_next_pid;
	struct et_field pexit_pid, pexit_comm;
	struct et_field fork_child_pid, fork_child_comm;
	struct et_field newtask_pid, newtask_comm, newtask_flags;
	struct et_field rename_pid, rename_newcomm, rename_oldcomm;
	struct et_field exec_pid, exec_old_pid, exec_filename;

	/* entry_stage (ABI 3): entry_stage_time, _summary, _calib */
	struct et_field st_seq, st_nr, st_stage, st_work, st_count, st_khz,
		st_sample, st_cost, st_start, st_delta, st_insns, st_ret;
	struct et_field su_seq, su_tail_seq, su_nr, su_work, su_ret, su_start,
		su_rcu, su_sample, su_khz, su_cost, su_delta, su_span;
	bool have_su_span;	/* series v3's summary carries span */
	struct et_field ca_source, ca_hz, ca_sample, ca_epoch, ca_min, ca_median,
		ca_agg, ca_scratch, ca_failed, ca_abi;
	/* entry_stage_hist (series v3's aggregation) */
	struct et_field hi_abi, hi_cpu, hi_nr, hi_work, hi_stage, hi_stages, hi_sample, hi_khz,
		hi_cost, hi_agg_cost, hi_dropped, hi_count, hi_sum, hi_sumsq, hi_agg,
		hi_min, hi_max, hi_bits, hi_lo, hi_buckets;
	/* entry_stage_batch (series v4's packed compact mode) */
	struct et_field ba_abi, ba_cpu, ba_seq, ba_records, ba_stages, ba_sample, ba_khz,
		ba_cost, ba_first, ba_now, ba_now_ns, ba_words;
	bool have_batch;
	int su_nr_delta;	/* the summary's slots in this file */
	/*
	 * The recording's stage ids to this analyzer's, by name: from
	 * entry_stage_time's symbolic stage table when the file has its format,
	 * else by position (ids are append-only: an older kernel's are a prefix
	 * of ours).  -1: a stage this analyzer does not know.
	 */
	int16_t *kmap;
	int kmap_len;
	char unknown_names[256];	/* "name, name" of the unknown ones */
};

/* One ring-buffer record, wherever it was read from. */
struct et_rec {
	uint64_t ts;
	const void *data;	/* the payload; valid until its CPU's next record */
	int size;
	long long missed;	/* events lost just before it, -1 unknown, 0 none */
	uint64_t page;		/* which page of its CPU it is on, + 1; 0: not counted */
};

/* Per decoding thread: where events' strings and summary slots live. */
struct et_scratch {
	char comm_a[ET_COMM_LEN + 1];
	char comm_b[ET_COMM_LEN + 1];
	uint64_t *su_buf;	/* summary deltas, ns, by this analyzer's stage id */
	uint32_t hi_buf[ET_KHIST_MAX_BUCKETS];	/* a hist event's buckets, host order */
	uint64_t abi_errors;	/* entry_stage events that do not fit the ABI */
	uint64_t unknown_stages; /* stage values of stages this analyzer does not know */
	uint64_t unregistered;	/* records of a type no format registers */
	uint64_t short_records;	/* records shorter than their event's format */
	/* the entry_stage_batch being handed on, record by record */
	struct et_batch_cursor {
		bool pending;		/* et_decode() has just opened one */
		int cpu;		/* the CPU that wrote it */
		uint32_t seq;		/* its number among that CPU's */
		const char *p;		/* its next record */
		uint32_t words;		/* words left */
		uint32_t records;	/* records left */
		uint32_t stages;	/* the kernel's ENTRY_STAGE_NR */
		uint32_t sample;
		uint64_t khz, first, now;
		uint64_t at;		/* its record's time stamp (the file's clock) */
		double stamp_ns;
	} batch;
};

/*
 * Resolve every event the analyzer understands in the trace's formats
 * (info->present and the stage facts are filled in); errbuf says why not.
 */
enum et_err et_decoder_init(struct et_decoder *d, struct tep_handle *tep,
			    struct et_trace_info *info, char *errbuf, size_t errlen);
void et_decoder_fini(struct et_decoder *d);
/* A file's decoder: records of ids no format registers are counted as damage. */
void et_decoder_mark_unregistered(struct et_decoder *d, struct tep_handle *tep);
/* Decode only what this mode uses. */
void et_decoder_activate(struct et_decoder *d, enum et_mode mode);
/* One record into *ev; false if the mode has no use for it. */
bool et_decode(const struct et_decoder *d, const struct et_rec *rec,
	       struct et_scratch *s, struct et_event *ev);
/*
 * After et_decode() opened an entry_stage_batch (it returns false with
 * s->batch.pending set, out of the way of every other record): its next
 * record into *ev, an
 * ET_EV_SUMMARY with its own time, pid and CPU unset; false at the end
 * (records that do not hold together are counted in abi_errors, and the
 * rest of the batch with them).  The record et_decode() read must stay
 * valid until then.
 */
bool et_decode_batch_next(const struct et_decoder *d, struct et_scratch *s,
			  struct et_event *ev);
int et_scratch_init(const struct et_decoder *d, struct et_scratch *s);
void et_scratch_fini(struct et_scratch *s);

/* ------------------------------------------------------------------ */
/* pages.c: where one CPU's data lies                                  */

enum et_cpu_source {
	ET_SRC_NONE,		/* no data */
	ET_SRC_PAGES,		/* uncompressed pages at offset */
	ET_SRC_ZSTD,		/* zstd chunks at offset (4-byte count, then chunks) */
};

struct et_cpu_layout {
	enum et_cpu_source source;
	uint64_t offset;	/* in the file */
	uint64_t size;		/* of the data in the file (compressed: its size) */
	uint64_t file_size;	/* of the whole file */
};

struct et_cpu_reader;

/* ------------------------------------------------------------------ */
/* index.c: what the file says about itself, checked at open            */

/* Reading a file at offsets, numbers in its byte order. */
struct et_file {
	int fd;
	uint64_t size;
	bool swap;
};

bool et_file_read(const struct et_file *f, uint64_t off, void *buf, size_t n);
uint64_t et_file_num(const struct et_file *f, const void *p, int size);

#define ET_INDEX_MAX_CPUS	4096
#define ET_INDEX_UNREAD		64

/* One CPU's line of the file's index: the BUFFER option (v7), flyrecord (v6). */
struct et_index_cpu {
	int cpu;
	uint64_t off, size;	/* size: v7 zstd leaves out the 4-byte chunk count */
};

/* What the kernel counted for a CPU when the recording ended (CPUSTAT). */
struct et_cpustat {
	bool have, have_counts, have_overrun, have_oldest, have_now;
	bool ts_ns;		/* the ts lines were seconds.microseconds */
	uint64_t entries, overrun, read;
	uint64_t oldest, now;	/* trace clock: ns, or the clock's own counts */
};

struct et_index {
	bool valid;		/* read, and consistent */
	int version;
	int page_size;		/* the file's header */
	int buffer_page_size;	/* the BUFFER option's (v7) */
	int cpucount;		/* CPUCOUNT option, or libtracecmd's count */
	int v6_cpus;		/* v6: the count before the flyrecord index */
	/*
	 * The trace clock as the file writes it: the top BUFFER option's
	 * (v7), the selected one of the text after the flyrecord index (v6);
	 * NULL where neither says.  (libtracecmd 1.3.1 reads past a 0-byte
	 * TRACECLOCK option, which entrytrace record and trace-cmd write,
	 * and may take heap bytes for the clock's name.)
	 */
	char *clock;
	bool zstd, known_compression, shifts;
	bool have_buffer;	/* an index of the CPUs' data was found */
	bool compressed;	/* its section is compressed */
	uint64_t section;	/* v7: the flyrecord section's header */
	uint64_t sec_start, sec_end;	/* where CPU data may lie */
	uint64_t file_size;
	struct et_index_cpu *cpu;
	int nr_cpu;
	struct et_cpustat *stat;	/* by CPU */
	int nr_stat;
	int nr_stat_opts;	/* CPUSTAT options: one per CPU the recorder had */
	/* section bytes no index entry reaches: per CPU before them */
	int unread_cpu[ET_INDEX_UNREAD];
	uint64_t unread[ET_INDEX_UNREAD];
	int nr_unread;
};

/*
 * Read the index of t's file (t->handle opened with tracecmd_open_head,
 * t->fd) into t->index: false, why set, where it contradicts itself.
 */
bool et_index_read(struct et_trace *t, char *why, size_t len);
void et_index_free(struct et_index *ix);
/* Where a file libtracecmd refused stops reading as its layout (v6, v7). */
bool et_index_layout(const char *path, char *why, size_t len);
/* A CPU's first and last record against its CPUSTAT; notes if they disagree. */
void et_index_check_times(struct et_trace *t, int cpu, uint64_t first, uint64_t last);
/* After a whole walk: records and lost events per CPU against CPUSTAT. */
void et_index_check_walk(struct et_trace *t);

/*
 * Read a CPU's records directly (the file's pages and zstd chunks, parsed
 * with kbuffer, on the trace's own descriptor), or, with handle, through
 * that libtracecmd handle.  Each reader is used by one thread.
 */
struct et_cpu_reader *et_cpu_reader_new(struct et_trace *t, int cpu,
					struct tracecmd_input *handle);
/* 1 with *rec filled, 0 at the end of the CPU's data (or where it breaks off) */
int et_cpu_reader_next(struct et_cpu_reader *r, struct et_rec *rec);
void et_cpu_reader_free(struct et_cpu_reader *r);

/*
 * Where the file keeps each CPU's data, read from its option sections
 * (version 7 files): true when every CPU's data can be read directly.
 * why says otherwise, for ENTRYTRACE_DEBUG.
 */
bool et_pages_layout(struct et_trace *t, const char **why);
/*
 * Before libtracecmd reads the CPU data (tracecmd_init_data): a version 7
 * file's zstd chunk counts against the bytes after them.  false, the CPU
 * and its count in why, when a count cannot be.
 */
bool et_pages_chunk_counts_fit(struct et_trace *t, char *why, size_t len);

/* ------------------------------------------------------------------ */
/* trace.c                                                             */

struct et_trace {
	struct tracecmd_input *handle;	/* files; NULL for live traces */
	struct tep_handle *tep;
	struct et_trace_info info;
	struct et_trace_counts counts;
	struct et_decoder dec;
	int machine;		/* libaudit MACH_*, -1 unknown */

	char *path;
	char *open_path;	/* what libtracecmd opens: path, or the spooled copy */
	int spool_fd;		/* the copy of a pipe or stdin, -1 none */
	int fd;			/* the file, for direct reading; -1 none */
	char *machine_str;
	char *uname_str;	/* live traces own these; files' are libtracecmd's */
	char *clock_str;

	int page_size;		/* files: pages are counted per CPU */
	int long_size;		/* of the ring buffer's page header */
	bool direct;		/* pages.c reads the CPUs itself */
	struct et_cpu_layout *layout;	/* per CPU, with direct */
	uint64_t pages_total;
	struct et_index index;		/* what the file says about itself */
	char notes[1024];		/* what it says against what was read */
	size_t notes_len, open_notes_len;
	uint64_t open_mismatches;
	uint64_t *lost_unknown_per_cpu;	/* gaps of unknown size, per CPU */

	/* per CPU, one walker each: */
	uint64_t *last_page;	/* page of the last record + 1 */
	uint64_t *last_rec_ts;	/* timestamp of the last record */
	bool *lost_announced;	/* gap before the next record told */
	uint32_t *batch_seq;	/* entry_stage_batch: the last one's number */

	int jobs;		/* threads for et_trace_iterate, 0: choose */
	et_progress_fn progress;
	void *progress_data;
};

/*
 * audit.c: the CPU data of a file the page reader leaves to libtracecmd
 * (version 6), held against its own size fields and page headers: bytes
 * after a CPU's declared size and before the next section that are not
 * empty (unread_bytes_per_cpu), pages with bytes past their commit
 * (bad_pages_per_cpu).  et_audit_page() is the page check both use.
 */
void et_audit_v6(struct et_trace *t);
bool et_audit_page(const uint8_t *page, int page_size, bool long8, bool big_endian);

/* The size of the kernel's syscall table trace.c has for t's architecture, 0 if none. */
int et_syscall_table_size(const struct et_trace *t);
/* A second libtracecmd handle on the same file, for a reader thread. */
struct tracecmd_input *et_trace_reopen(const struct et_trace *t);
/* The task's name in the file's saved cmdlines, or NULL. */
const char *et_trace_comm(const struct et_trace *t, int pid);

/*
 * Live traces (live.c): the same field resolution and decoding over the
 * running kernel's formats.  tep stays the caller's (freed after
 * et_trace_close).
 */
struct et_trace *et_trace_new_live(struct tep_handle *tep, const char *name,
				   const char *uname, const char *clock, int cpus,
				   enum et_err *err, char *errbuf, size_t errlen);

/* ------------------------------------------------------------------ */
/* walk.c                                                              */

/*
 * A walker decodes records of some CPUs and hands each event to fn: one
 * per thread.  Events' strings point into its scratch, valid during the
 * call.
 */
struct et_walk {
	et_event_fn fn;
	void *data;
	struct et_scratch scratch;
	uint64_t records, used, lost_events, lost_unknown;
	uint64_t batches, lost_batches;	/* entry_stage_batch events, gaps */
	uint64_t batches_unexplained;	/* ...of which no lost events told */
	uint64_t last_ts;
	uint64_t key;		/* merge key of the record being handed on */
};

int et_walk_init(const struct et_trace *t, struct et_walk *w, et_event_fn fn,
		 void *data);
/* Adds the walker's counts to the trace's. */
void et_walk_fini(struct et_trace *t, struct et_walk *w);
/* One record of a CPU, with the missed-events mark of the one after it. */
int et_walk_record(struct et_trace *t, struct et_walk *w, const struct et_rec *rec,
		   int cpu);
/* The records were cut off on cpu at ts: a gap of unknown size (live). */
int et_walk_gap(struct et_trace *t, struct et_walk *w, int cpu, uint64_t ts);

/* ------------------------------------------------------------------ */
/* hist.c                                                              */

/* Grow *arr (of *cap elements of size sz) to hold at least need. */
int et_grow(void **arr, size_t *cap, size_t need, size_t sz);

/* ------------------------------------------------------------------ */
/* shape.c: the syscalls whose arguments choose their path              */

#define ET_SHAPE_SYSCALLS 4
struct et_shapes {
	int n;
	int nr[ET_SHAPE_SYSCALLS];	/* their numbers in this trace */
	uint8_t which[ET_SHAPE_SYSCALLS];
};

void et_shapes_init(struct et_shapes *sh, const struct et_trace *trace);
/* The shape code of syscall nr's arguments (not yet shifted), 0 if none. */
uint32_t et_shape_of(const struct et_shapes *sh, int nr, const long *arg, int nargs,
		     int pid, int tgid);

/* ------------------------------------------------------------------ */
/* render_mix.c: QEMU plugin output in the report and the diff          */

void et_text_mix_file(const struct et_report_file *f, FILE *out);
void et_json_mix_file(const struct et_report_file *f, FILE *out);
void et_text_mix(const struct et_report *rep, FILE *out);
void et_json_mix(const struct et_report_file *files, int nr_files, FILE *out);
void et_json_mix_key(const struct et_report_file *files, int nr_files, const char *key,
		     FILE *out);
void et_text_mix_diff(const struct et_mix *base, const struct et_mix *test,
		      const struct et_filter *filter, const struct et_trace *names,
		      const struct et_diff *df, bool all, int where_rows, FILE *out);
size_t et_mix_diff_names(const struct et_mix *base, const struct et_filter *filter,
			 const struct et_trace *names, const struct et_diff *df, const char ***out);
void et_text_mix_diff_tail(const struct et_diff_report *r, FILE *out);
void et_json_mix_diff(const struct et_diff_report *r, FILE *out);

/*
 * sections.c: what a kind of input adds to the outputs, by its key (a
 * member left NULL adds nothing; a kind with no row, nothing at all)
 */
struct et_sections {
	const char *key;	/* et_file_kind.key */
	/* report: the file's text header, instead of a trace's */
	void (*text_header)(const struct et_report_file *f, FILE *out);
	/* report: after the text tables, and after the JSON's last key */
	void (*text_tail)(const struct et_report *rep, FILE *out);
	void (*json_file)(const struct et_report_file *f, FILE *out);	/* more keys */
	void (*json_tail)(const struct et_report_file *files, int nr_files, FILE *out);
	/* diff: after the text tables, and more JSON keys after "unit" */
	void (*diff_text_tail)(const struct et_diff_report *r, FILE *out);
	void (*diff_json)(const struct et_diff_report *r, FILE *out);
};
const struct et_sections *et_sections_of(const struct et_file_kind *k);

/* render_where.c: plugin output by place (lib/mix_where.c) */
void et_text_where_diff(const struct et_mix *base, const struct et_mix *test,
			const char *const *names, size_t nr_names, int insn_rows, FILE *out);
void et_json_where_diff(const struct et_mix *base, const struct et_mix *test,
			const char *const *names, size_t nr_names, FILE *out);
void et_text_where(const struct et_mix *m, const char *const *names, size_t nr_names, int rows,
		   FILE *out);

#endif /* _ET_LOCAL_H */
