// SPDX-License-Identifier: LGPL-2.1
/*
 * Names: task names come from the traced system and can hold anything -
 * an escape sequence that would drive the reader's terminal, a newline
 * that forges a table row, bytes that are not UTF-8.  Every output shows
 * a name as its name text: valid printable UTF-8 as it is, a backslash
 * doubled, every other byte (control characters, DEL, bytes not part of a
 * valid UTF-8 sequence) as \xNN.  Text, JSON and Perfetto's protobuf
 * (whose strings must be UTF-8) all carry the same text, and the bytes can
 * be recovered from it: \\ is a backslash, \xNN the byte NN.
 */
#include <stdio.h>
#include <string.h>

#include "entrytrace-local.h"

const char *et_name_text(const char *name, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)(name ? name : "");
	size_t n = strlen((const char *)s), o = 0;

	if (!size)
		return buf;
	for (size_t i = 0; i < n && o + 1 < size;) {
		size_t len = et_utf8_len(s + i, n - i);

		if (s[i] == '\\') {
			if (o + 2 >= size)
				break;
			buf[o++] = '\\';
			buf[o++] = '\\';
			i++;
		} else if (s[i] < 0x20 || s[i] == 0x7f || !len) {
			if (o + 4 >= size)
				break;
			o += snprintf(buf + o, size - o, "\\x%02x", s[i]);
			i++;
		} else {
			if (o + len >= size)
				break;
			memcpy(buf + o, s + i, len);
			o += len;
			i += len;
		}
	}
	buf[o] = '\0';
	return buf;
}
