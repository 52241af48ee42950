// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall entry/exit stage stamps and their trace events.
 *
 * See include/linux/entry_stage_stamp.h (the stamps) and entry_stage.h (the
 * staged syscall).  The stamps themselves are inline in the entry code;
 * this file switches them on and off (the static key, the
 * per-task scratch, the stamp cost calibration) and turns the stamps of a
 * syscall into events, in one burst at its last instrumentable point.
 */
#include <linux/clocksource.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/entry_stage_stamp.h>
#include <linux/entry_stage_names.h>
#include <linux/jiffies.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/smp.h>
#include <linux/trace_clock.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#define CREATE_TRACE_POINTS
#include <trace/events/entry_stage.h>

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "entry_stage."

DEFINE_STATIC_KEY_FALSE(entry_stage_key);

/*
 * The calibration's own key: a branch of the same shape as a site's, on
 * while the stamps are measured, before entry_stage_key goes on.
 */
static DEFINE_STATIC_KEY_FALSE(entry_stage_cal_key);

/*
 * Bumped each time staging is switched on, so that a syscall begun in an
 * earlier period is not mistaken for one of this period.
 */
unsigned int entry_stage_epoch;

/*
 * entry_stage.pid: arm only the threads of this thread group (0, the
 * default: every task).  Read when staging is switched on: the group's
 * threads then get scratch, no other task does, and a task forked while
 * staging is on gets scratch if its parent has some (as the trace's
 * set_event_pid with event-fork follows a command and what it forks).  A
 * task without scratch is never staged; at a selection point in assembly
 * (x86's entry_SYSCALL_64) it costs one load and a test.
 */
static unsigned int entry_stage_pid;
module_param_named(pid, entry_stage_pid, uint, 0644);
MODULE_PARM_DESC(pid, "arm only this thread group's tasks, and what they fork, when staging goes on (0: every task)");

/* The pid staging was switched on with. */
static unsigned int entry_stage_armed_pid;

/* Stage one syscall in N of each task (entry_stage.sample). */
unsigned int entry_stage_sample = 1;

/* What a task's countdown restarts from: the sample, or 1 in windows. */
unsigned int entry_stage_every = 1;

/*
 * entry_stage.window: sample in time, as KFENCE does, instead of counting
 * syscalls.  The sites are armed for one window of this many ms in every
 * entry_stage.sample windows, and every syscall that begins in an armed
 * window is staged; in between every site is a NOP again, so that a
 * syscall there runs what it runs with every event off.  Read when
 * staging is switched on; 0 (the default), or a sample of 1, arms the
 * sites for as long as staging is on.
 */
static unsigned int entry_stage_window_ms;
module_param_named(window, entry_stage_window_ms, uint, 0644);
MODULE_PARM_DESC(window, "ms: arm the stamp sites one window in every entry_stage.sample (0: always)");

/* This staging period's window in jiffies (0: none). */
static unsigned long entry_stage_window_j;

static void entry_stage_window_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(entry_stage_window_work, entry_stage_window_fn);

static int entry_stage_sample_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (!n)
		return -EINVAL;
	WRITE_ONCE(entry_stage_sample, n);
	if (!entry_stage_window_j)
		WRITE_ONCE(entry_stage_every, n);
	return 0;
}

static const struct kernel_param_ops entry_stage_sample_ops = {
	.set = entry_stage_sample_set,
	.get = param_get_uint,
};
module_param_cb(sample, &entry_stage_sample_ops, &entry_stage_sample, 0644);
MODULE_PARM_DESC(sample, "stage one syscall in N of each task (N >= 1)");

static_assert(ENTRY_STAGE_NR <= 64);	/* the masks of stage ids are u64 */
#define entry_stage_deferred_mask	ENTRY_STAGE_DEFERRED_MASK
#define entry_stage_agg_mask		ENTRY_STAGE_AGG_MASK
#define ENTRY_STAGE_ALL_MASK	(BIT_ULL(ENTRY_STAGE_NR) - 1)

/* The path signature bit a stage sets when it runs. */
static const u32 entry_stage_work_of[ENTRY_STAGE_NR] = {
	[ENTRY_STAGE_ENTER_AUDIT]	= BIT(ENTRY_STAGE_WORK_AUDIT),
	[ENTRY_STAGE_EXIT_AUDIT]	= BIT(ENTRY_STAGE_WORK_AUDIT),
	[ENTRY_STAGE_SECCOMP]		= BIT(ENTRY_STAGE_WORK_SECCOMP),
	[ENTRY_STAGE_ENTER_PTRACE]	= BIT(ENTRY_STAGE_WORK_PTRACE),
	[ENTRY_STAGE_EXIT_PTRACE]	= BIT(ENTRY_STAGE_WORK_PTRACE),
	[ENTRY_STAGE_ENTER_TRACEPOINT]	= BIT(ENTRY_STAGE_WORK_TRACEPOINT),
	[ENTRY_STAGE_EXIT_TRACEPOINT]	= BIT(ENTRY_STAGE_WORK_TRACEPOINT),
	[ENTRY_STAGE_USER_DISPATCH]	= BIT(ENTRY_STAGE_WORK_USER_DISPATCH),
	[ENTRY_STAGE_RSEQ_SLICE]	= BIT(ENTRY_STAGE_WORK_RSEQ_SLICE),
	[ENTRY_STAGE_RESCHED]		= BIT(ENTRY_STAGE_WORK_RESCHED),
	[ENTRY_STAGE_SIGNAL]		= BIT(ENTRY_STAGE_WORK_SIGNAL),
	[ENTRY_STAGE_NOTIFY_RESUME]	= BIT(ENTRY_STAGE_WORK_NOTIFY_RESUME),
	[ENTRY_STAGE_UPROBE]		= BIT(ENTRY_STAGE_WORK_UPROBE),
	[ENTRY_STAGE_KLP]		= BIT(ENTRY_STAGE_WORK_KLP),
};

/*
 * The lowest stage id in a mask: __ffs64() is an out-of-line call at -Os,
 * and the burst's loops take one per stage.
 */
static __always_inline unsigned long entry_stage_ffs(u64 mask)
{
	if (BITS_PER_LONG == 64)
		return __ffs((unsigned long)mask);
	return __ffs64(mask);
}

/* Counter ticks to ns (the PMU source reports its own units). */
static u32 entry_stage_mult, entry_stage_shift;
struct entry_stage_calib entry_stage_calib;
unsigned int entry_stage_khz;	/* 0: the PMU source */
static DEFINE_PER_CPU(unsigned int, entry_stage_calib_epoch);
static DEFINE_PER_CPU(unsigned long, entry_stage_calib_next);	/* jiffies */

/*
 * Tasks armed, tasks holding scratch (armed or not: it is kept until the
 * task is freed), and tasks for which it could not be allocated.
 */
static atomic_t entry_stage_scratch, entry_stage_kept, entry_stage_failed;

/*
 * The staging session a task is armed in (entry_stage_task::armed):
 * numbered from 1 at each start, 0 while staging is off, so that its end
 * disarms every task at once, a task that exited and is not yet freed
 * too.
 */
unsigned int entry_stage_session;
static unsigned int entry_stage_sessions;

/* Registered entry_stage events (serialized by tracepoints_mutex). */
static unsigned int entry_stage_users;

/* While set, fork gives new tasks their scratch. */
static bool entry_stage_alloc;

/* A read-only parameter that shows an atomic_t count. */
static int entry_stage_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops entry_stage_count_ops = {
	.get = entry_stage_count_get,
};

/* entry_stage.scratch: tasks armed now (0 while staging is off) */
module_param_cb(scratch, &entry_stage_count_ops, &entry_stage_scratch, 0444);
MODULE_PARM_DESC(scratch, "tasks armed, holding stamp scratch (read-only)");

