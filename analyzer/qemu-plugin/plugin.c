// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace mix: a QEMU TCG plugin (plugin API version 1) that counts the
 * guest instructions of every syscall, per entry_stage stage, with no
 * instruction added to the guest.
 *
 *   qemu-system-... -plugin build/entrytrace-mix.so,sites=K.sites,out=RUN.mix
 *
 * Counting: every translated kernel instruction gets an inline add to the
 * counter of its address (a dense slot per kernel instruction met, one for
 * all of user space); its function and its kind (classify.c, calls=) are
 * properties of the slot, so the function, kind and class tables are sums
 * over slots, and the per-address table (insn/at lines) says which
 * instruction ran how often in each stage.  Marker instructions (the site file:
 * entry vectors, interrupt vectors, return instructions, the context switch,
 * syscall handler entries, entry_stage sites) get a callback instead, which
 * takes the counters' deltas since the previous marker ("harvest"), gives
 * them to whatever was current (user, an interrupt, a syscall and its open
 * stages), counts the marker instruction itself and makes the transition.
 * Nothing runs per instruction but the inline adds.
 *
 * Where a marker's own instruction goes: a vector's first instruction
 * belongs to the frame it opens; a return instruction to the frame it
 * closes; a site's NOP to the interval before it (as a stamp reads the
 * clock after the NOP).  Documentation/qemu-plugin.md has the rest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"
#include "qemu-api.h"

#define PLUGIN_NAME "entrytrace-mix"
#define OUTPUT_VERSION 2

ET_QEMU_EXPORT int qemu_plugin_version = ET_QEMU_PLUGIN_VERSION;

enum { SLOT_USER, SLOT_FIRST };
enum { BASE_USER, BASE_UNSYNCED };
enum { FR_SYSCALL, FR_IRQ };
enum {				/* sample flags */
	F_IRQ        = 1 << 0,	/* an interrupt landed inside (excluded from the counts) */
	F_SWITCHED   = 1 << 1,	/* a context switch: set apart */
	F_DESYNC     = 1 << 2,	/* a syscall entry while this one was open: set apart */
	F_UNFINISHED = 1 << 3,	/* still open when QEMU exited: set apart */
	F_ANOMALY    = 1 << 4,	/* a site out of order inside it (counted in "anomaly") */
	F_GAPIRQ     = 1 << 5,	/* an interrupt landed in the user gap before it */
	F_SETAPART   = F_SWITCHED | F_DESYNC | F_UNFINISHED,
};
#define NFLAGS 6
static const char *const flag_names[NFLAGS] = {
	"irq", "switched", "desync", "unfinished", "anomaly", "gapirq",
};

#define MAX_DEPTH 16
#define MAX_ACC (MIX_MAX_STAGES + 5)

struct ent {			/* a per-syscall partial sum, merged when it ends */
	uint8_t type;		/* 0: an instruction slot */
	uint8_t acc;
	uint32_t id;
	uint64_t n;
};

struct sysrec {
	uint64_t seq;
	int name;
	unsigned flags;
	int64_t user_before;	/* -1: unknown */
	bool window;		/* the staged syscall (or a restart of its exit) is open */
	bool window_done;	/* the staged syscall ended */
	bool tail;		/* after the tail begin: only the tail's end counts */
	bool restart;		/* in a restart window: only the restart's end counts */
	bool restart_seen;	/* a restart began in this syscall */
	bool pending;		/* after a restart's end: ACC_PENDING until the next or the return */
	int restart_stage;
	uint64_t open;		/* open stages */
	uint64_t acc[MAX_ACC];
	uint32_t runs[MAX_ACC];
	bool entered[MAX_ACC];
	uint64_t irq, nirq;
	struct ent *ents;
	size_t nents, capents;
};

struct frame {
	int type;
	int vector;
	uint64_t insns;
};

struct vcpu {
	int base;
	int depth;
	struct frame st[MAX_DEPTH];
	struct sysrec sc;	/* the syscall frame, always st[0] when open */
	int64_t user_since;	/* user instructions since the last return to user, -1 unknown */
	bool user_irq;
};

/* ---- a small u64 -> u64 hash map ------------------------------------- */
struct map {
	uint64_t *k, *v;	/* key 0 = empty; keys are stored + 1 */
	size_t cap, n;
};

static uint64_t *map_slot(struct map *m, uint64_t key)
{
	if (2 * (m->n + 1) > m->cap) {
		struct map o = *m;

		m->cap = o.cap ? 2 * o.cap : 1024;
		m->k = calloc(m->cap, sizeof(*m->k));
		m->v = calloc(m->cap, sizeof(*m->v));
		if (!m->k || !m->v)
			abort();
		m->n = 0;
		for (size_t i = 0; i < o.cap; i++)
			if (o.k[i])
				*map_slot(m, o.k[i] - 1) = o.v[i];
		free(o.k);
		free(o.v);
	}
	uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i = (h >> 17) & (m->cap - 1);

	while (m->k[i] && m->k[i] != key + 1)
		i = (i + 1) & (m->cap - 1);
	if (!m->k[i]) {
		m->k[i] = key + 1;
		m->v[i] = 0;
		m->n++;
	}
	return &m->v[i];
}

