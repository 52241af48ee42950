/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The timeline's own tier: the per-task state machine's data, shared by
 * its files, each of which calls only the ones above it in this list:
 *
 *   timeline-task.c     the tasks by pid, and their names
 *   overlay.c           time switched out or interrupted inside a syscall
 *   timeline-syscall.c  a syscall's life: begin, cur to pend, checks, emit
 *   timeline-stock.c    a stock kernel: raw_syscalls, context tracking,
 *                       signal delivery, rseq
 *   timeline-stage.c    an entrytrace kernel: entry_stage_time and
 *                       entry_stage_summary events, the stamps'
 *                       calibration
 *   timeline-batch.c    an entrytrace kernel's packed batches: a task's
 *                       records in the order its syscalls ran
 *   timeline-hist.c     an entrytrace kernel's aggregated cells
 *   timeline.c          the events in: dispatch, lost events,
 *                       fork/exit/exec, the timeline's life
 *
 * A lower file reaches a mode only through the timeline's mode ops
 * (struct tl_mode, one per recording mode, chosen by timeline.c): the
 * timeline is one core, and what a stock kernel's events, an entrytrace
 * kernel's stamps and its summaries do differently is a row there.
 * Nothing here is seen outside the timeline.
 */
#ifndef _ET_TIMELINE_LOCAL_H
#define _ET_TIMELINE_LOCAL_H

#include "entrytrace-local.h"

#define ET_HOLD_MAX 1024
#define ET_MAX_OVERLAYS ET_SC_MAX_OVERLAYS	/* interrupt/off-CPU intervals */
#define ET_EMIT_RING 256	/* a task's recent stage-event times */
#define ET_SPAN_RING 16		/* a task's off-CPU/irq intervals not yet placed */
#define ET_ARGS_RING 4		/* a task's argument events not yet placed */

/*
 * Stage mode (ABI 3): a syscall's events come in one burst at its end, so
 * while the task is switched out or interrupted nothing says yet whether
 * it was inside a syscall.  The intervals wait here, on the trace clock,
 * and go to the syscall whose stamps hold them when it is final.
 */
struct et_span {
	uint64_t start, end;
	uint8_t stage;		/* ET_SLOT_OFF_CPU or ET_SLOT_IRQ */
};

/* What happened inside a syscall, kept until it is emitted. */
struct et_slot_log {
	uint16_t nov;
	bool dropped;
	uint64_t ov_start[ET_MAX_OVERLAYS];
	uint64_t ov_end[ET_MAX_OVERLAYS];
	uint8_t ov_stage[ET_MAX_OVERLAYS];
};

#define CUR(t) (&(t)->sc[(t)->ci])
#define PEND(t) (&(t)->sc[(t)->ci ^ 1])

struct et_task {
	int pid;
	bool has_cur;
	bool has_pend;
	bool pend_returned;	/* stock + ct: user_enter seen after pend */
	bool seen_syscall;	/* a syscall of this task was seen */
	bool emitted;		/* ...and handed to the sink: counted */
	bool created;		/* fork/clone seen inside the trace */
	bool comm_known;
	bool comm_tentative;	/* comm came from the saved cmdlines */
	bool user_exit_valid;	/* stock + ct: kernel entered, no sys_enter yet */
	bool off_cpu;		/* switched out inside a syscall */
	bool off_in_pend;	/* ...inside pend's exit path */
	bool spans_lost;	/* stage mode: spans[] overflowed */
	bool have_return;	/* last_return is valid */
	bool pid_reused;	/* the next syscall is a reused pid's first */
	bool seq_gap;		/* the next syscall follows lost ones */
	int tgid;		/* thread group, -1 unknown */
	uint32_t gen;		/* bumped per syscall, for overlays */
	uint32_t off_gen;
	uint32_t last_seq;	/* stage modes: seq of last_return */
	uint64_t user_exit_ts;
	uint64_t last_event;	/* trace clock of this task's last event */
	uint64_t off_ts;
	uint64_t last_return;	/* stock: trace clock; stage modes: kernel clock */
	char comm[ET_COMM_LEN];
	struct et_syscall sc[2];	/* cur is sc[ci], pend the other */
	struct et_slot_log log[2];	/* ...and what happened inside them */
	int ci;
	/*
	 * When the task's entry_stage events were written (trace clock).  An
	 * event costs the syscall running when it is written, which for the
	 * previous syscall's deferred stages is not the one it describes.
	 */
	uint64_t emits[ET_EMIT_RING];
	unsigned int emit_next, emit_count;
	struct et_span spans[ET_SPAN_RING];	/* oldest first */
	unsigned int nr_spans;
	/*
	 * Stage modes: the argument shapes of syscalls:sys_enter_<name>
	 * events (trace clock), until the syscall they fall inside is handed
	 * on; nr -1: free or used.  args_floor: where the task's last
	 * syscall handed on ended; an argument event after it and before a
	 * syscall's end is that syscall's (a task has one syscall at a time).
	 */
	struct {
		uint64_t ts;
		int nr;
		uint32_t shape;
	} args[ET_ARGS_RING];
	unsigned int args_next;
	uint64_t args_floor;
	struct et_syscall *held;	/* emitted while comm_tentative */
	size_t nr_held, cap_held;
	/*
	 * Packed batches (timeline-batch.c): the sequence number of the
	 * task's last record handed on (0 before its first), and its records
	 * waiting for an earlier one, by sequence number.
	 */
	bool batch_seen;
	uint32_t batch_seq;
	struct tl_batch_rec *batch_q;
	uint32_t nr_batch_q, cap_batch_q;
};

