// SPDX-License-Identifier: LGPL-2.1
/*
 * Index: what a trace.dat says about itself - its page size, how many
 * CPUs it has, where each CPU's data lies, what the kernel counted per
 * CPU (the CPUSTAT options) - read once at open, before libtracecmd reads
 * the data (tracecmd_init_data() allocates and maps by these fields), and
 * held against itself:
 *
 *   - the page size in the file's header is a power of two, and the one
 *     the header page's own layout gives (its data field's offset and
 *     size) and, in version 7, the one the BUFFER option states;
 *   - the BUFFER option (version 7) is exactly as long as its CPU count
 *     says; its CPU ids are below the file's CPU count (CPUCOUNT) and
 *     each is there once; a version 6 file's CPU count field is its
 *     CPUCOUNT option's;
 *   - each CPU's data lies inside the file, inside its section, and
 *     overlaps no other CPU's.
 *
 * A contradiction refuses the file (exit 3), naming the field and both
 * values.  What the index does not point to is checked too: between and
 * after the CPUs' data the section holds only padding (zeros), so bytes
 * there are data a size, an offset or a count cut off; they count as that
 * CPU's unread bytes (holes: exit 8, the report is printed).  The CPUSTAT
 * counts are held against what the walk read (et_index_check_walk(): the
 * records a CPU gave, its lost events) and against the first and last
 * record of each CPU (et_index_check_times(), at open).
 *
 * All of it costs a few pread()s at open; nothing runs per record.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <zstd.h>

#include "entrytrace-local.h"
#include "tracecmd-compat.h"

enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_HEADER_INFO = 16,	/* 16 to 21: the sections version 7 places */
	OPT_CMDLINES = 21,
	SEC_BUFFER = 3,
	SEC_FL_COMPRESS = 1,
};

bool et_file_read(const struct et_file *f, uint64_t off, void *buf, size_t n)
{
	ssize_t r;

	if (off > f->size || n > f->size - off)
		return false;
	while (n) {
		r = pread(f->fd, buf, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		buf = (char *)buf + r;
		off += r;
		n -= r;
	}
	return true;
}

uint64_t et_file_num(const struct et_file *f, const void *p, int size)
{
	uint64_t v = 0;
	uint32_t w;
	uint16_t h;

	switch (size) {
	case 2:
		memcpy(&h, p, 2);
		return f->swap ? __builtin_bswap16(h) : h;
	case 4:
		memcpy(&w, p, 4);
		return f->swap ? __builtin_bswap32(w) : w;
	case 8:
		memcpy(&v, p, 8);
		return f->swap ? __builtin_bswap64(v) : v;
	}
	return 0;
}

/* A number of @size bytes at @off; false outside the file. */
static bool rd_num(const struct et_file *f, uint64_t off, int size, uint64_t *v)
{
	char b[8];

	if (!et_file_read(f, off, b, size))
		return false;
	*v = et_file_num(f, b, size);
	return true;
}

/* A compressed block: 4 bytes compressed size, 4 uncompressed, the data. */
static char *zblock(const struct et_file *f, uint64_t off, uint64_t limit, size_t *len)
{
	char hdr[8], *in, *out;
	uint64_t csize, usize;
	size_t r;

	if (!et_file_read(f, off, hdr, 8))
		return NULL;
	csize = et_file_num(f, hdr, 4);
	usize = et_file_num(f, hdr + 4, 4);
	if (csize + 8 > limit || usize > (64u << 20))
		return NULL;
	in = malloc(csize ? csize : 1);
	out = malloc(usize ? usize : 1);
	if (!in || !out || !et_file_read(f, off + 8, in, csize)) {
		free(in);
		free(out);
		return NULL;
	}
	r = ZSTD_decompress(out, usize, in, csize);
	free(in);
	if (ZSTD_isError(r)) {
		free(out);
		return NULL;
	}
	*len = r;
	return out;
}

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

/* "oldest event ts:  868.587312" (ns clocks) or a count (others) */
static bool stat_ts(const char *v, uint64_t *ts, bool *ns)
{
	char *end;
	unsigned long long s = strtoull(v, &end, 10), us;
	const char *frac;

	if (end == v)
		return false;
	if (*end != '.') {
		*ts = s;
		*ns = false;
		return true;
	}
	frac = end + 1;
	us = strtoull(frac, &end, 10);
	if (end - frac != 6)
		return false;
	*ts = s * 1000000000ull + us * 1000;
	*ns = true;
	return true;
}

/* One CPUSTAT option: "CPU: N\nentries: N\n...read events: N\n". */
static void parse_cpustat(struct et_index *ix, const char *o, size_t osz)
{
	char *text = strndup(o, osz), *save = NULL;
	struct et_cpustat st = { .have = true };
	bool have_entries = false, have_read = false, ns = false;
	long cpu = -1;

	if (!text)
		return;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':'), *v;

		if (!colon)
			continue;
		*colon = '\0';
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strcmp(l, "CPU")) {
			cpu = strtol(v, NULL, 10);
		} else if (!strcmp(l, "entries")) {
			st.entries = strtoull(v, NULL, 10);
			have_entries = true;
		} else if (!strcmp(l, "overrun")) {
			st.overrun = strtoull(v, NULL, 10);
			st.have_overrun = true;
		} else if (!strcmp(l, "read events")) {
			st.read = strtoull(v, NULL, 10);
			have_read = true;
		} else if (!strcmp(l, "oldest event ts")) {
			st.have_oldest = stat_ts(v, &st.oldest, &ns);
		} else if (!strcmp(l, "now ts")) {
			st.have_now = stat_ts(v, &st.now, &st.ts_ns);
		}
	}
	free(text);
	st.have_counts = have_entries && have_read;
	if (cpu < 0 || cpu >= ET_INDEX_MAX_CPUS)
		return;
	ix->nr_stat_opts++;
	if (cpu >= ix->nr_stat) {
		struct et_cpustat *s = realloc(ix->stat, (cpu + 1) * sizeof(*s));

		if (!s)
			return;
		memset(s + ix->nr_stat, 0, (cpu + 1 - ix->nr_stat) * sizeof(*s));
		ix->stat = s;
		ix->nr_stat = cpu + 1;
	}
	ix->stat[cpu] = st;
}