static uint64_t *map_find(const struct map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i = (h >> 17) & (m->cap - 1);

	while (m->k[i]) {
		if (m->k[i] == key + 1)
			return &m->v[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

/* ---- state -------------------------------------------------------------- */
static struct sitefile sf;
static char *out_path, *sites_path;
static int topk;			/* 0: every function */
static bool disas_check;
static bool armed_ok;		/* armed=ok: a site may be its jump (events on) */
static uint64_t *detail_seqs;	/* detail=SEQ:SEQ: per-function counts of those syscalls */
static int ndetail;
static char **sample_names;	/* NULL: all */
static int nsample_names;
static const char *samples_arg = "all", *tables_arg = "all";
static char **table_names;	/* tables=: kinds/class/func rows of these names only */
static int ntable_names;
static bool samples_none;
static char **call_names;	/* calls=: count the entries of these functions */
static int ncall_names;
static const char *calls_arg = "none";
static struct map calls;	/* entry address -> kind + 1 */

/*
 * Instruction slots.  The counters are what translated code adds to, so
 * they never move: chunks of CHUNK slots, allocated as slots are handed
 * out, with one hint word per block of 64 slots (set when any of them
 * counted) so that a harvest reads only the blocks that ran.
 */
#define CHUNK_BITS 16
#define CHUNK (1 << CHUNK_BITS)
#define MAX_CHUNKS 2048
struct islot {
	uint64_t addr;		/* the kernel's virtual address; 0 for user space */
	int func;		/* sf.funcs index, -1: in no function */
	int kind, callkind;	/* classify(), calls=; -1: none */
	int next;		/* another slot at the same address (other bytes), -1 */
};
static uint64_t *cnt_chunk[MAX_CHUNKS], *hint_chunk[MAX_CHUNKS];
static struct islot *islots;
static int nslots, capislots;
static struct map slot_at;	/* address -> first slot + 1 */
struct delta {
	uint32_t id;
	uint64_t n;
};
static struct delta *dslot;	/* a harvest's slots that counted */
static struct map markers;	/* addr -> marker index + 1 */
static struct vcpu *vcpus;
static int nvcpus, qemu_api_min, qemu_api_cur;
static int nacc, ACC_WHOLE, ACC_TOTAL, ACC_GAP, ACC_OUTSIDE, ACC_PENDING;
static int N_USER, N_UNSYNCED;
static uint64_t body_mask;

/* aggregates */
struct stat {
	int name, acc;
	uint64_t *v;
	size_t n, cap;
	uint64_t runs;
};
static struct stat *stats;
static size_t nstats, capstats;
static struct map stat_idx;	/* (name << 8 | acc) -> index + 1 */
static struct map sums;		/* key(name, acc, type, id) -> count */
static uint64_t seq;

static struct {
	uint64_t syscalls, setapart, switches, desync, unmatched_returns, abandoned_irqs;
	uint64_t irqs, irqs_in_syscall, overflow;
	uint64_t ins_user, ins_unsynced, ins_syscall, ins_irq;
	uint64_t site_hits, ign_not_syscall, ign_outside_window, ign_tail, ign_agg_outside_body;
	uint64_t reopen, end_not_open, unclosed, begin_in_window, window_reopened;
	uint64_t end_outside_tail;
	uint64_t marker_hits, markers_seen, unarmed, site_mismatches, sites_armed, translations;
	uint64_t disas_agree, disas_differ, disas_undecided, disas_undecodable, disas_skipped;
} g;

struct disas_diff {
	uint64_t addr;
	char bytes[40], text[64];
	int bk, dk;
};
static struct disas_diff ddiff[20];
static int nddiff;
static struct map disas_seen;

/* sample lines, written after the tables */
static char *samp;
static size_t nsamp, capsamp;

static void die_oom(void)
{
	fprintf(stderr, PLUGIN_NAME ": out of memory\n");
	abort();
}

static void sappend(const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(samp + nsamp, capsamp - nsamp, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < capsamp - nsamp)
			break;
		capsamp = capsamp ? 2 * capsamp : 1 << 20;
		samp = realloc(samp, capsamp);
		if (!samp)
			die_oom();
	}
	nsamp += n;
}

/* ---- addresses ---------------------------------------------------------- */
static bool is_kernel(uint64_t a)
{
	if (sf.arch == ARCH_X86_64)
		return a >= 0xffff800000000000ULL;
	return a >= sf.page_offset || a < sf.realmode_end;
}

/* powerpc real mode runs the kernel's code at its physical address */
static uint64_t virt(uint64_t a)
{
	if (sf.arch == ARCH_PPC64 && a < sf.realmode_end)
		return a + sf.page_offset;
	return a;
}

static int func_at(uint64_t a)
{
	size_t lo = 0, hi = sf.nfuncs;

	a = virt(a);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sf.funcs[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a >= sf.funcs[lo - 1].addr + sf.funcs[lo - 1].size)
		return -1;
	return lo - 1;
}

static uint64_t *slot_cnt(int s)
{
	return &cnt_chunk[s >> CHUNK_BITS][s & (CHUNK - 1)];
}

static uint64_t *slot_hint(int s)
{
	return &hint_chunk[s >> CHUNK_BITS][(s & (CHUNK - 1)) / 64];
}

static int new_slot(uint64_t addr, int func, int kind, int callkind)
{
	int c = nslots >> CHUNK_BITS;

	if (c >= MAX_CHUNKS) {
		fprintf(stderr, PLUGIN_NAME ": more than %d instruction addresses\n",
			MAX_CHUNKS * CHUNK);
		abort();
	}
	if (!cnt_chunk[c]) {
		cnt_chunk[c] = calloc(CHUNK, sizeof(uint64_t));
		hint_chunk[c] = calloc(CHUNK / 64, sizeof(uint64_t));
		if (!cnt_chunk[c] || !hint_chunk[c])
			die_oom();
	}
	if (nslots == capislots) {
		capislots = capislots ? 2 * capislots : CHUNK;
		islots = realloc(islots, capislots * sizeof(*islots));
		dslot = realloc(dslot, capislots * sizeof(*dslot));
		if (!islots || !dslot)
			die_oom();
	}
	islots[nslots] = (struct islot){ .addr = addr, .func = func, .kind = kind,
					 .callkind = callkind, .next = -1 };
	return nslots++;
}

/*
 * The slot of the instruction at a: one per kernel address and kind (the
 * bytes at an address change: powerpc's boot code and firmware run at the
 * vector addresses before the kernel's vectors are there), one for user space.
 */
static int slot_of(uint64_t a, int kind, int callkind)
{
	uint64_t *first;
	int s, last = -1;

	if (!is_kernel(a))
		return SLOT_USER;
	a = virt(a);
	first = map_slot(&slot_at, a);
	for (s = *first ? (int)*first - 1 : -1; s >= 0; s = islots[s].next) {
		if (islots[s].kind == kind && islots[s].callkind == callkind)
			return s;
		last = s;
	}
	s = new_slot(a, func_at(a), kind, callkind);
	if (last >= 0)
		islots[last].next = s;
	else
		*map_slot(&slot_at, a) = s + 1;	/* (new_slot may not move the map) */
	return s;
}

/* a function index as a name: the function, [user] or [unknown] */
static const char *func_name(int f)
{
	if (f == -2)
		return "[user]";
	return f < 0 ? "[unknown]" : sf.funcs[f].name;
}

static int slot_func(int s)
{
	return s == SLOT_USER ? -2 : islots[s].func;
}

/* ---- aggregates ----------------------------------------------------------- */
static uint64_t sum_key(int name, int acc, int type, uint32_t id)
{
	return (uint64_t)name << 40 | (uint64_t)acc << 32 | (uint64_t)type << 30 | id;
}

static struct stat *stat_of(int name, int acc)
{
	uint64_t *ix = map_slot(&stat_idx, (uint64_t)name << 8 | acc);

	if (!*ix) {
		if (nstats == capstats) {
			capstats = capstats ? 2 * capstats : 256;
			stats = realloc(stats, capstats * sizeof(*stats));
			if (!stats)
				die_oom();
		}
		stats[nstats] = (struct stat){ .name = name, .acc = acc };
		*ix = ++nstats;
	}
	return &stats[*ix - 1];
}

static void stat_push(int name, int acc, uint64_t v, uint32_t runs)
{
	struct stat *s = stat_of(name, acc);

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die_oom();
	}
	s->v[s->n++] = v;
	s->runs += runs;
}

/* ---- harvesting ----------------------------------------------------------- */

static void add_ent(struct sysrec *sc, int type, int acc, uint32_t id, uint64_t n)
{
	if (sc->nents == sc->capents) {
		sc->capents = sc->capents ? 2 * sc->capents : 256;
		sc->ents = realloc(sc->ents, sc->capents * sizeof(*sc->ents));
		if (!sc->ents)
			die_oom();
	}
	sc->ents[sc->nents++] = (struct ent){ .type = type, .acc = acc, .id = id, .n = n };
}

/* Give total instructions (their slots) to what is current on v. */
static void attribute(struct vcpu *v, uint64_t total, const struct delta *ds, int nd)
{
	if (!total)
		return;
	if (!v->depth) {
		int name = v->base == BASE_USER ? N_USER : N_UNSYNCED;

		if (v->base == BASE_USER) {
			g.ins_user += total;
			if (v->user_since >= 0)
				v->user_since += total;
		} else {
			g.ins_unsynced += total;
		}
		for (int i = 0; i < nd; i++)
			*map_slot(&sums, sum_key(name, ACC_WHOLE, 0, ds[i].id)) += ds[i].n;
		return;
	}
	struct frame *f = &v->st[v->depth - 1];

	if (f->type == FR_IRQ) {
		f->insns += total;
		g.ins_irq += total;
		for (int i = 0; i < nd; i++)
			*map_slot(&sums, sum_key(f->vector, ACC_WHOLE, 0, ds[i].id)) += ds[i].n;
		return;
	}
	struct sysrec *sc = &v->sc;
	int accs[MAX_ACC], na = 0;

	g.ins_syscall += total;
	accs[na++] = ACC_WHOLE;
	if (sf.sites_mode) {
		if (sc->window) {
			accs[na++] = ACC_TOTAL;
			if (!sc->open)
				accs[na++] = ACC_GAP;
			for (uint64_t o = sc->open; o; o &= o - 1)
				accs[na++] = __builtin_ctzll(o);
		} else {
			accs[na++] = sc->pending ? ACC_PENDING : ACC_OUTSIDE;
		}
	}
	for (int a = 0; a < na; a++) {
		sc->acc[accs[a]] += total;
		sc->entered[accs[a]] = true;
		for (int i = 0; i < nd; i++)
			add_ent(sc, 0, accs[a], ds[i].id, ds[i].n);
	}
}

static void harvest(struct vcpu *v)
{
	uint64_t total = 0;
	int nd = 0;

	for (int c = 0; c <= (nslots - 1) >> CHUNK_BITS; c++) {
		int first = c << CHUNK_BITS, end = nslots < first + CHUNK ? nslots : first + CHUNK;

		for (int b = 0; first + 64 * b < end; b++) {
			uint64_t *cn = cnt_chunk[c] + 64 * b;
			int n = end - (first + 64 * b) < 64 ? end - (first + 64 * b) : 64;

			if (!hint_chunk[c][b])
				continue;
			hint_chunk[c][b] = 0;
			for (int i = 0; i < n; i++) {
				if (!cn[i])
					continue;
				dslot[nd++] = (struct delta){ first + 64 * b + i, cn[i] };
				total += cn[i];
				cn[i] = 0;
			}
		}
	}
	attribute(v, total, dslot, nd);
}

/* ---- frames --------------------------------------------------------------- */
static bool want_sample(int name)
{
	if (samples_none)
		return false;
	if (!sample_names)
		return true;
	for (int i = 0; i < nsample_names; i++)
		if (!strcmp(sample_names[i], sf.names[name]))
			return true;
	return false;
}

static bool want_table(int name)
{
	if (!table_names)
		return true;
	for (int i = 0; i < ntable_names; i++)
		if (!strcmp(table_names[i], sf.names[name]))
			return true;
	return false;
}

static void write_sample(const struct sysrec *sc)
{
	bool first = true;

	sappend("sample %" PRIu64 " %s ", sc->seq, sf.names[sc->name]);
	for (int i = 0; i < NFLAGS; i++) {
		if (sc->flags & (1u << i)) {
			sappend("%s%s", first ? "" : ",", flag_names[i]);
			first = false;
		}
	}
	if (first)
		sappend("ok");
	if (sc->user_before >= 0)
		sappend(" user=%" PRId64, sc->user_before);
	else
		sappend(" user=-");
	sappend(" whole=%" PRIu64 " irq=%" PRIu64 " nirq=%" PRIu64,
		sc->acc[ACC_WHOLE], sc->irq, sc->nirq);
	if (sf.sites_mode) {
		sappend(" total=%" PRIu64 " gap=%" PRIu64 " outside=%" PRIu64,
			sc->acc[ACC_TOTAL], sc->acc[ACC_GAP], sc->acc[ACC_OUTSIDE]);
		for (int s = 0; s < sf.nstages; s++) {
			if (!sc->entered[s])
				continue;
			sappend(" s.%s=%" PRIu64, sf.stages[s].name, sc->acc[s]);
			if (sc->runs[s] != 1)
				sappend(" r.%s=%" PRIu32, sf.stages[s].name, sc->runs[s]);
		}
	}
	sappend("\n");
}

/* detail=: one syscall's whole instructions by function, merged */
static void write_detail(const struct sysrec *sc)
{
	struct map m = { 0 };

	/* keys: function index + 2 (user -2, unknown -1) */
	for (size_t i = 0; i < sc->nents; i++)
		if (sc->ents[i].type == 0 && sc->ents[i].acc == ACC_WHOLE)
			*map_slot(&m, slot_func(sc->ents[i].id) + 2) += sc->ents[i].n;
	for (size_t i = 0; i < m.cap; i++)
		if (m.k[i])
			sappend("detail %" PRIu64 " %s %s %" PRIu64 "\n", sc->seq, sf.names[sc->name],
				func_name((int)(m.k[i] - 1) - 2), m.v[i]);
	free(m.k);
	free(m.v);
}

/*
 * What ran since a restart's end: the restart stage's (and total's) if
 * another restart follows (several restarts in a row are one stage, from
 * the first begin to the last end), outside's if the syscall returns.
 */
static void settle_pending(struct sysrec *sc, int stage)
{
	size_t n = sc->nents;
	int to = stage >= 0 ? stage : ACC_OUTSIDE;

	if (!sc->pending)
		return;
	sc->pending = false;
	for (size_t i = 0; i < n; i++) {
		struct ent e = sc->ents[i];

		if (e.acc != ACC_PENDING)
			continue;
		sc->ents[i].acc = to;
		if (stage >= 0)
			add_ent(sc, e.type, ACC_TOTAL, e.id, e.n);
	}
	if (!sc->acc[ACC_PENDING])
		return;
	sc->acc[to] += sc->acc[ACC_PENDING];
	sc->entered[to] = true;
	if (stage >= 0)
		sc->acc[ACC_TOTAL] += sc->acc[ACC_PENDING];
	sc->acc[ACC_PENDING] = 0;
}

static void finish_syscall(struct vcpu *v, unsigned reason)
{
	struct sysrec *sc = &v->sc;

	settle_pending(sc, -1);
	sc->flags |= reason;
	g.syscalls++;
	if (sc->flags & F_SETAPART) {
		g.setapart++;
		for (int i = 0; i < NFLAGS; i++)
			if (reason & (1u << i))
				*map_slot(&sums, sum_key(sc->name, ACC_WHOLE, 2, i)) += 1;
	} else {
		for (int a = 0; a < nacc; a++)
			if (sc->entered[a])
				stat_push(sc->name, a, sc->acc[a], a < sf.nstages ? sc->runs[a] : 1);
		for (size_t i = 0; i < sc->nents; i++) {
			struct ent *e = &sc->ents[i];

			*map_slot(&sums, sum_key(sc->name, e->acc, e->type, e->id)) += e->n;
		}
	}
	if (want_sample(sc->name))
		write_sample(sc);
	for (int i = 0; i < ndetail; i++)
		if (detail_seqs[i] == sc->seq)
			write_detail(sc);
}

static void begin_syscall(struct vcpu *v)
{
	struct sysrec *sc = &v->sc;
	struct ent *ents = sc->ents;
	size_t cap = sc->capents;

	memset(sc, 0, sizeof(*sc));
	sc->ents = ents;
	sc->capents = cap;
	sc->seq = seq++;
	sc->name = 0;
	sc->user_before = v->base == BASE_USER ? v->user_since : -1;
	if (v->user_irq && sc->user_before >= 0)
		sc->flags |= F_GAPIRQ;
	v->st[0] = (struct frame){ .type = FR_SYSCALL };
	v->depth = 1;
}

/* every open frame ends without its return: a context switch, a desync */
static void abandon(struct vcpu *v, unsigned reason)
{
	for (int d = v->depth - 1; d >= 0; d--) {
		if (v->st[d].type == FR_SYSCALL)
			finish_syscall(v, reason);
		else
			g.abandoned_irqs++;
	}
	v->depth = 0;
	v->base = BASE_UNSYNCED;
	v->user_since = -1;
	v->user_irq = false;
}

static void enter_syscall(struct vcpu *v)
{
	if (v->depth) {
		g.desync++;
		abandon(v, F_DESYNC);
	}
	begin_syscall(v);
}

static void enter_irq(struct vcpu *v, int vector)
{
	if (v->depth == MAX_DEPTH) {
		g.overflow++;
		return;
	}
	if (!v->depth && v->base == BASE_USER)
		v->user_irq = true;
	v->st[v->depth++] = (struct frame){ .type = FR_IRQ, .vector = vector };
}

static void do_return(struct vcpu *v, const struct marker *m)
{
	struct frame *f;

	if (!v->depth) {
		g.unmatched_returns++;
		if (m->to_user && v->base == BASE_UNSYNCED) {
			/* sysret/rfscv only go to user mode: in step again */
			v->base = BASE_USER;
			v->user_since = 0;
			v->user_irq = false;
		}
		return;
	}
	f = &v->st[--v->depth];
	if (f->type == FR_IRQ) {
		g.irqs++;
		stat_push(f->vector, ACC_WHOLE, f->insns, 1);
		if (v->depth && v->st[0].type == FR_SYSCALL) {
			g.irqs_in_syscall++;
			v->sc.irq += f->insns;
			v->sc.nirq++;
			v->sc.flags |= F_IRQ;
		}
		return;
	}
	finish_syscall(v, 0);
	v->base = BASE_USER;
	v->user_since = 0;
	v->user_irq = false;
}

static void anomaly(struct sysrec *sc, uint64_t *counter)
{
	(*counter)++;
	sc->flags |= F_ANOMALY;
}

static void stage_begin(struct sysrec *sc, int s)
{
	uint64_t bit = 1ULL << s;

	if (sc->open & bit)
		anomaly(sc, &g.reopen);
	sc->open |= bit;
	sc->runs[s]++;
	sc->entered[s] = true;
}

static void stage_end(struct sysrec *sc, int s)
{
	uint64_t bit = 1ULL << s;

	if (!(sc->open & bit))
		anomaly(sc, &g.end_not_open);
	sc->open &= ~bit;
}

/* powerpc's syscall_exit_restart(): a DEFERRED stage after the syscall ended */
static void restart_begin(struct sysrec *sc, const struct marker *m)
{
	if (!sc->window_done) {
		g.ign_outside_window++;	/* the kernel restarts the exit of a staged syscall */
		return;
	}
	sc->window = true;
	sc->restart = true;
	if (!sc->restart_seen) {
		sc->restart_seen = true;
		sc->restart_stage = m->stage;
		stage_begin(sc, m->stage);
	} else {
		settle_pending(sc, sc->restart_stage);
		sc->open |= 1ULL << sc->restart_stage;
	}
}

static void syscall_end(struct sysrec *sc)
{
	if (sc->open) {
		g.unclosed += __builtin_popcountll(sc->open);
		sc->flags |= F_ANOMALY;
	}
	sc->open = 0;
	sc->window = false;
	sc->tail = false;
	sc->window_done = true;
}

/*
 * The site rules of include/linux/entry_stage.h, where every stamp but the
 * markers tests entry_stage_cur (set from the syscall begin to its end,
 * cleared by the tail begin): a site counts only in the syscall frame
 * (not in an interrupt) and inside the staged syscall's window.
 */
static void site_hit(struct vcpu *v, const struct marker *m)
{
	struct sysrec *sc = &v->sc;

	g.site_hits++;
	if (!v->depth || v->st[v->depth - 1].type != FR_SYSCALL) {
		g.ign_not_syscall++;	/* interrupt context, or not in step */
		return;
	}
	if (m->stage == STAGE_NONE && (m->flags & SF_SYSCALL_BEGIN)) {
		/* entry_stage_syscall_begin() */
		if (sc->window) {
			anomaly(sc, &g.begin_in_window);
			return;
		}
		if (sc->window_done)
			anomaly(sc, &g.window_reopened);
		sc->window = true;
		return;
	}
	if (!sc->window) {
		if (m->flags & SF_SYSCALL_BEGIN)
			restart_begin(sc, m);
		else
			g.ign_outside_window++;	/* SHARED sites outside a syscall, ... */
		return;
	}
	if (sc->restart) {
		/* entry_stage_restart_end(): the one site that counts in a restart */
		if (m->stage == sc->restart_stage && m->edge == EDGE_END &&
		    (m->flags & SF_SYSCALL_END)) {
			stage_end(sc, m->stage);
			sc->window = false;
			sc->restart = false;
			sc->pending = true;
		} else {
			g.ign_tail++;
		}
		return;
	}
	if (m->stage == STAGE_NONE) {
		/* entry_stage_tail_begin(): only the tail's end counts from here */
		if (sc->tail)
			g.ign_tail++;
		sc->tail = true;
		return;
	}
	/* entry_stage_tail_end(), entry_stage_restart_end(): SYSCALL_END, not SHARED */
	bool tail_end = (m->flags & SF_SYSCALL_END) && !(m->flags & SF_SHARED);

	if (sc->tail && !tail_end) {
		g.ign_tail++;
		return;
	}
	if (!sc->tail && tail_end) {
		anomaly(sc, &g.end_outside_tail);	/* the kernel ignores it */
		return;
	}
	if (m->flags & SF_SYSCALL_BEGIN) {
		anomaly(sc, &g.begin_in_window);	/* a restart inside the syscall */
		return;
	}
	/* entry_stage_agg_*(): the body's AGG stages count inside the body only */
	if ((m->flags & SF_AGG) && sf.stages[m->stage].phase == PH_BODY &&
	    !(sc->open & body_mask)) {
		g.ign_agg_outside_body++;
		return;
	}
	switch (m->edge) {
	case EDGE_BEGIN:
		stage_begin(sc, m->stage);
		break;
	case EDGE_END:
		stage_end(sc, m->stage);
		break;
	case EDGE_SWITCH:
		stage_end(sc, m->stage);
		stage_begin(sc, m->stage2);
		break;
	}
	if (m->flags & SF_SYSCALL_END)
		syscall_end(sc);
}

static void handler_hit(struct vcpu *v, const struct marker *m)
{
	struct sysrec *sc = &v->sc;

	if (!v->depth || v->st[v->depth - 1].type != FR_SYSCALL || sc->name)
		return;
	/* with a site table: only once the body has begun */
	if (sf.sites_mode && !(sc->open & body_mask))
		return;
	sc->name = m->handler;
}

static void on_marker(unsigned int cpu, void *udata)
{
	struct marker *m = udata;
	struct vcpu *v;
	struct delta self = { m->slot, 1 };

	if (cpu >= (unsigned)nvcpus)
		return;
	v = &vcpus[cpu];
	m->hits++;
	g.marker_hits++;
	harvest(v);
	/* transitions before the marker instruction */
	if (m->roles & R_SYSENTRY)
		enter_syscall(v);
	else if (m->roles & R_VECTOR)
		enter_irq(v, m->vector);
	if (m->roles & R_SWITCH) {
		g.switches++;
		abandon(v, F_SWITCHED);
	}
	attribute(v, 1, &self, 1);
	/* transitions after it */
	if (m->roles & R_HANDLER)
		handler_hit(v, m);
	if (m->roles & R_SITE)
		site_hit(v, m);
	if (m->roles & R_RETURN)
		do_return(v, m);
}

/* ---- translation ---------------------------------------------------------- */
/*
 * A NOP the kernel rewrote at boot (x86 alternatives turn "90 90 90" into
 * "0f 1f 00"; powerpc feature fixups) is still the marker: compare NOP
 * with NOP, everything else byte by byte.
 */
static bool is_nop(const uint8_t *p, size_t n)
{
	size_t i = 0;

	if (sf.arch == ARCH_PPC64)
		return n >= 4 && !memcmp(p, sf.big_endian ? "\x60\0\0\0" : "\0\0\0\x60", 4);
	while (i < n && p[i] == 0x66)
		i++;
	return (i < n && p[i] == 0x90 && i + 1 == n) ||
	       (i + 1 < n && p[i] == 0x0f && p[i + 1] == 0x1f);
}

/* x86 jmp rel8/rel32, powerpc b: a static branch that is taken */
static bool is_jump(const uint8_t *p, size_t n)
{
	uint32_t w;

	if (sf.arch == ARCH_X86_64)
		return n >= 2 && (p[0] == 0xe9 || p[0] == 0xeb);
	if (n < 4)
		return false;
	w = sf.big_endian ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
			    (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
	return w >> 26 == 18 && !(w & 3);
}

static bool marker_bytes_match(const struct marker *m, const uint8_t *p, size_t len)
{
	size_t c = len < (size_t)m->nbytes ? len : (size_t)m->nbytes;
	size_t first = 1;

	if (!memcmp(p, m->bytes, c))
		return true;
	if (armed_ok && (m->roles & R_SITE) && is_jump(p, len)) {
		g.sites_armed++;	/* its event is on: the jump is the site */
		return true;
	}
	if (!is_nop(p, len))
		return false;
	/* the expected bytes: the link-time instruction at the address is a NOP too */
	if (sf.arch == ARCH_PPC64)
		return is_nop(m->bytes, 4);
	while (first < (size_t)m->nbytes && m->bytes[first - 1] == 0x66)
		first++;
	if (m->bytes[first - 1] == 0x90)
		return true;	/* one-byte NOP (run), possibly after 0x66 */
	return m->nbytes >= 2 && is_nop(m->bytes, m->nbytes);
}

static void hexbytes(char *buf, size_t len, const uint8_t *p, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 3 <= len; i++)
		o += snprintf(buf + o, len - o, "%02x", p[i]);
}

static void check_disas(struct qemu_plugin_insn *insn, uint64_t a, const uint8_t *p,
			size_t n, int bk)
{
	char *d;
	int dk;

	if (map_find(&disas_seen, a))
		return;
	/*
	 * powerpc: only what is translated once the kernel is up.  Before the
	 * first syscall firmware and early boot run too, and they run big-endian
	 * (MSR[LE] clear), which the plugin, reading no registers, cannot know.
	 * powerpc's low real addresses are boot code before the vectors are
	 * there.
	 */
	if (sf.arch == ARCH_PPC64 && (!seq || a < sf.realmode_end)) {
		g.disas_skipped++;
		return;
	}
	*map_slot(&disas_seen, a) = 1;
	d = qemu_plugin_insn_disas(insn);
	if (!d)
		return;
	dk = kind_from_disas(sf.arch, d);
	if (dk == -3) {
		g.disas_undecodable++;
		g_free(d);
		return;
	}
	if (dk == -2) {
		g.disas_undecided++;
		/* an SPR alias: the bytes must say some mtspr/mfspr/mftb, or none */
		if (bk < 0 || !strncmp(kinds[bk].name, "mtspr.", 6) ||
		    !strncmp(kinds[bk].name, "mfspr.", 6) || !strcmp(kinds[bk].name, "mftb")) {
			g_free(d);
			return;
		}
	} else if (dk == bk) {
		g.disas_agree++;
		g_free(d);
		return;
	}
	g.disas_differ++;
	if (nddiff < (int)(sizeof(ddiff) / sizeof(*ddiff))) {
		struct disas_diff *x = &ddiff[nddiff++];

		x->addr = a;
		hexbytes(x->bytes, sizeof(x->bytes), p, n);
		snprintf(x->text, sizeof(x->text), "%s", d);
		for (char *c = x->text; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
		x->bk = bk;
		x->dk = dk;
	}
	g_free(d);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	int last_block = -1;

	(void)id;
	g.translations++;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn);
		const uint8_t *p = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		int kind = classify(sf.arch, sf.big_endian, p, len);
		uint64_t *mi = map_find(&markers, a), *ck = map_find(&calls, a);
		int slot = slot_of(a, kind, ck ? (int)*ck - 1 : -1);

		if (disas_check)
			check_disas(insn, a, p, len, kind);
		if (mi) {
			struct marker *m = &sf.markers[*mi - 1];

			if (marker_bytes_match(m, p, len)) {
				if (!m->checked) {
					m->checked = true;
					g.markers_seen++;
				}
				m->slot = slot;
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
								       QEMU_PLUGIN_CB_NO_REGS, m);
				last_block = -1;	/* it harvests: hint the next block again */
				continue;
			}
			/*
			 * Other code at the marker's address (powerpc boot code and
			 * firmware at the real-mode vector addresses before the kernel
			 * is there; a static-branch site that is a jmp because its event
			 * is on): not the marker, counted as a plain instruction.
			 */
			g.unarmed++;
			if (m->roles & R_SITE)
				g.site_mismatches++;
			if (!m->mismatch) {
				size_t c = len < (size_t)m->nbytes ? len : (size_t)m->nbytes;

				m->mismatch = true;
				memcpy(m->got, p, c);
			}
		}
		if (slot / 64 != last_block) {
			last_block = slot / 64;
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   slot_hint(slot), 1);
		}
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   slot_cnt(slot), 1);
	}
}

