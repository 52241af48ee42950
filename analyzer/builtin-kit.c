// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace kit: the reporter's measurement, in one command, on the
 * reporter's machine.  It checks what the machine has (perf, stress-ng,
 * hardware counters, SELinux, audit tools, tracefs, an entrytrace kernel),
 * says what is missing and what that costs, runs the workloads N times in
 * every SELinux mode it can reach without a reboot (interleaved: repetition
 * by repetition, mode by mode), counting each run (perf stat, or
 * perf_event_open directly, or getrusage), records the facts that decide
 * "more instructions or slower ones", and writes one archive
 * (lib/kit.c) that report and diff read.
 *
 * A subcommand and not a script: the user installs one program (the
 * entrytrace package, built for their architecture) and the same code that
 * writes the manifest reads it; counting falls back to perf_event_open
 * without perf, and the stage recording is entrytrace record itself.
 * Documentation/kit.md.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "builtin.h"
#include "entrytrace-kit.h"

/* Exit codes of kit beyond the common ones (Documentation/kit.md) */
enum {
	KIT_EXIT_NOT_ROOT = 10,	/* nothing run */
	KIT_EXIT_EXISTS = 11,	/* the archive's name is taken: never overwritten */
	KIT_EXIT_NO_WORKLOAD = 12,	/* none of the workloads asked for can run */
	KIT_EXIT_PARTIAL = 13,	/* interrupted: a partial archive was written */
	KIT_EXIT_DEGRADED = 16,	/* + the bits below: written, without something */
};

enum {
	DEG_NO_HW = 1,		/* no hardware counters: task-clock only */
	DEG_NO_PERF = 2,	/* no perf: counted with perf_event_open, no perf bench */
	DEG_NO_STRESS = 4,	/* no stress-ng: the reporter's workload skipped */
	DEG_NO_SELINUX = 8,	/* SELinux absent: one mode */
};

static const char kit_usage[] =
	"usage: entrytrace kit [options]\n"
	"\n"
	"Runs, as root on the machine that shows a regression, the measurement that\n"
	"tells whether the syscall path got longer (more instructions per op) or\n"
	"slower (the same instructions at more cycles each), and writes it into one\n"
	"archive to send: a gzip'd tar with a versioned JSON manifest.  Read it with\n"
	"'entrytrace report KIT'; compare two kernels with 'entrytrace diff KIT_A\n"
	"KIT_B'.  Documentation/kit.md says what it collects and what it never does.\n"
	"\n"
	"It checks for perf, stress-ng, hardware counters, SELinux, auditctl, tracefs\n"
	"and an entrytrace kernel, and says what each missing one costs.  Each\n"
	"workload runs N times in every SELinux mode reachable without a reboot\n"
	"(enforcing, and permissive through /sys/fs/selinux/enforce, as setenforce;\n"
	"the mode at start is restored at the end, also after Ctrl-C), repetitions\n"
	"interleaved across modes, each run counted with perf stat -e task-clock,\n"
	"cycles,instructions,context-switches,cpu-migrations (without perf: the same\n"
	"events through perf_event_open; without perf events: getrusage), with the\n"
	"SELinux AVC's cache_stats read before and after.  SELinux disabled needs a\n"
	"boot with selinux=0: run the kit again there with --merge on the first\n"
	"archive.  On an entrytrace kernel, one more run per mode is recorded with\n"
	"'entrytrace record --aggregate' (stage times; with CONFIG_ENTRY_STAGE_PMU\n"
	"in instructions and cycles).\n"
	"\n"
	"options:\n";
static const char kit_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"Progress goes to stderr, a line per run.  SIGINT (Ctrl-C), SIGTERM or SIGHUP\n"
	"stops the running workload and writes the runs so far as an archive marked\n"
	"partial (a second signal kills the workload at once).\n"
	"\n"
	"exit status: 0 archive written with everything; 16 + the sum of what it\n"
	"lacked (1 no hardware counters: task-clock only, 2 no perf: counted with\n"
	"perf_event_open, perf bench skipped, 4 no stress-ng: its workload skipped,\n"
	"8 SELinux absent: one mode) when written without it; 1 runtime failure (also\n"
	"when a run failed: the archive keeps it, its tables leave it out), 2\n"
	"usage error, 10 not root (nothing run), 11 the archive exists, 12 none of\n"
	"the workloads can run here, 13 interrupted: a partial archive was written.\n";

struct workload_def {
	const char *name;
	const char *tool;	/* "stress-ng" or "perf" */
	const char *op;
	const char *bench;	/* perf bench syscall NAME */
};

static const struct workload_def workload_defs[] = {
	{ "stress-kill", "stress-ng", "bogo op (stress-ng kill: ~16 syscalls, one kill(-1, 0))", NULL },
	{ "basic", "perf", "getppid() call", "basic" },
	{ "getpgid", "perf", "getpgid() call", "getpgid" },
	{ "fork", "perf", "fork() + wait", "fork" },
	{ "execve", "perf", "execve()", "execve" },
};
#define NR_WL (sizeof(workload_defs) / sizeof(workload_defs[0]))

struct kit {
	/* options */
	const char *output;
	int repeat, seconds, record_s;
	long loops;
	bool want[NR_WL];
	bool run_wl[NR_WL];
	const char *modes[2];
	int nr_modes;
	const char *merge;
	const char *metrics;
	bool quiet, check_only;
	char **argv;
	int argc;

	/* what the machine has */
	char perf[128], stress[128];
	bool bench[NR_WL];
	bool perf_events, hw;
	char hw_why[160];
	char tracefs[64];
	bool stages, aggregate;
	bool selinux;
	int enforce_at_start;	/* -1: no SELinux */
	char auditctl[16];
	int degraded;

	/* the run */
	char *stage;		/* staging directory */
	char prefix[16];	/* "b0/": this boot's members */
	int boot;		/* this boot's index in the manifest */
	char *runs_json;	/* this boot's runs, JSON objects joined by ", " */
	size_t runs_len;
	FILE *runs;
	char *missing_json;
	size_t missing_len;
	FILE *missing;
	int nr_missing;
	char *facts_json;
	int nr_runs_done;
	int nr_failed;
	char interrupted_at[256];
	struct et_kit *old;	/* --merge */
};

/* ------------------------------------------------------------------ */
/* Signals: the first stops the workload, the second kills it           */

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pgid;

static void on_signal(int sig)
{
	pid_t pg = child_pgid;

	if (got_signal && pg > 0)
		kill(-pg, SIGKILL);
	else if (pg > 0)
		kill(-pg, SIGINT);
	got_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static void say(const struct kit *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct kit *k, const char *fmt, ...)
{
	va_list ap;

	if (k->quiet)
		return;
	va_start(ap, fmt);
	fputs("entrytrace kit: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static char *read_text(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* the first line of a file, without its newline */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

static bool write_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s);
}

/* a program in PATH */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *dir;
	bool found = false;

	if (!path || !(copy = strdup(path)))
		return false;
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char full[4096];

		snprintf(full, sizeof(full), "%s/%s", *dir ? dir : ".", prog);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}

/*
 * Run argv with stdin from /dev/null and stdout+stderr into out_path (or a
 * pipe read into buf when buf is set), in a process group of its own that
 * the signal handler reaches.  Returns the wait status, or -1.
 */
