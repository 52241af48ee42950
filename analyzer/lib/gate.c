// SPDX-License-Identifier: LGPL-2.1
/*
 * What a diff may conclude: the replicates its tests take (--replicates),
 * and diff --fail-on, the gate.  A comma list of rules, parsed once
 * (et_gate_parse), judged against a diff before its output is written
 * (et_gate_judge), so the JSON carries the verdict:
 *
 *   [SYSCALL:]STAGE>N%|Nns   a stage's significant growth, over what its
 *                            own interval holds, beyond N
 *   [SYSCALL:]ACCOUNT.WHAT>N plugin output: a kind or class of instruction
 *                            grew by more than N per syscall
 *
 * A rule that checked nothing is a verdict of its own (checked_nothing):
 * a gate must not pass on no data.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

struct et_gate {
	struct rule *rules;
	int nr;
	char text[512];		/* the lists as given, comma-joined */
};

/* As the program's option errors read: "entrytrace diff: --fail-on 'RULE': why". */
static int bad(const char *rule, const char *why)
{
	return et_bad_value("entrytrace diff", "--fail-on", rule, why);
}

struct rule {
	char *syscall;		/* NULL: any */
	int stage;		/* -1: any */
	double limit;
	bool percent;
	/* a class rule (plugin output): ACCOUNT.WHAT>N, a count per syscall */
	char *account;		/* a stage, whole, total, gap, outside; NULL: any */
	char *what;		/* a kind (hwsync) or a class (barrier) */
};

static void rule_free(struct rule *r)
{
	free(r->syscall);
	free(r->account);
	free(r->what);
}

/*
 * SYSCALL:ACCOUNT.WHAT>N: the kind or class WHAT may not grow by more than
 * N per syscall in ACCOUNT (a stage, whole, total, gap, outside or *).
 */
static int parse_class_rule(const char *rule, const char *acc, size_t acclen, const char *what,
			    size_t whatlen, const char *lim, struct rule *r)
{
	char *end;

	if (!acclen || !whatlen)
		return bad(rule,
				    "a class rule is [SYSCALL:]ACCOUNT.KIND>N, e.g. whole.hwsync>0");
	if (acclen != 1 || *acc != '*') {
		r->account = strndup(acc, acclen);
		if (!r->account)
			return -1;
		if (et_slot_by_name(r->account) < 0 && strcmp(r->account, "whole") &&
		    strcmp(r->account, "total") && strcmp(r->account, "gap") &&
		    strcmp(r->account, "outside")) {
			fprintf(stderr, "entrytrace diff: --fail-on '%s': unknown account '%s' (a "
				"stage, whole, total, gap, outside or *)\n", rule, r->account);
			return -1;
		}
	}
	r->what = strndup(what, whatlen);
	if (!r->what)
		return -1;
	r->limit = strtod(lim, &end);
	if (end == lim || !(r->limit >= 0) || *end)
		return bad(rule,
				    "a class rule's limit is a count per syscall, e.g. >0");
	return 0;
}

