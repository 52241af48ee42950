// SPDX-License-Identifier: LGPL-2.1
/*
 * Option values: a comma list split into its items, and the one-line error
 * that names a bad value.  The program's options and the library's own
 * parsers of option text (gate.c's --fail-on rules) share them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

int et_for_each_csv(const char *list, int (*fn)(const char *item, void *data),
		    void *data)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = fn(tok, data);
	free(copy);
	return ret;
}

int et_bad_value(const char *who, const char *opt, const char *value, const char *expect)
{
	fprintf(stderr, "%s: %s '%s': %s\n", who, opt, value, expect);
	return -1;
}
