// SPDX-License-Identifier: LGPL-2.1
/*
 * Render, QEMU plugin output by place: where two kernels' instructions and
 * instruction classes differ, each difference named by the source line that
 * holds it and whose code it is (lib/mix_where.c, lib/codeplace.def).
 *
 *   classes: every place whose count of a classed instruction (barrier,
 *            atomic, SPR/MSR move, counter read, interrupt return, counted
 *            call) per syscall moved, per stage;
 *   code:    the whole syscall's instructions and classes per code class
 *            (handler, generic entry, arch entry, tracer, other);
 *   insns:   (--where N) the N places whose instructions moved most.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

/*
 * The accounts that partition a syscall: the top-level stages, the gap
 * between them and what ran outside the staged window; the whole syscall
 * when the file has no stages (fallback mode).
 */
static bool partition_account(const struct et_mix *m, const char *acc)
{
	int st;

	if (et_mix_mode(m) && !strcmp(et_mix_mode(m), "fallback"))
		return !strcmp(acc, "whole");
	if (!strcmp(acc, "gap") || !strcmp(acc, "outside"))
		return true;
	st = et_mix_account_stage(acc);
	return st >= 0 && st != ET_SLOT_TOTAL && et_stages[st].parent == ET_STAGE_NONE;
}

struct wrow {
	const char *account;
	const struct et_where *a, *b;	/* NULL: not on that side */
	double d_insns, d_class;	/* per syscall; d_class: the sum of |kind deltas| */
};

struct side {
	struct et_where *w;
	ssize_t n;
};

static const struct et_where *find(const struct side *s, const struct et_where *w)
{
	for (ssize_t i = 0; i < s->n; i++)
		if (et_where_same_place(&s->w[i], w))
			return &s->w[i];
	return NULL;
}

static bool classed(const struct et_mix *m, const char *kind)
{
	return et_mix_kind_class(m, kind) != NULL;
}

/* "hwsync +2 ldarx +1": the classed kinds whose count per syscall moved */
static double kinds_delta(const struct et_mix *ma, const struct et_where *a,
			  const struct et_mix *mb, const struct et_where *b, char *buf, size_t size)
{
	const struct et_where *side[2] = { a, b };
	const struct et_mix *ms[2] = { ma, mb };
	double sum = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (int s = 0; s < 2; s++) {
		for (int k = 0; side[s] && k < side[s]->nr_kinds; k++) {
			const char *kind = side[s]->kinds[k].kind;
			double d;

			if (!classed(ms[s], kind) || (s == 1 && et_where_kind(a, kind) != 0))
				continue;
			d = et_where_kind(b, kind) - et_where_kind(a, kind);
			if (fabs(d) < 0.005)
				continue;
			sum += fabs(d);
			/* whole counts per syscall as such; a rare path's share to 2 places */
			len += snprintf(buf + len, len < size ? size - len : 0,
					fabs(d - round(d)) < 0.005 ? "%s%s %+.0f" : "%s%s %+.2f",
					len ? " " : "", strncmp(kind, "call:", 5) ? kind : kind + 5, d);
		}
	}
	return sum;
}

static int cmp_wrow(const void *x, const void *y)
{
	const struct wrow *a = x, *b = y;

	if (a->d_class != b->d_class)
		return a->d_class < b->d_class ? 1 : -1;
	if (fabs(a->d_insns) != fabs(b->d_insns))
		return fabs(a->d_insns) < fabs(b->d_insns) ? 1 : -1;
	return 0;
}

static const struct et_where *shown(const struct wrow *r)
{
	return r->b ? r->b : r->a;
}

/* "system_call_exception+0x5f8 arch/powerpc/kernel/syscall.c:28 (test_and_...)" */
static char *place_str(const struct et_where *w, char *buf, size_t size)
{
	bool file = w->place.file[0] && strcmp(w->place.file, "?");
	const char *colon = NULL;
	char lb[160];

	if (file)
		colon = strchr(et_where_lines(w, lb, sizeof(lb)), ':');
	snprintf(buf, size, "%s %s%s%s%s%s", w->where, file ? w->place.file : "(no line)",
		 colon ? colon : "", w->place.callee[0] ? " (" : "", w->place.callee,
		 w->place.callee[0] ? ")" : "");
	return buf;
}