/* ---- output ---------------------------------------------------------------- */
static const char *acc_name(int a)
{
	if (a < sf.nstages)
		return sf.stages[a].name;
	if (a == ACC_WHOLE)
		return "whole";
	if (a == ACC_TOTAL)
		return "total";
	if (a == ACC_GAP)
		return "gap";
	return "outside";
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_stat(const void *a, const void *b)
{
	const struct stat *x = a, *y = b;
	int c = strcmp(sf.names[x->name], sf.names[y->name]);

	return c ? c : x->acc - y->acc;
}

struct row {
	int name, acc, type;
	uint32_t id;
	uint64_t n;
};

/* by name, account, type; then instruction slots by address, the rest by id */
static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(sf.names[x->name], sf.names[y->name]);

	if (c)
		return c;
	if (x->acc != y->acc)
		return x->acc - y->acc;
	if (x->type != y->type)
		return x->type - y->type;
	if (x->type == 0 && islots[x->id].addr != islots[y->id].addr)
		return islots[x->id].addr < islots[y->id].addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_slot_addr(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (islots[x].addr != islots[y].addr)
		return islots[x].addr < islots[y].addr ? -1 : 1;
	return x - y;
}

struct nrow {			/* a count of an id (kind, function + 2), sorted by count */
	int id;
	uint64_t n;
	const char *name;
};

static int cmp_nrow(const void *a, const void *b)
{
	const struct nrow *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->name && y->name)
		return strcmp(x->name, y->name);
	return x->id - y->id;
}