static int parse_rule(const char *s, void *data)
{
	struct et_gate *g = data;
	const char *rule = s, *gt = strchr(s, '>'), *colon = strchr(s, ':');
	char stage[64], *end;
	struct rule r = { .stage = -1 };
	struct rule *p;

	if (!gt || gt == s)
		return bad(s,
				    "expected [SYSCALL:]STAGE>N% or [SYSCALL:]STAGE>Nns (us, ms)");
	if (colon && colon < gt) {
		r.syscall = strndup(s, colon - s);
		s = colon + 1;
	}
	snprintf(stage, sizeof(stage), "%.*s", (int)(gt - s), s);
	if (strchr(stage, '.')) {
		const char *dot = strchr(s, '.');

		if (parse_class_rule(rule, s, dot - s, dot + 1, gt - dot - 1, gt + 1, &r)) {
			rule_free(&r);
			return -1;
		}
		goto add;
	}
	if (strcmp(stage, "*")) {
		r.stage = et_slot_by_name(stage);
		if (r.stage < 0) {
			fprintf(stderr, "entrytrace diff: --fail-on '%s': unknown stage '%s' (see "
				"'entrytrace report --stages')\n", rule, stage);
			free(r.syscall);
			return -1;
		}
	}
	r.limit = strtod(gt + 1, &end);
	if (end == gt + 1 || !(r.limit >= 0)) {
		free(r.syscall);
		return bad(rule,
				    "the limit after '>' must be a number, then % or ns");
	}
	if (!strcmp(end, "%"))
		r.percent = true;
	else if (!strcmp(end, "us"))
		r.limit *= 1e3;
	else if (!strcmp(end, "ms"))
		r.limit *= 1e6;
	else if (!strcmp(end, "s"))
		r.limit *= 1e9;
	else if (strcmp(end, "ns")) {
		free(r.syscall);
		return bad(rule,
				    *end ? "the limit's unit must be %, ns, us, ms or s" :
				    "the limit needs a unit: %, ns, us, ms or s");
	}
add:
	p = realloc(g->rules, (g->nr + 1) * sizeof(*p));
	if (!p) {
		rule_free(&r);
		return -1;
	}
	p[g->nr++] = r;
	g->rules = p;
	return 0;
}

static void rule_text(const struct rule *r, char *buf, size_t size)
{
	if (r->what) {
		snprintf(buf, size, "%s%s%s.%s>%g", r->syscall ? r->syscall : "",
			 r->syscall ? ":" : "", r->account ? r->account : "*", r->what, r->limit);
		return;
	}
	snprintf(buf, size, "%s%s%s>%g%s", r->syscall ? r->syscall : "",
		 r->syscall ? ":" : "", r->stage >= 0 ? et_stages[r->stage].name : "*",
		 r->limit, r->percent ? "%" : "ns");
}

/*
 * Why a rule cannot be checked on these traces, or NULL: a syscall the
 * trace's architecture does not have, a stage neither side's entry path
 * or mode can show.
 */
static const char *unknowable(const struct rule *r, const struct et_trace *names,
			      unsigned int base_path, unsigned int test_path,
			      const struct et_report_file *bf, const struct et_report_file *tf,
			      char *buf, size_t size)
{
	const struct et_trace_info *in = et_trace_info(names);

	if (r->syscall && et_syscall_number(names, r->syscall) < 0) {
		snprintf(buf, size, "no syscall '%s' on %s", r->syscall,
			 in->machine ? in->machine : "this architecture");
		return buf;
	}
	if (r->stage >= 0) {
		unsigned int paths = et_stages[r->stage].paths;

		if (!(paths & base_path) || !(paths & test_path)) {
			bool base = !(paths & base_path);

			snprintf(buf, size, "stage '%s' cannot be measured on the %s (%s, %s mode)",
				 et_stages[r->stage].name, base ? "base" : "test",
				 et_path_name(base ? base_path : test_path),
				 et_mode_name(base ? bf->info.mode : tf->info.mode));
			return buf;
		}
	}
	return NULL;
}

static bool is_class(const char *what)
{
	for (size_t i = 0; i < ET_MIX_NR_CLASSES; i++)
		if (!strcmp(what, et_mix_classes[i]))
			return true;
	return false;
}

/*
 * A class rule on plugin output: per syscall of the tables both files
 * have (or the rule's), per account (or the rule's), the count of a kind
 * or class per syscall (over the whole syscall's N), test against base.
 * Deterministic counts: no test of significance, a growth beyond the
 * limit trips.  The trip names the place that grew most.
 */
