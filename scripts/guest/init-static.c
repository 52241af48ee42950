// SPDX-License-Identifier: GPL-2.0
/*
 * init-static: the guest /init where there is no busybox and no trace-cmd
 * (the 32-bit powerpc guests: Debian has no port for them).  Static, built
 * by scripts/guest/mkinitramfs with the guest's cross compiler.
 *
 * It mounts proc, sysfs, devtmpfs, a tmpfs on /tmp and tracefs, reads
 * /plan.env (NAME=VALUE lines, put in its environment) and runs /plan.cmds,
 * one command a line ('#' starts a comment, $NAME is replaced from the
 * environment):
 *
 *   echo TEXT...          a line in the plan log
 *   write FILE TEXT...    write TEXT to FILE (a tracefs or sysfs knob)
 *   copy FILE NAME        copy FILE to OUT/NAME
 *   run NAME CMD ARG...   run CMD, its stdout appended to OUT/NAME
 *   tests DIR TIMEOUT     run the selftests DIR/tests lists, from DIR, one a
 *                         line: NAME [VAR=VALUE...] PROGRAM ARG...; stdout and
 *                         stderr to OUT/selftest-NAME.log, which then ends in
 *                         rc=STATUS (124 when killed after TIMEOUT seconds,
 *                         128+N on signal N) and seconds=WALL, as
 *                         scripts/guest/plan-selftests.sh writes them; a
 *                         failing test does not stop the plan
 *   record NAME EVENTS CMD ARG...
 *                         trace CMD and its children with EVENTS (comma
 *                         separated SYSTEM:EVENT), as trace-cmd record -F -c
 *                         does: set_event_pid and event-fork, the ring
 *                         buffer emptied and sized to $BUFFER_KB (default
 *                         8192) KB per CPU first; CMD's stdout goes to
 *                         OUT/NAME.expect.  Then the raw ring-buffer pages
 *                         of every CPU (per_cpu/cpuN/trace_pipe_raw) go to
 *                         OUT/NAME/cpuN.raw and the metadata a trace.dat
 *                         needs (header_page, header_event, every event
 *                         format and the list of the enabled ones, saved_cmdlines, printk_formats,
 *                         trace_clock, per-CPU stats, /proc/version and
 *                         uname(2) as trace-cmd's uname option has it) to
 *                         OUT/NAME/; scripts/host/trace-dat-build makes the
 *                         trace.dat on the host.
 *   recordall NAME EVENTS FLUSH CMD ARG...
 *                         as record, but every task is traced (no pid
 *                         filter: series v4's packed batches are written by
 *                         whichever task fills them), and "1" is written to
 *                         the file FLUSH after CMD and before the ring
 *                         buffer stops (entry_stage.batch_flush: the last
 *                         batches)
 *
 * A failing command stops the plan.  Then OUT is sent as a tar, raw, on the
 * second serial port (ttyS1, ttyPZ1 or hvc1) and the console gets
 * "ENTRYTRACE-RESULT rc=RC size=N sha256=SUM", as scripts/guest/init does.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define OUT	"/tmp/out"
#define T	"/sys/kernel/tracing"

static FILE *plog;

static void logf_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(plog ? plog : stderr, fmt, ap);
	va_end(ap);
	if (plog)
		fflush(plog);
}

/* ---- files ---- */

