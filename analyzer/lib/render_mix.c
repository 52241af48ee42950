// SPDX-License-Identifier: LGPL-2.1
/*
 * Render, QEMU plugin output: the file's header and the instruction mix -
 * per syscall and stage, instructions per call and instructions of each
 * class per call (the classes of analyzer/include/mix-format.def), with the
 * barrier kinds and counted calls named - and the mix of two files side by
 * side.  These come from the plugin's aggregated tables, which cover every
 * syscall of its tables= argument, not only the sampled ones.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

/* The classes print in et_mix_classes' order; any other class the file has follows. */
struct mix_row {
	const char *name, *account;
	double calls, insns;		/* calls: the stat line's N */
	double cls[ET_MIX_NR_CLASSES];	/* per call */
};

static void row_of(const struct et_mix *m, const struct et_mix_stat *st, struct mix_row *r)
{
	r->name = et_mix_name(m, st->name);
	r->account = et_mix_name(m, st->account);
	r->calls = (double)st->n;
	r->insns = st->n ? (double)st->sum / st->n : 0;
	for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
		r->cls[c] = et_mix_per(m, st, et_mix_classes[c], true, st);
}

/* The kinds the mix names: barriers (x86 wrmsr/iret are barriers too) and counted calls. */
static bool named_kind(const struct et_mix *m, const char *kind)
{
	const char *cls = et_mix_kind_class(m, kind);
	const char *barrier = et_mix_classes[ET_MIX_CLASS_BARRIER];

	return cls && (!strncmp(cls, barrier, strlen(barrier)) ||
		       !strcmp(cls, et_mix_classes[ET_MIX_CLASS_CALL]));
}

/* "call:__rcu_read_lock" prints as the function */
static const char *kind_label(const char *kind)
{
	return strncmp(kind, "call:", 5) ? kind : kind + 5;
}

/* "hwsync 2 lwsync 1 __rcu_read_lock 7": barrier kinds and calls, per call */
static void kinds_str(const struct et_mix *m, const struct et_mix_stat *st, char *buf,
		      size_t size)
{
	const struct et_mix_sum *s;
	size_t n = et_mix_sums(m, &s), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		const char *what = et_mix_name(m, s[i].what);

		if (s[i].is_class || s[i].name != st->name || s[i].account != st->account ||
		    !named_kind(m, what))
			continue;
		len += snprintf(buf + len, size - len, "%s%s %g", len ? " " : "", kind_label(what),
				st->n ? (double)s[i].sum / st->n : 0);
	}
}

/* report --json: a plugin output's own keys of its file */
void et_json_mix_file(const struct et_report_file *f, FILE *out)
{
	fprintf(out, ", \"mix_complete\": %s, \"mix_samples\": %zu, \"mix_kept\": %" PRIu64
		", \"mix_set_apart\": %" PRIu64 ", \"mix_not_syscall\": %" PRIu64
		", \"mix_unnamed\": %" PRIu64,
		et_mix_complete(f->mix) ? "true" : "false", et_mix_nr_samples(f->mix),
		et_mix_kept(f->mix), et_mix_set_apart(f->mix), et_mix_not_syscall(f->mix),
		et_mix_unnamed(f->mix));
}

