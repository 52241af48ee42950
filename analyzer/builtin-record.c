// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace record: a trace.dat of the syscall path, recorded through
 * libtracefs in an instance of its own (session.c) and written with
 * libtracecmd's output API.
 *
 * The per-CPU raw buffers are read with libtracefs' tracefs_cpu API: one
 * thread serves every CPU without blocking, full sub-buffers move through
 * a splice pipe while the session runs, and tracefs_cpu_flush() collects
 * the partly filled ones at the end.  libtracecmd's recorder would do the
 * same but is private API and wants a thread or process per CPU, each one
 * more pid to keep out of a system-wide trace.  The data goes to one
 * temporary file per CPU, which tracecmd_append_cpu_data() copies into the
 * trace.dat (compressing it for version 7).
 *
 * Like 'export', the trace.dat is written under a temporary name and
 * renamed when whole: a recording cut short never leaves a partial file
 * under the name asked for, and only once libtracecmd reads it back.
 * Everything temporary lives in one directory per run beside the output,
 * .entrytrace-record.PID.XXXXXX/ (the per-CPU data, the file being
 * written, and tracing/, the directory libtracecmd writes the headers
 * from: make_trace_dir()); SIGINT and SIGTERM clean it up, and what a
 * SIGKILL leaves (that directory, and the session's tracefs instance,
 * still tracing) the next 'record' - or 'record --clean' - finds by its
 * pid, names and removes.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "builtin.h"
#include "session.h"
#include "tracecmd-compat.h"

static const char record_usage[] =
	"usage: entrytrace record [options] -- CMD [ARGS...]\n"
	"       entrytrace record [options] -p PID\n"
	"       entrytrace record [options] -a [-- CMD [ARGS...]]\n"
	"\n"
	"Records the syscall path of the running kernel into a trace.dat that\n"
	"'entrytrace report', 'trace-cmd report' and KernelShark read.  It uses a\n"
	"tracefs instance of its own (the top-level buffer stays as it is) and never\n"
	"touches the function tracer, so it also works where 'trace-cmd record' fails\n"
	"on locked-down function-tracer files.  Needs root.\n"
	"\n"
	"Events, chosen for the running kernel:\n"
	"  entrytrace kernel  entry_stage_time (or only entry_stage_summary with\n"
	"                     --summary), sched_switch, sched_process_exec/exit/fork,\n"
	"                     task_rename, irq handlers and softirqs (not with --summary);\n"
	"                     --aggregate: entry_stage_hist alone; --batch:\n"
	"                     entry_stage_batch and the task events but sched_switch\n"
	"  any other kernel   raw_syscalls:sys_enter/sys_exit, the same sched, task and\n"
	"                     irq events, signal:signal_deliver, rseq:rseq_update,\n"
	"                     context_tracking:user_enter/user_exit where they exist\n"
	"\n"
	"What is traced:\n"
	"  -- CMD [ARGS...]       run CMD and trace it and its children until it exits\n";
static const char record_usage_mid[] =
	"\n"
	"SIGINT or SIGTERM ends any recording early; the trace.dat is still written.\n"
	"It is written under a temporary name and renamed when whole, so a recording\n"
	"killed (SIGKILL) or out of disk space leaves no partial file at FILE.\n"
	"\n"
	"options:\n";
static const char record_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"After recording it prints each CPU's overrun and dropped counts from the\n"
	"instance's per_cpu/cpuN/stats and their sum as \"lost events\"; 'entrytrace\n"
	"report' sees the same losses in the ring-buffer pages.  /proc/kallsyms is not\n"
	"saved (an events-only trace does not need it).\n"
	"\n"
	"Every option is checked before anything is recorded.\n"
	"\n"
	"exit status: 0 trace written (and the command, if any, succeeded), 1 runtime\n"
	"failure (tracefs, the command could not run, writing the file), 2 usage\n"
	"error; when the command failed, the trace is still written and the status\n"
	"is the command's own, as time(1) passes it on: its exit status, or 128 + the\n"
	"signal that killed it (stderr says which).\n";

/* How often the buffers are emptied into the per-CPU files. */
#define POLL_MS 100

enum {
	OPT_SUMMARY = 256,
	OPT_AGGREGATE,
	OPT_BATCH,
	OPT_FILE_VERSION,
	OPT_COMPRESSION,
	OPT_CLEAN,
};

