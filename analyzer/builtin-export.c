// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace export: syscall and stage timelines for trace viewers.  The
 * options, the file and the summary; the writers are the library's
 * (lib/export.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "entrytrace-private.h"

static const char export_usage[] =
	"usage: entrytrace export [options] FILE.dat\n"
	"\n"
	"Writes the syscall timelines of a trace as Trace Event Format JSON, which\n"
	"ui.perfetto.dev and chrome://tracing open: a track per task, a slice per\n"
	"syscall (args: nr, ret, path signature, flags) with its stages nested inside,\n"
	"instant markers for signal deliveries and for lost-event gaps, and off_cpu\n"
	"and irq slices where the task was switched out or interrupted inside a\n"
	"syscall (with sched_switch and irq events; the first 16 per syscall).  Threads are\n"
	"grouped into their process where the trace says which process they belong to\n"
	"(task:task_newtask's clone flags, an exec); otherwise each thread is a process\n"
	"of its own, and export says so.\n"
	"\n"
	"Syscalls kept out of 'entrytrace report' are exported with args.complete\n"
	"false whenever the trace holds a span for them: crossing lost events, a fork\n"
	"child's return, and a syscall open at the start of the trace on an entrytrace\n"
	"kernel (flags open_start: drawn from its first stage the trace holds), and\n"
	"one whose deferred tail never came (flags no_tail: a task's last syscall;\n"
	"drawn to its last stage).  Those with no span (open at an end on a stock\n"
	"kernel, exit_group there) are not exported; export counts them on stderr.  Stages that end outside\n"
	"their syscall (a stock kernel's signal_exit, after sys_exit) become instants.\n"
	"A task renamed by exec is renamed on its track.\n"
	"\n"
	"options:\n";
static const char export_usage_tail[] =
	"  -o, --output=FILE      write to FILE instead of stdout\n"
	ET_COMMON_USAGE
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 written, 1 runtime failure (the output is then not left\n"
	"behind), 2 usage error, 3 an input file is missing, unreadable or corrupt,\n"
	"4 no syscall events, 8 the data has holes (written; entrytrace report says\n"
	"per CPU what could not be read).\n";

/* -f is export's own: its formats are not the tables' */
static const struct et_optdef opts[] = {
	{ .key = 'f', .name = "format", .arg = "FMT", .kind = ET_OPTK_CALL,
	  .help = "chrome-json (default) or perfetto (the same JSON;\n"
		  "Perfetto's UI reads it), or proto: Perfetto's own\n"
		  "protobuf format (TrackEvent), what Perfetto reads\n"
		  "fastest; its args say only what differs from the\n"
		  "common case (work, flags, complete false, cpu_exit)" },
	{ 0 },
};

int cmd_export(int argc, char **argv)
{
	struct et_export *x = NULL;
	struct et_output o = { 0 };
	bool proto = false;
	uint64_t pf_packets = 0, pf_bytes = 0;
	struct et_common com;
	struct et_load ld = { 0 };
	const char *output = NULL;
	struct et_cmdline cl = { .defs = opts, .output = &output };
	const struct et_export_counts *n = NULL;
	FILE *out = NULL;
	int ret = ET_EXIT_OK, c;
	char err[512];
	enum et_err e;

	et_common_init(&com);
	com.who = "entrytrace export";
	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "proto") || !strcmp(optarg, "perfetto-proto")) {
				proto = true;
			} else if (strcmp(optarg, "chrome-json") && strcmp(optarg, "perfetto")) {
				et_bad_value("entrytrace export", "--format", optarg,
					     "expected chrome-json, perfetto (the same JSON) or proto");
				goto bad;
			}
			break;
		case ET_OPT_HELP:
			fputs(export_usage, stdout);
			et_optdefs_usage(stdout, opts);
			fputs(export_usage_tail, stdout);
			et_common_free(&com);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "entrytrace export: one input file\n");
		goto bad;
	}

	out = et_output_open(&o, output, "entrytrace export");
	if (!out) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	x = et_export_new(out, argv[optind], proto, &ld);
	if (!x) {
		fprintf(stderr, "entrytrace export: out of memory\n");
		ret = ET_EXIT_FAIL;
		goto out;
	}
	com.load.mix_refused = "no timeline to export (entrytrace report reads it)";
	com.load.no_stats = true;
	et_export_hooks(x, &com.load);
	et_common_progress(&com);
	e = et_load_files(&ld, argv + optind, 1, &com.load, err, sizeof(err));
	if (e) {
		/* the output is not left behind */
		fprintf(stderr, "entrytrace export: %s\n", err);
		ret = et_exit_for(e);
		goto out;
	}
	n = et_export_counts(x);
	if (!et_export_finish(x, &pf_packets, &pf_bytes)) {
		/* a write that failed says so when the file is closed */
		if (!o.f || !ferror(o.f))
			fprintf(stderr, "entrytrace export: out of memory\n");
		ret = ET_EXIT_FAIL;
	}
	/* a file is left only when it is whole; a write error is named */
	if (et_output_close(&o, ret == ET_EXIT_OK || (ret == ET_EXIT_FAIL && o.f && ferror(o.f))))
		ret = ET_EXIT_FAIL;
	out = NULL;
	if (ret == ET_EXIT_OK && ld.damaged) {
		fprintf(stderr, "entrytrace export: %s\n", et_load_damage(&ld, err, sizeof(err)));
		ret = ET_EXIT_DAMAGED;
	}
	if (ret == ET_EXIT_OK && !n->slices) {
		fprintf(stderr, "entrytrace export: no syscall to export\n");
		et_window_hint("entrytrace export", &com.filter, ld.files[0].info.first_ts,
			       ld.files[0].counts.last_ts);
		ret = ET_EXIT_EMPTY;
	}
	if (ret == ET_EXIT_OK || ret == ET_EXIT_DAMAGED) {
		const struct et_timeline_counts *tc = &ld.files[0].tl;

		fprintf(stderr, "entrytrace export: %" PRIu64 " syscalls (%" PRIu64 " complete, %"
			PRIu64 " incomplete with a span); not exported: %" PRIu64 " without a start "
			"or an end, %" PRIu64 " filtered out\n", n->slices, n->complete, n->partial,
			n->no_span, n->seen - n->passed);
		if (proto)
			fprintf(stderr, "entrytrace export: Perfetto protobuf: %" PRIu64 " packets, %"
				PRIu64 " bytes (%.1f per syscall)\n", pf_packets, pf_bytes,
				n->slices ? (double)pf_bytes / (double)n->slices : 0.0);
		if (!tc->tasks_grouped)
			fprintf(stderr, "entrytrace export: the trace does not say which threads "
				"share a process (no task:task_newtask events, no exec): each "
				"thread is shown as a process of its own\n");
		else
			fprintf(stderr, "entrytrace export: thread groups known for %" PRIu64 " of %"
				PRIu64 " tasks (task:task_newtask, exec); the others are shown as "
				"processes of their own\n", tc->tasks_grouped, tc->tasks);
	}
out:
	if (out)
		et_output_close(&o, false);
	et_export_free(x);
	et_load_free(&ld);
	et_common_free(&com);
	return ret;
bad:
	et_usage_hint("entrytrace export");
	et_common_free(&com);
	return ET_EXIT_USAGE;
}