void et_text_mix_file(const struct et_report_file *f, FILE *out)
{
	const struct et_mix *m = f->mix;
	char buf[256];

	fprintf(out, "file:        %s\n", f->info.path);
	fprintf(out, "format:      entrytrace-mix %d (QEMU TCG plugin output), %s, site table %s "
		"(%s mode)\n", et_mix_version(m), et_mix_arch(m),
		et_mix_table_hash(m) ? et_mix_table_hash(m) : "?", et_mix_mode(m) ? et_mix_mode(m) : "?");
	if (et_mix_version(m) >= 2)
		fprintf(out, "tables:      %s; %s\n",
			et_mix_funcs_complete(m) ? "every function that ran" :
			"the top functions of each stage only (topk=)",
			et_mix_annotated(m) ? "instructions with their source lines (entrytrace annotate)" :
			"instructions by address, no source lines (not annotated)");
	else
		fprintf(out, "tables:      top functions only, no per-instruction table (version 1: "
			"no checksum, no places)\n");
	fprintf(out, "kernel:      %s, build id %s\n",
		et_mix_release(m) ? et_mix_release(m) :
		"release not in the file (no 'kernel' line): entry path taken as generic",
		et_mix_build_id(m) ? et_mix_build_id(m) : "?");
	if (et_mix_mode(m) && !strcmp(et_mix_mode(m), "fallback"))
		fprintf(out, "unit:        guest instructions, counted by the plugin without a site "
			"table (fallback mode): total is the whole syscall, entry vector to return, "
			"and there are no stages\n");
	else
		fprintf(out, "unit:        guest instructions, counted by the plugin with every "
			"entry_stage event off (no stamp cost in them)\n");
	if (et_mix_has_model(m)) {
		double g[3];

		fprintf(out, "model:       modelled cycles and misses beside the instructions: the "
			"timing model of CPU %s (parameters %s), each figure at the parameters' middle "
			"with their low..high end (Documentation/cycles-model.md)", et_mix_model(m),
			et_mix_model_hash(m));
		if (et_mix_model_param(m, "clock.ghz", 0, &g[0]) &&
		    et_mix_model_param(m, "clock.ghz", 1, &g[1]) &&
		    et_mix_model_param(m, "clock.ghz", 2, &g[2]))
			fprintf(out, "; clock %g GHz (%g..%g)", g[1], g[0], g[2]);
		fprintf(out, "\n");
	}
	if (!et_mix_complete(m))
		fprintf(out, "DAMAGED:     no \"end\" line: QEMU did not finish the file; "
			"its tables are missing\n");
	fprintf(out, "syscalls:    %" PRIu64 " counted by the plugin, %" PRIu64 " set apart by it; "
		"%zu sampled, %" PRIu64 " in the table", et_mix_count(m, "syscalls"),
		et_mix_count(m, "setapart"), et_mix_nr_samples(m), et_mix_kept(m));
	et_mix_set_apart_str(m, buf, sizeof(buf));
	if (buf[0])
		fprintf(out, ", samples set apart: %s", buf);
	if (et_mix_not_syscall(m))
		fprintf(out, ", %" PRIu64 " samples of no syscall (interrupts, user space)",
			et_mix_not_syscall(m));
	fprintf(out, "\n");
	if (et_mix_unnamed(m))
		fprintf(out, "DAMAGED:     %" PRIu64 " samples name a syscall %s does not have: "
			"left out\n", et_mix_unnamed(m), et_mix_arch(m));
}

/* Has the plugin a class table for this syscall (its tables= argument)? */
static bool has_tables(const struct et_mix *m, int name)
{
	const struct et_mix_sum *s;
	size_t n = et_mix_sums(m, &s);

	for (size_t i = 0; i < n; i++)
		if (s[i].name == name)
			return true;
	/* a syscall that ran no classed instruction has function rows only */
	n = et_mix_funcs(m, &s);
	for (size_t i = 0; i < n; i++)
		if (s[i].name == name)
			return true;
	return false;
}

/*
 * The text shows the syscalls the plugin has instruction classes for, as
 * filtered by --syscall and --stage; JSON has every row.
 */
/*
 * --syscall: the loader resolved the names per file and filtered the
 * samples; a syscall is shown when samples of it are in the table (or,
 * without a filter, when the plugin has tables for it).
 */
static bool row_wanted(const struct et_filter *f, const struct et_trace *names,
		       const struct et_mix *m, const struct et_mix_stat *st,
		       const struct et_stats *stats, const struct et_diff *df)
{
	int stage = et_mix_account_stage(et_mix_name(m, st->account));
	long nr;
	bool seen = false;

	if (!has_tables(m, st->name))
		return false;
	if (f && f->stages && (stage < 0 || !(f->stages & (1ull << stage))))
		return false;
	if (!names)
		return true;
	nr = et_syscall_number(names, et_mix_name(m, st->name));
	if (stats) {
		const struct et_cell **cells;
		size_t n = et_stats_cells(stats, &cells);

		for (size_t i = 0; i < n && !seen; i++)
			seen = cells[i]->nr == nr;
	}
	for (size_t i = 0; df && i < df->nr_cells && !seen; i++)
		seen = df->cells[i].nr == nr;
	return seen;
}

static void text_mix_one(const struct et_report *rep, const struct et_mix *m, FILE *out)
{
	const struct et_mix_stat *st;
	size_t n = et_mix_stats(m, &st);
	int last = -1;
	char kb[512];

	fprintf(out, "\ninstruction mix: %s (per call, from the plugin's tables of %s; "
		"JSON has every syscall)\n", et_mix_path(m), et_mix_tables(m) ? et_mix_tables(m) : "?");
	fprintf(out, "%-16s %-18s %8s %10s", "syscall", "stage", "calls", "insns");
	for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
		fprintf(out, " %8s", et_mix_classes[c]);
	fprintf(out, "  %s\n", "barriers and calls by kind");
	for (size_t i = 0; i < n; i++) {
		struct mix_row r;

		if (!row_wanted(rep->filter, rep->names, m, &st[i], rep->stats, NULL))
			continue;
		row_of(m, &st[i], &r);
		kinds_str(m, &st[i], kb, sizeof(kb));
		fprintf(out, "%-16s %-18s %8.0f %10.1f", st[i].name != last ? r.name : "",
			r.account, r.calls, r.insns);
		for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
			fprintf(out, " %8.2f", r.cls[c]);
		fprintf(out, "  %s\n", kb);
		last = st[i].name;
	}
}

