// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace top: a live per-syscall x stage table of the running kernel.
 *
 * The session (session.c) fills a tracefs instance of its own; every
 * refresh period the instance, opened as a source (lib/source.c: the
 * running kernel, read by lib/live.c), decodes what the buffers hold with
 * tracefs_iterate_raw_events(), each round bounded by a deadline, into the
 * source's one timeline, and top adds each syscall to one et_stats.  On a terminal top-screen.c
 * draws a screen that fits it, and keys change what it shows; otherwise
 * et_render() prints the table 'entrytrace report' does, for logs.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "builtin.h"
#include "entrytrace-private.h"
#include "session.h"
#include "top-screen.h"

#define WHO "entrytrace top"

static const char top_usage[] =
	"usage: entrytrace top [options] [-a | -p PID | -- CMD [ARGS...]]\n"
	"\n"
	"A live per-syscall x stage table of the running kernel, refreshed every\n"
	"-d seconds: the table 'entrytrace report' prints, over everything seen since\n"
	"top started (or, with --delta, during the last period).  Events and the\n"
	"tracefs instance are those of 'entrytrace record'.  Needs root.\n"
	"\n"
	"What is traced:\n";
static const char top_usage_cmd[] =
	"  -- CMD [ARGS...]       run CMD, follow it and its children; the last table is\n"
	"                         printed when it exits\n"
	"\n"
	"options:\n";
static const char top_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"On a terminal, top draws one screen that fits it, as perf top does: a\n"
	"three-line header, then a row per syscall, the busiest first, as many as\n"
	"fit (calls, rate, %s,\n"
	"its share of all syscall time and the stages it spends most in; columns\n"
	"come with the width, times carry their unit).  Keys (on a terminal):\n"
	"  q        quit\n"
	"  s        next sort key: %s\n"
	"  f        filter: type a part of a syscall's name, Enter; empty clears\n"
	"  x        each syscall's stages under it, children indented\n"
	"  d        the last period only, or everything since top started\n"
	"Otherwise (a pipe, a file) the tables follow each other, each the table\n"
	"'entrytrace report' prints, after a line starting \"entrytrace top:\".\n"
	"Syscalls are counted once complete: a task's last syscall appears when its\n"
	"next one starts.\n"
	"\n"
	"Each read of the buffers ends at the refresh deadline, and the rest of each\n"
	"CPU's current sub-buffer is then lost (a gap; syscalls crossing it are left\n"
	"out).  The buffers: line (on a terminal, the header's second line) sizes\n"
	"that: the events the kernel handed out, how many of them were dropped at\n"
	"deadlines, and how many the kernel overwrote (then use a larger -b).\n"
	"\n"
	"exit status: 0 done, 1 runtime failure (tracefs, writing the output), 2 usage\n"
	"error.\n";

/*
 * The help text: the options' table (what is traced: its first two
 * entries), with the columns and sort keys of lib/columns.c.
 */
static void top_help(FILE *out, const struct et_optdef *opts)
{
	char cols[256], keys[256];

	et_top_cols_str(cols, sizeof(cols));
	et_sort_keys(keys, sizeof(keys));
	fputs(top_usage, out);
	et_optdefs_usage_n(out, opts, 2);
	fputs(top_usage_cmd, out);
	et_optdefs_usage(out, opts + 2);
	fprintf(out, top_usage_tail, cols, keys);
}

enum {
	OPT_SUMMARY = 256,
	OPT_DELTA,
	OPT_BREAKDOWN,
};

struct top {
	struct et_session *s;
	struct et_source *src;		/* the running kernel, read in rounds */
	struct et_source_opts src_opts;
	struct et_stats *stats;
	bool failed;
	bool tty;
	bool breakdown;
	bool delta;
	struct et_filter filter;	/* -s: syscalls to keep */
	uint64_t filtered;
	/* --delta: the counts when the period began */
	struct et_trace_counts c0;
	uint64_t *lost0;
	struct et_timeline_counts tl0;
	uint64_t filtered0;
	/* the kernel's own counts, per_cpu/cpuN/stats of the instance */
	unsigned long long k_read, k_overrun, k_dropped, k_entries;
	unsigned long long k_read0, k_overrun0, k_dropped0;
	/* a terminal: the screen, the keys */
	bool keys;		/* standard input is a terminal too, in raw mode */
	struct top_view view;
	bool typing;		/* 'f': the filter being typed */
	char typed[32];
	bool quit;
	int n;			/* the table on the screen */
	uint64_t start, period_start;
};