static int run(char *const *argv, const char *out_path, char *buf, size_t size,
	       const char *dir)
{
	int pfd[2] = { -1, -1 }, status;
	pid_t pid;

	if (buf && pipe(pfd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int out = buf ? pfd[1] : out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644)
						  : open("/dev/null", O_WRONLY);

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (in < 0 || out < 0)
			_exit(127);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		if (buf)
			close(pfd[0]);
		if (dir && chdir(dir))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	child_pgid = pid;
	if (got_signal)
		kill(-pid, SIGINT);
	if (buf) {
		size_t n = 0;
		ssize_t r;

		close(pfd[1]);
		while ((r = read(pfd[0], buf + n, size - 1 - n)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break;
			n += (size_t)r;
			if (n == size - 1) {
				char sink[512];

				while ((r = read(pfd[0], sink, sizeof(sink))) > 0 ||
				       (r < 0 && errno == EINTR))
					;
				break;
			}
		}
		buf[n] = 0;
		close(pfd[0]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	child_pgid = 0;
	return status;
}

/* the first line a command prints, or "" */
static void first_line_of(char *const *argv, char *buf, size_t size)
{
	int st = run(argv, NULL, buf, size, NULL);

	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		buf[0] = 0;
		return;
	}
	buf[strcspn(buf, "\n")] = 0;
}

static void iso_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* JSON of a key and a string value, or null */
static void jks(FILE *f, bool *first, const char *key, const char *val)
{
	fprintf(f, "%s\"%s\": ", *first ? "" : ", ", key);
	*first = false;
	if (val)
		et_json_str(f, val);
	else
		fputs("null", f);
}

static void jkn(FILE *f, bool *first, const char *key, double v)
{
	fprintf(f, "%s\"%s\": ", *first ? "" : ", ", key);
	*first = false;
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, "%.17g", v);
}

static void jkb(FILE *f, bool *first, const char *key, bool v)
{
	fprintf(f, "%s\"%s\": %s", *first ? "" : ", ", key, v ? "true" : "false");
	*first = false;
}

static void missing(struct kit *k, int bit, const char *what, const char *effect)
{
	fprintf(stderr, "entrytrace kit: %s: %s\n", what, effect);
	fprintf(k->missing, "%s{\"what\": ", k->nr_missing++ ? ", " : "");
	et_json_str(k->missing, what);
	fputs(", \"effect\": ", k->missing);
	et_json_str(k->missing, effect);
	fprintf(k->missing, ", \"boot\": %d}", k->boot);
	k->degraded |= bit;
}

/* ------------------------------------------------------------------ */
/* What the machine has                                                 */

static long perf_open(struct perf_event_attr *a, pid_t pid)
{
	return syscall(SYS_perf_event_open, a, pid, -1, -1, 0);
}

static void attr_of(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->disabled = 1;
	a->inherit = 1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

static void probe_counters(struct kit *k)
{
	struct perf_event_attr a;
	long fd;

	attr_of(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	fd = perf_open(&a, 0);
	k->perf_events = fd >= 0;
	if (fd >= 0)
		close((int)fd);
	attr_of(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = perf_open(&a, 0);
	if (fd >= 0) {
		close((int)fd);
		attr_of(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		fd = perf_open(&a, 0);
		if (fd >= 0)
			close((int)fd);
		else
			snprintf(k->hw_why, sizeof(k->hw_why), "cycles: %s", strerror(errno));
	} else {
		snprintf(k->hw_why, sizeof(k->hw_why), "perf_event_open(instructions): %s%s",
			 strerror(errno), errno == ENOSYS ? " (no perf events in this kernel)" : "");
	}
	k->hw = fd >= 0;
}

static void probe_tracefs(struct kit *k)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[128];

	k->tracefs[0] = 0;
	for (size_t i = 0; i < 2 && !k->tracefs[0]; i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (access(path, R_OK) == 0)
			snprintf(k->tracefs, sizeof(k->tracefs), "%s", dirs[i]);
	}
	if (!k->tracefs[0])
		return;
	snprintf(path, sizeof(path), "%s/events/entry_stage", k->tracefs);
	k->stages = access(path, R_OK) == 0;
	snprintf(path, sizeof(path), "%s/events/entry_stage/entry_stage_hist", k->tracefs);
	k->aggregate = access(path, R_OK) == 0;
}

static void probe_perf_bench(struct kit *k)
{
	char out[4096];
	char *argv[] = { "perf", "bench", "syscall", NULL };

	if (!k->perf[0])
		return;
	/* 'perf bench syscall' lists its benchmarks ("basic: ...") and exits 0 or 1 */
	run(argv, NULL, out, sizeof(out), NULL);
	for (size_t i = 0; i < NR_WL; i++) {
		char key[32];

		if (!workload_defs[i].bench)
			continue;
		snprintf(key, sizeof(key), "%s:", workload_defs[i].bench);
		k->bench[i] = strstr(out, key) != NULL;
	}
}

static void probe(struct kit *k)
{
	char enforce[16];

	if (in_path("perf")) {
		char *argv[] = { "perf", "--version", NULL };

		first_line_of(argv, k->perf, sizeof(k->perf));
	}
	if (in_path("stress-ng")) {
		char *argv[] = { "stress-ng", "--version", NULL };

		first_line_of(argv, k->stress, sizeof(k->stress));
	}
	probe_perf_bench(k);
	probe_counters(k);
	probe_tracefs(k);
	k->selinux = read_line("/sys/fs/selinux/enforce", enforce, sizeof(enforce));
	k->enforce_at_start = k->selinux ? atoi(enforce) : -1;
	k->auditctl[0] = 0;
	if (in_path("auditctl"))
		snprintf(k->auditctl, sizeof(k->auditctl), "auditctl");
}

/* ------------------------------------------------------------------ */
/* Facts                                                                */

static int count_processes(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] >= '0' && e->d_name[0] <= '9';
	closedir(d);
	return n;
}

struct type_count {
	char type[96];
	int n;
};

static int cmp_type(const void *a, const void *b)
{
	const struct type_count *x = a, *y = b;

	return y->n - x->n ?: strcmp(x->type, y->type);
}

/* SELinux types of the processes: user:role:TYPE:level from attr/current */
static void selinux_types(FILE *f)
{
	struct type_count *t = NULL;
	size_t n = 0, cap = 0, procs = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool first = true;

	while (d && (e = readdir(d))) {
		char path[300], label[256], *type, *end;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/attr/current", e->d_name);
		if (!read_line(path, label, sizeof(label)))
			continue;
		procs++;
		type = strchr(label, ':');
		type = type ? strchr(type + 1, ':') : NULL;
		if (!type)
			continue;
		type++;
		end = strchr(type, ':');
		if (end)
			*end = 0;
		size_t i = 0;

		while (i < n && strcmp(t[i].type, type))
			i++;
		if (i == n) {
			if (n == cap) {
				struct type_count *nt = realloc(t, (cap = cap ? 2 * cap : 32) * sizeof(*t));

				if (!nt)
					break;
				t = nt;
			}
			snprintf(t[n].type, sizeof(t[n].type), "%s", type);
			t[n++].n = 0;
		}
		t[i].n++;
	}
	if (d)
		closedir(d);
	if (t)
		qsort(t, n, sizeof(*t), cmp_type);
	fprintf(f, ", \"types_in_use\": %zu, \"labelled_processes\": %zu, \"types\": {", n, procs);
	for (size_t i = 0; i < n && i < 40; i++) {
		fputs(first ? "" : ", ", f);
		first = false;
		et_json_str(f, t[i].type);
		fprintf(f, ": %d", t[i].n);
	}
	fputc('}', f);
	free(t);
}

/* /sys/fs/selinux/avc/cache_stats: the columns summed over the CPUs */
static void avc_stats(FILE *f, const char *key)
{
	char *text = read_text("/sys/fs/selinux/avc/cache_stats", 1 << 16), *line, *save = NULL;
	char names[8][32];
	double sum[8] = { 0 };
	int nn = 0;
	bool first = true;

	fprintf(f, ", \"%s\": ", key);
	if (!text) {
		fputs("null", f);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!nn) {
			char *s2 = NULL, *w;

			for (w = strtok_r(line, " \t", &s2); w && nn < 8; w = strtok_r(NULL, " \t", &s2))
				snprintf(names[nn++], sizeof(names[0]), "%s", w);
			continue;
		}
		char *p = line;

		for (int i = 0; i < nn; i++)
			sum[i] += strtod(p, &p);
	}
	fputc('{', f);
	for (int i = 0; i < nn; i++)
		jkn(f, &first, names[i], sum[i]);
	fputc('}', f);
	free(text);
}

/* the kernel's .config: /proc/config.gz, else /boot/config-RELEASE */
static bool save_config(struct kit *k, const char *release, char *from, size_t fsize)
{
	char path[4096], dst[4096], buf[65536];
	gzFile in = NULL;
	FILE *out;
	int n;
	bool ok = true;

	snprintf(path, sizeof(path), "/proc/config.gz");
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "/boot/config-%s", release);
	if (access(path, R_OK) || !(in = gzopen(path, "rb")))
		return false;
	snprintf(dst, sizeof(dst), "%s/%sconfig", k->stage, k->prefix);
	out = fopen(dst, "w");
	if (!out) {
		gzclose(in);
		return false;
	}
	while ((n = gzread(in, buf, sizeof(buf))) > 0)
		ok &= fwrite(buf, 1, (size_t)n, out) == (size_t)n;
	ok &= n == 0;
	gzclose(in);
	ok &= fclose(out) == 0;
	snprintf(from, fsize, "%s", path);
	return ok;
}

static void cpu_facts(FILE *f, bool *first)
{
	char *info = read_text("/proc/cpuinfo", 1 << 20), *line, *save = NULL;
	char model[256] = "", platform[128] = "", machine[128] = "", sib[256], smt[64];
	int threads = 0;

	for (line = info ? strtok_r(info, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *v;
		size_t klen;

		if (!colon)
			continue;
		v = colon + 1 + (colon[1] == ' ');
		klen = (size_t)(colon - line);
		while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
			klen--;
		if (!model[0] && ((klen == 10 && !strncmp(line, "model name", 10)) ||
				  (klen == 3 && !strncmp(line, "cpu", 3))))
			snprintf(model, sizeof(model), "%s", v);
		else if (klen == 8 && !strncmp(line, "platform", 8))
			snprintf(platform, sizeof(platform), "%s", v);
		else if ((klen == 5 && !strncmp(line, "model", 5) && !isdigit((unsigned char)*v)) ||
			 (klen == 7 && !strncmp(line, "machine", 7)))
			snprintf(machine, sizeof(machine), "%s", v);
	}
	free(info);
	jks(f, first, "cpu_model", model[0] ? model : NULL);
	jks(f, first, "platform", platform[0] ? platform : NULL);
	jks(f, first, "machine_model", machine[0] ? machine : NULL);
	jkn(f, first, "nr_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
	jkn(f, first, "nr_cpus_configured", (double)sysconf(_SC_NPROCESSORS_CONF));
	if (read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", sib, sizeof(sib))) {
		/* "0-7" or "0,4" */
		char *p = sib;

		while (*p) {
			long a = strtol(p, &p, 10), b = a;

			if (*p == '-')
				b = strtol(p + 1, &p, 10);
			threads += (int)(b - a + 1);
			if (*p == ',')
				p++;
			else if (*p)
				break;
		}
	}
	jkn(f, first, "threads_per_core", threads ? threads : NAN);
	if (!read_line("/sys/devices/system/cpu/smt/control", smt, sizeof(smt)))
		snprintf(smt, sizeof(smt), "%s", threads > 1 ? "on" : threads == 1 ? "off" : "?");
	jks(f, first, "smt", smt);
}

static void audit_facts(struct kit *k, FILE *f, bool *first)
{
	char out[8192], rules[65536];

	fprintf(f, "%s\"audit\": {", *first ? "" : ", ");
	*first = false;
	if (!k->auditctl[0]) {
		fputs("\"status\": null, \"note\": \"auditctl not found: audit status unknown\"}", f);
		return;
	}
	char *s[] = { "auditctl", "-s", NULL }, *l[] = { "auditctl", "-l", NULL };
	int st = run(s, NULL, out, sizeof(out), NULL);
	bool f2 = true;
	char *en = strstr(out, "enabled ");
	int nrules = 0;

	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		jks(f, &f2, "status", NULL);
		jks(f, &f2, "note", "auditctl -s failed (no audit in the kernel?)");
		fputc('}', f);
		return;
	}
	jks(f, &f2, "status", out);
	if (en) {
		char v[16];

		snprintf(v, sizeof(v), "%.*s", (int)strcspn(en + 8, "\n "), en + 8);
		jks(f, &f2, "enabled", v);
	}
	run(l, NULL, rules, sizeof(rules), NULL);
	if (strncmp(rules, "No rules", 8))
		for (char *p = rules; *p; p++)
			nrules += *p == '\n';
	jkn(f, &f2, "rules", nrules);
	jks(f, &f2, "rule_list", rules);
	fputc('}', f);
}

static void stage_facts(struct kit *k, FILE *f, bool *first, const char *config_path)
{
	char what[256];
	bool pmu = false;

	if (config_path) {
		char *cfg = read_text(config_path, 1 << 22);

		pmu = cfg && strstr(cfg, "\nCONFIG_ENTRY_STAGE_PMU=y");
		free(cfg);
	}
	if (!k->tracefs[0])
		snprintf(what, sizeof(what), "unknown: tracefs is not mounted (mount -t tracefs "
			 "nodev /sys/kernel/tracing)");
	else if (!k->stages)
		snprintf(what, sizeof(what), "no: not an entrytrace kernel (no events/entry_stage)");
	else
		snprintf(what, sizeof(what), "yes: entry_stage events%s, stamps %s",
			 k->aggregate ? " with aggregation" : "",
			 pmu ? "from the PMU (instructions, cycles)" : "from the kernel's clock");
	jks(f, first, "stages", what);
	jkb(f, first, "entrytrace_kernel", k->stages);
	jks(f, first, "tracefs", k->tracefs[0] ? k->tracefs : NULL);
}

static int collect_facts(struct kit *k)
{
	struct utsname u;
	char buf[4096], from[4096], cfg[4096];
	size_t len = 0;
	bool first = true, have_cfg;
	FILE *f = open_memstream(&k->facts_json, &len);

	if (!f)
		return -1;
	uname(&u);
	fputc('{', f);
	jks(f, &first, "release", u.release);
	jks(f, &first, "version", u.version);
	jks(f, &first, "machine", u.machine);
	jks(f, &first, "cmdline", read_line("/proc/cmdline", buf, sizeof(buf)) ? buf : NULL);
	jks(f, &first, "boot_id", read_line("/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) ?
		  buf : NULL);
	have_cfg = save_config(k, u.release, from, sizeof(from));
	snprintf(buf, sizeof(buf), "%sconfig", k->prefix);
	jks(f, &first, "config", have_cfg ? buf : NULL);
	jks(f, &first, "config_from", have_cfg ? from : NULL);
	snprintf(cfg, sizeof(cfg), "%s/%sconfig", k->stage, k->prefix);
	cpu_facts(f, &first);
	jkn(f, &first, "processes", count_processes());
	jks(f, &first, "lsm", read_line("/sys/kernel/security/lsm", buf, sizeof(buf)) ? buf : NULL);
	fprintf(f, ", \"selinux\": {");
	{
		bool f2 = true;

		jkb(f, &f2, "present", k->selinux);
		if (k->selinux) {
			char pol[256] = "";
			char *c = read_text("/etc/selinux/config", 1 << 16), *t;

			jks(f, &f2, "mode_at_start", k->enforce_at_start ? "enforcing" : "permissive");
			if (c && (t = strstr(c, "\nSELINUXTYPE=")))
				snprintf(pol, sizeof(pol), "%.*s", (int)strcspn(t + 13, "\n"), t + 13);
			free(c);
			jks(f, &f2, "policy", pol[0] ? pol : NULL);
			jks(f, &f2, "policyvers", read_line("/sys/fs/selinux/policyvers", buf,
							    sizeof(buf)) ? buf : NULL);
			selinux_types(f);
		}
		fputc('}', f);
	}
	audit_facts(k, f, &first);
	jks(f, &first, "stress_ng", k->stress[0] ? k->stress : NULL);
	jks(f, &first, "perf", k->perf[0] ? k->perf : NULL);
	if (k->hw)
		snprintf(buf, sizeof(buf), "cycles and instructions (hardware counters)");
	else if (k->perf_events)
		snprintf(buf, sizeof(buf), "task-clock only: no hardware counters (%s)", k->hw_why);
	else
		snprintf(buf, sizeof(buf), "CPU time from getrusage only: no perf events (%s)",
			 k->hw_why);
	jks(f, &first, "counters", buf);
	jkb(f, &first, "hw_counters", k->hw);
	jks(f, &first, "perf_event_paranoid",
	    read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) ? buf : NULL);
	jks(f, &first, "clocksource",
	    read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf,
		      sizeof(buf)) ? buf : NULL);
	jks(f, &first, "cpufreq_governor",
	    read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)) ?
		    buf : NULL);
	stage_facts(k, f, &first, have_cfg ? cfg : NULL);
	fputc('}', f);
	return fclose(f);
}

