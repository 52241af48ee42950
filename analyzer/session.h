/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracing session on the running kernel, shared by 'entrytrace record'
 * and 'entrytrace top': its own tracefs instance, the events this kernel
 * has for the analyzer, and what to follow (a command, a task, or the whole
 * system without the session itself).  Only files inside the instance are
 * written; the top-level buffer and the function tracer are not touched.
 */
#ifndef _ET_SESSION_H
#define _ET_SESSION_H

#include <stdbool.h>

struct tracefs_instance;

struct et_session_opts {
	const char *who;	/* "entrytrace record": prefix of messages */
	char **events;		/* -e: added to the default set */
	int nr_events;
	unsigned long buffer_kb;	/* per CPU */
	bool summary;		/* entrytrace kernel: entry_stage:summary only */
	bool aggregate;		/* entrytrace kernel: entry_stage_hist only */
	bool batch;		/* entrytrace kernel: entry_stage_batch, tasks by entry_stage.pid */
	bool all;		/* -a: system-wide, the session's threads excluded */
	int pid;		/* -p: a running task and its new children; 0: none */
	char **cmd;		/* -- CMD: started and followed with its children */
	bool quiet;
};

struct et_session;

/*
 * Create the instance, size its buffers, enable the events and set the
 * pid filters; a command is forked but waits.  Nothing is recorded yet.
 * Returns an ET_EXIT_* code and says why on stderr.
 */
int et_session_new(const struct et_session_opts *opts, struct et_session **sp);
/*
 * --aggregate, before et_session_stop(): let this process's events through
 * the pid filters and write entry_stage.hist_flush, so that the kernel's
 * cells go into the instance.  Returns an ET_EXIT_* code, says why.
 */
int et_session_flush_hist(struct et_session *s);
/*
 * --batch, before et_session_stop(): write entry_stage.batch_flush, so
 * that the records still in the kernel's per-CPU batches go into the
 * instance.  Returns an ET_EXIT_* code, says why.
 */
int et_session_flush_batch(struct et_session *s);
/* Turn recording on and let the command run. */
int et_session_start(struct et_session *s);
/*
 * Sleep up to ms milliseconds, less if a signal or the command's exit
 * comes first.  False once the session should end: SIGINT, SIGTERM,
 * SIGHUP, the command or the task exited.
 */
bool et_session_wait(struct et_session *s, int ms);
bool et_session_running(struct et_session *s);
/* Turn recording off; the buffers keep what they hold. */
void et_session_stop(struct et_session *s);
/*
 * End the command the session started, and the children it forked (the
 * pids the instance follows): SIGTERM, then SIGKILL after a second.
 * Nothing without a command (-p, -a).
 */
void et_session_end_cmd(struct et_session *s);
/* Remove the instance (also done at exit and after SIGINT/SIGTERM). */
void et_session_free(struct et_session *s);

struct tracefs_instance *et_session_instance(struct et_session *s);
/* system:event of every enabled event, for the trace.dat's formats. */
char *const *et_session_events(struct et_session *s, int *n);
/* "pid 123 (cmd) and its children", "system-wide, without pid 45". */
const char *et_session_target(struct et_session *s);
int et_session_cpus(struct et_session *s);
/* The command's wait status, -1 while it runs or without a command. */
int et_session_cmd_status(struct et_session *s);
/*
 * Remove the tracefs instances of sessions whose process no longer runs
 * entrytrace (SIGKILLed: the instance is left, tracing), each named on
 * stderr.  Returns how many; *failed: how many could not be removed.
 * et_session_new() does it first.
 */
int et_session_sweep(const char *who, int *failed);
/* pid runs, and is an entrytrace (not a pid reused by another program). */
bool et_pid_is_entrytrace(long pid);
/* A signal asked the session to end (SIGINT, SIGTERM, SIGHUP). */
bool et_session_interrupted(void);

#endif