static int class_gate(const struct rule *r, const char *rb, const struct et_diff_report *rep,
		      FILE *msg)
{
	const struct et_mix *ma = rep->base_files[0].mix, *mb = rep->test_files[0].mix;
	struct et_mix_pair *pairs;
	bool tripped = false, known = false;
	size_t n, checked = 0;
	char where[768];

	if (!ma || !mb) {
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: a class rule "
			"needs QEMU plugin output on both sides (.mix), not traces\n", rb);
		return ET_GATE_NOTHING;
	}
	known = is_class(r->what);
	for (int s = 0; s < 2 && !known; s++) {
		const struct et_mix_sum *sums;
		size_t ns = et_mix_sums(s ? mb : ma, &sums);

		for (size_t i = 0; i < ns && !known; i++)
			known = !sums[i].is_class &&
				!strcmp(et_mix_name(s ? mb : ma, sums[i].what), r->what);
		known |= et_mix_kind_class(s ? mb : ma, r->what) != NULL;
	}
	if (!known) {
		char list[128] = "";

		for (size_t i = 0; i < ET_MIX_NR_CLASSES; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", et_mix_classes[i]);
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: '%s' is no "
			"instruction class (%s) and no kind either file counts\n", rb, r->what,
			list);
		return ET_GATE_NOTHING;
	}
	n = et_mix_pairs(ma, mb, &pairs);
	if (!pairs) {
		fprintf(msg, "entrytrace diff: --fail-on '%s': out of memory\n", rb);
		return ET_GATE_NOTHING;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = pairs[i].name, *acc = pairs[i].account;
		const struct et_mix_stat *wa = et_mix_stat(ma, name, "whole");
		const struct et_mix_stat *wb = et_mix_stat(mb, name, "whole");
		double va, vb;

		if (r->syscall && strcmp(r->syscall, name))
			continue;
		if (r->account ? strcmp(r->account, acc) : !strcmp(acc, "total"))
			continue;
		/* both sides ran it, and both have the syscall's own count */
		if (!pairs[i].a || !pairs[i].b || !wa || !wb || !wa->n || !wb->n)
			continue;
		checked++;
		va = et_mix_per(ma, pairs[i].a, r->what, is_class(r->what), wa);
		vb = et_mix_per(mb, pairs[i].b, r->what, is_class(r->what), wb);
		if (vb - va > r->limit + 1e-9) {
			et_where_culprit(ma, mb, name, r->what, where, sizeof(where));
			fprintf(msg, "entrytrace diff: --fail-on %s tripped: %s %s %s %+.2f per "
				"syscall (%.2f -> %.2f)%s%s\n", rb, name, acc, r->what, vb - va, va, vb,
				where[0] ? "; most at " : "", where);
			tripped = true;
		}
	}
	free(pairs);
	if (!checked) {
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: no syscall x "
			"account it names is in both files' tables\n", rb);
		return ET_GATE_NOTHING;
	}
	return tripped ? ET_GATE_TRIPPED : ET_GATE_PASSED;
}

/*
 * The rules that trip, printed.  Returns ET_GATE_TRIPPED if any did, else
 * ET_GATE_NOTHING if any rule checked no cell (a gate that checked
 * nothing must not pass), else ET_GATE_PASSED.
 */