/* CRC-32 (IEEE 802.3, zlib's crc32()) of the output, for its "end" line */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c = 0xffffffff;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t r = i;

			for (int k = 0; k < 8; k++)
				r = r & 1 ? 0xedb88320 ^ (r >> 1) : r >> 1;
			table[i] = r;
		}
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffff;
}

/*
 * One name x account's instruction slots (rows[i..j), type 0): its kinds,
 * classes and functions.  The insn/at lines come after every table.
 */
static void write_group(FILE *f, const struct row *r, size_t n, struct nrow *kn, struct nrow *fn,
			struct map *fidx)
{
	const char *name = sf.names[r[0].name], *acc = acc_name(r[0].acc);
	uint64_t cls[MIX_NCLASSES] = { 0 };
	size_t nf = 0;
	int rank = 0;

	for (int k = 0; k < nkinds; k++)
		kn[k] = (struct nrow){ .id = k };
	for (size_t i = 0; i < n; i++) {
		const struct islot *is = &islots[r[i].id];
		uint64_t *fi = map_slot(fidx, slot_func(r[i].id) + 2);

		if (r[i].id != SLOT_USER && is->kind >= 0)
			kn[is->kind].n += r[i].n;
		if (r[i].id != SLOT_USER && is->callkind >= 0)
			kn[is->callkind].n += r[i].n;
		if (!*fi) {
			fn[nf] = (struct nrow){ .id = slot_func(r[i].id),
						.name = func_name(slot_func(r[i].id)) };
			*fi = ++nf;
		}
		fn[*fi - 1].n += r[i].n;
	}
	qsort(kn, nkinds, sizeof(*kn), cmp_nrow);
	for (int k = 0; k < nkinds && kn[k].n; k++) {
		fprintf(f, "kinds %s %s %s %" PRIu64 "\n", name, acc, kinds[kn[k].id].name, kn[k].n);
		for (int c = 0; c < MIX_NCLASSES; c++)
			if (kinds[kn[k].id].classes & (1u << c))
				cls[c] += kn[k].n;
	}
	for (int c = 0; c < MIX_NCLASSES; c++)
		if (cls[c])
			fprintf(f, "class %s %s %s %" PRIu64 "\n", name, acc, class_names[c], cls[c]);
	qsort(fn, nf, sizeof(*fn), cmp_nrow);
	for (size_t i = 0; i < nf && (!topk || rank < topk); i++)
		fprintf(f, "func %s %s %d %s %" PRIu64 "\n", name, acc, ++rank, fn[i].name, fn[i].n);
	for (size_t i = 0; i < fidx->cap; i++)
		fidx->k[i] = 0;
	fidx->n = 0;
}