/*
 * The timing model's time of a figure: ns (low..high) from cycles at the
 * clock's middle and ends (the fewest cycles at the fastest clock).
 */
static bool model_ns(const struct et_mix *m, const double cyc[3], double ns[3])
{
	double g[3];

	for (int p = 0; p < 3; p++)
		if (!et_mix_model_param(m, "clock.ghz", p, &g[p]) || g[p] <= 0)
			return false;
	ns[0] = cyc[0] / g[2];
	ns[1] = cyc[1] / g[1];
	ns[2] = cyc[2] / g[0];
	return true;
}

/* version 3: per syscall and stage, the modelled cycles and misses per call */
static void text_model_one(const struct et_report *rep, const struct et_mix *m, FILE *out)
{
	const struct et_mix_stat *st;
	size_t n = et_mix_stats(m, &st);
	int last = -1;

	fprintf(out, "\nmodelled cycles: %s (per call; CPU %s: the parameters' middle (low..high); "
		"misses per call; ns at the file's clock)\n", et_mix_path(m), et_mix_model(m));
	fprintf(out, "%-16s %-18s %8s %10s %10s %-21s %6s %7s %7s %7s %7s %7s %-19s\n", "syscall",
		"stage", "calls", "insns", "cycles", "(low..high)", "cpi", "l1i", "l1d", "l2", "l3",
		"tlb", "ns (low..high)");
	for (size_t i = 0; i < n; i++) {
		const struct et_mix_cstat *c = et_mix_cstat(m, et_mix_name(m, st[i].name),
							   et_mix_name(m, st[i].account));
		double cyc[3], ns[3], k;
		char rb[48], nb[48] = "";

		if (!c || !c->n || !row_wanted(rep->filter, rep->names, m, &st[i], rep->stats, NULL))
			continue;
		k = (double)c->n;
		for (int p = 0; p < 3; p++)
			cyc[p] = c->m[ET_MET_CYC_LO + p] / k;
		snprintf(rb, sizeof(rb), "(%.1f..%.1f)", cyc[0], cyc[2]);
		if (model_ns(m, cyc, ns))
			snprintf(nb, sizeof(nb), "%.1f (%.1f..%.1f)", ns[1], ns[0], ns[2]);
		fprintf(out, "%-16s %-18s %8" PRIu64 " %10.1f %10.1f %-21s %6.2f %7.2f %7.2f %7.2f %7.2f "
			"%7.2f %s\n", st[i].name != last ? et_mix_name(m, st[i].name) : "",
			et_mix_name(m, st[i].account), c->n, st[i].n ? (double)st[i].sum / st[i].n : 0,
			cyc[1], rb, st[i].sum ? c->m[ET_MET_CYC] / (double)st[i].sum : 0,
			c->m[ET_MET_L1I] / k, c->m[ET_MET_L1D] / k, c->m[ET_MET_L2] / k,
			c->m[ET_MET_L3] / k, c->m[ET_MET_TLB] / k, nb);
		last = st[i].name;
	}
}

void et_text_mix(const struct et_report *rep, FILE *out)
{
	for (int i = 0; i < rep->nr_files; i++) {
		const struct et_mix *m = rep->files[i].mix;
		const struct et_mix_stat *st;
		const char **names;
		size_t n, nn = 0;

		if (!m)
			continue;
		text_mix_one(rep, m, out);
		if (et_mix_has_model(m))
			text_model_one(rep, m, out);
		if (!rep->where)
			continue;
		n = et_mix_stats(m, &st);
		names = calloc(n + 1, sizeof(*names));
		if (!names)
			continue;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(et_mix_name(m, st[j].account), "whole") &&
			    row_wanted(rep->filter, rep->names, m, &st[j], rep->stats, NULL))
				names[nn++] = et_mix_name(m, st[j].name);
		et_text_where(m, names, nn, rep->where, out);
		free(names);
	}
}

/* "name": sum, ... of one row's class (or kind) lines */
static void json_sums(FILE *out, const struct et_mix *m, const struct et_mix_stat *st,
		      const struct et_mix_sum *s, size_t n, bool classes)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (s[i].is_class != classes || s[i].name != st->name ||
		    s[i].account != st->account)
			continue;
		fprintf(out, "%s", first ? "" : ", ");
		et_json_str(out, et_mix_name(m, s[i].what));
		fprintf(out, ": %" PRIu64, s[i].sum);
		first = false;
	}
}