static int gate(const struct et_diff *df, const struct et_diff_report *rep,
		const struct rule *rules, int nr_rules, FILE *msg)
{
	const struct et_trace *names = rep->names;
	bool tripped = false, none = false;
	char rb[96], why[256];

	for (int k = 0; k < nr_rules; k++) {
		const struct rule *r = &rules[k];
		long nr = r->syscall ? et_syscall_number(names, r->syscall) : -1;
		size_t checked = 0;

		rule_text(r, rb, sizeof(rb));
		if (r->what) {
			int g = class_gate(r, rb, rep, msg);

			tripped |= g == ET_GATE_TRIPPED;
			none |= g == ET_GATE_NOTHING;
			continue;
		}
		if (df->replicates == ET_REP_NONE) {
			fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: one "
				"recording a side on a real clock, so no change can be told from "
				"run-to-run noise; record two or more runs a side (BASE... -- "
				"TEST...), or --replicates=syscalls for a deterministic clock "
				"(QEMU -icount)\n", rb);
			none = true;
			continue;
		}
		if (unknowable(r, names, rep->base_path, rep->test_path, rep->base_files,
			       rep->test_files, why, sizeof(why))) {
			fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: %s\n",
				rb, why);
			none = true;
			continue;
		}
		const struct et_diff_cell *blind = NULL, *sharp = NULL;
		double blind_see = 0, sharp_see = 0;
		bool rule_tripped = false;

		for (size_t i = 0; i < df->nr_cells; i++) {
			const struct et_diff_cell *c = &df->cells[i];
			const char *name = et_syscall_name(names, c->nr);
			bool runs = df->replicates == ET_REP_RUNS;
			double grew, d, lo, hi, b;

			if (r->stage >= 0 && r->stage != c->stage)
				continue;
			/* *: the kernel's stages; user space is not the kernel's change */
			if (r->stage < 0 && et_stages[c->stage].phase == ET_PHASE_USER)
				continue;
			if (r->syscall && c->nr != nr)
				continue;
			if (!c->tested || (r->percent && c->mean_base <= 0))
				continue;
			checked++;
			/*
			 * The statistic the test was on: per syscall the mean; with
			 * runs as replicates the recordings' medians.  A change its
			 * own interval does not hold is no trip.
			 */
			if (runs) {
				d = c->d_median;
				lo = c->d_median_lo;
				hi = c->d_median_hi;
				b = c->median_base;
			} else {
				d = c->d_mean;
				lo = c->d_mean_lo;
				hi = c->d_mean_hi;
				b = c->mean_base;
			}
			/* what it could have seen, in the rule's unit */
			if (b > 0) {
				double see = r->percent ? 100 * c->mde / b : c->mde;

				if (!blind || see > blind_see) {
					blind = c;
					blind_see = see;
				}
				if (!sharp || see < sharp_see) {
					sharp = c;
					sharp_see = see;
				}
			}
			if (!c->significant || d <= 0 || !(lo > 0) || (r->percent && b <= 0))
				continue;
			grew = r->percent ? 100 * d / b : d;
			if (grew > r->limit) {
				char wb[160], ab[96];

				char pb[16];

				/* as the table prints it: erfc underflows to 0 */
				if (c->p_adj < 1e-300)
					snprintf(pb, sizeof(pb), "<1e-300");
				else
					snprintf(pb, sizeof(pb), "%.2g", c->p_adj);
				fprintf(msg, "entrytrace diff: --fail-on %s tripped: %s [%s] %s "
					"+%.1f%s (%s %+.1f ns [%+.1f, %+.1f], p %s)\n", rb,
					et_syscall_label(name ? name : "?", c->work, ab, sizeof(ab)),
					et_work_str(c->work, wb, sizeof(wb)),
					et_stages[c->stage].name, grew, r->percent ? "%" : " ns",
					runs ? "median" : "mean", d, lo, hi, pb);
				tripped = rule_tripped = true;
			}
		}
		/*
		 * Not tripped is not "no change": say the smallest change the
		 * data could have shown, over the cells the rule checked.
		 */
		if (checked && !rule_tripped && blind) {
			char w1[160], w2[160], a1[96], a2[96];
			const char *n1 = et_syscall_name(names, sharp->nr), *n2 = et_syscall_name(names, blind->nr);
			const char *u = r->percent ? "%" : " ns";

			fprintf(msg, "entrytrace diff: --fail-on %s did not trip; the %zu cell%s it checked "
				"could show changes of %.1f%s (%s [%s] %s) to %.1f%s (%s [%s] %s) or more "
				"(80%% of the time; clock steps of %" PRIu64 " ns seen), not smaller\n",
				rb, checked, checked == 1 ? "" : "s", sharp_see, u,
				et_syscall_label(n1 ? n1 : "?", sharp->work, a1, sizeof(a1)),
				et_work_str(sharp->work, w1, sizeof(w1)), et_stages[sharp->stage].name,
				blind_see, u, et_syscall_label(n2 ? n2 : "?", blind->work, a2, sizeof(a2)),
				et_work_str(blind->work, w2, sizeof(w2)), et_stages[blind->stage].name,
				blind->clock_step > sharp->clock_step ? blind->clock_step : sharp->clock_step);
		}
		if (!checked) {
			fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: no cell it "
				"names was measured on both sides (%zu cells compared in all; base %s "
				"mode, test %s mode)\n", rb, df->tests,
				et_mode_name(rep->base_files[0].info.mode),
				et_mode_name(rep->test_files[0].info.mode));
			none = true;
		}
	}
	return tripped ? ET_GATE_TRIPPED : none ? ET_GATE_NOTHING : ET_GATE_PASSED;
}

