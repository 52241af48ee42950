// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace report: per-syscall x stage statistics of trace.dat files.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "entrytrace-private.h"

static const char report_usage[] =
	"usage: entrytrace report [options] FILE...\n"
	"\n"
	"Reconstructs one timeline per syscall per task from each trace.dat and prints\n"
	"statistics per syscall x stage, in ns,\n"
	"  %s,\n"
	"with the trace timestamps of the min and max exemplars, then the per-syscall\n"
	"total broken down by task, CPU and result (errno).  Several files are merged\n"
	"into one table; each file's header says what it contained.\n"
	"\n"
	"The finest reconstruction the file supports is used:\n"
	"  stages   entry_stage:entry_stage_time, one event per stage\n"
	"  summary  entry_stage:entry_stage_summary, one event per syscall\n"
	"  stock    raw_syscalls:sys_enter/sys_exit of any kernel, with\n"
	"           context_tracking, signal:signal_deliver, rseq:rseq_update,\n"
	"           sched:sched_switch and irq:* when recorded\n"
	"The header lists what that mode cannot see.  Syscalls that are incomplete\n"
	"(open at either end of the trace, crossing lost events, never returning)\n"
	"are counted there and kept out of the table.\n"
	"\n"
	"FILE may also be a kit archive (entrytrace kit; Documentation/kit.md): then\n"
	"the reporter's table instead, per workload and SELinux mode: ops/s, time,\n"
	"instructions and cycles per op, IPC, CPU time and context switches per op,\n"
	"AVC lookups per op, each the mean of the runs with its 95%% interval, and\n"
	"the SELinux tax against the disabled mode; -f json for all of it (a partial\n"
	"kit, cut short by Ctrl-C, exits 8).\n"
	"\n"
	"FILE may also be QEMU mix plugin output (.mix, plain or gzip'd; see\n"
	"Documentation/qemu-plugin.md): the same tables in guest instructions, from\n"
	"its per-syscall samples, then the instruction mix per stage (barriers by\n"
	"kind, SPR/MSR moves, atomics, counter reads, interrupt returns, counted\n"
	"calls; JSON adds every syscall and its top functions).  A .mix without its\n"
	"end line exits 8.\n"
	"\n"
	"options:\n"
	ET_FORMAT_USAGE
	"  -o, --output=FILE      write the report to FILE instead of stdout\n"
	ET_COMMON_USAGE
	;
static const char report_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"Percentiles come from log-linear histograms: values below 256 ns are exact,\n"
	"larger ones within 0.4%. Memory grows with tasks and syscall x stage cells,\n"
	"not with the number of events.\n"
	"\n"
	"exit status: 0 report printed, 1 runtime failure, 2 usage error, 3 an input\n"
	"file is missing, unreadable or corrupt, 4 no syscall events or nothing\n"
	"matched the filters, 5 (--strict) lost events touched the report, 8 the data\n"
	"has holes: records the file holds could not be read (the header says where).\n";

/* The help text, with the statistics of lib/columns.c and the options' table. */
static void usage(FILE *out, const struct et_optdef *opts)
{
	char names[256];

	et_cols_names(names, sizeof(names));
	fprintf(out, report_usage, names);
	et_optdefs_usage(out, opts);
	fputs(report_usage_tail, out);
}

/* --stages: the vocabulary, through the public interface's getters */
static void list_stages(void)
{
	static const char *const paths[] = { "-", "G", "L", "GL", "S", "GS", "LS", "GLS" };

	printf("%-3s %-18s %-7s %-8s %-16s %-4s %s\n", "id", "stage", "phase", "kind",
	       "parent", "path", "description");
	for (int s = et_stage_next(ET_STAGE_NONE); s != ET_STAGE_NONE; s = et_stage_next(s)) {
		int parent = et_stage_parent(s);

		printf("%-3d %-18s %-7s %-8s %-16s %-4s %s\n", s, et_stage_name(s),
		       et_phase_name(et_stage_phase(s)), et_kind_name(et_stage_kind(s)),
		       parent != ET_STAGE_NONE ? et_stage_name(parent) : "-",
		       paths[et_stage_paths(s) & 7], et_stage_desc(s));
	}
	printf("\npaths: G generic entry, L powerpc legacy entry, S stock kernel\n");
	printf("\n%-3s %-14s %s\n", "bit", "work", "description");
	for (int i = 0; i < et_work_count(); i++)
		printf("%-3d %-14s %s\n", i, et_work_name(i), et_work_desc(i));
}

