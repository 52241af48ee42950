/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A .mix line written from mix-format.def's MIX_RECORD lists.  Each record
 * SYM is a struct mix_line_SYM whose members are its fields, typed by
 * their format type (a MIX_REST tail is text the caller made, NULL or ""
 * for none), and one writer puts a record's word and fields on a line in
 * the list's order, each in its type's format:
 *
 *	mix_put(f, COUNT, .name = "syscalls", .n = 12);	 "count syscalls 12"
 *
 * So a line's word, its fields' order and each type's way of writing are
 * spelled in mix-format.def and here only, and the compiler checks every
 * field a writer names and its C type.  The QEMU plugin writes every line
 * with it, and `entrytrace annotate` its kernel and src lines (mix_str);
 * analyzer/tests/mix-rewrite.c writes every line of the committed .mix
 * files again with it and compares.
 */
#ifndef ET_MIX_WRITE_H
#define ET_MIX_WRITE_H

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>

#include "mix-shape.h"

#define MIX_CT_WORD  const char *
#define MIX_CT_NUM   uint64_t
#define MIX_CT_HEX   uint64_t
#define MIX_CT_REAL  double
#define MIX_CT_REAL1 double
#define MIX_CT_METS  const uint64_t *	/* MIX_NR_METS columns */
#define MIX_CT_PAIR  const char *

#define MIX_RECORD(SYM, word, since, what) struct mix_line_##SYM {
#define MIX_FIELD(SYM, name, TYPE) MIX_CT_##TYPE name;
#define MIX_REST(SYM, name, TYPE) const char *name;
#define MIX_END(SYM) };
#include "mix-format.def"

/* each field's place in its record's struct */
static const unsigned short mix_field_off[MIX_NR_FI] = {
#define MIX_FIELD(SYM, name, TYPE) [MIX_FI_##SYM##_##name] = offsetof(struct mix_line_##SYM, name),
#define MIX_REST(SYM, name, TYPE) [MIX_FI_##SYM##_##name] = offsetof(struct mix_line_##SYM, name),
#include "mix-format.def"
};

/* Where a line goes: printf-like, to ctx. */
typedef void mix_emit_fn(void *ctx, const char *fmt, ...);

__attribute__((format(printf, 2, 3)))
static inline void mix_emit_file(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(ctx, fmt, ap);
	va_end(ap);
}

/* Record @rec's line from @line, a struct mix_line_SYM, through @emit. */
static inline void mix_write_line(mix_emit_fn *emit, void *ctx, int rec, const void *line)
{
	const struct mix_record_def *r = &mix_records[rec];

	emit(ctx, "%s", r->word);
	for (int f = r->fi + 1; f < r->end; f++) {
		const struct mix_field_def *fd = &mix_fields[f];
		const char *at = (const char *)line + mix_field_off[f];
		const uint64_t *m;
		const char *s;
		uint64_t u;
		double d;

		if (fd->rest || fd->type == MIX_T_WORD || fd->type == MIX_T_PAIR) {
			memcpy(&s, at, sizeof(s));
			if (!fd->rest || (s && *s))
				emit(ctx, " %s", s ? s : "-");
			continue;
		}
		switch (fd->type) {
		case MIX_T_NUM:
			memcpy(&u, at, sizeof(u));
			emit(ctx, " %" PRIu64, u);
			break;
		case MIX_T_HEX:
			memcpy(&u, at, sizeof(u));
			emit(ctx, " 0x%" PRIx64, u);
			break;
		case MIX_T_REAL:
			memcpy(&d, at, sizeof(d));
			emit(ctx, " %.10g", d);
			break;
		case MIX_T_REAL1:
			memcpy(&d, at, sizeof(d));
			emit(ctx, " %.1f", d);
			break;
		case MIX_T_METS:
			memcpy(&m, at, sizeof(m));
			for (int i = 0; i < MIX_NR_METS; i++)
				emit(ctx, " %" PRIu64, m[i]);
			break;
		}
	}
	emit(ctx, "\n");
}

/* Record @rec's line as a string of its own, without its newline; NULL out of memory. */
static inline char *mix_line_strdup(int rec, const void *line)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	mix_write_line(mix_emit_file, f, rec, line);
	if (fclose(f) || !s) {
		free(s);
		return NULL;
	}
	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
	return s;
}

/* mix_put(FILE *f, SYM, .field = value, ...): record SYM's line on f */
#define mix_put(f, SYM, ...)							\
	mix_write_line(mix_emit_file, (f), MIX_R_##SYM,				\
		       &(const struct mix_line_##SYM){ __VA_ARGS__ })
/* mix_str(SYM, .field = value, ...): that line in a malloc()ed string, or NULL */
#define mix_str(SYM, ...)							\
	mix_line_strdup(MIX_R_##SYM, &(const struct mix_line_##SYM){ __VA_ARGS__ })

#endif /* ET_MIX_WRITE_H */