/* v6: the trace_clock file's text, "local [global] counter ...": the one in brackets */
static void v6_clock(struct et_index *ix, const struct et_file *f, uint64_t off, uint64_t n)
{
	char *text = malloc(n + 1), *a, *b;

	if (!text)
		return;
	if (et_file_read(f, off, text, n)) {
		text[n] = '\0';
		a = strchr(text, '[');
		b = a ? strchr(a, ']') : NULL;
		if (a && b && b > a + 1) {
			free(ix->clock);
			ix->clock = strndup(a + 1, b - a - 1);
		}
	}
	free(text);
}

/*
 * The top instance's BUFFER option: its section's offset, name "", clock,
 * page size, CPU count, then per CPU its id, data offset and size.  The
 * option is exactly that long.
 */
static bool parse_buffer(struct et_index *ix, const struct et_file *f, const char *o,
			 size_t osz, char *why, size_t len)
{
	const char *name = o + 8, *end = o + osz, *clock, *p;
	uint64_t count;

	if (osz < 8 || !memchr(name, 0, end - name) || *name)
		return true;	/* another instance's buffer (or not one at all) */
	clock = name + 1;
	if (!memchr(clock, 0, end - clock))
		return true;
	p = clock + strlen(clock) + 1;
	free(ix->clock);
	ix->clock = *clock ? strdup(clock) : NULL;
	if (end - p < 8) {
		say(why, len, "BUFFER option: %zu bytes, too short for its page size and CPU count",
		    osz);
		return false;
	}
	ix->buffer_page_size = (int)et_file_num(f, p, 4);
	count = et_file_num(f, p + 4, 4);
	p += 8;
	if ((uint64_t)(end - p) != count * 20) {
		say(why, len, "BUFFER option: a CPU count of %" PRIu64 " in an option whose "
		    "index holds %td bytes, %td CPUs' entries", count, end - p, (end - p) / 20);
		return false;
	}
	free(ix->cpu);
	ix->cpu = calloc(count ? count : 1, sizeof(*ix->cpu));
	if (!ix->cpu)
		return false;
	ix->nr_cpu = (int)count;
	for (uint64_t i = 0; i < count; i++, p += 20)
		ix->cpu[i] = (struct et_index_cpu){
			.cpu = (int)et_file_num(f, p, 4),
			.off = et_file_num(f, p + 4, 8),
			.size = et_file_num(f, p + 12, 8),
		};
	ix->section = et_file_num(f, o, 8);
	ix->have_buffer = true;
	return true;
}

/* A version 7 section's 16-byte header at offset @at lies inside the file. */
static bool header_inside(const struct et_file *f, uint64_t at)
{
	return at <= f->size && f->size - at >= 16;
}

/*
 * With a stop buffer (et_index_layout()), an option that places a section
 * (@what) at the 8-byte offset it starts with: that section's 16-byte
 * header lies inside the file, or @stop says it does not.
 */
static bool placed_inside(const struct et_file *f, const char *o, uint64_t osz,
			  const char *what, uint64_t sec, char *stop, size_t stoplen)
{
	uint64_t at;

	if (!stop || osz < 8)
		return true;
	at = et_file_num(f, o, 8);
	if (header_inside(f, at))
		return true;
	say(stop, stoplen, "the options section at offset %" PRIu64 " places the %s section at "
	    "offset %" PRIu64 ", past the end of the file (%" PRIu64 " bytes): the file is cut "
	    "short", sec, what, at, f->size);
	return false;
}

