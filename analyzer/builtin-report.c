// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace report: per-syscall x stage statistics of trace.dat files.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "entrytrace.h"
#include "internal.h"

static const char report_usage[] =
	"usage: entrytrace report [options] FILE...\n"
	"\n"
	"Reconstructs one timeline per syscall per task from each trace.dat and prints\n"
	"statistics per syscall x stage: count, min, mean, p50, p90, p99, max, stddev,\n"
	"total (ns), with the trace timestamps of the min and max exemplars, then the\n"
	"per-syscall total broken down by task, CPU and result (errno).  Several files\n"
	"are merged into one table; each file's header says what it contained.\n"
	"\n"
	"The finest reconstruction the file supports is used:\n"
	"  stages   entry_stage:<stage> events of an entrytrace kernel\n"
	"  summary  entry_stage:summary, one event per syscall\n"
	"  stock    raw_syscalls:sys_enter/sys_exit of any kernel, with\n"
	"           context_tracking, signal:signal_deliver, rseq:rseq_update,\n"
	"           sched:sched_switch and irq:* when recorded\n"
	"The header lists what that mode cannot see.  Syscalls that are incomplete\n"
	"(open at either end of the trace, crossing lost events, never returning)\n"
	"are counted there and kept out of the table.\n"
	"\n"
	"options:\n"
	"  -f, --format=FMT       text (default), json or csv\n"
	"      --json, --csv      same as --format=json / csv\n"
	"  -o, --output=FILE      write the report to FILE instead of stdout\n"
	"  -p, --pid=PID[,PID]    only these tasks\n"
	"  -c, --comm=COMM[,..]   only tasks of these names (name at syscall entry)\n"
	"  -s, --syscall=S[,..]   only these syscalls, by name (the trace's own\n"
	"                         architecture) or number\n"
	"  -C, --cpu=CPU[,..]     only syscalls that entered or returned on these CPUs\n"
	"  -w, --time-window=A,B  only syscalls entered between A and B seconds on the\n"
	"                         trace clock (as trace-cmd report prints); +A,+B are\n"
	"                         offsets from the first event\n"
	"  -S, --stage=NAME[,..]  only show these stages (see 'entrytrace report --stages')\n"
	"      --by-work          split each syscall by path signature (which optional\n"
	"                         work ran: audit, seccomp, signal, resched, ...)\n"
	"      --no-breakdown     omit the task / CPU / result tables\n"
	"      --mode=MODE        use a coarser mode than detected (summary, stock)\n"
	"  -j, --jobs=N           reader threads (default: online CPUs, at most the\n"
	"                         trace's CPUs); the result does not depend on N\n"
	"      --strict           exit 5 if lost events touched any timeline\n"
	"      --show-excluded    list every syscall kept out of the table, and why\n"
	"      --stages           list the stage vocabulary and exit\n"
	"  -h, --help             this text\n"
	"\n"
	"Percentiles come from log-linear histograms: values below 256 ns are exact,\n"
	"larger ones within 0.4%. Memory grows with tasks and syscall x stage cells,\n"
	"not with the number of events.\n"
	"\n"
	"exit status: 0 report printed, 1 runtime failure, 2 usage error, 3 an input\n"
	"file is missing, unreadable or corrupt, 4 no syscall events or nothing\n"
	"matched the filters, 5 (--strict) lost events touched the report.\n";

struct report {
	struct et_filter filter;
	char **syscall_names;
	int nr_syscall_names;
	struct et_stats *stats;
	const struct et_trace *trace;	/* current file, for filters */
	uint64_t filtered_out;
	bool failed;
	bool keep_excluded;
	bool filtering;		/* any filter given */
	struct et_syscall *excluded;
	size_t nr_excluded, cap_excluded;
};

static int add_int(const char *s, void *data)
{
	int **arr = ((int ***)data)[0];
	int *n = ((int **)data)[1];
	char *end;
	long v = strtol(s, &end, 10);
	int *p;

	if (!*s || *end)
		return -1;
	p = realloc(*arr, (*n + 1) * sizeof(int));
	if (!p)
		return -1;
	p[(*n)++] = (int)v;
	*arr = p;
	return 0;
}

