// SPDX-License-Identifier: GPL-2.0
/*
 * Options the subcommands share: the syscall filters, threads,
 * mode, and the mapping of library errors to exit codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "entrytrace-kit.h"
#include "entrytrace-private.h"

struct int_list {
	int **arr;
	int *n;
};

static int add_int(const char *s, void *data)
{
	struct int_list *l = data;
	long long v;
	int *p;

	if (!et_parse_int(s, 0, INT_MAX, &v))
		return -1;
	p = realloc(*l->arr, (*l->n + 1) * sizeof(int));
	if (!p)
		return -1;
	p[(*l->n)++] = (int)v;
	*l->arr = p;
	return 0;
}

/* A comma list of numbers, each checked whole; a list that holds none is refused too. */
static int add_ints(const char *arg, struct int_list *l)
{
	int before = *l->n;

	if (et_for_each_csv(arg, add_int, l))
		return -1;
	return *l->n > before ? 0 : -1;
}

struct str_list {
	char ***arr;
	int *n;
};

static int add_str(const char *s, void *data)
{
	struct str_list *l = data;
	char **p = realloc(*l->arr, (*l->n + 1) * sizeof(char *));

	if (!p)
		return -1;
	*l->arr = p;
	p[*l->n] = strdup(s);
	if (!p[*l->n])
		return -1;
	(*l->n)++;
	return 0;
}

/* ok, error, ENOENT or 2: into the filter */
static int add_result(const char *s, void *data)
{
	struct et_filter *f = data;
	char *end;
	long e = -1;
	int *p;

	if (!strcmp(s, "ok")) {
		f->result_ok = true;
		return 0;
	}
	if (!strcmp(s, "error")) {
		f->result_error = true;
		return 0;
	}
	if (*s >= '0' && *s <= '9')
		e = strtol(s, &end, 10), e = *end ? -1 : e;
	for (int i = 1; i < 4096 && e < 0; i++) {
		const char *n = strerrorname_np(i);

		if (n && !strcmp(n, s))
			e = i;
	}
	if (e < 1 || e > 4095) {
		fprintf(stderr, "entrytrace: --result '%s': expected ok, error, an errno name "
			"(ENOENT) or a number 1 to 4095\n", s);
		return -1;
	}
	p = realloc(f->errnos, (f->nr_errnos + 1) * sizeof(*p));
	if (!p)
		return -1;
	p[f->nr_errnos++] = (int)e;
	f->errnos = p;
	return 0;
}

static int add_stage(const char *s, void *data)
{
	uint64_t *mask = data;
	int id = et_stage_by_name(s);

	if (id == ET_STAGE_NONE) {
		fprintf(stderr, "entrytrace: --stage '%s': unknown stage (see 'entrytrace report --stages')\n", s);
		return -1;
	}
	*mask |= et_stage_bit(id);
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
	if (end != comma || end == arg + f->window_relative || !isfinite(f->window_start))
		return false;
	if (f->window_relative != (comma[1] == '+'))
		return false;
	f->window_end = strtod(comma + 1 + f->window_relative, &end);
	if (*end || end == comma + 1 + f->window_relative || !isfinite(f->window_end) ||
	    f->window_end < f->window_start)
		return false;
	f->have_window = true;
	return true;
}

void et_common_init(struct et_common *c)
{
	memset(c, 0, sizeof(*c));
	c->load.jobs = 0;	/* the library chooses: et_trace_set_jobs() */
	c->load.mode = -1;
	c->load.filter = &c->filter;
}

void et_usage_hint(const char *who)
{
	fprintf(stderr, "%s: see '%s --help'\n", who, who);
}

int et_common_option(struct et_common *c, int opt, const char *arg)
{
	const char *who = c->who ? c->who : "entrytrace";
	struct int_list il;
	struct str_list sl;
	long long v;

	switch (opt) {
	case 'p':
		il = (struct int_list){ &c->filter.pids, &c->filter.nr_pids };
		return add_ints(arg, &il) ? et_bad_value(who, "--pid", arg, "expected PID[,PID...]") : 1;
	case 'c':
		sl = (struct str_list){ &c->filter.comms, &c->filter.nr_comms };
		return et_for_each_csv(arg, add_str, &sl) ? -1 : 1;
	case 's':
		sl = (struct str_list){ &c->syscalls, &c->nr_syscalls };
		if (et_for_each_csv(arg, add_str, &sl))
			return -1;
		c->load.syscall_names = c->syscalls;
		c->load.nr_syscall_names = c->nr_syscalls;
		return 1;
	case 'C':
		il = (struct int_list){ &c->filter.cpus, &c->filter.nr_cpus };
		return add_ints(arg, &il) ? et_bad_value(who, "--cpu", arg, "expected CPU[,CPU...]") : 1;
	case 'w':
		return parse_window(arg, &c->filter) ? 1 :
			et_bad_value(who, "--time-window", arg, "expected A,B with A <= B, seconds "
				     "on the trace clock, or +A,+B from the first event");
	case 'S':
		return et_for_each_csv(arg, add_stage, &c->filter.stages) ? -1 : 1;
	case 'j':
		if (et_opt_int(who, "--jobs", arg, 1, 1024, "expected a number of threads, 1 to 1024",
			       &v))
			return -1;
		c->load.jobs = (int)v;
		return 1;
	case ET_OPT_EXCLUSIVE:
		c->load.stats_flags |= ET_STATS_EXCLUSIVE;
		return 1;
	case ET_OPT_NO_OVERHEAD:
		c->load.stats_flags |= ET_STATS_NO_OVERHEAD;
		return 1;
	case ET_OPT_RAW_STAMPS:
		c->load.raw_stamps = true;
		return 1;
	case ET_OPT_RESULT:
		return et_for_each_csv(arg, add_result, &c->filter) ? -1 : 1;
	case ET_OPT_MODE:
		if (!strcmp(arg, "stages"))
			c->load.mode = ET_MODE_STAGES;
		else if (!strcmp(arg, "summary"))
			c->load.mode = ET_MODE_SUMMARY;
		else if (!strcmp(arg, "stock"))
			c->load.mode = ET_MODE_STOCK;
		else
			return et_bad_value(who, "--mode", arg, "expected stages, summary or stock");
		return 1;
	}
	return 0;	/* not a common option */
}