struct record_opts {
	struct et_session_opts session;
	const char *output;
	int file_version;
	const char *compression;
};

struct rec_cpu {
	struct tracefs_cpu *tcpu;
	int fd;
	char *path;
	unsigned long long bytes;
	unsigned long long overrun, commit_overrun, dropped;
	char *stats;		/* per_cpu/cpuN/stats as read, for the file */
};

struct recorder {
	const char *who;
	struct et_session *s;
	struct rec_cpu *cpu;
	int nr_cpus;
	char *tmpdir;
	char *partial;		/* the trace.dat being written, in tmpdir */
	char *tracedir;		/* tmpdir/tracing: what libtracecmd writes the headers from */
	void *page;
	unsigned long long lost;
};

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/*
 * A test hook: ENTRYTRACE_RECORD_KILL_AT=recording|writing|written makes
 * the recorder SIGKILL itself there, as a user's kill -9 or the OOM
 * killer would (analyzer/tests/t-record.sh).
 */
static void kill_point(const char *where)
{
	const char *at = getenv("ENTRYTRACE_RECORD_KILL_AT");

	if (at && !strcmp(at, where))
		raise(SIGKILL);
}

/*
 * Test hook: ENTRYTRACE_RECORD_DAMAGE_AT=written cuts the file just
 * written to half its size, as a writer's wrong size would leave it for
 * every reader: the read-back check must refuse it.
 */
static void damage_point(const char *where, const char *path)
{
	const char *at = getenv("ENTRYTRACE_RECORD_DAMAGE_AT");
	struct stat st;

	if (at && !strcmp(at, where) && !stat(path, &st))
		(void)!truncate(path, st.st_size / 2);
}

#define RUN_PREFIX ".entrytrace-record."

/* Bytes under path (a file, or a directory's files). */
static unsigned long long du(const char *path)
{
	struct stat st;
	unsigned long long n = 0;
	struct dirent *e;
	DIR *d;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return st.st_size;
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")))
			continue;
		if (asprintf(&p, "%s/%s", path, e->d_name) < 0)
			continue;
		if (!lstat(p, &st) && !S_ISDIR(st.st_mode))
			n += st.st_size;
		free(p);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * A run directory: its files, its tracing directory's links and copy,
 * then it.  lstat, never opendir, decides: a link is removed, never
 * followed (tracing/events points into tracefs).
 */
static int remove_run(const char *path)
{
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&p, "%s/%s", path, e->d_name) >= 0) {
			remove_run(p);
			free(p);
		}
	}
	closedir(d);
	return rmdir(path);
}

/*
 * What killed recordings left beside output: .entrytrace-record.PID.*
 * (run directories, compression probes) of pids that no longer run
 * entrytrace, each named and removed.  Directories of an older entrytrace
 * carry no pid: named, left.  Returns how many were removed.
 */