/* ------------------------------------------------------------------ */
/* One run                                                              */

struct counts {
	const char *counter;
	double task_ns, cycles, insn, cs, migr;
	double pct_cycles, pct_insn;	/* of the time the counter ran */
};

/* a counter's "<not supported>" / "<not counted>" and the CSV's value */
static double csv_value(const char *field)
{
	char *end;
	double v;

	if (*field == '<')
		return NAN;
	v = strtod(field, &end);
	return end == field ? NAN : v;
}

/* perf stat -x, output: value,unit,event,runtime,pct,... per line */
static void parse_perf_csv(const char *path, struct counts *c)
{
	char *text = read_text(path, 1 << 20), *line, *save = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *fld[8] = { 0 }, *p = line, *ev;
		int n = 0;
		double v;

		if (*line == '#' || !*line)
			continue;
		while (n < 8) {
			fld[n++] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = 0;
		}
		if (n < 3)
			continue;
		v = csv_value(fld[0]);
		/* cpu_core/cycles/ on hybrid CPUs: the name inside, summed */
		ev = strchr(fld[2], '/') ? strchr(fld[2], '/') + 1 : fld[2];
		ev[strcspn(ev, "/:")] = 0;
		if (!strcmp(ev, "task-clock")) {
			c->task_ns = v * (!strcmp(fld[1], "msec") ? 1e6 : 1);
		} else if (!strcmp(ev, "cycles") || !strcmp(ev, "instructions")) {
			double *dst = ev[0] == 'c' ? &c->cycles : &c->insn;

			if (!isnan(v))
				*dst = isnan(*dst) ? v : *dst + v;
			if (n > 4)
				*(ev[0] == 'c' ? &c->pct_cycles : &c->pct_insn) = atof(fld[4]);
		} else if (!strcmp(ev, "context-switches")) {
			c->cs = v;
		} else if (!strcmp(ev, "cpu-migrations")) {
			c->migr = v;
		}
	}
	free(text);
}

