// SPDX-License-Identifier: LGPL-2.1
/*
 * Pages: one CPU's records, in the order the file holds them.
 *
 * libtracecmd 1.3 hands out records one malloc'd struct at a time and, on a
 * compressed file, keeps every chunk it ever decompressed on a list it walks
 * for each page (Documentation/libtracecmd-zstd.md): reading costs more
 * than the analysis, and memory grows with the trace.  So where the file
 * allows it, the CPUs' ring-buffer pages are read here, on a descriptor of
 * our own: uncompressed pages through a window of pread()s, zstd chunks one
 * at a time into one buffer, and each page parsed with libtraceevent's
 * kbuffer - the parser libtracecmd itself uses, called the same way, so the
 * records, their timestamps and missed-event marks are the same.  Memory
 * per CPU is one window and one chunk, whatever the length of the trace.
 *
 * The rules are libtracecmd's: a CPU's pages follow each other from its
 * data offset while they lie inside its data; a page whose header claims
 * more than a page ends the CPU's data; an empty page gives no records; a
 * chunk that does not decompress ends the CPU's data.
 *
 * Direct reading needs the data's place in the file, which libtracecmd does
 * not tell: it is read from the file's option sections (trace.dat version
 * 7: the BUFFER option of the top instance, and whether its flyrecord
 * section is compressed).  Anything else - version 6, zlib, options that
 * shift or scale timestamps (DATE, OFFSET, TIME_SHIFT, TSC2NSEC), a first
 * record that is not the one libtracecmd reads - is read through
 * libtracecmd, one handle per thread, as before.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <zstd.h>

#include "entrytrace-local.h"
#include "tracecmd-compat.h"

#define WINDOW_BYTES (256 * 1024)
#define MAP_BYTES (2u << 20)	/* uncompressed pages are mapped this much at a time */

struct et_cpu_reader {
	struct et_trace *t;
	int cpu;
	int page_size;

	/* through libtracecmd */
	struct tracecmd_input *handle;
	struct tep_record *rec;		/* the one handed out last */

	/* direct */
	struct kbuffer *kbuf;		/* for pages the inline parser leaves to it */
	bool page_loaded;
	bool use_kbuf;			/* this page is kbuffer's */
	bool old_format, swap, big_endian, long8;
	const uint8_t *page;		/* the page being read */
	const uint8_t *pdata;		/* its events */
	uint32_t psize, pcurr, pindex, pnext;
	uint64_t pts;
	long long plost;
	bool page_bad;			/* the page's bytes disagree with its header */
	bool done;
	bool ended;			/* account_end() ran */
	uint64_t page_no;		/* pages begun, = index of the current + 1 */
	uint64_t vpos;			/* offset of the next page in the CPU's data */
	uint64_t vend;			/* size of the CPU's (uncompressed) data */
	uint64_t base;			/* its place in the file */
	uint64_t file_end;		/* end of the bytes it may read in the file */

	char *win;			/* file bytes [win_off, win_off + win_len) */
	size_t win_cap, win_len;
	uint64_t win_off;
	char *map;			/* mapped file bytes [map_off, map_off + map_len) */
	size_t map_len;
	uint64_t map_off;

	ZSTD_DCtx *zctx;
	uint32_t chunks_left;
	uint64_t zpos;			/* file offset of the next chunk header */
	char *chunk;			/* decompressed chunk, pages from chunk_voff */
	size_t chunk_cap, chunk_len;
	uint64_t chunk_voff;
	bool have_chunk;
};

/* ------------------------------------------------------------------ */
/* The file's layout (version 7)                                       */

#define rd_at et_file_read
#define num et_file_num
#define file_reader et_file

/*
 * From the file's index (index.c, read and checked at open): the top
 * instance's BUFFER option gives each CPU's data offset and size, its
 * section's flags whether the data is zstd chunks.
 */
