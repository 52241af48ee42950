// SPDX-License-Identifier: GPL-2.0
/*
 * The timing model (model=FILE; Documentation/cycles-model.md): a cycle
 * estimate beside every instruction count, from a CPU's parameter file.
 *
 * Per instruction a base cost (cpi.base, plus kind.KIND for the kinds of
 * classify.c); per memory access set-associative LRU caches (L1D, L2, an
 * optional L3 that may be a victim cache of L2) and an optional data TLB;
 * per executed translation block its instruction fetches through L1I and
 * the same L2/L3; a store queue whose stores complete in order at their
 * own latency (at most sq.mlp misses in flight), which the drain kinds
 * (hwsync, mfence, locked instructions: the file's "drain" line) wait for.
 * A load costs load.exposed x lat.l1d, and a miss (lat.LEVEL - lat.l1d) x
 * miss.exposed more; a fetch that misses L1I lat.LEVEL x ifetch.exposed.
 *
 * Every cost parameter has a low end, a middle and a high end; the model
 * runs at the three at once (NPOINTS clocks and store queues, the same
 * caches: the geometry is one value), so every figure is a range.  Costs
 * are kept in ticks (TICKS per cycle) until written.  The state is per
 * vCPU (the callbacks' vcpu index); the plugin runs one vCPU.
 *
 * What ran where comes from the plugin's slots: an instruction's base cost
 * is an inline add to its slot's counters (as its count is), a penalty is
 * added by the callbacks, and harvest() hands both to the frames.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "mix-write.h"

/*
 * GEOM: one whole number (the caches are shared by the three points); COST
 * and FRAC (0..1): the higher, the more cycles; INV: a whole number whose
 * low end is the high-cycle end (a smaller store queue stalls more), so the
 * low point takes its high end.
 */
enum ptype { PT_GEOM, PT_COST, PT_FRAC, PT_INV };

static const struct pdef {
	const char *key;
	enum ptype type;
	bool required;
} pdefs[] = {
	{ "clock.ghz", PT_COST, true },
	{ "cpi.base", PT_COST, true },
	{ "l1i.size", PT_GEOM, true }, { "l1i.ways", PT_GEOM, true }, { "l1i.line", PT_GEOM, true },
	{ "l1d.size", PT_GEOM, true }, { "l1d.ways", PT_GEOM, true }, { "l1d.line", PT_GEOM, true },
	{ "l2.size", PT_GEOM, true }, { "l2.ways", PT_GEOM, false }, { "l2.line", PT_GEOM, false },
	{ "l3.size", PT_GEOM, true }, { "l3.ways", PT_GEOM, false }, { "l3.line", PT_GEOM, false },
	{ "l3.victim", PT_GEOM, false },
	{ "lat.l1d", PT_COST, true }, { "lat.l2", PT_COST, false }, { "lat.l3", PT_COST, false },
	{ "lat.mem", PT_COST, true },
	{ "load.exposed", PT_FRAC, true }, { "miss.exposed", PT_FRAC, true },
	{ "ifetch.exposed", PT_FRAC, true },
	{ "tlb.entries", PT_GEOM, true }, { "tlb.ways", PT_GEOM, false },
	{ "tlb.page", PT_GEOM, false }, { "tlb.miss", PT_COST, false },
	{ "sq.entries", PT_INV, true }, { "sq.mlp", PT_INV, true }, { "sq.hit", PT_COST, true },
};
#define NPDEFS (sizeof(pdefs) / sizeof(*pdefs))

struct pval {
	bool set;
	double v[NPOINTS];	/* low end, middle, high end */
};

struct kparam {
	char name[MIX_KIND_NAME];
	double v[NPOINTS];
};

struct cache {
	uint32_t sets, ways, shift;
	uint64_t *t;		/* sets x ways line tags + 1, most recent first; 0: empty */
};

struct sq {
	uint64_t *done;		/* completion times of the stores in flight, oldest first */
	uint32_t head, n;
	uint64_t last;		/* the last store's completion */
};

struct mvcpu {
	uint64_t clock[NPOINTS];
	struct cache l1i, l1d, l2, l3, tlb;
	struct sq sq[NPOINTS];
};

/* a translation block's instruction fetches: its distinct lines, each with its first slot */
struct mtb {
	uint32_t base[NPOINTS];
	uint32_t n;
	struct mline {
		uint64_t key;
		int slot;
	} l[];
};

