// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace: syscall entry/exit stage timelines from trace-cmd recordings.
 * The command dispatcher; each subcommand lives in builtin-<name>.c with
 * its own usage text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

const char *et_version = "0.1";

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "report", cmd_report, "per-syscall stage statistics of one or more trace.dat files" },
	{ "diff", cmd_diff, "compare two kernels stage by stage, with confidence intervals" },
	{ "export", cmd_export, "syscall and stage timelines as Trace Event JSON (Perfetto, Chrome)" },
	{ .name = "record", .fn = cmd_record,
	  .summary = "record a trace.dat of the running kernel's syscall path (root)" },
	{ .name = "top", .fn = cmd_top,
	  .summary = "live per-syscall x stage table of the running kernel (root)" },
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
		"6 a diff --fail-on rule tripped.\n");
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
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "entrytrace: '%s' is not a command; see 'entrytrace --help'\n", name);
	return ET_EXIT_USAGE;
}
