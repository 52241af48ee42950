// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace diff: two kernels compared stage by stage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "entrytrace-private.h"
#include "entrytrace-kit.h"

static const char diff_usage[] =
	"usage: entrytrace diff [options] BASE TEST\n"
	"       entrytrace diff [options] BASE... -- TEST...\n"
	"(options may come before, between or after the files)\n"
	"\n"
	"Compares the syscalls of two recordings (say, a kernel before and after a\n"
	"change) per syscall x path signature x stage, so like is compared with like:\n"
	"a kill() that delivered a signal is not compared with one that did not.\n"
	"Stages align across the powerpc legacy and generic entry paths through the\n"
	"vocabulary in tracepoints/stages.def; a stage one path lacks is reported as\n"
	"having no counterpart, not dropped.\n"
	"\n"
	"For each cell: change of the mean and of the median with 95% confidence\n"
	"intervals, a test with Holm's correction over all cells, Cliff's delta, and\n"
	"the stage's contribution: the change of its mean time per syscall, whose\n"
	"sum over the top-level stages is reconciled against the change of the total\n"
	"(the residual is printed).  Text output is sorted by contribution.\n"
	"\n"
	"What the tests take as independent (--replicates; the header says which):\n"
	"  runs      each recording (two or more a side): per cell, each file's mean\n"
	"            and median are one value; Yuen's t over the medians (20%\n"
	"            trimmed: one run in five that ran slow as a whole does not\n"
	"            hide a change; Welch's below five a side), t intervals.\n"
	"            The spread between runs (boots, recordings) is in every\n"
	"            interval and test, as a real machine needs.\n"
	"  syscalls  each syscall: bootstrap intervals, Mann-Whitney U.  Right for a\n"
	"            deterministic clock only (QEMU -icount, plugin counts): on real\n"
	"            hardware two recordings of one kernel differ by more than this\n"
	"            expects, and more syscalls only shrink p.\n"
	"  none      one recording a side on a real clock: nothing is tested, starred\n"
	"            or gated; the changes are printed.\n"
	"  auto      (default) syscalls for plugin output and for recordings whose\n"
	"            clock counts instructions (QEMU -icount guests that run-guest\n"
	"            names qemu-icount: the uname nodename), runs with two or more\n"
	"            recordings a side, else none.\n"
	"\n"
	"BASE and TEST may be kit archives (entrytrace kit; Documentation/kit.md), one\n"
	"a side: first the facts in which the two machines or boots differ (kernel,\n"
	"command line, CPU, SMT, processes, SELinux, audit, tools, .config lines),\n"
	"then per workload and SELinux mode the ratios test/base of instructions\n"
	"per op, cycles per instruction, cycles per op, CPU time per op and ops/s\n"
	"(Welch's t on the logarithms of the runs' values, Bonferroni over the\n"
	"tests), and which moved: instructions per op (the path got longer),\n"
	"cycles per instruction (the same path ran slower), both, or no change.\n"
	"\n"
	"BASE and TEST may be QEMU mix plugin output (.mix, plain or gzip'd), both\n"
	"of them: the cells are then guest instructions, and the text ends with the\n"
	"instruction mix, test minus base per call and stage, and the functions whose\n"
	"instructions per call moved most.\n"
	"\n"
	"options:\n"
	ET_FORMAT_USAGE
	"  -o, --output=FILE      write to FILE instead of stdout\n"
	ET_COMMON_USAGE
	"      --replicates=R     auto (default), runs, syscalls or none: above\n"
	"      --by-arg           also split by argument shape (kill(-1, 0), kill(self,\n"
	"                         0), ...: see entrytrace report --help)\n"
	"      --bootstrap=N      bootstrap replicates (default 2000)\n"
	"      --seed=N           random seed (default 1): same seed, same CIs\n"
	"      --alpha=A          family-wise significance level (default 0.05)\n"
	"      --threshold=PCT    kits: a part moved only when it moved PCT% or more\n"
	"                         (default 1) and its interval leaves out 0\n"
	"      --all              show every cell, not only totals, significant\n"
	"                         cells and cells present on one side only (plugin\n"
	"                         output: and every function whose count moved)\n"
	"      --top=N            at most N rows in the text table\n"
	"      --min-count=N      text: leave out syscalls with fewer than N on a\n"
	"                         side (default 30; JSON and CSV have all)\n"
	"      --fail-on=RULES    exit 6 when a rule trips; RULES is a comma list of\n"
	"                         [SYSCALL:]STAGE>N% or [SYSCALL:]STAGE>N{ns,us,ms}, STAGE\n"
	"                         may be * (every kernel stage: not user_gap); a rule\n"
	"                         trips on a significant cell whose mean (with runs:\n"
	"                         median) grew by more than N% of the base's (or N ns)\n"
	"                         and whose interval leaves out 0; the trip names the\n"
	"                         [work] group.  Needs tests: with --replicates=none (one\n"
	"                         recording a side) a time rule checks nothing (7).\n"
	"                         A time rule that does not trip says the smallest\n"
	"                         change its cells could have shown (80% power at\n"
	"                         Holm's strictest level, never below the clock's\n"
	"                         step the values show): JSON has it per cell\n"
	"                         (detectable, detectable_pct, clock_step) and the\n"
	"                         gate's verdict (gate: result, exit, messages).\n"
	"                         On plugin output also [SYSCALL:]ACCOUNT.WHAT>N: the\n"
	"                         instructions of kind or class WHAT (hwsync, barrier,\n"
	"                         atomic, ...) per syscall in ACCOUNT (a stage, whole,\n"
	"                         gap, outside; * for each) may not grow by more than\n"
	"                         N, e.g. whole.hwsync>0; a trip names the place\n"
	"      --where[=N]        plugin output: also the N places (default 20) whose\n"
	"                         instructions per syscall moved most; the places whose\n"
	"                         instruction classes moved are always shown\n"
	"      --plot=FILE.svg    cumulative distributions, base against test, of the\n"
	"                         stages that contribute most\n"
	"  -h, --help             this text\n"
	"\n"
	"A rule that can check nothing fails the gate with exit 7: a syscall the\n"
	"trace's architecture does not have, a stage a side cannot measure (seccomp\n"
	"on a stock kernel), no cell it names measured on both sides.\n"
	"\n"
	"exit status: 0 compared (and no --fail-on rule tripped), 1 runtime failure,\n"
	"2 usage error, 3 an input file is missing, unreadable or corrupt, 4 no\n"
	"syscall events, nothing matched, or base and test share no cell, 6 a\n"
	"--fail-on rule tripped, 7 a --fail-on rule checked nothing, 8 the data has\n"
	"holes (see entrytrace report).\n";

