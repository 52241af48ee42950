/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ET_BUILTIN_H
#define _ET_BUILTIN_H

#include <stdio.h>

/* Exit codes every subcommand uses; documented in entrytrace(1). */
enum et_exit {
	ET_EXIT_OK = 0,		/* done */
	ET_EXIT_FAIL = 1,	/* runtime failure: memory, write error, tracefs */
	ET_EXIT_USAGE = 2,	/* bad command line */
	ET_EXIT_INPUT = 3,	/* an input file is missing, unreadable or corrupt */
	ET_EXIT_EMPTY = 4,	/* no syscall events, or nothing matched */
	ET_EXIT_LOST = 5,	/* --strict: lost events touched the result */
};

int cmd_report(int argc, char **argv);

/* Shared by subcommands: split "a,b,c" and call fn for each piece. */
int et_for_each_csv(const char *list, int (*fn)(const char *item, void *data),
		    void *data);

extern const char *et_version;

#endif