/* entry_stage.scratch_kept: tasks holding scratch, armed or not */
module_param_cb(scratch_kept, &entry_stage_count_ops, &entry_stage_kept, 0444);
MODULE_PARM_DESC(scratch_kept, "tasks holding stamp scratch, armed or kept since staging went off (read-only)");

/*
 * PMU stamps read the counters of the CPU they run on, as perf keeps
 * them: a sampled syscall that moved to another CPU, or under which perf
 * restarted the counters (a counting event's overflow: the cycles since
 * its entry look negative), is dropped, and counted here.
 */
static atomic_t entry_stage_pmu_dropped;
module_param_cb(pmu_dropped, &entry_stage_count_ops, &entry_stage_pmu_dropped, 0444);
MODULE_PARM_DESC(pmu_dropped, "PMU stamps: sampled syscalls dropped, moved CPU or counters restarted (read-only)");

static bool entry_stage_pmu_drop(const struct entry_stage_task *es,
				 const struct task_struct *t, u64 now)
{
	if (!IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return false;
	if (likely((!IS_ENABLED(CONFIG_SMP) || t->se.nr_migrations == es->migrations) &&
		   (u32)now - (u32)es->entry < BIT(31)))
		return false;
	atomic_inc(&entry_stage_pmu_dropped);
	return true;
}

/* Stages that set a path signature bit (entry_stage_work_of[]). */
#define ENTRY_STAGE_WORK_MASK						\
	(BIT_ULL(ENTRY_STAGE_ENTER_AUDIT) | BIT_ULL(ENTRY_STAGE_EXIT_AUDIT) |	\
	 BIT_ULL(ENTRY_STAGE_SECCOMP) | BIT_ULL(ENTRY_STAGE_ENTER_PTRACE) |	\
	 BIT_ULL(ENTRY_STAGE_EXIT_PTRACE) | BIT_ULL(ENTRY_STAGE_ENTER_TRACEPOINT) | \
	 BIT_ULL(ENTRY_STAGE_EXIT_TRACEPOINT) | BIT_ULL(ENTRY_STAGE_USER_DISPATCH) | \
	 BIT_ULL(ENTRY_STAGE_RSEQ_SLICE) | BIT_ULL(ENTRY_STAGE_RESCHED) |	\
	 BIT_ULL(ENTRY_STAGE_SIGNAL) | BIT_ULL(ENTRY_STAGE_NOTIFY_RESUME) |	\
	 BIT_ULL(ENTRY_STAGE_UPROBE) | BIT_ULL(ENTRY_STAGE_KLP))

#ifdef CONFIG_ENTRY_STAGE_PMU
/*
 * The PMU source: perf owns the counters throughout, sets the PMU up as
 * for any event and gives other users what is left.
 */
static DEFINE_PER_CPU(struct perf_event *, entry_stage_pmu_ev[2]);

static void entry_stage_pmu_stop(void)
{
	struct perf_event **ev;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		ev = *per_cpu_ptr(&entry_stage_pmu_ev, cpu);
		for (i = 0; i < 2; i++) {
			if (!IS_ERR_OR_NULL(ev[i]))
				perf_event_release_kernel(ev[i]);
			ev[i] = NULL;
		}
	}
}

static int entry_stage_pmu_open(int cpu, int i)
{
	const struct entry_stage_pmu_counter *c = &arch_entry_stage_pmu[i];
	struct perf_event_attr attr = {
		.type	= c->type,
		.config	= c->config,
		.size	= sizeof(attr),
		.pinned	= 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	(*per_cpu_ptr(&entry_stage_pmu_ev, cpu))[i] = ev;
	if (IS_ERR(ev)) {
		pr_warn("entry_stage: PMU stamps: perf cannot count %s on CPU %d (%ld); not staging\n",
			c->name, cpu, PTR_ERR(ev));
		return PTR_ERR(ev);
	}
	if (ev->state != PERF_EVENT_STATE_ACTIVE || ev->hw.idx != c->idx) {
		pr_warn("entry_stage: PMU stamps: perf did not put %s on %s of CPU %d (counter %d); not staging\n",
			c->name, c->where, cpu, ev->hw.idx);
		return -EBUSY;
	}
	return 0;
}

static int entry_stage_pmu_start(void)
{
	int cpu, i, ret = arch_entry_stage_pmu_usable();

	if (ret)
		return ret;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		for (i = 0; i < 2 && !ret; i++)
			ret = entry_stage_pmu_open(cpu, i);
		if (ret)
			break;
	}
	cpus_read_unlock();
	if (ret)
		entry_stage_pmu_stop();
	return ret;
}
#else
static int entry_stage_pmu_start(void)
{
	return -ENODEV;
}

static void entry_stage_pmu_stop(void)
{
}
#endif

static __always_inline u64 entry_stage_ns(u64 ticks)
{
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return ticks;
	return mul_u64_u32_shr(ticks, entry_stage_mult, entry_stage_shift);
}

/*
 * When a stamp taken at @then was on the trace clock, from the clock and
 * the counter read side by side (@now_ns, @now).  PMU stamps count cycles
 * of no known frequency: they are all placed at @now_ns.
 */
static __always_inline u64 entry_stage_on_clock(u64 now_ns, u64 now, u64 then)
{
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return now_ns;
	return now_ns - entry_stage_ns(now - then);
}

/*
 * The stamps of stage @id as a delta: counter ticks, or with the PMU
 * source cycles (low word) and instructions (high word), each 32-bit.
 * AGG stages hold their sum already.
 */
static __always_inline u64 entry_stage_delta(const struct entry_stage_task *es,
					     int id)
{
	u64 b = es->ts[0][id], e = es->ts[1][id];

	if (entry_stage_agg_mask & BIT_ULL(id))
		return e;
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return (u64)(u32)((e >> 32) - (b >> 32)) << 32 | (u32)((u32)e - (u32)b);
	return e - b;
}

/*
 * The staged syscall's span, from its first stamp to the burst's: ticks, or
 * cycles with the PMU source (32-bit, as the stage deltas).
 */
static __always_inline u32 entry_stage_span(u64 first, u64 burst)
{
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return (u32)burst - (u32)first;
	return min_t(u64, burst - first, U32_MAX);
}

/*
 * Stage @id's ticks as the summary and a batch's escaped record hold
 * them: 32 bits, a longer stage saturates.  @agg: an AGG stage, whose end
 * slot holds its sum (the callers walk AGG stages apart, so that @agg is a
 * constant).
 */
static __always_inline u32 entry_stage_ticks32(const struct entry_stage_task *es,
					       int id, bool agg)
{
	return min_t(u64, agg ? es->ts[1][id] : es->ts[1][id] - es->ts[0][id], U32_MAX);
}

/* Zero a summary array: 8 bytes at a time (it is u64-aligned). */
static __always_inline void entry_stage_zero(u32 *a)
{
	memset64((u64 *)a, 0, ENTRY_STAGE_NR / 2);
	if (ENTRY_STAGE_NR & 1)
		a[ENTRY_STAGE_NR - 1] = 0;
}

/* The summary's arrays: ticks (or cycles) and instructions per stage. */
void entry_stage_fill(u32 *delta, u32 *insns, const struct entry_stage_task *es,
		      u64 mask)
{
	u64 m;
	int id;

	entry_stage_zero(delta);
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU)) {
		entry_stage_zero(insns);
		for (; mask; mask &= mask - 1) {
			u64 d = entry_stage_delta(es, id = entry_stage_ffs(mask));

			delta[id] = d;
			insns[id] = d >> 32;
		}
		return;
	}
	for (m = mask & ~entry_stage_agg_mask; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		delta[id] = entry_stage_ticks32(es, id, false);
	}
	for (m = mask & entry_stage_agg_mask; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		delta[id] = entry_stage_ticks32(es, id, true);
	}
}