/* Rows of one syscall: every place of the partition's accounts, both sides. */
static size_t rows_of(const struct et_mix *ma, const struct et_mix *mb, const char *name,
		      struct wrow **rows, struct side **sides, size_t *nsides)
{
	const struct et_mix *ms[2] = { ma, mb };
	size_t nr = 0, cap = 0, ns = 0, caps = 0;
	char kb[512];

	*rows = NULL;
	*sides = NULL;
	for (int s = 0; s < 2; s++) {
		const struct et_mix_stat *st;
		size_t n = et_mix_stats(ms[s], &st);

		for (size_t i = 0; i < n; i++) {
			const char *acc = et_mix_name(ms[s], st[i].account);
			struct side sa, sb;

			if (strcmp(et_mix_name(ms[s], st[i].name), name) ||
			    !partition_account(ms[s], acc))
				continue;
			/* each account once: from the base, or from the test if the base lacks it */
			if (s == 1 && et_mix_stat(ma, name, acc) && partition_account(ma, acc))
				continue;
			sa.n = et_mix_where(ma, name, acc, &sa.w);
			sb.n = et_mix_where(mb, name, acc, &sb.w);
			if (sa.n < 0 || sb.n < 0 ||
			    et_grow((void **)sides, &caps, ns + 2, sizeof(**sides))) {
				free(sa.n > 0 ? sa.w : NULL);
				free(sb.n > 0 ? sb.w : NULL);
				continue;
			}
			(*sides)[ns++] = sa;
			(*sides)[ns++] = sb;
			for (int k = 0; k < 2; k++) {
				const struct side *me = k ? &sb : &sa, *other = k ? &sa : &sb;

				for (ssize_t j = 0; j < me->n; j++) {
					const struct et_where *o = find(other, &me->w[j]);
					struct wrow r = { .account = acc };

					if (k && o)
						continue;	/* with the base */
					r.a = k ? o : &me->w[j];
					r.b = k ? &me->w[j] : o;
					r.d_insns = (r.b ? r.b->insns : 0) - (r.a ? r.a->insns : 0);
					r.d_class = kinds_delta(ma, r.a, mb, r.b, kb, sizeof(kb));
					if (et_grow((void **)rows, &cap, nr + 1, sizeof(**rows)))
						break;
					(*rows)[nr++] = r;
				}
			}
		}
	}
	*nsides = ns;
	return nr;
}

static void free_sides(struct side *sides, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(sides[i].w);
	free(sides);
}

static bool has_insns(const struct et_mix *m)
{
	const struct et_mix_insn *in;

	return et_mix_insns(m, &in) > 0;
}

static double wm(const struct et_where *w, int k)
{
	return w ? w->m[k] : 0;
}

static int cmp_cycles(const void *x, const void *y)
{
	const struct wrow *a = x, *b = y;
	double da = fabs(wm(a->b, ET_MET_CYC) - wm(a->a, ET_MET_CYC));
	double db = fabs(wm(b->b, ET_MET_CYC) - wm(b->a, ET_MET_CYC));

	return da < db ? 1 : da > db ? -1 : 0;
}

/*
 * --where on two modelled files: the places whose modelled cycles moved
 * most, with the change at the parameters' low..high end, the
 * instructions' change and the misses' (a miss change names the line that
 * took it; scripts/host/struct-layout names the fields on that line's data)
 */
static void text_cycles_rows(struct wrow *rows, size_t nr, const char *name, int n, FILE *out)
{
	char pb[512], rb[48];
	int k = 0;

	qsort(rows, nr, sizeof(*rows), cmp_cycles);
	fprintf(out, "\n%s: the %d places whose modelled cycles moved most, base -> test (per "
		"syscall; delta at the parameters' middle (low..high); misses: test minus base)\n",
		name, n);
	fprintf(out, "%-18s %8s %8s %8s %-17s %7s %6s %6s %6s  %-13s %s\n", "stage", "base", "test",
		"delta", "(low..high)", "insns", "l1i", "l1d", "l2", "code", "place");
	for (size_t j = 0; j < nr && k < n; j++) {
		const struct et_where *w = shown(&rows[j]);
		double d[3];

		for (int p = 0; p < 3; p++)
			d[p] = wm(rows[j].b, ET_MET_CYC_LO + p) - wm(rows[j].a, ET_MET_CYC_LO + p);
		if (fabs(d[1]) < 0.05)
			break;
		snprintf(rb, sizeof(rb), "(%+.1f..%+.1f)", fmin(d[0], d[2]), fmax(d[0], d[2]));
		fprintf(out, "%-18s %8.1f %8.1f %+8.1f %-17s %+7.1f %+6.2f %+6.2f %+6.2f  %-13s %s\n",
			rows[j].account, wm(rows[j].a, ET_MET_CYC), wm(rows[j].b, ET_MET_CYC), d[1], rb,
			rows[j].d_insns, wm(rows[j].b, ET_MET_L1I) - wm(rows[j].a, ET_MET_L1I),
			wm(rows[j].b, ET_MET_L1D) - wm(rows[j].a, ET_MET_L1D),
			wm(rows[j].b, ET_MET_L2) - wm(rows[j].a, ET_MET_L2), et_code_name(w->place.code),
			place_str(w, pb, sizeof(pb)));
		k++;
	}
	if (!k)
		fprintf(out, "(no place's modelled cycles moved)\n");
}

