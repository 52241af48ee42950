// SPDX-License-Identifier: LGPL-2.1
/*
 * Code places: which source line holds an instruction of plugin output,
 * and whose code it is (handler, generic entry, arch entry, tracer, other),
 * from its "src" frames and the table in codeplace.def.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

struct code_row {
	const char *pattern;
	enum et_code code;
};

static const struct code_row code_places[] = {
#define CODE_PLACE(pattern, code) { pattern, ET_CODE_##code },
#include "codeplace.def"
#undef CODE_PLACE
#undef CODE_FUNC
};

static const struct code_row code_funcs[] = {
#define CODE_FUNC(pattern, code) { pattern, ET_CODE_##code },
#include "codeplace.def"
#undef CODE_PLACE
#undef CODE_FUNC
};

static const char *const code_names[ET_CODE_NR] = {
	[ET_CODE_HANDLER] = "handler",
	[ET_CODE_GENERIC] = "generic entry",
	[ET_CODE_ARCH] = "arch entry",
	[ET_CODE_TRACER] = "tracer",
	[ET_CODE_OTHER] = "other",
};

const char *et_code_name(enum et_code code)
{
	return code >= 0 && code < ET_CODE_NR ? code_names[code] : "?";
}

/* The JSON key of a code class: "arch_entry" */
const char *et_code_key(enum et_code code)
{
	static const char *const keys[ET_CODE_NR] = {
		"handler", "generic_entry", "arch_entry", "tracer", "other",
	};

	return code >= 0 && code < ET_CODE_NR ? keys[code] : "unknown";
}

/* The code class of a path in the kernel tree, or -1 when no row matches. */
int et_code_of_path(const char *path)
{
	for (size_t i = 0; i < ET_ARRAY_SIZE(code_places); i++)
		if (!fnmatch(code_places[i].pattern, path, FNM_PATHNAME))
			return code_places[i].code;
	return -1;
}

struct frame {
	const char *fn, *file;
	size_t fnlen, filelen;
	int line;
};

/* "FUNC@FILE:LINE" */
static bool parse_frame(const char *s, size_t len, struct frame *f)
{
	const char *at = memchr(s, '@', len), *colon = NULL;

	if (!at)
		return false;
	for (const char *c = at + 1; c < s + len; c++)
		if (*c == ':')
			colon = c;
	if (!colon)
		return false;
	f->fn = s;
	f->fnlen = at - s;
	f->file = at + 1;
	f->filelen = colon - (at + 1);
	f->line = atoi(colon + 1);
	return true;
}

/*
 * Place the instruction whose src frames are frames ("F@FILE:LINE ...",
 * innermost first): the first frame whose file the table classes, else
 * the outermost one (the function the code is in), with body saying whether
 * the instruction ran in the syscall body.  Returns -1 if frames is empty
 * or malformed.
 */
int et_place_of(const char *frames, bool body, struct et_place *p)
{
	struct frame fr[64];
	int n = 0, pick = -1, code = -1;
	const char *s = frames;

	memset(p, 0, sizeof(*p));
	while (*s && n < (int)ET_ARRAY_SIZE(fr)) {
		size_t len = strcspn(s, " ");

		if (!parse_frame(s, len, &fr[n]))
			return -1;
		n++;
		s += len;
		s += strspn(s, " ");
	}
	if (!n)
		return -1;
	for (int i = 0; i < n && pick < 0; i++) {
		char path[256];

		snprintf(path, sizeof(path), "%.*s", (int)fr[i].filelen, fr[i].file);
		code = et_code_of_path(path);
		if (code >= 0)
			pick = i;
	}
	if (pick < 0) {
		char fn[128];

		pick = n - 1;
		code = body ? ET_CODE_HANDLER : ET_CODE_OTHER;
		snprintf(fn, sizeof(fn), "%.*s", (int)fr[pick].fnlen, fr[pick].fn);
		for (size_t i = 0; i < ET_ARRAY_SIZE(code_funcs); i++)
			if (!fnmatch(code_funcs[i].pattern, fn, 0)) {
				code = code_funcs[i].code;
				break;
			}
	}
	p->code = code;
	snprintf(p->func, sizeof(p->func), "%.*s", (int)fr[pick].fnlen, fr[pick].fn);
	snprintf(p->file, sizeof(p->file), "%.*s", (int)fr[pick].filelen, fr[pick].file);
	p->line = fr[pick].line;
	if (pick > 0)
		snprintf(p->callee, sizeof(p->callee), "%.*s", (int)fr[pick - 1].fnlen,
			 fr[pick - 1].fn);
	snprintf(p->outer, sizeof(p->outer), "%.*s", (int)fr[n - 1].fnlen, fr[n - 1].fn);
	return 0;
}