struct et_cpu {
	int depth;		/* irq nesting */
	int pid;		/* task the outermost irq interrupted */
	uint32_t gen;
	bool in_syscall;
	uint64_t start;
	/* the last stage event on this CPU, for the per-event cost */
	int last_pid;
	bool last_burst;	/* NOINSTR or DEFERRED: emitted in a burst */
	uint64_t last_ts;
	struct et_task *task;	/* the task of the CPU's last event: a lookup cache */
};

struct et_timeline;

/*
 * A recording mode (et_mode) as the timeline core sees it.  Stock: a
 * syscall is paired from raw_syscalls and overlaid as events come.
 * Stages: the kernel's stamps, in one burst at the syscall's end, switch
 * and interrupt intervals placed by them.  Summary: one event per syscall,
 * its stages' sums, no stamp times.
 */
struct tl_mode {
	/*
	 * the kernel stamped it: numbers are checked against its table,
	 * argument events are placed by the stamps, and a paired syscall can
	 * still get stages (deferred ones) until the next one's burst
	 */
	bool stamped;
	/* switches and interrupts wait as spans for the stamps that hold them */
	bool spans;
	/* no stamp times: the last stamp is placed from t0 and the stages */
	bool stampless;
	/* the last word on a syscall before it is emitted; NULL: none */
	void (*finalize)(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc);
	/*
	 * the syscall a task is inside for overlay purposes, or NULL; a mode
	 * without spans only (a span mode's intervals wait for its stamps)
	 */
	struct et_syscall *(*in_kernel)(struct et_timeline *tl, struct et_task *t);
	/* a syscall still open: at the end of the trace, is its end cut off
	 * (ET_SC_OPEN_END)?  when its pid is reused, was its exit lost? */
	bool (*open_end)(const struct et_timeline *tl, const struct et_syscall *sc);
	bool (*no_exit)(const struct et_timeline *tl, const struct et_syscall *sc);
	/* the time between the stamps no stage covers; false: not known */
	bool (*untimed)(struct et_timeline *tl, const struct et_syscall *sc, uint64_t *out);
};

extern const struct tl_mode tl_mode_stock, tl_mode_stages, tl_mode_summary;

struct et_timeline {
	const struct et_trace *trace;
	const struct tl_mode *ops;	/* the recording's mode */
	bool have_ct;
	bool batched;		/* entry_stage_batch: records come after their task's events */
	et_syscall_fn sink;
	void *data;

	struct et_task **slots;	/* open addressing by pid */
	size_t nr_slots;
	size_t nr_tasks;
	struct et_task *last;	/* the previous lookup: events come in runs */

	struct et_cpu *cpus;
	int nr_cpus;
	uint64_t last_gap;	/* start of the latest lost-events gap */
	int64_t clock_offset;	/* trace clock - kernel clock, smallest seen */
	bool have_offset;
	bool offset_fixed;	/* a "local" trace: the stamps' own clock */
	struct et_hist cost;	/* back-to-back stage event gaps */
	uint64_t cost_median;	/* its median, refreshed now and then */

	struct et_shapes shapes;	/* the syscalls with argument shapes */
	long nr_exit, nr_exit_group;
	long nr_clone, nr_clone3, nr_fork, nr_vfork;
	uint64_t deferred_mask;	/* stage ids of kind DEFERRED */
	uint64_t entry_mask;	/* kernel stages of phase ENTRY */
	uint64_t exit_mask;	/* kernel stages of phase EXIT, not deferred */
	uint64_t kids[ET_SLOT_NR];	/* per stage: its descendants */
	/*
	 * What a syscall's times can be (et_sc_plausible()), worked out once
	 * from the trace's span at the timeline's start: on, no time before
	 * lo or after hi, no stage longer than span, no kernel stage of inner
	 * longer than the syscall's total.
	 */
	struct tl_bounds {
		bool on;
		uint64_t lo, hi, span, inner;
		int nr_max;	/* stage modes: the syscall table's size (0: not known) */
	} bounds;

