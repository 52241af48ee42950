// SPDX-License-Identifier: GPL-2.0
/*
 * mix-rewrite: every line of a .mix file, read as its record's fields
 * (mix-shape.h) and written again by the plugin's writer (mix-write.h),
 * compared with the line as it was.  For t-mix-format.sh: the writer
 * made from mix-format.def writes what the plugin wrote by hand.
 *
 *   zcat FILE.mix.gz | mix-rewrite NAME
 *
 * prints "records R lines N differ D facts F" (R the distinct records
 * seen, F the "WORD VALUE" header facts of no record, which it skips)
 * and the first lines that differ; exits 1 if one differs or a line is
 * not its record's shape, 2 if it read no record line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix-write.h"

struct sbuf {
	char p[1 << 16];
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static void emit_sbuf(void *ctx, const char *fmt, ...)
{
	struct sbuf *b = ctx;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b->p + b->n, sizeof(b->p) - b->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->n = b->n + (size_t)k < sizeof(b->p) ? b->n + (size_t)k : sizeof(b->p) - 1;
}

/* Record @rec's struct, in @out, from its typed tokens. */
static void fill(int rec, const struct mix_toks *t, char *rest, size_t rsize, void *out)
{
	const struct mix_record_def *r = &mix_records[rec];
	int pos = 0;

	for (int f = r->fi + 1; f < r->end; f++) {
		const struct mix_field_def *fd = &mix_fields[f];
		char *at = (char *)out + mix_field_off[f];

		if (fd->rest) {
			size_t o = 0;
			const char *s = rest;

			rest[0] = '\0';
			for (int i = pos; i < t->n && o < rsize; i++)
				o += (size_t)snprintf(rest + o, rsize - o, "%s%s", i > pos ? " " : "",
						      t->tok[i]);
			memcpy(at, &s, sizeof(s));
			break;
		}
		switch (fd->type) {
		case MIX_T_WORD:
		case MIX_T_PAIR:
			memcpy(at, &t->tok[pos], sizeof(char *));
			pos++;
			break;
		case MIX_T_NUM:
		case MIX_T_HEX:
			memcpy(at, &t->u[pos], sizeof(uint64_t));
			pos++;
			break;
		case MIX_T_REAL:
		case MIX_T_REAL1:
			memcpy(at, &t->d[pos], sizeof(double));
			pos++;
			break;
		case MIX_T_METS: {
			const uint64_t *m = &t->u[pos];

			memcpy(at, &m, sizeof(m));
			pos += MIX_NR_METS;
			break;
		}
		}
	}
}

int main(int argc, char **argv)
{
	static char line[1 << 16], copy[1 << 16], rest[1 << 16], why[320];
	static char *tok[4096];
	bool seen[MIX_NR_RECORDS] = { false };
	unsigned long lines = 0, differ = 0, facts = 0, ln = 0;
	int version = 0, records = 0;
	const char *name = argc > 1 ? argv[1] : "-";

	while (fgets(line, sizeof(line), stdin)) {
		union {
			char b[512];
			uint64_t align;
		} rec_buf;
		struct sbuf out = { .n = 0 };
		struct mix_toks t;
		char *save = NULL;
		int n = 0, rec;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (ln == 1) {
			if (sscanf(line, "entrytrace-mix %d", &version) != 1) {
				fprintf(stderr, "mix-rewrite: %s: no entrytrace-mix first line\n", name);
				return 2;
			}
			continue;
		}
		if (!strncmp(line, "end ", 4) || !strcmp(line, "end"))
			continue;
		strcpy(copy, line);
		for (char *s = strtok_r(copy, " ", &save); s && n < 4096; s = strtok_r(NULL, " ", &save))
			tok[n++] = s;
		rec = n ? mix_record_of(tok[0]) : -1;
		if (rec < 0) {
			facts++;
			continue;
		}
		t.tok = tok + 1;
		t.n = n - 1;
		if (mix_shape_check(rec, version, &t, why, sizeof(why))) {
			fprintf(stderr, "mix-rewrite: %s line %lu: %s\n", name, ln, why);
			return 1;
		}
		memset(&rec_buf, 0, sizeof(rec_buf));
		fill(rec, &t, rest, sizeof(rest), rec_buf.b);
		mix_write_line(emit_sbuf, &out, rec, rec_buf.b);
		if (out.n)
			out.p[--out.n] = '\0';	/* its newline */
		lines++;
		if (!seen[rec]) {
			seen[rec] = true;
			records++;
		}
		if (strcmp(out.p, line) && ++differ <= 5)
			printf("differs %s line %lu:\n  was %.200s\n  now %.200s\n", name, ln, line,
			       out.p);
	}
	printf("records %d lines %lu differ %lu facts %lu\n", records, lines, differ, facts);
	return differ ? 1 : lines ? 0 : 2;
}