static struct entry_stage_task *entry_stage_alloc_one(void)
{
	struct entry_stage_task *es = kzalloc(sizeof(*es), GFP_KERNEL);

	if (!es)
		atomic_inc(&entry_stage_failed);
	return es;
}

/*
 * Arm @t with @es, new or the task's own kept since staging last went
 * off: emptied (a syscall of the task still inside a staged copy, begun
 * before staging went off, may write it until it returns: the epoch drops
 * what it leaves), and its next syscall is sampled.
 */
static void entry_stage_arm_task(struct task_struct *t, struct entry_stage_task *es)
{
	bool kept = READ_ONCE(t->entry_stage) == es;

	memset(es, 0, sizeof(*es));
	es->period = 1;
	WRITE_ONCE(es->armed, entry_stage_session);
	if (!kept) {
		WRITE_ONCE(t->entry_stage, es);
		atomic_inc(&entry_stage_kept);
	}
	WRITE_ONCE(t->entry_stage_countdown, 1);
	atomic_inc(&entry_stage_scratch);
}

static bool entry_stage_task_armed(struct task_struct *t)
{
	struct entry_stage_task *es = READ_ONCE(t->entry_stage);

	return es && entry_stage_armed(es);
}

void entry_stage_fork(struct task_struct *p)
{
	struct entry_stage_task *es;

	p->entry_stage_cur = NULL;
	p->entry_stage = NULL;
	p->entry_stage_countdown = 0;
	if (!READ_ONCE(entry_stage_alloc))
		return;
	/* entry_stage.pid: an armed task's child (current forks @p) */
	if (READ_ONCE(entry_stage_armed_pid) && !entry_stage_task_armed(current))
		return;
	es = entry_stage_alloc_one();
	if (es)
		entry_stage_arm_task(p, es);
}

/* A task's scratch, freed with the task (free_task()). */
void entry_stage_free(struct task_struct *p)
{
	struct entry_stage_task *es = xchg(&p->entry_stage, NULL);

	if (!es)
		return;
	if (entry_stage_armed(es))
		atomic_dec_if_positive(&entry_stage_scratch);
	atomic_dec(&entry_stage_kept);
	kfree(es);
}

/* Give every task its scratch (as ftrace's graph tracer does its stacks). */
static int entry_stage_alloc_tasks(void)
{
	struct task_struct *g, *t;
	struct entry_stage_task **batch;
	unsigned int n = 64, i, used, missing;
	int ret = 0;

	batch = kcalloc(n, sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	WRITE_ONCE(entry_stage_alloc, true);
	do {
		for (i = 0; i < n; i++) {
			batch[i] = entry_stage_alloc_one();
			if (!batch[i]) {
				ret = -ENOMEM;
				break;
			}
		}
		n = i;
		used = 0;
		missing = 0;
		rcu_read_lock();
		for_each_process_thread(g, t) {
			if (entry_stage_task_armed(t))
				continue;
			if (entry_stage_armed_pid &&
			    task_tgid_nr(t) != entry_stage_armed_pid)
				continue;
			/*
			 * entry_stage_key is still off: no task is between
			 * the load and the store of its countdown's decrement
			 */
			if (t->entry_stage) {
				entry_stage_arm_task(t, t->entry_stage);
				continue;
			}
			if (used == n) {
				missing++;
				continue;
			}
			entry_stage_arm_task(t, batch[used++]);
		}
		rcu_read_unlock();
		for (i = used; i < n; i++)
			kfree(batch[i]);
	} while (missing && !ret);
	kfree(batch);
	return ret;
}

/*
 * Staging is off (the key is off, fork gives no scratch): disarm every
 * task.  Its scratch stays with it until it is freed: a task inside the
 * staged copy of a path (series v4), blocked in its syscall's body, writes
 * it without a test when it goes on.  A task may have been half-way
 * through a stamp in shared code when the key went off, preempted between
 * reading its entry_stage_cur and storing through it; the stamp then ends
 * before the task's next voluntary context switch or return to user mode,
 * which is what an RCU Tasks grace period waits for.  Without preemption a
 * stamp runs to its end, so a pass of every CPU through the scheduler is
 * enough.  After that entry_stage_cur is cleared, so that no task comes
 * back to a syscall staged before.
 */
static void entry_stage_nop_work(struct work_struct *work)
{
}

static void entry_stage_free_tasks(void)
{
	struct task_struct *g, *t;

	if (IS_ENABLED(CONFIG_TASKS_RCU))
		synchronize_rcu_tasks();
	else
		schedule_on_each_cpu(entry_stage_nop_work);
	WRITE_ONCE(entry_stage_session, 0);
	atomic_set(&entry_stage_scratch, 0);
	rcu_read_lock();
	for_each_process_thread(g, t)
		WRITE_ONCE(t->entry_stage_cur, NULL);
	rcu_read_unlock();
}

static int entry_stage_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * One stamp of calibration: an end stamp's code (the most common kind)
 * without its site entry.
 */
#define ENTRY_STAGE_CAL(i)						\
	do {								\
		if (static_branch_unlikely(&entry_stage_cal_key))	\
			__entry_stage_stamp(i, ENTRY_STAGE_EDGE_END,	\
					    ENTRY_STAGE_NONE);		\
	} while (0)

/* An AGG stage's begin and end, as the body probes take them. */
static __always_inline void entry_stage_cal_agg_pair(void)
{
	if (static_branch_unlikely(&entry_stage_cal_key))
		__entry_stage_acc_begin(ENTRY_STAGE_LSM_TASK_KILL, true);
	if (static_branch_unlikely(&entry_stage_cal_key))
		__entry_stage_acc_end(ENTRY_STAGE_LSM_TASK_KILL, true);
}

#define ENTRY_STAGE_CAL_ROUNDS	16
#define ENTRY_STAGE_CAL_RUN	8

/* 9 back-to-back stamps into the end slots of stages 0..8. */
static noinline void entry_stage_cal_run(void)
{
	ENTRY_STAGE_CAL(0);
	ENTRY_STAGE_CAL(1);
	ENTRY_STAGE_CAL(2);
	ENTRY_STAGE_CAL(3);
	ENTRY_STAGE_CAL(4);
	ENTRY_STAGE_CAL(5);
	ENTRY_STAGE_CAL(6);
	ENTRY_STAGE_CAL(7);
	ENTRY_STAGE_CAL(8);
}

/* A stamp, 8 AGG begin/end pairs, a stamp (end slots of stages 0 and 1). */
static noinline void entry_stage_cal_agg(void)
{
	ENTRY_STAGE_CAL(0);
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	entry_stage_cal_agg_pair();
	ENTRY_STAGE_CAL(1);
}

/*
 * Thousandths of a tick (of a cycle with the PMU source) and of an
 * instruction that the span from @b to @e costs per each of @n stamps.
 */
static void entry_stage_cal_span(u64 b, u64 e, unsigned int n, u32 *cost,
				 u32 *insn)
{
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU)) {
		*cost = div_u64(((u32)e - (u32)b) * 1000ULL, n);
		*insn = div_u64(((u32)(e >> 32) - (u32)(b >> 32)) * 1000ULL, n);
	} else {
		*cost = min_t(u64, div_u64((e - b) * 1000, n), U32_MAX);
		*insn = 0;
	}
}

/*
 * Measure what a stamp costs: the time between back-to-back stamps (the
 * mean of a run of 8), over 16 runs with interrupts off, on a scratch of
 * its own, before any site is on, so that the first event already carries
 * the cost.  Every stage time includes about one stamp, from the counter
 * read that begins it to the one that ends it; a parent stage also
 * includes two for each child, and the body one AGG pair per AGG stage
 * occurrence (agg_cost_median, the pair's cost over a stamp's).
 */