static int write_body(FILE *f)
{
	struct row *rows;
	size_t nrows = 0;
	uint64_t mism = 0;
	struct nrow *kn, *fn;
	struct map fidx = { 0 };
	int *ids, nids = 0;

	fprintf(f, "entrytrace-mix %d\n", OUTPUT_VERSION);
	fprintf(f, "arch %s\n", sf.arch_name);
	fprintf(f, "build_id %s\n", sf.build_id);
	fprintf(f, "sites_sha256 %s\n", sf.sites_sha[0] ? sf.sites_sha : "none");
	fprintf(f, "table_hash %s\n", sf.table_hash);
	fprintf(f, "mode %s\n", sf.sites_mode ? "sites" : "fallback");
	fprintf(f, "naming first-handler-entry%s\n", sf.sites_mode ? "-in-body" : "");
	fprintf(f, "vcpus %d\n", nvcpus);
	fprintf(f, "qemu_api %d %d\n", qemu_api_min, qemu_api_cur);
	fprintf(f, "samples %s\n", samples_arg);
	fprintf(f, "tables %s\n", tables_arg);
	fprintf(f, "calls %s\n", calls_arg);
	fprintf(f, "armed %s\n", armed_ok ? "ok" : "no");
	if (topk)
		fprintf(f, "functions top %d\n", topk);
	else
		fprintf(f, "functions all\n");
	for (int a = 0; a < nacc; a++)
		if (sf.sites_mode || a == ACC_WHOLE)
			fprintf(f, "account %d %s %s\n", a, acc_name(a),
				a < sf.nstages ? (sf.stages[a].parent >= 0 ?
						  sf.stages[sf.stages[a].parent].name : "-") : "-");
	for (int k = 0; k < nkinds; k++) {
		fprintf(f, "kind %d %s ", k, kinds[k].name);
		bool first = true;

		for (int c = 0; c < MIX_NCLASSES; c++)
			if (kinds[k].classes & (1u << c)) {
				fprintf(f, "%s%s", first ? "" : ",", class_names[c]);
				first = false;
			}
		fprintf(f, "%s\n", first ? "-" : "");
	}
#define COUNT(x) fprintf(f, "count %s %" PRIu64 "\n", #x, g.x)
	COUNT(syscalls); COUNT(setapart); COUNT(switches); COUNT(desync);
	COUNT(unmatched_returns); COUNT(abandoned_irqs); COUNT(irqs); COUNT(irqs_in_syscall);
	COUNT(overflow); COUNT(ins_user); COUNT(ins_unsynced); COUNT(ins_syscall); COUNT(ins_irq);
	COUNT(site_hits); COUNT(ign_not_syscall); COUNT(ign_outside_window); COUNT(ign_tail);
	COUNT(ign_agg_outside_body);
	COUNT(reopen); COUNT(end_not_open); COUNT(unclosed); COUNT(begin_in_window);
	COUNT(window_reopened); COUNT(end_outside_tail);
	COUNT(marker_hits); COUNT(markers_seen); COUNT(unarmed);
	COUNT(site_mismatches);
	if (armed_ok)
		COUNT(sites_armed);
	COUNT(translations);
	if (disas_check) {
		COUNT(disas_agree); COUNT(disas_differ); COUNT(disas_undecided);
		COUNT(disas_undecodable); COUNT(disas_skipped);
	}
#undef COUNT
	fprintf(f, "count slots %d\n", nslots);
	for (size_t i = 0; i < sf.nmarkers; i++) {
		struct marker *m = &sf.markers[i];
		char want[40] = "", got[40] = "";

		if (!m->mismatch)
			continue;
		mism++;
		hexbytes(want, sizeof(want), m->bytes, m->nbytes);
		hexbytes(got, sizeof(got), m->got, m->nbytes);
		fprintf(f, "unarmed %#" PRIx64 " %x %s %s\n", m->addr, m->roles, want, got);
	}
	for (int i = 0; i < nddiff; i++)
		fprintf(f, "disas_diff %#" PRIx64 " %s %s bytes=%s disas=%s\n", ddiff[i].addr,
			ddiff[i].bytes, ddiff[i].text,
			ddiff[i].bk >= 0 ? kinds[ddiff[i].bk].name : "-",
			ddiff[i].dk >= 0 ? kinds[ddiff[i].dk].name : ddiff[i].dk == -2 ? "spr?" : "-");
	/* markers by role: how often each kind of marker ran */
	{
		static const char *const rn[] = { "sysentry", "vector", "return", "switch",
						  "handler", "site" };
		uint64_t listed[6] = { 0 }, seen[6] = { 0 }, hits[6] = { 0 };

		for (size_t i = 0; i < sf.nmarkers; i++)
			for (int r = 0; r < 6; r++)
				if (sf.markers[i].roles & (1u << r)) {
					listed[r]++;
					seen[r] += sf.markers[i].checked;
					hits[r] += sf.markers[i].hits;
				}
		for (int r = 0; r < 6; r++)
			fprintf(f, "markers %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", rn[r],
				listed[r], seen[r], hits[r]);
	}

	if (nstats)
		qsort(stats, nstats, sizeof(*stats), cmp_stat);
	for (size_t i = 0; i < nstats; i++) {
		struct stat *s = &stats[i];
		uint64_t sum = 0;

		qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
		for (size_t j = 0; j < s->n; j++)
			sum += s->v[j];
		fprintf(f, "stat %s %s %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.1f %" PRIu64 "\n",
			sf.names[s->name], acc_name(s->acc), s->n, s->runs, sum, s->v[0],
			s->v[(s->n - 1) / 2], (double)sum / s->n, s->v[s->n - 1]);
	}

	rows = malloc((sums.n + 1) * sizeof(*rows));
	kn = malloc((nkinds + 1) * sizeof(*kn));
	fn = malloc((sf.nfuncs + 2) * sizeof(*fn));
	ids = malloc((nslots + 1) * sizeof(*ids));
	if (!rows || !kn || !fn || !ids)
		die_oom();
	for (size_t i = 0; i < sums.cap; i++) {
		uint64_t k;

		if (!sums.k[i])
			continue;
		k = sums.k[i] - 1;
		if ((k >> 30 & 3) != 2 && !want_table(k >> 40))
			continue;
		rows[nrows++] = (struct row){ .name = k >> 40, .acc = (k >> 32) & 0xff,
					      .type = (k >> 30) & 3, .id = k & 0x3fffffff,
					      .n = sums.v[i] };
	}
	if (nrows)
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	/* kinds, classes and functions, per name x account */
	for (size_t i = 0; i < nrows;) {
		size_t j = i;

		while (j < nrows && rows[j].name == rows[i].name && rows[j].acc == rows[i].acc &&
		       rows[j].type == rows[i].type)
			j++;
		if (rows[i].type == 0)
			write_group(f, rows + i, j - i, kn, fn, &fidx);
		i = j;
	}
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].type == 2)
			fprintf(f, "setapart %s %s %" PRIu64 "\n", sf.names[rows[i].name],
				flag_names[rows[i].id], rows[i].n);
	/*
	 * The instructions the tables counted, by address (insn ID ADDR
	 * FUNC+OFF KINDS), then how often each ran per name x account.
	 */
	for (int s = 0; s < nslots; s++)
		ids[s] = -1;
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].type == 0 && rows[i].id != SLOT_USER)
			ids[rows[i].id] = 0;
	{
		int *order = malloc((nslots + 1) * sizeof(*order)), no = 0;

		if (!order)
			die_oom();
		for (int s = 0; s < nslots; s++)
			if (!ids[s])
				order[no++] = s;
		/* slots were handed out in translation order: sort by address */
		qsort(order, no, sizeof(*order), cmp_slot_addr);
		for (int o = 0; o < no; o++) {
			const struct islot *is = &islots[order[o]];

			ids[order[o]] = nids++;
			fprintf(f, "insn %d %#" PRIx64 " ", ids[order[o]], is->addr);
			if (is->func >= 0)
				fprintf(f, "%s+%#" PRIx64, sf.funcs[is->func].name,
					is->addr - sf.funcs[is->func].addr);
			else
				fprintf(f, "-");
			fprintf(f, " %s%s%s\n", is->kind >= 0 ? kinds[is->kind].name : "-",
				is->callkind >= 0 ? "," : "",
				is->callkind >= 0 ? kinds[is->callkind].name : "");
		}
		free(order);
	}
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].type == 0 && rows[i].id != SLOT_USER)
			fprintf(f, "at %s %s %d %" PRIu64 "\n", sf.names[rows[i].name],
				acc_name(rows[i].acc), ids[rows[i].id], rows[i].n);
	free(rows);
	free(kn);
	free(fn);
	free(ids);
	free(fidx.k);
	free(fidx.v);
	if (nsamp)
		fwrite(samp, 1, nsamp, f);
	return (int)mism;
}