static void json_row(FILE *out, const struct et_mix *m, const struct et_mix_stat *st)
{
	const struct et_mix_sum *s;
	size_t n = et_mix_sums(m, &s);
	struct mix_row r;
	bool first = true;

	row_of(m, st, &r);
	fprintf(out, "{\"syscall\": ");
	et_json_str(out, r.name);
	fprintf(out, ", \"account\": ");
	et_json_str(out, r.account);
	fprintf(out, ", \"calls\": %" PRIu64 ", \"runs\": %" PRIu64 ", \"sum\": %" PRIu64
		", \"min\": %" PRIu64 ", \"p50\": %" PRIu64 ", \"mean\": %.3f, \"max\": %" PRIu64
		", \"classes\": {", st->n, st->runs, st->sum, st->min, st->p50, st->mean, st->max);
	json_sums(out, m, st, s, n, true);
	fprintf(out, "}, \"kinds\": {");
	json_sums(out, m, st, s, n, false);
	fprintf(out, "}");
	/* version 3: the timing model's sums over the same calls */
	{
		const struct et_mix_cstat *c = et_mix_cstat(m, r.name, r.account);

		if (c) {
			fprintf(out, ", \"model\": {\"calls\": %" PRIu64, c->n);
			for (int k = 0; k < ET_NR_MET; k++)
				fprintf(out, ", \"%s\": %" PRIu64, et_met_names[k], c->m[k]);
			fprintf(out, "}");
		}
	}
	fprintf(out, ", \"functions\": [");
	first = true;
	n = et_mix_funcs(m, &s);
	for (size_t i = 0; i < n; i++)
		if (s[i].name == st->name && s[i].account == st->account) {
			fprintf(out, "%s[", first ? "" : ", ");
			et_json_str(out, et_mix_name(m, s[i].what));
			fprintf(out, ", %" PRIu64 "]", s[i].sum);
			first = false;
		}
	fprintf(out, "]}");
}

/* "mix": per file, every aggregated row with its class, kind and function sums */
void et_json_mix_key(const struct et_report_file *files, int nr_files, const char *key,
		     FILE *out)
{
	fprintf(out, ",\n  \"%s\": [", key);
	for (int i = 0, nf = 0; i < nr_files; i++) {
		const struct et_mix *m = files[i].mix;
		const struct et_mix_stat *st;
		size_t n;

		if (!m)
			continue;
		n = et_mix_stats(m, &st);
		fprintf(out, "%s\n    {\"path\": ", nf++ ? "," : "");
		et_json_str(out, et_mix_path(m));
		fprintf(out, ", \"arch\": ");
		et_json_str(out, et_mix_arch(m));
		fprintf(out, ", \"kernel\": ");
		et_json_str(out, et_mix_release(m));
		fprintf(out, ", \"build_id\": ");
		et_json_str(out, et_mix_build_id(m));
		fprintf(out, ", \"complete\": %s", et_mix_complete(m) ? "true" : "false");
		if (et_mix_has_model(m)) {
			fprintf(out, ", \"model\": ");
			et_json_str(out, et_mix_model(m));
			fprintf(out, ", \"model_hash\": ");
			et_json_str(out, et_mix_model_hash(m));
		}
		fprintf(out, ", \"rows\": [");
		for (size_t j = 0; j < n; j++) {
			fprintf(out, "%s\n      ", j ? "," : "");
			json_row(out, m, &st[j]);
		}
		fprintf(out, "\n    ]}");
	}
	fprintf(out, "\n  ]");
}

void et_json_mix(const struct et_report_file *files, int nr_files, FILE *out)
{
	et_json_mix_key(files, nr_files, "mix", out);
}

/* ------------------------------------------------------------------ */
/* Two files                                                           */

static bool row_changed(const struct mix_row *a, const struct mix_row *b)
{
	if (fabs(a->insns - b->insns) >= 0.05)
		return true;
	for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
		if (fabs(a->cls[c] - b->cls[c]) >= 0.005)
			return true;
	return false;
}

/* the kinds whose count per call moved, "lwsync +2 __rcu_read_lock +1" */
static void kinds_delta(const struct et_mix *ma, const struct et_mix_stat *a,
			const struct et_mix *mb, const struct et_mix_stat *b, char *buf,
			size_t size)
{
	const struct et_mix *side[2] = { ma, mb };
	const struct et_mix_stat *sst[2] = { a, b };
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < 2; k++) {
		const struct et_mix *m = side[k];
		const struct et_mix_sum *s;
		size_t n = et_mix_sums(m, &s);

		for (size_t i = 0; i < n && len < size; i++) {
			const char *what = et_mix_name(m, s[i].what);
			const char *name = et_mix_name(m, sst[k]->name);
			const char *acc = et_mix_name(m, sst[k]->account);
			double va, vb;

			if (s[i].is_class || s[i].name != sst[k]->name ||
			    s[i].account != sst[k]->account)
				continue;
			if (!named_kind(m, what))
				continue;
			/* each kind once: from the base, or from the test if the base lacks it */
			if (k == 1 && et_mix_sum(ma, name, acc, what, false))
				continue;
			va = et_mix_per(ma, a, what, false, a);
			vb = et_mix_per(mb, b, what, false, b);
			if (fabs(vb - va) < 0.005)
				continue;
			len += snprintf(buf + len, size - len, "%s%s %+g", len ? " " : "",
					kind_label(what), vb - va);
		}
	}
}

