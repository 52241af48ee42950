/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entry_stage trace events: the stages of one syscall's entry/exit path.
 * The stage list is include/linux/entry_stage_defs.h; see
 * include/linux/entry_stage.h for how the stamps are taken.
 *
 * The events of a syscall are written in one burst at its last
 * instrumentable point (the emit stage), outside every other stage.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM entry_stage

#if !defined(_TRACE_ENTRY_STAGE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_ENTRY_STAGE_H

#include <linux/tracepoint.h>
#include <linux/entry_stage_stamp.h>
#include <linux/entry_stage_names.h>

/* The summary's arrays are ENTRY_STAGE_NR long: tell user space the value. */
TRACE_DEFINE_ENUM(ENTRY_STAGE_NR);

/*
 * Times are in ticks of the stamp counter, whose frequency in kHz the
 * events carry (khz); with the PMU stamp source (khz 0) they count cycles,
 * and insns instructions.  start is trace_clock_local() time in ns, the
 * trace's default clock (with the PMU source: the time of the burst that
 * wrote the event, as cycles do not convert to it).
 */

/*
 * One event per stage that ran (per-stage mode).  DEFERRED stages come in
 * the burst of the task's next staged syscall and carry the seq of their
 * own syscall.  count: occurrences of an AGG stage; sample and stamp_cost
 * as in entry_stage_summary.
 */
TRACE_EVENT_FN(entry_stage_time,
	       TP_PROTO(u32 seq, int nr, u16 stage, u32 work, u32 count,
			u64 start, u64 delta, long ret),
	       TP_ARGS(seq, nr, stage, work, count, start, delta, ret),
	       TP_STRUCT__entry(__field(u32, seq)
				__field(int, nr)
				__field(u16, stage)
				__field(u32, work)
				__field(u32, count)
				__field(u32, khz)
				__field(u32, sample)
				__field(u32, stamp_cost)
				__field(u64, start)
				__field(u64, delta)
				__field(u64, insns)
				__field(long, ret)),
	       TP_fast_assign(__entry->seq = seq;
			      __entry->nr = nr;
			      __entry->stage = stage;
			      __entry->work = work;
			      __entry->count = count;
			      __entry->khz = entry_stage_khz;
			      __entry->sample = READ_ONCE(entry_stage_sample);
			      __entry->stamp_cost = entry_stage_calib.cost_median;
			      __entry->start = start;
			      __entry->delta = IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) ?
					       (u32)delta : delta;
			      __entry->insns = IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) ?
					       delta >> 32 : 0;
			      __entry->ret = ret;),
	       TP_printk("seq=%u nr=%d stage=%s work=0x%x count=%u khz=%u sample=%u stamp_cost=%u start=%llu delta=%llu insns=%llu ret=%ld",
			 __entry->seq, __entry->nr,
			 entry_stage_show_stage(__entry->stage),
			 __entry->work, __entry->count, __entry->khz,
			 __entry->sample, __entry->stamp_cost,
			 __entry->start, __entry->delta, __entry->insns,
			 __entry->ret),
	       entry_stage_reg, entry_stage_unreg
);

/*
 * One event per syscall with all its stage times (compact mode).  delta
 * (and insns) are indexed by stage id, 0 for a stage that did not run;
 * their DEFERRED slots belong to syscall tail_seq (0: none).  sample is
 * the 1-in-N sampling in effect, stamp_cost the calibrated cost of one
 * stamp in thousandths of a tick, which every stage time includes about
 * once.  span is the syscall's first stamp to its burst, in ticks (cycles
 * with the PMU source): its top-level stages before emit tile it, so what
 * it holds beyond their sum is code no stage covers (and about one stamp).
 * The print format gives the u32 element size as a literal 4:
 * libtraceevent 1.7 cannot parse sizeof() there.
 */
TRACE_EVENT_FN(entry_stage_summary,
	       TP_PROTO(const struct entry_stage_task *es, u64 mask,
			u32 tail_seq, u32 rcu_unlock_slow, u32 span),
	       TP_ARGS(es, mask, tail_seq, rcu_unlock_slow, span),
	       TP_STRUCT__entry(__field(u32, seq)
				__field(int, nr)
				__field(u32, work)
				__field(long, ret)
				__field(u64, start)
				__field(u32, tail_seq)
				__field(u32, rcu_unlock_slow)
				__field(u32, sample)
				__field(u32, khz)
				__field(u32, stamp_cost)
				__field(u32, span)
				__array(u32, delta, ENTRY_STAGE_NR)
				__dynamic_array(u32, insns,
						IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) ?
						ENTRY_STAGE_NR : 0)),
	       TP_fast_assign(__entry->seq = es->seq;
			      __entry->nr = es->nr;
			      __entry->work = es->work;
			      __entry->ret = es->ret;
			      __entry->start = es->start_ns;
			      __entry->tail_seq = tail_seq;
			      __entry->rcu_unlock_slow = rcu_unlock_slow;
			      __entry->sample = READ_ONCE(entry_stage_sample);
			      __entry->khz = entry_stage_khz;
			      __entry->stamp_cost = entry_stage_calib.cost_median;
			      __entry->span = span;
			      entry_stage_fill(__entry->delta,
					       IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) ?
					       __get_dynamic_array(insns) : NULL,
					       es, mask);),
	       TP_printk("seq=%u nr=%d work=0x%x ret=%ld start=%llu tail_seq=%u rcu_unlock_slow=%u sample=%u khz=%u stamp_cost=%u span=%u insns=%s delta=%s",
			 __entry->seq, __entry->nr, __entry->work, __entry->ret,
			 __entry->start, __entry->tail_seq,
			 __entry->rcu_unlock_slow, __entry->sample, __entry->khz,
			 __entry->stamp_cost, __entry->span,
			 __print_array(__get_dynamic_array(insns),
				       __get_dynamic_array_len(insns) / 4, 4),
			 __print_array(__entry->delta, ENTRY_STAGE_NR, 4)),
	       entry_stage_reg, entry_stage_unreg
);