void et_text_where_diff(const struct et_mix *ma, const struct et_mix *mb, const char *const *names,
			size_t nr_names, int insn_rows, FILE *out)
{
	char kb[512], pb[512];

	if (!has_insns(ma) || !has_insns(mb)) {
		fprintf(out, "\nwhere: %s has no per-instruction table (plugin output version %d): "
			"no place to name; record it again with the current plugin\n",
			!has_insns(ma) ? et_mix_path(ma) : et_mix_path(mb),
			!has_insns(ma) ? et_mix_version(ma) : et_mix_version(mb));
		return;
	}
	if (!et_mix_annotated(ma) || !et_mix_annotated(mb))
		fprintf(out, "\nwhere: %s is not annotated (entrytrace annotate --vmlinux): places "
			"are functions, with no line\n",
			!et_mix_annotated(ma) ? et_mix_path(ma) : et_mix_path(mb));
	for (size_t i = 0; i < nr_names; i++) {
		struct wrow *rows;
		struct side *sides;
		size_t ns, nr = rows_of(ma, mb, names[i], &rows, &sides, &ns), shown_rows = 0;
		double code[2][ET_CODE_NR] = { { 0 } };

		if (!nr) {
			free(rows);
			free_sides(sides, ns);
			continue;
		}
		qsort(rows, nr, sizeof(*rows), cmp_wrow);
		fprintf(out, "\nwhere the instruction classes moved: %s, base -> test (per syscall; "
			"place: the first instruction, the file and lines that hold it and the\n"
			"function inlined there; code: whose code, by lib/codeplace.def)\n", names[i]);
		fprintf(out, "%-18s %-34s %8s  %-13s %s\n", "stage", "classes", "insns", "code",
			"place");
		for (size_t j = 0; j < nr; j++) {
			const struct et_where *w = shown(&rows[j]);

			if (rows[j].a)
				code[0][rows[j].a->place.code] += rows[j].a->insns;
			if (rows[j].b)
				code[1][rows[j].b->place.code] += rows[j].b->insns;
			if (rows[j].d_class < 0.005)
				continue;
			kinds_delta(ma, rows[j].a, mb, rows[j].b, kb, sizeof(kb));
			fprintf(out, "%-18s %-34s %+8.1f  %-13s %s\n", rows[j].account, kb,
				rows[j].d_insns, et_code_name(w->place.code),
				place_str(w, pb, sizeof(pb)));
			shown_rows++;
		}
		if (!shown_rows)
			fprintf(out, "(no classed instruction moved)\n");
		fprintf(out, "\n%s by code, base -> test (instructions per syscall, every stage, "
			"the gap and outside)\n", names[i]);
		fprintf(out, "%-14s %10s %10s %9s\n", "code", "base", "test", "delta");
		for (int c = 0; c < ET_CODE_NR; c++) {
			if (!code[0][c] && !code[1][c])
				continue;
			fprintf(out, "%-14s %10.1f %10.1f %+9.1f\n", et_code_name(c), code[0][c],
				code[1][c], code[1][c] - code[0][c]);
		}
		fprintf(out, "%-14s %10.1f %10.1f %+9.1f\n", "entry (both)",
			code[0][ET_CODE_ARCH] + code[0][ET_CODE_GENERIC],
			code[1][ET_CODE_ARCH] + code[1][ET_CODE_GENERIC],
			code[1][ET_CODE_ARCH] + code[1][ET_CODE_GENERIC] -
			code[0][ET_CODE_ARCH] - code[0][ET_CODE_GENERIC]);
		if (insn_rows > 0) {
			int k = 0;

			for (size_t j = 0; j < nr; j++)
				rows[j].d_class = 0;
			qsort(rows, nr, sizeof(*rows), cmp_wrow);
			fprintf(out, "\n%s: the %d places whose instructions moved most, base -> test "
				"(per syscall)\n", names[i], insn_rows);
			fprintf(out, "%-18s %8s %8s %8s  %-13s %s\n", "stage", "base", "test", "delta",
				"code", "place");
			for (size_t j = 0; j < nr && k < insn_rows; j++) {
				const struct et_where *w = shown(&rows[j]);
				char bb[16], tb[16];

				if (fabs(rows[j].d_insns) < 0.05)
					break;
				snprintf(bb, sizeof(bb), rows[j].a ? "%.1f" : "-",
					 rows[j].a ? rows[j].a->insns : 0);
				snprintf(tb, sizeof(tb), rows[j].b ? "%.1f" : "-",
					 rows[j].b ? rows[j].b->insns : 0);
				fprintf(out, "%-18s %8s %8s %+8.1f  %-13s %s\n", rows[j].account, bb, tb,
					rows[j].d_insns, et_code_name(w->place.code),
					place_str(w, pb, sizeof(pb)));
				k++;
			}
		}
		if (insn_rows > 0 && et_mix_has_model(ma) && et_mix_has_model(mb) &&
		    !strcmp(et_mix_model(ma), et_mix_model(mb)) &&
		    !strcmp(et_mix_model_hash(ma), et_mix_model_hash(mb)))
			text_cycles_rows(rows, nr, names[i], insn_rows, out);
		free(rows);
		free_sides(sides, ns);
	}
}

