// SPDX-License-Identifier: LGPL-2.1
/*
 * A JSON reader: text into a tree of values (the kit's manifest is the one
 * JSON the analyzer reads; json.c is the writer every output uses).  RFC
 * 8259, strictly: no comments, no trailing commas, no bare words; strings
 * with their escapes decoded into UTF-8 (a \u surrogate pair into one code
 * point, a lone surrogate refused), nesting at most ET_JSON_MAX_DEPTH deep so
 * that a hostile file cannot exhaust the stack.  The first error ends the
 * parse with its byte offset.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-kit.h"

#define ET_JSON_MAX_DEPTH 64

struct jparser {
	const char *s, *end, *start;
	char *err;
	size_t errlen;
	int depth;
};

static bool jfail(struct jparser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || p->err[0])
		return false;
	n = snprintf(p->err, p->errlen, "byte %zu: ", (size_t)(p->s - p->start));
	if (n < 0 || (size_t)n >= p->errlen)
		return false;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return false;
}

static void skip_ws(struct jparser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool lit(struct jparser *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return jfail(p, "expected a value");
	p->s += n;
	return true;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* At the opening quote; the decoded string (NUL-terminated) into *out. */
static bool jstring(struct jparser *p, char **out, size_t *len)
{
	const char *s = ++p->s;
	char *buf, *o;

	/* the decoded string is never longer than the encoded one */
	while (s < p->end && *s != '"')
		s += *s == '\\' && s + 1 < p->end ? 2 : 1;
	if (s >= p->end)
		return jfail(p, "string without its closing quote");
	buf = o = malloc(s - p->s + 1);
	if (!buf)
		return jfail(p, "out of memory");
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s;

		if (c < 0x20) {
			free(buf);
			return jfail(p, "control character 0x%02x in a string", c);
		}
		if (c != '\\') {
			*o++ = (char)c;
			p->s++;
			continue;
		}
		p->s++;
		switch (*p->s) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			int hi = p->end - p->s >= 5 ? hex4(p->s + 1) : -1, lo;
			unsigned int cp;

			if (hi < 0) {
				free(buf);
				return jfail(p, "bad \\u escape");
			}
			p->s += 4;
			cp = (unsigned int)hi;
			if (hi >= 0xdc00 && hi <= 0xdfff) {
				free(buf);
				return jfail(p, "lone low surrogate \\u%04x", hi);
			}
			if (hi >= 0xd800 && hi <= 0xdbff) {
				lo = p->end - p->s >= 7 && p->s[1] == '\\' && p->s[2] == 'u' ?
					hex4(p->s + 3) : -1;
				if (lo < 0xdc00 || lo > 0xdfff) {
					free(buf);
					return jfail(p, "high surrogate \\u%04x without its low half", hi);
				}
				p->s += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned int)lo - 0xdc00);
			}
			o += put_utf8(o, cp);
			break;
		}
		default:
			free(buf);
			return jfail(p, "bad escape \\%c", *p->s);
		}
		p->s++;
	}
	p->s++;
	*o = 0;
	*out = buf;
	*len = (size_t)(o - buf);
	return true;
}

static bool jnumber(struct jparser *p, double *v)
{
	const char *s = p->s;
	char tmp[64], *end;
	size_t n;

	if (s < p->end && *s == '-')
		s++;
	if (s >= p->end || *s < '0' || *s > '9')
		return jfail(p, "expected a value");
	if (*s == '0' && s + 1 < p->end && s[1] >= '0' && s[1] <= '9')
		return jfail(p, "number with a leading zero");
	while (s < p->end && *s >= '0' && *s <= '9')
		s++;
	if (s < p->end && *s == '.') {
		if (++s >= p->end || *s < '0' || *s > '9')
			return jfail(p, "number without digits after its point");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return jfail(p, "number without exponent digits");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	n = (size_t)(s - p->s);
	if (n >= sizeof(tmp))
		return jfail(p, "number of %zu characters", n);
	memcpy(tmp, p->s, n);
	tmp[n] = 0;
	errno = 0;
	*v = strtod(tmp, &end);
	if (!isfinite(*v))
		return jfail(p, "number out of range");
	p->s = s;
	return true;
}

static bool jvalue(struct jparser *p, struct et_jv *v);

static bool grow(struct et_jv *v, size_t *cap, bool keys)
{
	size_t ncap = *cap ? *cap * 2 : 8;
	struct et_jv *items;

	if (v->n < *cap)
		return true;
	items = realloc(v->items, ncap * sizeof(*items));
	if (!items)
		return false;
	v->items = items;
	if (keys) {
		char **k = realloc(v->keys, ncap * sizeof(*k));

		if (!k)
			return false;
		v->keys = k;
	}
	*cap = ncap;
	return true;
}

static bool jcontainer(struct jparser *p, struct et_jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	size_t cap = 0;

	if (++p->depth > ET_JSON_MAX_DEPTH)
		return jfail(p, "nested more than %d deep", ET_JSON_MAX_DEPTH);
	v->t = obj ? ET_JOBJ : ET_JARR;
	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return true;
	}
	for (;;) {
		char *key = NULL;
		size_t klen;

		skip_ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return jfail(p, "expected a member name");
			if (!jstring(p, &key, &klen))
				return false;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				return jfail(p, "expected ':' after a member name");
			}
			p->s++;
		}
		if (!grow(v, &cap, obj)) {
			free(key);
			return jfail(p, "out of memory");
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (!jvalue(p, &v->items[v->n - 1]))
			return false;
		skip_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			return true;
		}
		return jfail(p, "expected ',' or '%c'", close);
	}
}

