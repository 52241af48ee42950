// SPDX-License-Identifier: LGPL-2.1
/*
 * Stats: per syscall x stage histograms (x path signature with by_work),
 * and breakdowns of the per-syscall total by task, CPU and errno.  Only
 * complete syscalls are added; the timeline's counts account for the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"
#include "hist.h"

struct et_map {
	uint64_t *keys;		/* key + 1; 0 = empty */
	uint32_t *vals;
	size_t nr_slots;
	size_t used;
};

/* All cells of one syscall (x signature), indexed by stage. */
#define GROUP_CACHE 4	/* tasks interleave: a few per row, not one */
#define LAST_GROUPS 4	/* a power of two */

struct et_row {
	int nr;
	uint32_t work;
	uint64_t syscalls;	/* added to this row, with or without a total */
	struct et_cell *cells[ET_SLOT_NR];
	/* lookup caches: the groups this row's last few syscalls went to */
	struct et_group *recent[ET_BY_NR_BREAKDOWNS][GROUP_CACHE];
	uint8_t next_recent[ET_BY_NR_BREAKDOWNS];
	/* the groups of the last syscall of a few tasks (by pid), and its keys */
	struct et_last_groups {
		struct et_group *g[ET_BY_NR_BREAKDOWNS];
		long key[ET_BY_NR_BREAKDOWNS];
		char comm[ET_COMM_LEN];
	} last[LAST_GROUPS];
};

struct et_stats {
	struct {
		bool by_work;		/* split cells by path signature */
		bool by_arg;		/* ...and by argument shape */
		bool exclusive;		/* subtract interrupts and preemption (sub) */
		bool no_overhead;	/* subtract the tracer's own events (ovh) */
		bool plain;		/* neither: a stage's value is its time */
	} opts;
	struct et_map cell_map;		/* (nr, work) -> row */
	struct et_row **rows;
	size_t nr_rows, cap_rows;
	struct et_row *last_row;
	struct et_cell **cells;
	size_t nr_cells, cap_cells;
	struct et_map group_map;
	struct et_group **groups;
	size_t nr_groups, cap_groups;
	uint64_t syscalls;

	/* sorted views, rebuilt lazily */
	bool dirty;
	const struct et_cell **sorted;
	const struct et_group **sorted_groups[ET_BY_NR_BREAKDOWNS];
	size_t nr_sorted_groups[ET_BY_NR_BREAKDOWNS];
};