/* A function's instructions per call in one syscall's account, 0 if not in its top list. */
static double func_per_call(const struct et_mix *m, const struct et_mix_stat *st, const char *fn)
{
	const struct et_mix_sum *s;
	size_t n = et_mix_funcs(m, &s);

	for (size_t i = 0; i < n; i++)
		if (s[i].name == st->name && s[i].account == st->account &&
		    !strcmp(et_mix_name(m, s[i].what), fn))
			return st->n ? (double)s[i].sum / st->n : 0;
	return 0;
}

struct func_delta {
	const char *fn;
	double base, test;
	bool in_base, in_test;
	bool unknown;		/* missing from a side's cut list */
	double bound;		/* then: the change is at least this far from 0 (signed), or 0 */
};

/* How far from 0 a change is at least: its size, or its bound's */
static double change_size(const struct func_delta *d)
{
	return d->unknown ? fabs(d->bound) : fabs(d->test - d->base);
}

static int cmp_delta(const void *a, const void *b)
{
	const struct func_delta *x = a, *y = b;
	double dx = change_size(x), dy = change_size(y);

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->fn, y->fn);
}

/*
 * Where the change went, by function: the whole syscall's functions on
 * each side, per call, the largest changes first.  Version 2 files list
 * every function that ran: one missing on a side ran 0 there.  Version 1
 * files (topk=N) list the top N only: a function missing from a full list
 * ran at most as often as its last one ("<=X"), and its change is unknown
 * ("?"), never taken as 0.  The 12 largest changes, or with @all every
 * function whose count per call moved by 0.05 or more, or is not known.
 */
static void text_func_diff(const struct et_mix *ma, const struct et_mix *mb,
			   const struct et_filter *filter, const struct et_trace *names,
			   const struct et_diff *df, bool all, FILE *out)
{
	const struct et_mix_stat *sa;
	size_t na = et_mix_stats(ma, &sa);
	bool header = false;

	for (size_t i = 0; i < na; i++) {
		const char *name = et_mix_name(ma, sa[i].name);
		const struct et_mix_stat *b = et_mix_stat(mb, name, "whole");
		const struct et_mix_sum *s;
		struct func_delta d[1024];
		uint64_t floor[2];
		size_t nd = 0, n;

		if (strcmp(et_mix_name(ma, sa[i].account), "whole") || !b ||
		    !row_wanted(filter, names, ma, &sa[i], NULL, df))
			continue;
		for (int side = 0; side < 2; side++) {
			const struct et_mix *m = side ? mb : ma;
			const struct et_mix_stat *st = side ? b : &sa[i];

			n = et_mix_funcs(m, &s);
			for (size_t k = 0; k < n && nd < ET_ARRAY_SIZE(d); k++) {
				const char *fn = et_mix_name(m, s[k].what);
				size_t j;

				if (s[k].name != st->name || s[k].account != st->account)
					continue;
				for (j = 0; j < nd && strcmp(d[j].fn, fn); j++)
					;
				if (j == nd) {
					d[nd] = (struct func_delta){ .fn = fn };
					d[nd].base = func_per_call(ma, &sa[i], fn);
					d[nd].test = func_per_call(mb, b, fn);
					nd++;
				}
				if (side)
					d[j].in_test = true;
				else
					d[j].in_base = true;
			}
		}
		if (!nd)
			continue;
		/* a function missing from a cut list: its change is not known */
		floor[0] = et_mix_funcs_floor(ma, sa[i].name, sa[i].account);
		floor[1] = et_mix_funcs_floor(mb, b->name, b->account);
		for (size_t j = 0; j < nd; j++) {
			double fb = (double)floor[0] / sa[i].n, ft = (double)floor[1] / b->n;

			d[j].unknown = (!d[j].in_base && floor[0]) || (!d[j].in_test && floor[1]);
			/* one side known, the other at most its floor: a bound on the change */
			if (d[j].unknown && d[j].in_test && d[j].test > fb)
				d[j].bound = d[j].test - fb;
			else if (d[j].unknown && d[j].in_base && d[j].base > ft)
				d[j].bound = ft - d[j].base;
		}
		qsort(d, nd, sizeof(*d), cmp_delta);
		if (!header) {
			fprintf(out, "\nfunctions, base -> test (whole syscall, instructions per call; "
				"%s)\n", et_mix_funcs_complete(ma) && et_mix_funcs_complete(mb) ?
				"every function that ran on either side" :
				"a side lists its top functions only: <=X not in its list, so at most X; "
				">=+N, <=-N: the change is at least that; ?: not known");
			fprintf(out, "%-16s %-44s %10s %10s %9s\n", "syscall", "function", "base",
				"test", "delta");
			header = true;
		}
		for (size_t j = 0, shown = 0; j < nd && (all || j < 12); j++) {
			char bb[24], tb[24], db[16];

			if (all && !d[j].unknown && change_size(&d[j]) < 0.05)
				continue;

			if (d[j].in_base || !floor[0])
				snprintf(bb, sizeof(bb), "%.1f", d[j].base);
			else
				snprintf(bb, sizeof(bb), "<=%.1f", (double)floor[0] / sa[i].n);
			if (d[j].in_test || !floor[1])
				snprintf(tb, sizeof(tb), "%.1f", d[j].test);
			else
				snprintf(tb, sizeof(tb), "<=%.1f", (double)floor[1] / b->n);
			if (d[j].unknown && d[j].bound > 0)
				snprintf(db, sizeof(db), ">=%+.1f", d[j].bound);
			else if (d[j].unknown && d[j].bound < 0)
				snprintf(db, sizeof(db), "<=%+.1f", d[j].bound);
			else if (d[j].unknown)
				snprintf(db, sizeof(db), "?");
			else
				snprintf(db, sizeof(db), "%+.1f", d[j].test - d[j].base);
			fprintf(out, "%-16s %-44s %10s %10s %9s\n", shown++ ? "" : name, d[j].fn, bb,
				tb, db);
		}
	}
}