void et_common_free(struct et_common *c)
{
	free(c->filter.pids);
	free(c->filter.cpus);
	free(c->filter.errnos);
	for (int i = 0; i < c->filter.nr_comms; i++)
		free(c->filter.comms[i]);
	free(c->filter.comms);
	for (int i = 0; i < c->nr_syscalls; i++)
		free(c->syscalls[i]);
	free(c->syscalls);
}

int et_exit_for(enum et_err e)
{
	switch (e) {
	case ET_OK:
		return ET_EXIT_OK;
	case ET_ERR_NO_EVENTS:
		return ET_EXIT_EMPTY;
	case ET_ERR_NOMEM:
		return ET_EXIT_FAIL;
	case ET_ERR_USAGE:
		return ET_EXIT_USAGE;
	default:
		return ET_EXIT_INPUT;
	}
}

/*
 * After "no complete syscall matched": the window asked for and the
 * trace's own span, in the two forms --time-window takes.
 */
void et_window_hint(const char *who, const struct et_filter *f, uint64_t first,
		    uint64_t last)
{
	if (!f->have_window)
		return;
	fprintf(stderr, "%s: --time-window %s%g,%s%g: the trace runs from %.6f to %.6f s "
		"(+0 to +%.6f)\n", who, f->window_relative ? "+" : "", f->window_start,
		f->window_relative ? "+" : "", f->window_end, first / 1e9, last / 1e9,
		(last - first) / 1e9);
}

int et_format_option(const char *who, int opt, const char *arg, enum et_format *fmt)
{
	switch (opt) {
	case 'f':
		return et_parse_format(who, arg, fmt) ? -1 : 1;
	case ET_OPT_JSON:
		*fmt = ET_FMT_JSON;
		return 1;
	case ET_OPT_CSV:
		*fmt = ET_FMT_CSV;
		return 1;
	}
	return 0;
}

/* --format for the table commands: text, json or csv */
int et_parse_format(const char *who, const char *arg, enum et_format *fmt)
{
	static const struct { const char *name; enum et_format fmt; } f[] = {
		{ "text", ET_FMT_TEXT }, { "json", ET_FMT_JSON }, { "csv", ET_FMT_CSV },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(arg, f[i].name)) {
			*fmt = f[i].fmt;
			return 0;
		}
	return et_bad_value(who, "--format", arg, "expected text, json or csv");
}

/*
 * The temporary file being written, for the signal handler: SIGINT, SIGTERM
 * or SIGHUP in the middle of an export leaves no hidden file behind.
 */
static char *volatile pending_tmp;

static void remove_pending(int sig)
{
	char *tmp = pending_tmp;

	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch_pending(char *tmp)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	pending_tmp = tmp;
	for (size_t i = 0; tmp && i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa = { .sa_handler = remove_pending }, old;

		sigemptyset(&sa.sa_mask);
		/* only where nobody else handles it (record and top end their sessions) */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * Output files are written to a temporary name beside them and renamed
 * over the final name only once everything is written and flushed, so a
 * write error (a full disk) leaves no cut-off file that looks whole.  A
 * path that exists and is not a regular file (/dev/null, a FIFO) is
 * written directly; NULL or "-" is standard output.
 */
FILE *et_output_open(struct et_output *o, const char *path, const char *who)
{
	struct stat st;
	char *dir, *base;
	int fd;

	memset(o, 0, sizeof(*o));
	o->who = who;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return o->f;
	}
	o->path = path;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		if (!o->f)
			fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return o->f;
	}
	dir = strdup(path);
	base = strdup(path);
	if (!dir || !base || asprintf(&o->tmp, "%s/.%s.XXXXXX", dirname(dir), basename(base)) < 0) {
		o->tmp = NULL;
		free(dir);
		free(base);
		fprintf(stderr, "%s: out of memory\n", who);
		return NULL;
	}
	free(dir);
	free(base);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return NULL;
	}
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	watch_pending(o->tmp);
	return o->f;
}