/* ------------------------------------------------------------------ */

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static bool map_grow(struct et_map *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 256;
	uint64_t *keys = calloc(n, sizeof(*keys));
	uint32_t *vals = calloc(n, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	for (size_t i = 0; i < m->nr_slots; i++) {
		size_t s;

		if (!m->keys[i])
			continue;
		for (s = mix(m->keys[i]) & (n - 1); keys[s]; s = (s + 1) & (n - 1))
			;
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->nr_slots = n;
	return true;
}

/* Index stored for key, or insert `next` and return it; -1 on ENOMEM. */
static long map_get(struct et_map *m, uint64_t key, uint32_t next)
{
	size_t s;

	key++;
	if ((m->used + 1) * 2 > m->nr_slots && !map_grow(m))
		return -1;
	for (s = mix(key) & (m->nr_slots - 1); m->keys[s];
	     s = (s + 1) & (m->nr_slots - 1))
		if (m->keys[s] == key)
			return m->vals[s];
	m->keys[s] = key;
	m->vals[s] = next;
	m->used++;
	return next;
}

static void map_free(struct et_map *m)
{
	free(m->keys);
	free(m->vals);
}

/* ------------------------------------------------------------------ */

struct et_stats *et_stats_new(unsigned int flags)
{
	struct et_stats *st = calloc(1, sizeof(*st));

	if (st) {
		st->opts.by_work = flags & ET_STATS_BY_WORK;
		st->opts.by_arg = flags & ET_STATS_BY_ARG;
		st->opts.exclusive = flags & ET_STATS_EXCLUSIVE;
		st->opts.no_overhead = flags & ET_STATS_NO_OVERHEAD;
		st->opts.plain = !st->opts.exclusive && !st->opts.no_overhead;
	}
	return st;
}

/* exact: syscall number, 24 bits of path signature, 8 of stage (rows: 0) */
static uint64_t cell_key(int nr, uint32_t work, int stage)
{
	return ((uint64_t)(uint32_t)nr << 32) | ((uint64_t)(work & 0xffffff) << 8) |
	       (uint64_t)stage;
}

static struct et_row *row_get(struct et_stats *st, int nr, uint32_t work)
{
	struct et_row *r = st->last_row;
	long idx;

	if (r && r->nr == nr && r->work == work)
		return r;
	idx = map_get(&st->cell_map, cell_key(nr, work, 0), (uint32_t)st->nr_rows);
	if (idx < 0)
		return NULL;
	if ((size_t)idx < st->nr_rows)
		return st->last_row = st->rows[idx];
	if (et_grow((void **)&st->rows, &st->cap_rows, st->nr_rows + 1,
		    sizeof(*st->rows)))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->nr = nr;
	r->work = work;
	st->rows[st->nr_rows++] = r;
	return st->last_row = r;
}

static struct et_cell *cell_get(struct et_stats *st, struct et_row *r, int stage)
{
	struct et_cell *c = r->cells[stage];

	if (c)
		return c;
	if (et_grow((void **)&st->cells, &st->cap_cells, st->nr_cells + 1,
		    sizeof(*st->cells)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->nr = r->nr;
	c->work = r->work;
	c->stage = stage;
	st->cells[st->nr_cells++] = c;
	r->cells[stage] = c;
	return c;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * Groups are (breakdown, syscall, key[, comm]): a 64-bit hash of the tuple
 * indexes the map, and a hit is checked against the whole tuple; a clash of
 * two tuples on one hash moves on to a rehash of it.
 */
static struct et_group *group_get(struct et_stats *st, enum et_breakdown by,
				  int nr, long key, const char *comm)
{
	uint64_t k = mix(((uint64_t)by << 56) ^ ((uint64_t)(uint32_t)nr << 24) ^
			 (uint64_t)key ^ (comm ? hash_str(comm) : 0));
	struct et_group *g;
	long idx;

	for (;;) {
		idx = map_get(&st->group_map, k, (uint32_t)st->nr_groups);
		if (idx < 0)
			return NULL;
		if ((size_t)idx >= st->nr_groups)
			break;
		g = st->groups[idx];
		if (g->by == by && g->nr == nr && g->key == key &&
		    (!comm || !strncmp(g->comm, comm, ET_COMM_LEN)))
			return g;
		k = mix(k + 1);
	}
	if (et_grow((void **)&st->groups, &st->cap_groups, st->nr_groups + 1,
		    sizeof(*st->groups)))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->by = by;
	g->nr = nr;
	g->key = key;
	/* percentiles per task; per CPU and result the moments suffice */
	g->hist.moments_only = by != ET_BY_PID;
	if (comm)
		snprintf(g->comm, ET_COMM_LEN, "%s", comm);
	st->groups[st->nr_groups++] = g;
	return g;
}

static long errno_key(const struct et_syscall *sc)
{
	if (sc->flags & ET_SC_SIGRETURN)
		return 0;
	return sc->ret < 0 && sc->ret >= -4095 ? -sc->ret : 0;
}

static bool same_comm(const char *a, const char *b)
{
	uint64_t x[2], y[2];

	memcpy(x, a, ET_COMM_LEN);
	memcpy(y, b, ET_COMM_LEN);
	return x[0] == y[0] && x[1] == y[1];
}

/*
 * A stage's time as the options want it: less the interrupts and
 * preemption inside it (exclusive), less the tracer's own events.
 */
static uint64_t value(const struct et_stats *st, const struct et_syscall *sc,
		      int stage, struct et_cell *c)
{
	uint64_t v = sc->ns[stage], off = 0;

	if (!(sc->start_mask & (1ull << stage)))
		return v;
	if (st->opts.exclusive) {
		off += sc->sub[stage];
		if (c)
			c->sub_total += sc->sub[stage];
	}
	if (st->opts.no_overhead) {
		off += sc->ovh[stage];
		if (c)
			c->ovh_total += sc->ovh[stage];
	}
	return off < v ? v - off : 0;
}

/* A breakdown's group of sc, looked up in the row's recent ones first. */
static struct et_group *group_of(struct et_stats *st, struct et_row *r, int by,
				 const struct et_syscall *sc, long key)
{
	const char *comm = by == ET_BY_PID ? sc->comm : NULL;
	struct et_group *g;

	for (int i = 0; i < GROUP_CACHE; i++) {
		g = r->recent[by][i];
		if (g && g->key == key && (!comm || same_comm(g->comm, comm)))
			return g;
	}
	g = group_get(st, by, sc->nr, key, comm);
	if (g)
		r->recent[by][r->next_recent[by]++ % GROUP_CACHE] = g;
	return g;
}

/*
 * The syscall's total into its task's, CPU's and errno's groups.  Most
 * syscalls of a task come from the CPU and have the result of its last one
 * in the row: one test finds all three (tasks interleave: a slot per pid's
 * low bits).  Only the task's group keeps buckets.
 */
static bool add_groups(struct et_stats *st, struct et_row *r,
		       const struct et_syscall *sc, uint64_t total)
{
	struct et_last_groups *last = &r->last[(unsigned int)sc->pid & (LAST_GROUPS - 1)];
	long key[ET_BY_NR_BREAKDOWNS];

	_Static_assert(ET_BY_PID == 0 && ET_BY_NR_BREAKDOWNS == 3,
		       "add_groups() spells out the three breakdowns");
	key[ET_BY_PID] = sc->pid;
	key[ET_BY_CPU] = sc->cpu_enter;
	key[ET_BY_RET] = errno_key(sc);
	if (!last->g[0] || last->key[0] != key[0] || last->key[1] != key[1] ||
	    last->key[2] != key[2] || !same_comm(last->comm, sc->comm)) {
		for (int by = 0; by < ET_BY_NR_BREAKDOWNS; by++) {
			last->g[by] = group_of(st, r, by, sc, key[by]);
			if (!last->g[by])
				return false;
			last->key[by] = key[by];
		}
		memcpy(last->comm, sc->comm, ET_COMM_LEN);
	}
	if (!et_hist_add_inline(&last->g[ET_BY_PID]->hist, total, sc->ts_enter))
		return false;
	for (int by = 1; by < ET_BY_NR_BREAKDOWNS; by++)
		et_hist_add_moments_inline(&last->g[by]->hist, total, sc->ts_enter);
	return true;
}

/* A syscall's row beside its number: path signature, argument shape. */
static inline uint32_t row_key(const struct et_stats *st, const struct et_syscall *sc)
{
	uint32_t key = st->opts.by_work ? sc->work & ET_WORK_MASK & ~ET_WORK(LOST) : 0;

	if (st->opts.by_arg)
		key |= sc->shape << ET_WORK_SHAPE_SHIFT & ET_WORK_SHAPE_MASK;
	return key;
}

/*
 * An aggregated cell (ET_SC_CELL): merged into its cell as it is; the
 * total's count is the syscalls.  Cells have no task, CPU of entry or
 * errno: the breakdowns do not see them.
 */
static bool add_cell(struct et_stats *st, const struct et_syscall *sc)
{
	uint32_t work = row_key(st, sc);
	struct et_row *r = row_get(st, sc->nr, work);
	int stage = __builtin_ctzll(sc->stage_mask);
	struct et_cell *c;

	if (!r || !(c = cell_get(st, r, stage)) || !et_hist_merge(&c->hist, &sc->cell->hist))
		return false;
	st->dirty = true;
	c->agg_count += sc->cell->occurrences;
	if (stage == ET_SLOT_TOTAL) {
		st->syscalls += sc->cell->hist.count;
		r->syscalls += sc->cell->hist.count;
	}
	return true;
}

bool et_stats_add(struct et_stats *st, const struct et_syscall *sc)
{
	uint32_t work = row_key(st, sc);
	uint64_t mask = sc->stage_mask;
	struct et_row *r;

	if (sc->flags & ET_SC_CELL)
		return add_cell(st, sc);
	/* the last row again (row_get()'s first test, inline: most syscalls) */
	r = st->last_row;
	if (!r || r->nr != sc->nr || r->work != work)
		r = row_get(st, sc->nr, work);
	if (!r)
		return false;
	st->dirty = true;
	st->syscalls++;
	r->syscalls++;
	while (mask) {
		int stage = __builtin_ctzll(mask);
		struct et_cell *c = cell_get(st, r, stage);

		mask &= mask - 1;
		if (!c || !et_hist_add_inline(&c->hist, st->opts.plain ? sc->ns[stage] :
					      value(st, sc, stage, c), sc->ts_enter))
			return false;
		c->agg_count += sc->count[stage];
	}
	if (et_sc_has(sc, ET_SLOT_TOTAL))
		return add_groups(st, r, sc, st->opts.plain ? sc->ns[ET_SLOT_TOTAL] :
				  value(st, sc, ET_SLOT_TOTAL, NULL));
	return true;
}

bool et_stats_by_work(const struct et_stats *st)
{
	return st->opts.by_work;
}

bool et_stats_by_arg(const struct et_stats *st)
{
	return st->opts.by_arg;
}

uint64_t et_stats_syscalls(const struct et_stats *st)
{
	return st->syscalls;
}

uint64_t et_stats_row_syscalls(const struct et_stats *cst, int nr, uint32_t work)
{
	struct et_stats *st = (struct et_stats *)cst;
	struct et_row *r;

	for (size_t i = 0; i < st->nr_rows; i++) {
		r = st->rows[i];
		if (r->nr == nr && r->work == work)
			return r->syscalls;
	}
	return 0;
}

const struct et_cell *et_stats_slot(const struct et_stats *st, int nr,
				    uint32_t work, int slot)
{
	for (size_t i = 0; i < st->nr_rows; i++)
		if (st->rows[i]->nr == nr && st->rows[i]->work == work)
			return st->rows[i]->cells[slot];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Sorted views                                                        */

/*
 * Syscalls are ranked by their total time (the TOTAL cells, summed over
 * path signatures).  Each cell and group carries its weights into the sort
 * (no state outside the stats: two threads may sort two stats at once).
 */
struct rank {
	int nr;
	uint32_t work;
	uint64_t weight;
};

struct keyed {
	const void *p;		/* the cell or group */
	uint64_t w;		/* its syscall [work]'s weight (groups: the syscall's) */
	int nr, second;		/* syscall, then stage rank or 0 */
	uint32_t work;
	uint64_t total;		/* groups: the group's own total */
	long key;
};

static uint64_t weight_of(const struct rank *ranks, size_t n, int nr, uint32_t work,
			  bool any_work)
{
	uint64_t w = 0;

	for (size_t i = 0; i < n; i++)
		if (ranks[i].nr == nr && (any_work || ranks[i].work == work))
			w += ranks[i].weight;
	return w;
}

static int stage_rank(int stage)
{
	return stage == ET_SLOT_TOTAL ? -1 : et_stage_path_rank(stage);
}

static int cmp_cells(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->nr != y->nr || x->work != y->work) {
		if (x->w != y->w)
			return x->w > y->w ? -1 : 1;
		if (x->nr != y->nr)
			return x->nr < y->nr ? -1 : 1;
		return x->work < y->work ? -1 : 1;
	}
	return x->second - y->second;
}

static int cmp_groups(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->nr != y->nr) {
		if (x->w != y->w)
			return x->w > y->w ? -1 : 1;
		return x->nr < y->nr ? -1 : 1;
	}
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static bool resort(struct et_stats *st)
{
	size_t n = st->nr_cells > st->nr_groups ? st->nr_cells : st->nr_groups, nr_ranks = 0;
	struct rank *ranks = calloc(st->nr_cells + 1, sizeof(*ranks));
	struct keyed *k = calloc(n + 1, sizeof(*k));
	const struct et_cell **cells;
	bool ok = false;

	if (!ranks || !k)
		goto out;
	cells = realloc(st->sorted, (st->nr_cells + 1) * sizeof(*cells));
	if (!cells)
		goto out;
	st->sorted = cells;
	for (size_t i = 0; i < st->nr_cells; i++)
		if (st->cells[i]->stage == ET_SLOT_TOTAL)
			ranks[nr_ranks++] = (struct rank){ st->cells[i]->nr, st->cells[i]->work,
							   st->cells[i]->hist.total };
	for (size_t i = 0; i < st->nr_cells; i++) {
		const struct et_cell *c = st->cells[i];

		k[i] = (struct keyed){ .p = c, .nr = c->nr, .work = c->work,
				       .second = stage_rank(c->stage),
				       .w = weight_of(ranks, nr_ranks, c->nr, c->work, false) };
	}
	qsort(k, st->nr_cells, sizeof(*k), cmp_cells);
	for (size_t i = 0; i < st->nr_cells; i++)
		cells[i] = k[i].p;
	for (int by = 0; by < ET_BY_NR_BREAKDOWNS; by++) {
		const struct et_group **g;
		size_t m = 0;

		g = realloc(st->sorted_groups[by], (st->nr_groups + 1) * sizeof(*g));
		if (!g)
			goto out;
		st->sorted_groups[by] = g;
		for (size_t i = 0; i < st->nr_groups; i++) {
			const struct et_group *gr = st->groups[i];

			if (gr->by != (enum et_breakdown)by)
				continue;
			k[m++] = (struct keyed){ .p = gr, .nr = gr->nr, .total = gr->hist.total,
						 .key = gr->key,
						 .w = weight_of(ranks, nr_ranks, gr->nr, 0, true) };
		}
		qsort(k, m, sizeof(*k), cmp_groups);
		for (size_t i = 0; i < m; i++)
			g[i] = k[i].p;
		st->nr_sorted_groups[by] = m;
	}
	st->dirty = false;
	ok = true;
out:
	free(ranks);
	free(k);
	return ok;
}

size_t et_stats_cells(const struct et_stats *cst, const struct et_cell ***cells)
{
	struct et_stats *st = (struct et_stats *)cst;

	if ((st->dirty || !st->sorted) && !resort(st)) {
		*cells = NULL;
		return 0;
	}
	*cells = st->sorted;
	return st->nr_cells;
}

size_t et_stats_groups(const struct et_stats *cst, enum et_breakdown by,
		       const struct et_group ***groups)
{
	struct et_stats *st = (struct et_stats *)cst;

	if ((st->dirty || !st->sorted) && !resort(st)) {
		*groups = NULL;
		return 0;
	}
	*groups = st->sorted_groups[by];
	return st->nr_sorted_groups[by];
}

void et_stats_free(struct et_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr_cells; i++) {
		et_hist_fini(&st->cells[i]->hist);
		free(st->cells[i]);
	}
	for (size_t i = 0; i < st->nr_groups; i++) {
		et_hist_fini(&st->groups[i]->hist);
		free(st->groups[i]);
	}
	for (int by = 0; by < ET_BY_NR_BREAKDOWNS; by++)
		free(st->sorted_groups[by]);
	for (size_t i = 0; i < st->nr_rows; i++)
		free(st->rows[i]);
	free(st->rows);
	free(st->sorted);
	free(st->cells);
	free(st->groups);
	map_free(&st->cell_map);
	map_free(&st->group_map);
	free(st);
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */

size_t et_stats_nr_cells(const struct et_stats *st)
{
	const struct et_cell **cells;

	return et_stats_cells(st, &cells);
}

const struct et_cell *et_stats_cell_at(const struct et_stats *st, size_t i)
{
	const struct et_cell **cells;
	size_t n = et_stats_cells(st, &cells);

	return i < n ? cells[i] : NULL;
}

size_t et_stats_nr_groups(const struct et_stats *st, enum et_breakdown by)
{
	const struct et_group **g;

	return by < ET_BY_NR_BREAKDOWNS ? et_stats_groups(st, by, &g) : 0;
}

const struct et_group *et_stats_group_at(const struct et_stats *st, enum et_breakdown by,
					 size_t i)
{
	const struct et_group **g;
	size_t n = by < ET_BY_NR_BREAKDOWNS ? et_stats_groups(st, by, &g) : 0;

	return i < n ? g[i] : NULL;
}

int et_cell_nr(const struct et_cell *c)
{
	return c->nr;
}

uint32_t et_cell_work(const struct et_cell *c)
{
	return c->work;
}

int et_cell_stage(const struct et_cell *c)
{
	return et_slot_stage(c->stage);
}

const struct et_hist *et_cell_hist(const struct et_cell *c)
{
	return &c->hist;
}

uint64_t et_cell_occurrences(const struct et_cell *c)
{
	return c->agg_count;
}

uint64_t et_cell_subtracted_exclusive(const struct et_cell *c)
{
	return c->sub_total;
}

uint64_t et_cell_subtracted_overhead(const struct et_cell *c)
{
	return c->ovh_total;
}

int et_group_nr(const struct et_group *g)
{
	return g->nr;
}

long et_group_key(const struct et_group *g)
{
	return g->key;
}

const char *et_group_comm(const struct et_group *g)
{
	return g->comm;
}

const struct et_hist *et_group_hist(const struct et_group *g)
{
	return &g->hist;
}
