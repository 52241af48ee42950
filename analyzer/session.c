// SPDX-License-Identifier: GPL-2.0
/*
 * A tracing session on the running kernel (session.h): the part 'record'
 * and 'top' share.
 *
 * Everything happens in a tracefs instance of the session's own, so other
 * users of the top-level buffer are not disturbed, and only event files,
 * buffer_size_kb, tracing_on, set_event_pid / set_event_notrace_pid and
 * options/event-fork of that instance are written.  The function tracer's
 * files (set_ftrace_*, available_filter_functions, ftrace_enabled), which
 * a locked-down kernel refuses and on which 'trace-cmd record' fails, are
 * never opened.
 *
 * The instance is removed by et_session_free(), which the commands call on
 * every path; SIGINT, SIGTERM and SIGHUP only ask the commands to finish,
 * and an atexit handler removes an instance an early exit() left behind.
 * A SIGKILLed session leaves "entrytrace-PID" in tracefs/instances, still
 * tracing: et_session_sweep() (every new session, and 'record --clean')
 * finds the instances of pids that no longer run entrytrace, names them
 * and removes them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "builtin.h"
#include "session.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct et_session {
	const char *who;
	struct tracefs_instance *instance;
	char **events;		/* "system:event" */
	int nr_events;
	int cpus;
	bool all;
	bool quiet;
	int pid;		/* -p */
	pid_t child;		/* -- CMD */
	int go_fd;		/* the command waits for a byte here */
	int err_fd;		/* ...and reports a failed exec here */
	int child_status;
	bool child_done;
	char *pid_before;	/* entry_stage.pid as it was, restored at the end */
	char target[256];
};

static volatile sig_atomic_t stop_requested;
static struct et_session *current;	/* for the atexit handler */

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Only there to cut a sleep short when the command exits. */
static void on_child(int sig)
{
	(void)sig;
}

static void at_exit(void)
{
	if (current)
		et_session_free(current);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	static bool done;

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep or a blocking read returns early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	/* a closed stdout must end the session cleanly, not kill it */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	atexit(at_exit);
}