/* @trunc: truncate, and create a file that is not there (not in tracefs) */
static int write_file(const char *path, const char *text, int trunc)
{
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : 0));

	if (fd < 0 && errno == ENOENT && trunc && strncmp(path, T, strlen(T)))
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0) {
		logf_("init: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (len && write(fd, text, len) != len) {
		logf_("init: write '%s' to %s: %s\n", text, path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int write_fmt(const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write_file(path, buf, 1);
}

/* Copy @src to @dst; with @nonblock, read until the source has no more. */
static long copy_file(const char *src, const char *dst, int nonblock)
{
	static char buf[65536];
	int in = open(src, O_RDONLY | (nonblock ? O_NONBLOCK : 0));
	int out;
	long total = 0;
	ssize_t n;

	if (in < 0) {
		logf_("init: open %s: %s\n", src, strerror(errno));
		return -1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		logf_("init: create %s: %s\n", dst, strerror(errno));
		close(in);
		return -1;
	}
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			logf_("init: read %s: %s\n", src, strerror(errno));
			total = -1;
			break;
		}
		if (n == 0)
			break;
		if (write(out, buf, n) != n) {
			logf_("init: write %s: %s\n", dst, strerror(errno));
			total = -1;
			break;
		}
		total += n;
	}
	close(in);
	close(out);
	return total;
}

static void mkdirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

/* ---- commands ---- */

/*
 * Run argv, its stdout appended to outfile.  With trace set, tracing is on
 * while it runs: for it and its children (a pid filter), or with all for
 * every task; flush, if set, is written "1" after it and before tracing
 * stops.
 */
static int run_cmd(char **argv, const char *outfile, bool trace, bool all,
		   const char *flush)
{
	int go[2];
	pid_t pid;
	int st;

	if (pipe(go) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char c;
		int fd = open(outfile, O_WRONLY | O_CREAT | O_APPEND, 0644);

		close(go[1]);
		if (fd >= 0) {
			dup2(fd, 1);
			close(fd);
		}
		if (plog)
			dup2(fileno(plog), 2);
		/* wait until the parent has set up tracing for this pid */
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		close(go[0]);
		execv(argv[0], argv);
		fprintf(stderr, "init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (trace) {
		/* as trace-cmd record -F -c: this pid and the children it forks */
		if ((!all && (write_fmt(T "/set_event_pid", "%d", (int)pid) ||
			      write_file(T "/options/event-fork", "1", 1))) ||
		    write_file(T "/tracing_on", "1", 1)) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
	}
	if (write(go[1], "g", 1) != 1)
		logf_("init: cannot start %s\n", argv[0]);
	close(go[1]);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (trace && flush && write_file(flush, "1", 1))
		logf_("init: cannot write %s: the last batches are not recorded\n", flush);
	if (trace)
		write_file(T "/tracing_on", "0", 1);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		logf_("init: %s: %s %d\n", argv[0], WIFEXITED(st) ? "exit" : "signal",
		      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One selftest: @argv is [VAR=VALUE...] PROGRAM ARG..., in its own group. */
static int run_test(const char *name, char **argv, int timeout)
{
	char log[512], tail[64];
	sigset_t chld, old;
	double t0 = now_s();
	int st = 0, rc, killed = 0;
	long secs;
	pid_t pid;

	snprintf(log, sizeof(log), OUT "/selftest-%s.log", name);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		sigprocmask(SIG_SETMASK, &old, NULL);
		setpgid(0, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		for (; *argv && strchr(*argv, '=') && **argv != '/' && **argv != '.'; argv++)
			putenv(*argv);
		if (!*argv)
			_exit(127);
		execv(argv[0], argv);
		fprintf(stderr, "init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		double left = timeout - (now_s() - t0);
		struct timespec ts;
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			return -1;
		}
		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			killed = 1;
			break;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sigtimedwait(&chld, NULL, &ts);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	rc = killed ? 124 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	secs = (long)(now_s() - t0);
	snprintf(tail, sizeof(tail), "rc=%d\nseconds=%ld\n", rc, secs);
	{
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd < 0 || write(fd, tail, strlen(tail)) != (ssize_t)strlen(tail)) {
			logf_("init: %s: %s\n", log, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	logf_("# %s rc=%d seconds=%ld\n", name, rc, secs);
	return 0;
}

/* tests DIR TIMEOUT: every line of DIR/tests, from DIR */
static int do_tests(const char *dir, const char *timeout)
{
	char path[512], line[1024];
	char *end;
	long tmo = strtol(timeout, &end, 10);
	int n = 0, rc = 0;
	FILE *f;

	if (*end || tmo <= 0) {
		logf_("init: tests: bad timeout '%s'\n", timeout);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/tests", dir);
	f = fopen(path, "r");
	if (!f || chdir(dir)) {
		logf_("init: tests: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *argv[64];
		int argc = 0;

		line[strcspn(line, "\n")] = '\0';
		for (char *w = strtok(line, " \t"); w && argc < 63; w = strtok(NULL, " \t"))
			argv[argc++] = w;
		argv[argc] = NULL;
		if (argc < 2)
			continue;
		if (run_test(argv[0], argv + 1, (int)tmo)) {
			rc = -1;
			break;
		}
		n++;
	}
	fclose(f);
	if (chdir("/"))
		rc = -1;
	if (!rc && !n) {
		logf_("init: tests: %s lists no test\n", path);
		rc = -1;
	}
	return rc;
}

/* every events/SYSTEM/EVENT/format (and the ftrace ones) under @dir/events */
static int copy_formats(const char *dir)
{
	DIR *d = opendir(T "/events"), *e;
	struct dirent *s, *v;
	char src[1024], dst[1024];
	int n = 0;

	if (!d)
		return -1;
	while ((s = readdir(d))) {
		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(src, sizeof(src), T "/events/%s", s->d_name);
		e = opendir(src);
		if (!e)
			continue;
		while ((v = readdir(e))) {
			if (v->d_name[0] == '.' || v->d_type != DT_DIR)
				continue;
			snprintf(src, sizeof(src), T "/events/%s/%s/format", s->d_name, v->d_name);
			snprintf(dst, sizeof(dst), "%s/events/%s", dir, s->d_name);
			mkdirs(dst);
			snprintf(dst, sizeof(dst), "%s/events/%s/%s", dir, s->d_name, v->d_name);
			if (copy_file(src, dst, 0) > 0)
				n++;
		}
		closedir(e);
	}
	closedir(d);
	return n;
}

static int do_record(const char *name, char *events, bool all, const char *flush,
		     char **argv)
{
	char dir[256], path[1024], dst[1024], expect[512];
	const char *kb = getenv("BUFFER_KB");
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), total = 0;
	int rc;

	snprintf(dir, sizeof(dir), OUT "/%s", name);
	mkdirs(dir);
	if (write_file(T "/tracing_on", "0", 1) ||
	    write_file(T "/events/enable", "0", 1) ||
	    write_file(T "/set_event_pid", "", 1) ||
	    write_file(T "/buffer_size_kb", kb ? kb : "8192", 1) ||
	    write_file(T "/trace", "", 1))
		return -1;
	snprintf(dst, sizeof(dst), "%s/enabled", dir);
	if (write_file(dst, events, 1))
		return -1;
	for (char *ev = strtok(events, ","); ev; ev = strtok(NULL, ",")) {
		char *colon = strchr(ev, ':');

		if (!colon) {
			logf_("init: record: event '%s' is not SYSTEM:EVENT\n", ev);
			return -1;
		}
		*colon = '\0';
		snprintf(path, sizeof(path), T "/events/%s/%s/enable", ev, colon + 1);
		if (write_file(path, "1", 1))
			return -1;
	}
	snprintf(expect, sizeof(expect), OUT "/%s.expect", name);
	rc = run_cmd(argv, expect, true, all, flush);
	write_file(T "/events/enable", "0", 1);
	for (long cpu = 0; cpu < ncpu; cpu++) {
		long n;

		snprintf(path, sizeof(path), T "/per_cpu/cpu%ld/trace_pipe_raw", cpu);
		snprintf(dst, sizeof(dst), "%s/cpu%ld.raw", dir, cpu);
		n = copy_file(path, dst, 1);
		if (n < 0)
			return -1;
		total += n;
		snprintf(path, sizeof(path), T "/per_cpu/cpu%ld/stats", cpu);
		snprintf(dst, sizeof(dst), "%s/cpu%ld.stats", dir, cpu);
		copy_file(path, dst, 0);
	}
	snprintf(dst, sizeof(dst), "%s/ncpus", dir);
	write_fmt(dst, "%ld\n", ncpu);
	static const char *const meta[] = {
		"events/header_page", "events/header_event", "saved_cmdlines",
		"printk_formats", "trace_clock",
	};
	for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]); i++) {
		snprintf(path, sizeof(path), T "/%s", meta[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, strrchr(meta[i], '/') ?
			 strrchr(meta[i], '/') + 1 : meta[i]);
		if (copy_file(path, dst, 0) < 0)
			return -1;
	}
	snprintf(dst, sizeof(dst), "%s/version", dir);
	copy_file("/proc/version", dst, 0);
	{
		struct utsname u;

		snprintf(dst, sizeof(dst), "%s/uname", dir);
		if (!uname(&u))
			write_fmt(dst, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
	}
	if (copy_formats(dir) <= 0)
		return -1;
	logf_("init: record %s: %ld bytes of ring buffer from %ld CPU(s)\n", name, total, ncpu);
	return rc;
}

/* $NAME from the environment */
static void expand(const char *in, char *out, size_t size)
{
	size_t o = 0;

	while (*in && o + 1 < size) {
		if (*in == '$' && (in[1] == '_' || (in[1] >= 'A' && in[1] <= 'Z'))) {
			char name[64];
			size_t n = 0;
			const char *v;

			in++;
			while ((*in == '_' || (*in >= 'A' && *in <= 'Z') ||
				(*in >= '0' && *in <= '9')) && n + 1 < sizeof(name))
				name[n++] = *in++;
			name[n] = '\0';
			v = getenv(name);
			while (v && *v && o + 1 < size)
				out[o++] = *v++;
			continue;
		}
		out[o++] = *in++;
	}
	out[o] = '\0';
}

static int run_plan(const char *path)
{
	FILE *f = fopen(path, "r");
	char raw[4096], line[4096];
	int lineno = 0;

	if (!f) {
		logf_("init: no plan %s\n", path);
		return 2;
	}
	while (fgets(raw, sizeof(raw), f)) {
		char *argv[128];
		int argc = 0, rc = 0;

		lineno++;
		raw[strcspn(raw, "\n#")] = '\0';
		expand(raw, line, sizeof(line));
		for (char *w = strtok(line, " \t"); w && argc < 127; w = strtok(NULL, " \t"))
			argv[argc++] = w;
		argv[argc] = NULL;
		if (!argc)
			continue;
		if (!strcmp(argv[0], "echo")) {
			for (int i = 1; i < argc; i++)
				logf_("%s%s", argv[i], i + 1 < argc ? " " : "\n");
		} else if (!strcmp(argv[0], "write") && argc >= 3) {
			char text[1024] = "";

			for (int i = 2; i < argc; i++) {
				strncat(text, argv[i], sizeof(text) - strlen(text) - 2);
				if (i + 1 < argc)
					strcat(text, " ");
			}
			rc = write_file(argv[1], text, 1);
		} else if (!strcmp(argv[0], "copy") && argc == 3) {
			char dst[512];

			snprintf(dst, sizeof(dst), OUT "/%s", argv[2]);
			rc = copy_file(argv[1], dst, 0) < 0;
		} else if (!strcmp(argv[0], "run") && argc >= 3) {
			char out[512];

			snprintf(out, sizeof(out), OUT "/%s", argv[1]);
			rc = run_cmd(argv + 2, out, false, false, NULL);
		} else if (!strcmp(argv[0], "tests") && argc == 3) {
			rc = do_tests(argv[1], argv[2]) < 0;
		} else if (!strcmp(argv[0], "record") && argc >= 4) {
			rc = do_record(argv[1], argv[2], false, NULL, argv + 3);
		} else if (!strcmp(argv[0], "recordall") && argc >= 5) {
			rc = do_record(argv[1], argv[2], true, argv[3], argv + 4);
		} else {
			logf_("init: %s:%d: bad command '%s'\n", path, lineno, argv[0]);
			rc = 2;
		}
		if (rc) {
			logf_("init: %s:%d: '%s' failed\n", path, lineno, argv[0]);
			fclose(f);
			return 1;
		}
	}
	fclose(f);
	return 0;
}

static void load_env(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		char *v;
		size_t n;

		line[strcspn(line, "\n")] = '\0';
		if (!eq || line[0] == '#')
			continue;
		*eq = '\0';
		v = eq + 1;
		n = strlen(v);
		if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		setenv(line, v, 1);
	}
	fclose(f);
}

/* ---- tar and sha256 ---- */

static uint32_t sh_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t len;
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
			      sh_k[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
}

static void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;

	while (n--) {
		s->buf[s->len++ % 64] = *p++;
		if (s->len % 64 == 0)
			sha256_block(s, s->buf);
	}
}

static void sha256_hex(struct sha256 *s, char *hex)
{
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, z = 0, l[8];

	sha256_update(s, &pad, 1);
	while (s->len % 64 != 56)
		sha256_update(s, &z, 1);
	for (int i = 0; i < 8; i++)
		l[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(s, l, 8);
	for (int i = 0; i < 8; i++)
		sprintf(hex + 8 * i, "%08x", s->h[i]);
}

struct sink {
	int fd;
	struct sha256 sum;
	unsigned long long size;
};

static void put(struct sink *k, const void *p, size_t n)
{
	const char *c = p;

	sha256_update(&k->sum, p, n);
	k->size += n;
	while (n) {
		ssize_t w = write(k->fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		c += w;
		n -= (size_t)w;
	}
}

static void tar_header(struct sink *k, const char *name, unsigned long long size, int dir)
{
	char h[512];
	unsigned int sum = 0;

	memset(h, 0, sizeof(h));
	snprintf(h, 100, "%s%s", name, dir ? "/" : "");
	snprintf(h + 100, 8, "%07o", dir ? 0755 : 0644);
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	snprintf(h + 124, 12, "%011llo", size);
	snprintf(h + 136, 12, "%011o", 0);
	memset(h + 148, ' ', 8);
	h[156] = dir ? '5' : '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	for (int i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	put(k, h, 512);
}

static void tar_tree(struct sink *k, const char *root, const char *rel)
{
	char path[2048], name[1024];
	struct dirent **list;
	int n;

	snprintf(path, sizeof(path), "%s%s%s", root, *rel ? "/" : "", rel);
	n = scandir(path, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		struct stat st;

		if (list[i]->d_name[0] == '.' && (!list[i]->d_name[1] ||
		    (list[i]->d_name[1] == '.' && !list[i]->d_name[2]))) {
			free(list[i]);
			continue;
		}
		snprintf(name, sizeof(name), "%s%s%s", rel, *rel ? "/" : "", list[i]->d_name);
		snprintf(path, sizeof(path), "%s/%s", root, name);
		free(list[i]);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			tar_header(k, name, 0, 1);
			tar_tree(k, root, name);
		} else if (S_ISREG(st.st_mode)) {
			static char buf[65536];
			int fd = open(path, O_RDONLY);
			unsigned long long left = (unsigned long long)st.st_size;
			ssize_t r;

			tar_header(k, name, left, 0);
			while (fd >= 0 && left && (r = read(fd, buf, sizeof(buf))) > 0) {
				if ((unsigned long long)r > left)
					r = (ssize_t)left;
				put(k, buf, (size_t)r);
				left -= (unsigned long long)r;
			}
			memset(buf, 0, 512);
			while (left) {	/* a file that shrank: keep the size */
				size_t z = left > 512 ? 512 : (size_t)left;

				put(k, buf, z);
				left -= z;
			}
			if (st.st_size % 512)
				put(k, buf, 512 - (size_t)(st.st_size % 512));
			if (fd >= 0)
				close(fd);
		}
	}
	if (n >= 0)
		free(list);
}

static void send_out(int rc)
{
	static const char *const ports[] = { "/dev/ttyS1", "/dev/ttyPZ1", "/dev/hvc1" };
	struct termios tio;
	struct sink k = { .fd = -1 };
	char zero[1024], hex[65];
	const char *port = NULL;

	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]) && k.fd < 0; i++) {
		k.fd = open(ports[i], O_WRONLY | O_NOCTTY);
		port = ports[i];
	}
	if (k.fd < 0) {
		printf("init: no second serial port (ttyS1, ttyPZ1, hvc1)\n");
		return;
	}
	if (!tcgetattr(k.fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(k.fd, TCSANOW, &tio);
	}
	sha256_init(&k.sum);
	tar_tree(&k, OUT, "");
	memset(zero, 0, sizeof(zero));
	put(&k, zero, sizeof(zero));
	tcdrain(k.fd);
	close(k.fd);
	sha256_hex(&k.sum, hex);
	printf("init: sent the results on %s\n", port);
	printf("ENTRYTRACE-RESULT rc=%d size=%llu sha256=%s\n", rc, k.size, hex);
	fflush(stdout);
}

int main(void)
{
	char cmd[64];
	int rc;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mkdir("/tmp", 01777);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sys", "/sys", "sysfs", 0, NULL);
	mount("dev", "/dev", "devtmpfs", 0, NULL);
	mount("tmp", "/tmp", "tmpfs", 0, NULL);
	mount("tracefs", T, "tracefs", 0, NULL);
	/*
	 * under QEMU -icount (run-guest --icount) the clock counts
	 * instructions: recordings carry it in their uname nodename
	 */
	{
		char line[4096] = "";
		int fd = open("/proc/cmdline", O_RDONLY);

		if (fd >= 0) {
			ssize_t n = read(fd, line, sizeof(line) - 1);

			line[n > 0 ? n : 0] = '\0';
			close(fd);
		}
		if (strstr(line, "entrytrace.clock=icount") &&
		    sethostname("qemu-icount", strlen("qemu-icount")))
			perror("sethostname");
	}
	/* quiet console: the kernel's messages stay in its log */
	{
		int fd = open("/proc/sys/kernel/printk", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "1", 1) != 1)
				perror("printk");
			close(fd);
		}
	}
	mkdirs(OUT);
	plog = fopen(OUT "/plan.log", "w");
	setenv("PATH", "/work", 1);
	load_env("/plan.env");
	{
		FILE *v = fopen("/proc/version", "r");
		char ver[256] = "";

		if (v) {
			if (!fgets(ver, sizeof(ver), v))
				ver[0] = '\0';
			fclose(v);
		}
		printf("ENTRYTRACE-GUEST %s", ver);
		fflush(stdout);
	}
	rc = run_plan("/plan.cmds");
	if (plog)
		fclose(plog);
	plog = NULL;
	copy_file("/proc/version", OUT "/version", 0);
	snprintf(cmd, sizeof(cmd), "%d\n", rc);
	{
		int fd = open(OUT "/plan.rc", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			if (write(fd, cmd, strlen(cmd)) < 0)
				perror("plan.rc");
			close(fd);
		}
	}
	copy_file(OUT "/plan.log", "/dev/console", 0);
	send_out(rc);
	sync();
	/*
	 * QEMU -no-reboot exits on a reset, but a PowerMac's restart never
	 * reaches it (the guest loops): power those off through the CUDA.
	 */
	{
		FILE *c = fopen("/proc/cpuinfo", "r");
		char line[256];
		int pmac = 0;

		while (c && fgets(line, sizeof(line), c))
			pmac |= !!strstr(line, "PowerMac");
		if (c)
			fclose(c);
		if (pmac)
			reboot(RB_POWER_OFF);
	}
	reboot(RB_AUTOBOOT);
	return rc;
}
