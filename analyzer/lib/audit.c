// SPDX-License-Identifier: LGPL-2.1
/*
 * Audit: a CPU's data held against the file's own size fields and page
 * headers.
 *
 * Counting the pages that gave records against the pages the header says
 * a CPU holds cannot see a damaged size field: both come from the same
 * header and shrink together.  Two facts of the format can:
 *
 *   - the ring buffer hands out pages whose bytes past the commit length
 *     (and past the stored count of missed events) are zero - the kernel
 *     clears them (ring_buffer_read_page) - so a page with data past its
 *     commit had its commit shortened, or its bytes overwritten;
 *   - in a version 6 file the CPUs' data follow each other and end the
 *     file, so the bytes between the end of a CPU's data as its size field
 *     says and the next CPU's data (or the file's end) are empty, unless
 *     the size field is short.
 *
 * The page reader (pages.c) checks every page it parses and, for zstd,
 * that its chunks used up the section; here the same for a version 6
 * file, which libtracecmd reads.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "entrytrace-local.h"
#include "tracecmd-compat.h"

#define RB_MISSING_EVENTS	(1ull << 31)
#define RB_MISSING_STORED	(1ull << 30)
#define RB_COMMIT_MASK		((1u << 27) - 1)

static uint64_t rd(const uint8_t *p, int n, bool big_endian)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

/*
 * The events of a page, walked by their headers as kbuffer walks them
 * (32 bits: a 5-bit type or length, a 27-bit time delta; padding and
 * length-prefixed events say their length in the next word; time extends
 * and stamps are 8 bytes): they must end exactly at the commit.
 */
static bool walk_ends_at(const uint8_t *data, uint64_t commit, bool big_endian)
{
	uint64_t at = 0;

	while (at < commit) {
		uint32_t h, type;
		uint64_t next;

		if (at + 4 > commit)
			return false;
		h = (uint32_t)rd(data + at, 4, big_endian);
		type = big_endian ? (h >> 27) & 31 : h & 31;
		switch (type) {
		case 29:	/* padding: its length follows */
			if (at + 8 > commit)
				return false;
			next = at + 4 + rd(data + at + 4, 4, big_endian);
			break;
		case 30:	/* time extend */
		case 31:	/* time stamp */
			next = at + 8;
			break;
		case 0:		/* a longer event: its length (itself included) follows */
			if (at + 8 > commit)
				return false;
			next = at + 8 + ((rd(data + at + 4, 4, big_endian) - 4 + 3) & ~3ull);
			break;
		default:
			next = at + 4 + 4ull * type;
			break;
		}
		if (next <= at || next > commit)
			return false;
		at = next;
	}
	return true;
}

/*
 * A page whose bytes agree with its header: a commit inside the page, the
 * events ending exactly there, and nothing but zeros after them (and after
 * the stored count of missed events).
 */
bool et_audit_page(const uint8_t *page, int page_size, bool long8, bool big_endian)
{
	int hdr = long8 ? 16 : 12, lsz = long8 ? 8 : 4;
	uint64_t flags = rd(page + 8, lsz, big_endian);
	uint64_t commit = flags & RB_COMMIT_MASK;
	uint64_t end = hdr + commit + (flags & RB_MISSING_STORED ? lsz : 0);

	if (end > (uint64_t)page_size)
		return false;
	for (uint64_t i = end; i < (uint64_t)page_size; i++)
		if (page[i])
			return false;
	return walk_ends_at(page + hdr, commit, big_endian);
}

/*
 * A file libtracecmd reads (version 6): every page of each CPU's data, as
 * the index (index.c) places them.  What lies between the CPUs' data is
 * the index's to check.
 */
void et_audit_v6(struct et_trace *t)
{
	int ps = t->page_size;
	uint8_t *page = malloc(ps);
	bool long8 = t->long_size == 8;

	if (!page || t->info.file_version != 6 || t->info.compression || !t->index.valid)
		goto out;
	for (int i = 0; i < t->index.nr_cpu; i++) {
		const struct et_index_cpu *s = &t->index.cpu[i];

		if (s->cpu >= t->info.cpus)
			continue;
		for (uint64_t p = s->off; s->size && p + ps <= s->off + s->size; p += ps)
			if (pread(t->fd, page, ps, (off_t)p) == ps &&
			    !et_audit_page(page, ps, long8, t->info.big_endian))
				t->counts.bad_pages_per_cpu[s->cpu]++;
	}
out:
	free(page);
}