/*
 * Without perf: the same events on the child through perf_event_open,
 * inherited by its children and enabled at its exec; read once it has
 * been waited for, scaled by the time each ran if perf multiplexed them.
 */
static int run_counted_self(char *const *argv, const char *out_path, const char *dir,
			    struct counts *c, bool perf_events)
{
	static const struct { uint32_t type; uint64_t config; } ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	};
	double *dst[] = { &c->task_ns, &c->cycles, &c->insn, &c->cs, &c->migr };
	int go[2], fds[5], status;
	struct rusage r0, r1;
	pid_t pid;
	char x = 0;

	if (pipe(go))
		return -1;
	getrusage(RUSAGE_CHILDREN, &r0);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		close(go[1]);
		if (in < 0 || out < 0 || read(go[0], &x, 1) != 1 || chdir(dir))
			_exit(127);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(go[0]);
	for (size_t i = 0; i < 5; i++) {
		struct perf_event_attr a;

		fds[i] = -1;
		if (!perf_events)
			continue;
		attr_of(&a, ev[i].type, ev[i].config);
		a.enable_on_exec = 1;
		fds[i] = (int)perf_open(&a, pid);
	}
	child_pgid = pid;
	if (write(go[1], &x, 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	if (got_signal)
		kill(-pid, SIGINT);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	child_pgid = 0;
	getrusage(RUSAGE_CHILDREN, &r1);
	c->counter = perf_events ? "perf_event_open" : "rusage";
	for (size_t i = 0; i < 5; i++) {
		uint64_t v[3];

		if (fds[i] < 0)
			continue;
		if (read(fds[i], v, sizeof(v)) == (ssize_t)sizeof(v) && v[2])
			*dst[i] = v[2] < v[1] ? (double)v[0] * v[1] / v[2] : (double)v[0];
		close(fds[i]);
	}
	if (!perf_events) {
		c->task_ns = ((r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
			      (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec)) * 1e9 +
			     ((r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) +
			      (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec)) * 1e3;
		c->cs = (double)(r1.ru_nvcsw - r0.ru_nvcsw + r1.ru_nivcsw - r0.ru_nivcsw);
	}
	return status;
}

/* ops and seconds from the workload's own output */
static bool parse_ops(const struct workload_def *w, const char *out_path, const char *yaml,
		      double *ops, double *secs)
{
	char *text;
	char *p;

	*ops = *secs = NAN;
	if (!w->bench) {
		text = yaml ? read_text(yaml, 1 << 20) : NULL;
		if (text && (p = strstr(text, "bogo-ops:")))
			*ops = strtod(p + 9, NULL);
		if (text && (p = strstr(text, "wall-clock-time:")))
			*secs = strtod(p + 16, NULL);
		free(text);
		if (!isnan(*ops) && !isnan(*secs))
			return true;
		/* no --yaml: "metrc: [PID] kill  OPS  REAL  USR  SYS  OPS/S ..." */
		text = read_text(out_path, 1 << 20);
		for (p = text; p && (p = strstr(p, "] kill ")); p++) {
			char *q = p + 7;
			double o = strtod(q, &q), r = strtod(q, &q);

			if (o > 0 && r > 0) {
				*ops = o;
				*secs = r;
			}
		}
		free(text);
		return !isnan(*ops);
	}
	text = read_text(out_path, 1 << 20);
	if (text && (p = strstr(text, "# Executed ")))
		*ops = strtod(p + 11, NULL);
	if (text && (p = strstr(text, "Total time:")))
		*secs = strtod(p + 11, NULL);
	free(text);
	return !isnan(*ops) && !isnan(*secs);
}

static bool set_mode(const char *mode)
{
	char now[8];

	if (!strcmp(mode, "disabled"))
		return true;
	if (!write_text("/sys/fs/selinux/enforce", strcmp(mode, "enforcing") ? "0" : "1"))
		return false;
	return read_line("/sys/fs/selinux/enforce", now, sizeof(now)) &&
	       atoi(now) == !strcmp(mode, "enforcing");
}

static void restore_mode(const struct kit *k)
{
	if (k->selinux && k->enforce_at_start >= 0 && !k->check_only)
		write_text("/sys/fs/selinux/enforce", k->enforce_at_start ? "1" : "0");
}

static int workload_argv(const struct kit *k, const struct workload_def *w, int seconds,
			 const char *yaml, char **argv, char *bufs, size_t bsz)
{
	int n = 0;

	if (!w->bench) {
		argv[n++] = "stress-ng";
		argv[n++] = "--kill";
		argv[n++] = "1";
		argv[n++] = "-t";
		snprintf(bufs, bsz, "%d", seconds);
		argv[n++] = bufs;
		argv[n++] = "--metrics-brief";
		if (yaml) {
			argv[n++] = "--yaml";
			argv[n++] = (char *)yaml;
		}
	} else {
		argv[n++] = "perf";
		argv[n++] = "bench";
		argv[n++] = "syscall";
		argv[n++] = (char *)w->bench;
		if (k->loops) {
			argv[n++] = "-l";
			snprintf(bufs, bsz, "%ld", k->loops);
			argv[n++] = bufs;
		}
	}
	argv[n] = NULL;
	return n;
}

static void command_text(const struct kit *k, const struct workload_def *w, char *buf, size_t size)
{
	char *argv[16], tmp[32];
	size_t o = 0;

	workload_argv(k, w, k->seconds, NULL, argv, tmp, sizeof(tmp));
	buf[0] = 0;
	for (int i = 0; argv[i] && o < size; i++)
		o += snprintf(buf + o, size - o, "%s%s", i ? " " : "", argv[i]);
}

static void run_one(struct kit *k, int wi, const char *mode, int rep, int seq, int total)
{
	const struct workload_def *w = &workload_defs[wi];
	char base[256], out[4096], csv[4096], yaml[4096], scratch[4096], num[32], started[32];
	char *wargv[16], *argv[40];
	struct counts c = { .task_ns = NAN, .cycles = NAN, .insn = NAN, .cs = NAN, .migr = NAN,
			    .pct_cycles = NAN, .pct_insn = NAN };
	double ops, secs, t0;
	int status, n = 0, nw;
	FILE *f = k->runs;
	bool first = true, ok;

	snprintf(base, sizeof(base), "%sruns/%03d-%s-%s", k->prefix, seq, w->name, mode);
	snprintf(out, sizeof(out), "%s/%s.out", k->stage, base);
	snprintf(csv, sizeof(csv), "%s/%s.perf.csv", k->stage, base);
	snprintf(yaml, sizeof(yaml), "%s/scratch/run.yaml", k->stage);
	snprintf(scratch, sizeof(scratch), "%s/scratch", k->stage);
	unlink(yaml);
	say(k, "[%d/%d] %s, %s, run %d of %d ...", seq, total, w->name, mode, rep, k->repeat);
	iso_now(started, sizeof(started));
	fprintf(f, "%s{", k->nr_runs_done ? ",\n  " : "\n  ");
	jkn(f, &first, "boot", k->boot);
	jks(f, &first, "workload", w->name);
	jks(f, &first, "mode", mode);
	jkn(f, &first, "rep", rep);
	jks(f, &first, "started", started);
	{
		char la[128];

		jks(f, &first, "loadavg", read_line("/proc/loadavg", la, sizeof(la)) ? la : NULL);
	}
	avc_stats(f, "avc_before");
	nw = workload_argv(k, w, k->seconds, yaml, wargv, num, sizeof(num));
	t0 = mono();
	if (k->perf[0]) {
		argv[n++] = "perf";
		argv[n++] = "stat";
		argv[n++] = "-x,";
		argv[n++] = "-o";
		argv[n++] = csv;
		argv[n++] = "-e";
		argv[n++] = "task-clock,cycles,instructions,context-switches,cpu-migrations";
		if (k->metrics) {
			argv[n++] = "-M";
			argv[n++] = (char *)k->metrics;
		}
		argv[n++] = "--";
		for (int i = 0; i < nw; i++)
			argv[n++] = wargv[i];
		argv[n] = NULL;
		status = run(argv, out, NULL, 0, scratch);
		c.counter = "perf";
		parse_perf_csv(csv, &c);
	} else {
		status = run_counted_self(wargv, out, scratch, &c, k->perf_events);
	}
	avc_stats(f, "avc_after");
	ok = parse_ops(w, out, yaml, &ops, &secs);
	{
		char cmd[1024];
		char *const *av = k->perf[0] ? argv : wargv;
		size_t o = 0, sl = strlen(k->stage);

		/* the staging paths as the archive's member names */
		cmd[0] = 0;
		for (int i = 0; av[i] && o < sizeof(cmd); i++) {
			const char *a = av[i];

			if (!strncmp(a, k->stage, sl) && a[sl] == '/')
				a += sl + 1;
			o += snprintf(cmd + o, sizeof(cmd) - o, "%s%s", i ? " " : "", a);
		}
		jks(f, &first, "command", cmd);
	}
	jkn(f, &first, "exit_status", status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status)
							     : 128 + WTERMSIG(status));
	jkb(f, &first, "interrupted", got_signal != 0);
	jkn(f, &first, "ops", ok ? ops : NAN);
	jkn(f, &first, "seconds", ok ? secs : NAN);
	jkn(f, &first, "elapsed_s", mono() - t0);
	jks(f, &first, "counter", c.counter);
	fprintf(f, ", \"counts\": {");
	{
		bool f2 = true;

		jkn(f, &f2, "task_clock_ns", c.task_ns);
		jkn(f, &f2, "cycles", c.cycles);
		jkn(f, &f2, "instructions", c.insn);
		jkn(f, &f2, "context_switches", c.cs);
		jkn(f, &f2, "cpu_migrations", c.migr);
		jkn(f, &f2, "cycles_running_pct", c.pct_cycles);
		jkn(f, &f2, "instructions_running_pct", c.pct_insn);
	}
	fputc('}', f);
	fprintf(f, ", \"files\": [");
	{
		char b2[300];

		snprintf(b2, sizeof(b2), "%s.out", base);
		et_json_str(f, b2);
		if (k->perf[0]) {
			snprintf(b2, sizeof(b2), "%s.perf.csv", base);
			fputs(", ", f);
			et_json_str(f, b2);
		}
	}
	fputs("]}", f);
	fflush(f);
	k->nr_runs_done++;
	if (got_signal) {
		snprintf(k->interrupted_at, sizeof(k->interrupted_at),
			 "signal %d during %s, %s, run %d of %d", (int)got_signal, w->name, mode, rep,
			 k->repeat);
		return;
	}
	if (!ok || status) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s, %s, run %d: %s (exit %d): see %s.out in the archive",
			 w->name, mode, rep, ok ? "the workload failed" : "no op count in its output",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, base);
		fprintf(stderr, "entrytrace kit: %s\n", msg);
		k->nr_failed++;
		return;
	}
	{
		char a[48] = "", b[48] = "";

		if (!isnan(c.insn))
			snprintf(a, sizeof(a), ", %.0f instructions/op", c.insn / ops);
		if (!isnan(c.task_ns))
			snprintf(b, sizeof(b), ", %.0f ns cpu/op", c.task_ns / ops);
		say(k, "[%d/%d] %s, %s, run %d: %.0f ops/s%s%s", seq, total, w->name, mode, rep,
		    ops / secs, a, b);
	}
}

