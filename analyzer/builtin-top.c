// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace top: a live per-syscall x stage table of the running kernel.
 *
 * The session (session.c) fills a tracefs instance of its own; every
 * refresh period libentrytrace's live reader (lib/live.c) decodes what the
 * buffers hold with tracefs_iterate_raw_events(), each round bounded by a
 * deadline, into one timeline and one et_stats, and et_render() prints the
 * same table 'entrytrace report' does.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "entrytrace.h"
#include "session.h"

#define WHO "entrytrace top"

static const char top_usage[] =
	"usage: entrytrace top [options] [-a | -p PID | -- CMD [ARGS...]]\n"
	"\n"
	"A live per-syscall x stage table of the running kernel, refreshed every\n"
	"-d seconds: the table 'entrytrace report' prints, over everything seen since\n"
	"top started (or, with --delta, during the last period).  Events and the\n"
	"tracefs instance are those of 'entrytrace record'.  Needs root.\n"
	"\n"
	"What is traced:\n"
	"  -a, --all-cpus         the whole system but top itself (the default)\n"
	"  -p, --pid=PID          a running task and the children it forks from now on;\n"
	"                         top ends when it exits\n"
	"  -- CMD [ARGS...]       run CMD, follow it and its children; the last table is\n"
	"                         printed when it exits\n"
	"\n"
	"options:\n"
	"  -d, --delay=SECS       refresh period (default 1; fractions allowed)\n"
	"  -n, --iterations=N     stop after N tables (default: until SIGINT, SIGTERM,\n"
	"                         or the task or command exits)\n"
	"      --delta            each table covers only the last period\n"
	"      --breakdown        also the task / CPU / result tables\n"
	"  -e, --event=EVENT      also enable EVENT (system:event, system:glob, system)\n"
	"  -b, --buffer-size=KB   ring buffer per CPU (default 20000)\n"
	"      --summary          entrytrace kernel: only the summary event per syscall\n"
	"  -h, --help             this text\n"
	"\n"
	"The screen is cleared before each table only when standard output is a\n"
	"terminal; otherwise tables follow each other, each after a line starting\n"
	"\"entrytrace top:\".  Syscalls are counted once complete: a task's last\n"
	"syscall appears when its next one starts.\n"
	"\n"
	"exit status: 0 done, 1 runtime failure (tracefs, writing the output), 2 usage\n"
	"error.\n";

enum {
	OPT_SUMMARY = 256,
	OPT_DELTA,
	OPT_BREAKDOWN,
};

struct top {
	struct et_session *s;
	struct et_live *live;
	struct et_timeline *tl;
	struct et_stats *stats;
	bool failed;
	bool tty;
	bool breakdown;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct top *t = data;

	if (sc->flags & ET_SC_INCOMPLETE)
		return;
	if (!et_stats_add(t->stats, sc))
		t->failed = true;
}