struct rule {
	char *syscall;		/* NULL: any */
	int stage;		/* -1: any */
	double limit;
	bool percent;
	/* a class rule (plugin output): ACCOUNT.WHAT>N, a count per syscall */
	char *account;		/* a stage, whole, total, gap, outside; NULL: any */
	char *what;		/* a kind (hwsync) or a class (barrier) */
};

static const char *const mix_classes[] = {
	"barrier", "sprmsr", "atomic", "counter", "iret", "call",
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
		return et_bad_value("entrytrace diff", "--fail-on", rule,
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
		return et_bad_value("entrytrace diff", "--fail-on", rule,
				    "a class rule's limit is a count per syscall, e.g. >0");
	return 0;
}

static int parse_rule(const char *s, void *data)
{
	struct rule **rules = ((struct rule ***)data)[0];
	int *n = ((int **)data)[1];
	const char *rule = s, *gt = strchr(s, '>'), *colon = strchr(s, ':');
	char stage[64], *end;
	struct rule r = { .stage = -1 };
	struct rule *p;

	if (!gt || gt == s)
		return et_bad_value("entrytrace diff", "--fail-on", s,
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
		return et_bad_value("entrytrace diff", "--fail-on", rule,
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
		return et_bad_value("entrytrace diff", "--fail-on", rule,
				    *end ? "the limit's unit must be %, ns, us, ms or s" :
				    "the limit needs a unit: %, ns, us, ms or s");
	}
add:
	p = realloc(*rules, (*n + 1) * sizeof(*p));
	if (!p) {
		rule_free(&r);
		return -1;
	}
	p[(*n)++] = r;
	*rules = p;
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
	for (size_t i = 0; i < sizeof(mix_classes) / sizeof(mix_classes[0]); i++)
		if (!strcmp(what, mix_classes[i]))
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
	const struct et_mix_stat *st;
	bool tripped = false, known = false;
	size_t n, checked = 0;
	char where[768];

	if (!ma || !mb) {
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: a class rule "
			"needs QEMU plugin output on both sides (.mix), not traces\n", rb);
		return ET_EXIT_GATE_NONE;
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
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: '%s' is no "
			"instruction class (barrier, sprmsr, atomic, counter, iret, call) and no "
			"kind either file counts\n", rb, r->what);
		return ET_EXIT_GATE_NONE;
	}
	n = et_mix_stats(ma, &st);
	for (size_t i = 0; i < n; i++) {
		const char *name = et_mix_name(ma, st[i].name);
		const char *acc = et_mix_name(ma, st[i].account);
		const struct et_mix_stat *wa = et_mix_stat(ma, name, "whole");
		const struct et_mix_stat *wb = et_mix_stat(mb, name, "whole");
		const struct et_mix_stat *b = et_mix_stat(mb, name, acc);
		double va, vb;

		if (r->syscall && strcmp(r->syscall, name))
			continue;
		if (r->account ? strcmp(r->account, acc) : !strcmp(acc, "total"))
			continue;
		if (!b || !wa || !wb || !wa->n || !wb->n)
			continue;
		checked++;
		va = (double)et_mix_sum(ma, name, acc, r->what, is_class(r->what)) / wa->n;
		vb = (double)et_mix_sum(mb, name, acc, r->what, is_class(r->what)) / wb->n;
		if (vb - va > r->limit + 1e-9) {
			et_where_culprit(ma, mb, name, r->what, where, sizeof(where));
			fprintf(msg, "entrytrace diff: --fail-on %s tripped: %s %s %s %+.2f per "
				"syscall (%.2f -> %.2f)%s%s\n", rb, name, acc, r->what, vb - va, va, vb,
				where[0] ? "; most at " : "", where);
			tripped = true;
		}
	}
	if (!checked) {
		fprintf(msg, "entrytrace diff: --fail-on '%s' checked nothing: no syscall x "
			"account it names is in both files' tables\n", rb);
		return ET_EXIT_GATE_NONE;
	}
	return tripped ? ET_EXIT_GATE : ET_EXIT_OK;
}