/* ------------------------------------------------------------------ */
/* The recording                                                        */

static void record_mode(struct kit *k, const char *mode, int *nrec, FILE *rf)
{
	int wi = 0;
	char dat[4096], log[4096], num[32], self[4096], member[256];
	char *wargv[16], *argv[40];
	int n = 0, nw, status;
	ssize_t sl;

	while (wi < (int)NR_WL && !k->run_wl[wi])
		wi++;
	if (wi == (int)NR_WL)
		return;
	sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl <= 0)
		return;
	self[sl] = 0;
	snprintf(member, sizeof(member), "%sstages-%s.dat", k->prefix, mode);
	snprintf(dat, sizeof(dat), "%s/%s", k->stage, member);
	snprintf(log, sizeof(log), "%s/%sstages-%s.log", k->stage, k->prefix, mode);
	nw = workload_argv(k, &workload_defs[wi], k->record_s, NULL, wargv, num, sizeof(num));
	argv[n++] = self;
	argv[n++] = "record";
	argv[n++] = k->aggregate ? "--aggregate" : "--summary";
	argv[n++] = "-o";
	argv[n++] = dat;
	argv[n++] = "--";
	for (int i = 0; i < nw; i++)
		argv[n++] = wargv[i];
	argv[n] = NULL;
	say(k, "recording the stages: %s, %s, %d s (entrytrace record %s)", workload_defs[wi].name,
	    mode, k->record_s, argv[2]);
	status = run(argv, log, NULL, 0, NULL);
	fprintf(rf, "%s{\"boot\": %d, \"mode\": ", (*nrec)++ ? ", " : "", k->boot);
	et_json_str(rf, mode);
	fputs(", \"workload\": ", rf);
	et_json_str(rf, workload_defs[wi].name);
	fprintf(rf, ", \"how\": \"entrytrace record %s\", \"seconds\": %d, \"exit_status\": %d, "
		"\"file\": ", argv[2], k->record_s,
		status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (access(dat, R_OK) == 0)
		et_json_str(rf, member);
	else
		fputs("null", rf);
	fputc('}', rf);
	fflush(rf);
	if (status)
		fprintf(stderr, "entrytrace kit: the stage recording (%s) failed: see "
			"%sstages-%s.log in the archive\n", mode, k->prefix, mode);
}

/* ------------------------------------------------------------------ */
/* The archive                                                          */

static int add_file(struct et_tar_out *t, const char *stage, const char *name)
{
	char path[8192];
	char *data;
	size_t size = 0;
	FILE *f;
	struct stat st;
	int r;

	snprintf(path, sizeof(path), "%s/%s", stage, name);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return -1;
	data = malloc(st.st_size + 1);
	if (data)
		size = fread(data, 1, st.st_size, f);
	fclose(f);
	if (!data)
		return -1;
	r = et_tar_add(t, name, data, size, st.st_mtime);
	free(data);
	return r;
}

/* every regular file under stage/dir, as members */
static int add_tree(struct et_tar_out *t, const char *stage, const char *dir)
{
	char path[8192];
	struct dirent **list;
	int n, r = 0;

	snprintf(path, sizeof(path), "%s/%s", stage, dir);
	n = scandir(path, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char name[1024];
		struct stat st;

		if (list[i]->d_name[0] != '.' && !r) {
			snprintf(name, sizeof(name), "%s%s%s", dir, *dir ? "/" : "", list[i]->d_name);
			snprintf(path, sizeof(path), "%s/%s", stage, name);
			if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
				if (strcmp(list[i]->d_name, "scratch"))
					r = add_tree(t, stage, name);
			} else {
				r = add_file(t, stage, name);
			}
		}
		free(list[i]);
	}
	free(list);
	return n < 0 ? -1 : r;
}

/* a merged manifest's array: the earlier manifest's elements, then MORE
 * (this run's, already JSON, comma-separated) if there is any */