static int render(struct top *t, int n, double elapsed)
{
	struct et_trace *trace = et_live_trace(t->live);
	struct et_report_file f = {
		.info = *et_trace_info(trace),
		.counts = *et_trace_counts(trace),
		.tl = *et_timeline_counts(t->tl),
	};
	struct et_report rep = {
		.files = &f,
		.nr_files = 1,
		.stats = t->stats,
		.names = trace,
		.breakdown = t->breakdown,
	};

	if (t->tty)
		fputs("\033[H\033[2J", stdout);
	printf("entrytrace top: table %d, %.1f s, %s\n", n, elapsed,
	       et_session_target(t->s));
	et_render(&rep, ET_FMT_TEXT, stdout);
	if (!t->tty)
		printf("\n");
	return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

/*
 * Decode until the period ends, in rounds that never outlive it.  Whether
 * the session still runs is asked before a round, so that the round after
 * the command's exit was seen reads everything up to that exit.
 */
static int read_period(struct top *t, uint64_t end)
{
	for (;;) {
		uint64_t now = mono_ns();
		bool running = et_session_running(t->s);
		int ret;

		/* the last round may take a second: nothing new should come */
		ret = et_live_read(t->live, !running ? 1000000000 :
				   end > now ? end - now : 1000000,
				   et_timeline_feed, t->tl);
		if (ret < 0 || t->failed)
			return -1;
		now = mono_ns();
		if (now >= end || !running)
			return 0;
		et_session_wait(t->s, (int)((end - now) / 1000000 < 100 ?
					    (end - now) / 1000000 + 1 : 100));
	}
}

static int run(struct top *t, double delay, int iterations, bool delta)
{
	uint64_t start = mono_ns(), period = (uint64_t)(delay * 1e9), end = start;
	struct et_stats_opts so = { 0 };

	for (int n = 1; !iterations || n <= iterations; n++) {
		bool last;

		end += period;
		if (read_period(t, end))
			return ET_EXIT_FAIL;
		last = !et_session_running(t->s) || (iterations && n == iterations);
		if (last && !et_session_interrupted())
			et_timeline_finish(t->tl);
		if (et_session_interrupted())
			return ET_EXIT_OK;
		if (render(t, n, (mono_ns() - start) / 1e9))
			return ET_EXIT_FAIL;
		if (last)
			break;
		if (delta) {
			et_stats_free(t->stats);
			t->stats = et_stats_new(&so);
			if (!t->stats)
				return ET_EXIT_FAIL;
		}
	}
	return ET_EXIT_OK;
}

static int top(struct et_session_opts *so, double delay, int iterations,
	       bool delta, bool breakdown)
{
	struct et_stats_opts sto = { 0 };
	struct top t = { .tty = isatty(STDOUT_FILENO), .breakdown = breakdown };
	char err[512];
	enum et_err e;
	int ret;

	ret = et_session_new(so, &t.s);
	if (ret)
		return ret;
	ret = ET_EXIT_FAIL;
	t.live = et_live_new(et_session_instance(t.s), &e, err, sizeof(err));
	if (!t.live) {
		fprintf(stderr, "entrytrace top: %s\n", err);
		goto out;
	}
	if (so->summary && !et_trace_set_mode(et_live_trace(t.live), ET_MODE_SUMMARY)) {
		fprintf(stderr, "entrytrace top: no entry_stage:summary event here\n");
		goto out;
	}
	t.tl = et_timeline_new(et_live_trace(t.live), on_syscall, &t);
	t.stats = et_stats_new(&sto);
	if (!t.tl || !t.stats)
		goto out;
	ret = et_session_start(t.s);
	if (!ret)
		ret = run(&t, delay, iterations, delta);
	if (t.failed) {
		fprintf(stderr, "entrytrace top: out of memory\n");
		ret = ET_EXIT_FAIL;
	}
out:
	et_timeline_free(t.tl);
	et_stats_free(t.stats);
	et_live_free(t.live);
	et_session_free(t.s);
	return ret;
}

int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "delta", no_argument, NULL, OPT_DELTA },
		{ "breakdown", no_argument, NULL, OPT_BREAKDOWN },
		{ "event", required_argument, NULL, 'e' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct et_session_opts so = { .who = "entrytrace top", .buffer_kb = 20000,
				      .quiet = true };
	bool delta = false, breakdown = false;
	double delay = 1.0;
	int iterations = 0, c, ret;
	char **events = NULL, *end;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:n:ap:e:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			delay = strtod(optarg, &end);
			if (*end || !(delay >= 0.05 && delay <= 3600)) {
				et_bad_value(WHO, "--delay", optarg, "expected 0.05 to 3600 seconds");
				goto bad;
			}
			break;
		case 'n':
			iterations = (int)strtol(optarg, &end, 10);
			if (*end || iterations <= 0) {
				et_bad_value(WHO, "--iterations", optarg, "expected a number of tables");
				goto bad;
			}
			break;
		case 'a':
			so.all = true;
			break;
		case 'p':
			so.pid = (int)strtol(optarg, &end, 10);
			if (*end || so.pid <= 0) {
				et_bad_value(WHO, "--pid", optarg, "expected a process id");
				goto bad;
			}
			break;
		case OPT_DELTA:
			delta = true;
			break;
		case OPT_BREAKDOWN:
			breakdown = true;
			break;
		case 'e': {
			char **p = realloc(events, (so.nr_events + 1) * sizeof(*p));

			if (!p)
				goto bad;
			events = p;
			events[so.nr_events++] = optarg;
			break;
		}
		case 'b':
			so.buffer_kb = strtoul(optarg, &end, 10);
			if (*end || !so.buffer_kb) {
				et_bad_value(WHO, "--buffer-size", optarg, "expected KB per CPU, at least 1");
				goto bad;
			}
			break;
		case OPT_SUMMARY:
			so.summary = true;
			break;
		case 'h':
			fputs(top_usage, stdout);
			free(events);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	so.events = events;
	if (optind < argc)
		so.cmd = argv + optind;
	if ((so.pid != 0) + so.all + (so.cmd != NULL) > 1) {
		fprintf(stderr, "entrytrace top: -a, -p and a command exclude each other\n");
		goto bad;
	}
	if (!so.pid && !so.cmd)
		so.all = true;
	ret = top(&so, delay, iterations, delta, breakdown);
	free(events);
	return ret;
bad:
	et_usage_hint(WHO);
	free(events);
	return ET_EXIT_USAGE;
}