static void entry_stage_calibrate(void)
{
	struct entry_stage_task *es = entry_stage_alloc_one(), *cur;
	u32 cost[ENTRY_STAGE_CAL_ROUNDS], insn[ENTRY_STAGE_CAL_ROUNDS];
	u32 agg[ENTRY_STAGE_CAL_ROUNDS], a, ai;
	struct entry_stage_calib *c = &entry_stage_calib;
	unsigned long flags;
	int r;

	if (!es)
		return;
	static_branch_enable(&entry_stage_cal_key);
	local_irq_save(flags);
	cur = current->entry_stage_cur;
	WRITE_ONCE(current->entry_stage_cur, es);
	for (r = 0; r < ENTRY_STAGE_CAL_ROUNDS; r++) {
		entry_stage_cal_run();
		entry_stage_cal_span(es->ts[1][0], es->ts[1][ENTRY_STAGE_CAL_RUN],
				     ENTRY_STAGE_CAL_RUN, &cost[r], &insn[r]);
	}
	es->ts[0][ENTRY_STAGE_SYSCALL] = 1;	/* inside the body */
	for (r = 0; r < ENTRY_STAGE_CAL_ROUNDS; r++) {
		entry_stage_cal_agg();
		entry_stage_cal_span(es->ts[1][0], es->ts[1][1], 8, &a, &ai);
		agg[r] = a;
	}
	WRITE_ONCE(current->entry_stage_cur, cur);
	local_irq_restore(flags);
	static_branch_disable(&entry_stage_cal_key);
	kfree(es);

	sort(cost, ENTRY_STAGE_CAL_ROUNDS, sizeof(u32), entry_stage_cmp_u32, NULL);
	sort(insn, ENTRY_STAGE_CAL_ROUNDS, sizeof(u32), entry_stage_cmp_u32, NULL);
	sort(agg, ENTRY_STAGE_CAL_ROUNDS, sizeof(u32), entry_stage_cmp_u32, NULL);
	c->cost_min = cost[0];
	c->cost_median = cost[ENTRY_STAGE_CAL_ROUNDS / 2];
	c->insn_cost_min = insn[0];
	c->insn_cost_median = insn[ENTRY_STAGE_CAL_ROUNDS / 2];
	/* each pair ran between two stamps: 8 pairs and one stamp */
	a = agg[ENTRY_STAGE_CAL_ROUNDS / 2];
	c->agg_cost_median = a > c->cost_median / 8 ? a - c->cost_median / 8 : 0;
}

/* Arm the sites: a syscall begun before this is not one of this period. */
static void entry_stage_arm(void)
{
	WRITE_ONCE(entry_stage_epoch, entry_stage_epoch + 1);
	static_branch_enable(&entry_stage_key);
}

/* The end of a window, or of the time between two. */
static void entry_stage_window_fn(struct work_struct *work)
{
	unsigned long next = entry_stage_window_j;

	if (static_key_enabled(&entry_stage_key)) {
		static_branch_disable(&entry_stage_key);
		next *= max(READ_ONCE(entry_stage_sample), 2U) - 1;
	} else {
		entry_stage_arm();
	}
	schedule_delayed_work(&entry_stage_window_work, next);
}

static int entry_stage_start(void)
{
	struct entry_stage_calib *c = &entry_stage_calib;
	u64 hz = arch_entry_stage_counter_hz();
	int ret;

	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU)) {
		ret = entry_stage_pmu_start();
		if (ret)
			return ret;
		c->source = ENTRY_STAGE_SOURCE_PMU;
	} else {
		if (hz < 1000) {
			pr_warn("entry_stage: the stamp counter's frequency is unknown (%llu Hz)\n",
				hz);
			return -ENODEV;
		}
		entry_stage_khz = div_u64(hz, 1000);
		clocks_calc_mult_shift(&entry_stage_mult, &entry_stage_shift,
				       entry_stage_khz, NSEC_PER_MSEC, 0);
		c->source = ENTRY_STAGE_SOURCE_COUNTER;
	}
	c->counter_hz = hz;
	WRITE_ONCE(entry_stage_armed_pid, READ_ONCE(entry_stage_pid));
	WRITE_ONCE(entry_stage_session, ++entry_stage_sessions ?: ++entry_stage_sessions);
	ret = entry_stage_alloc_tasks();
	if (ret)
		pr_warn("entry_stage: no stamp scratch for some tasks (%d): they are not staged\n",
			ret);
	entry_stage_calibrate();
	entry_stage_window_j = 0;
	if (READ_ONCE(entry_stage_sample) > 1 && READ_ONCE(entry_stage_window_ms))
		entry_stage_window_j = max(msecs_to_jiffies(READ_ONCE(entry_stage_window_ms)), 1UL);
	WRITE_ONCE(entry_stage_every,
		   entry_stage_window_j ? 1 : READ_ONCE(entry_stage_sample));
	entry_stage_arm();
	if (entry_stage_window_j)
		schedule_delayed_work(&entry_stage_window_work, entry_stage_window_j);
	return 0;
}

int entry_stage_reg(void)
{
	int ret;

	if (!entry_stage_users) {
		ret = entry_stage_start();
		if (ret)
			return ret;
	}
	entry_stage_users++;
	return 0;
}

void entry_stage_unreg(void)
{
	if (--entry_stage_users)
		return;
	WRITE_ONCE(entry_stage_alloc, false);
	cancel_delayed_work_sync(&entry_stage_window_work);
	static_branch_disable(&entry_stage_key);
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		entry_stage_pmu_stop();
	entry_stage_free_tasks();
}

/*
 * Aggregation (entry_stage:entry_stage_hist).  While the event is enabled
 * the burst adds each staged syscall to its CPU's table: per (syscall,
 * path signature) a cell with every stage's count and sum, and for the
 * total its moments and log-linear histogram.  A stage's spread is not
 * kept (sampled compact mode gives stage distributions): the burst adds
 * to a sum per stage that ran, and to a count per stage only when the
 * syscall's stages are not its cell's usual ones (path, npath).  The
 * total is the span and the top-level DEFERRED stages after it, so it is
 * added with those, at the task's next staged burst; a syscall whose
 * tail never comes (the task's last) has stages but no total.  Nothing
 * goes to the ring buffer per syscall.  Writing entry_stage.hist_flush
 * writes every non-empty cell as one entry_stage_hist event per stage and
 * one for the total, in the writer's context, and empties the tables.  A
 * staged syscall that finds its CPU's table full is counted in
 * entry_stage.hist_dropped.
 */
struct entry_stage_hist_slot {
	u64				key;	/* 0: free */
	u64				sum[ENTRY_STAGE_NR];
	u64				agg[ENTRY_STAGE_NR];	/* AGG: occurrences */
	u32				count[ENTRY_STAGE_NR];	/* and npath[] */
	u64				path[2];	/* tails', others' */
	u32				npath[2];
	struct entry_stage_moments	total;
	u32				span[ENTRY_STAGE_HIST_BUCKETS];	/* the total's */
};

/*
 * The top-level DEFERRED stages but emit, the tracer's own: a total's part
 * after the burst.
 */
#define entry_stage_tail_top_mask					\
	(ENTRY_STAGE_DEFERRED_MASK & ENTRY_STAGE_TOP_MASK & ~BIT_ULL(ENTRY_STAGE_EMIT))

/* entry_stage.hist_slots: cells per CPU table (a power of two up to 32768), at enable. */
static unsigned int entry_stage_hist_slots = 64;
module_param_named(hist_slots, entry_stage_hist_slots, uint, 0644);
MODULE_PARM_DESC(hist_slots, "entry_stage_hist: (syscall, path) cells per CPU, a power of two up to 32768, read when enabled");

static atomic_t entry_stage_hist_dropped;
module_param_cb(hist_dropped, &entry_stage_count_ops, &entry_stage_hist_dropped, 0444);
MODULE_PARM_DESC(hist_dropped, "entry_stage_hist: staged syscalls not aggregated, their CPU's table full (read-only)");