struct model {
	char name[64];
	char target[16];
	char hash[24];
	struct pval p[NPDEFS];
	struct kparam *kp;
	int nkp;
	int drain[MIX_MAX_KINDS];	/* kind ids the drain line names */
	int ndrain;
	char drain_names[512];
	bool has_l2, has_l3, l3_victim, has_tlb;
	uint32_t tlb_shift;
	uint32_t sq_entries[NPOINTS], sq_mlp[NPOINTS], sq_cap;
	/* ticks per point */
	uint32_t cpi[NPOINTS];
	uint64_t ld[5][NPOINTS];	/* a load that hit level 1..4 (4: memory) */
	uint64_t st[5][NPOINTS];	/* a store's time in the queue */
	uint64_t ifetch[5][NPOINTS];	/* a fetch that hit level 1..4 */
	uint64_t tlbmiss[NPOINTS];
	uint64_t sqhit[NPOINTS];
	/* per kind id: its extra cost, resolved at first use (-1: not yet) */
	int64_t kcost[MIX_MAX_KINDS][NPOINTS];
	bool kresolved[MIX_MAX_KINDS];
	bool kdrain[MIX_MAX_KINDS];
	struct mvcpu *cpu;
	int ncpu;
	struct map tbs;			/* hash of a block's lines -> mtb list index + 1 */
	struct mtb **tbl;
	size_t ntbl, captbl;
	/* counts */
	uint64_t loads, stores, io, tb_execs, drains, other_vcpu, stall_ticks, drain_ticks;
};

static int pidx(const char *key)
{
	for (size_t i = 0; i < NPDEFS; i++)
		if (!strcmp(pdefs[i].key, key))
			return (int)i;
	return -1;
}

static double pv(const struct model *mo, const char *key, int point)
{
	int i = pidx(key);

	return i >= 0 && mo->p[i].set ? mo->p[i].v[point] : 0;
}

static bool pset(const struct model *mo, const char *key)
{
	int i = pidx(key);

	return i >= 0 && mo->p[i].set;
}