bool et_pages_layout(struct et_trace *t, const char **why)
{
	const struct et_index *ix = &t->index;

	*why = "not a regular trace.dat";
	if (t->fd < 0 || !ix->valid)
		return false;
	if (t->info.file_version != 7) {
		*why = "file version 6: its layout is libtracecmd's to read";
		return false;
	}
	if (!ix->known_compression) {
		*why = "compressed with other than zstd";
		return false;
	}
	if (ix->shifts) {
		*why = "the file shifts or scales its timestamps (DATE, OFFSET, TIME_SHIFT or TSC2NSEC option)";
		return false;
	}
	if (!ix->have_buffer) {
		*why = "no BUFFER option for the top instance";
		return false;
	}
	if (ix->compressed && !ix->zstd) {
		*why = "compressed data of a file that says it is not";
		return false;
	}
	t->layout = calloc(t->info.cpus, sizeof(*t->layout));
	if (!t->layout)
		return false;
	for (int i = 0; i < ix->nr_cpu; i++) {
		const struct et_index_cpu *c = &ix->cpu[i];

		if (c->cpu >= t->info.cpus) {
			*why = "a CPU beyond libtracecmd's count";
			free(t->layout);
			t->layout = NULL;
			return false;
		}
		if (!c->size)
			continue;
		t->layout[c->cpu] = (struct et_cpu_layout){
			.source = ix->compressed ? ET_SRC_ZSTD : ET_SRC_PAGES,
			.offset = c->off, .size = c->size, .file_size = ix->file_size,
		};
	}
	*why = NULL;
	return true;
}

/*
 * libtracecmd sizes an array by a CPU's zstd chunk count before it reads
 * a chunk (tracecmd_load_chunks_info(): the count times its chunk record),
 * and the count is the file's word at the CPU's data offset.  With that
 * offset moved by one page (a mutant of issue 47), the word it read asked
 * for 12,976,837,344 bytes for a 271,964-byte file: nothing in the release
 * build (the pages are never touched; exit 3 in 0.1 s), but the ASan build
 * writes the allocation's shadow, 1.6 GB of RSS and 8 s.  Each chunk is
 * at least its two 4-byte sizes, so a count more than the bytes after it
 * can hold is refused here, before libtracecmd allocates anything.
 */
bool et_pages_chunk_counts_fit(struct et_trace *t, char *why, size_t len)
{
	struct file_reader f = { .fd = t->fd, .swap = t->info.big_endian !=
					(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) };
	const char *unused;
	bool ok = true;
	char w[4];

	if (!et_pages_layout(t, &unused))
		return true;	/* a layout not known here: libtracecmd's to judge */
	for (int cpu = 0; ok && cpu < t->info.cpus; cpu++) {
		const struct et_cpu_layout *l = &t->layout[cpu];
		uint64_t count, room;

		if (l->source != ET_SRC_ZSTD)
			continue;
		f.size = l->file_size;
		if (!rd_at(&f, l->offset, w, 4))
			continue;	/* (et_pages_layout checked the offset) */
		count = num(&f, w, 4);
		room = l->file_size - l->offset - 4;
		if (count > room / 8) {
			snprintf(why, len, "CPU %d: a zstd chunk count of %" PRIu64 " at offset %"
				 PRIu64 ", more chunks than the %" PRIu64 " bytes after it hold",
				 cpu, count, l->offset, room);
			ok = false;
		}
	}
	free(t->layout);
	t->layout = NULL;
	return ok;
}

/* ------------------------------------------------------------------ */
/* Direct reading                                                      */

/* Make file bytes [off, off + n) readable at the returned pointer. */
static char *window(struct et_cpu_reader *r, uint64_t off, size_t n)
{
	struct file_reader f = { .fd = r->t->fd, .size = r->file_end };
	size_t want;

	if (off >= r->win_off && off + n <= r->win_off + r->win_len)
		return r->win + (off - r->win_off);
	if (n > r->win_cap) {
		char *w = realloc(r->win, n);

		if (!w)
			return NULL;
		r->win = w;
		r->win_cap = n;
	}
	want = r->win_cap;
	if (off >= r->file_end)
		return NULL;
	if (want > r->file_end - off)
		want = r->file_end - off;
	if (want < n) {
		/* the data's last page may be cut short: the rest is zero */
		memset(r->win, 0, n);
	}
	if (!rd_at(&f, off, r->win, want))
		return NULL;
	r->win_off = off;
	r->win_len = want < n ? n : want;
	return r->win;
}