static int sweep_runs(const char *who, const char *output, int *failed)
{
	char *copy = strdup(output), *dir;
	struct dirent *e;
	int removed = 0;
	DIR *d;

	if (!copy)
		return 0;
	dir = dirname(copy);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		const char *rest = e->d_name + strlen(RUN_PREFIX);
		char *end, *path;
		long pid;

		if (strncmp(e->d_name, RUN_PREFIX, strlen(RUN_PREFIX)))
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		pid = strtol(rest, &end, 10);
		if (end == rest || *end != '.' || pid <= 0) {
			fprintf(stderr, "%s: %s: left by an older entrytrace (%llu bytes), which "
				"did not name its pid: not removed (remove it if no record is "
				"running there)\n", who, path, du(path));
		} else if (pid != getpid() && !et_pid_is_entrytrace(pid)) {
			unsigned long long bytes = du(path);

			if (remove_run(path) < 0) {
				fprintf(stderr, "%s: %s, left by pid %ld, could not be removed: %s\n",
					who, path, pid, strerror(errno));
				(*failed)++;
			} else {
				fprintf(stderr, "%s: removed %s (%llu bytes): pid %ld, which made "
					"it, no longer runs entrytrace (killed?)\n", who, path, bytes, pid);
				removed++;
			}
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(copy);
	return removed;
}

/* A directory next to the output for the per-CPU files and the output being written. */
static int make_tmpdir(struct recorder *r, const char *output)
{
	char *copy = strdup(output), *base;

	if (!copy)
		return -1;
	if (asprintf(&r->tmpdir, "%s/" RUN_PREFIX "%d.XXXXXX", dirname(copy), (int)getpid()) < 0) {
		r->tmpdir = NULL;
		free(copy);
		return -1;
	}
	free(copy);
	if (!mkdtemp(r->tmpdir)) {
		fprintf(stderr, "%s: cannot create a temporary directory next to %s: %s\n",
			r->who, output, strerror(errno));
		free(r->tmpdir);
		r->tmpdir = NULL;
		return -1;
	}
	copy = strdup(output);
	base = copy ? basename(copy) : NULL;
	if (!base || asprintf(&r->partial, "%s/%s.part", r->tmpdir, base) < 0) {
		r->partial = NULL;
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

static int open_cpus(struct recorder *r)
{
	struct tracefs_instance *inst = et_session_instance(r->s);
	int page = 0;

	r->nr_cpus = et_session_cpus(r->s);
	r->cpu = calloc(r->nr_cpus, sizeof(*r->cpu));
	if (!r->cpu)
		return -1;
	for (int i = 0; i < r->nr_cpus; i++) {
		struct rec_cpu *c = &r->cpu[i];

		c->fd = -1;
		if (asprintf(&c->path, "%s/cpu%d", r->tmpdir, i) < 0) {
			c->path = NULL;
			return -1;
		}
		c->fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (c->fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", r->who, c->path, strerror(errno));
			return -1;
		}
		/* an absent CPU keeps an empty file */
		c->tcpu = tracefs_cpu_open(inst, i, true);
		if (c->tcpu && tracefs_cpu_read_size(c->tcpu) > page)
			page = tracefs_cpu_read_size(c->tcpu);
	}
	if (!page) {
		fprintf(stderr, "%s: cannot open the instance's per-CPU buffers\n", r->who);
		return -1;
	}
	r->page = malloc(page);
	return r->page ? 0 : -1;
}

/*
 * Move what a CPU's buffer holds into its file: whole sub-buffers while
 * recording, the partly filled rest with flush once tracing is off.
 */
static int drain(struct recorder *r, struct rec_cpu *c, bool flush)
{
	if (!c->tcpu)
		return 0;
	for (;;) {
		int n = flush ? tracefs_cpu_flush(c->tcpu, r->page) :
				tracefs_cpu_buffered_read(c->tcpu, r->page, true);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n < 0) {
			fprintf(stderr, "%s: reading the CPU buffer: %s\n", r->who,
				strerror(errno));
			return -1;
		}
		if (!n)
			return 0;
		if (write_all(c->fd, r->page, n)) {
			fprintf(stderr, "%s: %s: %s\n", r->who, c->path, strerror(errno));
			return -1;
		}
		c->bytes += n;
	}
}

static int drain_all(struct recorder *r, bool flush)
{
	for (int i = 0; i < r->nr_cpus; i++)
		if (drain(r, &r->cpu[i], flush))
			return -1;
	return 0;
}

static unsigned long long stat_value(const char *stats, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = stats; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtoull(p + len + 1, NULL, 10);
	return 0;
}

/* Lost events as the kernel counted them, per CPU. */
static void read_stats(struct recorder *r, bool quiet)
{
	struct tracefs_instance *inst = et_session_instance(r->s);
	char file[64];

	for (int i = 0; i < r->nr_cpus; i++) {
		struct rec_cpu *c = &r->cpu[i];

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		c->stats = tracefs_instance_file_read(inst, file, NULL);
		c->overrun = stat_value(c->stats, "overrun");
		c->commit_overrun = stat_value(c->stats, "commit overrun");
		c->dropped = stat_value(c->stats, "dropped events");
		r->lost += c->overrun + c->commit_overrun + c->dropped;
		if (!quiet)
			fprintf(stderr, "%s: CPU%d: %llu bytes, overrun %llu, commit overrun %llu, dropped %llu\n",
				r->who, i, c->bytes, c->overrun, c->commit_overrun,
				c->dropped);
	}
	if (!quiet || r->lost)
		fprintf(stderr, "%s: lost events: %llu%s\n", r->who, r->lost,
			r->lost ? " (the buffers overran: a larger -b keeps them)" : "");
}

static void add_string_option(struct tracecmd_output *h, unsigned short id,
			      const char *s)
{
	tracecmd_add_option(h, id, strlen(s) + 1, s);
}

static void add_options(struct recorder *r, struct tracecmd_output *h)
{
	char buf[512];
	struct utsname u;

	/* a bare clock option: timestamps are the trace clock's */
	tracecmd_add_option(h, TRACECMD_OPTION_TRACECLOCK, 0, NULL);
	/* the analyzer takes the architecture from the last word */
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename,
			 u.release, u.machine);
		add_string_option(h, TRACECMD_OPTION_UNAME, buf);
	}
	snprintf(buf, sizeof(buf), "entrytrace %s", et_version);
	add_string_option(h, TRACECMD_OPTION_VERSION, buf);
	for (int i = 0; i < r->nr_cpus; i++) {
		char *stat;

		if (!r->cpu[i].stats)
			continue;
		if (asprintf(&stat, "CPU: %d\n%s", i, r->cpu[i].stats) < 0)
			continue;
		add_string_option(h, TRACECMD_OPTION_CPUSTAT, stat);
		free(stat);
	}
}