enum {
	OPT_BY_WORK = 256,	/* below the ET_OPT_* of builtin.h */
	OPT_BY_ARG,
	OPT_NO_BREAKDOWN,
	OPT_STRICT,
	OPT_STAGES,
	OPT_SHOW_EXCLUDED,
	OPT_PLOT,
	OPT_SLOWEST,
	OPT_HIST,
	OPT_WHERE,
	OPT_TOP,
	OPT_SORT,
	OPT_UNIT,
};

static void keep_slowest(const struct et_syscall *sc, void *data)
{
	et_slowest_add(data, sc);
}

/*
 * --hist: a terminal histogram per shown cell, busiest syscalls first.
 * Cells are read as any program of libentrytrace reads them, through
 * entrytrace.h's getters (a cell's stage is a public id there).
 */
static void hists(FILE *out, const struct et_stats *st, const struct et_trace *names,
		  const struct et_filter *filter)
{
	size_t n = et_stats_nr_cells(st);
	char title[192], wb[160], ab[96];

	for (size_t i = 0; i < n; i++) {
		const struct et_cell *c = et_stats_cell_at(st, i);
		const char *name = et_syscall_name(names, et_cell_nr(c));
		int stage = et_cell_stage(c);

		if (filter->stages && !(filter->stages & et_stage_bit(stage)))
			continue;
		snprintf(title, sizeof(title), "%s%s%s%s %s",
			 et_syscall_label(name ? name : "?", et_cell_work(c), ab, sizeof(ab)),
			 et_stats_by_work(st) ? " [" : "",
			 et_stats_by_work(st) ? et_work_str(et_cell_work(c), wb, sizeof(wb)) : "",
			 et_stats_by_work(st) ? "]" : "", et_stage_name(stage));
		et_render_hist(out, et_cell_hist(c), title);
	}
}

static uint64_t cell_total(const struct et_stats *st, size_t i)
{
	return et_hist_total(et_cell_hist(et_stats_cell_at(st, i)));
}