/*
 * The stamp source and its calibration, at most once a second on each CPU
 * while staging is on (in the burst of a staged syscall).  source:
 * 0 the free-running counter (TSC, timebase) of counter_hz, 1 the PMU
 * (cycles and instructions).  The costs are in thousandths of a tick (of
 * a cycle; of an instruction for the insn ones): the minimum and the
 * median of back-to-back stamps, and the median of an AGG stage's
 * begin/end pair.  scratch is the number of tasks that have stamp
 * scratch, failed the number for which it could not be allocated (those
 * tasks are not staged).
 */
TRACE_EVENT_FN(entry_stage_calib,
	       TP_PROTO(const struct entry_stage_calib *c, u32 epoch),
	       TP_ARGS(c, epoch),
	       TP_STRUCT__entry(__field(u32, abi)
				__field(u32, source)
				__field(u64, counter_hz)
				__field(u32, sample)
				__field(u32, epoch)
				__field(u32, cost_min)
				__field(u32, cost_median)
				__field(u32, agg_cost_median)
				__field(u32, insn_cost_min)
				__field(u32, insn_cost_median)
				__field(u32, scratch)
				__field(u32, failed)),
	       TP_fast_assign(__entry->abi = ENTRY_STAGE_ABI;
			      __entry->source = c->source;
			      __entry->counter_hz = c->counter_hz;
			      __entry->sample = READ_ONCE(entry_stage_sample);
			      __entry->epoch = epoch;
			      __entry->cost_min = c->cost_min;
			      __entry->cost_median = c->cost_median;
			      __entry->agg_cost_median = c->agg_cost_median;
			      __entry->insn_cost_min = c->insn_cost_min;
			      __entry->insn_cost_median = c->insn_cost_median;
			      __entry->scratch = c->scratch;
			      __entry->failed = c->failed;),
	       TP_printk("abi=%u source=%u counter_hz=%llu sample=%u epoch=%u cost_min=%u cost_median=%u agg_cost_median=%u insn_cost_min=%u insn_cost_median=%u scratch=%u failed=%u",
			 __entry->abi, __entry->source, __entry->counter_hz,
			 __entry->sample, __entry->epoch, __entry->cost_min,
			 __entry->cost_median, __entry->agg_cost_median,
			 __entry->insn_cost_min, __entry->insn_cost_median,
			 __entry->scratch, __entry->failed),
	       entry_stage_reg, entry_stage_unreg
);

/*
 * Aggregation: one cell of a CPU's tables, written when
 * entry_stage.hist_flush is written, in the writer's context; nothing is
 * written per syscall while it alone is enabled.  A cell is one stage
 * (stage < stages, the kernel's ENTRY_STAGE_NR) or the total (stage ==
 * stages, the last of a cell: the span and the top-level DEFERRED stages
 * after it but emit) of the staged syscalls nr with path signature work that ran
 * on cpu since the last flush.  A stage's cell has their count and sum
 * and, for an AGG stage, agg its occurrences (no spread: sumsq, min and
 * max are 0).  The total's cell has count, sum, sum of squares (U64_MAX:
 * saturated), min and max, and its log-linear histogram (bits sub-buckets
 * per power of two, see ENTRY_STAGE_HIST_BITS), buckets lo onwards; it
 * counts only the syscalls whose tail came (not a task's last): a count
 * of 0 has no buckets, min U32_MAX and max 0.  dropped
 * counts the staged syscalls that found their CPU's table full, since
 * staging began.
 */