static int parse_ints(const char *list, int **arr, int *n)
{
	void *ctx[2] = { arr, n };

	return et_for_each_csv(list, add_int, ctx);
}

static int add_str(const char *s, void *data)
{
	char ***arr = ((char ****)data)[0];
	int *n = ((int **)data)[1];
	char **p = realloc(*arr, (*n + 1) * sizeof(char *));

	if (!p)
		return -1;
	*arr = p;
	p[*n] = strdup(s);
	if (!p[*n])
		return -1;
	(*n)++;
	return 0;
}

static int parse_strs(const char *list, char ***arr, int *n)
{
	void *ctx[2] = { arr, n };

	return et_for_each_csv(list, add_str, ctx);
}

static int add_stage(const char *s, void *data)
{
	uint64_t *mask = data;
	int id = et_stage_by_name(s);

	if (id < 0) {
		fprintf(stderr, "entrytrace report: unknown stage '%s' (see --stages)\n", s);
		return -1;
	}
	*mask |= 1ull << id;
	return 0;
}

static bool parse_window(const char *arg, struct et_filter *f)
{
	const char *comma = strchr(arg, ',');
	char *end;

	if (!comma)
		return false;
	f->window_relative = arg[0] == '+';
	f->window_start = strtod(arg + f->window_relative, &end);
	if (end != comma)
		return false;
	if (f->window_relative != (comma[1] == '+'))
		return false;
	f->window_end = strtod(comma + 1 + f->window_relative, &end);
	if (*end || f->window_end < f->window_start)
		return false;
	f->have_window = true;
	return true;
}

/* Syscall names depend on the architecture: resolve per file. */
static bool resolve_syscalls(struct report *r, const struct et_trace *trace)
{
	free(r->filter.syscalls);
	r->filter.syscalls = NULL;
	r->filter.nr_syscalls = r->nr_syscall_names;
	if (!r->nr_syscall_names)
		return true;
	r->filter.syscalls = calloc(r->nr_syscall_names, sizeof(long));
	if (!r->filter.syscalls)
		return false;
	for (int i = 0; i < r->nr_syscall_names; i++) {
		long nr = et_syscall_number(trace, r->syscall_names[i]);

		if (nr < 0) {
			fprintf(stderr, "entrytrace report: %s: no syscall '%s' on %s\n",
				et_trace_info(trace)->path, r->syscall_names[i],
				et_trace_info(trace)->machine ? et_trace_info(trace)->machine
							      : "this architecture");
			return false;
		}
		r->filter.syscalls[i] = nr;
	}
	return true;
}

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct report *r = data;

	if (sc->flags & ET_SC_INCOMPLETE) {
		if (r->keep_excluded) {
			if (et_grow((void **)&r->excluded, &r->cap_excluded,
				    r->nr_excluded + 1, sizeof(*sc)))
				r->failed = true;
			else
				r->excluded[r->nr_excluded++] = *sc;
		}
		return;
	}
	if (r->filtering &&
	    !et_filter_match(&r->filter, sc, et_trace_info(r->trace)->first_ts)) {
		r->filtered_out++;
		return;
	}
	if (!et_stats_add(r->stats, sc))
		r->failed = true;
}

static void list_stages(void)
{
	static const char *const paths[] = { "-", "G", "L", "GL", "S", "GS", "LS", "GLS" };

	printf("%-3s %-18s %-7s %-8s %-16s %-4s %s\n", "id", "stage", "phase", "kind",
	       "parent", "path", "description");
	for (int i = 0; i < ET_STAGE_NR; i++) {
		const struct et_stage_info *s = &et_stages[i];

		printf("%-3d %-18s %-7s %-8s %-16s %-4s %s\n", i, s->name,
		       et_phase_name(s->phase), et_kind_name(s->kind),
		       s->parent >= 0 ? et_stages[s->parent].name : "-",
		       paths[s->paths & 7], s->desc);
	}
	printf("\npaths: G generic entry, L powerpc legacy entry, S stock kernel\n");
	printf("\n%-3s %-14s %s\n", "bit", "work", "description");
	for (int i = 0; i < ET_WORK_NR; i++)
		printf("%-3d %-14s %s\n", i, et_work_names[i], et_work_descs[i]);
}