/* Were both files modelled with the same parameter file? */
static bool same_model(const struct et_mix *a, const struct et_mix *b)
{
	return !strcmp(et_mix_model(a), et_mix_model(b)) &&
	       !strcmp(et_mix_model_hash(a), et_mix_model_hash(b));
}

/* a cstat's figure per call, 0 without it */
static double cper(const struct et_mix_cstat *c, int k)
{
	return c && c->n ? (double)c->m[k] / c->n : 0;
}

/*
 * Version 3 on both sides: per syscall and stage the modelled cycles per
 * call, base -> test, the change at the parameters' middle and its low..high
 * (each end the same end on both sides), beside the instructions' change,
 * and the misses' changes.
 */
static void text_model_diff(const struct et_mix *ma, const struct et_mix *mb,
			    const struct et_filter *filter, const struct et_trace *names,
			    const struct et_diff *df, bool all, FILE *out)
{
	const struct et_mix_stat *sa;
	size_t na = et_mix_stats(ma, &sa), same = 0;
	const char *last = "";

	if (!et_mix_has_model(ma) && !et_mix_has_model(mb))
		return;
	if (!et_mix_has_model(ma) || !et_mix_has_model(mb)) {
		fprintf(out, "\nmodelled cycles: only the %s has them (%s): nothing to compare\n",
			et_mix_has_model(ma) ? "base" : "test",
			et_mix_has_model(ma) ? et_mix_path(ma) : et_mix_path(mb));
		return;
	}
	if (!same_model(ma, mb)) {
		fprintf(out, "\nmodelled cycles: not compared: the base was modelled as CPU %s "
			"(parameters %s), the test as %s (%s)\n", et_mix_model(ma),
			et_mix_model_hash(ma), et_mix_model(mb), et_mix_model_hash(mb));
		return;
	}
	fprintf(out, "\nmodelled cycles, base -> test (per call; CPU %s; delta at the parameters' "
		"middle, (low..high): the same end on both sides; misses: test minus base)\n",
		et_mix_model(ma));
	fprintf(out, "%-16s %-18s %10s %10s %9s %-19s %9s %8s %8s %8s %8s %8s\n", "syscall", "stage",
		"base", "test", "delta", "(low..high)", "insns", "l1i", "l1d", "l2", "l3", "tlb");
	for (size_t i = 0; i < na; i++) {
		const char *name = et_mix_name(ma, sa[i].name), *acc = et_mix_name(ma, sa[i].account);
		const struct et_mix_stat *b = et_mix_stat(mb, name, acc);
		const struct et_mix_cstat *ca = et_mix_cstat(ma, name, acc), *cb = et_mix_cstat(mb, name, acc);
		double d[3], di;
		char rb[48];

		if (!b || !ca || !cb || !row_wanted(filter, names, ma, &sa[i], NULL, df))
			continue;
		for (int p = 0; p < 3; p++)
			d[p] = cper(cb, ET_MET_CYC_LO + p) - cper(ca, ET_MET_CYC_LO + p);
		di = (b->n ? (double)b->sum / b->n : 0) - (sa[i].n ? (double)sa[i].sum / sa[i].n : 0);
		if (!all && fabs(d[1]) < 0.05 && fabs(di) < 0.05) {
			same++;
			continue;
		}
		snprintf(rb, sizeof(rb), "(%+.1f..%+.1f)", fmin(d[0], d[2]), fmax(d[0], d[2]));
		fprintf(out, "%-16s %-18s %10.1f %10.1f %+9.1f %-19s %+9.1f", strcmp(name, last) ? name : "",
			acc, cper(ca, ET_MET_CYC), cper(cb, ET_MET_CYC), d[1], rb, di);
		for (int k = ET_MET_L1I; k <= ET_MET_TLB; k++)
			fprintf(out, " %+8.2f", cper(cb, k) - cper(ca, k));
		fprintf(out, "\n");
		last = name;
	}
	if (same)
		fprintf(out, "(%zu rows with the same cycles and instructions on both sides not shown; "
			"--all shows them)\n", same);
}

