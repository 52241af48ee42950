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
 *
 * Printable is narrower than valid: a character that changes how the text
 * around it is laid out - the bidirectional overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069: an RLO makes "evil-42" read as "24-live"
 * and drags the columns after it along), the other Unicode format
 * characters (zero-width spaces and joiners, marks, the BOM, tags), line
 * and paragraph separators and the C1 controls (U+0080-U+009F, CSI among
 * them) - is escaped byte by byte like a control character.  Columns are
 * padded on the display width of the text printed (et_text_width()), not
 * its bytes.
 */
#include <stdio.h>
#include <string.h>

#include "entrytrace-local.h"

static unsigned int code_point(const unsigned char *s, size_t len)
{
	unsigned int cp = len == 1 ? s[0] : len == 2 ? s[0] & 0x1f : len == 3 ? s[0] & 0x0f :
			  s[0] & 0x07;

	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/* Unicode's format characters (Cf), line and paragraph separators, C1 controls. */
static bool layout_char(unsigned int cp)
{
	static const struct { unsigned int lo, hi; } cf[] = {
		{ 0x80, 0x9f }, { 0xad, 0xad }, { 0x600, 0x605 }, { 0x61c, 0x61c },
		{ 0x6dd, 0x6dd }, { 0x70f, 0x70f }, { 0x890, 0x891 }, { 0x8e2, 0x8e2 },
		{ 0x180e, 0x180e }, { 0x200b, 0x200f }, { 0x2028, 0x202e },
		{ 0x2060, 0x2064 }, { 0x2066, 0x206f }, { 0xfeff, 0xfeff },
		{ 0xfff9, 0xfffb }, { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
		{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
		{ 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f },
	};

	for (size_t i = 0; i < ET_ARRAY_SIZE(cf); i++)
		if (cp >= cf[i].lo && cp <= cf[i].hi)
			return true;
	return false;
}

/* Columns a printable character takes: 2 East Asian wide, 0 combining, else 1. */
static int char_width(unsigned int cp)
{
	static const struct { unsigned int lo, hi; } wide[] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
		{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
		{ 0xfe30, 0xfe4f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x3fffd },
	}, zero[] = {
		{ 0x300, 0x36f }, { 0x483, 0x489 }, { 0x591, 0x5bd }, { 0x1ab0, 0x1aff },
		{ 0x1dc0, 0x1dff }, { 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	};

	for (size_t i = 0; i < ET_ARRAY_SIZE(zero); i++)
		if (cp >= zero[i].lo && cp <= zero[i].hi)
			return 0;
	for (size_t i = 0; i < ET_ARRAY_SIZE(wide); i++)
		if (cp >= wide[i].lo && cp <= wide[i].hi)
			return 2;
	return 1;
}

int et_text_width(const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	size_t n = strlen((const char *)s);
	int w = 0;

	for (size_t i = 0; i < n;) {
		size_t len = et_utf8_len(s + i, n - i);

		if (!len) {
			w++;
			i++;
			continue;
		}
		w += s[i] < 0x20 || s[i] == 0x7f ? 0 : char_width(code_point(s + i, len));
		i += len;
	}
	return w;
}

const char *et_pad_text(const char *text, int width, bool left, char *buf, size_t size)
{
	int pad = width - et_text_width(text);
	size_t len = strlen(text ? text : "");

	if (pad < 0)
		pad = 0;
	if (!size)
		return buf;
	if (len + pad >= size)
		len = size - 1 > (size_t)pad ? size - 1 - pad : 0;
	if (pad > (int)(size - 1 - len))
		pad = (int)(size - 1 - len);
	if (left) {
		memcpy(buf, text ? text : "", len);
		memset(buf + len, ' ', pad);
	} else {
		memset(buf, ' ', pad);
		memcpy(buf + pad, text ? text : "", len);
	}
	buf[len + pad] = '\0';
	return buf;
}

const char *et_name_text(const char *name, char *buf, size_t size)
{
	return et_bytes_text(name ? name : "", name ? strlen(name) : 0, buf, size);
}

/* @n bytes (a NUL among them too) as name text: et_name_text()'s rules. */
const char *et_bytes_text(const void *bytes, size_t n, char *buf, size_t size)
{
	const unsigned char *s = bytes;
	size_t o = 0;

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
		} else if (len > 1 && layout_char(code_point(s + i, len))) {
			if (o + 4 * len >= size)
				break;
			for (size_t k = 0; k < len; k++)
				o += snprintf(buf + o, size - o, "\\x%02x", s[i + k]);
			i += len;
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
