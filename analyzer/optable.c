// SPDX-License-Identifier: GPL-2.0
/*
 * A command's own options as one table (struct et_optdef, builtin.h):
 * each entry names an option, the type, range and home of its value and
 * its --help text, so getopt's table, the parsing with its checks and the
 * option lines of --help are made from one place.  et_next_option() takes
 * a table's typed options itself and hands the command only the
 * ET_OPTK_CALL ones (a choice, a list, an action).
 */
#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

/* The column --help's option texts start at, after the option itself. */
#define HELP_COL 25

static const struct option common_longopts[] = {
	ET_COMMON_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
};
static const struct option format_longopts[] = { ET_FORMAT_LONGOPTS };
static const struct option output_longopt = { "output", required_argument, NULL, 'o' };

static bool has_short(const struct et_optdef *d)
{
	return d->key > 0 && d->key < 128 && isalnum(d->key);
}

static void add(struct et_cmdline *cl, size_t *n, const struct option *o)
{
	if (*n + 1 >= sizeof(cl->longopts_buf) / sizeof(cl->longopts_buf[0])) {
		fprintf(stderr, "entrytrace: more options than et_cmdline holds (%zu)\n", *n);
		abort();
	}
	cl->longopts_buf[(*n)++] = *o;
}

void et_optdefs_build(struct et_cmdline *cl, char *shortopts, size_t size)
{
	size_t n = 0, o = strlen(shortopts);

	for (const struct et_optdef *d = cl->defs; d->name; d++) {
		add(cl, &n, &(struct option){ d->name, !d->arg ? no_argument : d->optional ?
					      optional_argument : required_argument, NULL, d->key });
		if (has_short(d)) {
			if (o + 3 >= size) {
				fprintf(stderr, "entrytrace: more short options than et_cmdline holds "
					"(%zu bytes)\n", size);
				abort();
			}
			shortopts[o++] = (char)d->key;
			if (d->arg)
				shortopts[o++] = ':';
			if (d->arg && d->optional)
				shortopts[o++] = ':';
			shortopts[o] = '\0';
		}
	}
	for (size_t i = 0; i < sizeof(common_longopts) / sizeof(common_longopts[0]); i++)
		if (!cl->own_only || common_longopts[i].val == 'h')
			add(cl, &n, &common_longopts[i]);
	for (size_t i = 0; cl->fmt && i < sizeof(format_longopts) / sizeof(format_longopts[0]); i++)
		add(cl, &n, &format_longopts[i]);
	if (cl->output)
		add(cl, &n, &output_longopt);
	cl->longopts_buf[n] = (struct option){ NULL, 0, NULL, 0 };
	cl->longopts = cl->longopts_buf;
}

const struct et_optdef *et_optdef_of(const struct et_optdef *defs, int key)
{
	for (const struct et_optdef *d = defs; d && d->name; d++)
		if (d->key == key)
			return d;
	return NULL;
}

int et_optdef_take(const char *who, const struct et_optdef *d, const char *arg)
{
	char opt[64];
	long long v;

	snprintf(opt, sizeof(opt), "--%s", d->name);
	switch (d->kind) {
	case ET_OPTK_CALL:
		return 0;
	case ET_OPTK_FLAG:
		*(bool *)d->value = true;
		return 1;
	case ET_OPTK_INT:
		if (et_opt_int(who, opt, arg, d->lo, d->hi, d->expect, &v))
			return -1;
		*(int *)d->value = (int)v;
		return 1;
	case ET_OPTK_LL:
		if (et_opt_int(who, opt, arg, d->lo, d->hi, d->expect, &v))
			return -1;
		*(long long *)d->value = v;
		return 1;
	case ET_OPTK_U64:
		return et_opt_u64(who, opt, arg, d->expect, d->value) ? -1 : 1;
	case ET_OPTK_REAL:
		return et_opt_real(who, opt, arg, d->rlo, d->rhi, d->open, d->expect, d->value) ?
			-1 : 1;
	case ET_OPTK_STR:
		*(const char **)d->value = arg;
		return 1;
	}
	return 0;
}

void et_optdefs_usage(FILE *f, const struct et_optdef *defs)
{
	et_optdefs_usage_n(f, defs, SIZE_MAX);
}

void et_optdefs_usage_n(FILE *f, const struct et_optdef *defs, size_t max)
{
	for (const struct et_optdef *d = defs; d->name && max; d++, max--) {
		char head[96];
		int n;

		n = snprintf(head, sizeof(head), "%s--%s%s%s%s", has_short(d) ? "" : "    ",
			     d->name, d->arg ? (d->optional ? "[=" : "=") : "", d->arg ? d->arg : "",
			     d->arg && d->optional ? "]" : "");
		if (has_short(d))
			fprintf(f, "  -%c, %s", d->key, head);
		else
			fprintf(f, "  %s", head);
		n += 2 + (has_short(d) ? 4 : 0);
		if (n < HELP_COL - 1)
			fprintf(f, "%*s", HELP_COL - n, "");
		else
			fprintf(f, "\n%*s", HELP_COL, "");
		for (const char *p = d->help; *p;) {
			size_t len = strcspn(p, "\n");

			fprintf(f, "%.*s\n", (int)len, p);
			p += len;
			if (*p == '\n' && *++p)
				fprintf(f, "%*s", HELP_COL, "");
		}
	}
}