/* version 3: a syscall's whole cycles per function per call, from its cat lines */
struct fcyc {
	const char *fn;
	double v[2][ET_NR_MET];
};

static size_t func_cycles(const struct et_mix *m, int side, const char *name, struct fcyc **fv,
			  size_t nf, size_t *cap)
{
	const struct et_mix_stat *whole = et_mix_stat(m, name, "whole");
	const struct et_mix_at *at;
	const struct et_mix_insn *insns;
	size_t na = et_mix_ats(m, &at);

	et_mix_insns(m, &insns);
	if (!whole || !whole->n)
		return nf;
	for (size_t i = 0; i < na; i++) {
		const char *w, *acc = et_mix_name(m, at[i].account);
		char fn[160];
		size_t j;

		if (strcmp(et_mix_name(m, at[i].name), name) || strcmp(acc, "whole"))
			continue;
		w = et_mix_name(m, insns[at[i].insn].where);
		snprintf(fn, sizeof(fn), "%.*s", (int)strcspn(w, "+"), w);
		for (j = 0; j < nf && strcmp((*fv)[j].fn, fn); j++)
			;
		if (j == nf) {
			if (et_grow((void **)fv, cap, nf + 1, sizeof(**fv)))
				return nf;
			memset(&(*fv)[nf], 0, sizeof(**fv));
			/* the name as the file interns it: the where's prefix is no name of its own */
			(*fv)[nf].fn = strdup(fn);
			nf++;
		}
		for (int k = 0; k < ET_NR_MET; k++)
			(*fv)[j].v[side][k] += (double)at[i].m[k] / whole->n;
	}
	return nf;
}

static int cmp_fcyc(const void *x, const void *y)
{
	const struct fcyc *a = x, *b = y;
	double da = fabs(a->v[1][ET_MET_CYC] - a->v[0][ET_MET_CYC]);
	double db = fabs(b->v[1][ET_MET_CYC] - b->v[0][ET_MET_CYC]);

	return da < db ? 1 : da > db ? -1 : strcmp(a->fn, b->fn);
}

/* Where the modelled cycles moved, by function (every function that ran on either side). */
static void text_func_cycles_diff(const struct et_mix *ma, const struct et_mix *mb,
				  const struct et_filter *filter, const struct et_trace *names,
				  const struct et_diff *df, bool all, FILE *out)
{
	const struct et_mix_stat *sa;
	size_t na = et_mix_stats(ma, &sa);
	bool header = false;

	for (size_t i = 0; i < na; i++) {
		const char *name = et_mix_name(ma, sa[i].name);
		struct fcyc *fv = NULL;
		size_t nf = 0, cap = 0;

		if (strcmp(et_mix_name(ma, sa[i].account), "whole") || !et_mix_stat(mb, name, "whole") ||
		    !row_wanted(filter, names, ma, &sa[i], NULL, df))
			continue;
		nf = func_cycles(ma, 0, name, &fv, nf, &cap);
		nf = func_cycles(mb, 1, name, &fv, nf, &cap);
		qsort(fv, nf, sizeof(*fv), cmp_fcyc);
		if (nf && !header) {
			fprintf(out, "\nfunctions by modelled cycles, base -> test (whole syscall, cycles "
				"per call at the parameters' middle; misses: test minus base)\n");
			fprintf(out, "%-16s %-44s %10s %10s %9s %8s %8s %8s\n", "syscall", "function",
				"base", "test", "delta", "l1i", "l1d", "l2");
			header = true;
		}
		for (size_t j = 0, shown = 0; j < nf && (all || j < 12); j++) {
			const double *a = fv[j].v[0], *b = fv[j].v[1];

			if (fabs(b[ET_MET_CYC] - a[ET_MET_CYC]) < 0.05)
				continue;
			fprintf(out, "%-16s %-44s %10.1f %10.1f %+9.1f %+8.2f %+8.2f %+8.2f\n",
				shown++ ? "" : name, fv[j].fn, a[ET_MET_CYC], b[ET_MET_CYC],
				b[ET_MET_CYC] - a[ET_MET_CYC], b[ET_MET_L1I] - a[ET_MET_L1I],
				b[ET_MET_L1D] - a[ET_MET_L1D], b[ET_MET_L2] - a[ET_MET_L2]);
		}
		for (size_t j = 0; j < nf; j++)
			free((char *)fv[j].fn);
		free(fv);
	}
}

/*
 * Rows in the base's order, then the test's rows the base lacks; a row
 * whose count moved nowhere is left out unless all.
 */