static void merge_array(FILE *f, const struct et_jv *old, const char *more)
{
	size_t i;

	for (i = 0; i < et_jlen(old); i++) {
		fputs(i ? ", " : "", f);
		et_jv_write(f, et_jat(old, i));
	}
	if (more && *more)
		fprintf(f, "%s%s", i ? ", " : "", more);
}

/* this boot's settings (a merged kit's boots keep their own) */
static void write_settings(const struct kit *k, FILE *f)
{
	fprintf(f, "{\"repeat\": %d, \"seconds\": %d, \"loops\": %ld, \"record_seconds\": %d, "
		"\"modes\": [", k->repeat, k->seconds, k->loops, k->record_s);
	for (int i = 0; i < k->nr_modes; i++) {
		fputs(i ? ", " : "", f);
		et_json_str(f, k->modes[i]);
	}
	fputs("], \"order\": \"interleaved: each repetition runs every workload in every mode\"}", f);
}

static void write_manifest(struct kit *k, FILE *f, const char *recordings)
{
	char created[32];
	const struct et_jv *om = k->old ? k->old->manifest : NULL;
	bool partial = got_signal || (k->old && k->old->partial);

	iso_now(created, sizeof(created));
	fprintf(f, "{\"format\": \"%s\", \"version\": %d,\n", ET_KIT_FORMAT, ET_KIT_VERSION);
	fprintf(f, " \"tool\": \"entrytrace %s\", \"created\": \"%s\",\n", et_version, created);
	fprintf(f, " \"partial\": %s, \"interrupted\": ", partial ? "true" : "false");
	if (got_signal)
		et_json_str(f, k->interrupted_at);
	else if (k->old && k->old->interrupted)
		et_json_str(f, k->old->interrupted);
	else
		fputs("null", f);
	fputs(",\n \"command\": [", f);
	for (int i = 0; i < k->argc; i++) {
		fputs(i ? ", " : "", f);
		et_json_str(f, k->argv[i]);
	}
	fputs("],\n \"settings\": ", f);
	write_settings(k, f);
	fputs(",\n", f);
	fputs(" \"workloads\": [", f);
	{
		bool first = true;
		const struct et_jv *ow = et_jget(om, "workloads");

		for (size_t i = 0; i < et_jlen(ow); i++) {
			fputs(first ? "" : ", ", f);
			first = false;
			et_jv_write(f, et_jat(ow, i));
		}
		for (size_t i = 0; i < NR_WL; i++) {
			char cmd[512];
			bool dup = false;

			if (!k->run_wl[i])
				continue;
			for (size_t j = 0; j < et_jlen(ow); j++)
				dup |= !strcmp(et_jstr(et_jget(et_jat(ow, j), "name"), ""),
					       workload_defs[i].name);
			if (dup)
				continue;
			command_text(k, &workload_defs[i], cmd, sizeof(cmd));
			fprintf(f, "%s{\"name\": \"%s\", \"command\": ", first ? "" : ", ",
				workload_defs[i].name);
			first = false;
			et_json_str(f, cmd);
			fputs(", \"op\": ", f);
			et_json_str(f, workload_defs[i].op);
			fputc('}', f);
		}
	}
	fputs("],\n \"missing\": [", f);
	merge_array(f, et_jget(om, "missing"), k->nr_missing ? k->missing_json : NULL);
	fputs("],\n \"boots\": [", f);
	{
		const struct et_jv *ob = et_jget(om, "boots");

		for (size_t i = 0; i < et_jlen(ob); i++) {
			et_jv_write(f, et_jat(ob, i));
			fputs(",\n  ", f);
		}
		fprintf(f, "{\"index\": %d, \"prefix\": \"%s\", \"settings\": ", k->boot, k->prefix);
		write_settings(k, f);
		fprintf(f, ", \"facts\": %s}", k->facts_json);
	}
	fputs("],\n \"recordings\": [", f);
	merge_array(f, et_jget(om, "recordings"), recordings[0] ? recordings : NULL);
	fputs("],\n \"runs\": [", f);
	{
		const struct et_jv *orr = et_jget(om, "runs");
		size_t i;

		for (i = 0; i < et_jlen(orr); i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			et_jv_write(f, et_jat(orr, i));
		}
		if (i && k->nr_runs_done)
			fputc(',', f);
		fputs(k->runs_json ? k->runs_json : "", f);
	}
	fputs("\n]}\n", f);
}