	/* the kernel's stamp calibration (entry_stage_calib, summaries) */
	bool raw_stamps;
	double stamp_ns, agg_ns;
	uint32_t sample;	/* 1-in-N: seq steps of N are not losses */

	struct et_timeline_counts counts;
	struct tl_hist_pend *hist;	/* timeline-hist.c: a cell's stages until its span */

	/*
	 * Packed batches (timeline-batch.c): when each CPU last wrote one,
	 * the earliest and the latest of them, and the tasks with records
	 * waiting.
	 */
	uint64_t *batch_at;
	uint64_t batch_min, batch_now;
	struct et_task **batch_wait;
	size_t nr_batch_wait, cap_batch_wait;
};

/* Stage modes: a task's syscall sequence numbers, compared across their wrap. */
static inline int32_t seq_cmp(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

static inline bool is_noreturn(const struct et_timeline *tl, long nr)
{
	return nr >= 0 && (nr == tl->nr_exit || nr == tl->nr_exit_group);
}

static inline bool is_fork(const struct et_timeline *tl, long nr)
{
	return nr >= 0 && (nr == tl->nr_clone || nr == tl->nr_clone3 ||
			   nr == tl->nr_fork || nr == tl->nr_vfork);
}

/* timeline-task.c */
/* the task table twice as large (the first: 1024 slots) */
bool tl_tasks_grow(struct et_timeline *tl);
struct et_task *tl_task_find(struct et_timeline *tl, int pid);
struct et_task *tl_task_get(struct et_timeline *tl, int pid);
/* An event names the task: what it was called up to now, and from now on. */
void tl_task_name(struct et_timeline *tl, struct et_task *t, const char *before,
		  const char *now);
/* the task's name, the first time a syscall takes it (tl_sc_begin()) */
const char *tl_task_comm_slow(struct et_timeline *tl, struct et_task *t);
/* a task's held syscalls to the sink */
void tl_flush_held(struct et_timeline *tl, struct et_task *t);

/* timeline-syscall.c */
struct tl_bounds tl_bounds_of(const struct et_trace_info *in);
void tl_sc_begin(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_emit(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc);
void tl_flush_pend(struct et_timeline *tl, struct et_task *t);
void tl_cur_to_pend(struct et_timeline *tl, struct et_task *t);
void tl_task_reset(struct et_timeline *tl, struct et_task *t);
void tl_close_cur(struct et_timeline *tl, struct et_task *t,
		  bool (*lost)(const struct et_timeline *tl, const struct et_syscall *sc),
		  uint32_t flag);

/* timeline-stock.c */
void tl_stock_enter(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_stock_exit(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_stock_user_exit(struct et_task *t, const struct et_event *ev);
void tl_stock_user_enter(struct et_task *t, const struct et_event *ev);
void tl_stock_signal(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_stock_rseq(struct et_task *t);

/* timeline-stage.c */
void tl_stage_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_summary_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_args_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
void tl_stage_calib(struct et_timeline *tl, const struct et_event *ev);

/* timeline-batch.c */
/* a record of a packed batch (summary.batch): to tl_summary_event() in its task's order */
void tl_batch_event(struct et_timeline *tl, struct et_task *t, const struct et_event *ev);
/* @t's waiting records, every one, now (before its exit or a new task takes its pid) */
void tl_batch_flush(struct et_timeline *tl, struct et_task *t);
/* the end of the trace: every waiting record */
void tl_batch_finish(struct et_timeline *tl);
/* free @t's queue, or with @t NULL the timeline's own */
void tl_batch_free(struct et_timeline *tl, struct et_task *t);

/* timeline-hist.c: aggregated cells to the sink as ET_SC_CELL records */
void tl_hist_event(struct et_timeline *tl, const struct et_event *ev);
void tl_hist_finish(struct et_timeline *tl);
void tl_hist_free(struct et_timeline *tl);

/* overlay.c */
struct et_syscall *tl_no_kernel(struct et_timeline *tl, struct et_task *t);
void tl_settle(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc);
void tl_on_switch(struct et_timeline *tl, const struct et_event *ev);
void tl_on_irq(struct et_timeline *tl, const struct et_event *ev);
/* Stage mode: the off-CPU and irq intervals inside the syscall's stamps. */
void tl_spans_place(struct et_timeline *tl, struct et_task *t, struct et_syscall *sc);

#endif /* _ET_TIMELINE_LOCAL_H */