/* The next zstd chunk, decompressed; false at the end or on a bad chunk. */
static bool next_chunk(struct et_cpu_reader *r)
{
	char *hdr, *in;
	uint64_t csize, usize;
	size_t got, need;

	if (!r->chunks_left)
		return false;
	hdr = window(r, r->zpos, 8);
	if (!hdr)
		return false;
	csize = num(&(struct file_reader){ .swap = r->t->dec.swap }, hdr, 4);
	usize = num(&(struct file_reader){ .swap = r->t->dec.swap }, hdr + 4, 4);
	in = window(r, r->zpos + 8, csize);
	if (!in)
		return false;
	need = (usize + r->page_size - 1) / r->page_size * r->page_size;
	if (need < (size_t)r->page_size)
		need = r->page_size;
	if (need > r->chunk_cap) {
		char *c = realloc(r->chunk, need);

		if (!c)
			return false;
		r->chunk = c;
		r->chunk_cap = need;
	}
	got = ZSTD_decompressDCtx(r->zctx, r->chunk, usize, in, csize);
	if (ZSTD_isError(got))
		return false;	/* libtracecmd ends the CPU's data here too */
	memset(r->chunk + got, 0, need - got);
	r->chunk_voff = r->have_chunk ? r->chunk_voff + r->chunk_len : 0;
	r->chunk_len = usize;
	r->have_chunk = true;
	r->zpos += 8 + csize;
	r->chunks_left--;
	return true;
}

/*
 * Uncompressed pages: mapped a few MB at a time, the mapping before
 * dropped (memory stays flat however long the file), prefaulted in one
 * go.  A page that runs past the data's end goes through the window.
 */
static char *map_page(struct et_cpu_reader *r, uint64_t off, size_t n)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	uint64_t start;
	size_t len;

	if (r->map && off >= r->map_off && off + n <= r->map_off + r->map_len)
		return r->map + (off - r->map_off);
	if (r->map) {
		munmap(r->map, r->map_len);
		r->map = NULL;
	}
	if (off + n > r->file_end || sys_page <= 0)
		return window(r, off, n);
	start = off & ~((uint64_t)sys_page - 1);
	len = MAP_BYTES;
	if (len < off + n - start)
		len = off + n - start;
	if (len > r->file_end - start)
		len = r->file_end - start;
	r->map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, r->t->fd, (off_t)start);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return window(r, off, n);
	}
	r->map_off = start;
	r->map_len = len;
	return r->map + (off - start);
}

/*
 * A page, parsed here: the ring buffer's format (the kernel's
 * ring_buffer.c) read exactly as kbuffer reads it - page header timestamp,
 * commit word with its missed-events bits, then events whose 32-bit header
 * packs a type/length and a time delta - but inline, without four calls
 * per record.  Absolute time stamps (type 31), which libtraceevent
 * versions read differently, and the pre-2.6.31 format are left to
 * kbuffer itself: a page holding one is handed to it whole.
 */
#define RB_MISSING_EVENTS	(1ull << 31)
#define RB_MISSING_STORED	(1ull << 30)
#define RB_COMMIT_MASK		((1u << 27) - 1)
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27