/*
 * The rules that trip, printed.  Returns ET_EXIT_GATE if any did, else
 * ET_EXIT_GATE_NONE if any rule checked no cell (a gate that checked
 * nothing must not pass), else ET_EXIT_OK.
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

			tripped |= g == ET_EXIT_GATE;
			none |= g == ET_EXIT_GATE_NONE;
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
	return tripped ? ET_EXIT_GATE : none ? ET_EXIT_GATE_NONE : ET_EXIT_OK;
}

/* The cells the text shows, by contribution, as far as both sides ran them. */
static int plot(const char *path, const struct et_diff_report *rep, int max_panels)
{
	const struct et_diff *df = rep->diff;
	const struct et_trace *names = rep->names;
	const char *unit = et_file_unit(&rep->base_files[0]);
	struct et_plot pl;
	int ret;

	if (et_plot_init(&pl, max_panels))
		return -1;
	for (size_t i = 0; i < df->nr_cells && pl.n < pl.max; i++) {
		const struct et_diff_cell *c = &df->sorted[i];
		const char *name = et_syscall_name(names, c->nr);
		char wb[160], title[160], note[96], ab[96];
		struct et_plot_panel *p;

		if (!c->base || !c->test || !et_diff_shown(rep, c))
			continue;
		snprintf(title, sizeof(title), "%s %s [%s]",
			 et_syscall_label(name ? name : "?", c->work, ab, sizeof(ab)),
			 et_stages[c->stage].name, et_work_str(c->work, wb, sizeof(wb)));
		snprintf(note, sizeof(note), "median %+.0f %s, mean %+.0f %s%s",
			 c->d_median, unit, c->d_mean, unit,
			 c->significant ? ", significant" : "");
		p = et_plot_add(&pl, title, note);
		p->series[0] = (struct et_plot_series){ "base", c->base, "#1f77b4" };
		p->series[1] = (struct et_plot_series){ "test", c->test, "#ff7f0e" };
		p->nr_series = 2;
	}
	ret = et_plot_write(&pl, path, "entrytrace diff", "stages by contribution", unit);
	et_plot_free(&pl);
	return ret;
}

