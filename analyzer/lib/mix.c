// SPDX-License-Identifier: LGPL-2.1
/*
 * Mix: the QEMU plugin's output (Documentation/qemu-plugin.md, "The
 * output"), the third kind of input beside trace.dat files and live
 * buffers.  A .mix file (or .mix.gz) holds, per syscall handler and
 * account (stage, whole, total, gap, outside), instruction counts and
 * instruction classes, and one sample line per syscall it sampled.  The
 * samples become et_syscall records whose stage values are instructions,
 * so the report and diff tables, their statistics and their exit codes
 * work on them unchanged; the aggregated tables (every syscall, not only
 * the sampled ones) are kept for the instruction mix section.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "entrytrace-local.h"
#include "mix-shape.h"

/* The first line: "entrytrace-mix N", N one of mix-format.def's versions. */
#define MIX_MAGIC(str) static const char mix_magic[] = str " ";
#define MIX_VERSION(n, what) _Static_assert(n < 10, "one digit");
#include "mix-format.def"
static const int mix_versions[] = {
#define MIX_VERSION(n, what) n,
#include "mix-format.def"
};
#define MIX_VERSION_MAX (mix_versions[ET_ARRAY_SIZE(mix_versions) - 1])
#define MIX_MAGIC_LEN (sizeof(mix_magic) - 1)

struct mix_sample {
	uint32_t seq;
	int name;		/* index into names */
	uint32_t flags;		/* MIX_F_* */
	int nr_vals;
	struct { int stage; uint64_t value; uint32_t runs; } *vals;
	uint64_t total, whole;
	bool has_total, has_whole;
};

enum {
#define MIX_FLAG(SYM, name, what) MIX_F_BIT_##SYM,
#include "mix-format.def"
};
enum {
#define MIX_FLAG(SYM, name, what) MIX_F_##SYM = 1 << MIX_F_BIT_##SYM,
#include "mix-format.def"
};

static const char *const mix_flag_names[] = {
#define MIX_FLAG(SYM, name, what) #name,
#include "mix-format.def"
};

const char *const et_mix_classes[ET_MIX_NR_CLASSES] = {
#define MIX_CLASS(SYM, name) #name,
#include "mix-format.def"
};

const char *const et_met_names[ET_NR_MET] = {
#define MIX_MET(SYM, name) #name,
#include "mix-format.def"
};

struct et_mix {
	char *path;
	char *arch, *build_id, *sites_sha256, *table_hash, *mode, *release;
	char *samples_arg, *tables_arg, *calls_arg;
	int version;
	bool complete;		/* the "end" line was there */
	bool funcs_all;		/* "functions all": every function is listed */
	int funcs_top;		/* "functions top N", or version 1: the longest list */
	struct et_mix_insn *insns;
	size_t nr_insns, cap_insns;
	struct et_mix_at *ats;
	size_t nr_ats, cap_ats;
	size_t nr_src;
	char **names;		/* interned syscall and account names */
	int nr_names;
	size_t cap_names;
	int *name_slots;	/* open addressing over names: index + 1, 0 free */
	size_t nr_slots;	/* a power of two, at least twice nr_names */
	struct et_mix_count *counts;
	size_t nr_counts, cap_counts;
	struct et_mix_stat *stats;
	size_t nr_stats, cap_stats;
	struct et_mix_sum *sums;	/* kinds and class lines */
	size_t nr_sums, cap_sums;
	struct et_mix_sum *funcs;
	size_t nr_funcs, cap_funcs;
	struct et_mix_count *setapart;
	size_t nr_setapart, cap_setapart;
	char **kind_class;	/* by kind name: its classes ("barrier", "-") */
	char **kind_names;
	size_t nr_kinds, cap_kinds, cap_kclass;
	struct mix_sample *samples;
	size_t nr_samples, cap_samples;
	/* version 3: the timing model */
	char *model, *model_hash;
	struct { int key; double v[3]; } *params;
	size_t nr_params, cap_params;
	struct et_mix_cstat *cstats;
	size_t nr_cstats, cap_cstats;
	struct { int name; uint64_t m[ET_NR_MET]; } *ctotals;
	size_t nr_ctotals, cap_ctotals;
	uint64_t set_apart[ET_ARRAY_SIZE(mix_flag_names)];
	uint64_t kept, unnamed, not_syscall;
	/* what the header and tables say of each other (check_tables()) */
	char **accounts;	/* "account ID NAME PARENT" names */
	size_t nr_accounts, cap_accounts;
	uint64_t staged_samples;	/* samples with stage values (s.X, total) */
	uint64_t setapart_sum;		/* the setapart lines' counts */
	unsigned long bad_line;		/* the first line a check refused */
	char bad[256];
};

