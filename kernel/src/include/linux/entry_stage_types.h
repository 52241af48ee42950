/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ENTRY_STAGE_TYPES_H
#define _LINUX_ENTRY_STAGE_TYPES_H

#include <linux/types.h>

/* Stage ids: positions in include/linux/entry_stage_defs.h. */
enum entry_stage_id {
#define ENTRY_STAGE(SYM, ...) ENTRY_STAGE_##SYM,
#include <linux/entry_stage_defs.h>
	ENTRY_STAGE_NR,
	ENTRY_STAGE_NONE = 0xff,
};

/* Path signature bits: which optional work ran for a syscall. */
enum entry_stage_work_bit {
#define ENTRY_STAGE_WORK(SYM, ...) ENTRY_STAGE_WORK_##SYM,
#include <linux/entry_stage_defs.h>
	ENTRY_STAGE_WORK_NR
};

enum entry_stage_kind {
	ENTRY_STAGE_KIND_TIMED,
	ENTRY_STAGE_KIND_NOINSTR,
	ENTRY_STAGE_KIND_DEFERRED,
	ENTRY_STAGE_KIND_AGG,
};

/*
 * A stamp site, as recorded in the non-allocated .entry_stage_sites section
 * of vmlinux for tools (one 16-byte entry per site: address of the site's
 * static branch, stage, edge, second stage, flags).  Nothing in the kernel
 * reads the section.
 */
#define ENTRY_STAGE_EDGE_BEGIN		0	/* the stage begins */
#define ENTRY_STAGE_EDGE_END		1	/* the stage ends */
#define ENTRY_STAGE_EDGE_SWITCH		2	/* it ends and stage2 begins */

#define ENTRY_STAGE_SITE_SYSCALL_BEGIN	0x01	/* begins a staged syscall */
#define ENTRY_STAGE_SITE_SYSCALL_END	0x02	/* ends it */
#define ENTRY_STAGE_SITE_SHARED		0x04	/* also runs outside syscalls */
#define ENTRY_STAGE_SITE_AGG		0x08	/* may run many times */
#define ENTRY_STAGE_SITE_TAIL		0x10	/* in the arch exit tail: its begin, its stages */
#define ENTRY_STAGE_SITE_RESUME		0x20	/* stage2 goes on: its time is kept */
#define ENTRY_STAGE_SITE_MARK		0x40	/* zero-width: no branch (a plain copy's marker, a staged copy's stamp) */

/* Stamp sources (entry_stage:entry_stage_calib's source). */
#define ENTRY_STAGE_SOURCE_COUNTER	0	/* TSC, timebase: ns */
#define ENTRY_STAGE_SOURCE_PMU		1	/* cycles and instructions */

/* entry_stage_task::flags */
#define ENTRY_STAGE_TAIL		0x1	/* in the arch exit tail */
#define ENTRY_STAGE_RESTART		0x2	/* in a redone exit */
#define ENTRY_STAGE_TAIL_VALID		0x4	/* tail_* holds a syscall */