/*
 * The options of one block [p, end) of id (2), size (4), data: of the
 * version 7 options section at offset @sec, which @stop (if not NULL) holds
 * where the layout stops (placed_inside()).  False: @why refuses the file.
 */
static bool parse_options(struct et_index *ix, const struct et_file *f, const char *data,
			  size_t n, uint64_t *next, char *why, size_t len, uint64_t sec,
			  char *stop, size_t stoplen)
{
	static const char *const placed[] = { "header info", "ftrace formats", "event formats",
					      "kallsyms", "printk formats", "saved command lines" };
	size_t p = 0;

	while (p + 6 <= n) {
		unsigned int id = et_file_num(f, data + p, 2);
		uint64_t osz = et_file_num(f, data + p + 2, 4);
		const char *o = data + p + 6;

		if (osz > n - p - 6)
			break;
		p += 6 + osz;
		switch (id) {
		case OPT_DATE:
		case OPT_OFFSET:
		case OPT_TIME_SHIFT:
		case OPT_TSC2NSEC:
			ix->shifts = true;
			break;
		case OPT_CPUSTAT:
			parse_cpustat(ix, o, osz);
			break;
		case OPT_CPUCOUNT:
			if (osz >= 4)
				ix->cpucount = (int)et_file_num(f, o, 4);
			break;
		case OPT_BUFFER:
			if (ix->version < 7)
				break;
			if (!placed_inside(f, o, osz, "flyrecord (BUFFER option)", sec, stop,
					   stoplen))
				return true;
			if (!parse_buffer(ix, f, o, osz, why, len))
				return false;
			break;
		case OPT_DONE:
			if (next)
				*next = osz >= 8 ? et_file_num(f, o, 8) : 0;
			return true;
		default:
			if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES &&
			    !placed_inside(f, o, osz, placed[id - OPT_HEADER_INFO], sec, stop,
					   stoplen))
				return true;
			break;
		}
	}
	return true;
}

/* read_v7() stops: @stop (if not NULL) says where, and libtracecmd judges the file. */
static bool v7_stop(char *stop, size_t stoplen, const char *fmt, ...)
{
	va_list ap;

	if (stop) {
		va_start(ap, fmt);
		vsnprintf(stop, stoplen, fmt, ap);
		va_end(ap);
	}
	return true;
}

/*
 * Version 7: the chain of options sections from the header's offset @opt.
 * Where it does not read there is no index to check (libtracecmd, which
 * read the same headers, judges the file).  With @stop (et_index_layout(),
 * for a file libtracecmd refused), the walk also holds the sections the
 * options place (header info to command lines, ids 16 to 21, and each
 * BUFFER's flyrecord section) to the file's end, and says in @stop where
 * the layout stops: a cut file names the first place past its end.
 */
static bool read_v7(struct et_index *ix, const struct et_file *f, uint64_t opt,
		    char *why, size_t len, char *stop, size_t stoplen)
{
	char from[64] = "the file's header";

	for (int sections = 0; opt && sections < 64; sections++) {
		const char *to = sections ? "chains to the next options section" :
			"places the options section";
		char hdr[16], *data;
		size_t n = 0;
		uint64_t size, next = 0;
		bool ok;

		if (!header_inside(f, opt))
			return v7_stop(stop, stoplen, "%s %s at offset %" PRIu64 ", past the end "
				       "of the file (%" PRIu64 " bytes): the file is cut short",
				       from, to, opt, f->size);
		if (!et_file_read(f, opt, hdr, 16))
			return true;
		if (et_file_num(f, hdr, 2) != 0)
			return v7_stop(stop, stoplen, "%s %s at offset %" PRIu64 ", which holds a "
				       "section of id %" PRIu64, from, to, opt,
				       et_file_num(f, hdr, 2));
		size = et_file_num(f, hdr + 8, 8);
		if (size > f->size - opt - 16)
			return v7_stop(stop, stoplen, "the options section at offset %" PRIu64
				       " says %" PRIu64 " bytes, past the end of the file (%"
				       PRIu64 " bytes): the file is cut short", opt, size, f->size);
		if (et_file_num(f, hdr + 2, 2) & SEC_FL_COMPRESS) {
			if (!ix->zstd)
				return true;
			if (!(data = zblock(f, opt + 16, size, &n)))
				return v7_stop(stop, stoplen, "the options section at offset %"
					       PRIu64 " (%" PRIu64 " bytes) does not decompress",
					       opt, size);
		} else {
			n = size;
			data = malloc(n ? n : 1);
			if (!data || !et_file_read(f, opt + 16, data, n)) {
				free(data);
				return true;
			}
		}
		ok = parse_options(ix, f, data, n, &next, why, len, opt, stop, stoplen);
		free(data);
		if (!ok)
			return false;
		if (stop && stop[0])
			return true;
		snprintf(from, sizeof(from), "the options section at offset %" PRIu64, opt);
		opt = next;
	}
	return true;
}