static size_t name_hash(const char *s)
{
	size_t h = 14695981039346656037ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of @s in the name table: its own, or the free one it would take. */
static size_t name_slot(const struct et_mix *m, const char *s)
{
	size_t mask = m->nr_slots - 1, i = name_hash(s) & mask;

	while (m->name_slots[i] && strcmp(m->names[m->name_slots[i] - 1], s))
		i = (i + 1) & mask;
	return i;
}

/* Twice as many slots, the names placed again; -1 out of memory. */
static int name_rehash(struct et_mix *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 64;
	int *old = m->name_slots;

	m->name_slots = calloc(n, sizeof(*m->name_slots));
	if (!m->name_slots) {
		m->name_slots = old;
		return -1;
	}
	free(old);
	m->nr_slots = n;
	for (int i = 0; i < m->nr_names; i++)
		m->name_slots[name_slot(m, m->names[i])] = i + 1;
	return 0;
}

/* The id of name @s, added if new (ids count from 0 in order of first sight). */
static int intern(struct et_mix *m, const char *s)
{
	size_t slot;

	if ((size_t)m->nr_names * 2 >= m->nr_slots && name_rehash(m))
		return -1;
	slot = name_slot(m, s);
	if (m->name_slots[slot])
		return m->name_slots[slot] - 1;
	if (et_grow((void **)&m->names, &m->cap_names, m->nr_names + 1, sizeof(char *)))
		return -1;
	m->names[m->nr_names] = strdup(s);
	if (!m->names[m->nr_names])
		return -1;
	m->name_slots[slot] = m->nr_names + 1;
	return m->nr_names++;
}

const char *et_mix_name(const struct et_mix *m, int id)
{
	return id >= 0 && id < m->nr_names ? m->names[id] : "?";
}

/* Is this file plugin output?  Plain or gzip'd; pipes are not probed. */
bool et_mix_probe(const char *path)
{
	char line[sizeof(mix_magic) + 2];
	struct stat st;
	gzFile f;
	bool yes;

	if (!strcmp(path, "-") || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	f = gzopen(path, "rb");
	if (!f)
		return false;
	yes = gzgets(f, line, sizeof(line)) && !strncmp(line, mix_magic, MIX_MAGIC_LEN) &&
	      line[MIX_MAGIC_LEN] >= '1' && line[MIX_MAGIC_LEN] <= '0' + MIX_VERSION_MAX &&
	      (line[MIX_MAGIC_LEN + 1] == '\n' || line[MIX_MAGIC_LEN + 1] == '\0');
	gzclose(f);
	return yes;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return (!*s || *end || errno || *s == '-') ? -1 : 0;
}

static char *xstrdup(char **dst, const char *s)
{
	free(*dst);
	*dst = strdup(s);
	return *dst;
}

static uint32_t sample_flags(const char *s, bool *bad)
{
	uint32_t f = 0;
	char buf[256], *save = NULL;

	if (!strcmp(s, "ok"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ET_ARRAY_SIZE(mix_flag_names); i++)
			if (!strcmp(t, mix_flag_names[i]))
				break;
		if (i == ET_ARRAY_SIZE(mix_flag_names))
			*bad = true;
		else
			f |= 1u << i;
	}
	return f;
}

/* account names that are stages; whole/total/gap/outside are the plugin's */
static int account_stage(const char *name)
{
	if (!strcmp(name, "total"))
		return ET_SLOT_TOTAL;
	return et_slot_by_name(name);
}

/*
 * sample SEQ NAME FLAGS KEY=VALUE...: in order, each once (a sample line
 * repeated or moved is damage)
 */
static int parse_sample(struct et_mix *m, const struct mix_toks *t)
{
	struct mix_sample s = { 0 };
	uint64_t v;
	bool bad = false;

	s.seq = (uint32_t)t->u[MIX_POS(SAMPLE, seq)];
	if (m->nr_samples && s.seq <= m->samples[m->nr_samples - 1].seq) {
		snprintf(m->bad, sizeof(m->bad), "sample %u after sample %u: samples come in "
			 "order, each once", s.seq, m->samples[m->nr_samples - 1].seq);
		return -1;
	}
	s.name = intern(m, t->tok[MIX_POS(SAMPLE, name)]);
	s.flags = sample_flags(t->tok[MIX_POS(SAMPLE, flags)], &bad);
	if (bad || s.name < 0)
		return -1;
	s.vals = calloc(t->n, sizeof(*s.vals));
	if (!s.vals)
		return -1;
	for (int i = MIX_POS(SAMPLE, values); i < t->n; i++) {
		char *eq = strchr(t->tok[i], '=');
		const char *key = t->tok[i];
		int stage;

		*eq = '\0';	/* a PAIR: mix_shape_check() saw the '=' */
		if (!strcmp(eq + 1, "-"))
			continue;
		if (parse_u64(eq + 1, &v))
			goto bad;
		if (!strncmp(key, "s.", 2)) {
			stage = et_slot_by_name(key + 2);
			if (stage < 0)
				goto bad;
			s.vals[s.nr_vals].stage = stage;
			s.vals[s.nr_vals].value = v;
			s.vals[s.nr_vals].runs = 1;
			s.nr_vals++;
		} else if (!strncmp(key, "r.", 2)) {
			stage = et_slot_by_name(key + 2);
			if (stage < 0)
				goto bad;
			for (int j = 0; j < s.nr_vals; j++)
				if (s.vals[j].stage == stage)
					s.vals[j].runs = (uint32_t)v;
		} else if (!strcmp(key, "total")) {
			s.total = v;
			s.has_total = true;
		} else if (!strcmp(key, "whole")) {
			s.whole = v;
			s.has_whole = true;
		}
		/* user, whole, irq, nirq, gap, outside: in the account tables */
	}
	if (et_grow((void **)&m->samples, &m->cap_samples, m->nr_samples + 1, sizeof(s)))
		goto bad;
	if (s.nr_vals || s.has_total)
		m->staged_samples++;
	m->samples[m->nr_samples++] = s;
	return 0;
bad:
	free(s.vals);
	return -1;
}

static int add_sum(struct et_mix_sum **arr, size_t *nr, size_t *cap, struct et_mix_sum v)
{
	if (et_grow((void **)arr, cap, *nr + 1, sizeof(v)))
		return -1;
	(*arr)[(*nr)++] = v;
	return 0;
}

static int add_count(struct et_mix_count **arr, size_t *nr, size_t *cap,
		     struct et_mix_count v)
{
	if (et_grow((void **)arr, cap, *nr + 1, sizeof(v)))
		return -1;
	(*arr)[(*nr)++] = v;
	return 0;
}

/* a header fact kept as text (ARCH .. KERNEL): where it goes, NULL none */
static char **header_fact(struct et_mix *m, int rec)
{
	switch (rec) {
	case MIX_R_ARCH: return &m->arch;
	case MIX_R_BUILD_ID: return &m->build_id;
	case MIX_R_SITES_SHA256: return &m->sites_sha256;
	case MIX_R_TABLE_HASH: return &m->table_hash;
	case MIX_R_MODE: return &m->mode;
	case MIX_R_KERNEL: return &m->release;
	case MIX_R_SAMPLES: return &m->samples_arg;
	case MIX_R_TABLES: return &m->tables_arg;
	case MIX_R_CALLS: return &m->calls_arg;
	}
	return NULL;
}

/* A stat line: a mean is a finite number no larger than the max. */
static int parse_stat(struct et_mix *m, const struct mix_toks *t)
{
	struct et_mix_stat st = {
		.name = intern(m, t->tok[MIX_POS(STAT, name)]),
		.account = intern(m, t->tok[MIX_POS(STAT, account)]),
		.n = t->u[MIX_POS(STAT, n)],
		.runs = t->u[MIX_POS(STAT, runs)],
		.sum = t->u[MIX_POS(STAT, sum)],
		.min = t->u[MIX_POS(STAT, min)],
		.p50 = t->u[MIX_POS(STAT, p50)],
		.max = t->u[MIX_POS(STAT, max)],
		.mean = t->d[MIX_POS(STAT, mean)],
	};

	if (st.mean < 0 || st.mean > (double)st.max + 1 || st.name < 0 || st.account < 0)
		return -1;
	if (et_grow((void **)&m->stats, &m->cap_stats, m->nr_stats + 1, sizeof(st)))
		return -1;
	m->stats[m->nr_stats++] = st;
	return 0;
}

/* insn ID ADDR WHERE KIND[,CALLKIND]: ids from 0, in order */
static int parse_insn(struct et_mix *m, const struct mix_toks *t)
{
	struct et_mix_insn in = { .kind = -1, .callkind = -1, .src = -1 };
	char *kinds = t->tok[MIX_POS(INSN, kinds)], *comma;

	if (t->u[MIX_POS(INSN, id)] != m->nr_insns)
		return -1;
	in.addr = t->u[MIX_POS(INSN, addr)];
	in.where = intern(m, t->tok[MIX_POS(INSN, where)]);
	comma = strchr(kinds, ',');
	if (comma)
		*comma = '\0';
	if (strcmp(kinds, "-"))
		in.kind = intern(m, kinds);
	if (comma)
		in.callkind = intern(m, comma + 1);
	if (in.where < 0 || (strcmp(kinds, "-") && in.kind < 0) || (comma && in.callkind < 0))
		return -1;
	if (et_grow((void **)&m->insns, &m->cap_insns, m->nr_insns + 1, sizeof(in)))
		return -1;
	m->insns[m->nr_insns++] = in;
	return 0;
}

/* src ID FRAME...: an insn line's, once; each frame FILE:LINE or FUNC@FILE:LINE */
static int parse_src(struct et_mix *m, const struct mix_toks *t)
{
	uint64_t id = t->u[MIX_POS(SRC, insn)];
	char frames[4096];
	size_t len = 0;

	if (t->n == MIX_POS(SRC, frames) || id >= m->nr_insns || m->insns[id].src >= 0)
		return -1;
	for (int i = MIX_POS(SRC, frames); i < t->n && len < sizeof(frames); i++) {
		if (!strchr(t->tok[i], '@'))
			return -1;
		len += snprintf(frames + len, sizeof(frames) - len, "%s%s",
				i > MIX_POS(SRC, frames) ? " " : "", t->tok[i]);
	}
	if (len >= sizeof(frames))
		return -1;
	m->insns[id].src = intern(m, frames);
	m->nr_src++;
	return m->insns[id].src < 0 ? -1 : 0;
}

/* cstat, ctotal, cat (version 3): the timing model's columns */
static int parse_mets(struct et_mix *m, int rec, const struct mix_toks *t)
{
	uint64_t mv[ET_NR_MET];

	_Static_assert((int)ET_NR_MET == (int)MIX_NR_METS, "ET_MET_* are mix-format.def's columns");
	_Static_assert(MIX_POS(CSTAT, mets) + MIX_NR_METS <= MIX_FIXED_MAX &&
		       MIX_POS(CAT, mets) + MIX_NR_METS <= MIX_FIXED_MAX, "typed in mix_toks");
	switch (rec) {
	case MIX_R_CTOTAL: {
		int nm = intern(m, t->tok[MIX_POS(CTOTAL, name)]);

		memcpy(mv, &t->u[MIX_POS(CTOTAL, mets)], sizeof(mv));
		if (nm < 0 || et_grow((void **)&m->ctotals, &m->cap_ctotals, m->nr_ctotals + 1,
				      sizeof(*m->ctotals)))
			return -1;
		m->ctotals[m->nr_ctotals].name = nm;
		memcpy(m->ctotals[m->nr_ctotals++].m, mv, sizeof(mv));
		return 0;
	}
	case MIX_R_CSTAT: {
		struct et_mix_cstat c = { .name = intern(m, t->tok[MIX_POS(CSTAT, name)]),
					  .account = intern(m, t->tok[MIX_POS(CSTAT, account)]),
					  .n = t->u[MIX_POS(CSTAT, n)] };

		memcpy(c.m, &t->u[MIX_POS(CSTAT, mets)], sizeof(c.m));
		if (c.name < 0 || c.account < 0 ||
		    et_grow((void **)&m->cstats, &m->cap_cstats, m->nr_cstats + 1, sizeof(c)))
			return -1;
		m->cstats[m->nr_cstats++] = c;
		return 0;
	}
	}
	/* cat: the at line just before it, in cycles and misses */
	if (!m->nr_ats || m->ats[m->nr_ats - 1].insn != (int)t->u[MIX_POS(CAT, insn)] ||
	    strcmp(m->names[m->ats[m->nr_ats - 1].name], t->tok[MIX_POS(CAT, name)]) ||
	    strcmp(m->names[m->ats[m->nr_ats - 1].account], t->tok[MIX_POS(CAT, account)]))
		return -1;
	memcpy(m->ats[m->nr_ats - 1].m, &t->u[MIX_POS(CAT, mets)], sizeof(mv));
	return 0;
}

/*
 * One line: split, its shape checked against mix-format.def's record
 * (mix-shape.h), then its fields taken.  -1 refused (m->bad says why when
 * the shape was wrong or the check has more to say).
 */
static int parse_line(struct et_mix *m, char *line)
{
	char *tok[4096], *save = NULL;
	struct mix_toks t;
	const char *word;
	int n = 0, rec;
	char **dst;

	for (char *s = strtok_r(line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (n == (int)ET_ARRAY_SIZE(tok))
			return -1;	/* more than a line holds: not dropped, refused */
		tok[n++] = s;
	}
	if (!n)
		return -1;
	word = tok[0];
	rec = mix_record_of(word);
	if (rec < 0)
		/* "WORD VALUE": a header fact a newer plugin added; else unknown */
		return n == 2 ? 0 : -1;
	t.tok = tok + 1;
	t.n = n - 1;
	if (mix_shape_check(rec, m->version, &t, m->bad, sizeof(m->bad)))
		return -1;
	dst = header_fact(m, rec);
	if (dst)
		return xstrdup(dst, t.tok[0]) ? 0 : -1;
	switch (rec) {
	case MIX_R_SAMPLE:
		return parse_sample(m, &t);
	case MIX_R_STAT:
		return parse_stat(m, &t);
	case MIX_R_KINDS:
	case MIX_R_CLASS: {
		struct et_mix_sum s = {
			.is_class = rec == MIX_R_CLASS,
			.name = intern(m, t.tok[MIX_POS(KINDS, name)]),
			.account = intern(m, t.tok[MIX_POS(KINDS, account)]),
			.what = intern(m, t.tok[MIX_POS(KINDS, kind)]),
			.sum = t.u[MIX_POS(KINDS, n)],
		};

		_Static_assert(MIX_POS(KINDS, n) == MIX_POS(CLASS, n) &&
			       MIX_POS(KINDS, kind) == MIX_POS(CLASS, class), "one shape");
		if (s.name < 0 || s.account < 0 || s.what < 0)
			return -1;
		return add_sum(&m->sums, &m->nr_sums, &m->cap_sums, s);
	}
	case MIX_R_FUNC: {
		struct et_mix_sum s = {
			.name = intern(m, t.tok[MIX_POS(FUNC, name)]),
			.account = intern(m, t.tok[MIX_POS(FUNC, account)]),
			.rank = (int)t.u[MIX_POS(FUNC, rank)],
			.what = intern(m, t.tok[MIX_POS(FUNC, func)]),
			.sum = t.u[MIX_POS(FUNC, n)],
		};

		if (m->version == 1 && s.rank > m->funcs_top)
			m->funcs_top = s.rank;
		if (s.name < 0 || s.account < 0 || s.what < 0)
			return -1;
		return add_sum(&m->funcs, &m->nr_funcs, &m->cap_funcs, s);
	}
	case MIX_R_COUNT: {
		struct et_mix_count c = { .name = intern(m, t.tok[MIX_POS(COUNT, name)]), .reason = -1,
					  .n = t.u[MIX_POS(COUNT, n)] };

		return c.name < 0 ? -1 : add_count(&m->counts, &m->nr_counts, &m->cap_counts, c);
	}
	case MIX_R_SETAPART: {
		struct et_mix_count c = { .name = intern(m, t.tok[MIX_POS(SETAPART, name)]),
					  .reason = intern(m, t.tok[MIX_POS(SETAPART, reason)]),
					  .n = t.u[MIX_POS(SETAPART, n)] };

		m->setapart_sum += c.n;
		return c.name < 0 ? -1 :
		       add_count(&m->setapart, &m->nr_setapart, &m->cap_setapart, c);
	}
	case MIX_R_KIND:
		if (et_grow((void **)&m->kind_names, &m->cap_kinds, m->nr_kinds + 1, sizeof(char *)) ||
		    et_grow((void **)&m->kind_class, &m->cap_kclass, m->nr_kinds + 1, sizeof(char *)))
			return -1;
		m->kind_names[m->nr_kinds] = strdup(t.tok[MIX_POS(KIND, name)]);
		m->kind_class[m->nr_kinds] = strdup(t.tok[MIX_POS(KIND, classes)]);
		m->nr_kinds++;
		return m->kind_names[m->nr_kinds - 1] && m->kind_class[m->nr_kinds - 1] ? 0 : -1;
	case MIX_R_INSN:
		return parse_insn(m, &t);
	case MIX_R_AT: {
		struct et_mix_at a;

		if (t.u[MIX_POS(AT, insn)] >= m->nr_insns || !t.u[MIX_POS(AT, n)])
			return -1;
		memset(&a, 0, sizeof(a));
		a.name = intern(m, t.tok[MIX_POS(AT, name)]);
		a.account = intern(m, t.tok[MIX_POS(AT, account)]);
		a.insn = (int)t.u[MIX_POS(AT, insn)];
		a.n = t.u[MIX_POS(AT, n)];
		if (a.name < 0 || a.account < 0)
			return -1;
		if (et_grow((void **)&m->ats, &m->cap_ats, m->nr_ats + 1, sizeof(a)))
			return -1;
		m->ats[m->nr_ats++] = a;
		return 0;
	}
	case MIX_R_SRC:
		return parse_src(m, &t);
	case MIX_R_FUNCTIONS: {
		const char *extent = t.tok[MIX_POS(FUNCTIONS, extent)];

		if (t.n == 1 && !strcmp(extent, "all")) {
			m->funcs_all = true;
			return 0;
		}
		if (t.n != 2 || strcmp(extent, "top") || !t.u[MIX_POS(FUNCTIONS, n)])
			return -1;
		m->funcs_top = (int)t.u[MIX_POS(FUNCTIONS, n)];
		return 0;
	}
	case MIX_R_CSTAT:
	case MIX_R_CTOTAL:
	case MIX_R_CAT:
		return parse_mets(m, rec, &t);
	case MIX_R_MODEL:
		return xstrdup(&m->model, t.tok[MIX_POS(MODEL, cpu)]) &&
		       xstrdup(&m->model_hash, t.tok[MIX_POS(MODEL, hash)]) ? 0 : -1;
	case MIX_R_MODEL_PARAM: {
		int key = intern(m, t.tok[MIX_POS(MODEL_PARAM, key)]);

		if (key < 0 ||
		    et_grow((void **)&m->params, &m->cap_params, m->nr_params + 1, sizeof(*m->params)))
			return -1;
		m->params[m->nr_params].key = key;
		for (int i = 0; i < 3; i++)
			m->params[m->nr_params].v[i] = t.d[MIX_POS(MODEL_PARAM, low) + i];
		m->nr_params++;
		return 0;
	}
	case MIX_R_ACCOUNT: {
		/* a stage, or the plugin's whole/total/gap/outside */
		const char *name = t.tok[MIX_POS(ACCOUNT, name)];

		if (account_stage(name) < 0 && strcmp(name, "whole") && strcmp(name, "gap") &&
		    strcmp(name, "outside")) {
			snprintf(m->bad, sizeof(m->bad), "account '%s': not a stage, whole, total, "
				 "gap or outside", name);
			return -1;
		}
		if (et_grow((void **)&m->accounts, &m->cap_accounts, m->nr_accounts + 1,
			    sizeof(char *)) || !(m->accounts[m->nr_accounts] = strdup(name)))
			return -1;
		m->nr_accounts++;
		return 0;
	}
	}
	/* naming, vcpus, armed, qemu_api, markers, unarmed, detail, disas_diff,
	 * model_drain: known, their shape checked, not needed by the tables */
	return 0;
}

/*
 * The end line: "end" (version 1), "end LINES CRC32" (version 2: the lines
 * before it and zlib's CRC-32 of their bytes).
 */
static int check_end(struct et_mix *m, const char *line, unsigned long lines, uLong crc,
		     char *errbuf, size_t errlen)
{
	unsigned long want_lines, want_crc;
	const char *p = line + 4;
	char *e;

	if (m->version == 1) {
		if (strcmp(line, "end")) {
			snprintf(errbuf, errlen, "%s line %lu: a version 1 end line is \"end\"",
				 m->path, lines + 1);
			return -1;
		}
		return 0;
	}
	want_lines = strtoul(p, &e, 10);
	if (strncmp(line, "end ", 4) || e == p || *p < '0' || *p > '9' || *e != ' ' ||
	    strlen(e + 1) != 8 || strspn(e + 1, "0123456789abcdef") != 8) {
		snprintf(errbuf, errlen, "%s line %lu: malformed end line (want \"end LINES "
			 "CRC32\")", m->path, lines + 1);
		return -1;
	}
	want_crc = strtoul(e + 1, NULL, 16);
	if (want_lines != lines) {
		snprintf(errbuf, errlen, "%s: the end line counts %lu lines, the file has %lu: "
			 "lines were added or removed", m->path, want_lines, lines);
		return -1;
	}
	if (want_crc != crc) {
		snprintf(errbuf, errlen, "%s: CRC-32 %08lx of the content, the end line says %08lx: "
			 "the file was changed after it was written", m->path, crc, want_crc);
		return -1;
	}
	return 0;
}

static bool has_account(const struct et_mix *m, const char *name)
{
	for (size_t i = 0; i < m->nr_accounts; i++)
		if (!strcmp(m->accounts[i], name))
			return true;
	return false;
}

static bool has_kind(const struct et_mix *m, const char *kind, bool is_class)
{
	for (size_t i = 0; i < m->nr_kinds; i++) {
		const char *c = m->kind_class[i];
		size_t n = strlen(kind);

		if (!is_class && !strcmp(m->kind_names[i], kind))
			return true;
		/* "barrier" or "barrier,sprmsr" */
		for (; is_class && c && *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL)
			if (!strncmp(c, kind, n) && (c[n] == ',' || !c[n]))
				return true;
	}
	return false;
}

/*
 * The header against the tables (version 1 files carry no checksum, so
 * this is what refuses one that contradicts itself; version 2 files are
 * held to the same): the mode word says which accounts and sample values
 * there are (fallback: whole alone, no stage values; sites: stages), the
 * tables name declared accounts, kinds and classes, and the setapart
 * count is the sum of its lines.  false, errbuf set.
 */
static bool check_tables(struct et_mix *m, char *errbuf, size_t errlen)
{
	bool fallback = m->mode && !strcmp(m->mode, "fallback");
	/* user: a user-mode process under the timing model, no syscall table */
	bool user = m->mode && !strcmp(m->mode, "user");
	uint64_t n;

	if (m->mode && !fallback && !user && strcmp(m->mode, "sites")) {
		snprintf(errbuf, errlen, "%s: mode '%s': the plugin writes sites, fallback or "
			 "user", m->path, m->mode);
		return false;
	}
	if (fallback && m->staged_samples) {
		snprintf(errbuf, errlen, "%s: mode fallback (no site table), yet %" PRIu64
			 " samples carry stage values", m->path, m->staged_samples);
		return false;
	}
	if (m->mode && !fallback && !user && m->nr_samples && !m->staged_samples) {
		snprintf(errbuf, errlen, "%s: mode sites, yet none of its %zu samples carries "
			 "a stage value", m->path, m->nr_samples);
		return false;
	}
	for (size_t i = 0; i < m->nr_accounts && fallback; i++)
		if (strcmp(m->accounts[i], "whole")) {
			snprintf(errbuf, errlen, "%s: mode fallback (whole alone), yet an account "
				 "'%s'", m->path, m->accounts[i]);
			return false;
		}
	for (size_t i = 0; i < m->nr_stats && m->nr_accounts; i++)
		if (!has_account(m, m->names[m->stats[i].account])) {
			snprintf(errbuf, errlen, "%s: a stat line of account '%s', which no account "
				 "line declares", m->path, m->names[m->stats[i].account]);
			return false;
		}
	for (size_t i = 0; i < m->nr_sums; i++) {
		const struct et_mix_sum *x = &m->sums[i];

		if (m->nr_accounts && !has_account(m, m->names[x->account])) {
			snprintf(errbuf, errlen, "%s: a %s line of account '%s', which no account "
				 "line declares", m->path, x->is_class ? "class" : "kinds",
				 m->names[x->account]);
			return false;
		}
		if (m->nr_kinds && !has_kind(m, m->names[x->what], x->is_class)) {
			snprintf(errbuf, errlen, "%s: a %s line of %s '%s', which no kind line "
				 "declares", m->path, x->is_class ? "class" : "kinds",
				 x->is_class ? "class" : "kind", m->names[x->what]);
			return false;
		}
	}
	n = et_mix_count(m, "setapart");
	if (m->nr_counts && n != m->setapart_sum) {
		snprintf(errbuf, errlen, "%s: count setapart %" PRIu64 ", its setapart lines add "
			 "up to %" PRIu64, m->path, n, m->setapart_sum);
		return false;
	}
	return true;
}

void et_mix_free(struct et_mix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_accounts; i++)
		free(m->accounts[i]);
	free(m->accounts);
	for (int i = 0; i < m->nr_names; i++)
		free(m->names[i]);
	for (size_t i = 0; i < m->nr_kinds; i++) {
		free(m->kind_names[i]);
		free(m->kind_class[i]);
	}
	for (size_t i = 0; i < m->nr_samples; i++)
		free(m->samples[i].vals);
	free(m->names);
	free(m->name_slots);
	free(m->kind_names);
	free(m->kind_class);
	free(m->samples);
	free(m->model);
	free(m->model_hash);
	free(m->params);
	free(m->cstats);
	free(m->ctotals);
	free(m->counts);
	free(m->stats);
	free(m->sums);
	free(m->funcs);
	free(m->setapart);
	free(m->insns);
	free(m->ats);
	free(m->path);
	free(m->arch);
	free(m->build_id);
	free(m->sites_sha256);
	free(m->table_hash);
	free(m->mode);
	free(m->release);
	free(m->samples_arg);
	free(m->tables_arg);
	free(m->calls_arg);
	free(m);
}

struct et_mix *et_mix_open(const char *path, enum et_err *err, char *errbuf, size_t errlen)
{
	struct et_mix *m = calloc(1, sizeof(*m));
	size_t cap = 1 << 16;
	char *line = malloc(cap);
	unsigned long lineno = 0;
	uLong crc = crc32(0, Z_NULL, 0);
	gzFile f = NULL;
	int gzerr;

	*err = ET_ERR_NOMEM;
	snprintf(errbuf, errlen, "out of memory");
	if (!m || !line || !(m->path = strdup(path)))
		goto fail;
	f = gzopen(path, "rb");
	if (!f) {
		*err = ET_ERR_IO;
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	gzbuffer(f, 1 << 17);
	while (gzgets(f, line, (int)cap)) {
		size_t len = strlen(line);

		/* a line longer than the buffer: grow and read the rest */
		while (len == cap - 1 && line[len - 1] != '\n') {
			char *l = realloc(line, cap * 2);

			if (!l)
				goto fail;
			line = l;
			cap *= 2;
			if (!gzgets(f, line + len, (int)(cap - len)))
				break;
			len += strlen(line + len);
		}
		lineno++;
		if (m->complete) {
			*err = ET_ERR_FORMAT;
			snprintf(errbuf, errlen, "%s line %lu: data after the \"end\" line", path,
				 lineno);
			goto fail;
		}
		if (strncmp(line, "end", 3) || (line[3] != '\n' && line[3] != ' ' && line[3]))
			crc = crc32(crc, (const Bytef *)line, (uInt)len);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (lineno == 1) {
			if (!strncmp(line, mix_magic, MIX_MAGIC_LEN) &&
			    line[MIX_MAGIC_LEN] >= '1' &&
			    line[MIX_MAGIC_LEN] <= '0' + MIX_VERSION_MAX &&
			    !line[MIX_MAGIC_LEN + 1]) {
				m->version = line[MIX_MAGIC_LEN] - '0';
			} else {
				*err = ET_ERR_FORMAT;
				snprintf(errbuf, errlen, "%s: not an entrytrace-mix file (version 1 to %d)",
					 path, MIX_VERSION_MAX);
				goto fail;
			}
			continue;
		}
		if (!strncmp(line, "end", 3) && (!line[3] || line[3] == ' ')) {
			if (check_end(m, line, lineno - 1, crc, errbuf, errlen)) {
				*err = ET_ERR_FORMAT;
				goto fail;
			}
			m->complete = true;
			continue;
		}
		if (parse_line(m, line)) {
			*err = ET_ERR_FORMAT;
			if (m->bad[0])
				snprintf(errbuf, errlen, "%s line %lu: %s", path, lineno, m->bad);
			else
				snprintf(errbuf, errlen, "%s line %lu: malformed or unknown line", path,
					 lineno);
			goto fail;
		}
	}
	/*
	 * zlib hands out what it decompressed before it finds a gzip stream
	 * cut short (its trailer, with the CRC and length, gone): only its
	 * error says so, and then the file is not whole
	 */
	{
		const char *why = gzerror(f, &gzerr);

		if (!gzeof(f) || (gzerr != Z_OK && gzerr != Z_STREAM_END)) {
			*err = ET_ERR_FORMAT;
			snprintf(errbuf, errlen, "%s: reading after line %lu: %s", path, lineno,
				 gzerr == Z_ERRNO ? strerror(errno) : why);
			goto fail;
		}
	}
	if (!lineno) {
		*err = ET_ERR_FORMAT;
		snprintf(errbuf, errlen, "%s: empty file", path);
		goto fail;
	}
	if (!m->arch) {
		*err = ET_ERR_FORMAT;
		snprintf(errbuf, errlen, "%s: no arch line", path);
		goto fail;
	}
	if (!check_tables(m, errbuf, errlen)) {
		*err = ET_ERR_FORMAT;
		goto fail;
	}
	/* the plugin writes a version 2 file whole or not at all: one without its end is cut */
	if (m->version >= 2 && !m->complete) {
		*err = ET_ERR_FORMAT;
		snprintf(errbuf, errlen, "%s: no end line after line %lu: the file is cut short",
			 path, lineno);
		goto fail;
	}
	gzclose(f);
	free(line);
	*err = ET_OK;
	return m;
fail:
	if (f)
		gzclose(f);
	free(line);
	et_mix_free(m);
	return NULL;
}

/* The sampled syscalls as et_syscall records, stage values in instructions. */
int et_mix_feed(struct et_mix *m, const struct et_trace *names, et_syscall_fn fn, void *data)
{
	struct et_syscall *sc = calloc(1, sizeof(*sc));
	uint32_t drop = MIX_F_SWITCHED | MIX_F_DESYNC | MIX_F_UNFINISHED | MIX_F_ANOMALY;
	bool fallback = m->mode && !strcmp(m->mode, "fallback");

	if (!sc)
		return -1;
	for (size_t i = 0; i < m->nr_samples; i++) {
		const struct mix_sample *s = &m->samples[i];
		const char *name = m->names[s->name];
		long nr;

		if (s->flags & drop) {
			for (size_t b = 0; b < ET_ARRAY_SIZE(mix_flag_names); b++)
				if (s->flags & drop & (1u << b)) {
					m->set_apart[b]++;
					break;
				}
			continue;
		}
		if (name[0] == '[' || !strncmp(name, "irq:", 4)) {
			m->not_syscall++;
			continue;
		}
		nr = et_syscall_number(names, name);
		if (nr < 0) {
			m->unnamed++;
			continue;
		}
		memset(sc, 0, sizeof(*sc));
		sc->nr = (int)nr;
		sc->seq = s->seq;
		sc->ts_enter = sc->ts_exit = s->seq;	/* exemplars name the sample */
		sc->tgid = -1;
		sc->flags = ET_SC_SAMPLE;
		sc->cpu_enter = sc->cpu_exit = 0;
		for (int j = 0; j < s->nr_vals; j++) {
			int st = s->vals[j].stage;

			et_sc_set(sc, st, s->vals[j].value);
			sc->count[st] = s->vals[j].runs;
		}
		/* fallback mode (no site table): the whole syscall is its total */
		if (s->has_total || (s->has_whole && fallback))
			et_sc_set(sc, ET_SLOT_TOTAL, s->has_total ? s->total : s->whole);
		m->kept++;
		fn(sc, data);
	}
	free(sc);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */

const char *et_mix_path(const struct et_mix *m) { return m->path; }
const char *et_mix_arch(const struct et_mix *m) { return m->arch; }
const char *et_mix_build_id(const struct et_mix *m) { return m->build_id; }
const char *et_mix_table_hash(const struct et_mix *m) { return m->table_hash; }
const char *et_mix_mode(const struct et_mix *m) { return m->mode; }
const char *et_mix_release(const struct et_mix *m) { return m->release; }
const char *et_mix_calls(const struct et_mix *m) { return m->calls_arg; }
const char *et_mix_tables(const struct et_mix *m) { return m->tables_arg; }
bool et_mix_complete(const struct et_mix *m) { return m->complete; }
size_t et_mix_nr_samples(const struct et_mix *m) { return m->nr_samples; }
uint64_t et_mix_kept(const struct et_mix *m) { return m->kept; }
uint64_t et_mix_unnamed(const struct et_mix *m) { return m->unnamed; }
uint64_t et_mix_not_syscall(const struct et_mix *m) { return m->not_syscall; }

/* "switched 3, desync 1" for the samples set apart, or "" */
const char *et_mix_set_apart_str(const struct et_mix *m, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t b = 0; b < ET_ARRAY_SIZE(mix_flag_names) && len < size; b++)
		if (m->set_apart[b])
			len += snprintf(buf + len, size - len, "%s%s %" PRIu64, len ? ", " : "",
					mix_flag_names[b], m->set_apart[b]);
	return buf;
}

uint64_t et_mix_set_apart(const struct et_mix *m)
{
	uint64_t n = 0;

	for (size_t b = 0; b < ET_ARRAY_SIZE(mix_flag_names); b++)
		n += m->set_apart[b];
	return n;
}

uint64_t et_mix_count(const struct et_mix *m, const char *name)
{
	for (size_t i = 0; i < m->nr_counts; i++)
		if (!strcmp(m->names[m->counts[i].name], name))
			return m->counts[i].n;
	return 0;
}

size_t et_mix_stats(const struct et_mix *m, const struct et_mix_stat **st)
{
	*st = m->stats;
	return m->nr_stats;
}

size_t et_mix_sums(const struct et_mix *m, const struct et_mix_sum **s)
{
	*s = m->sums;
	return m->nr_sums;
}

size_t et_mix_funcs(const struct et_mix *m, const struct et_mix_sum **s)
{
	*s = m->funcs;
	return m->nr_funcs;
}

/* The class a kind of instruction belongs to ("barrier"), NULL if none. */
const char *et_mix_kind_class(const struct et_mix *m, const char *kind)
{
	for (size_t i = 0; i < m->nr_kinds; i++)
		if (!strcmp(m->kind_names[i], kind))
			return strcmp(m->kind_class[i], "-") ? m->kind_class[i] : NULL;
	return NULL;
}

/* One account's sum of a kind or class for one syscall; 0 if absent. */
uint64_t et_mix_sum(const struct et_mix *m, const char *name, const char *account,
		    const char *what, bool is_class)
{
	for (size_t i = 0; i < m->nr_sums; i++) {
		const struct et_mix_sum *s = &m->sums[i];

		if (s->is_class == is_class && !strcmp(m->names[s->name], name) &&
		    !strcmp(m->names[s->account], account) && !strcmp(m->names[s->what], what))
			return s->sum;
	}
	return 0;
}

const struct et_mix_stat *et_mix_stat(const struct et_mix *m, const char *name,
				      const char *account)
{
	for (size_t i = 0; i < m->nr_stats; i++)
		if (!strcmp(m->names[m->stats[i].name], name) &&
		    !strcmp(m->names[m->stats[i].account], account))
			return &m->stats[i];
	return NULL;
}

int et_mix_account_stage(const char *account)
{
	return account_stage(account);
}

int et_mix_version(const struct et_mix *m) { return m->version; }
bool et_mix_funcs_complete(const struct et_mix *m) { return m->funcs_all; }
bool et_mix_annotated(const struct et_mix *m) { return m->nr_src > 0; }

uint64_t et_mix_funcs_floor(const struct et_mix *m, int name, int account)
{
	uint64_t floor = 0;
	int listed = 0;

	if (m->funcs_all)
		return 0;
	for (size_t i = 0; i < m->nr_funcs; i++)
		if (m->funcs[i].name == name && m->funcs[i].account == account) {
			listed++;
			if (!floor || m->funcs[i].sum < floor)
				floor = m->funcs[i].sum;
		}
	/* a list shorter than N is every function that ran there */
	return listed >= m->funcs_top ? floor : 0;
}

size_t et_mix_insns(const struct et_mix *m, const struct et_mix_insn **insns)
{
	*insns = m->insns;
	return m->nr_insns;
}

size_t et_mix_ats(const struct et_mix *m, const struct et_mix_at **at)
{
	*at = m->ats;
	return m->nr_ats;
}

/* ------------------------------------------------------------------ */
/* Version 3: the timing model                                         */

bool et_mix_has_model(const struct et_mix *m) { return m->model != NULL; }
const char *et_mix_model(const struct et_mix *m) { return m->model; }
const char *et_mix_model_hash(const struct et_mix *m) { return m->model_hash; }

bool et_mix_model_param(const struct et_mix *m, const char *key, int point, double *v)
{
	for (size_t i = 0; i < m->nr_params; i++)
		if (!strcmp(m->names[m->params[i].key], key) && point >= 0 && point < 3) {
			*v = m->params[i].v[point];
			return true;
		}
	return false;
}

const struct et_mix_cstat *et_mix_cstat(const struct et_mix *m, const char *name,
					const char *account)
{
	for (size_t i = 0; i < m->nr_cstats; i++)
		if (!strcmp(m->names[m->cstats[i].name], name) &&
		    !strcmp(m->names[m->cstats[i].account], account))
			return &m->cstats[i];
	return NULL;
}

const uint64_t *et_mix_ctotal(const struct et_mix *m, const char *name)
{
	for (size_t i = 0; i < m->nr_ctotals; i++)
		if (!strcmp(m->names[m->ctotals[i].name], name))
			return m->ctotals[i].m;
	return NULL;
}