static bool jvalue(struct jparser *p, struct et_jv *v)
{
	skip_ws(p);
	if (p->s >= p->end)
		return jfail(p, "unexpected end of the text");
	switch (*p->s) {
	case '{':
		return jcontainer(p, v, true);
	case '[':
		return jcontainer(p, v, false);
	case '"':
		v->t = ET_JSTR;
		return jstring(p, &v->str, &v->n);
	case 't':
		v->t = ET_JTRUE;
		return lit(p, "true");
	case 'f':
		v->t = ET_JFALSE;
		return lit(p, "false");
	case 'n':
		v->t = ET_JNULL;
		return lit(p, "null");
	default:
		v->t = ET_JNUM;
		return jnumber(p, &v->num);
	}
}

static void jclear(struct et_jv *v)
{
	if (v->t == ET_JOBJ || v->t == ET_JARR) {
		for (size_t i = 0; i < v->n; i++) {
			jclear(&v->items[i]);
			if (v->t == ET_JOBJ)
				free(v->keys[i]);
		}
		free(v->items);
		free(v->keys);
	} else if (v->t == ET_JSTR) {
		free(v->str);
	}
}

struct et_jv *et_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jparser p = { .s = text, .end = text + len, .start = text, .err = err,
			     .errlen = errlen };
	struct et_jv *v = calloc(1, sizeof(*v));

	if (err && errlen)
		err[0] = 0;
	if (!v) {
		if (err)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (jvalue(&p, v)) {
		skip_ws(&p);
		if (p.s == p.end)
			return v;
		jfail(&p, "text after the value");
	}
	jclear(v);
	free(v);
	return NULL;
}

void et_json_free(struct et_jv *v)
{
	if (!v)
		return;
	jclear(v);
	free(v);
}

const struct et_jv *et_jget(const struct et_jv *o, const char *key)
{
	if (!o || o->t != ET_JOBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->items[i];
	return NULL;
}

const struct et_jv *et_jat(const struct et_jv *a, size_t i)
{
	return a && a->t == ET_JARR && i < a->n ? &a->items[i] : NULL;
}

size_t et_jlen(const struct et_jv *a)
{
	return a && (a->t == ET_JARR || a->t == ET_JOBJ) ? a->n : 0;
}

double et_jnum(const struct et_jv *v, double dflt)
{
	return v && v->t == ET_JNUM ? v->num : dflt;
}

const char *et_jstr(const struct et_jv *v, const char *dflt)
{
	return v && v->t == ET_JSTR ? v->str : dflt;
}

bool et_jtrue(const struct et_jv *v)
{
	return v && v->t == ET_JTRUE;
}

void et_jv_write(FILE *out, const struct et_jv *v)
{
	switch (v->t) {
	case ET_JNULL:
		fputs("null", out);
		break;
	case ET_JFALSE:
		fputs("false", out);
		break;
	case ET_JTRUE:
		fputs("true", out);
		break;
	case ET_JNUM:
		if (v->num == floor(v->num) && fabs(v->num) < 9e15)
			fprintf(out, "%.0f", v->num);
		else
			fprintf(out, "%.17g", v->num);
		break;
	case ET_JSTR:
		et_json_strn(out, v->str, v->n);
		break;
	case ET_JARR:
	case ET_JOBJ:
		fputc(v->t == ET_JARR ? '[' : '{', out);
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				fputs(", ", out);
			if (v->t == ET_JOBJ) {
				et_json_str(out, v->keys[i]);
				fputs(": ", out);
			}
			et_jv_write(out, &v->items[i]);
		}
		fputc(v->t == ET_JARR ? ']' : '}', out);
		break;
	}
}
