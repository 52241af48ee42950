// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace diff: two kernels compared stage by stage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
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
	;
static const char diff_usage_tail[] =
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
_Static_assert((int)ET_EXIT_GATE == (int)ET_GATE_TRIPPED &&
	       (int)ET_EXIT_GATE_NONE == (int)ET_GATE_NOTHING &&
	       (int)ET_EXIT_OK == (int)ET_GATE_PASSED, "the gate's verdicts are diff's exit statuses");

static char sides_marker[] = "(the -- between the sides)";

int cmd_diff(int argc, char **argv)
{
	struct et_diff_opts dopts = { .bootstrap = 2000, .seed = 1, .alpha = 0.05 };
	double kit_threshold;
	struct et_common com;
	struct et_load base = { 0 }, test = { 0 };
	struct et_diff df = { 0 };
	struct et_diff_report rep;
	enum et_format fmt = ET_FMT_TEXT;
	const char *output = NULL, *plot_path = NULL;
	struct et_gate *rules = et_gate_new();
	struct et_cmdline cl = { .fmt = &fmt, .output = &output };
	char **args = calloc(argc + 1, sizeof(*args));
	struct et_gate_verdict verdict = { 0 };
	int nb, nt, ret = ET_EXIT_OK, c, top = 0, where = 0;
	long long min_count = 30, v;
	double threshold_pct = 1;
	bool all = false, by_arg = false, rep_auto = true, exact;
	char **files, err[512];
	FILE *out = stdout;
	struct et_output o;
	enum et_err e;

	const struct et_optdef opts[] = {
		{ .key = OPT_REPLICATES, .name = "replicates", .arg = "R", .kind = ET_OPTK_CALL,
		  .help = "auto (default), runs, syscalls or none: above" },
		{ .key = OPT_BY_ARG, .name = "by-arg", .kind = ET_OPTK_FLAG,
		  .value = &by_arg,
		  .help = "also split by argument shape (kill(-1, 0), kill(self,\n"
			  "0), ...: see entrytrace report --help)" },
		{ .key = OPT_BOOTSTRAP, .name = "bootstrap", .arg = "N", .kind = ET_OPTK_INT,
		  .value = &dopts.bootstrap, .lo = 100, .hi = 1000000,
		  .expect = "expected 100 to 1000000 replicates",
		  .help = "bootstrap replicates (default 2000)" },
		{ .key = OPT_SEED, .name = "seed", .arg = "N", .kind = ET_OPTK_U64,
		  .value = &dopts.seed, .expect = "expected a number",
		  .help = "random seed (default 1): same seed, same CIs" },
		{ .key = OPT_ALPHA, .name = "alpha", .arg = "A", .kind = ET_OPTK_REAL,
		  .value = &dopts.alpha, .rlo = 0, .rhi = 1,
		  .open = ET_OPT_OPEN_LO | ET_OPT_OPEN_HI,
		  .expect = "expected a level between 0 and 1, e.g. 0.05",
		  .help = "family-wise significance level (default 0.05)" },
		{ .key = OPT_THRESHOLD, .name = "threshold", .arg = "PCT", .kind = ET_OPTK_REAL,
		  .value = &threshold_pct, .rlo = 0, .rhi = 100,
		  .open = ET_OPT_OPEN_HI, .expect = "expected a percentage, 0 to 100, e.g. 1",
		  .help = "kits: a part moved only when it moved PCT% or more\n"
			  "(default 1) and its interval leaves out 0" },
		{ .key = OPT_ALL, .name = "all", .kind = ET_OPTK_FLAG,
		  .value = &all,
		  .help = "show every cell, not only totals, significant\n"
			  "cells and cells present on one side only (plugin\n"
			  "output: and every function whose count moved)" },
		{ .key = OPT_TOP, .name = "top", .arg = "N", .kind = ET_OPTK_INT,
		  .value = &top, .lo = 0, .hi = INT_MAX,
		  .expect = "expected a number of rows (0: all)",
		  .help = "at most N rows in the text table" },
		{ .key = OPT_MIN_COUNT, .name = "min-count", .arg = "N", .kind = ET_OPTK_LL,
		  .value = &min_count, .lo = 0, .hi = LLONG_MAX,
		  .expect = "expected a number of syscalls",
		  .help = "text: leave out syscalls with fewer than N on a\n"
			  "side (default 30; JSON and CSV have all)" },
		{ .key = OPT_FAIL_ON, .name = "fail-on", .arg = "RULES", .kind = ET_OPTK_CALL,
		  .help = "exit 6 when a rule trips; RULES is a comma list of\n"
			  "[SYSCALL:]STAGE>N% or [SYSCALL:]STAGE>N{ns,us,ms}, STAGE\n"
			  "may be * (every kernel stage: not user_gap); a rule\n"
			  "trips on a significant cell whose mean (with runs:\n"
			  "median) grew by more than N% of the base's (or N ns)\n"
			  "and whose interval leaves out 0; the trip names the\n"
			  "[work] group.  Needs tests: with --replicates=none (one\n"
			  "recording a side) a time rule checks nothing (7).\n"
			  "A time rule that does not trip says the smallest\n"
			  "change its cells could have shown (80% power at\n"
			  "Holm's strictest level, never below the clock's\n"
			  "step the values show): JSON has it per cell\n"
			  "(detectable, detectable_pct, clock_step) and the\n"
			  "gate's verdict (gate: result, exit, messages).\n"
			  "On plugin output also [SYSCALL:]ACCOUNT.WHAT>N: the\n"
			  "instructions of kind or class WHAT (hwsync, barrier,\n"
			  "atomic, ...) per syscall in ACCOUNT (a stage, whole,\n"
			  "gap, outside; * for each) may not grow by more than\n"
			  "N, e.g. whole.hwsync>0; a trip names the place" },
		{ .key = OPT_WHERE, .name = "where", .arg = "N", .kind = ET_OPTK_CALL,
		  .optional = true,
		  .help = "plugin output: also the N places (default 20) whose\n"
			  "instructions per syscall moved most; the places whose\n"
			  "instruction classes moved are always shown" },
		{ .key = OPT_PLOT, .name = "plot", .arg = "FILE.svg", .kind = ET_OPTK_STR,
		  .value = &plot_path,
		  .help = "cumulative distributions, base against test, of the\n"
			  "stages that contribute most" },
		{ .name = NULL },
	};

	cl.defs = opts;
	et_common_init(&com);
	com.who = "entrytrace diff";
	com.load.stats_flags |= ET_STATS_BY_WORK;
	if (!args || !rules) {
		fprintf(stderr, "entrytrace diff: out of memory\n");
		free(args);
		et_gate_free(rules);
		return ET_EXIT_FAIL;
	}
	for (int i = 0, sep = 0; i < argc; i++)
		args[i] = !sep && i && !strcmp(argv[i], "--") ? (sep = 1, sides_marker) : argv[i];
	argv = args;
	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case OPT_FAIL_ON:
			if (et_gate_parse(rules, optarg))
				goto bad;
			break;
		case OPT_WHERE:
			if (optarg && et_opt_int(com.who, "--where", optarg, 1, INT_MAX,
						 "expected a number of places", &v))
				goto bad;
			where = optarg ? (int)v : 20;
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
			et_optdefs_usage(stdout, opts);
			fputs(diff_usage_tail, stdout);
			et_common_free(&com);
			et_gate_free(rules);
			free(args);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	kit_threshold = threshold_pct / 100;
	if (by_arg)
		com.load.stats_flags |= ET_STATS_BY_ARG;
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

			if (et_gate_nr(rules) || plot_path) {
				fprintf(stderr, "entrytrace diff: kits: --%s applies to traces and "
					"plugin output, not to kit archives\n",
					et_gate_nr(rules) ? "fail-on" : "plot");
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

	if (et_replicates_plan(&dopts, rep_auto, nb, nt))
		goto bad;
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
	exact = et_replicates_settle(&dopts, rep_auto, &base, &test);
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
	if (et_gate_nr(rules)) {
		/* judged before the output is written, so JSON carries the verdict */
		et_gate_judge(rules, &df, &rep, &verdict);
		rep.gate = &verdict;
	}
	et_render_diff(&rep, fmt, out);
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	if (verdict.messages)
		fputs(verdict.messages, stderr);
	if (plot_path && plot(plot_path, &rep, 12))
		ret = ET_EXIT_FAIL;
	if (ret == ET_EXIT_OK && et_gate_nr(rules))
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
	et_gate_free(rules);
	free(args);
	free(verdict.messages);
	return ret;
bad:
	et_usage_hint("entrytrace diff");
	et_common_free(&com);
	et_gate_free(rules);
	free(args);
	return ET_EXIT_USAGE;
}