/* Serializes the tables' allocation, flushes and freeing. */
static DEFINE_MUTEX(entry_stage_hist_lock);
static unsigned int entry_stage_hist_nslots;	/* in effect: tables exist */
static DEFINE_PER_CPU(struct entry_stage_hist_slot *, entry_stage_hist_tab);

/*
 * After a CPU's table, its direct index: for syscall numbers below
 * ENTRY_STAGE_HIST_MAP, 1 + the slot the last lookup of that number
 * found, so that a syscall finds its cell with one compare of the key (a
 * stale entry, after a flush or for another path signature, fails it and
 * the lookup hashes).
 */
#define ENTRY_STAGE_HIST_MAP		1024
#define ENTRY_STAGE_HIST_MAX_SLOTS	32768	/* a u16 index */

static size_t entry_stage_hist_size(unsigned int n)
{
	return size_add(array_size(n, sizeof(struct entry_stage_hist_slot)),
			ENTRY_STAGE_HIST_MAP * sizeof(u16));
}

static __always_inline u32 entry_stage_hist_index(u32 v)
{
	const u32 sub = 1U << ENTRY_STAGE_HIST_BITS;
	int shift;

	if (v < 2 * sub)
		return v;
	shift = fls(v) - 1 - ENTRY_STAGE_HIST_BITS;
	return (shift + 1) * sub + (v >> shift) - sub;
}

/* A cell's key: never 0, which marks a free slot. */
static __always_inline u64 entry_stage_hist_key(int nr, u32 work)
{
	return (u64)(work + 1) << 32 | (u32)nr;
}

/* The cell of (@nr, @work) in its hash chain: found, or taken; NULL when full. */
static noinline struct entry_stage_hist_slot *
entry_stage_hist_hash(struct entry_stage_hist_slot *tab, u16 *map, int nr, u64 key)
{
	unsigned int mask = entry_stage_hist_nslots - 1;
	unsigned int i = hash_64(key, 32) & mask, n;
	struct entry_stage_hist_slot *s;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		s = &tab[i];
		if (s->key == key)
			goto found;
		if (!s->key) {
			s->key = key;
			s->total.min = U32_MAX;
			goto found;
		}
	}
	atomic_inc(&entry_stage_hist_dropped);
	return NULL;
found:
	if ((unsigned int)nr < ENTRY_STAGE_HIST_MAP)
		map[nr] = i + 1;
	return s;
}

/* The cell of (@nr, @work): by the direct index, else by the hash. */
static __always_inline struct entry_stage_hist_slot *
entry_stage_hist_slot(struct entry_stage_hist_slot *tab, int nr, u32 work)
{
	u16 *map = (u16 *)(tab + entry_stage_hist_nslots);
	u64 key = entry_stage_hist_key(nr, work);
	unsigned int i;

	if (likely((unsigned int)nr < ENTRY_STAGE_HIST_MAP)) {
		i = map[nr];
		if (likely(i && tab[i - 1].key == key))
			return &tab[i - 1];
	}
	return entry_stage_hist_hash(tab, map, nr, key);
}

static __always_inline void entry_stage_moment(struct entry_stage_moments *m, u32 v)
{
	u64 sq = (u64)v * v;

	m->count++;
	m->sum += v;
	m->sumsq = m->sumsq + sq >= sq ? m->sumsq + sq : U64_MAX;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
}

/*
 * A timed stage's time: ticks, or cycles (PMU).  Unclamped: a sum of
 * deltas is exact modulo 2^64, so a delta that went back (across CPUs)
 * takes off what it added.
 */
static __always_inline u64 entry_stage_hist_value(const struct entry_stage_task *es,
						  unsigned long id)
{
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return (u32)((u32)es->ts[1][id] - (u32)es->ts[0][id]);
	return es->ts[1][id] - es->ts[0][id];
}

/*
 * Add the stages in @mask to @s: a count and a sum each, an AGG stage's
 * sum as its occurrences' and their number.  A cell's syscalls mostly
 * run the same stages, so the counts are kept per path: the first set of
 * stages its syscalls ran (its tails for @k 0, the rest for @k 1) and how
 * many ran exactly that, added to each of its stages' counts when the
 * cell is written (entry_stage_hist_count()); a syscall that ran other
 * stages counts each.  On the usual path a stage is 9 or 10
 * instructions on x86_64 and 14 on powerpc at -Os (19 on powerpc with the
 * count), with the begin and end stamps each in an array of their own
 * (struct entry_stage_task's ts): one index scale for both and the sums.
 */
static __always_inline void entry_stage_hist_stages(struct entry_stage_hist_slot *s,
						    const struct entry_stage_task *es,
						    u64 mask, const int k)
{
	unsigned long id;
	u64 m = mask & ~entry_stage_agg_mask;
	bool other;

	if (unlikely(!s->path[k]))
		s->path[k] = mask;
	other = mask != s->path[k];
	if (likely(!other)) {
		s->npath[k]++;
		/* (do-while: -Os leaves a for loop's test at its top, a jump each stage) */
		if (m) {
			do {
				id = entry_stage_ffs(m);
				s->sum[id] += entry_stage_hist_value(es, id);
			} while (m &= m - 1);
		}
	} else if (m) {
		do {
			id = entry_stage_ffs(m);
			s->sum[id] += entry_stage_hist_value(es, id);
			s->count[id]++;
		} while (m &= m - 1);
	}
	for (m = mask & entry_stage_agg_mask; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		s->sum[id] += IS_ENABLED(CONFIG_ENTRY_STAGE_PMU) ? (u32)es->ts[1][id] :
			es->ts[1][id];
		s->count[id] += other;
		s->agg[id] += es->count[id];
	}
}

/* Stage @id's count in @s: its own and that of the paths that hold it. */
static u32 entry_stage_hist_count(const struct entry_stage_hist_slot *s, int id)
{
	u32 n = s->count[id];
	int k;

	for (k = 0; k < 2; k++)
		if (s->path[k] & BIT_ULL(id))
			n += s->npath[k];
	return n;
}

/* The total's part after the burst: the tail's top-level stages, as the summary's. */
static __always_inline u64 entry_stage_hist_top(const struct entry_stage_task *es, u64 tail)
{
	unsigned long id;
	u64 m, top = 0;

	for (m = tail & entry_stage_tail_top_mask; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		top += min_t(u64, entry_stage_hist_value(es, id), U32_MAX);
	}
	return top;
}

/*
 * The burst's aggregation: this syscall's stages in @ran, the DEFERRED
 * stages in @tail and the total in the cell of the syscall they belong
 * to (the same cell, in a loop of one syscall: found once).  The burst
 * runs with interrupts off, on the CPU whose table it adds to.
 */
static void entry_stage_hist_add(struct entry_stage_hist_slot *tab,
				 const struct entry_stage_task *es, u64 ran,
				 u64 tail)
{
	struct entry_stage_hist_slot *s = NULL;
	u32 total;

	lockdep_assert_irqs_disabled();
	if (tail) {
		s = entry_stage_hist_slot(tab, es->tail_nr, es->tail_work);
		if (s) {
			entry_stage_hist_stages(s, es, tail, 0);
			total = min_t(u64, es->tail_span + entry_stage_hist_top(es, tail), U32_MAX);
			if (es->tail_span) {
				entry_stage_moment(&s->total, total);
				s->span[entry_stage_hist_index(total)]++;
			}
		}
		if (es->tail_nr != es->nr || es->tail_work != es->work)
			s = NULL;
	}
	if (!s)
		s = entry_stage_hist_slot(tab, es->nr, es->work);
	if (s)
		entry_stage_hist_stages(s, es, ran, 1);
}

/* Move a table's cells to @buf and empty it. */
static void entry_stage_hist_move(struct entry_stage_hist_slot *buf,
				  struct entry_stage_hist_slot *tab)
{
	size_t size = entry_stage_hist_nslots * sizeof(*tab);