static uint64_t ticks(double cycles)
{
	return cycles <= 0 ? 0 : (uint64_t)llround(cycles * TICKS);
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int cache_init(struct cache *c, uint64_t size, uint64_t ways, uint64_t line)
{
	uint32_t shift = 0;

	if (!pow2(line) || !ways || size % (ways * line))
		return -1;
	while ((1ULL << shift) < line)
		shift++;
	c->shift = shift;
	c->ways = (uint32_t)ways;
	c->sets = (uint32_t)(size / (ways * line));
	if (!c->sets)
		return -1;
	c->t = calloc((size_t)c->sets * c->ways, sizeof(*c->t));
	if (!c->t)
		die_oom();
	return 0;
}

/*
 * Look the line of addr up, LRU; on a miss insert it.  *evicted: the
 * address of the line it pushed out, 0 if none.  Returns true on a hit.
 */
static bool cache_access(struct cache *c, uint64_t addr, uint64_t *evicted)
{
	uint64_t tag = (addr >> c->shift) + 1;
	uint64_t *s = c->t + (size_t)((tag - 1) % c->sets) * c->ways;
	uint32_t i;

	if (evicted)
		*evicted = 0;
	if (s[0] == tag)
		return true;
	for (i = 1; i < c->ways && s[i] != tag; i++)
		;
	if (i == c->ways) {
		if (evicted && s[c->ways - 1])
			*evicted = (s[c->ways - 1] - 1) << c->shift;
		i = c->ways - 1;
		memmove(s + 1, s, i * sizeof(*s));
		s[0] = tag;
		return false;
	}
	memmove(s + 1, s, i * sizeof(*s));
	s[0] = tag;
	return true;
}

/* a victim cache: take the line out if it is there */
static bool cache_take(struct cache *c, uint64_t addr)
{
	uint64_t tag = (addr >> c->shift) + 1;
	uint64_t *s = c->t + (size_t)((tag - 1) % c->sets) * c->ways;

	for (uint32_t i = 0; i < c->ways; i++)
		if (s[i] == tag) {
			memmove(s + i, s + i + 1, (c->ways - 1 - i) * sizeof(*s));
			s[c->ways - 1] = 0;
			return true;
		}
	return false;
}

/* ---- the parameter file ---------------------------------------------------- */
static int bad(char *err, size_t len, const char *path, int ln, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int bad(char *err, size_t len, const char *path, int ln, const char *fmt, ...)
{
	va_list ap;
	int o = snprintf(err, len, "model=%s line %d: ", path, ln);

	va_start(ap, fmt);
	if (o >= 0 && (size_t)o < len)
		vsnprintf(err + o, len - o, fmt, ap);
	va_end(ap);
	return -1;
}

static bool known_kind(const char *name)
{
	char base[MIX_KIND_NAME];

	if (classify_find(name) >= 0)
		return true;
	/* mtspr.N/mfspr.N are added as met: kind.mtspr, kind.mtspr.N */
	snprintf(base, sizeof(base), "%s", name);
	base[strcspn(base, ".")] = 0;
	return !strcmp(base, "mtspr") || !strcmp(base, "mfspr");
}

static int parse_line(struct model *mo, char *line, const char *path, int ln, char *err,
		      size_t len)
{
	char *tok[64], *save = NULL;
	int n = 0, src = -1;
	double v[3];
	char *end;

	for (char *t = strtok_r(line, " \t", &save); t && n < 64; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	if (!n)
		return 0;
	if (!strcmp(tok[0], "cpu") || !strcmp(tok[0], "target")) {
		if (n != 2)
			return bad(err, len, path, ln, "%s: want one word", tok[0]);
		snprintf(!strcmp(tok[0], "cpu") ? mo->name : mo->target,
			 !strcmp(tok[0], "cpu") ? sizeof(mo->name) : sizeof(mo->target), "%s", tok[1]);
		return 0;
	}
	for (int i = 1; i < n; i++)
		if (!strcmp(tok[i], "cite") || !strcmp(tok[i], "guess") || !strcmp(tok[i], "omit")) {
			src = i;
			break;
		}
	if (src < 0)
		return bad(err, len, path, ln, "%s: no source: every parameter says 'cite WHERE', "
			   "'guess WHY' or (a part left out, value 0) 'omit WHY' after its values",
			   tok[0]);
	if (src == n - 1)
		return bad(err, len, path, ln, "%s: '%s' names nothing after it", tok[0], tok[src]);
	if (!strcmp(tok[0], "drain")) {
		size_t o = 0;

		for (int i = 1; i < src; i++) {
			int k = classify_find(tok[i]);

			if (k < 0)
				return bad(err, len, path, ln, "drain %s: no instruction kind %s on %s",
					   tok[i], tok[i], P.sf.arch_name);
			mo->drain[mo->ndrain++] = k;
			o += snprintf(mo->drain_names + o, sizeof(mo->drain_names) - o, "%s%s",
				      o ? " " : "", tok[i]);
		}
		return 0;
	}
	if (src != 2 && src != 4)
		return bad(err, len, path, ln, "%s: want KEY VALUE [LOW HIGH] cite|guess TEXT",
			   tok[0]);
	for (int i = 1; i < src; i++) {
		errno = 0;
		v[i - 1] = strtod(tok[i], &end);
		if (*end || errno || !isfinite(v[i - 1]) || v[i - 1] < 0)
			return bad(err, len, path, ln, "%s: '%s' is not a number >= 0", tok[0], tok[i]);
	}
	if (src == 2)
		v[1] = v[2] = v[0];
	if (src == 4 && !(v[1] <= v[0] && v[0] <= v[2]))
		return bad(err, len, path, ln, "%s: the range %s..%s does not hold the value %s",
			   tok[0], tok[2], tok[3], tok[1]);
	if (!strcmp(tok[src], "guess") && src != 4 && strcmp(tok[0], "drain"))
		return bad(err, len, path, ln, "%s: a guess needs its range: KEY VALUE LOW HIGH guess ...",
			   tok[0]);
	if (!strcmp(tok[src], "omit") && (src != 2 || v[0] != 0))
		return bad(err, len, path, ln, "%s: 'omit' leaves a part out: its value is 0, no range",
			   tok[0]);
	if (!strncmp(tok[0], "kind.", 5)) {
		if (!known_kind(tok[0] + 5))
			return bad(err, len, path, ln, "%s: no instruction kind %s on %s", tok[0],
				   tok[0] + 5, P.sf.arch_name);
		mo->kp = realloc(mo->kp, (mo->nkp + 1) * sizeof(*mo->kp));
		if (!mo->kp)
			die_oom();
		snprintf(mo->kp[mo->nkp].name, sizeof(mo->kp[0].name), "%s", tok[0] + 5);
		mo->kp[mo->nkp].v[0] = v[1];
		mo->kp[mo->nkp].v[1] = v[0];
		mo->kp[mo->nkp].v[2] = v[2];
		mo->nkp++;
		return 0;
	}
	int i = pidx(tok[0]);

	if (i < 0)
		return bad(err, len, path, ln, "unknown parameter '%s'", tok[0]);
	if (mo->p[i].set)
		return bad(err, len, path, ln, "%s given twice", tok[0]);
	if (pdefs[i].type == PT_GEOM && (src != 2 || v[0] != floor(v[0])))
		return bad(err, len, path, ln, "%s: a whole number, one value (the model's geometry "
			   "is not a range)", tok[0]);
	if (pdefs[i].type == PT_INV && (v[0] != floor(v[0]) || v[1] != floor(v[1]) ||
					v[2] != floor(v[2])))
		return bad(err, len, path, ln, "%s: whole numbers", tok[0]);
	if (pdefs[i].type == PT_FRAC && v[2] > 1)
		return bad(err, len, path, ln, "%s: a fraction, 0 to 1", tok[0]);
	mo->p[i].set = true;
	/* the low point is the few-cycles end: an INV parameter's high value */
	mo->p[i].v[0] = pdefs[i].type == PT_INV ? v[2] : v[1];
	mo->p[i].v[1] = v[0];
	mo->p[i].v[2] = pdefs[i].type == PT_INV ? v[1] : v[2];
	return 0;
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

struct model *model_load(const char *path, const char *target, char *err, size_t errlen)
{
	struct model *mo = calloc(1, sizeof(*mo));
	FILE *f = fopen(path, "r");
	char *buf = NULL, *line, *save = NULL;
	size_t cap = 0, len = 0;
	int ln = 0;

	if (!mo)
		die_oom();
	if (!f) {
		snprintf(err, errlen, "model=%s: %s", path, strerror(errno));
		goto fail;
	}
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				die_oom();
		}
		size_t r = fread(buf + len, 1, cap - len - 1, f);

		len += r;
		if (!r)
			break;
	}
	fclose(f);
	buf[len] = 0;
	snprintf(mo->hash, sizeof(mo->hash), "%016" PRIx64, fnv((unsigned char *)buf, len));
	/* lines; '#' starts a comment */
	for (char *p = buf; p && *p; p = line) {
		char *nl = strchr(p, '\n');

		line = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		ln++;
		p[strcspn(p, "#")] = 0;
		if (parse_line(mo, p, path, ln, err, errlen))
			goto fail;
	}
	(void)save;
	if (!mo->name[0] || !mo->target[0]) {
		snprintf(err, errlen, "model=%s: no %s line", path, !mo->name[0] ? "cpu NAME" :
			 "target QEMU-TARGET");
		goto fail;
	}
	if (strcmp(mo->target, target)) {
		snprintf(err, errlen, "model=%s: the parameters of %s are for QEMU target %s, this "
			 "QEMU emulates %s", path, mo->name, mo->target, target);
		goto fail;
	}
	for (size_t i = 0; i < NPDEFS; i++)
		if (pdefs[i].required && !mo->p[i].set) {
			snprintf(err, errlen, "model=%s: no %s", path, pdefs[i].key);
			goto fail;
		}
	mo->has_l2 = pv(mo, "l2.size", 1) > 0;
	mo->has_l3 = pv(mo, "l3.size", 1) > 0;
	mo->has_tlb = pv(mo, "tlb.entries", 1) > 0;
	mo->l3_victim = pv(mo, "l3.victim", 1) > 0;
	{
		static const struct { const char *unit, *key; } need[] = {
			{ "L2", "l2.ways" }, { "L2", "l2.line" }, { "L2", "lat.l2" },
			{ "L3", "l3.ways" }, { "L3", "l3.line" }, { "L3", "lat.l3" },
			{ "TLB", "tlb.ways" }, { "TLB", "tlb.page" }, { "TLB", "tlb.miss" },
		};

		for (size_t i = 0; i < sizeof(need) / sizeof(*need); i++) {
			bool on = need[i].unit[1] == '2' ? mo->has_l2 : need[i].unit[1] == '3' ?
				  mo->has_l3 : mo->has_tlb;

			if (on && !pset(mo, need[i].key)) {
				snprintf(err, errlen, "model=%s: no %s (the %s is there)", path, need[i].key,
					 need[i].unit);
				goto fail;
			}
		}
		if (mo->has_l3 && !mo->has_l2) {
			snprintf(err, errlen, "model=%s: an L3 without an L2", path);
			goto fail;
		}
	}
	for (int p = 0; p < NPOINTS; p++) {
		mo->sq_entries[p] = (uint32_t)pv(mo, "sq.entries", p);
		mo->sq_mlp[p] = (uint32_t)pv(mo, "sq.mlp", p);
		if (!mo->sq_entries[p] || !mo->sq_mlp[p] || mo->sq_entries[p] > 4096) {
			snprintf(err, errlen, "model=%s: sq.entries and sq.mlp: 1 or more (entries at "
				 "most 4096)", path);
			goto fail;
		}
		if (mo->sq_entries[p] > mo->sq_cap)
			mo->sq_cap = mo->sq_entries[p];
	}
	if (mo->has_tlb) {
		uint64_t pg = (uint64_t)pv(mo, "tlb.page", 1);

		if (!pow2(pg)) {
			snprintf(err, errlen, "model=%s: tlb.page %" PRIu64 ": want a power of 2", path, pg);
			goto fail;
		}
		while ((1ULL << mo->tlb_shift) < pg)
			mo->tlb_shift++;
	}
	for (int p = 0; p < NPOINTS; p++) {
		double l1 = pv(mo, "lat.l1d", p), lat[5] = { 0, l1, pv(mo, "lat.l2", p),
							  pv(mo, "lat.l3", p), pv(mo, "lat.mem", p) };
		double le = pv(mo, "load.exposed", p), me = pv(mo, "miss.exposed", p);
		double fe = pv(mo, "ifetch.exposed", p), hit = pv(mo, "sq.hit", p);

		mo->cpi[p] = (uint32_t)ticks(pv(mo, "cpi.base", p));
		for (int l = 1; l <= 4; l++) {
			mo->ld[l][p] = ticks(le * l1 + (l > 1 ? (lat[l] - l1) * me : 0));
			mo->st[l][p] = ticks(l == 1 ? hit : lat[l]);
			mo->ifetch[l][p] = ticks(l > 1 ? lat[l] * fe : 0);
		}
		mo->tlbmiss[p] = ticks(pv(mo, "tlb.miss", p));
		mo->sqhit[p] = ticks(hit);
	}
	for (int k = 0; k < MIX_MAX_KINDS; k++)
		mo->kresolved[k] = false;
	free(buf);
	return mo;
fail:
	free(buf);
	free(mo->kp);
	free(mo);
	return NULL;
}

void model_vcpus(struct model *mo, int n)
{
	mo->ncpu = n;
	mo->cpu = calloc(n, sizeof(*mo->cpu));
	if (!mo->cpu)
		die_oom();
	for (int i = 0; i < n; i++) {
		struct mvcpu *c = &mo->cpu[i];

		/* checked sizes: model_load's caller refuses what does not divide */
		cache_init(&c->l1i, pv(mo, "l1i.size", 1), pv(mo, "l1i.ways", 1), pv(mo, "l1i.line", 1));
		cache_init(&c->l1d, pv(mo, "l1d.size", 1), pv(mo, "l1d.ways", 1), pv(mo, "l1d.line", 1));
		if (mo->has_l2)
			cache_init(&c->l2, pv(mo, "l2.size", 1), pv(mo, "l2.ways", 1), pv(mo, "l2.line", 1));
		if (mo->has_l3)
			cache_init(&c->l3, pv(mo, "l3.size", 1), pv(mo, "l3.ways", 1), pv(mo, "l3.line", 1));
		if (mo->has_tlb)
			cache_init(&c->tlb, (uint64_t)pv(mo, "tlb.entries", 1) << mo->tlb_shift,
				   pv(mo, "tlb.ways", 1), 1ULL << mo->tlb_shift);
		for (int p = 0; p < NPOINTS; p++) {
			c->sq[p].done = calloc(mo->sq_cap, sizeof(uint64_t));
			if (!c->sq[p].done)
				die_oom();
		}
	}
}

/* Does every cache divide into sets?  (model_vcpus builds them) */
int model_check(const struct model *mo, char *err, size_t errlen)
{
	static const char *const lv[] = { "l1i", "l1d", "l2", "l3" };

	for (int i = 0; i < 4; i++) {
		char k[3][16];
		double size, ways, line;

		if ((i == 2 && !mo->has_l2) || (i == 3 && !mo->has_l3))
			continue;
		snprintf(k[0], sizeof(k[0]), "%s.size", lv[i]);
		snprintf(k[1], sizeof(k[1]), "%s.ways", lv[i]);
		snprintf(k[2], sizeof(k[2]), "%s.line", lv[i]);
		size = pv(mo, k[0], 1), ways = pv(mo, k[1], 1), line = pv(mo, k[2], 1);
		if (!pow2((uint64_t)line) || !ways || size < ways * line ||
		    fmod(size, ways * line) != 0) {
			snprintf(err, errlen, "model: %s %g bytes, %g ways of %g-byte lines: want a "
				 "power-of-2 line and a size that is a whole number of sets", lv[i], size,
				 ways, line);
			return -1;
		}
	}
	if (mo->has_tlb && (!pv(mo, "tlb.ways", 1) ||
			    fmod(pv(mo, "tlb.entries", 1), pv(mo, "tlb.ways", 1)) != 0)) {
		snprintf(err, errlen, "model: tlb.entries %g in %g ways: not a whole number of sets",
			 pv(mo, "tlb.entries", 1), pv(mo, "tlb.ways", 1));
		return -1;
	}
	return 0;
}

/* ---- costs of instructions ------------------------------------------------- */
static void resolve_kind(struct model *mo, int k)
{
	const char *name = classify_kind(k)->name;
	char base[MIX_KIND_NAME];
	int best = -1;

	mo->kresolved[k] = true;
	snprintf(base, sizeof(base), "%s", name);
	base[strcspn(base, ".")] = 0;
	for (int i = 0; i < mo->nkp; i++) {
		if (!strcmp(mo->kp[i].name, name)) {
			best = i;
			break;
		}
		/*
		 * kind.mtspr covers the SPRs of class sprmsr only: mtlr, mflr,
		 * mtctr, mfctr, mtxer (SPR 1, 8, 9: kinds of no class, which every
		 * function runs) are plain instructions unless named one by one
		 */
		if (!strcmp(mo->kp[i].name, base) && (classify_kind(k)->classes & C_SPRMSR))
			best = i;
	}
	for (int p = 0; p < NPOINTS; p++)
		mo->kcost[k][p] = best >= 0 ? (int64_t)ticks(mo->kp[best].v[p]) : 0;
	for (int i = 0; i < mo->ndrain; i++)
		if (mo->drain[i] == k)
			mo->kdrain[k] = true;
}

static struct mvcpu *vcpu_of(struct model *mo, unsigned int cpu)
{
	if (cpu >= (unsigned)mo->ncpu) {
		mo->other_vcpu++;
		return NULL;
	}
	return &mo->cpu[cpu];
}

/* the store queue: wait for every store in flight */
static void drain_cb(unsigned int cpu, void *ud)
{
	struct model *mo = P.model;
	struct mvcpu *c = vcpu_of(mo, cpu);
	int slot = (int)(uintptr_t)ud;
	uint64_t *m = slot_met(slot);

	if (!c)
		return;
	mo->drains++;
	for (int p = 0; p < NPOINTS; p++) {
		struct sq *q = &c->sq[p];
		uint64_t stall = q->last > c->clock[p] ? q->last - c->clock[p] : 0;

		m[M_CYC_LO + p] += stall;
		c->clock[p] += stall;
		if (p == 1)
			mo->drain_ticks += stall;
		q->n = 0;
	}
	*slot_hint(slot) += 1;
}

/* the level (1..4) that holds a line: L1 (I or D), then L2, L3, memory */
static int lookup(struct model *mo, struct mvcpu *c, struct cache *l1, uint64_t a, uint64_t *m)
{
	uint64_t ev;

	if (cache_access(l1, a, NULL))
		return 1;
	m[l1 == &c->l1i ? M_L1I : M_L1D]++;
	if (!mo->has_l2)
		return 4;
	if (cache_access(&c->l2, a, &ev))
		return 2;
	m[M_L2]++;
	if (!mo->has_l3)
		return 4;
	if (mo->l3_victim) {
		bool hit = cache_take(&c->l3, a);

		if (ev)
			cache_access(&c->l3, ev, NULL);	/* L2's castout */
		if (hit)
			return 3;
	} else if (cache_access(&c->l3, a, NULL)) {
		return 3;
	}
	m[M_L3]++;
	return 4;
}

static void sq_store(struct model *mo, struct mvcpu *c, int level, uint64_t *m)
{
	for (int p = 0; p < NPOINTS; p++) {
		struct sq *q = &c->sq[p];
		uint32_t cap = mo->sq_entries[p], mlp = mo->sq_mlp[p];
		uint64_t now = c->clock[p], start, done;

		/* completed stores leave the queue */
		while (q->n && q->done[q->head] <= now) {
			q->head = (q->head + 1) % cap;
			q->n--;
		}
		if (q->n == cap) {
			uint64_t stall = q->done[q->head] - now;

			m[M_CYC_LO + p] += stall;
			c->clock[p] += stall;
			now += stall;
			if (p == 1)
				mo->stall_ticks += stall;
			q->head = (q->head + 1) % cap;
			q->n--;
		}
		/* at most sq.mlp stores in flight: start when the mlp-th last completes */
		start = now;
		if (q->n >= mlp) {
			uint64_t t = q->done[(q->head + q->n - mlp) % cap];

			if (t > start)
				start = t;
		}
		done = start + mo->st[level][p];
		if (q->n && done < q->last + mo->sqhit[p])
			done = q->last + mo->sqhit[p];	/* in order */
		q->done[(q->head + q->n) % cap] = done;
		q->n++;
		q->last = done;
	}
}

static void mem_cb(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
	struct model *mo = P.model;
	struct mvcpu *c = vcpu_of(mo, cpu);
	int slot = (int)(uintptr_t)ud, level;
	uint64_t *m = slot_met(slot), a = vaddr, size = 1ULL << qemu_plugin_mem_size_shift(info);
	bool store = qemu_plugin_mem_is_store(info);
	uint64_t tlbpen = 0;

	if (!c)
		return;
	if (!P.user_mode) {
		struct qemu_plugin_hwaddr *h = qemu_plugin_get_hwaddr(info, vaddr);

		if (h) {
			if (qemu_plugin_hwaddr_is_io(h)) {
				mo->io++;
				return;
			}
			a = qemu_plugin_hwaddr_phys_addr(h);
		}
	}
	if (mo->has_tlb && !cache_access(&c->tlb, vaddr, NULL)) {
		m[M_TLB]++;
		tlbpen = 1;
	}
	level = lookup(mo, c, &c->l1d, a, m);
	/* an access across a line: the second line too, the slower of the two */
	if (((a & ((1ULL << c->l1d.shift) - 1)) + size) >> c->l1d.shift) {
		int l2 = lookup(mo, c, &c->l1d, a + size - 1, m);

		if (l2 > level)
			level = l2;
	}
	if (store) {
		mo->stores++;
		sq_store(mo, c, level, m);
	} else {
		mo->loads++;
	}
	for (int p = 0; p < NPOINTS; p++) {
		uint64_t t = (store ? 0 : mo->ld[level][p]) + (tlbpen ? mo->tlbmiss[p] : 0);

		m[M_CYC_LO + p] += t;
		c->clock[p] += t;
	}
	*slot_hint(slot) += 1;
}

static void tb_cb(unsigned int cpu, void *ud)
{
	struct model *mo = P.model;
	struct mvcpu *c = vcpu_of(mo, cpu);
	const struct mtb *t = ud;

	if (!c)
		return;
	mo->tb_execs++;
	for (int p = 0; p < NPOINTS; p++)
		c->clock[p] += t->base[p];
	for (uint32_t i = 0; i < t->n; i++) {
		uint64_t *m = slot_met(t->l[i].slot);
		int level = lookup(mo, c, &c->l1i, t->l[i].key, m);

		if (level == 1)
			continue;
		for (int p = 0; p < NPOINTS; p++) {
			m[M_CYC_LO + p] += mo->ifetch[level][p];
			c->clock[p] += mo->ifetch[level][p];
		}
		*slot_hint(t->l[i].slot) += 1;
	}
}

void model_insn(struct model *mo, struct qemu_plugin_insn *insn, int slot, int kind,
		uint32_t base[NPOINTS])
{
	if (kind >= 0 && !mo->kresolved[kind])
		resolve_kind(mo, kind);
	for (int p = 0; p < NPOINTS; p++) {
		int64_t b = (int64_t)mo->cpi[p] + (kind >= 0 ? mo->kcost[kind][p] : 0);

		base[p] = (uint32_t)(b > 0 ? b : 0);
	}
	qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
					 (void *)(uintptr_t)slot);
	if (kind >= 0 && mo->kdrain[kind])
		qemu_plugin_register_vcpu_insn_exec_cb(insn, drain_cb, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)slot);
}

