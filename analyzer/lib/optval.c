// SPDX-License-Identifier: LGPL-2.1
/*
 * Option values: a comma list split into its items, and the one-line error
 * that names a bad value.  The program's options and the library's own
 * parsers of option text (gate.c's --fail-on rules) share them.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
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

/* Text a strto*() may read as a whole number: not empty, not led by a blank. */
static bool number_text(const char *arg)
{
	return arg && *arg && !isspace((unsigned char)*arg);
}

bool et_parse_int(const char *arg, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	if (!number_text(arg))
		return false;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (*end || errno == ERANGE || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

int et_opt_int(const char *who, const char *opt, const char *arg, long long lo, long long hi,
	       const char *expect, long long *out)
{
	if (!et_parse_int(arg, lo, hi, out))
		return et_bad_value(who, opt, arg ? arg : "", expect);
	return 0;
}

int et_opt_u64(const char *who, const char *opt, const char *arg, const char *expect,
	       uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* strtoull() takes "-1" as 2^64 - 1: a sign is refused first */
	if (!number_text(arg) || *arg == '-' || *arg == '+')
		return et_bad_value(who, opt, arg ? arg : "", expect);
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (*end || errno == ERANGE)
		return et_bad_value(who, opt, arg, expect);
	*out = v;
	return 0;
}

int et_opt_real(const char *who, const char *opt, const char *arg, double lo, double hi,
		unsigned int open, const char *expect, double *out)
{
	char *end;
	double v;

	if (!number_text(arg))
		return et_bad_value(who, opt, arg ? arg : "", expect);
	errno = 0;
	v = strtod(arg, &end);
	if (*end || errno == ERANGE || !isfinite(v) ||
	    !(open & ET_OPT_OPEN_LO ? v > lo : v >= lo) ||
	    !(open & ET_OPT_OPEN_HI ? v < hi : v <= hi))
		return et_bad_value(who, opt, arg, expect);
	*out = v;
	return 0;
}