/**
 * struct entry_stage_task - per-task scratch of the stage stamps
 * @ts:		raw counter at each stage's begin (ts[0][id]) and end
 *		(ts[1][id]); for AGG stages the begin of the last occurrence
 *		and the sum over occurrences.  Two arrays, not a pair per
 *		stage: a loop over the stages that ran indexes both, and the
 *		aggregation's sums, with one scale (x86_64: an addressing mode)
 * @count:	AGG stages: occurrences in this syscall
 * @ran:	stages that ended since the last burst (bit = stage id): this
 *		syscall's, and the DEFERRED ones of syscall @tail_seq
 * @entry:	counter when the staged syscall began
 * @tail_ref:	counter at the burst of syscall @tail_seq: its DEFERRED
 *		stages were stamped after it
 * @start_ns:	trace_clock_local() time of the first stamp (burst)
 * @seq:	syscall sequence number, counting every syscall of the task
 *		while staging is on (sampled or not): moved on by @period at
 *		each sampled one, as the unsampled ones pass no site
 * @work:	path signature bits set by the stamps of syscall @seq
 * @nr:		syscall number as the entry work left it (-1: skipped)
 * @ret:	return value, once the body returned
 * @tail_seq:	the syscall the DEFERRED stages in @ts belong to, with its
 *		@tail_work, @tail_nr and @tail_ret (and @tail_span, its span,
 *		while entry_stage_hist is on; 0 otherwise)
 * @period:	what task_struct::entry_stage_countdown restarted from at
 *		the last sampled syscall: the syscalls @seq moves on by at the
 *		next one
 * @epoch:	entry_stage_epoch when syscall @seq began, @tail_epoch when
 *		syscall @tail_seq did
 * @flags:	ENTRY_STAGE_TAIL, _RESTART, _TAIL_VALID
 * @armed:	the staging session the task is armed in (when staging goes
 *		on, for every task or entry_stage.pid's, and at fork):
 *		armed while it is entry_stage_session
 *
 * Allocated for a task when staging goes on (or at its fork while it is
 * on) and kept until the task is freed, as the function graph tracer keeps
 * its return stacks: staging's end disarms it.  task_struct::entry_stage
 * points here for as long.  task_struct::entry_stage_cur points here while
 * the task is inside a sampled syscall and is NULL otherwise: that is the
 * one test every stamp in shared code makes.  The staged copy of a path
 * (series v4) writes through task_struct::entry_stage without a test.
 */
struct entry_stage_task {
	u64	ts[2][ENTRY_STAGE_NR];
	u32	count[ENTRY_STAGE_NR];
	u64	ran;
	u64	entry;
	u64	tail_ref;
	u64	start_ns;
	u32	seq;
	u32	work;
	int	nr;
	long	ret;
	u32	tail_seq;
	u32	tail_work;
	int	tail_nr;
	long	tail_ret;
	u32	period;
	u32	epoch;
	u32	tail_epoch;
	u32	tail_span;	/* entry_stage_hist: syscall @tail_seq's span */
	u32	flags;
	u32	armed;
	u64	migrations;	/* PMU stamps: se.nr_migrations at entry */
};

/* What entry_stage:entry_stage_calib reports (see kernel/entry/stage.c). */
struct entry_stage_calib {
	u32	source;
	u64	counter_hz;
	u32	cost_min;
	u32	cost_median;
	u32	agg_cost_median;
	u32	insn_cost_min;
	u32	insn_cost_median;
	u32	scratch;
	u32	failed;
};

/*
 * Aggregation (entry_stage:entry_stage_hist): the total's times over the
 * staged syscalls of one (syscall, path signature) on one CPU, or a
 * stage's count, sum and @agg (an AGG stage's occurrences) only.  Times
 * as the summary's: ticks, or cycles with the PMU source.  @sumsq
 * saturates at U64_MAX.
 */
struct entry_stage_moments {
	u64	count;
	u64	sum;
	u64	sumsq;
	u64	agg;
	u32	min;
	u32	max;
};

/*
 * The span's log-linear histogram: values below 2 << BITS have a bucket
 * each, above them every power of two has 1 << BITS buckets, up to 2^32.
 */
#define ENTRY_STAGE_HIST_BITS		5
#define ENTRY_STAGE_HIST_BUCKETS	((33 - ENTRY_STAGE_HIST_BITS) << ENTRY_STAGE_HIST_BITS)

/*
 * A CPU's batch of packed records (entry_stage:entry_stage_batch; the words
 * of a record are ENTRY_STAGE_BATCH_* in entry_stage_defs.h).  A batch's
 * records are in burst order: each burst is the batch's first plus the
 * 32-bit difference, which a batch never outgrows (it is written before it
 * spans 2^31 ticks).  A record's most words: the header, its three
 * extras, two per stage; a batch's words: one event of under 4000 bytes,
 * within a ring-buffer page.
 */
#define ENTRY_STAGE_BATCH_RECORD_MAX	(ENTRY_STAGE_BATCH_HDR + 3 + 2 * ENTRY_STAGE_NR)
#define ENTRY_STAGE_BATCH_WORDS		960

#endif /* _LINUX_ENTRY_STAGE_TYPES_H */