/*
 * The instruction side of a block: the host address of its bytes (guest
 * RAM: one per physical address; user mode: one per address), line by
 * line, tagged apart from data addresses in the shared L2/L3.  Blocks with
 * the same lines and slots share one description.
 */
#define ITAG (1ULL << 62)

void model_tb(struct model *mo, struct qemu_plugin_tb *tb, const int *slots,
	      const uint32_t (*base)[NPOINTS], size_t n)
{
	struct mtb *t = malloc(sizeof(*t) + 2 * n * sizeof(t->l[0]));
	uint32_t shift = mo->cpu[0].l1i.shift;
	uint64_t h = 0xcbf29ce484222325ULL, *ix;

	if (!t)
		die_oom();
	memset(t->base, 0, sizeof(t->base));
	t->n = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		void *ha = P.user_mode ? NULL : qemu_plugin_insn_haddr(insn);
		uint64_t a = ha ? (uint64_t)(uintptr_t)ha : qemu_plugin_insn_vaddr(insn);
		uint64_t last = a + qemu_plugin_insn_size(insn) - 1;

		for (int p = 0; p < NPOINTS; p++)
			t->base[p] += base[i][p];
		for (uint64_t l = a >> shift; l <= last >> shift; l++) {
			uint64_t key = (l << shift) | ITAG;

			if (t->n && t->l[t->n - 1].key == key)
				continue;
			t->l[t->n].key = key;
			t->l[t->n].slot = slots[i];
			t->n++;
		}
	}
	for (int p = 0; p < NPOINTS; p++)
		h = (h ^ t->base[p]) * 0x100000001b3ULL;
	for (uint32_t i = 0; i < t->n; i++)
		h = ((h ^ t->l[i].key) * 0x100000001b3ULL ^ (uint64_t)t->l[i].slot) * 0x100000001b3ULL;
	ix = map_slot(&mo->tbs, h >> 1);
	if (*ix && mo->tbl[*ix - 1]->n == t->n &&
	    !memcmp(mo->tbl[*ix - 1]->base, t->base, sizeof(t->base)) &&
	    !memcmp(mo->tbl[*ix - 1]->l, t->l, t->n * sizeof(t->l[0]))) {
		free(t);
		t = mo->tbl[*ix - 1];
	} else {
		if (mo->ntbl == mo->captbl) {
			mo->captbl = mo->captbl ? 2 * mo->captbl : 4096;
			mo->tbl = realloc(mo->tbl, mo->captbl * sizeof(*mo->tbl));
			if (!mo->tbl)
				die_oom();
		}
		mo->tbl[mo->ntbl++] = t;
		*map_slot(&mo->tbs, h >> 1) = mo->ntbl;
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_cb, QEMU_PLUGIN_CB_NO_REGS, t);
}