/* The busiest cells (by total time, at least 30 values), one panel each. */
static int plot(const char *path, const struct et_stats *st, const struct et_trace *names,
		const struct et_filter *filter, const char *unit, int max_panels)
{
	size_t n = et_stats_nr_cells(st), *order = calloc(n + 1, sizeof(*order));
	struct et_plot pl;
	int ret = -1;
	size_t k = 0;

	if (et_plot_init(&pl, max_panels) || !order)
		goto done;
	for (size_t i = 0; i < n; i++) {
		const struct et_cell *c = et_stats_cell_at(st, i);

		if (et_hist_count(et_cell_hist(c)) >= 30 &&
		    (!filter->stages || filter->stages & et_stage_bit(et_cell_stage(c))))
			order[k++] = i;
	}
	/* by total time, largest first (insertion sort: k is small) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && cell_total(st, order[j]) > cell_total(st, order[j - 1]);
		     j--) {
			size_t tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	for (size_t i = 0; i < k && pl.n < pl.max; i++) {
		const struct et_cell *c = et_stats_cell_at(st, order[i]);
		const char *name = et_syscall_name(names, et_cell_nr(c));
		char title[96], note[96];
		struct et_plot_panel *p;

		snprintf(title, sizeof(title), "%s %s", name ? name : "?",
			 et_stage_name(et_cell_stage(c)));
		et_stat_note(et_cell_hist(c), unit, note, sizeof(note));
		p = et_plot_add(&pl, title, note);
		p->series[0] = (struct et_plot_series){ "syscalls", et_cell_hist(c), "#1f77b4" };
		p->nr_series = 1;
	}
	ret = et_plot_write(&pl, path, "entrytrace report", "busiest stages", unit);
done:
	free(order);
	et_plot_free(&pl);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct et_common com;
	struct et_load ld = { 0 };
	enum et_format fmt = ET_FMT_TEXT;
	const char *output = NULL, *plot_path = NULL;
	bool by_work = false, by_arg = false, no_breakdown = false, strict = false, hist = false;
	bool show_excluded = false;
	struct et_slowest *slow = NULL;
	long long nr_slowest = 0, v;
	struct et_cmdline cl = { .fmt = &fmt, .output = &output };
	int ret = ET_EXIT_OK, c, where = 0, top = 0, sort = ET_SORT_TOTAL, unit = ET_UNIT_NS;
	FILE *out = stdout;
	struct et_report rep;
	struct et_output o;
	char err[512], keys[256], sort_help[512];
	enum et_err e;
	const struct et_optdef opts[] = {
		{ .key = OPT_BY_WORK, .name = "by-work", .kind = ET_OPTK_FLAG, .value = &by_work,
		  .help = "split each syscall by path signature (which optional\n"
			  "work ran: audit, seccomp, signal, resched, ...)" },
		{ .key = OPT_BY_ARG, .name = "by-arg", .kind = ET_OPTK_FLAG, .value = &by_arg,
		  .help = "split the syscalls whose arguments choose their path\n"
			  "by argument shape: kill/tkill/tgkill by target (self,\n"
			  "pid, 0, -1: every process, -pgrp, INT_MIN) and signal\n"
			  "(0, its name, bad), e.g. kill(-1, 0); from\n"
			  "raw_syscalls:sys_enter's args (stock) or\n"
			  "syscalls:sys_enter_kill & co. recorded beside the\n"
			  "entry_stage events (record -e)" },
		{ .key = OPT_NO_BREAKDOWN, .name = "no-breakdown", .kind = ET_OPTK_FLAG,
		  .value = &no_breakdown, .help = "omit the task / CPU / result tables" },
		{ .key = OPT_STRICT, .name = "strict", .kind = ET_OPTK_FLAG, .value = &strict,
		  .help = "exit 5 if lost events touched any timeline" },
		{ .key = OPT_SHOW_EXCLUDED, .name = "show-excluded", .kind = ET_OPTK_FLAG,
		  .value = &show_excluded,
		  .help = "list every syscall kept out of the table, and why" },
		{ .key = OPT_PLOT, .name = "plot", .arg = "FILE.svg", .kind = ET_OPTK_STR,
		  .value = &plot_path, .help = "cumulative distributions of the busiest stages" },
		{ .key = OPT_SLOWEST, .name = "slowest", .arg = "N", .kind = ET_OPTK_LL,
		  .value = &nr_slowest, .lo = 1, .hi = 100000,
		  .expect = "expected a number of syscalls, 1 to 100000",
		  .help = "text: the N slowest syscalls (by total), each with\n"
			  "task, CPU, timestamp and its stages" },
		{ .key = OPT_HIST, .name = "hist", .kind = ET_OPTK_FLAG, .value = &hist,
		  .help = "text: a histogram per syscall x stage shown" },
		{ .key = OPT_WHERE, .name = "where", .arg = "N", .optional = true,
		  .kind = ET_OPTK_CALL,
		  .help = "plugin output: the N places (default 8) of each stage\n"
			  "that run the most instructions per syscall, each named\n"
			  "by function, source line and whose code it is\n"
			  "(handler, generic entry, arch entry, tracer, other)" },
		{ .key = OPT_TOP, .name = "top", .arg = "N", .kind = ET_OPTK_INT, .value = &top,
		  .lo = 1, .hi = INT_MAX, .expect = "expected a number of syscalls, 1 or more",
		  .help = "text: only the first N syscalls of the table (as\n"
			  "sorted); the table says how many it left out" },
		{ .key = OPT_SORT, .name = "sort", .arg = "KEY", .kind = ET_OPTK_CALL,
		  .help = sort_help },
		{ .key = OPT_UNIT, .name = "unit", .arg = "UNIT", .kind = ET_OPTK_CALL,
		  .help = "text: times in ns (default), us, ms or s" },
		{ .key = OPT_STAGES, .name = "stages", .kind = ET_OPTK_CALL,
		  .help = "list the stage vocabulary and exit" },
		{ .name = NULL },
	};

	et_sort_keys(keys, sizeof(keys));
	snprintf(sort_help, sizeof(sort_help), "text: order the syscalls by a statistic of their\n"
		 "total (largest first) or by name, KEY one of\n%s (default total)", keys);
	cl.defs = opts;
	et_common_init(&com);
	com.who = "entrytrace report";
	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case OPT_STAGES:
			list_stages();
			et_common_free(&com);
			return ET_EXIT_OK;
		case OPT_WHERE:
			if (optarg && et_opt_int(com.who, "--where", optarg, 1, INT_MAX,
						 "expected a number of places per stage", &v))
				goto bad;
			where = optarg ? (int)v : 8;
			break;
		case OPT_SORT:
			sort = et_sort_by_name(optarg);
			if (sort < 0) {
				char what[300];

				snprintf(what, sizeof(what), "expected %s", keys);
				et_bad_value("entrytrace report", "--sort", optarg, what);
				goto bad;
			}
			break;
		case OPT_UNIT:
			unit = et_unit_by_name(optarg);
			if (unit < 0) {
				et_bad_value("entrytrace report", "--unit", optarg,
					     "expected ns, us, ms or s");
				goto bad;
			}
			break;
		case ET_OPT_HELP:
			usage(stdout, opts);
			et_common_free(&com);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	if (by_work)
		com.load.stats_flags |= ET_STATS_BY_WORK;
	if (by_arg)
		com.load.stats_flags |= ET_STATS_BY_ARG;
	com.load.keep_excluded = show_excluded;
	if (argc - optind < 1) {
		fprintf(stderr, "entrytrace report: no input file\n");
		goto bad;
	}
	if (et_kit_operands(argv + optind, argc - optind, "entrytrace report", &ret)) {
		if (!ret && argc - optind > 1) {
			fprintf(stderr, "entrytrace report: one kit archive at a time (diff compares "
				"two)\n");
			ret = ET_EXIT_USAGE;
		}
		if (!ret)
			ret = et_kit_report_cmd(argv[optind], fmt, output);
		et_common_free(&com);
		return ret;
	}
	if (ret) {
		et_common_free(&com);
		return ret;
	}

	if (nr_slowest) {
		slow = et_slowest_new(nr_slowest);
		if (!slow) {
			ret = ET_EXIT_FAIL;
			goto out;
		}
		com.load.added = keep_slowest;
		com.load.added_data = slow;
	}
	et_common_progress(&com);
	e = et_load_files(&ld, argv + optind, argc - optind, &com.load, err, sizeof(err));
	if (e) {
		fprintf(stderr, "entrytrace report: %s\n", err);
		ret = et_exit_for(e);
		goto out;
	}
	out = et_output_open(&o, output, "entrytrace report");
	if (!out) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	rep = (struct et_report){
		.files = ld.files,
		.nr_files = ld.nr_files,
		.stats = ld.stats,
		.names = ld.traces[0],
		.filter = &com.filter,
		.filtered_out = ld.filtered_out,
		.breakdown = !no_breakdown,
		.show_excluded = com.load.keep_excluded,
		.exclusive = !!(com.load.stats_flags & ET_STATS_EXCLUSIVE),
		.no_overhead = !!(com.load.stats_flags & ET_STATS_NO_OVERHEAD),
		.excluded = ld.excluded,
		.nr_excluded = ld.nr_excluded,
		.where = where,
		.sort = (enum et_sort)sort,
		.top = top,
		.unit = (enum et_unit)unit,
	};
	et_render(&rep, fmt, out);
	if (fmt == ET_FMT_TEXT && slow) {
		size_t ns = et_slowest_sort(slow);

		const char *what = ld.files[0].kind->slowest;

		fprintf(out, "\nthe %zu slowest syscalls (%s):\n", ns, what ? what :
			"total; trace-cmd report and KernelShark find them by task, CPU and "
			"timestamp");
		for (size_t i = 0; i < ns; i++)
			et_render_syscall(out, et_slowest_at(slow, i), ld.traces[0],
					  com.filter.stages);
	}
	if (fmt == ET_FMT_TEXT && hist)
		hists(out, ld.stats, ld.traces[0], &com.filter);
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	if (plot_path && plot(plot_path, ld.stats, ld.traces[0], &com.filter, et_file_unit(&ld.files[0]), 12))
		ret = ET_EXIT_FAIL;
	/* a damaged file is damaged, even when nothing of it was left to show */
	if (ret == ET_EXIT_OK && ld.damaged) {
		char why[512];

		fprintf(stderr, "entrytrace report: %s\n", et_load_damage(&ld, why, sizeof(why)));
		ret = ET_EXIT_DAMAGED;
	}
	if (ret == ET_EXIT_OK && (!ld.seen || !et_stats_syscalls(ld.stats))) {
		fprintf(stderr, "entrytrace report: %s\n",
			ld.seen ? "no complete syscall matched" : "no syscall in the trace");
		if (ld.seen && com.filter.have_window)
			for (int i = 0; i < ld.nr_files; i++)
				et_window_hint("entrytrace report", &com.filter,
					       ld.files[i].info.first_ts, ld.files[i].counts.last_ts);
		ret = ET_EXIT_EMPTY;
	}
	if (ret == ET_EXIT_OK && strict && ld.lost) {
		fprintf(stderr, "entrytrace report: lost events touched the report (--strict)\n");
		ret = ET_EXIT_LOST;
	}
out:
	et_slowest_free(slow);
	et_load_free(&ld);
	et_common_free(&com);
	return ret;
bad:
	et_usage_hint("entrytrace report");
	et_common_free(&com);
	return ET_EXIT_USAGE;
}