/*
 * Kallsyms is not saved: this host's holds real addresses of no use to an
 * events-only trace, 95% of a small file.  libtracecmd copies whatever
 * path it is given, lowering kernel.kptr_restrict around the copy (and
 * restoring it), unless the path does not exist.  Given a missing path it
 * writes an empty section without touching the sysctl, but libtracecmd
 * 1.3.1 then leaves its compressor running and corrupts a compressed file.
 * So: a missing path when uncompressed, an empty file when compressed.
 */
static int kallsyms_path(struct recorder *r, const struct record_opts *o,
			 char **path)
{
	bool compressed = strcmp(o->compression, "none");
	int fd;

	if (asprintf(path, "%s/%s", r->tmpdir, compressed ? "kallsyms" : "no-kallsyms") < 0)
		return -1;
	if (!compressed)
		return 0;
	fd = open(*path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(*path);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The tracing directory libtracecmd writes the file's headers from:
 * tmpdir/tracing, a symbolic link to each entry of tracefs but
 * saved_cmdlines, which snapshot_cmdlines() copies in one read.
 * libtracecmd reads each file twice, once for its size and once for its
 * bytes.  saved_cmdlines changes whenever any instance traces a task new
 * to it, and when it did between the two reads libtracecmd 3.1.6 still
 * returns success: a version 6 file then holds a size that is not its
 * command lines' and no reader opens it past them (once in a CI run of
 * make check, two tests tracing at a time).
 */
static int make_trace_dir(struct recorder *r)
{
	const char *top = tracefs_tracing_dir();
	struct dirent *e;
	int ret = 0;
	DIR *d;

	if (!top || asprintf(&r->tracedir, "%s/tracing", r->tmpdir) < 0) {
		r->tracedir = NULL;
		return -1;
	}
	if (mkdir(r->tracedir, 0700) < 0)
		return -1;
	d = opendir(top);
	if (!d)
		return -1;
	while (!ret && (e = readdir(d))) {
		char *from, *to;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "saved_cmdlines"))
			continue;
		if (asprintf(&from, "%s/%s", top, e->d_name) < 0)
			break;
		if (asprintf(&to, "%s/%s", r->tracedir, e->d_name) < 0) {
			free(from);
			break;
		}
		ret = symlink(from, to);
		free(from);
		free(to);
	}
	closedir(d);
	return e ? -1 : ret;
}