/*
 * Version 6: the sections in their fixed order - header page and event,
 * ftrace and event formats, kallsyms, printk formats, saved command lines,
 * the CPU count - then options and the flyrecord index (per CPU an 8-byte
 * offset and size).  Where the file does not read as that there is no
 * index to check (libtracecmd, which read the same headers, judges the
 * file), and the walk says where it stopped: a label that is not there,
 * a count out of range, a size past the end of the file.  It keeps the
 * last sized part it stepped over, whose size is the first to suspect
 * when what follows is not what the layout puts there.
 */
struct v6_walk {
	const struct et_file *f;
	uint64_t p;
	const char *last;	/* the last sized part stepped over */
	uint64_t last_off, last_size;
	char *stop;		/* where and why the walk stopped, or NULL */
	size_t stoplen;
};

static bool stopped(struct v6_walk *w, bool after, const char *fmt, ...)
{
	char head[256];
	va_list ap;

	if (!w->stop)
		return false;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	if (after && w->last)
		say(w->stop, w->stoplen, "%s, after the %s (%" PRIu64 " bytes at offset %"
		    PRIu64 "): that size is the first to suspect", head, w->last,
		    w->last_size, w->last_off);
	else
		say(w->stop, w->stoplen, "%s", head);
	return false;
}

static bool w_ends(struct v6_walk *w, const char *what)
{
	return stopped(w, true, "the file (%" PRIu64 " bytes) ends at offset %" PRIu64
		       ", in the %s", w->f->size, w->p, what);
}

/* A part of @width-byte size and its bytes, @what for messages. */
static bool w_sized(struct v6_walk *w, int width, const char *what)
{
	uint64_t n;

	if (!rd_num(w->f, w->p, width, &n))
		return w_ends(w, what);
	if (n > w->f->size - w->p - width)
		return stopped(w, false, "the %s: %" PRIu64 " bytes at offset %" PRIu64
			       ", past the end of the file (%" PRIu64 " bytes)", what, n,
			       w->p + width, w->f->size);
	w->last = what;
	w->last_off = w->p + width;
	w->last_size = n;
	w->p += width + n;
	return true;
}

static bool w_tag(struct v6_walk *w, const char *tag, size_t n)
{
	char b[16], t[80];

	if (n > sizeof(b) || !et_file_read(w->f, w->p, b, n))
		return w_ends(w, tag);
	if (memcmp(b, tag, n))
		return stopped(w, true, "no '%s' label at offset %" PRIu64 ": \"%s\"", tag,
			       w->p, et_bytes_text(b, n, t, sizeof(t)));
	w->p += n;
	return true;
}

static bool w_count(struct v6_walk *w, int width, uint64_t max, const char *what,
		    uint64_t *n)
{
	if (!rd_num(w->f, w->p, width, n))
		return w_ends(w, what);
	if (*n > max)
		return stopped(w, true, "a %s of %" PRIu64 " at offset %" PRIu64 " (at most %"
			       PRIu64 ")", what, *n, w->p, max);
	w->p += width;
	return true;
}

static bool w_string(struct v6_walk *w, const char *what)
{
	char b[256];
	uint64_t left = w->f->size - w->p;

	if (w->p >= w->f->size || !et_file_read(w->f, w->p, b, left < sizeof(b) ? left : sizeof(b)))
		return w_ends(w, what);
	for (size_t i = 0; i < sizeof(b) && i < left; i++)
		if (!b[i]) {
			w->p += i + 1;
			return true;
		}
	return stopped(w, true, "no %s (a name and its NUL in 256 bytes) at offset %" PRIu64,
		       what, w->p);
}