static void write_output(void)
{
	char tmp[4096], *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *mem = open_memstream(&buf, &len), *f;
	int mism;

	if (!mem)
		die_oom();
	mism = write_body(mem);
	if (fclose(mem))
		die_oom();
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, PLUGIN_NAME ": %s: %s\n", tmp, strerror(errno));
		free(buf);
		return;
	}
	/* what comes before it: its lines and their CRC-32 */
	fwrite(buf, 1, len, f);
	fprintf(f, "end %zu %08" PRIx32 "\n", lines, crc32_of((unsigned char *)buf, len));
	free(buf);
	if (fclose(f) || rename(tmp, out_path)) {
		fprintf(stderr, PLUGIN_NAME ": writing %s: %s\n", out_path, strerror(errno));
		return;
	}
	fprintf(stderr, PLUGIN_NAME ": %" PRIu64 " syscalls (%" PRIu64 " set apart), %" PRIu64
		" interrupts, %d markers with other code at their address (%" PRIu64
		" sites), %d instruction addresses -> %s\n", g.syscalls, g.setapart, g.irqs, mism,
		g.site_mismatches, nslots - SLOT_FIRST, out_path);
	if (!g.syscalls)
		fprintf(stderr, PLUGIN_NAME ": no syscall matched: no marker of the site file ran "
			"(wrong kernel, or no syscall made?)\n");
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	for (int i = 0; i < nvcpus; i++) {
		harvest(&vcpus[i]);
		if (vcpus[i].depth && vcpus[i].st[0].type == FR_SYSCALL)
			finish_syscall(&vcpus[i], F_UNFINISHED);
		vcpus[i].depth = 0;
	}
	write_output();
}