static inline uint32_t rb4(const struct et_cpu_reader *r, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t rb8(const struct et_cpu_reader *r, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

static inline uint64_t rblong(const struct et_cpu_reader *r, const void *p)
{
	return r->long8 ? rb8(r, p) : rb4(r, p);
}

/*
 * The event at curr: its type, where its payload starts (index), where
 * the next begins (next) and its time delta; kbuffer's translate_data().
 */
static inline unsigned int rb_event(struct et_cpu_reader *r, uint32_t at,
				    uint32_t *index, uint32_t *next, uint64_t *delta)
{
	const uint8_t *p = r->pdata + at;
	uint32_t h = rb4(r, p), type, len;

	if (r->big_endian) {
		type = (h >> 27) & 31;
		*delta = h & ((1u << 27) - 1);
	} else {
		type = h & 31;
		*delta = h >> 5;
	}
	switch (type) {
	case RB_TYPE_PADDING:
		len = rb4(r, p + 4);
		*index = at + 4;
		/* its length word past the commit, or a length that wraps */
		r->page_bad |= at + 8 > r->psize || (uint64_t)at + 4 + len > r->psize;
		break;
	case RB_TYPE_TIME_EXTEND:
		*delta += (uint64_t)rb4(r, p + 4) << RB_TS_SHIFT;
		*index = at + 8;
		len = 0;
		break;
	case RB_TYPE_TIME_STAMP:
		return type;	/* kbuffer's */
	case 0:
		len = (rb4(r, p + 4) - 4 + 3) & ~3u;
		*index = at + 8;
		r->page_bad |= (uint64_t)at + 8 + len > r->psize;	/* (or wraps) */
		break;
	default:
		len = type * 4;
		*index = at + 4;
		break;
	}
	*next = *index + len;
	return type;
}

/*
 * Move to the next data event of the page; false at its end.
 *
 * This walk is also the page's audit, et_audit_page()'s without a second
 * walk: the events, walked by their headers, end exactly at the commit.
 * The lengths of most events (a 5-bit count of words) cannot wrap, so the
 * walk only has to end at the commit, checked once at the page's end;
 * rb_event() checks the two kinds whose length is a 32-bit field, padding
 * and long events, as they come.  The other half, the bytes after the
 * commit, is checked once in load_page().
 */
static bool rb_next(struct et_cpu_reader *r)
{
	unsigned int type;
	uint64_t delta;

	do {
		r->pcurr = r->pnext;
		if (r->pnext >= r->psize) {
			r->page_bad |= r->pnext != r->psize;
			return false;
		}
		type = rb_event(r, r->pcurr, &r->pindex, &r->pnext, &delta);
		if (type == RB_TYPE_TIME_STAMP) {
			r->use_kbuf = true;
			return true;
		}
		r->pts += delta;
	} while (type == RB_TYPE_TIME_EXTEND || type == RB_TYPE_PADDING);
	return true;
}

/*
 * Hand the page to kbuffer from where the parser stands: the events
 * before were read the same way by both.  The inline walk does not finish
 * such a page, so its audit is the whole check, here (pages with absolute
 * time stamps: rare).
 */
static void to_kbuffer(struct et_cpu_reader *r)
{
	r->page_bad = !et_audit_page(r->page, r->page_size, r->long8, r->big_endian);
	kbuffer_load_subbuffer(r->kbuf, (void *)r->page);
	while ((uint32_t)kbuffer_curr_index(r->kbuf) < r->pcurr &&
	       kbuffer_next_event(r->kbuf, NULL))
		;
}

/*
 * Whether page bytes [from, to) are all zero: a word at a time, the
 * bytes before the first whole word and after the last one singly.  On a
 * full page that is a few bytes; on a page flushed early, the empty rest.
 */
static bool zero_from(const uint8_t *p, size_t from, size_t to)
{
	uint64_t w, any = 0;

	for (; from < to && (from & 7); from++)
		any |= p[from];
	for (; from + 8 <= to; from += 8) {
		memcpy(&w, p + from, 8);
		any |= w;
	}
	for (; from < to; from++)
		any |= p[from];
	return !any;
}

/* Load the page at vpos; false where the data ends. */
static bool load_page(struct et_cpu_reader *r)
{
	const uint8_t *page;
	uint64_t flags, end;

	if (r->done || r->vpos >= r->vend)
		return false;
	if (r->zctx) {
		while (!r->have_chunk || r->vpos >= r->chunk_voff + r->chunk_len)
			if (!next_chunk(r))
				return false;
		page = (uint8_t *)r->chunk + (r->vpos - r->chunk_voff) / r->page_size * r->page_size;
	} else {
		page = (uint8_t *)map_page(r, r->base + r->vpos, r->page_size);
		if (!page)
			return false;
	}
	r->page = page;
	r->use_kbuf = r->old_format;
	if (r->use_kbuf) {
		kbuffer_load_subbuffer(r->kbuf, (void *)page);
		if (kbuffer_subbuffer_size(r->kbuf) > r->page_size)
			return false;
	} else {
		r->pts = rb8(r, page);
		r->pdata = page + (r->long8 ? 16 : 12);
		flags = rblong(r, page + 8);
		r->psize = (uint32_t)flags & RB_COMMIT_MASK;
		if (r->psize > (uint32_t)r->page_size)
			return false;	/* a page header libtracecmd refuses: the data ends */
		/*
		 * The audit (et_audit_page()'s, without a second walk): the
		 * bytes past the commit and the stored count of missed events
		 * are zero - else the commit was cut, or the page overwritten -
		 * and the walk (rb_next) ends exactly at the commit.
		 */
		end = (r->long8 ? 16 : 12) + (uint64_t)r->psize +
		      (flags & RB_MISSING_STORED ? (r->long8 ? 8 : 4) : 0);
		r->page_bad = end > (uint64_t)r->page_size ||
			      !zero_from(page, end, r->page_size);
		if (!(flags & RB_MISSING_EVENTS))
			r->plost = 0;
		else if (flags & RB_MISSING_STORED)
			r->plost = (long long)rblong(r, r->pdata + r->psize);
		else
			r->plost = -1;
		r->pcurr = r->pindex = r->pnext = 0;
		rb_next(r);
		if (r->use_kbuf)
			to_kbuffer(r);
	}
	r->vpos += r->page_size;
	r->page_no++;
	return true;
}

/* An event claiming to reach past its page is cut at the page's end. */
static inline int clamp_size(const struct et_cpu_reader *r, const void *data, int size)
{
	long room = (long)r->page_size - ((const uint8_t *)data - r->page);

	return size > room ? (int)(room > 0 ? room : 0) : size;
}

static int kbuffer_next(struct et_cpu_reader *r, struct et_rec *rec)
{
	unsigned long long ts;
	void *data = kbuffer_read_event(r->kbuf, &ts);

	if (!data)
		return 0;
	rec->ts = ts;
	rec->data = data;
	rec->size = clamp_size(r, data, kbuffer_event_size(r->kbuf));
	rec->missed = kbuffer_missed_events(r->kbuf);
	rec->page = r->page_no;
	kbuffer_next_event(r->kbuf, NULL);
	return 1;
}

/*
 * Where the CPU's data ended: had it used up its section?  zstd chunks
 * fill their section exactly (the chunk count, then each chunk's two
 * sizes and bytes), so a chunk count cut short leaves bytes unread that
 * the count-derived page total cannot miss; pages fill the size the
 * section declares.
 */
static void account_end(struct et_cpu_reader *r)
{
	const struct et_cpu_layout *l = &r->t->layout[r->cpu];
	uint64_t used;

	if (r->ended)
		return;
	r->ended = true;
	if (l->source == ET_SRC_ZSTD) {
		used = r->zpos - (l->offset + 4);
		if (!r->chunks_left && used < l->size)
			r->t->counts.unread_bytes_per_cpu[r->cpu] += l->size - used;
	} else if (l->source == ET_SRC_PAGES && l->size > r->vend) {
		r->t->counts.unread_bytes_per_cpu[r->cpu] += l->size - r->vend;
	}
}

static int direct_next(struct et_cpu_reader *r, struct et_rec *rec)
{
	for (;;) {
		if (!r->page_loaded) {
			if (!load_page(r)) {
				r->done = true;
				account_end(r);
				return 0;
			}
			r->page_loaded = true;
		}
		if (r->use_kbuf) {
			if (kbuffer_next(r, rec))
				return 1;
		} else if (r->pcurr < r->psize) {
			uint32_t size = r->pnext - r->pindex;

			rec->ts = r->pts;
			rec->data = r->pdata + r->pindex;
			rec->size = clamp_size(r, rec->data, (int)size);
			rec->missed = r->pcurr ? 0 : r->plost;
			rec->page = r->page_no;
			rb_next(r);
			if (r->use_kbuf)
				to_kbuffer(r);
			return 1;
		}
		/* the page is read to its end: its audit is complete */
		if (r->page_bad)
			r->t->counts.bad_pages_per_cpu[r->cpu]++;
		r->page_bad = false;
		r->page_loaded = false;
	}
}

static int direct_init(struct et_cpu_reader *r)
{
	const struct et_cpu_layout *l = &r->t->layout[r->cpu];
	struct file_reader f = { .swap = r->t->dec.swap };
	char *hdr;

	r->kbuf = kbuffer_alloc(r->t->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				r->t->info.big_endian ? KBUFFER_ENDIAN_BIG :
							KBUFFER_ENDIAN_LITTLE);
	if (!r->kbuf)
		return -1;
	if (tep_is_old_format(r->t->tep)) {
		kbuffer_set_old_format(r->kbuf);
		r->old_format = true;
	}
	r->swap = r->t->dec.swap;
	r->big_endian = r->t->info.big_endian;
	r->long8 = r->t->long_size == 8;
	r->win_cap = WINDOW_BYTES > 4 * r->page_size ? WINDOW_BYTES : 4 * r->page_size;
	r->win = malloc(r->win_cap);
	if (!r->win)
		return -1;
	r->base = l->offset;
	/*
	 * Pages: the data's own bytes.  Chunks: the size the BUFFER option
	 * gives leaves out the 4-byte chunk count, and libtracecmd does not
	 * bound chunk reads by it, so neither do we: the file's end does.
	 */
	r->file_end = l->source == ET_SRC_ZSTD ? l->file_size : l->offset + l->size;
	if (l->source == ET_SRC_NONE) {
		r->done = true;
	} else {
		/* the (uncompressed) bytes of pages, as libtracecmd counts them */
		long long size = tracecmd_get_cpu_file_size(r->t->handle, r->cpu);

		r->vend = size > 0 ? (uint64_t)size : 0;
	}
	if (l->source == ET_SRC_ZSTD) {
		r->zctx = ZSTD_createDCtx();
		hdr = r->zctx ? window(r, l->offset, 4) : NULL;
		if (!hdr)
			return -1;
		r->chunks_left = num(&f, hdr, 4);
		r->zpos = l->offset + 4;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Through libtracecmd                                                 */

static int handle_next(struct et_cpu_reader *r, struct et_rec *rec)
{
	if (r->rec)
		tracecmd_free_record(r->rec);
	r->rec = tracecmd_read_data(r->handle, r->cpu);
	if (!r->rec)
		return 0;
	rec->ts = r->rec->ts;
	rec->data = r->rec->data;
	rec->size = r->rec->size;
	rec->missed = r->rec->missed_events;
	/* records of a CPU come in file order: a new page is a new offset/page */
	rec->page = r->page_size > 0 ? r->rec->offset / (uint64_t)r->page_size + 1 : 0;
	return 1;
}

/* ------------------------------------------------------------------ */

struct et_cpu_reader *et_cpu_reader_new(struct et_trace *t, int cpu,
					struct tracecmd_input *handle)
{
	struct et_cpu_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->t = t;
	r->cpu = cpu;
	r->page_size = t->page_size;
	r->handle = handle;
	if (!handle && direct_init(r)) {
		et_cpu_reader_free(r);
		return NULL;
	}
	return r;
}

int et_cpu_reader_next(struct et_cpu_reader *r, struct et_rec *rec)
{
	return r->handle ? handle_next(r, rec) : direct_next(r, rec);
}

void et_cpu_reader_free(struct et_cpu_reader *r)
{
	if (!r)
		return;
	if (r->rec)
		tracecmd_free_record(r->rec);
	if (r->kbuf)
		kbuffer_free(r->kbuf);
	ZSTD_freeDCtx(r->zctx);
	if (r->map)
		munmap(r->map, r->map_len);
	free(r->win);
	free(r->chunk);
	free(r);
}
