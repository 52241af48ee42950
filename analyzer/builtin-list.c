// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace list: one line per syscall, with its stage times.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "entrytrace-private.h"

#define WHO "entrytrace list"

static const char list_usage[] =
	"usage: entrytrace list [options] FILE...\n"
	"\n"
	"One line per complete syscall, as trace-cmd report prints events, then the\n"
	"syscall's total and each stage it has, in ns:\n"
	"\n"
	"  sysloop-21398 [000] 866.844434015: kill(62) = 0  total 2755  signal_exit 2442\n"
	"\n"
	"task-pid, the CPU it entered on, the trace timestamp of its entry (search for\n"
	"it in trace-cmd report or KernelShark), name(number) = return value.  A task's\n"
	"syscalls come in time order; across tasks, in the order the timeline\n"
	"completes them.  Syscalls kept out of the report's table are not listed\n"
	"('entrytrace report --show-excluded' lists them).  In the stage modes the\n"
	"timestamp is the kernel's own stamp of the syscall's first stage, where\n"
	"KernelShark draws it (the event carrying it is written a few us later).\n"
	"\n"
	"QEMU plugin output (.mix) has no task, CPU or clock: a line is\n"
	"\n"
	"  sample     1321: kill(37)  total 2045  arch_enter 13 ...\n"
	"\n"
	"the plugin's sample number (its line 'sample N ...'), then guest instructions.\n"
	"\n"
	"options:\n"
	"  -o, --output=FILE      write to FILE instead of stdout\n"
	ET_COMMON_USAGE;
static const char list_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"exit status: as entrytrace report: 0 listed, 1 runtime failure, 2 usage\n"
	"error, 3 unreadable input, 4 no syscall listed, 8 the data has holes.\n";

struct lister {
	FILE *out;
	const struct et_trace *names;	/* set once the first file is open */
	struct et_load *ld;
	uint64_t min_dur, listed;
	uint64_t stages;
	struct et_slowest *slow;
};

static void on_added(const struct et_syscall *sc, void *data)
{
	struct lister *l = data;

	if (!et_syscall_has(sc, ET_STAGE_TOTAL) || et_syscall_ns(sc, ET_STAGE_TOTAL) < l->min_dur)
		return;
	if (l->slow) {
		et_slowest_add(l->slow, sc);
		return;
	}
	et_render_syscall(l->out, sc, l->ld->traces[0], l->stages);
	l->listed++;
}

/*
 * "1500", "2us", "1.5ms", "1s" -> ns; false if it is none of those.
 * *unit: whether it named a unit (a count for plugin output may not).
 */
static bool parse_dur(const char *s, uint64_t *ns, bool *unit)
{
	static const struct { const char *unit; double mul; } u[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v >= 0) || !isfinite(v))
		return false;
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcmp(end, u[i].unit)) {
			/* 2^64 ns and more (585 years) does not fit */
			if (!(v * u[i].mul + 0.5 < 18446744073709551616.0))
				return false;
			*ns = (uint64_t)(v * u[i].mul + 0.5);
			*unit = i > 0;
			return true;
		}
	return false;
}

int cmd_list(int argc, char **argv)
{
	enum { OPT_MIN_DUR = 256, OPT_SLOWEST };
	struct lister l = { 0 };
	struct et_common com;
	struct et_load ld = { 0 };
	struct et_output o = { 0 };
	const char *output = NULL;
	long long nr_slowest = 0;
	const char *min_dur_arg = NULL;
	bool min_dur_unit = false;
	const struct et_optdef opts[] = {
		{ .key = OPT_MIN_DUR, .name = "min-dur", .arg = "DUR", .kind = ET_OPTK_CALL,
		  .help = "only syscalls whose total is at least DUR: ns, or\n"
			  "with a unit: 2us, 1.5ms, 1s (plugin output: a count\n"
			  "of instructions, no unit)" },
		{ .key = OPT_SLOWEST, .name = "slowest", .arg = "N", .kind = ET_OPTK_LL,
		  .value = &nr_slowest, .lo = 1, .hi = 100000,
		  .expect = "expected a number of syscalls, 1 to 100000",
		  .help = "only the N slowest syscalls, slowest first" },
		{ .name = NULL },
	};
	struct et_cmdline cl = { .defs = opts, .output = &output };
	int ret = ET_EXIT_OK, c;
	char err[512];
	enum et_err e;

	et_common_init(&com);
	com.who = WHO;
	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case OPT_MIN_DUR:
			min_dur_arg = optarg;
			if (!parse_dur(optarg, &l.min_dur, &min_dur_unit)) {
				et_bad_value(WHO, "--min-dur", optarg,
					     "expected a duration: ns, or 2us, 1.5ms, 1s");
				goto bad;
			}
			break;
		case ET_OPT_HELP:
			fputs(list_usage, stdout);
			et_optdefs_usage(stdout, opts);
			fputs(list_usage_tail, stdout);
			et_common_free(&com);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	if (argc - optind < 1) {
		fprintf(stderr, WHO ": no input file\n");
		goto bad;
	}
	for (int i = optind; i < argc && min_dur_unit; i++)
		if (et_source_is_mix(argv[i])) {
			fprintf(stderr, WHO ": --min-dur '%s': %s is QEMU plugin output, counted in "
				"guest instructions, not time: give a count, e.g. --min-dur 2000\n",
				min_dur_arg, argv[i]);
			goto bad;
		}
	l.out = et_output_open(&o, output, WHO);
	if (!l.out) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	if (nr_slowest && !(l.slow = et_slowest_new((size_t)nr_slowest))) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	l.ld = &ld;
	l.stages = com.filter.stages;
	com.load.added = on_added;
	com.load.added_data = &l;
	et_common_progress(&com);
	e = et_load_files(&ld, argv + optind, argc - optind, &com.load, err, sizeof(err));
	if (e) {
		fprintf(stderr, WHO ": %s\n", err);
		ret = et_exit_for(e);
		goto out;
	}
	if (l.slow) {
		size_t n = et_slowest_sort(l.slow);

		for (size_t i = 0; i < n; i++)
			et_render_syscall(l.out, et_slowest_at(l.slow, i), ld.traces[0], l.stages);
		l.listed = n;
	}
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	fprintf(stderr, WHO ": %" PRIu64 " syscalls listed of %" PRIu64 " complete ones "
		"that matched the filters (%" PRIu64 " seen)\n", l.listed,
		et_stats_syscalls(ld.stats), ld.seen);
	if (ret == ET_EXIT_OK && ld.damaged) {
		fprintf(stderr, WHO ": %s\n", et_load_damage(&ld, err, sizeof(err)));
		ret = ET_EXIT_DAMAGED;
	}
	if (ret == ET_EXIT_OK && !l.listed) {
		et_window_hint(WHO, &com.filter, ld.nr_files ? ld.files[0].info.first_ts : 0,
			       ld.nr_files ? ld.files[0].counts.last_ts : 0);
		ret = ET_EXIT_EMPTY;
	}
out:
	if (o.f)
		et_output_close(&o, false);
	et_slowest_free(l.slow);
	et_load_free(&ld);
	et_common_free(&com);
	return ret;
bad:
	et_usage_hint(WHO);
	et_common_free(&com);
	return ET_EXIT_USAGE;
}
