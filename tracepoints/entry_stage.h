/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entry_stage trace events: one event per syscall entry/exit stage and a
 * compact per-syscall summary.  The stage list is include/linux/entry_stage_defs.h;
 * see include/linux/entry_stage.h for where the stamps are taken.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM entry_stage

#if !defined(_TRACE_ENTRY_STAGE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_ENTRY_STAGE_H

#include <linux/tracepoint.h>
#include <linux/entry_stage.h>

DECLARE_EVENT_CLASS(entry_stage_class,
		    TP_PROTO(u32 seq, int nr, u16 stage, u32 work, u32 count,
			     u64 start, u64 delta, long ret),
		    TP_ARGS(seq, nr, stage, work, count, start, delta, ret),
		    TP_STRUCT__entry(__field(u32, seq)
				     __field(int, nr)
				     __field(u16, stage)
				     __field(u32, work)
				     __field(u32, count)
				     __field(u64, start)
				     __field(u64, delta)
				     __field(long, ret)),
		    TP_fast_assign(__entry->seq = seq;
				   __entry->nr = nr;
				   __entry->stage = stage;
				   __entry->work = work;
				   __entry->count = count;
				   __entry->start = start;
				   __entry->delta = delta;
				   __entry->ret = ret;),
		    TP_printk("seq=%u nr=%d stage=%u work=0x%x count=%u start=%llu delta=%llu ret=%ld",
			      __entry->seq, __entry->nr, __entry->stage, __entry->work,
			      __entry->count, __entry->start, __entry->delta, __entry->ret)
);

/*
 * One event per stage.  checkpatch flags this X-macro (SYM unused, trailing
 * semicolon): the event name is the list's second field, and a trace
 * header's DEFINE_EVENT_FN() declarations need their semicolon.
 */
#define ENTRY_STAGE(SYM, name, ...)						\
	DEFINE_EVENT_FN(entry_stage_class, name,				\
		TP_PROTO(u32 seq, int nr, u16 stage, u32 work, u32 count,	\
			 u64 start, u64 delta, long ret),			\
		TP_ARGS(seq, nr, stage, work, count, start, delta, ret),	\
		entry_stage_reg, entry_stage_unreg);
#include <linux/entry_stage_defs.h>

/*
 * The summary's delta array is ENTRY_STAGE_NR long: tell user space the
 * value.  Its print format gives the element size (u32) as a literal 4:
 * libtraceevent 1.7 cannot parse sizeof() there.
 */
TRACE_DEFINE_ENUM(ENTRY_STAGE_NR);

/* One event per syscall with all its stage times. */
TRACE_EVENT_FN(summary,
	       TP_PROTO(const struct entry_stage_task *es, const u32 *delta,
			u32 rcu_unlock_slow, u32 tail_seq),
	       TP_ARGS(es, delta, rcu_unlock_slow, tail_seq),
	       TP_STRUCT__entry(__field(u32, seq)
				__field(int, nr)
				__field(u32, work)
				__field(long, ret)
				__field(u64, start)
				__field(u32, rcu_unlock_slow)
				__field(u32, tail_seq)
				__array(u32, delta, ENTRY_STAGE_NR)),
	       TP_fast_assign(__entry->seq = es->seq;
			      __entry->nr = es->nr;
			      __entry->work = es->work;
			      __entry->ret = es->ret;
			      __entry->start = es->entry_start;
			      __entry->rcu_unlock_slow = rcu_unlock_slow;
			      __entry->tail_seq = tail_seq;
			      memcpy(__entry->delta, delta, sizeof(__entry->delta));),
	       TP_printk("seq=%u nr=%d work=0x%x ret=%ld start=%llu rcu_unlock_slow=%u tail_seq=%u delta=%s",
			 __entry->seq, __entry->nr, __entry->work, __entry->ret,
			 __entry->start, __entry->rcu_unlock_slow, __entry->tail_seq,
			 __print_array(__entry->delta, ENTRY_STAGE_NR, 4)),
	       entry_stage_reg, entry_stage_unreg
);

#endif /* _TRACE_ENTRY_STAGE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