	memcpy(buf, tab, size);
	memset(tab, 0, size);
}

/* On the table's CPU, with interrupts off: no burst adds to it meanwhile. */
static void entry_stage_hist_take(void *buf)
{
	entry_stage_hist_move(buf, this_cpu_read(entry_stage_hist_tab));
}

static void entry_stage_hist_emit(int cpu, const struct entry_stage_hist_slot *s)
{
	u32 dropped = atomic_read(&entry_stage_hist_dropped);
	u32 work = (u32)(s->key >> 32) - 1, lo = 0, hi = 0, n = 0;
	int nr = (int)(u32)s->key, id;
	struct entry_stage_moments m = {};

	/* a stage's cell: count, sum and occurrences (no spread is kept) */
	for (id = 0; id < ENTRY_STAGE_NR; id++) {
		m.count = entry_stage_hist_count(s, id);
		if (!m.count)
			continue;
		m.sum = s->sum[id];
		m.agg = s->agg[id];
		trace_entry_stage_hist(cpu, nr, work, id, &m, s->span, 0, 0, dropped);
	}
	/* no buckets without a total: the tails of the cell's syscalls have not come */
	if (s->total.count) {
		while (!s->span[lo])
			lo++;
		for (hi = ENTRY_STAGE_HIST_BUCKETS - 1; !s->span[hi]; hi--)
			;
		n = hi - lo + 1;
	}
	trace_entry_stage_hist(cpu, nr, work, ENTRY_STAGE_NR, &s->total,
			       s->span + lo, lo, n, dropped);
}

static int entry_stage_hist_flush(const char *val, const struct kernel_param *kp)
{
	struct entry_stage_hist_slot *buf;
	unsigned int i;
	int cpu, ret = 0;

	mutex_lock(&entry_stage_hist_lock);
	if (!entry_stage_hist_nslots) {
		ret = -ENODEV;	/* entry_stage_hist is not enabled */
		goto out;
	}
	buf = vmalloc(array_size(entry_stage_hist_nslots, sizeof(*buf)));
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	for_each_possible_cpu(cpu) {
		if (!per_cpu(entry_stage_hist_tab, cpu))
			continue;
		/* an offline CPU stages nothing: its table is read in place */
		if (smp_call_function_single(cpu, entry_stage_hist_take, buf, 1))
			entry_stage_hist_move(buf, per_cpu(entry_stage_hist_tab, cpu));
		for (i = 0; i < entry_stage_hist_nslots; i++)
			if (buf[i].key)
				entry_stage_hist_emit(cpu, &buf[i]);
		cond_resched();
	}
	vfree(buf);
out:
	mutex_unlock(&entry_stage_hist_lock);
	return ret;
}

static const struct kernel_param_ops entry_stage_hist_flush_ops = {
	.set = entry_stage_hist_flush,
};
module_param_cb(hist_flush, &entry_stage_hist_flush_ops, NULL, 0200);
MODULE_PARM_DESC(hist_flush, "write: entry_stage_hist events for every cell, and empty the tables");

/* Tables unhooked from the burst, freed after a grace period. */
static DEFINE_PER_CPU(struct entry_stage_hist_slot *, entry_stage_hist_old);

static void entry_stage_hist_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(entry_stage_hist_old, cpu) = per_cpu(entry_stage_hist_tab, cpu);
		WRITE_ONCE(per_cpu(entry_stage_hist_tab, cpu), NULL);
	}
	/* a burst, interrupts off, may still hold a table */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		vfree(per_cpu(entry_stage_hist_old, cpu));
		per_cpu(entry_stage_hist_old, cpu) = NULL;
	}
	entry_stage_hist_nslots = 0;
}

int entry_stage_hist_reg(void)
{
	unsigned int n = READ_ONCE(entry_stage_hist_slots);
	int cpu, ret;

	if (!n || !is_power_of_2(n) || n > ENTRY_STAGE_HIST_MAX_SLOTS) {
		pr_warn("entry_stage: hist_slots=%u is not a power of two up to %u\n", n,
			ENTRY_STAGE_HIST_MAX_SLOTS);
		return -EINVAL;
	}
	mutex_lock(&entry_stage_hist_lock);
	entry_stage_hist_nslots = n;
	for_each_possible_cpu(cpu) {
		struct entry_stage_hist_slot *tab;

		tab = vzalloc_node(entry_stage_hist_size(n), cpu_to_node(cpu));
		if (!tab) {
			entry_stage_hist_free();
			mutex_unlock(&entry_stage_hist_lock);
			return -ENOMEM;
		}
		per_cpu(entry_stage_hist_tab, cpu) = tab;
	}
	mutex_unlock(&entry_stage_hist_lock);
	ret = entry_stage_reg();
	if (ret) {
		mutex_lock(&entry_stage_hist_lock);
		entry_stage_hist_free();
		mutex_unlock(&entry_stage_hist_lock);
	}
	return ret;
}

void entry_stage_hist_unreg(void)
{
	entry_stage_unreg();
	mutex_lock(&entry_stage_hist_lock);
	entry_stage_hist_free();
	mutex_unlock(&entry_stage_hist_lock);
}

/*
 * Packed compact mode (entry_stage:entry_stage_batch).  While the event is
 * enabled the burst appends each staged syscall to its CPU's batch, a
 * packed record of the stages that ran (include/linux/entry_stage_types.h
 * says the words), with IRQs off; a batch is written as one event when
 * the next record might not fit or the batch is old (at an append), by a
 * timer for a CPU that stopped staging, when its CPU goes offline, on
 * entry_stage.batch_flush and when the event is disabled.  The clock is
 * read once per batch, not per syscall.  Each CPU numbers its batches:
 * one the ring buffer could not take leaves a gap the analyzer counts.
 */
struct entry_stage_batch {
	u64		first;		/* the counter at the first record's burst */
	unsigned long	first_j;	/* jiffies then */
	u32		seq;		/* batches written on this CPU */
	u32		records;
	u32		n;		/* words used */
	u32		w[ENTRY_STAGE_BATCH_WORDS];
};

static DEFINE_PER_CPU(struct entry_stage_batch, entry_stage_batches);
static DEFINE_MUTEX(entry_stage_batch_lock);
static bool entry_stage_batch_on;
static void entry_stage_batch_timer_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(entry_stage_batch_timer, entry_stage_batch_timer_fn);

static void entry_stage_emit_calib(void);

/*
 * Write this CPU's batch, and the calibration with it, if it holds a
 * record.  IRQs off.
 */
static void entry_stage_batch_write(struct entry_stage_batch *b)
{
	u64 now_ns, now;

	if (!b->records)
		return;
	entry_stage_emit_calib();
	now_ns = trace_clock_local();
	now = arch_entry_stage_read();
	b->seq++;
	trace_entry_stage_batch(smp_processor_id(), b->seq, b->records, b->first,
				now, now_ns, b->w, b->n);
	b->records = 0;
	b->n = 0;
}

static void entry_stage_batch_write_here(void *unused)
{
	unsigned long flags;

	local_irq_save(flags);
	entry_stage_batch_write(this_cpu_ptr(&entry_stage_batches));
	local_irq_restore(flags);
}

/* Every online CPU's batch; an offline CPU wrote its own going down. */
static void entry_stage_batch_write_all(void)
{
	on_each_cpu(entry_stage_batch_write_here, NULL, 1);
}

/* A CPU that stopped staging keeps its batch no longer than a second or two. */
static void entry_stage_batch_timer_fn(struct work_struct *work)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		const struct entry_stage_batch *b = per_cpu_ptr(&entry_stage_batches, cpu);

		if (READ_ONCE(b->records) &&
		    time_after(jiffies, READ_ONCE(b->first_j) + HZ))
			smp_call_function_single(cpu, entry_stage_batch_write_here, NULL, 1);
	}
	cpus_read_unlock();
	schedule_delayed_work(&entry_stage_batch_timer, HZ);
}