bool et_session_interrupted(void)
{
	return stop_requested;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

/*
 * The events besides entry_stage's, from the analyzer's one table
 * (lib/events.def): TASK ones always (task life cycle and names), IRQ
 * ones except in summary mode (interrupts inside a syscall cannot be
 * placed from one event per syscall), STOCK ones on a kernel without
 * entry_stage events; ARGS ones only when asked for with -e (they put
 * the tracepoint work on the path of the syscalls they trace).
 */
enum record_class { REC_TASK, REC_IRQ, REC_STOCK, REC_ARGS };

static const struct ev_spec {
	const char *sys;
	const char *name;
	enum record_class cls;
} table_events[] = {
#define ET_EVENT(sys, name, handler, family, record, link) { #sys, #name, REC_##record },
#include "events.def"
#undef ET_EVENT
};

static int add_event_name(struct et_session *s, const char *glob)
{
	char **p = realloc(s->events, (s->nr_events + 1) * sizeof(*p));

	if (!p)
		return -1;
	s->events = p;
	p[s->nr_events] = strdup(glob);
	if (!p[s->nr_events])
		return -1;
	s->nr_events++;
	return 0;
}

/* 1: enabled, 0: this kernel has no such event, -1: error */
static int enable_one(struct et_session *s, const char *sys, const char *name)
{
	char glob[256];

	if (!tracefs_event_file_exists(s->instance, sys, name, "enable"))
		return 0;
	if (tracefs_event_file_write(s->instance, sys, name, "enable", "1") < 0) {
		fprintf(stderr, "%s: cannot enable %s:%s: %s\n", s->who, sys, name,
			strerror(errno));
		return -1;
	}
	snprintf(glob, sizeof(glob), "%s:%s", sys, name);
	return add_event_name(s, glob) ? -1 : 1;
}

/*
 * Every table event of a class this kernel has, in table order, but the
 * one named @skip (or NULL).
 */
static int enable_class_but(struct et_session *s, enum record_class cls, const char *skip)
{
	for (size_t i = 0; i < ARRAY_LEN(table_events); i++)
		if (table_events[i].cls == cls &&
		    !(skip && !strcmp(table_events[i].name, skip)) &&
		    enable_one(s, table_events[i].sys, table_events[i].name) < 0)
			return -1;
	return 0;
}

static int enable_class(struct et_session *s, enum record_class cls)
{
	return enable_class_but(s, cls, NULL);
}

/*
 * entrytrace kernel: the per-stage event or only the summary, and the
 * stamp calibration either way.
 */
static int enable_stages(struct et_session *s, bool summary)
{
	if (enable_one(s, "entry_stage", summary ? "entry_stage_summary" :
						     "entry_stage_time") < 0 ||
	    enable_one(s, "entry_stage", "entry_stage_calib") < 0)
		return -1;
	return 0;
}

/* A -e glob (sched_*, sys_e?it) as a regex; libtracefs anchors it. */
static char *glob_regex(const char *glob)
{
	char *re = malloc(2 * strlen(glob) + 1), *p = re;

	if (!re)
		return NULL;
	for (; *glob; glob++) {
		if (*glob == '*') {
			*p++ = '.';
			*p++ = '*';
		} else if (*glob == '?') {
			*p++ = '.';
		} else {
			*p++ = *glob;
		}
	}
	*p = '\0';
	return re;
}

static int enable_user_event(struct et_session *s, const char *spec)
{
	char *sys = strdup(spec), *sep, *sys_re = NULL, *ev_re = NULL;
	char glob[256];
	const char *ev;
	int ret = -1;

	if (!sys)
		return -1;
	sep = strpbrk(sys, ":/");
	if (sep)
		*sep = '\0';
	ev = sep && sep[1] && strcmp(sep + 1, "*") ? sep + 1 : NULL;
	sys_re = glob_regex(sys);
	if (ev)
		ev_re = glob_regex(ev);
	if (!sys_re || (ev && !ev_re))
		goto out;
	if (tracefs_event_enable(s->instance, sys_re, ev_re) < 0) {
		fprintf(stderr, "%s: no event matches '%s' (see %s/available_events)\n",
			s->who, spec, tracefs_tracing_dir());
		ret = -2;
		goto out;
	}
	/* the trace.dat's event list takes the same globs */
	snprintf(glob, sizeof(glob), "%s%s%s", sys, ev ? ":" : "", ev ? ev : "");
	ret = add_event_name(s, glob);
out:
	free(sys);
	free(sys_re);
	free(ev_re);
	return ret;
}

static int enable_events(struct et_session *s, const struct et_session_opts *o)
{
	bool stages = tracefs_event_file_exists(s->instance, "entry_stage",
						"entry_stage_summary", "enable");

	if (o->summary && !stages) {
		fprintf(stderr, "%s: --summary needs an entrytrace kernel (no entry_stage events here)\n",
			s->who);
		return ET_EXIT_USAGE;
	}
	if (o->batch) {
		/*
		 * (et_session_new() checked that the kernel has the event.)
		 * No pid filter can apply, a batch is written by whichever
		 * task fills it: the task events but the per-switch one.
		 */
		if (enable_one(s, "entry_stage", "entry_stage_batch") < 0 ||
		    enable_one(s, "entry_stage", "entry_stage_calib") < 0 ||
		    enable_class_but(s, REC_TASK, "sched_switch"))
			return ET_EXIT_FAIL;
	} else if (o->aggregate) {
		if (!tracefs_event_file_exists(s->instance, "entry_stage", "entry_stage_hist",
					       "enable")) {
			fprintf(stderr, "%s: --aggregate needs an entrytrace kernel with entry_stage:entry_stage_hist (series v3)\n",
				s->who);
			return ET_EXIT_USAGE;
		}
		/* cells only: no task, no interrupt, nothing per syscall */
		if (enable_one(s, "entry_stage", "entry_stage_hist") < 0)
			return ET_EXIT_FAIL;
	} else if (enable_class(s, REC_TASK)) {
		return ET_EXIT_FAIL;
	} else if (stages) {
		if (enable_stages(s, o->summary))
			return ET_EXIT_FAIL;
		if (!o->summary && enable_class(s, REC_IRQ))
			return ET_EXIT_FAIL;
	} else {
		if (enable_class(s, REC_STOCK) || enable_class(s, REC_IRQ))
			return ET_EXIT_FAIL;
	}
	for (int i = 0; i < o->nr_events; i++) {
		int r = enable_user_event(s, o->events[i]);

		if (r)
			return r == -2 ? ET_EXIT_USAGE : ET_EXIT_FAIL;
	}
	return ET_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Who is traced                                                       */

static int write_file(struct et_session *s, const char *file, const char *val)
{
	if (tracefs_instance_file_write(s->instance, file, val) < 0) {
		fprintf(stderr, "%s: cannot write '%s' to %s of instance %s: %s\n",
			s->who, val, file, tracefs_instance_get_name(s->instance),
			strerror(errno));
		return -1;
	}
	return 0;
}

static int follow_pid(struct et_session *s, int pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", pid);
	if (write_file(s, "set_event_pid", buf))
		return -1;
	/* children the task forks from now on are added to the filter */
	if (tracefs_option_enable(s->instance, TRACEFS_OPTION_EVENT_FORK) < 0) {
		fprintf(stderr, "%s: cannot set options/event-fork: children of %d will not be traced\n",
			s->who, pid);
	}
	return 0;
}

/* -a: every thread of this process goes into set_event_notrace_pid. */
static int exclude_self(struct et_session *s)
{
	char buf[1024];
	size_t len = 0;
	struct dirent *d;
	DIR *dir;

	if (!tracefs_file_exists(s->instance, "set_event_notrace_pid")) {
		fprintf(stderr, "%s: this kernel has no set_event_notrace_pid: the recorder's own syscalls are traced too\n",
			s->who);
		return 0;
	}
	dir = opendir("/proc/self/task");
	if (!dir) {
		len = snprintf(buf, sizeof(buf), "%d", (int)getpid());
	} else {
		while ((d = readdir(dir)) && len < sizeof(buf) - 16)
			if (d->d_name[0] != '.')
				len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
						len ? " " : "", d->d_name);
		closedir(dir);
	}
	return write_file(s, "set_event_notrace_pid", buf);
}

/*
 * The command is forked now and execs only when et_session_start() writes
 * to go_fd, after its pid is in the filter and tracing is on.  A failed
 * exec comes back through err_fd (close-on-exec: EOF means it ran).
 */
static int fork_cmd(struct et_session *s, char **argv)
{
	int go[2], err[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		fprintf(stderr, "%s: pipe: %s\n", s->who, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", s->who, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		char c;
		int e;

		sigemptyset(&dfl.sa_mask);
		sigaction(SIGPIPE, &dfl, NULL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the session gave up before starting */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	s->child = pid;
	s->go_fd = go[1];
	s->err_fd = err[0];
	return 0;
}

/* ------------------------------------------------------------------ */
/* --batch: the kernel chooses the tasks (entry_stage.pid)             */

#define STAGE_PARAMS "/sys/module/entry_stage/parameters/"

/* An entry_stage module parameter's value without its newline, or NULL (errno). */
static char *stage_param_read(const char *name)
{
	char path[128], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), STAGE_PARAMS "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/* Write an entry_stage module parameter; a failure is one line, with @then (or NULL). */
static int stage_param_write(const char *who, const char *name, const char *val,
			     const char *then)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), STAGE_PARAMS "%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	if (!ok)
		fprintf(stderr, "%s: cannot write '%s' to %s: %s%s%s\n", who, val, path,
			strerror(errno), then ? ": " : "", then ? then : "");
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* How many tasks have stamp scratch (entry_stage.scratch), or -1. */
static long stage_armed_tasks(const char *who)
{
	char *v = stage_param_read("scratch"), *end;
	long n = -1;

	if (v)
		n = strtol(v, &end, 10);
	if (!v || *end || end == v || n < 0) {
		fprintf(stderr, "%s: cannot read " STAGE_PARAMS "scratch%s%s\n", who,
			v ? ": not a count: " : ": ", v ? v : strerror(errno));
		n = -1;
	}
	free(v);
	return n;
}

/* The thread group of @pid (the kernel arms thread groups), or -1. */
static int tgid_of(int pid)
{
	char path[64], line[128];
	int tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/*
 * Before the events go on: entry_stage.pid is read when staging is
 * switched on, so it must be written first, and staging must be off (a
 * staging already on keeps the tasks it armed).  @tgid 0: every task.
 */
static int batch_arm(struct et_session *s, int tgid)
{
	long armed = stage_armed_tasks(s->who);
	char buf[32];

	if (armed < 0)
		return -1;
	if (armed) {
		fprintf(stderr, "%s: staging is already on: %ld tasks were armed by another "
			"recording of entry_stage events, and --batch arms its own tasks when it "
			"turns staging on; end that recording first\n", s->who, armed);
		return -1;
	}
	s->pid_before = stage_param_read("pid");
	if (!s->pid_before) {
		fprintf(stderr, "%s: cannot read " STAGE_PARAMS "pid: %s\n", s->who,
			strerror(errno));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%d", tgid);
	if (stage_param_write(s->who, "pid", buf, NULL)) {
		free(s->pid_before);
		s->pid_before = NULL;
		return -1;
	}
	return 0;
}

/* After the events went on: the kernel armed at least one task. */
static int batch_armed(struct et_session *s)
{
	long armed = stage_armed_tasks(s->who);

	if (armed < 0)
		return -1;
	if (!armed) {
		fprintf(stderr, "%s: no task was armed (entry_stage.scratch is 0 with "
			"entry_stage_batch on): did the task exit?\n", s->who);
		return -1;
	}
	return 0;
}

/*
 * --batch: no pid filter (a batch holds the records of every armed task
 * and is written by whichever task fills it, or a timer); the kernel
 * arms the tasks instead: a command's or a task's thread group and what
 * it forks, or every task (-a, the recorder's own syscalls among them).
 */
static int batch_target(struct et_session *s, const struct et_session_opts *o)
{
	int tgid = 0;

	if (o->pid) {
		tgid = tgid_of(o->pid);
		if (tgid < 0) {
			fprintf(stderr, "%s: no process %d\n", s->who, o->pid);
			return -2;
		}
		s->pid = o->pid;
		snprintf(s->target, sizeof(s->target),
			 "thread group %d and what it forks from now on (entry_stage.pid)", tgid);
	} else if (o->cmd && o->cmd[0]) {
		if (fork_cmd(s, o->cmd))
			return -1;
		if (!o->all)
			tgid = s->child;
		snprintf(s->target, sizeof(s->target), "%s%s (pid %d)%s",
			 o->all ? "system-wide while " : "", o->cmd[0], (int)s->child,
			 o->all ? ", this process too (entry_stage.pid 0)" :
			 " and what it forks (entry_stage.pid)");
	} else {
		snprintf(s->target, sizeof(s->target),
			 "system-wide, this process (pid %d) too (entry_stage.pid 0)", (int)getpid());
	}
	return batch_arm(s, tgid);
}

static int choose_target(struct et_session *s, const struct et_session_opts *o)
{
	if (o->batch)
		return batch_target(s, o);
	if (o->all && exclude_self(s))
		return -1;
	if (o->pid) {
		if (kill(o->pid, 0) < 0 && errno == ESRCH) {
			fprintf(stderr, "%s: no process %d\n", s->who, o->pid);
			return -2;
		}
		s->pid = o->pid;
		snprintf(s->target, sizeof(s->target), "pid %d and its new children", o->pid);
		return follow_pid(s, o->pid);
	}
	if (o->cmd && o->cmd[0]) {
		if (fork_cmd(s, o->cmd))
			return -1;
		if (!o->all && follow_pid(s, s->child))
			return -1;
		snprintf(s->target, sizeof(s->target), "%s%s (pid %d)%s",
			 o->all ? "system-wide while " : "", o->cmd[0], (int)s->child,
			 o->all ? ", without this process" : " and its children");
		return 0;
	}
	snprintf(s->target, sizeof(s->target), "system-wide, without this process (pid %d)",
		 (int)getpid());
	return 0;
}

/* choose_target()'s result as an ET_EXIT_* code: -2 is a bad pid (usage) */
static int target_exit(int r)
{
	return r == -2 ? ET_EXIT_USAGE : r ? ET_EXIT_FAIL : ET_EXIT_OK;
}

/* ------------------------------------------------------------------ */

/*
 * Whether pid is an entrytrace that runs: alive, and its command name is
 * ours (a pid reused by another program is not).
 */
bool et_pid_is_entrytrace(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return true;	/* (alive, and not ours to look at: leave it) */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, "entrytrace");
}

/* "entrytrace-PID" or "entrytrace-PID-N": PID, else -1 */
static long instance_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "entrytrace-", 11) || name[11] < '1' || name[11] > '9')
		return -1;
	pid = strtol(name + 11, &end, 10);
	if (*end == '-' && end[1] >= '0' && end[1] <= '9')
		strtol(end + 1, &end, 10);
	return *end ? -1 : pid;
}

struct sweep {
	const char *who;
	int removed, failed;
};

/*
 * A killed 'record --batch' left entry_stage.pid set: every later
 * staging would arm that thread group alone.  Set back to every task.
 */
static void sweep_batch_pid(struct sweep *sw)
{
	char *pid = stage_param_read("pid");

	if (pid && strcmp(pid, "0") && !stage_param_write(sw->who, "pid", "0", NULL))
		fprintf(stderr, "%s: set entry_stage.pid back from %s to 0 (every task), as the "
			"killed 'record --batch' left it\n", sw->who, pid);
	free(pid);
}

static int sweep_one(const char *name, void *data)
{
	struct sweep *sw = data;
	struct tracefs_instance *in;
	long pid = instance_pid(name);
	char *kb, *batch;
	int on;

	if (pid < 0 || pid == getpid() || et_pid_is_entrytrace(pid))
		return 0;
	in = tracefs_instance_alloc(NULL, name);
	if (!in)
		return 0;
	on = tracefs_trace_is_on(in);
	kb = tracefs_instance_file_read(in, "buffer_size_kb", NULL);
	if (kb)
		kb[strcspn(kb, "\n")] = '\0';
	batch = tracefs_event_file_read(in, "entry_stage", "entry_stage_batch", "enable", NULL);
	tracefs_trace_off(in);
	if (tracefs_instance_destroy(in) < 0) {
		fprintf(stderr, "%s: a stale tracefs instance %s (pid %ld no longer runs "
			"entrytrace) could not be removed: %s\n", sw->who, name, pid, strerror(errno));
		sw->failed++;
	} else {
		fprintf(stderr, "%s: removed the stale tracefs instance %s: pid %ld no longer "
			"runs entrytrace (killed?); it was %s, %s KB per CPU\n", sw->who, name, pid,
			on > 0 ? "still tracing" : "not tracing", kb ? kb : "?");
		sw->removed++;
		if (batch && batch[0] == '1')
			sweep_batch_pid(sw);
	}
	free(batch);
	free(kb);
	tracefs_instance_free(in);
	return 0;
}

int et_session_sweep(const char *who, int *failed)
{
	struct sweep sw = { .who = who };

	if (!tracefs_tracing_dir())
		return 0;
	tracefs_instances_walk(sweep_one, &sw);
	if (failed)
		*failed = sw.failed;
	return sw.removed;
}

/* entrytrace-PID, or entrytrace-PID-N if another pid namespace has it */
static struct tracefs_instance *new_instance(const char *who)
{
	char name[64];

	for (int i = 0; i < 100; i++) {
		struct tracefs_instance *in;

		if (i)
			snprintf(name, sizeof(name), "entrytrace-%d-%d", (int)getpid(), i);
		else
			snprintf(name, sizeof(name), "entrytrace-%d", (int)getpid());
		in = tracefs_instance_create(name);
		if (!in) {
			fprintf(stderr, "%s: cannot create tracefs instance %s: %s%s\n", who,
				name, strerror(errno),
				errno == EACCES || errno == EPERM ? " (run as root)" : "");
			return NULL;
		}
		if (tracefs_instance_is_new(in))
			return in;
		tracefs_instance_free(in);	/* someone else's: leave it */
	}
	fprintf(stderr, "%s: no free instance name\n", who);
	return NULL;
}

int et_session_new(const struct et_session_opts *o, struct et_session **sp)
{
	struct et_session *s;
	char buf[32];
	int ret = ET_EXIT_FAIL;

	*sp = NULL;
	if (!tracefs_tracing_dir()) {
		fprintf(stderr, "%s: tracefs is not mounted and cannot be (mount -t tracefs nodev /sys/kernel/tracing)\n",
			o->who);
		return ET_EXIT_FAIL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return ET_EXIT_FAIL;
	s->who = o->who;
	s->quiet = o->quiet;
	s->all = o->all;
	s->go_fd = s->err_fd = -1;
	s->child_status = -1;
	s->cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	install_signals();
	/* what a killed session left: named and removed before a new one */
	et_session_sweep(o->who, NULL);
	s->instance = new_instance(o->who);
	if (!s->instance)
		goto fail;
	current = s;
	/* a new instance starts with tracing on: nothing before start */
	if (tracefs_trace_off(s->instance) < 0) {
		fprintf(stderr, "%s: cannot turn tracing off in the instance\n", s->who);
		goto fail;
	}
	snprintf(buf, sizeof(buf), "%lu", o->buffer_kb);
	if (write_file(s, "buffer_size_kb", buf))
		goto fail;
	if (o->batch && !tracefs_event_file_exists(s->instance, "entry_stage",
						   "entry_stage_batch", "enable")) {
		fprintf(stderr, "%s: --batch needs an entrytrace kernel with entry_stage:entry_stage_batch (series v4)\n",
			s->who);
		ret = ET_EXIT_USAGE;
		goto fail;
	}
	if (o->batch) {
		/* entry_stage.pid first: the kernel reads it when the events turn staging on */
		ret = target_exit(choose_target(s, o));
		if (!ret)
			ret = enable_events(s, o);
		if (!ret && batch_armed(s))
			ret = ET_EXIT_FAIL;
	} else {
		ret = enable_events(s, o);
		if (!ret)
			ret = target_exit(choose_target(s, o));
	}
	if (ret)
		goto fail;
	*sp = s;
	return ET_EXIT_OK;
fail:
	et_session_free(s);
	return ret;
}

int et_session_start(struct et_session *s)
{
	int e = 0;
	ssize_t n;

	if (tracefs_trace_on(s->instance) < 0) {
		fprintf(stderr, "%s: cannot turn tracing on: %s\n", s->who, strerror(errno));
		return ET_EXIT_FAIL;
	}
	if (!s->child)
		return ET_EXIT_OK;
	if (write(s->go_fd, "g", 1) != 1) {
		fprintf(stderr, "%s: cannot start the command: %s\n", s->who, strerror(errno));
		return ET_EXIT_FAIL;
	}
	close(s->go_fd);
	s->go_fd = -1;
	do
		n = read(s->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(s->err_fd);
	s->err_fd = -1;
	if (n == sizeof(e)) {
		fprintf(stderr, "%s: cannot run the command: %s\n", s->who, strerror(e));
		return ET_EXIT_FAIL;
	}
	return ET_EXIT_OK;
}

static void reap(struct et_session *s)
{
	int status;

	if (!s->child || s->child_done)
		return;
	if (waitpid(s->child, &status, WNOHANG) == s->child) {
		s->child_done = true;
		s->child_status = status;
	}
}

bool et_session_running(struct et_session *s)
{
	if (stop_requested)
		return false;
	if (s->child) {
		reap(s);
		return !s->child_done;
	}
	if (s->pid)
		return !(kill(s->pid, 0) < 0 && errno == ESRCH);
	return true;
}

bool et_session_wait(struct et_session *s, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	if (!et_session_running(s))
		return false;
	nanosleep(&ts, NULL);	/* EINTR on a signal is the point */
	return et_session_running(s);
}

/* Signal every pid the instance follows (the command and its children). */
static void signal_followed(struct et_session *s, int sig)
{
	char *pids = tracefs_instance_file_read(s->instance, "set_event_pid", NULL);

	for (char *p = pids, *end; p && *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && pid != getpid())
			kill((pid_t)pid, sig);
	}
	free(pids);
	if (s->child)
		kill(s->child, sig);
}

void et_session_end_cmd(struct et_session *s)
{
	if (!s->child || s->child_done)
		return;
	signal_followed(s, SIGTERM);
	for (int i = 0; i < 100 && et_session_running(s); i++)
		usleep(10000);
	if (et_session_running(s))
		signal_followed(s, SIGKILL);
	reap(s);
}

int et_session_flush_hist(struct et_session *s)
{
	/* the cells are written in this process's context: no pid filter */
	if (tracefs_file_exists(s->instance, "set_event_pid") &&
	    write_file(s, "set_event_pid", ""))
		return ET_EXIT_FAIL;
	if (tracefs_file_exists(s->instance, "set_event_notrace_pid") &&
	    write_file(s, "set_event_notrace_pid", ""))
		return ET_EXIT_FAIL;
	if (stage_param_write(s->who, "hist_flush", "1",
			      "the kernel's cells are not in the recording"))
		return ET_EXIT_FAIL;
	return ET_EXIT_OK;
}

int et_session_flush_batch(struct et_session *s)
{
	/* the events of the flush have no pid filter to pass (--batch sets none) */
	if (stage_param_write(s->who, "batch_flush", "1",
			      "the records still in the kernel's batches are not in the recording"))
		return ET_EXIT_FAIL;
	return ET_EXIT_OK;
}

void et_session_stop(struct et_session *s)
{
	if (s->instance)
		tracefs_trace_off(s->instance);
}

void et_session_free(struct et_session *s)
{
	if (!s)
		return;
	if (current == s)
		current = NULL;
	if (s->go_fd >= 0) {
		/* a command still waiting to exec exits on EOF */
		close(s->go_fd);
		if (s->child)
			waitpid(s->child, NULL, 0);
	}
	if (s->err_fd >= 0)
		close(s->err_fd);
	if (s->instance) {
		tracefs_trace_off(s->instance);
		if (tracefs_instance_destroy(s->instance) < 0)
			fprintf(stderr, "%s: could not remove tracefs instance %s: %s\n",
				s->who, tracefs_instance_get_name(s->instance),
				strerror(errno));
		tracefs_instance_free(s->instance);
	}
	/* staging is off with the instance's events: the next one reads this */
	if (s->pid_before) {
		stage_param_write(s->who, "pid", s->pid_before,
				  "later staging arms this thread group alone");
		free(s->pid_before);
	}
	for (int i = 0; i < s->nr_events; i++)
		free(s->events[i]);
	free(s->events);
	free(s);
}

struct tracefs_instance *et_session_instance(struct et_session *s)
{
	return s->instance;
}

char *const *et_session_events(struct et_session *s, int *n)
{
	*n = s->nr_events;
	return s->events;
}

const char *et_session_target(struct et_session *s)
{
	return s->target;
}

int et_session_cpus(struct et_session *s)
{
	return s->cpus;
}

int et_session_cmd_status(struct et_session *s)
{
	reap(s);
	return s->child_done ? s->child_status : -1;
}