struct et_gate *et_gate_new(void)
{
	return calloc(1, sizeof(struct et_gate));
}

void et_gate_free(struct et_gate *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nr; i++)
		rule_free(&g->rules[i]);
	free(g->rules);
	free(g);
}

int et_gate_nr(const struct et_gate *g)
{
	return g->nr;
}

int et_gate_parse(struct et_gate *g, const char *list)
{
	int before = g->nr;
	size_t len = strlen(g->text);

	if (et_for_each_csv(list, parse_rule, g))
		return -1;
	if (g->nr == before)
		return bad(list, "no rule in it: a gate that checks nothing would pass");
	snprintf(g->text + len, sizeof(g->text) - len, "%s%s", len ? "," : "", list);
	return 0;
}

int et_gate_judge(const struct et_gate *g, const struct et_diff *df,
		  const struct et_diff_report *rep, struct et_gate_verdict *v)
{
	size_t len = 0;
	FILE *msg = open_memstream(&v->messages, &len);

	v->exit = gate(df, rep, g->rules, g->nr, msg ? msg : stderr);
	if (msg)
		fclose(msg);
	v->result = v->exit == ET_GATE_TRIPPED ? "tripped" :
		    v->exit == ET_GATE_NOTHING ? "checked_nothing" : "passed";
	v->rules = g->text;
	return v->exit;
}

/* ------------------------------------------------------------------ */
/* The replicates                                                      */

int et_replicates_plan(struct et_diff_opts *o, bool is_auto, int nb, int nt)
{
	if (!is_auto && o->replicates == ET_REP_RUNS && (nb < 2 || nt < 2)) {
		fprintf(stderr, "entrytrace diff: --replicates=runs needs two or more recordings "
			"a side (BASE... -- TEST...); base has %d, test %d\n", nb, nt);
		return -1;
	}
	if (is_auto && nb >= 2 && nt >= 2)
		o->replicates = ET_REP_RUNS;
	return 0;
}

/* A deterministic clock on every file: plugin counts, -icount guests. */
static bool exact_clock(const struct et_load *ld)
{
	bool exact = true;

	for (int i = 0; i < ld->nr_files; i++)
		exact &= ld->files[i].kind->counted || et_info_virtual_clock(&ld->files[i].info);
	return exact;
}

bool et_replicates_settle(struct et_diff_opts *o, bool is_auto, const struct et_load *base,
			  const struct et_load *test)
{
	bool exact = exact_clock(base) && exact_clock(test);

	if (is_auto && o->replicates != ET_REP_RUNS)
		o->replicates = exact ? ET_REP_SYSCALLS : ET_REP_NONE;
	if (o->replicates == ET_REP_RUNS) {
		o->base_runs = base->run_stats;
		o->test_runs = test->run_stats;
		o->nr_base_runs = base->nr_files;
		o->nr_test_runs = test->nr_files;
	}
	return exact;
}