static int entry_stage_batch_offline(unsigned int cpu)
{
	entry_stage_batch_write_here(NULL);
	return 0;
}

static int __init entry_stage_batch_init(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "entry_stage:batch",
					    NULL, entry_stage_batch_offline);

	return ret < 0 ? ret : 0;
}
late_initcall(entry_stage_batch_init);

static int entry_stage_batch_flush(const char *val, const struct kernel_param *kp)
{
	int ret = 0;

	mutex_lock(&entry_stage_batch_lock);
	if (entry_stage_batch_on)
		entry_stage_batch_write_all();
	else
		ret = -ENODEV;	/* entry_stage_batch is not enabled */
	mutex_unlock(&entry_stage_batch_lock);
	return ret;
}

static const struct kernel_param_ops entry_stage_batch_flush_ops = {
	.set = entry_stage_batch_flush,
};
module_param_cb(batch_flush, &entry_stage_batch_flush_ops, NULL, 0200);
MODULE_PARM_DESC(batch_flush, "write: every CPU's entry_stage_batch now");

/*
 * Records appended after the last batches were written at disable, while
 * the event was still hooked: left out when it is enabled again, counted.
 */
static atomic_t entry_stage_batch_discarded;
module_param_cb(batch_discarded, &entry_stage_count_ops, &entry_stage_batch_discarded, 0444);
MODULE_PARM_DESC(batch_discarded, "entry_stage_batch: records staged after the last batch was written at disable, left out (read-only)");

int entry_stage_batch_reg(void)
{
	int cpu, ret;

	/* the records hold one delta per stage: PMU stamps have two */
	if (IS_ENABLED(CONFIG_ENTRY_STAGE_PMU))
		return -EOPNOTSUPP;
	/* nothing appends while the event is not hooked */
	for_each_possible_cpu(cpu) {
		struct entry_stage_batch *b = per_cpu_ptr(&entry_stage_batches, cpu);

		atomic_add(b->records, &entry_stage_batch_discarded);
		b->records = 0;
		b->n = 0;
	}
	ret = entry_stage_reg();
	if (ret)
		return ret;
	mutex_lock(&entry_stage_batch_lock);
	WRITE_ONCE(entry_stage_batch_on, true);
	mutex_unlock(&entry_stage_batch_lock);
	schedule_delayed_work(&entry_stage_batch_timer, HZ);
	return 0;
}

/*
 * The event is still hooked when its last user goes: the last batches are
 * written (a recorder that stops the ring buffer first loses them, and
 * should write entry_stage.batch_flush before it stops).
 */
void entry_stage_batch_unreg(void)
{
	cancel_delayed_work_sync(&entry_stage_batch_timer);
	mutex_lock(&entry_stage_batch_lock);
	entry_stage_batch_write_all();
	WRITE_ONCE(entry_stage_batch_on, false);
	mutex_unlock(&entry_stage_batch_lock);
	entry_stage_unreg();
}

/*
 * A stage's word: its id and its 32-bit ticks (entry_stage_ticks32()), or
 * the escape and a word of those ticks when they do not fit.
 */
static __always_inline u32 *entry_stage_batch_stage(u32 *w, unsigned long id, u32 d)
{
	if (likely(d < ENTRY_STAGE_BATCH_ESC)) {
		*w = (u32)id << ENTRY_STAGE_BATCH_ID_SHIFT | d;
		return w + 1;
	}
	*w++ = (u32)id << ENTRY_STAGE_BATCH_ID_SHIFT | ENTRY_STAGE_BATCH_ESC;
	*w++ = d;
	return w;
}

/* The stages' words with their escapes, from @w: the rare record that needs one. */
static noinline u32 *entry_stage_batch_escaped(u32 *w, const struct entry_stage_task *es,
					       u64 timed, u64 agg)
{
	unsigned long id;
	u64 m;

	for (m = timed; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		w = entry_stage_batch_stage(w, id, entry_stage_ticks32(es, id, false));
	}
	for (m = agg; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		w = entry_stage_batch_stage(w, id, entry_stage_ticks32(es, id, true));
	}
	return w;
}

/*
 * The stages' words, from @w: the timed stages in @timed, the AGG ones
 * (their sums) in @agg.  The loop writes one word a stage and ORs the
 * deltas together; a delta too long for its word is rare, and then the
 * words are written again, with escapes.  Out of line: inlined into the
 * burst, -Os spilled the loop's registers to the stack.
 */
static noinline u32 *entry_stage_batch_stages(u32 *w, const struct entry_stage_task *es,
					      u64 timed, u64 agg)
{
	u32 *start = w;
	unsigned long id;
	u64 m = timed, d, all = 0;

	/* (do-while: -Os leaves a for loop's test at its top, a jump each stage) */
	if (m) {
		do {
			id = entry_stage_ffs(m);
			d = es->ts[1][id] - es->ts[0][id];
			all |= d;
			*w++ = (u32)id << ENTRY_STAGE_BATCH_ID_SHIFT | (u32)d;
		} while (m &= m - 1);
	}
	for (m = agg; m; m &= m - 1) {
		id = entry_stage_ffs(m);
		d = es->ts[1][id];
		all |= d;
		*w++ = (u32)id << ENTRY_STAGE_BATCH_ID_SHIFT | (u32)d;
	}
	if (unlikely(all >= ENTRY_STAGE_BATCH_ESC))
		return entry_stage_batch_escaped(start, es, timed, agg);
	return w;
}

/*
 * Append the staged syscall: @ran its stages, @tail the DEFERRED ones of
 * syscall tail_seq, @burst the counter at the burst, @rcu its slow
 * rcu_read_unlock()s.
 */
static void entry_stage_batch_add(const struct task_struct *t,
				  const struct entry_stage_task *es, u64 ran,
				  u64 tail, u64 burst, u32 rcu)
{
	struct entry_stage_batch *b;
	unsigned long irqs;
	u64 span = burst - es->entry;
	u32 *w, *hdr, *stages, flags = 0;

	local_irq_save(irqs);
	b = this_cpu_ptr(&entry_stage_batches);
	if (b->records &&
	    (b->n > ENTRY_STAGE_BATCH_WORDS - ENTRY_STAGE_BATCH_RECORD_MAX ||
	     (burst - b->first) >> 31 || time_after(jiffies, b->first_j + HZ)))
		entry_stage_batch_write(b);
	if (!b->records) {
		b->first = burst;
		b->first_j = jiffies;
	}
	hdr = b->w + b->n;
	hdr[0] = t->pid;
	hdr[1] = es->seq;
	hdr[2] = tail ? es->tail_seq : 0;
	hdr[4] = es->work;
	hdr[5] = (u32)burst;
	hdr[6] = (u32)span;
	hdr[7] = (u32)es->ret;
	w = hdr + ENTRY_STAGE_BATCH_HDR;
	if (unlikely((long)(s32)es->ret != es->ret)) {
		*w++ = (u32)((u64)es->ret >> 32);
		flags |= ENTRY_STAGE_BATCH_RET_HI;
	}
	if (unlikely(span >> 32)) {
		*w++ = span >> 32;
		flags |= ENTRY_STAGE_BATCH_SPAN_HI;
	}
	if (rcu) {
		*w++ = rcu;
		flags |= ENTRY_STAGE_BATCH_RCU;
	}
	stages = w;
	w = entry_stage_batch_stages(w, es, (ran | tail) & ~entry_stage_agg_mask,
				     (ran | tail) & entry_stage_agg_mask);
	hdr[3] = (u16)es->nr | (u32)(w - stages) << 16 | flags << 24;
	b->n = w - b->w;
	b->records++;
	local_irq_restore(irqs);
}