/* saved_cmdlines as one read of it, for libtracecmd to size and copy */
static int snapshot_cmdlines(struct recorder *r)
{
	char *text, *path;
	int fd, ret, size = 0;

	errno = 0;	/* a NULL with errno left 0 is no failure */
	text = tracefs_instance_file_read(NULL, "saved_cmdlines", &size);
	if (!text && errno)
		return -1;
	if (asprintf(&path, "%s/saved_cmdlines", r->tracedir) < 0) {
		free(text);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	free(path);
	ret = fd < 0 ? -1 : write_all(fd, text ? text : "", size);
	if (fd >= 0 && close(fd) < 0)
		ret = -1;
	free(text);
	return ret;
}

/* Whether libtracecmd reads back the file just written: headers and CPU data. */
static bool reads_back(const char *path)
{
	struct tracecmd_input *in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	bool ok = in && tracecmd_init_data(in) >= 0;

	if (in)
		tracecmd_close(in);
	return ok;
}

/*
 * Why a write failed.  libtracecmd's later calls can overwrite errno
 * before it returns (a full disk once read "Invalid argument"): when the
 * file system is (nearly) full, that is the reason.
 */
static const char *write_error(const char *dir, int err)
{
	struct statvfs sv;

	if (err == ENOSPC || err == EDQUOT)
		return strerror(err);
	if (dir && !statvfs(dir, &sv) && (unsigned long long)sv.f_bavail * sv.f_frsize < (1u << 20))
		return strerror(ENOSPC);
	return err ? strerror(err) : NULL;
}

static int write_dat(struct recorder *r, const struct record_opts *o)
{
	struct tracecmd_event_list *list;
	struct tracecmd_output *h;
	char *const *events;
	char **files = NULL, *nokallsyms = NULL;
	char *clock = tracefs_get_clock(et_session_instance(r->s));
	int nr_events, ret = -1, err;
	const char *step = "creating the file";

	events = et_session_events(r->s, &nr_events);
	list = calloc(nr_events, sizeof(*list));
	files = calloc(r->nr_cpus, sizeof(*files));
	if (kallsyms_path(r, o, &nokallsyms))
		nokallsyms = NULL;
	if (!list || !files || !nokallsyms) {
		step = "allocating";
		goto fail;
	}
	for (int i = 0; i < nr_events; i++) {
		list[i].glob = events[i];
		list[i].next = i + 1 < nr_events ? &list[i + 1] : NULL;
	}
	for (int i = 0; i < r->nr_cpus; i++)
		files[i] = r->cpu[i].path;

	/*
	 * A version 6 file keeps the top buffer's data offset in no option,
	 * yet libtracecmd 1.3.1 looks for one and warns that it has none; on
	 * a failed write it prints errno as it stands by then ("Invalid
	 * argument" on a full disk).  The one line below says what failed.
	 */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	errno = 0;
	h = tracecmd_output_create(r->partial);
	if (!h)
		goto fail;
	tracecmd_set_quiet(h, true);
	step = "setting up the file";
	if (tracecmd_output_set_trace_dir(h, r->tracedir) ||
	    tracecmd_output_set_kallsyms(h, nokallsyms) ||
	    tracecmd_output_set_version(h, o->file_version) ||
	    tracecmd_output_set_compression(h, o->compression))
		goto fail_close;
	if (clock)
		tracecmd_set_out_clock(h, clock);
	step = "writing the headers and event formats";
	if (tracecmd_output_write_headers(h, nr_events ? list : NULL))
		goto fail_close;
	add_options(r, h);
	step = "copying saved_cmdlines";
	if (snapshot_cmdlines(r))
		goto fail_close;
	step = "writing the saved command lines";
	if (tracecmd_write_cmdlines(h))
		goto fail_close;
	kill_point("writing");
	step = "writing the CPU data";
	if (tracecmd_append_cpu_data(h, r->nr_cpus, files))
		goto fail_close;
	tracecmd_output_close(h);
	damage_point("written", r->partial);
	step = "reading the written file back (libtracecmd cannot open it)";
	errno = 0;
	if (!reads_back(r->partial))
		goto fail;
	/* whole: under its name in one step */
	step = "renaming the finished file to its name";
	if (rename(r->partial, o->output) < 0)
		goto fail;
	ret = 0;
	goto out;
fail_close:
	err = errno;
	tracecmd_output_close(h);
	errno = err;
fail:
	err = errno;
	unlink(r->partial);
	fprintf(stderr, "%s: %s: %s failed%s%s\n", r->who, o->output, step,
		write_error(r->tmpdir, err) ? ": " : "",
		write_error(r->tmpdir, err) ? write_error(r->tmpdir, err) : "");
out:
	free(list);
	free(files);
	free(nokallsyms);
	free(clock);
	return ret;
}

static void recorder_free(struct recorder *r)
{
	for (int i = 0; r->cpu && i < r->nr_cpus; i++) {
		struct rec_cpu *c = &r->cpu[i];

		if (c->tcpu)
			tracefs_cpu_close(c->tcpu);
		if (c->fd >= 0)
			close(c->fd);
		if (c->path)
			unlink(c->path);
		free(c->path);
		free(c->stats);
	}
	free(r->cpu);
	if (r->partial)
		unlink(r->partial);
	if (r->tracedir)
		remove_run(r->tracedir);
	free(r->tracedir);
	if (r->tmpdir) {
		char *k;

		if (asprintf(&k, "%s/kallsyms", r->tmpdir) >= 0) {
			unlink(k);
			free(k);
		}
		rmdir(r->tmpdir);
	}
	free(r->partial);
	free(r->tmpdir);
	free(r->page);
}

static void report_written(const struct record_opts *o, struct recorder *r)
{
	struct stat st;
	int status = et_session_cmd_status(r->s);

	if (status > 0 && WIFEXITED(status))
		fprintf(stderr, "%s: the command exited with status %d\n", r->who,
			WEXITSTATUS(status));
	else if (status > 0 && WIFSIGNALED(status))
		fprintf(stderr, "%s: the command was killed by signal %d\n", r->who,
			WTERMSIG(status));
	if (o->session.quiet)
		return;
	fprintf(stderr, "%s: wrote %s: trace.dat version %d, %s, %d CPUs, %lld bytes\n",
		r->who, o->output, o->file_version,
		strcmp(o->compression, "none") ? o->compression : "uncompressed",
		r->nr_cpus, stat(o->output, &st) ? -1LL : (long long)st.st_size);
}

/*
 * The command's own status, as time(1) passes it on: 0 when it succeeded
 * (or there was none: -p, -a), its exit status, or 128 + the signal that
 * killed it.  The trace is written either way.
 */
static int cmd_exit_status(int status)
{
	if (status <= 0)
		return ET_EXIT_OK;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return ET_EXIT_OK;
}

/*
 * Whether libtracecmd can write a file of this version with this
 * compression: tried on a scratch file before anything is recorded, so a
 * bad --compression fails at once, not after the workload ran.
 */
static bool compression_ok(const struct record_opts *o)
{
	char *copy = strdup(o->output), *path = NULL;
	struct tracecmd_output *h;
	int fd = -1;
	bool ok;

	/* next to the output, as the recording's own temporary files */
	if (copy && asprintf(&path, "%s/" RUN_PREFIX "%d.check.XXXXXX", dirname(copy),
			     (int)getpid()) > 0)
		fd = mkstemp(path);
	free(copy);
	if (fd < 0) {
		free(path);
		return true;	/* (cannot check: the real write will say) */
	}
	close(fd);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_output_create(path);
	ok = h && !tracecmd_output_set_version(h, o->file_version) &&
	     !tracecmd_output_set_compression(h, o->compression);
	if (h)
		tracecmd_output_close(h);
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	unlink(path);
	free(path);
	return ok;
}

static int record(const struct record_opts *o)
{
	struct recorder r = { .who = o->session.who };
	int ret, nr_events, failed = 0;
	char *const *events;

	/* what recordings killed before left beside the output (instances: the session's) */
	sweep_runs(r.who, o->output, &failed);
	ret = et_session_new(&o->session, &r.s);
	if (ret)
		return ret;
	ret = ET_EXIT_FAIL;
	if (make_tmpdir(&r, o->output) || open_cpus(&r))
		goto out;
	if (make_trace_dir(&r)) {
		fprintf(stderr, "%s: cannot link tracefs' files into %s/tracing: %s\n", r.who,
			r.tmpdir, strerror(errno));
		goto out;
	}
	events = et_session_events(r.s, &nr_events);
	if (!o->session.quiet) {
		fprintf(stderr, "%s: %s; instance %s, %lu KB per CPU\n", r.who,
			et_session_target(r.s),
			tracefs_instance_get_name(et_session_instance(r.s)),
			o->session.buffer_kb);
		fprintf(stderr, "%s: %d events:", r.who, nr_events);
		for (int i = 0; i < nr_events; i++)
			fprintf(stderr, " %s", events[i]);
		fprintf(stderr, "\n");
	}
	ret = et_session_start(r.s);
	if (ret)
		goto out;
	if (!o->session.quiet)
		fprintf(stderr, "%s: recording%s\n", r.who,
			o->session.cmd ? "" : o->session.pid ?
			" until the task exits, SIGINT or SIGTERM" :
			" until SIGINT (Ctrl-C) or SIGTERM");
	ret = ET_EXIT_FAIL;
	while (et_session_wait(r.s, POLL_MS)) {
		if (drain_all(&r, false))
			goto out;
		/* (a test's kill: tracing on, a sub-buffer or more in the run directory) */
		kill_point("recording");
	}
	if (o->session.aggregate && et_session_flush_hist(r.s))
		goto out;
	if (o->session.batch && et_session_flush_batch(r.s))
		goto out;
	et_session_stop(r.s);
	if (drain_all(&r, false) || drain_all(&r, true))
		goto out;
	read_stats(&r, o->session.quiet);
	if (write_dat(&r, o))
		goto out;
	kill_point("written");
	report_written(o, &r);
	ret = cmd_exit_status(et_session_cmd_status(r.s));
out:
	recorder_free(&r);
	et_session_free(r.s);
	return ret;
}

/* the usage, its two option blocks from the table: -p and -a first */
static void usage(FILE *f, const struct et_optdef *opts)
{
	fputs(record_usage, f);
	et_optdefs_usage_n(f, opts, 2);
	fputs(record_usage_mid, f);
	et_optdefs_usage(f, opts + 2);
	fputs(record_usage_tail, f);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {
		.session = { .who = "entrytrace record" },
		.output = "trace.dat",
		.file_version = 7,
	};
	char **events = NULL;
	bool clean = false;
	long long buffer_kb = 20000;
	const struct et_optdef opts[] = {
		/* What is traced: */
		{ .key = 'p', .name = "pid", .arg = "PID", .kind = ET_OPTK_INT,
		  .value = &o.session.pid, .lo = 1, .hi = INT_MAX,
		  .expect = "expected a process id",
		  .help = "trace a running task and the children it forks from\n"
			  "now on, until it exits" },
		{ .key = 'a', .name = "all-cpus", .kind = ET_OPTK_FLAG, .value = &o.session.all,
		  .help = "the whole system but this recorder (its threads go into\n"
			  "set_event_notrace_pid): alone until SIGINT or SIGTERM,\n"
			  "with CMD while CMD runs" },
		/* options: */
		{ .key = 'o', .name = "output", .arg = "FILE", .kind = ET_OPTK_STR,
		  .value = &o.output, .help = "trace.dat to write (default trace.dat)" },
		{ .key = 'e', .name = "event", .arg = "EVENT", .kind = ET_OPTK_CALL,
		  .help = "also record EVENT: system:event, system:glob or system\n"
			  "(repeatable)" },
		{ .key = 'b', .name = "buffer-size", .arg = "KB", .kind = ET_OPTK_LL,
		  .value = &buffer_kb, .lo = 1, .hi = INT_MAX,
		  .expect = "expected KB per CPU, at least 1",
		  .help = "ring buffer per CPU (default 20000; smaller ones overran\n"
			  "under load)" },
		{ .key = OPT_SUMMARY, .name = "summary", .kind = ET_OPTK_FLAG,
		  .value = &o.session.summary,
		  .help = "entrytrace kernel: only the summary event per syscall" },
		{ .key = OPT_AGGREGATE, .name = "aggregate", .kind = ET_OPTK_FLAG,
		  .value = &o.session.aggregate,
		  .help = "entrytrace kernel (series v3): only entry_stage_hist:\n"
			  "nothing per syscall; the kernel's cells of every task\n"
			  "are flushed into the recording when it ends (the pid\n"
			  "filters are cleared for that)" },
		{ .key = OPT_BATCH, .name = "batch", .kind = ET_OPTK_FLAG,
		  .value = &o.session.batch,
		  .help = "entrytrace kernel (series v4): only entry_stage_batch:\n"
			  "the kernel packs each syscall into a per-CPU batch and\n"
			  "writes a batch as one event; the tasks are chosen by\n"
			  "entry_stage.pid (the command's or -p's thread group\n"
			  "and what it forks; -a every task, this recorder too),\n"
			  "not by a pid filter, so staging must be off when it\n"
			  "starts; the batches still open are flushed at the end" },
		{ .key = OPT_FILE_VERSION, .name = "file-version", .arg = "N", .kind = ET_OPTK_INT,
		  .value = &o.file_version, .lo = 6, .hi = 7, .expect = "expected 6 or 7",
		  .help = "trace.dat version 7 (default) or 6" },
		{ .key = OPT_COMPRESSION, .name = "compression", .arg = "C", .kind = ET_OPTK_STR,
		  .value = &o.compression,
		  .help = "zstd (default for version 7), none, or another\n"
			  "algorithm libtracecmd knows; version 6 is uncompressed" },
		{ .key = OPT_CLEAN, .name = "clean", .kind = ET_OPTK_FLAG, .value = &clean,
		  .help = "only remove what recordings killed with SIGKILL left:\n"
			  "tracefs instances entrytrace-PID of pids that no longer\n"
			  "run entrytrace, and .entrytrace-record.PID.* beside\n"
			  "FILE (-o); each is named.  Every record does this first" },
		{ .key = 'q', .name = "quiet", .kind = ET_OPTK_FLAG, .value = &o.session.quiet,
		  .help = "only errors" },
		{ 0 },
	};
	/* "+": the command's own options are its own */
	struct et_cmdline cl = { .own = "+", .defs = opts, .own_only = true, .who = o.session.who };
	int c, ret;

	while ((c = et_next_option(NULL, &cl, argc, argv)) != ET_OPT_END) {
		switch (c) {
		case 'e': {
			char **p = realloc(events, (o.session.nr_events + 1) * sizeof(*p));

			if (!p)
				goto bad;
			events = p;
			events[o.session.nr_events++] = optarg;
			break;
		}
		case ET_OPT_HELP:
			usage(stdout, opts);
			free(events);
			return ET_EXIT_OK;
		default:
			goto bad;
		}
	}
	o.session.buffer_kb = (unsigned long)buffer_kb;
	o.session.events = events;
	if (optind < argc)
		o.session.cmd = argv + optind;
	if (clean) {
		int failed = 0, n;

		if (o.session.cmd || o.session.pid || o.session.all) {
			fprintf(stderr, "entrytrace record: --clean records nothing: give it alone "
				"(with -o FILE for where recordings were written)\n");
			goto bad;
		}
		n = sweep_runs(o.session.who, o.output, &failed);
		n += et_session_sweep(o.session.who, &failed);
		if (!n && !failed)
			fprintf(stderr, "entrytrace record: nothing stale: no tracefs instance or "
				"directory of a killed recording\n");
		free(events);
		return failed ? ET_EXIT_FAIL : ET_EXIT_OK;
	}
	if (o.session.pid && (o.session.all || o.session.cmd)) {
		fprintf(stderr, "entrytrace record: -p goes alone, without -a or a command\n");
		goto bad;
	}
	if (o.session.summary + o.session.aggregate + o.session.batch > 1) {
		fprintf(stderr, "entrytrace record: --summary, --aggregate and --batch are three modes: give one\n");
		goto bad;
	}
	if (!o.session.pid && !o.session.all && !o.session.cmd) {
		fprintf(stderr, "entrytrace record: nothing to record: give a command, -p PID or -a\n");
		goto bad;
	}
	if (!o.compression)
		o.compression = o.file_version >= 7 ? "zstd" : "none";
	if (o.file_version < 7 && strcmp(o.compression, "none")) {
		fprintf(stderr, "entrytrace record: version 6 files are uncompressed\n");
		goto bad;
	}
	if (strcmp(o.compression, "none") && !compression_ok(&o)) {
		static const char *const known[] = { "zstd", "zlib" };
		char can[64] = "";
		struct record_opts t = o;

		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			t.compression = known[i];
			if (compression_ok(&t))
				snprintf(can + strlen(can), sizeof(can) - strlen(can), "%s, ", known[i]);
		}
		fprintf(stderr, "entrytrace record: --compression '%s': this libtracecmd cannot "
			"write it; it writes %snone\n", o.compression, can);
		goto bad;
	}
	ret = record(&o);
	free(events);
	return ret;
bad:
	et_usage_hint("entrytrace record");
	free(events);
	return ET_EXIT_USAGE;
}