static void json_side(FILE *out, const struct et_mix *m, const struct et_where *w)
{
	if (!w) {
		fprintf(out, "null");
		return;
	}
	fprintf(out, "{\"insns\": %.3f, ", w->insns);
	if (et_mix_has_model(m)) {
		fprintf(out, "\"model\": {");
		for (int k = 0; k < ET_NR_MET; k++)
			fprintf(out, "%s\"%s\": %.3f", k ? ", " : "", et_met_names[k], w->m[k]);
		fprintf(out, "}, ");
	}
	fprintf(out, "\"first\": ");
	et_json_str(out, w->where);
	fprintf(out, ", \"lines\": [");
	for (int i = 0; i < w->nr_lines; i++)
		fprintf(out, "%s%d", i ? ", " : "", w->lines[i]);
	fprintf(out, "], \"kinds\": {");
	for (int k = 0, first = 1; k < w->nr_kinds; k++) {
		if (!classed(m, w->kinds[k].kind))
			continue;
		fprintf(out, "%s", first ? "" : ", ");
		et_json_str(out, w->kinds[k].kind);
		fprintf(out, ": %.3f", w->kinds[k].n);
		first = 0;
	}
	fprintf(out, "}}");
}

/*
 * "mix_code": per syscall and code class, instructions per syscall on each
 * side (every place of the partition's accounts), and the classed kinds
 */