static struct termios saved_tty;
static bool tty_raw;

static void tty_restore(void)
{
	if (tty_raw)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
	tty_raw = false;
}

/* Keys one at a time, no echo; Ctrl-C still signals. */
static bool tty_keys_on(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tty))
		return false;
	t = saved_tty;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t))
		return false;
	tty_raw = true;
	atexit(tty_restore);
	return true;
}

static void screen_size(struct top_view *v)
{
	struct winsize ws;
	const char *e;

	v->rows = 24;
	v->cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		v->rows = ws.ws_row;
		v->cols = ws.ws_col;
		return;
	}
	if ((e = getenv("LINES")) && atoi(e) > 0)
		v->rows = atoi(e);
	if ((e = getenv("COLUMNS")) && atoi(e) > 0)
		v->cols = atoi(e);
}

static unsigned long long stat_value(const char *stats, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = stats; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtoull(p + n + 1, NULL, 10);
	return 0;
}

/* What the kernel says it wrote and handed out, summed over CPUs. */
static void kernel_stats(struct top *t)
{
	struct tracefs_instance *inst = et_session_instance(t->s);
	int cpus = et_trace_cpus(et_source_trace(t->src));

	t->k_read = t->k_overrun = t->k_dropped = t->k_entries = 0;
	for (int i = 0; i < cpus; i++) {
		char file[64], *st;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		st = tracefs_instance_file_read(inst, file, NULL);
		t->k_read += stat_value(st, "read events");
		t->k_overrun += stat_value(st, "overrun") + stat_value(st, "commit overrun");
		t->k_dropped += stat_value(st, "dropped events");
		t->k_entries += stat_value(st, "entries");
		free(st);
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void on_syscall(const struct et_syscall *sc, void *data)
{
	struct top *t = data;

	if (et_syscall_flags(sc) & ET_SC_INCOMPLETE)
		return;
	if (t->filter.nr_syscalls && !et_filter_match(&t->filter, sc, 0)) {
		t->filtered++;
		return;
	}
	if (!et_stats_add(t->stats, sc))
		t->failed = true;
}

static int render(struct top *t, int n, double elapsed)
{
	struct et_trace *trace = et_source_trace(t->src);
	struct et_report_file f = *et_source_file(t->src);
	struct et_report rep = {
		.files = &f,
		.nr_files = 1,
		.stats = t->stats,
		.names = trace,
		.breakdown = t->breakdown,
		.filtered_out = t->filtered,
	};
	uint64_t *lost = NULL;
	unsigned long long k_read, k_over, k_drop, decoded;

	kernel_stats(t);
	k_read = t->k_read;
	k_over = t->k_overrun;
	k_drop = t->k_dropped;
	decoded = f.counts.records;
	if (t->delta) {
		/* the header covers the period the table does */
		lost = calloc(f.counts.nr_cpus ? f.counts.nr_cpus : 1, sizeof(*lost));
		if (!lost)
			return -1;
		f.counts.records -= t->c0.records;
		f.counts.used -= t->c0.used;
		f.counts.lost_events -= t->c0.lost_events;
		f.counts.lost_unknown -= t->c0.lost_unknown;
		for (int c = 0; c < f.counts.nr_cpus; c++)
			lost[c] = f.counts.lost_per_cpu[c] - t->lost0[c];
		f.counts.lost_per_cpu = lost;
		f.tl.syscalls -= t->tl0.syscalls;
		f.tl.complete -= t->tl0.complete;
		for (int b = 0; b < 16; b++) {
			f.tl.flagged[b] -= t->tl0.flagged[b];
			f.tl.excluded[b] -= t->tl0.excluded[b];
		}
		f.tl.seq_lost -= t->tl0.seq_lost;
		f.tl.stray -= t->tl0.stray;
		f.tl.dup_stage -= t->tl0.dup_stage;
		f.tl.overlays_dropped -= t->tl0.overlays_dropped;
		rep.filtered_out -= t->filtered0;
		k_read -= t->k_read0;
		k_over -= t->k_overrun0;
		k_drop -= t->k_dropped0;
		decoded = f.counts.records;
	}

	if (t->tty) {
		struct top_frame fr = {
			.stats = t->stats, .names = trace, .target = et_session_target(t->s),
			.n = n, .elapsed = elapsed,
			.period = t->delta ? (mono_ns() - t->period_start) / 1e9 : elapsed,
			.complete = et_stats_syscalls(t->stats), .tasks = f.tl.syscall_tasks,
			.read = k_read, .dropped = k_read > decoded ? k_read - decoded : 0,
			.overwritten = k_over + k_drop,
			.counts_gone = t->k_read < et_trace_records(trace),
			.prompt = t->typing ? t->typed : NULL,
		};

		t->view.delta = t->delta;
		screen_size(&t->view);
		fputs("\033[H\033[2J", stdout);
		top_screen(stdout, &t->view, &fr);
		free(lost);
		return fflush(stdout) || ferror(stdout) ? -1 : 0;
	}
	printf("entrytrace top: table %d, %.1f s, %s%s\n", n, elapsed,
	       et_session_target(t->s), t->delta ? "; header and table: the last period" : "");
	/*
	 * What the reader lost, sized: every record the kernel handed out
	 * (read events) was decoded unless a round's deadline cut it off with
	 * the rest of its sub-buffer; overwritten ones never reached it.
	 */
	if (t->k_read >= et_trace_records(trace))
		printf("buffers:     %llu events read from the buffers, %llu of them dropped at "
		       "refresh deadlines (%.2f%%); %llu overwritten, %llu dropped by the kernel%s\n",
		       k_read, k_read > decoded ? k_read - decoded : 0,
		       k_read ? 100.0 * (double)(k_read > decoded ? k_read - decoded : 0) /
				(double)k_read : 0.0,
		       k_over, k_drop, k_over || k_drop ? ": the buffers overran, use a larger -b" : "");
	else
		printf("buffers:     the kernel's counts are gone (tracing ended): losses at "
		       "refresh deadlines not sized for this table\n");
	et_render(&rep, ET_FMT_TEXT, stdout);
	free(lost);
	if (!t->tty)
		printf("\n");
	return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

/* A key: what it changes; true when the screen should be drawn again. */
static bool key(struct top *t, int ch)
{
	size_t len = strlen(t->typed);

	if (t->typing) {
		if (ch == '\r' || ch == '\n') {
			snprintf(t->view.filter, sizeof(t->view.filter), "%s", t->typed);
			t->typing = false;
		} else if (ch == 27) {
			t->typing = false;	/* Escape: leave the filter as it was */
		} else if ((ch == 127 || ch == 8) && len) {
			t->typed[len - 1] = '\0';
		} else if (ch > ' ' && ch < 127 && len + 1 < sizeof(t->typed)) {
			t->typed[len] = (char)ch;
			t->typed[len + 1] = '\0';
		}
		return true;
	}
	switch (ch) {
	case 'q':
		t->quit = true;
		return false;
	case 's':
		t->view.sort = et_sort_next(t->view.sort);
		return true;
	case 'f':
		t->typing = true;
		t->typed[0] = '\0';
		return true;
	case 'x':
		t->view.expand = !t->view.expand;
		return true;
	case 'd':
		t->delta = !t->delta;
		return true;
	}
	return false;
}

/*
 * Wait up to ms for the session, or for a key on a terminal: keys act at
 * once (the screen is drawn again from what has been read so far).
 */
static void top_wait(struct top *t, int ms)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char ch;
	bool redraw = false;

	if (!t->keys) {
		if (ms)
			et_session_wait(t->s, ms);
		return;
	}
	if (poll(&p, 1, ms) <= 0)
		return;
	while (read(STDIN_FILENO, &ch, 1) == 1 && !t->quit)
		redraw |= key(t, ch);
	if (redraw && !t->quit && t->n)
		render(t, t->n, (mono_ns() - t->start) / 1e9);
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
		ret = et_source_read(t->src, !running ? 1000000000 :
				     end > now ? end - now : 1000000, on_syscall, t);
		if (ret < 0 || t->failed)
			return -1;
		/* keys act between rounds even when reading takes the whole period */
		top_wait(t, 0);
		now = mono_ns();
		if (now >= end || !running || t->quit)
			return 0;
		top_wait(t, (int)((end - now) / 1000000 < 100 ? (end - now) / 1000000 + 1 : 100));
	}
}

static int run(struct top *t, double delay, int iterations)
{
	uint64_t start = mono_ns(), period = (uint64_t)(delay * 1e9), end = start;

	t->start = t->period_start = start;
	for (int n = 1; !iterations || n <= iterations; n++) {
		bool last;

		end += period;
		if (read_period(t, end))
			return ET_EXIT_FAIL;
		if (t->quit) {
			et_session_end_cmd(t->s);
			return ET_EXIT_OK;
		}
		last = !et_session_running(t->s) || (iterations && n == iterations);
		if (last && !et_session_interrupted())
			et_source_finish(t->src);
		if (et_session_interrupted())
			return ET_EXIT_OK;
		t->n = n;
		if (render(t, n, (mono_ns() - start) / 1e9))
			return ET_EXIT_FAIL;
		if (last)
			break;
		t->period_start = mono_ns();
		if (t->delta) {
			const struct et_report_file *f = et_source_file(t->src);
			const struct et_trace_counts *c = &f->counts;

			et_stats_free(t->stats);
			t->stats = et_stats_new(0);
			if (!t->stats)
				return ET_EXIT_FAIL;
			t->c0 = *c;
			memcpy(t->lost0, c->lost_per_cpu, c->nr_cpus * sizeof(*t->lost0));
			t->tl0 = f->tl;
			t->filtered0 = t->filtered;
			t->k_read0 = t->k_read;
			t->k_overrun0 = t->k_overrun;
			t->k_dropped0 = t->k_dropped;
		}
	}
	return ET_EXIT_OK;
}

static int top(struct et_session_opts *so, double delay, int iterations,
	       bool delta, bool breakdown, char **syscalls, int nr_syscalls)
{
	struct top t = { .tty = isatty(STDOUT_FILENO), .breakdown = breakdown,
			 .delta = delta };

	if (t.tty)
		t.keys = tty_keys_on();
	char err[512];
	enum et_err e;
	int ret;

	ret = et_session_new(so, &t.s);
	if (ret)
		return ret;
	ret = ET_EXIT_FAIL;
	t.src_opts.mode = so->summary ? ET_MODE_SUMMARY : -1;
	t.src = et_source_open_live(et_session_instance(t.s), &t.src_opts, &e, err, sizeof(err));
	if (!t.src || e) {
		fprintf(stderr, "entrytrace top: %s\n", t.src ? err : "out of memory");
		goto out;
	}
	if (nr_syscalls) {
		t.filter.syscalls = calloc(nr_syscalls, sizeof(long));
		if (!t.filter.syscalls)
			goto out;
		for (int i = 0; i < nr_syscalls; i++) {
			t.filter.syscalls[i] = et_syscall_number(et_source_trace(t.src), syscalls[i]);
			if (t.filter.syscalls[i] < 0) {
				fprintf(stderr, WHO ": --syscall '%s': no such syscall on %s\n",
					syscalls[i], et_trace_machine(et_source_trace(t.src)));
				ret = ET_EXIT_USAGE;
				goto out;
			}
		}
		t.filter.nr_syscalls = nr_syscalls;
	}
	t.lost0 = calloc(et_trace_cpus(et_source_trace(t.src)), sizeof(*t.lost0));
	t.stats = et_stats_new(0);
	if (!t.stats || !t.lost0)
		goto out;
	ret = et_session_start(t.s);
	if (!ret)
		ret = run(&t, delay, iterations);
	if (t.failed) {
		fprintf(stderr, "entrytrace top: out of memory\n");
		ret = ET_EXIT_FAIL;
	}
out:
	tty_restore();
	free(t.filter.syscalls);
	free(t.lost0);
	et_stats_free(t.stats);
	et_source_close(t.src);
	et_session_free(t.s);
	return ret;
}

int cmd_top(int argc, char **argv)
{
	struct et_session_opts so = { .who = "entrytrace top", .buffer_kb = 20000,
				      .quiet = true };
	bool delta = false, breakdown = false;
	double delay = 1.0;
	int iterations = 0, c, ret;
	char **events = NULL, **syscalls = NULL;
	long long buffer_kb = 20000;
	int nr_syscalls = 0;
	const struct et_optdef opts[] = {
		/* what is traced */
		{ .key = 'a', .name = "all-cpus", .kind = ET_OPTK_FLAG, .value = &so.all,
		  .help = "the whole system but top itself (the default)" },
		{ .key = 'p', .name = "pid", .arg = "PID", .kind = ET_OPTK_INT, .value = &so.pid,
		  .lo = 1, .hi = INT_MAX, .expect = "expected a process id",
		  .help = "a running task and the children it forks from now on;\n"
			  "top ends when it exits" },
		/* options */
		{ .key = 'd', .name = "delay", .arg = "SECS", .kind = ET_OPTK_REAL, .value = &delay,
		  .rlo = 0.05, .rhi = 3600, .expect = "expected 0.05 to 3600 seconds",
		  .help = "refresh period (default 1; fractions allowed)" },
		{ .key = 'n', .name = "iterations", .arg = "N", .kind = ET_OPTK_INT,
		  .value = &iterations, .lo = 1, .hi = INT_MAX,
		  .expect = "expected a number of tables",
		  .help = "stop after N tables (default: until SIGINT, SIGTERM,\n"
			  "or the task or command exits)" },
		{ .key = OPT_DELTA, .name = "delta", .kind = ET_OPTK_FLAG, .value = &delta,
		  .help = "each table and its header cover only the last period" },
		{ .key = 's', .name = "syscall", .arg = "S[,..]", .kind = ET_OPTK_CALL,
		  .help = "only these syscalls (names on this architecture,\n"
			  "or numbers)" },
		{ .key = OPT_BREAKDOWN, .name = "breakdown", .kind = ET_OPTK_FLAG,
		  .value = &breakdown, .help = "also the task / CPU / result tables" },
		{ .key = 'e', .name = "event", .arg = "EVENT", .kind = ET_OPTK_CALL,
		  .help = "also enable EVENT (system:event, system:glob, system)" },
		{ .key = 'b', .name = "buffer-size", .arg = "KB", .kind = ET_OPTK_LL,
		  .value = &buffer_kb, .lo = 1, .hi = INT_MAX,
		  .expect = "expected KB per CPU, at least 1",
		  .help = "ring buffer per CPU (default 20000)" },
		{ .key = OPT_SUMMARY, .name = "summary", .kind = ET_OPTK_FLAG, .value = &so.summary,
		  .help = "entrytrace kernel: only the summary event per syscall" },
		{ .name = NULL },
	};
	struct et_cmdline cl = { .own = "+", .defs = opts, .own_only = true, .who = WHO };

	while ((c = et_next_option(NULL, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case 's':
			for (char *tok = strtok(optarg, ","); tok; tok = strtok(NULL, ",")) {
				char **p = realloc(syscalls, (nr_syscalls + 1) * sizeof(*p));

				if (!p)
					goto bad;
				syscalls = p;
				syscalls[nr_syscalls++] = tok;
			}
			break;
		case 'e': {
			char **p = realloc(events, (so.nr_events + 1) * sizeof(*p));

			if (!p)
				goto bad;
			events = p;
			events[so.nr_events++] = optarg;
			break;
		}
		case ET_OPT_HELP:
			top_help(stdout, opts);
			free(events);
			free(syscalls);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	so.events = events;
	so.buffer_kb = (unsigned long)buffer_kb;
	if (optind < argc)
		so.cmd = argv + optind;
	if ((so.pid != 0) + so.all + (so.cmd != NULL) > 1) {
		fprintf(stderr, "entrytrace top: -a, -p and a command exclude each other\n");
		goto bad;
	}
	if (!so.pid && !so.cmd)
		so.all = true;
	ret = top(&so, delay, iterations, delta, breakdown, syscalls, nr_syscalls);
	free(events);
	free(syscalls);
	return ret;
bad:
	et_usage_hint(WHO);
	free(events);
	free(syscalls);
	return ET_EXIT_USAGE;
}
