// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace: syscall entry/exit stage timelines from trace-cmd recordings.
 * The command dispatcher; each subcommand lives in builtin-<name>.c with
 * its own usage text.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"

const char *et_version = "0.1";

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	bool reads_files;	/* parses trace.dat: run it contained */
};

static const struct cmd commands[] = {
	{ .name = "report", .fn = cmd_report, .reads_files = true,
	  .summary = "per-syscall stage statistics of one or more trace.dat files" },
	{ .name = "list", .fn = cmd_list, .reads_files = true,
	  .summary = "one line per syscall with its stage times (--min-dur, --slowest)" },
	{ .name = "diff", .fn = cmd_diff, .reads_files = true,
	  .summary = "compare two kernels stage by stage, with confidence intervals" },
	{ .name = "export", .fn = cmd_export, .reads_files = true,
	  .summary = "syscall and stage timelines as Trace Event JSON (Perfetto, Chrome)" },
	{ .name = "record", .fn = cmd_record,
	  .summary = "record a trace.dat of the running kernel's syscall path (root)" },
	{ .name = "top", .fn = cmd_top,
	  .summary = "live per-syscall x stage table of the running kernel (root)" },
	{ .name = "annotate", .fn = cmd_annotate,
	  .summary = "name the source line of every instruction in QEMU plugin output" },
	{ .name = "kit", .fn = cmd_kit,
	  .summary = "measure on your machine: instructions per op or cycles per instruction (root)" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: entrytrace [--version] [--help] <command> [<args>]\n"
		"\n"
		"Turns trace-cmd recordings of the syscall entry/exit path into per-syscall\n"
		"stage timelines and statistics.  Reads entry_stage:* events of an entrytrace\n"
		"kernel, or raw_syscalls and friends of any stock kernel; records them too\n"
		"(record), or shows the table live (top).\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"'entrytrace <command> --help' describes a command and its options.\n"
		"\n"
		"exit status: 0 done, 1 runtime failure, 2 usage error, 3 unreadable or\n"
		"corrupt input, 4 nothing to report, 5 lost events (report --strict),\n"
		"6 a diff --fail-on rule tripped, 7 a --fail-on rule checked nothing,\n"
		"8 the data has holes (pages the file holds could not be read).\n");
}

/*
 * libtraceevent and libtracecmd can crash on a corrupt trace.dat (the fuzzer
 * finds such inputs; see Documentation/robustness.md).  Commands that parse
 * files therefore run in a child: if the libraries crash, the parent says so
 * in one line and exits 3, as for any other unreadable input; a child ended
 * by a signal from outside (SIGPIPE of a closed pipe, SIGINT) ends the parent
 * with the same signal.  Nothing half
 * written can be mistaken for a report: output is rendered only after all
 * the reading is done.  ENTRYTRACE_NO_FORK=1 runs in-process (debuggers).
 */
/* Signals a library fault raises, as opposed to ones sent from outside. */
static bool crash_signal(int sig)
{
	switch (sig) {
	case SIGSEGV:
	case SIGBUS:
	case SIGFPE:
	case SIGILL:
	case SIGABRT:
	case SIGTRAP:
	case SIGSYS:
		return true;
	}
	return false;
}

static int run_contained(const struct cmd *c, int argc, char **argv)
{
	int status;
	pid_t pid;

	if (getenv("ENTRYTRACE_NO_FORK"))
		return c->fn(argc, argv);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return c->fn(argc, argv);
	if (pid == 0)
		exit(c->fn(argc, argv));	/* exit: stdio is flushed as usual */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return ET_EXIT_FAIL;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (!crash_signal(WTERMSIG(status))) {
		/* SIGPIPE, SIGINT, SIGTERM...: end the way the child did */
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return ET_EXIT_FAIL;
	}
	fprintf(stderr, "entrytrace %s: the trace libraries crashed reading the input "
		"(signal %d: %s): the file is corrupt\n", c->name, WTERMSIG(status),
		strsignal(WTERMSIG(status)));
	return ET_EXIT_INPUT;
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return ET_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			char *args[] = { argv[2], "--help", NULL };

			for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				if (!strcmp(commands[i].name, argv[2]))
					return commands[i].fn(2, args);
		}
		usage(stdout);
		return ET_EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("entrytrace %s\n", et_version);
		return ET_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].reads_files ?
				run_contained(&commands[i], argc - 1, argv + 1) :
				commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "entrytrace: '%s' is not a command; see 'entrytrace --help'\n", name);
	return ET_EXIT_USAGE;
}