void et_text_mix_diff(const struct et_mix *ma, const struct et_mix *mb,
		      const struct et_filter *filter, const struct et_trace *names,
		      const struct et_diff *df, bool all, int where_rows, FILE *out)
{
	struct et_mix_pair *pairs;
	size_t np = et_mix_pairs(ma, mb, &pairs), shown = 0, same = 0;
	const char *last = "";
	char kb[512];

	if (!pairs) {
		fprintf(stderr, "entrytrace diff: out of memory pairing the instruction mix\n");
		return;
	}

	fprintf(out, "\ninstruction mix, base -> test (per call; classes: test minus base; "
		"the syscalls of the plugin's tables)\n");
	fprintf(out, "%-16s %-18s %10s %10s %9s", "syscall", "stage", "base", "test", "delta");
	for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
		fprintf(out, " %8s", et_mix_classes[c]);
	fprintf(out, "  %s\n", "barriers and calls by kind");
	for (size_t i = 0; i < np; i++) {
		const struct et_mix_stat *a = pairs[i].a, *b = pairs[i].b;
		struct mix_row ra, rb;

		if (!row_wanted(filter, names, a ? ma : mb, a ? a : b, NULL, df))
			continue;
		memset(&ra, 0, sizeof(ra));
		memset(&rb, 0, sizeof(rb));
		if (a)
			row_of(ma, a, &ra);
		if (b)
			row_of(mb, b, &rb);
		if (a && b && !all && !row_changed(&ra, &rb)) {
			same++;
			continue;
		}
		if (a && b)
			kinds_delta(ma, a, mb, b, kb, sizeof(kb));
		else
			snprintf(kb, sizeof(kb), "ran on the %s only", a ? "base" : "test");
		fprintf(out, "%-16s %-18s", strcmp(pairs[i].name, last) ? pairs[i].name : "",
			pairs[i].account);
		last = pairs[i].name;
		if (a)
			fprintf(out, " %10.1f", ra.insns);
		else
			fprintf(out, " %10s", "-");
		if (b)
			fprintf(out, " %10.1f", rb.insns);
		else
			fprintf(out, " %10s", "-");
		fprintf(out, " %+9.1f", rb.insns - ra.insns);
		for (size_t c = 0; c < ET_MIX_NR_CLASSES; c++)
			fprintf(out, " %+8.2f", rb.cls[c] - ra.cls[c]);
		fprintf(out, "  %s\n", kb);
		shown++;
	}
	free(pairs);
	if (same)
		fprintf(out, "(%zu rows with the same counts on both sides not shown; --all shows them)\n",
			same);
	if (!shown && !same)
		fprintf(out, "(no rows: the files have no aggregated tables)\n");
	text_model_diff(ma, mb, filter, names, df, all, out);
	text_func_diff(ma, mb, filter, names, df, all, out);
	if (et_mix_has_model(ma) && et_mix_has_model(mb) && same_model(ma, mb))
		text_func_cycles_diff(ma, mb, filter, names, df, all, out);
	{
		const char **wn = NULL;
		size_t nw = et_mix_diff_names(ma, filter, names, df, &wn);

		et_text_where_diff(ma, mb, wn, nw, where_rows, out);
		free(wn);
	}
}

/* The syscalls the diff's mix tables show: the base's with tables, as filtered. */
size_t et_mix_diff_names(const struct et_mix *ma, const struct et_filter *filter,
			 const struct et_trace *names, const struct et_diff *df, const char ***out)
{
	const struct et_mix_stat *sa;
	size_t na = et_mix_stats(ma, &sa), n = 0;
	const char **v = calloc(na + 1, sizeof(*v));

	*out = v;
	if (!v)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (!strcmp(et_mix_name(ma, sa[i].account), "whole") &&
		    row_wanted(filter, names, ma, &sa[i], NULL, df))
			v[n++] = et_mix_name(ma, sa[i].name);
	return n;
}

/* diff, text: the instruction mix after the tables */
void et_text_mix_diff_tail(const struct et_diff_report *r, FILE *out)
{
	if (r->base_files[0].mix && r->test_files[0].mix)
		et_text_mix_diff(r->base_files[0].mix, r->test_files[0].mix, r->filter, r->names,
				 r->diff, r->all, r->where, out);
}

/* diff --json: each side's mix, and the places whose instructions moved */
void et_json_mix_diff(const struct et_diff_report *r, FILE *out)
{
	const char **wn = NULL;
	size_t nw;

	et_json_mix_key(r->base_files, r->nr_base, "mix_base", out);
	et_json_mix_key(r->test_files, r->nr_test, "mix_test", out);
	if (!r->test_files[0].mix)
		return;
	nw = et_mix_diff_names(r->base_files[0].mix, r->filter, r->names, r->diff, &wn);
	et_json_where_diff(r->base_files[0].mix, r->test_files[0].mix, wn, nw, out);
	free(wn);
}