static void json_code(const struct et_mix *ma, const struct et_mix *mb, const char *const *names,
		      size_t nr_names, FILE *out)
{
	bool first = true;

	fprintf(out, ",\n  \"mix_code\": [");
	for (size_t i = 0; i < nr_names; i++) {
		struct wrow *rows;
		struct side *sides;
		size_t ns, nr = rows_of(ma, mb, names[i], &rows, &sides, &ns);

		for (int c = 0; c < ET_CODE_NR && nr; c++) {
			double v[2] = { 0 };
			bool any = false;

			for (size_t j = 0; j < nr; j++) {
				if (rows[j].a && rows[j].a->place.code == (enum et_code)c)
					v[0] += rows[j].a->insns, any = true;
				if (rows[j].b && rows[j].b->place.code == (enum et_code)c)
					v[1] += rows[j].b->insns, any = true;
			}
			if (!any)
				continue;
			fprintf(out, "%s\n    {\"syscall\": ", first ? "" : ",");
			et_json_str(out, names[i]);
			fprintf(out, ", \"code\": \"%s\", \"base\": %.3f, \"test\": %.3f, \"kinds\": {",
				et_code_key(c), v[0], v[1]);
			/* each classed kind of this code, test minus base */
			{
				const char *seen[64];
				int nseen = 0;

				for (size_t j = 0; j < nr; j++)
					for (int s = 0; s < 2; s++) {
						const struct et_where *w = s ? rows[j].b : rows[j].a;

						for (int k = 0; w && w->place.code == (enum et_code)c &&
						     k < w->nr_kinds && nseen < 64; k++) {
							const char *kind = w->kinds[k].kind;
							double d = 0;
							int q;

							if (!classed(s ? mb : ma, kind))
								continue;
							for (q = 0; q < nseen && strcmp(seen[q], kind); q++)
								;
							if (q < nseen)
								continue;
							seen[nseen++] = kind;
							for (size_t r = 0; r < nr; r++) {
								if (rows[r].b && rows[r].b->place.code == (enum et_code)c)
									d += et_where_kind(rows[r].b, kind);
								if (rows[r].a && rows[r].a->place.code == (enum et_code)c)
									d -= et_where_kind(rows[r].a, kind);
							}
							fprintf(out, "%s", nseen > 1 ? ", " : "");
							et_json_str(out, kind);
							fprintf(out, ": %.3f", d);
						}
					}
			}
			fprintf(out, "}}");
			first = false;
		}
		free(rows);
		free_sides(sides, ns);
	}
	fprintf(out, "\n  ]");
}

/* "mix_where": every place of the named syscalls whose instructions or classes moved */
void et_json_where_diff(const struct et_mix *ma, const struct et_mix *mb, const char *const *names,
			size_t nr_names, FILE *out)
{
	bool first = true;

	json_code(ma, mb, names, nr_names, out);
	fprintf(out, ",\n  \"mix_where\": [");
	for (size_t i = 0; i < nr_names; i++) {
		struct wrow *rows;
		struct side *sides;
		size_t ns, nr = rows_of(ma, mb, names[i], &rows, &sides, &ns);

		for (size_t j = 0; j < nr; j++) {
			const struct et_where *w = shown(&rows[j]);

			if (fabs(rows[j].d_insns) < 0.0005 && rows[j].d_class < 0.0005)
				continue;
			fprintf(out, "%s\n    {\"syscall\": ", first ? "" : ",");
			et_json_str(out, names[i]);
			fprintf(out, ", \"account\": ");
			et_json_str(out, rows[j].account);
			fprintf(out, ", \"code\": \"%s\", \"function\": ", et_code_key(w->place.code));
			et_json_str(out, w->place.func);
			fprintf(out, ", \"inlined\": ");
			et_json_str(out, w->place.callee);
			fprintf(out, ", \"file\": ");
			et_json_str(out, w->place.file);
			fprintf(out, ", \"base\": ");
			json_side(out, ma, rows[j].a);
			fprintf(out, ", \"test\": ");
			json_side(out, mb, rows[j].b);
			fprintf(out, ", \"insns_delta\": %.3f}", rows[j].d_insns);
			first = false;
		}
		free(rows);
		free_sides(sides, ns);
	}
	fprintf(out, "\n  ]");
}

/* A place's count of a kind, or of every kind of a class, per syscall. */
static double what_at(const struct et_mix *m, const struct et_where *w, const char *what)
{
	double n = 0;

	for (int k = 0; w && k < w->nr_kinds; k++) {
		const char *cls = et_mix_kind_class(m, w->kinds[k].kind);

		if (!strcmp(w->kinds[k].kind, what) || (cls && !strcmp(cls, what)))
			n += w->kinds[k].n;
	}
	return n;
}

/*
 * The place where a kind or class (what) grew most in one syscall, as
 * "stage: FUNC+OFF FILE:LINES (INLINED), CODE"; "" when no place did.
 */
char *et_where_culprit(const struct et_mix *ma, const struct et_mix *mb, const char *name,
		       const char *what, char *buf, size_t size)
{
	struct wrow *rows;
	struct side *sides;
	size_t ns, nr = rows_of(ma, mb, name, &rows, &sides, &ns);
	double best = 0;
	size_t pick = nr;
	char pb[512];

	buf[0] = '\0';
	for (size_t j = 0; j < nr; j++) {
		double d = what_at(mb, rows[j].b, what) - what_at(ma, rows[j].a, what);

		if (d > best + 1e-9) {
			best = d;
			pick = j;
		}
	}
	if (pick < nr)
		snprintf(buf, size, "%s: %s, %s", rows[pick].account,
			 place_str(shown(&rows[pick]), pb, sizeof(pb)),
			 et_code_name(shown(&rows[pick])->place.code));
	free(rows);
	free_sides(sides, ns);
	return buf;
}

