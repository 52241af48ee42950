// SPDX-License-Identifier: LGPL-2.1
/*
 * Two plugin outputs side by side: their tables' rows paired by syscall
 * and account, and a count of a class or kind per call or per syscall.
 * The diff's tables (render_mix.c) and --fail-on's class rules (gate.c)
 * both read the two files through these.
 */
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

size_t et_mix_pairs(const struct et_mix *ma, const struct et_mix *mb,
		    struct et_mix_pair **out)
{
	const struct et_mix_stat *sa, *sb;
	size_t na = et_mix_stats(ma, &sa), nb = et_mix_stats(mb, &sb), n = 0;
	struct et_mix_pair *p = calloc(na + nb + 1, sizeof(*p));

	*out = p;
	if (!p)
		return 0;
	for (size_t i = 0; i < na; i++) {
		const char *name = et_mix_name(ma, sa[i].name);
		const char *acc = et_mix_name(ma, sa[i].account);

		p[n++] = (struct et_mix_pair){ name, acc, &sa[i], et_mix_stat(mb, name, acc) };
	}
	for (size_t i = 0; i < nb; i++) {
		const char *name = et_mix_name(mb, sb[i].name);
		const char *acc = et_mix_name(mb, sb[i].account);

		if (!et_mix_stat(ma, name, acc))
			p[n++] = (struct et_mix_pair){ name, acc, NULL, &sb[i] };
	}
	return n;
}

double et_mix_per(const struct et_mix *m, const struct et_mix_stat *st, const char *what,
		  bool is_class, const struct et_mix_stat *over)
{
	if (!over || !over->n)
		return 0;
	return (double)et_mix_sum(m, et_mix_name(m, st->name), et_mix_name(m, st->account),
				  what, is_class) / (double)over->n;
}