int et_output_close(struct et_output *o, bool keep)
{
	int err = 0;

	if (!o->f)
		return keep ? -1 : 0;
	if (fflush(o->f) || ferror(o->f))
		err = errno ? errno : EIO;
	if (o->f != stdout && fclose(o->f) && !err)
		err = errno ? errno : EIO;
	o->f = NULL;
	if (err && keep)
		fprintf(stderr, "%s: %s: write error: %s%s\n", o->who,
			o->path ? o->path : "standard output", strerror(err),
			o->tmp ? " (nothing written under that name)" : "");
	if (o->tmp) {
		if (keep && !err && rename(o->tmp, o->path)) {
			err = errno;
			fprintf(stderr, "%s: %s: %s\n", o->who, o->path, strerror(err));
		}
		if (!keep || err)
			unlink(o->tmp);
		pending_tmp = NULL;
		free(o->tmp);
		o->tmp = NULL;
	}
	return err ? -1 : 0;
}

/*
 * Progress on long reads: on stderr, only when it is a terminal, once a
 * read has taken a second (ENTRYTRACE_PROGRESS_AFTER=SECONDS changes that),
 * at most four times a second, and wiped when the file is done.
 */
struct et_progress_state {
	const char *who;
	double start, last;
	bool shown;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(const char *path, double done, void *data)
{
	struct et_progress_state *p = data;
	const char *after = getenv("ENTRYTRACE_PROGRESS_AFTER");
	double t = now_s(), delay = after ? atof(after) : 1.0;

	if (!p->start)
		p->start = t;
	if (done >= 1) {
		if (p->shown)
			fprintf(stderr, "\r\033[K");
		p->shown = false;
		p->start = 0;
		return;
	}
	if (t - p->start < delay || t - p->last < 0.25)
		return;
	p->last = t;
	p->shown = true;
	fprintf(stderr, "\r\033[K%s: reading %s: %.0f%%", p->who, path, 100 * done);
	fflush(stderr);
}

void et_common_progress(struct et_common *c)
{
	static struct et_progress_state st;

	if (!isatty(STDERR_FILENO))
		return;
	st.who = c->who ? c->who : "entrytrace";
	c->load.progress = progress;
	c->load.progress_data = &st;
}

int et_next_option(struct et_common *com, struct et_cmdline *cl, int argc, char **argv)
{
	int c, r;

	if (!cl->shortopts[0]) {
		const char *own = cl->own ? cl->own : "";
		bool first = *own == '+';

		snprintf(cl->shortopts, sizeof(cl->shortopts), "%s%s%sh%s%s",
			 first ? "+" : "", cl->fmt ? ET_FORMAT_SHORTOPTS : "",
			 cl->output ? "o:" : "", cl->own_only ? "" : ET_COMMON_SHORTOPTS,
			 own + first);
		if (cl->defs)
			et_optdefs_build(cl, cl->shortopts, sizeof(cl->shortopts));
		optind = 1;
	}
	while ((c = getopt_long(argc, argv, cl->shortopts, cl->longopts, NULL)) != -1) {
		const struct et_optdef *d = et_optdef_of(cl->defs, c);

		if (d) {
			r = et_optdef_take(cl->own_only ? cl->who : com->who, d, optarg);
			if (r < 0)
				return ET_OPT_BAD;
			if (r > 0)
				continue;
			return c;
		}
		r = cl->own_only ? 0 : et_common_option(com, c, optarg);
		if (!r && cl->fmt)
			r = et_format_option(com->who, c, optarg, cl->fmt);
		if (r < 0)
			return ET_OPT_BAD;
		if (r > 0)
			continue;
		if (c == 'o' && cl->output) {
			*cl->output = optarg;
			continue;
		}
		if (c == 'h')
			return ET_OPT_HELP;
		if (c == '?' || c == ':')
			return ET_OPT_BAD;
		return c;
	}
	return ET_OPT_END;
}

int et_plot_write(const struct et_plot *p, const char *path, const char *who,
		  const char *heading, const char *unit)
{
	struct et_output o;
	char title[160];
	FILE *out = et_output_open(&o, path, who);
	int ret;

	if (!out)
		return -1;
	snprintf(title, sizeof(title), "%s: %s", who, heading);
	ret = et_plot_cdf_svg(out, title, unit, p->panels, p->n);
	if (et_output_close(&o, ret == 0))
		ret = -1;
	return ret;
}

/* report KIT, diff KIT_A KIT_B: a command's operands are kits or traces */
bool et_kit_operands(char *const *paths, int n, const char *who, int *err)
{
	int kits = 0;

	for (int i = 0; i < n; i++)
		kits += et_kit_probe(paths[i]);
	*err = 0;
	if (kits && kits != n) {
		fprintf(stderr, "%s: give kit archives alone, not with traces or plugin output "
			"(%d of the %d files are kits)\n", who, kits, n);
		*err = ET_EXIT_USAGE;
	}
	return kits > 0;
}
