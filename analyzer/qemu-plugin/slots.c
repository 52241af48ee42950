// SPDX-License-Identifier: GPL-2.0
/* Instruction slots, the functions they are in, and the per-syscall aggregates. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

static bool is_kernel(uint64_t a)
{
	if (P.sf.arch == ARCH_X86_64)
		return a >= 0xffff800000000000ULL;
	return a >= P.sf.page_offset || a < P.sf.realmode_end;
}

/* powerpc real mode runs the kernel's code at its physical address */
static uint64_t virt(uint64_t a)
{
	if (P.sf.arch == ARCH_PPC64 && a < P.sf.realmode_end)
		return a + P.sf.page_offset;
	return a;
}

static int func_at(uint64_t a)
{
	size_t lo = 0, hi = P.sf.nfuncs;

	a = virt(a);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (P.sf.funcs[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a >= P.sf.funcs[lo - 1].addr + P.sf.funcs[lo - 1].size)
		return -1;
	return lo - 1;
}

uint64_t *slot_cnt(int s)
{
	return &P.cnt_chunk[s >> CHUNK_BITS][s & (CHUNK - 1)];
}

uint64_t *slot_met(int s)
{
	return &P.met_chunk[s >> CHUNK_BITS][(size_t)(s & (CHUNK - 1)) * NMET];
}

uint64_t *slot_hint(int s)
{
	return &P.hint_chunk[s >> CHUNK_BITS][(s & (CHUNK - 1)) / 64];
}

int new_slot(uint64_t addr, int func, int kind, int callkind)
{
	int c = P.nslots >> CHUNK_BITS;

	if (c >= MAX_CHUNKS) {
		fprintf(stderr, PLUGIN_NAME ": more than %d instruction addresses\n",
			MAX_CHUNKS * CHUNK);
		abort();
	}
	if (!P.cnt_chunk[c]) {
		P.cnt_chunk[c] = calloc(CHUNK, sizeof(uint64_t));
		P.hint_chunk[c] = calloc(CHUNK / 64, sizeof(uint64_t));
		if (!P.cnt_chunk[c] || !P.hint_chunk[c])
			die_oom();
		if (P.model && !(P.met_chunk[c] = calloc((size_t)CHUNK * NMET, sizeof(uint64_t))))
			die_oom();
	}
	if (P.nslots == P.capislots) {
		P.capislots = P.capislots ? 2 * P.capislots : CHUNK;
		P.islots = realloc(P.islots, P.capislots * sizeof(*P.islots));
		P.dslot = realloc(P.dslot, P.capislots * sizeof(*P.dslot));
		if (!P.islots || !P.dslot)
			die_oom();
		if (P.model && !(P.dmet = realloc(P.dmet, P.capislots * sizeof(*P.dmet))))
			die_oom();
	}
	P.islots[P.nslots] = (struct islot){ .addr = addr, .func = func, .kind = kind,
					 .callkind = callkind, .next = -1 };
	return P.nslots++;
}

/*
 * The slot of the instruction at a: one per kernel address and kind (the
 * bytes at an address change: powerpc's boot code and firmware run at the
 * vector addresses before the kernel's vectors are there), one for user space.
 */
int slot_of(uint64_t a, int kind, int callkind)
{
	uint64_t *first;
	int s, last = -1;

	if (!is_kernel(a))
		return SLOT_USER;
	a = virt(a);
	first = map_slot(&P.slot_at, a);
	for (s = *first ? (int)*first - 1 : -1; s >= 0; s = P.islots[s].next) {
		if (P.islots[s].kind == kind && P.islots[s].callkind == callkind)
			return s;
		last = s;
	}
	s = new_slot(a, func_at(a), kind, callkind);
	if (last >= 0)
		P.islots[last].next = s;
	else
		*map_slot(&P.slot_at, a) = s + 1;	/* (new_slot may not move the map) */
	return s;
}

/* a function index as a name: the function, [user] or [unknown] */
const char *func_name(int f)
{
	if (f == -2)
		return "[user]";
	return f < 0 ? "[unknown]" : P.sf.funcs[f].name;
}

int slot_func(int s)
{
	return s == SLOT_USER ? -2 : P.islots[s].func;
}

/* ---- aggregates ----------------------------------------------------------- */
uint64_t sum_key(int name, int acc, int type, uint32_t id)
{
	return (uint64_t)name << 40 | (uint64_t)acc << 32 | (uint64_t)type << 30 | id;
}

static struct stat *stat_of(int name, int acc)
{
	uint64_t *ix = map_slot(&P.stat_idx, (uint64_t)name << 8 | acc);

	if (!*ix) {
		if (P.nstats == P.capstats) {
			P.capstats = P.capstats ? 2 * P.capstats : 256;
			P.stats = realloc(P.stats, P.capstats * sizeof(*P.stats));
			if (!P.stats)
				die_oom();
		}
		P.stats[P.nstats] = (struct stat){ .name = name, .acc = acc };
		*ix = ++P.nstats;
	}
	return &P.stats[*ix - 1];
}

void stat_push(int name, int acc, uint64_t v, uint32_t runs)
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

void stat_push_met(int name, int acc, const uint64_t *m)
{
	met_add(stat_of(name, acc)->m, m);
}

/* The timing model's sums beside P.sums: the NMET counters of a key. */
uint64_t *msum_of(uint64_t key)
{
	uint64_t *ix = map_slot(&P.msums, key);

	if (!*ix) {
		if (P.nmvals == P.capmvals) {
			P.capmvals = P.capmvals ? 2 * P.capmvals : 4096;
			P.mvals = realloc(P.mvals, P.capmvals * sizeof(*P.mvals));
			if (!P.mvals)
				die_oom();
		}
		memset(P.mvals[P.nmvals], 0, sizeof(P.mvals[0]));
		*ix = ++P.nmvals;
	}
	return P.mvals[*ix - 1];
}