static bool read_v6(struct et_index *ix, const struct et_file *f, uint64_t p, char *why,
		    size_t len, char *stop, size_t stoplen)
{
	struct v6_walk w = { .f = f, .p = p, .stop = stop, .stoplen = stoplen };
	uint64_t n, m, cpus;
	char tag[10], t[80];

	if (!w_tag(&w, "header_page", 12) || !w_sized(&w, 8, "header page") ||
	    !w_tag(&w, "header_event", 13) || !w_sized(&w, 8, "header event") ||
	    !w_count(&w, 4, 100000, "count of ftrace formats", &n))
		return true;
	while (n--)
		if (!w_sized(&w, 8, "ftrace format"))
			return true;
	if (!w_count(&w, 4, 100000, "count of event systems", &n))
		return true;
	while (n--) {
		if (!w_string(&w, "event system's name") ||
		    !w_count(&w, 4, 100000, "count of a system's formats", &m))
			return true;
		while (m--)
			if (!w_sized(&w, 8, "event format"))
				return true;
	}
	if (!w_sized(&w, 4, "kallsyms") || !w_sized(&w, 4, "printk formats") ||
	    !w_sized(&w, 8, "saved command lines") ||
	    !w_count(&w, 4, ET_INDEX_MAX_CPUS, "CPU count", &cpus))
		return true;
	for (;;) {
		if (!et_file_read(f, w.p, tag, 10)) {
			w_ends(&w, "options or flyrecord label");
			return true;
		}
		if (!memcmp(tag, "options  ", 10)) {
			w.p += 10;
			/* id (2), then size (4) and data, until id 0 */
			for (;;) {
				uint64_t id, osz;
				char *o;
				bool ok;

				if (!w_count(&w, 2, UINT16_MAX, "option id", &id))
					return true;
				if (!id)
					break;
				if (!rd_num(f, w.p, 4, &osz)) {
					w_ends(&w, "option's size");
					return true;
				}
				if (osz > f->size - w.p - 4) {
					stopped(&w, false, "option %" PRIu64 ": %" PRIu64 " bytes at "
						"offset %" PRIu64 ", past the end of the file (%" PRIu64
						" bytes)", id, osz, w.p + 4, f->size);
					return true;
				}
				o = malloc(6 + osz);
				if (!o || !et_file_read(f, w.p - 2, o, 6 + osz)) {
					free(o);
					return true;
				}
				ok = parse_options(ix, f, o, 6 + osz, NULL, why, len, 0, NULL, 0);
				free(o);
				if (!ok)
					return false;
				w.last = "last option";
				w.last_off = w.p;
				w.last_size = 4 + osz;
				w.p += 4 + osz;
			}
			continue;
		}
		if (!memcmp(tag, "latency  ", 10))
			return true;	/* no CPU data */
		if (memcmp(tag, "flyrecord", 10)) {
			stopped(&w, true, "no 'options', 'flyrecord' or 'latency' label at offset %"
				PRIu64 ": \"%s\"", w.p, et_bytes_text(tag, 10, t, sizeof(t)));
			return true;
		}
		w.p += 10;
		break;
	}
	p = w.p;
	ix->cpu = calloc(cpus ? cpus : 1, sizeof(*ix->cpu));
	if (!ix->cpu)
		return true;
	for (uint64_t c = 0; c < cpus; c++, p += 16) {
		uint64_t off, size;

		if (!rd_num(f, p, 8, &off) || !rd_num(f, p + 8, 8, &size))
			return true;
		ix->cpu[c] = (struct et_index_cpu){ .cpu = (int)c, .off = off, .size = size };
	}
	ix->nr_cpu = (int)cpus;
	ix->v6_cpus = (int)cpus;
	ix->have_buffer = true;
	/* the trace clock follows the index: its size (8 bytes), its text */
	if (rd_num(f, p, 8, &n) && n < 4096 && n <= f->size - p - 8) {
		v6_clock(ix, f, p + 8, n);
		p += 8 + n;
	}
	ix->sec_start = p;
	ix->sec_end = f->size;
	return true;
}

/* ------------------------------------------------------------------ */
/* The checks                                                          */