/* ---- output ---------------------------------------------------------------- */
void model_header(const struct model *mo, FILE *f)
{
	mix_put(f, MODEL, .cpu = mo->name, .hash = mo->hash);
	for (size_t i = 0; i < NPDEFS; i++)
		if (mo->p[i].set)
			mix_put(f, MODEL_PARAM, .key = pdefs[i].key, .low = mo->p[i].v[0],
				.mid = mo->p[i].v[1], .high = mo->p[i].v[2]);
	for (int i = 0; i < mo->nkp; i++) {
		char key[sizeof(mo->kp[0].name) + 8];

		snprintf(key, sizeof(key), "kind.%s", mo->kp[i].name);
		mix_put(f, MODEL_PARAM, .key = key, .low = mo->kp[i].v[0], .mid = mo->kp[i].v[1],
			.high = mo->kp[i].v[2]);
	}
	mix_put(f, MODEL_DRAIN, .kinds = mo->ndrain ? mo->drain_names : "-");
}

void model_counts(const struct model *mo, FILE *f)
{
	mix_put(f, COUNT, .name = "model_loads", .n = mo->loads);
	mix_put(f, COUNT, .name = "model_stores", .n = mo->stores);
	mix_put(f, COUNT, .name = "model_io", .n = mo->io);
	mix_put(f, COUNT, .name = "model_blocks", .n = mo->tb_execs);
	mix_put(f, COUNT, .name = "model_block_shapes", .n = mo->ntbl);
	mix_put(f, COUNT, .name = "model_drains", .n = mo->drains);
	mix_put(f, COUNT, .name = "model_drain_cycles", .n = met_cycles(mo->drain_ticks));
	mix_put(f, COUNT, .name = "model_sq_full_cycles", .n = met_cycles(mo->stall_ticks));
	mix_put(f, COUNT, .name = "model_other_vcpu", .n = mo->other_vcpu);
}

uint64_t met_cycles(uint64_t t)
{
	return (t + TICKS / 2) / TICKS;
}

void met_add(uint64_t *dst, const uint64_t *src)
{
	for (int i = 0; i < NMET; i++)
		dst[i] += src[i];
}

bool met_any(const uint64_t *m)
{
	for (int i = 0; i < NMET; i++)
		if (m[i])
			return true;
	return false;
}

const uint64_t *met_cols(const uint64_t *m, uint64_t *out)
{
	for (int i = 0; i < NMET; i++)
		out[i] = i <= M_CYC_HI ? met_cycles(m[i]) : m[i];
	return out;
}
