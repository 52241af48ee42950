/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A .mix line's shape, made from mix-format.def's MIX_RECORD lists: which
 * records there are, their fields and the fields' types, and one check of
 * a line against them.  The library's reader (analyzer/lib/mix.c) checks
 * every line it reads with it before it takes the fields; the QEMU plugin
 * (analyzer/qemu-plugin/output.c) checks every line it wrote, so a writer
 * and the list that disagree fail in the plugin's tests, not in a reader.
 *
 * A field's place on the line is MIX_POS(SYM, name): its index among the
 * tokens after the record's word.  A METS field (always a record's last
 * fixed field) takes MIX_NR_METS tokens.
 */
#ifndef ET_MIX_SHAPE_H
#define ET_MIX_SHAPE_H

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mix_type { MIX_T_WORD, MIX_T_NUM, MIX_T_HEX, MIX_T_REAL, MIX_T_REAL1, MIX_T_METS, MIX_T_PAIR };

enum {
#define MIX_MET(SYM, name) MIX_MET_##SYM,
#include "mix-format.def"
	MIX_NR_METS
};

/* one index for every record and field, a record's fields after it */
enum mix_fi {
#define MIX_RECORD(SYM, word, since, what) MIX_FI_##SYM,
#define MIX_FIELD(SYM, name, TYPE) MIX_FI_##SYM##_##name,
#define MIX_REST(SYM, name, TYPE) MIX_FI_##SYM##_##name,
#define MIX_END(SYM) MIX_FI_##SYM##_END,
#include "mix-format.def"
	MIX_NR_FI
};

enum mix_rec {
#define MIX_RECORD(SYM, word, since, what) MIX_R_##SYM,
#include "mix-format.def"
	MIX_NR_RECORDS
};

#define MIX_POS(SYM, name) (MIX_FI_##SYM##_##name - MIX_FI_##SYM - 1)
#define MIX_FIXED_MAX 16	/* tokens before a record's rest, at most */

static const struct mix_field_def {
	signed char type;	/* enum mix_type; -1 a record's own entry */
	bool rest;
	const char *name;
} mix_fields[MIX_NR_FI] = {
#define MIX_RECORD(SYM, word, since, what) [MIX_FI_##SYM] = { -1, false, #word },
#define MIX_FIELD(SYM, name, TYPE) [MIX_FI_##SYM##_##name] = { MIX_T_##TYPE, false, #name },
#define MIX_REST(SYM, name, TYPE) [MIX_FI_##SYM##_##name] = { MIX_T_##TYPE, true, #name },
#define MIX_END(SYM) [MIX_FI_##SYM##_END] = { -1, false, NULL },
#include "mix-format.def"
};

static const struct mix_record_def {
	const char *word;
	int since;		/* the first version with it */
	int fi, end;		/* its fields: mix_fields[fi + 1 .. end - 1] */
} mix_records[MIX_NR_RECORDS] = {
#define MIX_RECORD(SYM, word, since, what) \
	[MIX_R_##SYM] = { #word, since, MIX_FI_##SYM, MIX_FI_##SYM##_END },
#include "mix-format.def"
};

/* The record whose word this is; -1 none. */
static inline int mix_record_of(const char *word)
{
	for (int r = 0; r < MIX_NR_RECORDS; r++)
		if (!strcmp(word, mix_records[r].word))
			return r;
	return -1;
}

/* A line's tokens after its word, typed by its record's fields. */
struct mix_toks {
	char **tok;
	int n;
	uint64_t u[MIX_FIXED_MAX];	/* NUM, HEX; a METS field's columns from its place */
	double d[MIX_FIXED_MAX];	/* REAL, REAL1 */
};

static inline bool mix_num(const char *s, uint64_t *v, int base)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !*end && !errno;
}

/* A record's field names, "name account n ...", for a message. */
static inline void mix_field_names(const struct mix_record_def *r, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int f = r->fi + 1; f < r->end && o < size; f++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s%s", o ? " " : "", mix_fields[f].name,
				      mix_fields[f].rest ? "..." : "");
}

/*
 * Check tokens t->tok[0 .. n-1] (after the word) against record @rec in a
 * file of version @version, and type them into t->u and t->d.  NULL if the
 * line has the record's shape, else why (in @why), naming the field.
 */
static inline const char *mix_shape_check(int rec, int version, struct mix_toks *t,
					  char *why, size_t len)
{
	const struct mix_record_def *r = &mix_records[rec];
	const struct mix_field_def *rest = NULL;
	int fixed = 0, pos = 0;

	for (int f = r->fi + 1; f < r->end; f++) {
		const struct mix_field_def *fd = &mix_fields[f];

		if (fd->rest)
			rest = fd;
		else
			fixed += fd->type == MIX_T_METS ? MIX_NR_METS : 1;
	}
	if (version < r->since) {
		snprintf(why, len, "a %s line in a version %d file (version %d on)", r->word,
			 version, r->since);
		return why;
	}
	if (t->n < fixed || (!rest && t->n > fixed)) {
		char names[256];

		mix_field_names(r, names, sizeof(names));
		snprintf(why, len, "malformed %s line: %d field%s after its word, not %s%d (%.100s)", r->word,
			 t->n, t->n == 1 ? "" : "s", rest ? "at least " : "", fixed, names);
		return why;
	}
	for (int f = r->fi + 1; f < r->end; f++) {
		const struct mix_field_def *fd = &mix_fields[f];
		int k = fd->type == MIX_T_METS ? MIX_NR_METS : 1;

		if (fd->rest)
			break;
		for (int i = 0; i < k; i++, pos++) {
			const char *s = t->tok[pos];
			uint64_t *u = pos < MIX_FIXED_MAX ? &t->u[pos] : &(uint64_t){ 0 };
			char *end;
			bool ok = true;

			switch (fd->type) {
			case MIX_T_NUM:
			case MIX_T_METS:
				ok = mix_num(s, u, 10);
				break;
			case MIX_T_HEX:
				ok = !strncmp(s, "0x", 2) && mix_num(s + 2, u, 16);
				break;
			case MIX_T_REAL:
			case MIX_T_REAL1:
				if (pos < MIX_FIXED_MAX) {
					t->d[pos] = strtod(s, &end);
					ok = end != s && !*end && isfinite(t->d[pos]);
				}
				break;
			case MIX_T_PAIR:
				ok = strchr(s, '=') != NULL;
				break;
			}
			if (!ok) {
				snprintf(why, len, "malformed %s line: its %s '%.40s' is not %s", r->word, fd->name,
					 s, fd->type == MIX_T_HEX ? "0x and hexadecimal digits" :
					 fd->type == MIX_T_REAL || fd->type == MIX_T_REAL1 ?
					 "a finite number" :
					 fd->type == MIX_T_PAIR ? "KEY=VALUE" : "an unsigned number");
				return why;
			}
		}
	}
	for (; rest && pos < t->n; pos++)
		if (rest->type == MIX_T_PAIR && !strchr(t->tok[pos], '=')) {
			snprintf(why, len, "malformed %s line: its %s '%.40s' is not KEY=VALUE", r->word,
				 rest->name, t->tok[pos]);
			return why;
		} else if (rest->type == MIX_T_NUM && !mix_num(t->tok[pos], &(uint64_t){ 0 }, 10)) {
			snprintf(why, len, "malformed %s line: its %s '%.40s' is not an unsigned number", r->word,
				 rest->name, t->tok[pos]);
			return why;
		}
	return NULL;
}

#endif /* ET_MIX_SHAPE_H */
