// SPDX-License-Identifier: LGPL-2.1
/*
 * Where plugin output's instructions ran, by place: the source line that
 * holds them (codeplace.c), so that a change between two kernels names the
 * function, the line and whose code it is.  A place is keyed by its code
 * class, function, the function inlined there and the file, not by the line
 * number, which moves between kernel versions; the lines are listed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

/* Did the instruction run in the syscall body (a BODY stage) for this syscall? */
static bool *body_insns(const struct et_mix *m, int name)
{
	const struct et_mix_at *at;
	const struct et_mix_insn *insns;
	size_t na = et_mix_ats(m, &at), ni = et_mix_insns(m, &insns);
	bool *body = calloc(ni + 1, sizeof(*body));

	if (!body)
		return NULL;
	for (size_t i = 0; i < na; i++) {
		int st = et_mix_account_stage(et_mix_name(m, at[i].account));

		if (at[i].name == name && st >= 0 && st != ET_SLOT_TOTAL &&
		    et_stages[st].phase == ET_PHASE_BODY)
			body[at[i].insn] = true;
	}
	return body;
}

static int add_kind(struct et_where *w, const char *kind, double n)
{
	for (int k = 0; k < w->nr_kinds; k++)
		if (!strcmp(w->kinds[k].kind, kind)) {
			w->kinds[k].n += n;
			return 0;
		}
	if (w->nr_kinds == (int)ET_ARRAY_SIZE(w->kinds))
		return -1;
	w->kinds[w->nr_kinds].kind = kind;
	w->kinds[w->nr_kinds++].n = n;
	return 0;
}

static void add_line(struct et_where *w, int line)
{
	for (int i = 0; i < w->nr_lines; i++)
		if (w->lines[i] == line)
			return;
	if (w->nr_lines < (int)ET_ARRAY_SIZE(w->lines))
		w->lines[w->nr_lines++] = line;
	else
		w->more_lines = true;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The place of instruction i: from its src frames, or its function if not annotated. */
static int place_of(const struct et_mix *m, const struct et_mix_insn *in, bool body,
		    struct et_place *p)
{
	char frames[256];

	if (in->src >= 0)
		return et_place_of(et_mix_name(m, in->src), body, p);
	snprintf(frames, sizeof(frames), "%.*s@?:0",
		 (int)strcspn(et_mix_name(m, in->where), "+"), et_mix_name(m, in->where));
	return et_place_of(frames, body, p);
}

bool et_where_same_place(const struct et_where *a, const struct et_where *b)
{
	return a->place.code == b->place.code && !strcmp(a->place.func, b->place.func) &&
	       !strcmp(a->place.callee, b->place.callee) && !strcmp(a->place.file, b->place.file);
}

/*
 * The places of one syscall x account, per syscall (over the whole
 * syscall's N: a stage that ran in some calls only counts for all); *out
 * is malloc'd.  Returns the number of places, 0 when the file
 * has no per-instruction table for it, -1 on failure.
 */
ssize_t et_mix_where(const struct et_mix *m, const char *name, const char *account,
		     struct et_where **out)
{
	const struct et_mix_stat *st = et_mix_stat(m, name, account);
	const struct et_mix_stat *whole = et_mix_stat(m, name, "whole");
	const struct et_mix_insn *insns;
	const struct et_mix_at *at;
	size_t na = et_mix_ats(m, &at), cap = 0, n = 0;
	struct et_where *w = NULL;
	bool *body = NULL;
	int nid = -1, aid = -1, stage;
	bool stage_body = false;

	*out = NULL;
	et_mix_insns(m, &insns);
	if (!st || !st->n || !whole || !whole->n)
		return 0;
	nid = st->name;
	aid = st->account;
	stage = et_mix_account_stage(account);
	if (stage >= 0 && stage != ET_SLOT_TOTAL)
		stage_body = et_stages[stage].phase == ET_PHASE_BODY;
	else if (!(body = body_insns(m, nid)))
		return -1;
	for (size_t i = 0; i < na; i++) {
		const struct et_mix_insn *in;
		struct et_where cur = { 0 };
		size_t j;

		if (at[i].name != nid || at[i].account != aid)
			continue;
		in = &insns[at[i].insn];
		if (place_of(m, in, body ? body[at[i].insn] : stage_body, &cur.place))
			continue;
		for (j = 0; j < n && !et_where_same_place(&w[j], &cur); j++)
			;
		if (j == n) {
			if (et_grow((void **)&w, &cap, n + 1, sizeof(*w)))
				goto fail;
			w[n] = cur;
			snprintf(w[n].where, sizeof(w[n].where), "%s", et_mix_name(m, in->where));
			w[n].addr = in->addr;
			n++;
		}
		w[j].insns += (double)at[i].n / whole->n;
		for (int k = 0; k < ET_NR_MET; k++)
			w[j].m[k] += (double)at[i].m[k] / whole->n;
		add_line(&w[j], cur.place.line);
		if (in->addr < w[j].addr) {
			w[j].addr = in->addr;
			snprintf(w[j].where, sizeof(w[j].where), "%s", et_mix_name(m, in->where));
		}
		if (in->kind >= 0 && add_kind(&w[j], et_mix_name(m, in->kind), (double)at[i].n / whole->n))
			w[j].more_kinds = true;
		if (in->callkind >= 0 &&
		    add_kind(&w[j], et_mix_name(m, in->callkind), (double)at[i].n / whole->n))
			w[j].more_kinds = true;
	}
	for (size_t j = 0; j < n; j++)
		qsort(w[j].lines, w[j].nr_lines, sizeof(int), cmp_int);
	free(body);
	*out = w;
	return (ssize_t)n;
fail:
	free(body);
	free(w);
	return -1;
}

/* A kind's count per call at a place, 0 if it has none. */
double et_where_kind(const struct et_where *w, const char *kind)
{
	for (int k = 0; w && k < w->nr_kinds; k++)
		if (!strcmp(w->kinds[k].kind, kind))
			return w->kinds[k].n;
	return 0;
}

/* "syscall.c:21,26" (the file's last component and the lines) */
char *et_where_lines(const struct et_where *w, char *buf, size_t size)
{
	const char *base = strrchr(w->place.file, '/');
	size_t len;

	len = snprintf(buf, size, "%s", base ? base + 1 : w->place.file);
	for (int i = 0; i < w->nr_lines && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%d", i ? "," : ":", w->lines[i]);
	if (w->more_lines && len < size)
		snprintf(buf + len, size - len, ",...");
	return buf;
}