/* ---- install ----------------------------------------------------------------- */
static int refuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PLUGIN_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return -1;
}

ET_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				       int argc, char **argv)
{
	char err[512];
	const char *samples = NULL;

	if (info->version.min > ET_QEMU_PLUGIN_VERSION ||
	    info->version.cur < ET_QEMU_PLUGIN_VERSION)
		return refuse("written for QEMU plugin API version %d; this QEMU offers %d..%d",
			      ET_QEMU_PLUGIN_VERSION, info->version.min, info->version.cur);
	qemu_api_min = info->version.min;
	qemu_api_cur = info->version.cur;
	if (!info->system_emulation)
		return refuse("needs system emulation (qemu-system-*), not user mode");
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		/* QEMU before 6.1 and "arg=..." pass key=value as the value of arg */
		if (!strncmp(a, "arg=", 4))
			a += 4;
		if (!strncmp(a, "sites=", 6)) {
			sites_path = strdup(a + 6);
		} else if (!strncmp(a, "out=", 4)) {
			out_path = strdup(a + 4);
		} else if (!strncmp(a, "samples=", 8)) {
			samples = samples_arg = a + 8;
		} else if (!strncmp(a, "tables=", 7)) {
			char *t = strdup(a + 7), *save = NULL;

			tables_arg = a + 7;
			for (char *n = strtok_r(t, ":", &save); n; n = strtok_r(NULL, ":", &save)) {
				table_names = realloc(table_names, (ntable_names + 1) * sizeof(char *));
				if (!table_names)
					die_oom();
				table_names[ntable_names++] = n;
			}
			if (!ntable_names)
				return refuse("tables=%s: no syscall name", a + 7);
		} else if (!strcmp(a, "topk=all")) {
			topk = 0;
		} else if (!strncmp(a, "topk=", 5)) {
			char *end;
			long v = strtol(a + 5, &end, 10);

			if (*end || v < 1 || v > 1000)
				return refuse("topk=%s: want a number from 1 to 1000, or all", a + 5);
			topk = v;
		} else if (!strncmp(a, "detail=", 7)) {
			char *d = strdup(a + 7), *save = NULL, *end;

			for (char *t = strtok_r(d, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
				detail_seqs = realloc(detail_seqs, (ndetail + 1) * sizeof(*detail_seqs));
				if (!detail_seqs)
					die_oom();
				detail_seqs[ndetail++] = strtoull(t, &end, 10);
				if (*end || !*t)
					return refuse("detail=%s: want syscall sequence numbers, "
						      "SEQ:SEQ...", a + 7);
			}
			free(d);
		} else if (!strncmp(a, "calls=", 6)) {
			char *t = strdup(a + 6), *save = NULL;

			calls_arg = a + 6;
			for (char *n = strtok_r(t, ":", &save); n; n = strtok_r(NULL, ":", &save)) {
				call_names = realloc(call_names, (ncall_names + 1) * sizeof(char *));
				if (!call_names)
					die_oom();
				call_names[ncall_names++] = n;
			}
			if (!ncall_names)
				return refuse("calls=%s: no function name", a + 6);
		} else if (!strcmp(a, "armed=ok")) {
			armed_ok = true;
		} else if (!strncmp(a, "armed=", 6)) {
			return refuse("armed=%s: the only value is ok", a + 6);
		} else if (!strcmp(a, "disas=check")) {
			disas_check = true;
		} else if (!strncmp(a, "disas=", 6)) {
			return refuse("disas=%s: the only value is check", a + 6);
		} else {
			return refuse("unknown argument '%s' (sites=FILE out=FILE [samples=all|none|"
				      "NAME:NAME...] [tables=NAME:NAME...] [topk=N|all] [detail=SEQ:SEQ...] "
				      "[calls=FUNC:FUNC...] [armed=ok] [disas=check])", a);
		}
	}
	if (!sites_path || !*sites_path)
		return refuse("sites=FILE missing (the site file of scripts/kernel/kernel-sites)");
	if (!out_path || !*out_path)
		return refuse("out=FILE missing (where the counts go)");
	if (sitefile_read(sites_path, &sf, err, sizeof(err)))
		return refuse("%s", err);
	if (strcmp(info->target_name, sf.arch == ARCH_X86_64 ? "x86_64" : sf.ppc32 ? "ppc" : "ppc64"))
		return refuse("%s is a site file for %s, this QEMU emulates %s", sites_path,
			      sf.arch_name, info->target_name);
	if (info->system.smp_vcpus != 1)
		return refuse("-smp %d: plugin API v1 has no per-vCPU inline counters, so the "
			      "counts of several vCPUs would mix; run with -smp 1",
			      info->system.smp_vcpus);
	if (samples && !strcmp(samples, "none")) {
		samples_none = true;
	} else if (samples && strcmp(samples, "all")) {
		char *s = strdup(samples), *save = NULL;

		for (char *t = strtok_r(s, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
			sample_names = realloc(sample_names, (nsample_names + 1) * sizeof(char *));
			if (!sample_names)
				die_oom();
			sample_names[nsample_names++] = t;
		}
		if (!nsample_names)
			return refuse("samples=%s: no syscall name", samples);
	}
	/* check that out= can be written now, not at exit */
	{
		char tmp[4096];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
		f = fopen(tmp, "w");
		if (!f)
			return refuse("out=%s: %s", out_path, strerror(errno));
		fclose(f);
		remove(tmp);
	}

	classify_init(sf.arch);
	/*
	 * calls=: each function's entry instruction counts as a kind of class
	 * call (ELFv2: the local entry point, which calls through the global
	 * entry reach too), so that the tables say how often it was called.
	 */
	for (int i = 0; i < ncall_names; i++) {
		char kname[sizeof(kinds[0].name)];
		size_t f;
		int k;

		for (f = 0; f < sf.nfuncs; f++)
			if (!strcmp(sf.funcs[f].name, call_names[i]))
				break;
		if (f == sf.nfuncs)
			return refuse("calls=%s: no function %s in the site file", calls_arg,
				      call_names[i]);
		snprintf(kname, sizeof(kname), "call:%s", call_names[i]);
		k = classify_add_kind(kname, C_CALL);
		if (k < 0)
			return refuse("calls=%s: too many instruction kinds", calls_arg);
		*map_slot(&calls, sf.funcs[f].addr + sf.funcs[f].lep) = k + 1;
	}
	nacc = sf.nstages + 4;
	ACC_WHOLE = sf.nstages;
	ACC_TOTAL = sf.nstages + 1;
	ACC_GAP = sf.nstages + 2;
	ACC_OUTSIDE = sf.nstages + 3;
	ACC_PENDING = sf.nstages + 4;	/* not written: settled into others */
	for (int s = 0; s < sf.nstages; s++)
		if (sf.stages[s].body)
			body_mask |= 1ULL << s;
	if (sf.sites_mode && !body_mask)
		return refuse("%s: no BODY stage without a parent: cannot name syscalls",
			      sites_path);
	N_USER = intern(&sf, "[user]");
	N_UNSYNCED = intern(&sf, "[unsynced]");
	new_slot(0, -1, -1, -1);	/* SLOT_USER */
	nvcpus = info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
	vcpus = calloc(nvcpus, sizeof(*vcpus));
	if (!vcpus)
		die_oom();
	for (int i = 0; i < nvcpus; i++) {
		vcpus[i].base = BASE_UNSYNCED;
		vcpus[i].user_since = -1;
	}
	for (size_t i = 0; i < sf.nmarkers; i++)
		*map_slot(&markers, sf.markers[i].addr) = i + 1;

	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	fprintf(stderr, PLUGIN_NAME ": %s, %s mode, %zu markers (%zu sites), %zu functions, "
		"build id %s\n", sf.arch_name, sf.sites_mode ? "sites" : "fallback",
		sf.nmarkers, sf.nsites, sf.nfuncs, sf.build_id);
	return 0;
}