static int by_off(const void *a, const void *b)
{
	const struct et_index_cpu *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* Whether file bytes [from, to) hold anything but zeros. */
static bool nonzero(const struct et_file *f, uint64_t from, uint64_t to)
{
	uint8_t buf[65536];

	while (from < to) {
		size_t n = to - from < sizeof(buf) ? to - from : sizeof(buf);

		if (!et_file_read(f, from, buf, n))
			return false;
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				return true;
		from += n;
	}
	return false;
}

/* What a CPU's data occupies: zstd adds its 4-byte chunk count. */
static uint64_t extent(const struct et_index *ix, const struct et_index_cpu *c)
{
	return c->size ? c->size + (ix->compressed ? 4 : 0) : 0;
}

/*
 * Each CPU's data inside the file and its section, no two overlapping;
 * the bytes between them (alignment padding) zero, else they are data no
 * index entry reaches: the unread bytes of the CPU before them.
 */
static bool check_ranges(struct et_index *ix, const struct et_file *f, char *why, size_t len)
{
	struct et_index_cpu *s;
	int n = ix->nr_cpu;

	for (int i = 0; i < n; i++) {
		const struct et_index_cpu *c = &ix->cpu[i];
		uint64_t e = extent(ix, c);

		if (!c->size && !c->off)
			continue;
		if (c->off > f->size || e > f->size - c->off) {
			say(why, len, "CPU %d: its data at offset %" PRIu64 ", %" PRIu64 " bytes, "
			    "ends past the file's %" PRIu64 " bytes", c->cpu, c->off, e, f->size);
			return false;
		}
		if (c->size && (c->off < ix->sec_start || c->off + e > ix->sec_end)) {
			say(why, len, "CPU %d: its data at offset %" PRIu64 ", %" PRIu64 " bytes, "
			    "lies outside its flyrecord section [%" PRIu64 ", %" PRIu64 ")", c->cpu,
			    c->off, e, ix->sec_start, ix->sec_end);
			return false;
		}
	}
	s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return true;
	memcpy(s, ix->cpu, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_off);
	for (int i = 1; i < n; i++) {
		const struct et_index_cpu *a = &s[i - 1], *b = &s[i];

		if (a->size && b->size && b->off < a->off + extent(ix, a)) {
			say(why, len, "CPU %d's data at offset %" PRIu64 " (%" PRIu64 " bytes) "
			    "overlaps CPU %d's at offset %" PRIu64 " (%" PRIu64 " bytes)",
			    b->cpu, b->off, extent(ix, b), a->cpu, a->off, extent(ix, a));
			free(s);
			return false;
		}
	}
	/*
	 * The gaps: before the first CPU's data, between, after the last.
	 * A gap is attributed to the CPU whose data (or, for a CPU of size
	 * 0, whose offset) comes last before it, the first before any.
	 */
	{
		uint64_t at = ix->sec_start;
		int owner = n ? s[0].cpu : -1;

		for (int i = 0; i <= n; i++) {
			uint64_t next = i < n ? s[i].off : ix->sec_end;

			if (i < n && !s[i].size && !s[i].off)
				continue;
			if (next > at && nonzero(f, at, next) && owner >= 0 &&
			    owner < ET_INDEX_MAX_CPUS) {
				ix->unread_cpu[ix->nr_unread] = owner;
				ix->unread[ix->nr_unread] = next - at;
				if (ix->nr_unread < ET_INDEX_UNREAD - 1)
					ix->nr_unread++;
			}
			if (i < n) {
				owner = s[i].cpu;
				if (s[i].off + extent(ix, &s[i]) > at)
					at = s[i].off + extent(ix, &s[i]);
			}
		}
	}
	free(s);
	return true;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * The file's header: magic (3), "tracing", the version string, then the
 * endianness, long size and page size (4); version 7 goes on with the
 * compression's name and version and the first options section's offset.
 * Sets @f's byte order; @p: where version 6's sections begin.  False when
 * the file is shorter than its header (libtracecmd's to refuse).
 */
static bool read_head(struct et_file *f, struct et_index *ix, uint64_t *p, uint64_t *opt)
{
	char head[512];
	const char *comp;
	uint64_t at;

	memset(head, 0, sizeof(head));
	if (!et_file_read(f, 0, head, f->size < sizeof(head) - 1 ? f->size : sizeof(head) - 1))
		return false;
	at = 10 + strnlen(head + 10, 16) + 1;
	if (at + 6 > f->size)
		return false;
	ix->version = atoi(head + 10);
	f->swap = head[at] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	ix->page_size = (int)et_file_num(f, head + at + 2, 4);
	at += 6;
	*p = at;
	*opt = 0;
	if (ix->version < 7)
		return true;
	comp = head + at;
	ix->zstd = !strcmp(comp, "zstd");
	ix->known_compression = ix->zstd || !strcmp(comp, "none");
	at += strnlen(comp, 64) + 1;
	at += strnlen(head + at, 64) + 1;
	if (at + 8 > f->size || at + 8 > sizeof(head))
		return false;
	*opt = et_file_num(f, head + at, 8);
	return true;
}

bool et_index_read(struct et_trace *t, char *why, size_t len)
{
	struct et_index *ix = &t->index;
	struct et_file f = { .fd = t->fd };
	uint64_t p, opt;
	struct stat st;
	int sub, cpus = tracecmd_cpus(t->handle);
	bool from_opt;

	memset(ix, 0, sizeof(*ix));
	ix->cpucount = -1;
	if (t->fd < 0 || fstat(t->fd, &st) < 0 || !S_ISREG(st.st_mode))
		return true;
	f.size = st.st_size;
	if (!read_head(&f, ix, &p, &opt))
		return true;
	ix->file_size = f.size;

	/* the page size: a power of two, and what the header page's layout gives */
	sub = tep_get_sub_buffer_size(tracecmd_get_tep(t->handle));
	if (!pow2(ix->page_size) || ix->page_size < 256 || ix->page_size > (1 << 27)) {
		say(why, len, "a page size of %d in the file's header, not a power of two "
		    "(the header page's layout gives %d)", ix->page_size, sub);
		return false;
	}
	if (sub > 0 && sub != ix->page_size) {
		say(why, len, "a page size of %d in the file's header, %d by the header "
		    "page's layout", ix->page_size, sub);
		return false;
	}

	if (ix->version >= 7) {
		if (!read_v7(ix, &f, opt, why, len, NULL, 0))
			return false;
		if (ix->have_buffer) {
			char sec[16];

			if (ix->buffer_page_size != ix->page_size) {
				say(why, len, "a page size of %d in the BUFFER option, %d in the "
				    "file's header", ix->buffer_page_size, ix->page_size);
				return false;
			}
			if (!et_file_read(&f, ix->section, sec, 16) ||
			    et_file_num(&f, sec, 2) != SEC_BUFFER) {
				say(why, len, "BUFFER option: its section offset %" PRIu64 " holds "
				    "no flyrecord section", ix->section);
				return false;
			}
			ix->compressed = et_file_num(&f, sec + 2, 2) & SEC_FL_COMPRESS;
			ix->sec_start = ix->section + 16;
			ix->sec_end = ix->sec_start + et_file_num(&f, sec + 8, 8);
			if (ix->sec_end > f.size || ix->sec_end < ix->sec_start) {
				say(why, len, "the flyrecord section at offset %" PRIu64 " says %"
				    PRIu64 " bytes, the file ends %" PRIu64 " bytes after it",
				    ix->section, ix->sec_end - ix->sec_start, f.size - ix->sec_start);
				return false;
			}
		}
	} else {
		ix->known_compression = true;
		if (!read_v6(ix, &f, p, why, len, NULL, 0))
			return false;
		if (ix->have_buffer && ix->cpucount >= 0 && ix->v6_cpus != ix->cpucount) {
			say(why, len, "a CPU count of %d before the flyrecord index, %d in the "
			    "CPUCOUNT option", ix->v6_cpus, ix->cpucount);
			return false;
		}
	}
	if (!ix->have_buffer)
		return true;

	/* the CPUs the index names: each below the file's count, each once */
	from_opt = ix->cpucount >= 0;
	if (!from_opt)
		ix->cpucount = cpus;
	/*
	 * The recorder writes one CPUSTAT per CPU of the file's count, from
	 * the same count: the v6 count or the BUFFER option's changed (one
	 * CPU's index entry more or fewer) leaves them apart.
	 */
	if (ix->nr_stat_opts && ix->nr_stat_opts != ix->cpucount) {
		say(why, len, "a CPU count of %d (%s), but CPUSTAT options for %d CPUs",
		    ix->cpucount, from_opt ? "CPUCOUNT option" : ix->version >= 7 ?
		    "BUFFER option" : "before the flyrecord index",
		    ix->nr_stat_opts);
		return false;
	}
	for (int i = 0; i < ix->nr_cpu; i++) {
		if (ix->cpu[i].cpu < 0 || ix->cpu[i].cpu >= ix->cpucount) {
			say(why, len, "BUFFER option: an index entry for CPU %d, the file has %d "
			    "CPUs (CPUCOUNT)", ix->cpu[i].cpu, ix->cpucount);
			return false;
		}
		for (int j = 0; j < i; j++)
			if (ix->cpu[j].cpu == ix->cpu[i].cpu) {
				say(why, len, "BUFFER option: two index entries for CPU %d (at "
				    "offsets %" PRIu64 " and %" PRIu64 ")", ix->cpu[i].cpu,
				    ix->cpu[j].off, ix->cpu[i].off);
				return false;
			}
	}
	if (!check_ranges(ix, &f, why, len))
		return false;
	ix->valid = true;
	return true;
}

/*
 * Where a file libtracecmd refused to open stops reading as its layout:
 * true and @why set if the walk of its headers (version 6) or of its
 * options sections and the places they give (version 7) found it.
 */
bool et_index_layout(const char *path, char *why, size_t len)
{
	struct et_file f = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	struct et_index ix = { .cpucount = -1 };
	char owhy[256] = "";
	struct stat st;
	uint64_t p, opt;
	bool ok = true;

	why[0] = '\0';
	if (f.fd < 0)
		return false;
	if (fstat(f.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(f.fd);
		return false;
	}
	f.size = st.st_size;
	if (read_head(&f, &ix, &p, &opt)) {
		if (ix.version == 7)
			ok = read_v7(&ix, &f, opt, owhy, sizeof(owhy), why, len);
		else if (ix.version == 6)
			ok = read_v6(&ix, &f, p, owhy, sizeof(owhy), why, len);
	}
	if (!ok && !why[0])
		say(why, len, "%s", owhy);
	et_index_free(&ix);
	close(f.fd);
	return why[0] != '\0';
}

void et_index_free(struct et_index *ix)
{
	free(ix->cpu);
	free(ix->stat);
	free(ix->clock);
	ix->cpu = NULL;
	ix->stat = NULL;
	ix->clock = NULL;
}

/* ------------------------------------------------------------------ */
/* Against what was read                                               */

static void note(struct et_trace *t, const char *fmt, ...)
{
	size_t len = t->notes_len;
	va_list ap;

	if (len >= sizeof(t->notes) - 1)
		return;
	if (len)
		t->notes[len++] = '\n';
	va_start(ap, fmt);
	vsnprintf(t->notes + len, sizeof(t->notes) - len, fmt, ap);
	va_end(ap);
	t->notes_len = strlen(t->notes);
	t->counts.index_mismatches++;
	t->counts.index_notes = t->notes;
}

static double secs(uint64_t ns)
{
	return ns / 1e9;
}

/*
 * At open: each CPU's first and last record (libtracecmd's) against the
 * kernel's CPUSTAT.  'now ts' was read when the recording ended, so no
 * record is later (the stat is printed to the microsecond, truncated); on
 * a CPU whose buffer had never been read (read events 0, nothing
 * overwritten) 'oldest event ts' is its first page's time stamp, which
 * no record precedes.  Files whose timestamps libtracecmd shifts or
 * scales are left out.
 */
void et_index_check_times(struct et_trace *t, int cpu, uint64_t first, uint64_t last)
{
	const struct et_cpustat *st;
	uint64_t slack;

	if (!t->index.valid || t->index.shifts || cpu >= t->index.nr_stat)
		return;
	st = &t->index.stat[cpu];
	if (!st->have)
		return;
	slack = st->ts_ns ? 1000 : 0;
	if (st->have_now && last > st->now + slack) {
		if (st->ts_ns)
			note(t, "CPU %d: its last record at %.6f s, after the CPUSTAT's now ts "
			     "%.6f s (a time stamp changed)", cpu, secs(last), secs(st->now));
		else
			note(t, "CPU %d: its last record at %" PRIu64 ", after the CPUSTAT's now "
			     "ts %" PRIu64 " (a time stamp changed)", cpu, last, st->now);
	}
	if (st->have_counts && st->have_oldest && !st->read && st->entries &&
	    !st->overrun && first + slack < st->oldest) {
		if (st->ts_ns)
			note(t, "CPU %d: its first record at %.6f s, before the CPUSTAT's oldest "
			     "event ts %.6f s (a time stamp changed)", cpu, secs(first),
			     secs(st->oldest));
		else
			note(t, "CPU %d: its first record at %" PRIu64 ", before the CPUSTAT's "
			     "oldest event ts %" PRIu64 " (a time stamp changed)", cpu, first,
			     st->oldest);
	}
}

/*
 * After a whole walk: the records each CPU gave against what the kernel
 * counted for it (at least the events read out of its buffer, at most
 * those and the entries still in it), and the events the pages say were
 * lost against its overrun count.
 */
void et_index_check_walk(struct et_trace *t)
{
	const struct et_trace_counts *c = &t->counts;

	if (!t->index.valid)
		return;
	/* a walk again (a second iterate) says the same: start from open's notes */
	t->notes_len = t->open_notes_len;
	t->notes[t->notes_len] = '\0';
	t->counts.index_mismatches = t->open_mismatches;
	for (int cpu = 0; cpu < t->index.nr_stat && cpu < c->nr_cpus; cpu++) {
		const struct et_cpustat *st = &t->index.stat[cpu];
		uint64_t want = st->entries + st->read, got = c->records_per_cpu[cpu];
		uint64_t lost = c->lost_per_cpu[cpu];

		if (!st->have)
			continue;
		/*
		 * Events read out of the buffer were recorded; events still in it
		 * when the stats were taken may not have been (trace-cmd 3.1.6
		 * left 11 of 32 behind on host-dd64-2.dat's CPU 1): fewer than
		 * the first or more than both is damage.
		 */
		if (st->have_counts && (got < st->read || got > want))
			note(t, "CPU %d: %" PRIu64 " records read, its CPUSTAT says %s%" PRIu64
			     " (entries %" PRIu64 " + read events %" PRIu64 ")", cpu, got,
			     got < st->read ? "at least " : "at most ", got < st->read ? st->read : want,
			     st->entries, st->read);
		if (!st->have_overrun)
			continue;
		/*
		 * a gap of unknown size (the page had no room for the count)
		 * stands for one event or more: then at most the overrun
		 */
		if ((st->overrun == 0) != (lost == 0) ||
		    (lost && !t->lost_unknown_per_cpu[cpu] && lost != st->overrun) ||
		    (t->lost_unknown_per_cpu[cpu] && lost > st->overrun))
			note(t, "CPU %d: %" PRIu64 " events lost by the pages' missed-events "
			     "marks%s, its CPUSTAT says overrun %" PRIu64, cpu, lost,
			     t->lost_unknown_per_cpu[cpu] ? " (some gaps of unknown size)" : "",
			     st->overrun);
	}
}