static int write_archive(struct kit *k, const char *recordings)
{
	char tmp[4096], err[512], *man = NULL;
	size_t mlen = 0;
	FILE *mf;
	struct et_tar_out *t;
	int r = 0;

	fclose(k->runs);
	k->runs = NULL;
	fclose(k->missing);
	k->missing = NULL;
	mf = open_memstream(&man, &mlen);
	if (!mf)
		return -1;
	write_manifest(k, mf, recordings);
	if (fclose(mf))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.partial-XXXXXX", k->output);
	{
		int fd = mkstemp(tmp);
		mode_t mask = umask(0);

		umask(mask);
		if (fd >= 0)
			fchmod(fd, 0666 & ~mask);
		if (fd < 0) {
			fprintf(stderr, "entrytrace kit: %s: %s\n", tmp, strerror(errno));
			free(man);
			return -1;
		}
		close(fd);
	}
	t = et_tar_create(tmp, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "entrytrace kit: %s\n", err);
		unlink(tmp);
		free(man);
		return -1;
	}
	r |= et_tar_add(t, ET_KIT_MANIFEST, man, mlen, time(NULL));
	free(man);
	/* the merged kit's members first, as they were */
	for (size_t i = 0; k->old && i < k->old->nr_members; i++)
		if (strcmp(k->old->members[i].name, ET_KIT_MANIFEST))
			r |= et_tar_add(t, k->old->members[i].name, k->old->members[i].data,
					k->old->members[i].size, time(NULL));
	{
		char dir[32];

		snprintf(dir, sizeof(dir), "%.*s", (int)strlen(k->prefix) - 1, k->prefix);
		r |= add_tree(t, k->stage, dir);
	}
	if (et_tar_close(t) || r) {
		fprintf(stderr, "entrytrace kit: %s: write error: %s\n", tmp, strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	/* never over an existing file: link() fails if the name is taken */
	if (link(tmp, k->output)) {
		fprintf(stderr, "entrytrace kit: %s: %s; the archive is left as %s\n", k->output,
			strerror(errno), tmp);
		return -1;
	}
	unlink(tmp);
	return 0;
}

static void remove_tree(const char *path)
{
	struct dirent **list;
	int n = scandir(path, &list, NULL, NULL);

	for (int i = 0; i < n; i++) {
		char p[4096];
		struct stat st;

		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", path, list[i]->d_name);
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				remove_tree(p);
			else
				unlink(p);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	rmdir(path);
}

/* ------------------------------------------------------------------ */
/* The command                                                          */

static int parse_workloads(struct kit *k, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *w;

	memset(k->want, 0, sizeof(k->want));
	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		if (!strcmp(w, "all")) {
			for (i = 0; i < NR_WL; i++)
				k->want[i] = true;
			continue;
		}
		while (i < NR_WL && strcmp(workload_defs[i].name, w))
			i++;
		if (i == NR_WL) {
			et_bad_value("entrytrace kit", "--workload", w,
				     "expected stress-kill, basic, getpgid, fork, execve or all");
			free(copy);
			return -1;
		}
		k->want[i] = true;
	}
	free(copy);
	return 0;
}

static int parse_modes(struct kit *k, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *m;

	k->nr_modes = 0;
	for (m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		const char *known = !strcmp(m, "enforcing") ? "enforcing" :
				    !strcmp(m, "permissive") ? "permissive" : NULL;

		if (!strcmp(m, "disabled")) {
			fprintf(stderr, "entrytrace kit: --modes 'disabled': SELinux disabled needs a "
				"boot with selinux=0; run the kit there with --merge on this archive\n");
			free(copy);
			return -1;
		}
		if (!known || k->nr_modes == 2) {
			et_bad_value("entrytrace kit", "--modes", m,
				     "expected enforcing and/or permissive");
			free(copy);
			return -1;
		}
		k->modes[k->nr_modes++] = known;
	}
	free(copy);
	return k->nr_modes ? 0 : -1;
}

enum { OPT_MERGE = 256, OPT_RECORD, OPT_METRICS, OPT_CHECK };

static void usage(FILE *f, const struct et_optdef *opts)
{
	fputs(kit_usage, f);
	et_optdefs_usage(f, opts);
	fputs(kit_usage_tail, f);
}

int cmd_kit(int argc, char **argv)
{
	struct kit k = { .repeat = 5, .seconds = 10, .record_s = 2 };
	long long loops = 0;
	const struct et_optdef opts[] = {
		{ .key = 'o', .name = "output", .arg = "FILE", .kind = ET_OPTK_STR, .value = &k.output,
		  .help = "the archive (default entrytrace-kit-RELEASE-DATE.tar.gz\n"
			  "here); an existing file is never overwritten (exit 11)" },
		{ .key = 'n', .name = "repeat", .arg = "N", .kind = ET_OPTK_INT, .value = &k.repeat,
		  .lo = 2, .hi = 1000, .expect = "expected a whole number, 2 to 1000",
		  .help = "runs per workload and mode (default 5, 2 to 1000: the\n"
			  "intervals need two)" },
		{ .key = 't', .name = "time", .arg = "S", .kind = ET_OPTK_INT, .value = &k.seconds,
		  .lo = 1, .hi = 86400, .expect = "expected a whole number, 1 to 86400",
		  .help = "seconds of each stress-ng run (default 10; the report\n"
			  "ran 23)" },
		{ .key = 'w', .name = "workload", .arg = "LIST", .kind = ET_OPTK_CALL,
		  .help = "comma list of stress-kill (the report's: stress-ng\n"
			  "--kill 1 -t S --metrics-brief, the default), basic,\n"
			  "getpgid, fork, execve (perf bench syscall NAME, as the\n"
			  "series' author and Christophe Leroy ran; getpgid,\n"
			  "fork and execve need perf 6.7 or later), or all" },
		{ .key = 'l', .name = "loops", .arg = "N", .kind = ET_OPTK_LL, .value = &loops,
		  .lo = 1, .hi = 1000000000, .expect = "expected a whole number, 1 to 1000000000",
		  .help = "perf bench syscall -l N (default: perf's own)" },
		{ .key = 'm', .name = "modes", .arg = "LIST", .kind = ET_OPTK_CALL,
		  .help = "SELinux modes to run: enforcing, permissive (default:\n"
			  "the mode at start, and permissive after enforcing)" },
		{ .key = OPT_MERGE, .name = "merge", .arg = "KIT", .kind = ET_OPTK_STR, .value = &k.merge,
		  .help = "add this boot's runs to KIT's (the second run, after\n"
			  "a boot with selinux=0); KIT is left as it is, the\n"
			  "result is a new archive (-o); same kernel release only" },
		{ .key = OPT_RECORD, .name = "record", .arg = "S", .kind = ET_OPTK_INT,
		  .value = &k.record_s, .lo = 0, .hi = 3600,
		  .expect = "expected a whole number, 0 to 3600",
		  .help = "on an entrytrace kernel: seconds of the recorded run\n"
			  "per mode (default 2; 0: no recording)" },
		{ .key = OPT_METRICS, .name = "metrics", .arg = "LIST", .kind = ET_OPTK_STR,
		  .value = &k.metrics, .help = "perf stat -M LIST as well, where the PMU has them" },
		{ .key = OPT_CHECK, .name = "check", .kind = ET_OPTK_FLAG, .value = &k.check_only,
		  .help = "check and say what would run, and exit as the run\n"
			  "would (nothing is run or written)" },
		{ .key = 'q', .name = "quiet", .kind = ET_OPTK_FLAG, .value = &k.quiet,
		  .help = "no progress lines (what is missing is still said)" },
		{ 0 },
	};
	struct et_cmdline cl = { .defs = opts, .own_only = true, .who = "entrytrace kit" };
	char defname[512], stage_tmpl[4096], *rec = NULL;
	size_t reclen = 0;
	int nrec = 0;
	FILE *recf = NULL;
	bool modes_given = false;
	struct utsname u;
	int c, ret = ET_EXIT_OK, total, seq = 0;

	k.want[0] = true;
	k.argc = argc;
	k.argv = argv;
	while ((c = et_next_option(NULL, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case 'w':
			if (parse_workloads(&k, optarg))
				goto bad;
			break;
		case 'm':
			if (parse_modes(&k, optarg))
				goto bad;
			modes_given = true;
			break;
		case ET_OPT_HELP:
			usage(stdout, opts);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	k.loops = (long)loops;
	if (optind < argc) {
		fprintf(stderr, "entrytrace kit: '%s': kit takes no operands (the archive is -o)\n",
			argv[optind]);
		goto bad;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "entrytrace kit: needs root (SELinux modes, audit status, kernel-side "
			"counts, tracefs): run it as root; nothing was run\n");
		return KIT_EXIT_NOT_ROOT;
	}
	uname(&u);
	if (!k.output) {
		char date[32];
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
		snprintf(defname, sizeof(defname), "entrytrace-kit-%s-%s.tar.gz", u.release, date);
		k.output = defname;
	}
	if (access(k.output, F_OK) == 0) {
		fprintf(stderr, "entrytrace kit: %s exists: a kit never overwrites an archive; name "
			"another with -o\n", k.output);
		return KIT_EXIT_EXISTS;
	}
	if (k.merge) {
		enum et_err e;
		char err[512];
		const char *rel;

		k.old = et_kit_open(k.merge, &e, err, sizeof(err));
		if (!k.old) {
			fprintf(stderr, "entrytrace kit: --merge: %s\n", err);
			return et_exit_for(e);
		}
		rel = et_jstr(et_jget(et_kit_facts(k.old, 0), "release"), "?");
		if (strcmp(rel, u.release)) {
			fprintf(stderr, "entrytrace kit: --merge %s: its kernel is %s, this boot runs %s: "
				"a kit joins boots of one kernel; compare kernels with 'entrytrace "
				"diff'\n", k.merge, rel, u.release);
			et_kit_free(k.old);
			return ET_EXIT_USAGE;
		}
		k.boot = (int)et_kit_nr_boots(k.old);
	}
	snprintf(k.prefix, sizeof(k.prefix), "b%d/", k.boot);
	k.runs = open_memstream(&k.runs_json, &k.runs_len);
	k.missing = open_memstream(&k.missing_json, &k.missing_len);
	recf = open_memstream(&rec, &reclen);
	if (!k.runs || !k.missing || !recf) {
		ret = ET_EXIT_FAIL;
		goto out;
	}

	probe(&k);
	/* what is missing, and what it costs */
	if (!k.perf[0])
		missing(&k, DEG_NO_PERF, "perf not found",
			k.perf_events ? "counting with perf_event_open directly (the same events, "
					"no -M metrics); perf bench workloads skipped"
				      : "perf bench workloads skipped");
	if (!k.perf_events)
		missing(&k, DEG_NO_HW, "no perf events in this kernel",
			"CPU time and context switches from getrusage; no cycles or instructions");
	else if (!k.hw)
		missing(&k, DEG_NO_HW, "no hardware counters",
			"task-clock only: no cycles or instructions, so no split into instructions "
			"per op and cycles per instruction");
	if (!k.stress[0] && k.want[0])
		missing(&k, DEG_NO_STRESS, "stress-ng not found",
			"the report's workload (stress-ng --kill) skipped");
	if (!k.selinux && k.old)
		say(&k, "SELinux is not enabled on this boot: its runs are the disabled mode, "
		    "merged with %s's", k.merge);
	else if (!k.selinux)
		missing(&k, DEG_NO_SELINUX, "SELinux absent (no /sys/fs/selinux/enforce)",
			"one mode, disabled; no SELinux tax");
	if (!k.stages)
		say(&k, "stages: %s", k.tracefs[0] ? "not an entrytrace kernel: no stage recording"
						  : "tracefs not mounted: no stage recording");
	for (size_t i = 0; i < NR_WL; i++) {
		const struct workload_def *w = &workload_defs[i];

		if (!k.want[i])
			continue;
		if (!w->bench)
			k.run_wl[i] = k.stress[0] != 0;
		else if (!k.perf[0])
			k.run_wl[i] = false;
		else if (!k.bench[i])
			fprintf(stderr, "entrytrace kit: perf bench syscall %s: not in %s (perf 6.7 "
				"added it): skipped\n", w->bench, k.perf);
		else
			k.run_wl[i] = true;
	}
	total = 0;
	for (size_t i = 0; i < NR_WL; i++)
		total += k.run_wl[i];
	if (!total) {
		fprintf(stderr, "entrytrace kit: none of the workloads asked for can run here "
			"(stress-kill needs stress-ng, basic perf, getpgid, fork and execve perf "
			"6.7+): nothing run\n");
		ret = KIT_EXIT_NO_WORKLOAD;
		goto out;
	}
	if (!k.selinux) {
		if (modes_given) {
			fprintf(stderr, "entrytrace kit: --modes: SELinux is not enabled on this boot: "
				"its only mode is disabled\n");
			ret = ET_EXIT_USAGE;
			goto out;
		}
		k.modes[0] = "disabled";
		k.nr_modes = 1;
	} else if (!modes_given) {
		k.modes[0] = k.enforce_at_start ? "enforcing" : "permissive";
		k.nr_modes = 1;
		if (k.enforce_at_start)
			k.modes[k.nr_modes++] = "permissive";
		say(&k, "SELinux disabled needs a boot with selinux=0: run 'entrytrace kit --merge "
		    "%s' there to add it", k.output);
	}
	total *= k.repeat * k.nr_modes;
	say(&k, "%d runs: %d per workload and mode; modes %s%s%s; then %s", total, k.repeat,
	    k.modes[0], k.nr_modes > 1 ? ", " : "", k.nr_modes > 1 ? k.modes[1] : "",
	    k.stages && k.record_s ? "a recorded run per mode" : "no recording");
	if (k.check_only) {
		ret = k.degraded ? KIT_EXIT_DEGRADED + k.degraded : ET_EXIT_OK;
		goto out;
	}

	/* the staging directory beside the archive, so that the link is one rename away */
	{
		char *dir = strdup(k.output), *slash = dir ? strrchr(dir, '/') : NULL;

		if (slash)
			*slash = 0;
		snprintf(stage_tmpl, sizeof(stage_tmpl), "%s/.entrytrace-kit.XXXXXX",
			 slash ? (*dir ? dir : "/") : ".");
		free(dir);
	}
	/* absolute: the workloads run in its scratch directory */
	if (!mkdtemp(stage_tmpl) || !(k.stage = realpath(stage_tmpl, NULL))) {
		fprintf(stderr, "entrytrace kit: %s: %s\n", stage_tmpl, strerror(errno));
		ret = ET_EXIT_FAIL;
		goto out;
	}
	{
		char p[4200];

		snprintf(p, sizeof(p), "%s/%.*s", k.stage, (int)strlen(k.prefix) - 1, k.prefix);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/%sruns", k.stage, k.prefix);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/scratch", k.stage);
		mkdir(p, 0755);
	}
	catch_signals();
	if (collect_facts(&k)) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	for (int rep = 1; rep <= k.repeat && !got_signal; rep++)
		for (size_t w = 0; w < NR_WL && !got_signal; w++)
			for (int m = 0; m < k.nr_modes && k.run_wl[w] && !got_signal; m++) {
				if (k.selinux && !set_mode(k.modes[m])) {
					fprintf(stderr, "entrytrace kit: could not set SELinux %s through "
						"/sys/fs/selinux/enforce: %s\n", k.modes[m], strerror(errno));
					ret = ET_EXIT_FAIL;
					goto written;
				}
				run_one(&k, (int)w, k.modes[m], rep, ++seq, total);
			}
	for (int m = 0; m < k.nr_modes && k.stages && k.record_s && !got_signal; m++) {
		if (k.selinux && !set_mode(k.modes[m]))
			break;
		record_mode(&k, k.modes[m], &nrec, recf);
	}
written:
	if (got_signal && !k.interrupted_at[0])
		snprintf(k.interrupted_at, sizeof(k.interrupted_at), "signal %d %s", (int)got_signal,
			 k.nr_runs_done ? "during the stage recording" : "before the first run");
	restore_mode(&k);
	fflush(recf);
	if (write_archive(&k, rec ? rec : "")) {
		ret = ET_EXIT_FAIL;
		goto out;
	}
	if (got_signal) {
		fprintf(stderr, "entrytrace kit: interrupted (%s): wrote %s, marked partial, with the "
			"%d runs so far\n", k.interrupted_at, k.output, k.nr_runs_done);
		ret = KIT_EXIT_PARTIAL;
	} else {
		fprintf(stderr, "entrytrace kit: wrote %s (%d runs); read it with 'entrytrace report "
			"%s'\n", k.output, k.nr_runs_done, k.output);
		if (k.nr_failed) {
			fprintf(stderr, "entrytrace kit: %d of the %d runs failed: kept in the archive, "
				"left out of its tables\n", k.nr_failed, k.nr_runs_done);
			ret = ET_EXIT_FAIL;
		}
		if (ret == ET_EXIT_OK && k.degraded)
			ret = KIT_EXIT_DEGRADED + k.degraded;
	}
out:
	restore_mode(&k);
	if (k.stage)
		remove_tree(k.stage);
	free(k.stage);
	if (k.runs)
		fclose(k.runs);
	if (k.missing)
		fclose(k.missing);
	if (recf)
		fclose(recf);
	free(rec);
	free(k.runs_json);
	free(k.missing_json);
	free(k.facts_json);
	et_kit_free(k.old);
	return ret;
bad:
	et_usage_hint("entrytrace kit");
	return ET_EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Reading: report KIT, diff KIT_A KIT_B                                */

static struct et_kit *open_kit(const char *who, const char *path, int *ret)
{
	enum et_err e;
	char err[512];
	struct et_kit *k = et_kit_open(path, &e, err, sizeof(err));

	if (!k) {
		fprintf(stderr, "%s: %s\n", who, err);
		*ret = et_exit_for(e);
	}
	return k;
}

/* usable runs: neither interrupted nor failed */
static size_t usable_runs(const struct et_kit *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->nr_runs; i++)
		n += !k->runs[i].interrupted && !k->runs[i].failed;
	return n;
}

int et_kit_report_cmd(const char *path, enum et_format fmt, const char *output)
{
	const char *who = "entrytrace report";
	struct et_output o;
	int ret = ET_EXIT_OK;
	struct et_kit *k;
	FILE *out;

	if (fmt == ET_FMT_CSV) {
		fprintf(stderr, "%s: %s is a kit archive: text or JSON (no CSV)\n", who, path);
		return ET_EXIT_USAGE;
	}
	k = open_kit(who, path, &ret);
	if (!k)
		return ret;
	out = et_output_open(&o, output, who);
	if (!out) {
		et_kit_free(k);
		return ET_EXIT_FAIL;
	}
	et_kit_render(k, fmt, out);
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	if (ret == ET_EXIT_OK && k->partial) {
		fprintf(stderr, "%s: %s is partial: %s\n", who, path,
			k->interrupted ? k->interrupted : "interrupted");
		ret = ET_EXIT_DAMAGED;
	}
	if (ret == ET_EXIT_OK && !usable_runs(k)) {
		fprintf(stderr, "%s: %s holds no complete run\n", who, path);
		ret = ET_EXIT_EMPTY;
	}
	et_kit_free(k);
	return ret;
}

int et_kit_diff_cmd(const char *a, const char *b, const struct et_kit_diff_opts *opts,
		    enum et_format fmt, const char *output)
{
	const char *who = "entrytrace diff";
	struct et_kit *ka = NULL, *kb = NULL;
	struct et_output o;
	int ret = ET_EXIT_OK, r;
	FILE *out;

	if (fmt == ET_FMT_CSV) {
		fprintf(stderr, "%s: kit archives: text or JSON (no CSV)\n", who);
		return ET_EXIT_USAGE;
	}
	ka = open_kit(who, a, &ret);
	kb = ka ? open_kit(who, b, &ret) : NULL;
	if (!ka || !kb)
		goto done;
	out = et_output_open(&o, output, who);
	if (!out) {
		ret = ET_EXIT_FAIL;
		goto done;
	}
	r = et_kit_render_diff(ka, kb, opts, fmt, out);
	if (et_output_close(&o, true))
		ret = ET_EXIT_FAIL;
	if (ret == ET_EXIT_OK && r) {
		fprintf(stderr, "%s: the two kits share no workload x SELinux mode\n", who);
		ret = ET_EXIT_EMPTY;
	}
	if (ret == ET_EXIT_OK && (ka->partial || kb->partial)) {
		fprintf(stderr, "%s: %s is partial: its interrupted run is left out\n", who,
			ka->partial ? a : b);
		ret = ET_EXIT_DAMAGED;
	}
done:
	et_kit_free(ka);
	et_kit_free(kb);
	return ret;
}
