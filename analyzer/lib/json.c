// SPDX-License-Identifier: LGPL-2.1
/*
 * JSON strings: the one writer every JSON output uses (report, diff,
 * export).  Task names and paths come from the traced system and can hold
 * anything: quotes, backslashes, control characters, bytes that are not
 * UTF-8.  Valid UTF-8 passes through; quotes and backslashes are escaped,
 * control characters and DEL become \u00XX, and so does each byte that is
 * not part of a valid UTF-8 sequence (read as Latin-1), so the output is
 * always valid JSON and nothing is dropped.  Task names are first made
 * name text (escape.c: \xNN for such bytes, a backslash doubled), so their
 * bytes can be recovered; paths and the rest go as they are.
 */
#include <stdio.h>
#include <string.h>

#include "entrytrace-local.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t et_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void et_json_strn(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	for (size_t i = 0; s && i < n && s[i];) {
		size_t len = et_utf8_len(s + i, n - i);

		if (s[i] == '"' || s[i] == '\\') {
			fprintf(out, "\\%c", s[i]);
			i++;
		} else if (s[i] < 0x20 || s[i] == 0x7f || !len) {
			fprintf(out, "\\u%04x", s[i]);
			i++;
		} else {
			fwrite(s + i, 1, len, out);
			i += len;
		}
	}
	fputc('"', out);
}

void et_json_str(FILE *out, const char *s)
{
	et_json_strn(out, s, s ? strlen(s) : 0);
}