TRACE_EVENT_FN(entry_stage_hist,
	       TP_PROTO(int cpu, int nr, u32 work, u32 stage,
			const struct entry_stage_moments *m, const u32 *buckets,
			u32 lo, u32 n, u32 dropped),
	       TP_ARGS(cpu, nr, work, stage, m, buckets, lo, n, dropped),
	       TP_STRUCT__entry(__field(u32, abi)
				__field(u32, cpu)
				__field(int, nr)
				__field(u32, work)
				__field(u32, stage)
				__field(u32, stages)
				__field(u32, sample)
				__field(u32, khz)
				__field(u32, stamp_cost)
				__field(u32, agg_cost)
				__field(u32, dropped)
				__field(u64, count)
				__field(u64, sum)
				__field(u64, sumsq)
				__field(u64, agg)
				__field(u32, min)
				__field(u32, max)
				__field(u32, bits)
				__field(u32, lo)
				__dynamic_array(u32, buckets, n)),
	       TP_fast_assign(__entry->abi = ENTRY_STAGE_ABI;
			      __entry->cpu = cpu;
			      __entry->nr = nr;
			      __entry->work = work;
			      __entry->stage = stage;
			      __entry->stages = ENTRY_STAGE_NR;
			      __entry->sample = READ_ONCE(entry_stage_sample);
			      __entry->khz = entry_stage_khz;
			      __entry->stamp_cost = entry_stage_calib.cost_median;
			      __entry->agg_cost = entry_stage_calib.agg_cost_median;
			      __entry->dropped = dropped;
			      __entry->count = m->count;
			      __entry->sum = m->sum;
			      __entry->sumsq = m->sumsq;
			      __entry->agg = m->agg;
			      __entry->min = m->min;
			      __entry->max = m->max;
			      __entry->bits = ENTRY_STAGE_HIST_BITS;
			      __entry->lo = lo;
			      memcpy(__get_dynamic_array(buckets), buckets, n * sizeof(u32));),
	       TP_printk("cpu=%u nr=%d work=0x%x stage=%u stages=%u count=%llu sum=%llu sumsq=%llu agg=%llu min=%u max=%u sample=%u khz=%u stamp_cost=%u agg_cost=%u dropped=%u bits=%u lo=%u buckets=%s",
			 __entry->cpu, __entry->nr, __entry->work, __entry->stage,
			 __entry->stages, __entry->count, __entry->sum, __entry->sumsq,
			 __entry->agg, __entry->min, __entry->max, __entry->sample, __entry->khz,
			 __entry->stamp_cost, __entry->agg_cost, __entry->dropped,
			 __entry->bits, __entry->lo,
			 __print_array(__get_dynamic_array(buckets),
				       __get_dynamic_array_len(buckets) / 4, 4)),
	       entry_stage_hist_reg, entry_stage_hist_unreg
);

/*
 * Packed compact mode: while this event is enabled the burst appends each
 * staged syscall to its CPU's batch as a packed record (the stages that
 * ran, an id and a delta in a word each: see ENTRY_STAGE_BATCH_HDR in
 * include/linux/entry_stage_defs.h), and the batch is written as one
 * event when the next record might not fit, when it is a second old or
 * near 2^31 ticks old (at the next append), on a timer for an idle CPU,
 * when the CPU goes offline, when entry_stage.batch_flush is written and
 * when the event is disabled.  seq counts the batches of cpu from 1, so a
 * missing one shows; records and words say what it holds; first is the
 * counter at its first record's burst, now and now_ns the counter and
 * trace_clock_local() read side by side when it was written: a record's
 * burst is at now_ns - (now - first - (burst - (u32)first)) ticks.
 */
TRACE_EVENT_FN(entry_stage_batch,
	       TP_PROTO(int cpu, u32 seq, u32 records, u64 first, u64 now, u64 now_ns,
			const u32 *words, u32 n),
	       TP_ARGS(cpu, seq, records, first, now, now_ns, words, n),
	       TP_STRUCT__entry(__field(u32, abi)
				__field(u32, cpu)
				__field(u32, seq)
				__field(u32, records)
				__field(u32, stages)
				__field(u32, sample)
				__field(u32, khz)
				__field(u32, stamp_cost)
				__field(u64, first)
				__field(u64, now)
				__field(u64, now_ns)
				__dynamic_array(u32, words, n)),
	       TP_fast_assign(__entry->abi = ENTRY_STAGE_ABI;
			      __entry->cpu = cpu;
			      __entry->seq = seq;
			      __entry->records = records;
			      __entry->stages = ENTRY_STAGE_NR;
			      __entry->sample = READ_ONCE(entry_stage_sample);
			      __entry->khz = entry_stage_khz;
			      __entry->stamp_cost = entry_stage_calib.cost_median;
			      __entry->first = first;
			      __entry->now = now;
			      __entry->now_ns = now_ns;
			      memcpy(__get_dynamic_array(words), words, n * sizeof(u32));),
	       TP_printk("cpu=%u seq=%u records=%u stages=%u sample=%u khz=%u stamp_cost=%u first=%llu now=%llu now_ns=%llu words=%u",
			 __entry->cpu, __entry->seq, __entry->records, __entry->stages,
			 __entry->sample, __entry->khz, __entry->stamp_cost,
			 __entry->first, __entry->now, __entry->now_ns,
			 __get_dynamic_array_len(words) / 4),
	       entry_stage_batch_reg, entry_stage_batch_unreg
);

#endif /* _TRACE_ENTRY_STAGE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