enum {
	OPT_JSON = 256,
	OPT_CSV,
	OPT_BY_WORK,
	OPT_NO_BREAKDOWN,
	OPT_MODE,
	OPT_STRICT,
	OPT_STAGES,
	OPT_SHOW_EXCLUDED,
};

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "syscall", required_argument, NULL, 's' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "time-window", required_argument, NULL, 'w' },
		{ "stage", required_argument, NULL, 'S' },
		{ "by-work", no_argument, NULL, OPT_BY_WORK },
		{ "no-breakdown", no_argument, NULL, OPT_NO_BREAKDOWN },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "stages", no_argument, NULL, OPT_STAGES },
		{ "show-excluded", no_argument, NULL, OPT_SHOW_EXCLUDED },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { 0 };
	struct et_stats_opts sopts = { 0 };
	enum et_format fmt = ET_FMT_TEXT;
	const char *output = NULL, *mode = NULL;
	bool breakdown = true, strict = false;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct et_report_file *files = NULL;
	struct et_trace **traces = NULL;
	int nfiles, ret = ET_EXIT_OK, c;
	uint64_t lost = 0, seen = 0;
	FILE *out = stdout;
	struct et_report rep;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:p:c:s:C:w:S:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = ET_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				fmt = ET_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = ET_FMT_CSV;
			else
				goto bad;
			break;
		case OPT_JSON:
			fmt = ET_FMT_JSON;
			break;
		case OPT_CSV:
			fmt = ET_FMT_CSV;
			break;
		case 'o':
			output = optarg;
			break;
		case 'p':
			if (parse_ints(optarg, &r.filter.pids, &r.filter.nr_pids))
				goto bad;
			break;
		case 'c':
			if (parse_strs(optarg, &r.filter.comms, &r.filter.nr_comms))
				goto bad;
			break;
		case 's':
			if (parse_strs(optarg, &r.syscall_names, &r.nr_syscall_names))
				goto bad;
			break;
		case 'C':
			if (parse_ints(optarg, &r.filter.cpus, &r.filter.nr_cpus))
				goto bad;
			break;
		case 'w':
			if (!parse_window(optarg, &r.filter))
				goto bad;
			break;
		case 'S':
			if (et_for_each_csv(optarg, add_stage, &r.filter.stages))
				goto bad;
			break;
		case OPT_BY_WORK:
			sopts.by_work = true;
			break;
		case OPT_NO_BREAKDOWN:
			breakdown = false;
			break;
		case OPT_MODE:
			mode = optarg;
			if (strcmp(mode, "stages") && strcmp(mode, "summary") &&
			    strcmp(mode, "stock"))
				goto bad;
			break;
		case OPT_STRICT:
			strict = true;
			break;
		case OPT_STAGES:
			list_stages();
			return ET_EXIT_OK;
		case OPT_SHOW_EXCLUDED:
			r.keep_excluded = true;
			break;
		case 'j':
			jobs = atoi(optarg);
			if (jobs < 1)
				goto bad;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	nfiles = argc - optind;
	if (nfiles < 1) {
		fprintf(stderr, "entrytrace report: no input file\n");
		goto bad;
	}

	r.filtering = r.filter.nr_pids || r.filter.nr_comms || r.nr_syscall_names ||
		      r.filter.nr_cpus || r.filter.have_window;
	r.stats = et_stats_new(&sopts);
	files = calloc(nfiles, sizeof(*files));
	traces = calloc(nfiles, sizeof(*traces));
	if (!r.stats || !files || !traces) {
		fprintf(stderr, "entrytrace report: out of memory\n");
		return ET_EXIT_FAIL;
	}

	for (int i = 0; i < nfiles; i++) {
		const char *path = argv[optind + i];
		char err[512];
		enum et_err e;
		struct et_timeline *tl;

		traces[i] = et_trace_open(path, &e, err, sizeof(err));
		if (!traces[i]) {
			fprintf(stderr, "entrytrace report: %s\n", err);
			ret = e == ET_ERR_NO_EVENTS ? ET_EXIT_EMPTY :
			      e == ET_ERR_NOMEM	    ? ET_EXIT_FAIL :
							ET_EXIT_INPUT;
			goto out;
		}
		if (mode) {
			enum et_mode m = !strcmp(mode, "stages")  ? ET_MODE_STAGES :
					 !strcmp(mode, "summary") ? ET_MODE_SUMMARY :
								    ET_MODE_STOCK;

			if (!et_trace_set_mode(traces[i], m)) {
				fprintf(stderr, "entrytrace report: %s: has no events for mode %s\n",
					path, mode);
				ret = ET_EXIT_EMPTY;
				goto out;
			}
		}
		et_trace_set_jobs(traces[i], jobs);
		r.trace = traces[i];
		if (!resolve_syscalls(&r, traces[i])) {
			ret = ET_EXIT_USAGE;
			goto out;
		}
		tl = et_timeline_new(traces[i], on_syscall, &r);
		if (!tl) {
			ret = ET_EXIT_FAIL;
			goto out;
		}
		if (et_trace_iterate(traces[i], et_timeline_feed, tl) < 0) {
			fprintf(stderr, "entrytrace report: %s: reading the events failed\n", path);
			et_timeline_free(tl);
			ret = ET_EXIT_INPUT;
			goto out;
		}
		et_timeline_finish(tl);
		files[i].info = *et_trace_info(traces[i]);
		files[i].counts = *et_trace_counts(traces[i]);
		files[i].tl = *et_timeline_counts(tl);
		lost += files[i].tl.flagged[__builtin_ctz(ET_SC_LOST)] +
			files[i].counts.lost_events + files[i].counts.lost_unknown;
		seen += files[i].tl.syscalls;
		et_timeline_free(tl);
		if (r.failed) {
			fprintf(stderr, "entrytrace report: out of memory\n");
			ret = ET_EXIT_FAIL;
			goto out;
		}
	}

	if (output) {
		out = fopen(output, "w");
		if (!out) {
			fprintf(stderr, "entrytrace report: %s: %s\n", output, strerror(errno));
			ret = ET_EXIT_FAIL;
			goto out;
		}
	}
	rep = (struct et_report){
		.files = files,
		.nr_files = nfiles,
		.stats = r.stats,
		.names = traces[0],
		.filter = &r.filter,
		.filtered_out = r.filtered_out,
		.breakdown = breakdown,
		.show_excluded = r.keep_excluded,
		.excluded = r.excluded,
		.nr_excluded = r.nr_excluded,
	};
	et_render(&rep, fmt, out);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "entrytrace report: write error\n");
		ret = ET_EXIT_FAIL;
	}
	if (out != stdout)
		fclose(out);
	if (ret == ET_EXIT_OK && (!seen || !et_stats_syscalls(r.stats))) {
		fprintf(stderr, "entrytrace report: %s\n",
			seen ? "no complete syscall matched" : "no syscall in the trace");
		ret = ET_EXIT_EMPTY;
	}
	if (ret == ET_EXIT_OK && strict && lost) {
		fprintf(stderr, "entrytrace report: lost events touched the report (--strict)\n");
		ret = ET_EXIT_LOST;
	}
out:
	for (int i = 0; traces && i < nfiles; i++)
		et_trace_close(traces[i]);
	free(traces);
	free(files);
	et_stats_free(r.stats);
	free(r.filter.pids);
	free(r.filter.cpus);
	free(r.filter.syscalls);
	for (int i = 0; i < r.filter.nr_comms; i++)
		free(r.filter.comms[i]);
	free(r.filter.comms);
	for (int i = 0; i < r.nr_syscall_names; i++)
		free(r.syscall_names[i]);
	free(r.syscall_names);
	free(r.excluded);
	return ret;
bad:
	fputs(report_usage, stderr);
	return ET_EXIT_USAGE;
}
