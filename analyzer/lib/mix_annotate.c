// SPDX-License-Identifier: LGPL-2.1
/*
 * Annotate plugin output with what only the vmlinux knows: the kernel's
 * release ("kernel" line, from its banner) and the source line of every
 * instruction the tables counted ("src ID FUNC@FILE:LINE ...", from its
 * DWARF), so that the files carry their attribution wherever they go and
 * the tests read it without the kernel build.  The vmlinux must be the
 * kernel that ran: its build id is the file's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "entrytrace-local.h"
#include "mix-write.h"

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int lines_add(struct lines *l, char *s)
{
	if (!s || et_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(char *))) {
		free(s);
		return -1;
	}
	l->v[l->n++] = s;
	return 0;
}

/* Every line of a plain or gzip'd text file, without newlines. */
static int read_lines(const char *path, struct lines *l, char *errbuf, size_t errlen)
{
	gzFile f = gzopen(path, "rb");
	char buf[8192];
	char *cur = NULL;
	size_t len = 0;
	int gzerr;

	if (!f) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (gzgets(f, buf, sizeof(buf))) {
		size_t n = strlen(buf);
		char *c = realloc(cur, len + n + 1);

		if (!c)
			goto nomem;
		cur = c;
		memcpy(cur + len, buf, n + 1);
		len += n;
		if (len && cur[len - 1] == '\n') {
			cur[len - 1] = '\0';
			if (lines_add(l, cur))
				goto nomem_added;
			cur = NULL;
			len = 0;
		}
	}
	if (!gzeof(f)) {
		const char *why = gzerror(f, &gzerr);

		snprintf(errbuf, errlen, "%s: %s", path, gzerr == Z_ERRNO ? strerror(errno) : why);
		free(cur);
		gzclose(f);
		return -1;
	}
	free(cur);
	gzclose(f);
	return 0;
nomem:
	free(cur);
nomem_added:
	gzclose(f);
	snprintf(errbuf, errlen, "out of memory");
	return -1;
}

static bool starts(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (s[n] == ' ' || !s[n]);
}

/* lines (the first the magic, no end line) and their end line, to path */
static int write_lines(const char *path, const struct lines *l, char *errbuf, size_t errlen)
{
	size_t plen = strlen(path);
	bool gz = plen > 3 && !strcmp(path + plen - 3, ".gz");
	char tmp[4096];
	uLong crc = crc32(0, Z_NULL, 0);
	gzFile gf = NULL;
	FILE *f = NULL;
	int ok = 0;

	snprintf(tmp, sizeof(tmp), "%s.annotate-tmp", path);
	if (gz)
		gf = gzopen(tmp, "wb9");
	else
		f = fopen(tmp, "w");
	if (!gf && !f) {
		snprintf(errbuf, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i <= l->n; i++) {
		char end[64];
		const char *s = l->v[i];

		if (i == l->n) {
			snprintf(end, sizeof(end), "end %zu %08lx", l->n, crc);
			s = end;
		} else {
			crc = crc32(crc, (const Bytef *)s, (uInt)strlen(s));
			crc = crc32(crc, (const Bytef *)"\n", 1);
		}
		if (gz)
			ok |= gzputs(gf, s) < 0 || gzputc(gf, '\n') < 0;
		else
			ok |= fputs(s, f) < 0 || fputc('\n', f) < 0;
	}
	if (gz)
		ok |= gzclose(gf) != Z_OK;
	else
		ok |= fclose(f) != 0;
	if (ok || rename(tmp, path)) {
		snprintf(errbuf, errlen, "writing %s: %s", path, strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Does the innermost frame ("F@FILE:LINE") name a file and a line? */
static bool has_line(const char *frames)
{
	size_t len = strcspn(frames, " ");
	const char *at = memchr(frames, '@', len), *colon = NULL;

	for (const char *c = at ? at : frames; c < frames + len; c++)
		if (*c == ':')
			colon = c;
	return at && colon && colon != at + 1 && strncmp(at + 1, "?:", 2) &&
	       atoi(colon + 1) > 0;
}

int et_mix_annotate(const char *path, const char *vmlinux, struct et_annotate_result *res,
		    char *errbuf, size_t errlen)
{
	struct et_mix *m;
	struct et_srcmap *sm = NULL;
	struct lines in = { 0 }, out = { 0 };
	const struct et_mix_insn *insns;
	enum et_err err;
	char frames[4096];
	size_t n;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	m = et_mix_open(path, &err, errbuf, errlen);
	if (!m)
		return -1;
	if (et_mix_version(m) < 2) {
		snprintf(errbuf, errlen, "%s: a version %d file: only version 2 files list their "
			 "instructions", path, et_mix_version(m));
		goto done;
	}
	if (!et_mix_complete(m)) {
		snprintf(errbuf, errlen, "%s: no end line: the file is cut short", path);
		goto done;
	}
	sm = et_srcmap_open(vmlinux, errbuf, errlen);
	if (!sm)
		goto done;
	if (strcmp(et_srcmap_build_id(sm), et_mix_build_id(m) ? et_mix_build_id(m) : "")) {
		snprintf(errbuf, errlen, "%s: build id %s, but the kernel that ran was %s",
			 vmlinux, et_srcmap_build_id(sm)[0] ? et_srcmap_build_id(sm) : "(none)",
			 et_mix_build_id(m) ? et_mix_build_id(m) : "?");
		goto done;
	}
	snprintf(res->release, sizeof(res->release), "%s", et_srcmap_release(sm));
	if (!res->release[0]) {
		snprintf(errbuf, errlen, "%s: no \"Linux version\" banner: not a vmlinux?", vmlinux);
		goto done;
	}
	if (et_mix_release(m) && strcmp(et_mix_release(m), res->release)) {
		snprintf(errbuf, errlen, "%s: names kernel %s, %s is %s", path, et_mix_release(m),
			 vmlinux, res->release);
		goto done;
	}
	if (read_lines(path, &in, errbuf, errlen))
		goto done;
	/* the lines as they are, but the old src lines and the end line */
	for (size_t i = 0; i < in.n; i++) {
		if (starts(in.v[i], "src") || starts(in.v[i], "end"))
			continue;
		if (lines_add(&out, strdup(in.v[i])))
			goto nomem;
		if (i == 0 && !et_mix_release(m) &&
		    lines_add(&out, mix_str(KERNEL, .release = res->release)))
			goto nomem;
	}
	n = et_mix_insns(m, &insns);
	res->insns = n;
	for (size_t i = 0; i < n; i++) {
		if (et_srcmap_lookup(sm, insns[i].addr, frames, sizeof(frames)))
			continue;
		res->resolved++;
		if (has_line(frames))
			res->with_lines++;
		if (lines_add(&out, mix_str(SRC, .insn = i, .frames = frames)))
			goto nomem;
	}
	ret = write_lines(path, &out, errbuf, errlen);
	goto done;
nomem:
	snprintf(errbuf, errlen, "out of memory");
done:
	lines_free(&in);
	lines_free(&out);
	et_srcmap_close(sm);
	et_mix_free(m);
	return ret;
}