static int cmp_insns(const void *x, const void *y)
{
	const struct et_where *a = x, *b = y;

	return a->insns < b->insns ? 1 : a->insns > b->insns ? -1 : 0;
}

/*
 * One file: per syscall and account of the partition, its places by
 * instructions per syscall (at most rows of each), and the syscall's
 * instructions per code class.
 */
void et_text_where(const struct et_mix *m, const char *const *names, size_t nr_names, int rows,
		   FILE *out)
{
	char pb[512], kb[256];

	if (!has_insns(m)) {
		fprintf(out, "\nwhere: %s has no per-instruction table (plugin output version %d)\n",
			et_mix_path(m), et_mix_version(m));
		return;
	}
	for (size_t i = 0; i < nr_names; i++) {
		const struct et_mix_stat *st;
		size_t n = et_mix_stats(m, &st);
		double code[ET_CODE_NR] = { 0 };

		fprintf(out, "\nwhere %s runs: %s (instructions per syscall by place; %s)\n",
			names[i], et_mix_path(m), et_mix_annotated(m) ? "place: the first "
			"instruction, the file and lines that hold it and the function inlined there" :
			"not annotated: places are functions");
		if (et_mix_has_model(m))
			fprintf(out, "%-18s %8s %8s %-17s %6s %6s  %-22s %-13s %s\n", "stage", "insns",
				"cycles", "(low..high)", "l1d", "l2", "classes", "code", "place");
		else
			fprintf(out, "%-18s %8s  %-22s %-13s %s\n", "stage", "insns", "classes", "code",
				"place");
		for (size_t j = 0; j < n; j++) {
			const char *acc = et_mix_name(m, st[j].account);
			struct et_where *w;
			ssize_t nw;

			if (strcmp(et_mix_name(m, st[j].name), names[i]) || !partition_account(m, acc))
				continue;
			nw = et_mix_where(m, names[i], acc, &w);
			if (nw <= 0)
				continue;
			qsort(w, nw, sizeof(*w), cmp_insns);
			for (ssize_t k = 0; k < nw; k++) {
				size_t len = 0;

				code[w[k].place.code] += w[k].insns;
				if (k >= rows)
					continue;
				kb[0] = '\0';
				for (int q = 0; q < w[k].nr_kinds; q++)
					if (classed(m, w[k].kinds[q].kind))
						len += snprintf(kb + len, len < sizeof(kb) ? sizeof(kb) - len : 0,
								fabs(w[k].kinds[q].n - round(w[k].kinds[q].n)) <
								0.005 ? "%s%s %.0f" : "%s%s %.2f", len ? " " : "",
								w[k].kinds[q].kind, w[k].kinds[q].n);
				if (et_mix_has_model(m)) {
					char rb[48];

					snprintf(rb, sizeof(rb), "(%.1f..%.1f)", w[k].m[ET_MET_CYC_LO],
						 w[k].m[ET_MET_CYC_HI]);
					fprintf(out, "%-18s %8.1f %8.1f %-17s %6.2f %6.2f  %-22s %-13s %s\n",
						k ? "" : acc, w[k].insns, w[k].m[ET_MET_CYC], rb,
						w[k].m[ET_MET_L1D], w[k].m[ET_MET_L2], kb,
						et_code_name(w[k].place.code),
						place_str(&w[k], pb, sizeof(pb)));
				}
				else
					fprintf(out, "%-18s %8.1f  %-22s %-13s %s\n", k ? "" : acc,
						w[k].insns, kb, et_code_name(w[k].place.code),
						place_str(&w[k], pb, sizeof(pb)));
			}
			if (nw > rows)
				fprintf(out, "%-18s (%zd more places)\n", "", nw - rows);
			free(w);
		}
		fprintf(out, "%s by code:", names[i]);
		for (int c = 0; c < ET_CODE_NR; c++)
			if (code[c])
				fprintf(out, " %s %.1f,", et_code_name(c), code[c]);
		fprintf(out, " entry (both) %.1f\n", code[ET_CODE_ARCH] + code[ET_CODE_GENERIC]);
	}
}