/*
 * At most once a second on each CPU: what the stamps are and what they
 * cost, so that a recording that starts at any time has it.
 */
static void entry_stage_emit_calib(void)
{
	unsigned int epoch = READ_ONCE(entry_stage_epoch);

	if (!tracepoint_enabled(entry_stage_calib))
		return;
	/* interrupts off (the burst, a batch's write): __this_cpu, no preemption to stop */
	lockdep_assert_irqs_disabled();
	if (__this_cpu_read(entry_stage_calib_epoch) == epoch &&
	    time_before(jiffies, __this_cpu_read(entry_stage_calib_next)))
		return;
	__this_cpu_write(entry_stage_calib_epoch, epoch);
	__this_cpu_write(entry_stage_calib_next, jiffies + HZ);
	entry_stage_calib.scratch = atomic_read(&entry_stage_scratch);
	entry_stage_calib.failed = atomic_read(&entry_stage_failed);
	trace_entry_stage_calib(&entry_stage_calib, epoch);
}

/*
 * The clock conversion (entry_stage_ns(): mul_u64_u32_shr(), whose 64-bit
 * version multiplies in an __int128) is kept out of the burst: inlined
 * there, -Os realigned the burst's stack on x86_64, about 10 instructions
 * in every staged syscall of every mode.  These two are called only when
 * the trace clock was read: entry_stage_time events, or a summary's start.
 */
static noinline u64 entry_stage_start_ns(u64 now_ns, u64 now, u64 entry)
{
	return entry_stage_on_clock(now_ns, now, entry);
}

/* entry_stage_time: one event per stage, the DEFERRED ones of @tail first. */
static noinline void entry_stage_emit_times(const struct entry_stage_task *es, u64 ran,
					    u64 tail, u64 now_ns, u64 now)
{
	u64 mask, d;
	int id;

	for (mask = tail; mask; mask &= mask - 1) {
		id = entry_stage_ffs(mask);
		d = entry_stage_delta(es, id);
		trace_entry_stage_time(es->tail_seq, es->tail_nr, id, es->tail_work, 1,
				       entry_stage_on_clock(now_ns, now, es->ts[0][id]),
				       d, es->tail_ret);
	}
	for (mask = ran; mask; mask &= mask - 1) {
		u32 count = 1;

		id = entry_stage_ffs(mask);
		d = entry_stage_delta(es, id);
		if (entry_stage_agg_mask & BIT_ULL(id))
			count = es->count[id];
		trace_entry_stage_time(es->seq, es->nr, id, es->work, count,
				       entry_stage_on_clock(now_ns, now, es->ts[0][id]),
				       d, es->ret);
	}
}

/*
 * The burst's aggregation, out of line as the events below are: its
 * registers are not the burst's, which a batch alone then saves fewer of
 * (powerpc's -Os saved 14 for every burst).  Returns this syscall's total
 * span, added with its tail.
 */
static noinline u32 entry_stage_burst_hist(const struct entry_stage_task *es, u64 ran,
					   u64 tail, u64 emit)
{
	/* the burst runs with interrupts off: no preemption to stop */
	struct entry_stage_hist_slot *tab = __this_cpu_read(entry_stage_hist_tab);

	if (!tab)
		return 0;
	entry_stage_hist_add(tab, es, ran, tail);
	return entry_stage_span(es->entry, emit);
}

/*
 * The burst's events that read the trace clock (@now_ns, with the counter
 * @now beside it): the summary, the per-stage times, and the calibration
 * that goes with them (a batch writes it with itself).
 */
static noinline void entry_stage_burst_trace(struct entry_stage_task *es, u64 ran,
					     u64 tail, u64 emit, u32 rcu, u64 now_ns,
					     u64 now)
{
	es->start_ns = entry_stage_start_ns(now_ns, now, es->entry);
	if (tracepoint_enabled(entry_stage_summary))
		trace_entry_stage_summary(es, ran | tail, tail ? es->tail_seq : 0, rcu,
					  entry_stage_span(es->entry, emit));
	if (tracepoint_enabled(entry_stage_time))
		entry_stage_emit_times(es, ran, tail, now_ns, now);
	entry_stage_emit_calib();
}

/*
 * The burst: the syscall's last instrumentable point (the emit stage has
 * just begun).  Turn this syscall's stamps, and the DEFERRED ones of the
 * task's previous staged syscall, into events: the stages in @ran.  Every
 * stage that ends was begun in the same staged syscall (the stamps are
 * placed so, and a syscall begun before staging was switched on has no
 * scratch in entry_stage_cur); the body, which an architecture's entry
 * code begins on several paths, is checked.
 */
void __entry_stage_burst(void)
{
	struct task_struct *t = current;
	struct entry_stage_task *es = t->entry_stage_cur;
	u64 emit = es->ts[0][ENTRY_STAGE_EMIT];
	u64 ran, tail, mask, now_ns = 0, now = 0;
	u32 rcu = 0, hist_span = 0;

	ran = es->ran & ~entry_stage_deferred_mask;
	tail = es->ran & entry_stage_deferred_mask;
	es->ran = 0;
	/*
	 * The trace's default clock ("local"), so that starts and events
	 * align: not read for aggregation alone, which places nothing, nor
	 * for batches alone, which read it once per batch.  The
	 * events' static branches are tested with tracepoint_enabled(): -Os
	 * leaves trace_*_enabled() out of line, a call of 6 instructions.
	 */
	if (!(tracepoint_enabled(entry_stage_hist) || tracepoint_enabled(entry_stage_batch)) ||
	    tracepoint_enabled(entry_stage_summary) ||
	    tracepoint_enabled(entry_stage_time) || IS_ENABLED(CONFIG_ENTRY_STAGE_PMU)) {
		now_ns = trace_clock_local();
		now = arch_entry_stage_read();
	}
	if (unlikely(es->epoch != READ_ONCE(entry_stage_epoch)) ||
	    entry_stage_pmu_drop(es, t, now)) {
		es->flags &= ~(ENTRY_STAGE_TAIL_VALID | ENTRY_STAGE_RESTART);
		WRITE_ONCE(t->entry_stage_cur, NULL);
		return;
	}
	if (unlikely(es->ts[0][ENTRY_STAGE_SYSCALL] < es->entry))
		ran &= ~BIT_ULL(ENTRY_STAGE_SYSCALL);
	for (mask = ran & ENTRY_STAGE_WORK_MASK; mask; mask &= mask - 1)
		es->work |= entry_stage_work_of[entry_stage_ffs(mask)];

	/* emit's begin has just been overwritten by this burst's own */
	es->ts[0][ENTRY_STAGE_EMIT] = es->tail_ref;
	if (!(es->flags & ENTRY_STAGE_TAIL_VALID) || es->tail_epoch != es->epoch)
		tail = 0;

	if (ran & BIT_ULL(ENTRY_STAGE_RCU_UNLOCK_SLOW))
		rcu = es->count[ENTRY_STAGE_RCU_UNLOCK_SLOW];

	if (tracepoint_enabled(entry_stage_hist))
		hist_span = entry_stage_burst_hist(es, ran, tail, emit);
	if (tracepoint_enabled(entry_stage_batch))
		entry_stage_batch_add(t, es, ran, tail, emit, rcu);
	if (now_ns)
		entry_stage_burst_trace(es, ran, tail, emit, rcu, now_ns, now);

	es->ts[0][ENTRY_STAGE_EMIT] = emit;
	es->tail_ref = emit;
	es->tail_span = hist_span;
	es->tail_seq = es->seq;
	es->tail_nr = es->nr;
	es->tail_work = es->work;
	es->tail_ret = es->ret;
	es->tail_epoch = es->epoch;
	es->flags = (es->flags & ~ENTRY_STAGE_RESTART) | ENTRY_STAGE_TAIL_VALID;
}