enum {
	OPT_BOOTSTRAP = 256,	/* below the ET_OPT_* of builtin.h */
	OPT_SEED,
	OPT_ALPHA,
	OPT_ALL,
	OPT_TOP,
	OPT_FAIL_ON,
	OPT_PLOT,
	OPT_MIN_COUNT,
	OPT_WHERE,
	OPT_REPLICATES,
	OPT_BY_ARG,
	OPT_THRESHOLD,
};

/*
 * Options may come anywhere, before, between or after the files, as in the
 * other commands: the "--" between the sides is turned into this marker, an
 * operand to getopt, whose permutation keeps the operands in order around
 * it.  (So a file after "--" whose name starts with '-' reads as an option:
 * give it as ./-name.)
 */
static char sides_marker[] = "(the -- between the sides)";

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		ET_FORMAT_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		ET_COMMON_LONGOPTS,
		{ "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "min-count", required_argument, NULL, OPT_MIN_COUNT },
		{ "where", optional_argument, NULL, OPT_WHERE },
		{ "replicates", required_argument, NULL, OPT_REPLICATES },
		{ "by-arg", no_argument, NULL, OPT_BY_ARG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct et_diff_opts dopts = { .bootstrap = 2000, .seed = 1, .alpha = 0.05 };
	double kit_threshold = 0.01;
	struct et_common com;
	struct et_load base = { 0 }, test = { 0 };
	struct et_diff df = { 0 };
	struct et_diff_report rep;
	enum et_format fmt = ET_FMT_TEXT;
	const char *output = NULL, *plot_path = NULL;
	struct rule *rules = NULL;
	struct et_cmdline cl = { .longopts = opts, .fmt = &fmt, .output = &output };
	char **args = calloc(argc + 1, sizeof(*args));
	struct et_gate_verdict verdict = { 0 };
	size_t msg_len = 0;
	char rules_text[512] = "";
	int nr_rules = 0, nb, nt, ret = ET_EXIT_OK, c, top = 0, where = 0;
	uint64_t min_count = 30;
	bool all = false, rep_auto = true, exact = true;
	char **files, err[512], *end;
	FILE *out = stdout;
	struct et_output o;
	enum et_err e;
	void *ctx[2] = { &rules, &nr_rules };

	et_common_init(&com);
	com.who = "entrytrace diff";
	com.load.stats_flags |= ET_STATS_BY_WORK;
	if (!args) {
		fprintf(stderr, "entrytrace diff: out of memory\n");
		return ET_EXIT_FAIL;
	}
	for (int i = 0, sep = 0; i < argc; i++)
		args[i] = !sep && i && !strcmp(argv[i], "--") ? (sep = 1, sides_marker) : argv[i];
	argv = args;
	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case OPT_BOOTSTRAP:
			dopts.bootstrap = (int)strtol(optarg, &end, 10);
			if (*end || dopts.bootstrap < 100 || dopts.bootstrap > 1000000) {
				et_bad_value("entrytrace diff", "--bootstrap", optarg,
					     "expected 100 to 1000000 replicates");
				goto bad;
			}
			break;
		case OPT_SEED:
			dopts.seed = strtoull(optarg, &end, 0);
			if (*end) {
				et_bad_value("entrytrace diff", "--seed", optarg, "expected a number");
				goto bad;
			}
			break;
		case OPT_ALPHA:
			dopts.alpha = strtod(optarg, &end);
			if (*end || !(dopts.alpha > 0 && dopts.alpha < 1)) {
				et_bad_value("entrytrace diff", "--alpha", optarg,
					     "expected a level between 0 and 1, e.g. 0.05");
				goto bad;
			}
			break;
		case OPT_ALL:
			all = true;
			break;
		case OPT_THRESHOLD:
			kit_threshold = strtod(optarg, &end) / 100;
			if (*end || !(kit_threshold >= 0 && kit_threshold < 1)) {
				et_bad_value("entrytrace diff", "--threshold", optarg,
					     "expected a percentage, 0 to 100, e.g. 1");
				goto bad;
			}
			break;
		case OPT_TOP:
			top = (int)strtol(optarg, &end, 10);
			if (*end || top < 0) {
				et_bad_value("entrytrace diff", "--top", optarg,
					     "expected a number of rows (0: all)");
				goto bad;
			}
			break;
		case OPT_FAIL_ON: {
			int before = nr_rules;

			if (et_for_each_csv(optarg, parse_rule, ctx))
				goto bad;
			if (nr_rules == before) {
				et_bad_value("entrytrace diff", "--fail-on", optarg,
					     "no rule in it: a gate that checks nothing would pass");
				goto bad;
			}
			snprintf(rules_text + strlen(rules_text), sizeof(rules_text) - strlen(rules_text),
				 "%s%s", rules_text[0] ? "," : "", optarg);
			break;
		}
		case OPT_PLOT:
			plot_path = optarg;
			break;
		case OPT_MIN_COUNT:
			min_count = strtoull(optarg, &end, 10);
			if (*end || optarg[0] == '-') {
				et_bad_value("entrytrace diff", "--min-count", optarg,
					     "expected a number of syscalls");
				goto bad;
			}
			break;
		case OPT_WHERE:
			where = optarg ? (int)strtol(optarg, &end, 10) : 20;
			if (optarg && (*end || where < 1)) {
				et_bad_value("entrytrace diff", "--where", optarg,
					     "expected a number of places");
				goto bad;
			}
			break;
		case OPT_BY_ARG:
			com.load.stats_flags |= ET_STATS_BY_ARG;
			break;
		case OPT_REPLICATES:
			rep_auto = !strcmp(optarg, "auto");
			if (!strcmp(optarg, "runs"))
				dopts.replicates = ET_REP_RUNS;
			else if (!strcmp(optarg, "syscalls"))
				dopts.replicates = ET_REP_SYSCALLS;
			else if (!strcmp(optarg, "none"))
				dopts.replicates = ET_REP_NONE;
			else if (!rep_auto) {
				et_bad_value("entrytrace diff", "--replicates", optarg,
					     "expected auto, runs, syscalls or none");
				goto bad;
			}
			break;
		case ET_OPT_HELP:
			fputs(diff_usage, stdout);
			et_common_free(&com);
			free(args);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	/* BASE TEST, or BASE... -- TEST... (the -- is the marker now) */
	files = argv + optind;
	nb = argc - optind;
	nt = 0;
	for (int i = 0; i < nb; i++) {
		if (files[i] == sides_marker) {
			nt = nb - i - 1;
			nb = i;
			break;
		}
	}
	if (!nt && nb == 2) {
		nb = 1;
		nt = 1;
	}
	if (nb < 1 || nt < 1) {
		fprintf(stderr, "entrytrace diff: need a base and a test: BASE TEST or BASE... -- TEST...\n");
		goto bad;
	}
	{
		char *both[2] = { files[0], files[nb + (files[nb] && !strcmp(files[nb], "--"))] };

		if (et_kit_operands(both, 2, "entrytrace diff", &ret)) {
			struct et_kit_diff_opts ko = { .threshold = kit_threshold,
						       .alpha = dopts.alpha };

			if (nr_rules || plot_path) {
				fprintf(stderr, "entrytrace diff: kits: --%s applies to traces and "
					"plugin output, not to kit archives\n",
					nr_rules ? "fail-on" : "plot");
				ret = ET_EXIT_USAGE;
			}
			if (!ret && (nb > 1 || nt > 1)) {
				fprintf(stderr, "entrytrace diff: kits: one a side (each holds its "
					"repetitions)\n");
				ret = ET_EXIT_USAGE;
			}
			if (!ret)
				ret = et_kit_diff_cmd(both[0], both[1], &ko, fmt, output);
			goto out;
		}
		if (ret)
			goto out;
	}

	if (!rep_auto && dopts.replicates == ET_REP_RUNS && (nb < 2 || nt < 2)) {
		fprintf(stderr, "entrytrace diff: --replicates=runs needs two or more recordings "
			"a side (BASE... -- TEST...); base has %d, test %d\n", nb, nt);
		goto bad;
	}
	if (rep_auto && nb >= 2 && nt >= 2)
		dopts.replicates = ET_REP_RUNS;
	com.load.per_file_stats = dopts.replicates == ET_REP_RUNS;

	et_common_progress(&com);
	e = et_load_files(&base, files, nb, &com.load, err, sizeof(err));
	if (!e)
		e = et_load_files(&test, files + nb + (files[nb] == sides_marker),
				  nt, &com.load, err, sizeof(err));
	if (e) {
		fprintf(stderr, "entrytrace diff: %s\n", err);
		ret = et_exit_for(e);
		goto out;
	}
	if (base.files[0].kind != test.files[0].kind) {
		fprintf(stderr, "entrytrace diff: the base is %s (%s) and the test %s (%s): "
			"give two of one kind\n", base.files[0].kind->what, et_file_unit(&base.files[0]),
			test.files[0].kind->what, et_file_unit(&test.files[0]));
		ret = ET_EXIT_USAGE;
		goto out;
	}
	if (!et_same_machine(&base.files[0].info, &test.files[0].info)) {
		fprintf(stderr, "entrytrace diff: the base is %s and the test %s: syscall "
			"numbers differ between architectures; compare kernels of one "
			"architecture\n", base.files[0].info.machine ? base.files[0].info.machine : "?",
			test.files[0].info.machine ? test.files[0].info.machine : "?");
		ret = ET_EXIT_USAGE;
		goto out;
	}
	if ((!et_stats_syscalls(base.stats) || !et_stats_syscalls(test.stats)) &&
	    (base.damaged || test.damaged)) {
		char why[512];

		/* damaged, not empty: what is missing was lost */
		fprintf(stderr, "entrytrace diff: %s\n",
			et_load_damage(base.damaged ? &base : &test, why, sizeof(why)));
		ret = ET_EXIT_DAMAGED;
		goto out;
	}
	if (!et_stats_syscalls(base.stats) || !et_stats_syscalls(test.stats)) {
		fprintf(stderr, "entrytrace diff: no complete syscall on the %s side\n",
			et_stats_syscalls(base.stats) ? "test" : "base");
		et_window_hint("entrytrace diff", &com.filter,
			       (et_stats_syscalls(base.stats) ? test : base).files[0].info.first_ts,
			       (et_stats_syscalls(base.stats) ? test : base).files[0].counts.last_ts);
		ret = ET_EXIT_EMPTY;
		goto out;
	}
	/* a deterministic clock on both sides: plugin counts, -icount guests */
	for (int i = 0; i < nb; i++)
		exact &= base.files[i].kind->counted || et_info_virtual_clock(&base.files[i].info);
	for (int i = 0; i < nt; i++)
		exact &= test.files[i].kind->counted || et_info_virtual_clock(&test.files[i].info);
	if (rep_auto && dopts.replicates != ET_REP_RUNS)
		dopts.replicates = exact ? ET_REP_SYSCALLS : ET_REP_NONE;
	if (dopts.replicates == ET_REP_RUNS) {
		dopts.base_runs = base.run_stats;
		dopts.test_runs = test.run_stats;
		dopts.nr_base_runs = nb;
		dopts.nr_test_runs = nt;
	}
	rep = (struct et_diff_report){
		.diff = &df, .opts = dopts,
		.base_files = base.files, .test_files = test.files,
		.nr_base = nb, .nr_test = nt,
		.base_path = et_info_entry_path(&base.files[0].info),
		.test_path = et_info_entry_path(&test.files[0].info),
		.names = base.traces[0], .filter = &com.filter, .all = all, .top = top, .min_count = min_count, .where = where,
		.virtual_clock = exact && !base.files[0].kind->counted,
		.exclusive = !!(com.load.stats_flags & ET_STATS_EXCLUSIVE), .no_overhead = !!(com.load.stats_flags & ET_STATS_NO_OVERHEAD),
	};
	if (et_diff(base.stats, test.stats, rep.base_path, rep.test_path, &dopts, &df)) {
		fprintf(stderr, "entrytrace diff: out of memory\n");
		ret = ET_EXIT_FAIL;
		goto out;
	}
	if (!(out = et_output_open(&o, output, "entrytrace diff"))) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	if (nr_rules) {
		/* judged before the output is written, so JSON carries the verdict */
		FILE *msg = open_memstream(&verdict.messages, &msg_len);

		verdict.exit = gate(&df, &rep, rules, nr_rules, msg ? msg : stderr);
		if (msg)
			fclose(msg);
		verdict.result = verdict.exit == ET_EXIT_GATE ? "tripped" :
				 verdict.exit == ET_EXIT_GATE_NONE ? "checked_nothing" : "passed";
		verdict.rules = rules_text;
		rep.gate = &verdict;
	}
	et_render_diff(&rep, fmt, out);
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	if (verdict.messages)
		fputs(verdict.messages, stderr);
	if (plot_path && plot(plot_path, &rep, 12))
		ret = ET_EXIT_FAIL;
	if (ret == ET_EXIT_OK && nr_rules)
		ret = verdict.exit;
	if (ret == ET_EXIT_OK && !df.compared) {
		fprintf(stderr, "entrytrace diff: compared nothing: base and test share no "
			"syscall x path signature x stage cell with values on both sides (base %s "
			"mode, test %s mode)\n", et_mode_name(base.files[0].info.mode),
			et_mode_name(test.files[0].info.mode));
		ret = ET_EXIT_EMPTY;
	}
	if (ret == ET_EXIT_OK && (base.damaged || test.damaged)) {
		char why[512];

		fprintf(stderr, "entrytrace diff: %s\n",
			et_load_damage(base.damaged ? &base : &test, why, sizeof(why)));
		ret = ET_EXIT_DAMAGED;
	}
out:
	et_diff_free(&df);
	et_load_free(&base);
	et_load_free(&test);
	et_common_free(&com);
	for (int i = 0; i < nr_rules; i++)
		rule_free(&rules[i]);
	free(rules);
	free(args);
	free(verdict.messages);
	return ret;
bad:
	et_usage_hint("entrytrace diff");
	et_common_free(&com);
	for (int i = 0; i < nr_rules; i++)
		rule_free(&rules[i]);
	free(rules);
	free(args);
	return ET_EXIT_USAGE;
}
