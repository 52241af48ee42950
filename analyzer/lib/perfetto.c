// SPDX-License-Identifier: LGPL-2.1
/*
 * Perfetto's protobuf trace format, written directly: a Trace is a
 * repeated TracePacket (field 1), each a TrackDescriptor (a thread or a
 * process) or a TrackEvent (slice begin, slice end, instant) on one packet
 * sequence, with event names, categories and annotation names interned.
 * Protobuf's wire format is small: varints, and length-delimited fields
 * (tag, length, bytes).  Field numbers are those of Perfetto's
 * protos/perfetto/trace/trace_packet.proto, track_event/track_event.proto,
 * track_descriptor.proto, process_descriptor.proto, thread_descriptor.proto,
 * debug_annotation.proto and interned_data/interned_data.proto.
 *
 * A slice is a BEGIN and an END packet of ~20 bytes each with interned
 * names, against ~200 bytes of JSON per syscall.
 */
#include <stdlib.h>
#include <string.h>

#include "perfetto.h"

/* Field numbers. */
enum {
	TRACE_PACKET = 1,

	TP_TIMESTAMP = 8,
	TP_SEQUENCE_ID = 10,		/* trusted_packet_sequence_id */
	TP_TRACK_EVENT = 11,
	TP_INTERNED_DATA = 12,
	TP_SEQUENCE_FLAGS = 13,
	TP_TRACK_DESCRIPTOR = 60,

	TE_CATEGORY_IIDS = 3,
	TE_DEBUG_ANNOTATIONS = 4,
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,

	TD_UUID = 1,
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_THREAD = 4,

	PD_PID = 1,
	PD_PROCESS_NAME = 6,

	THD_PID = 1,
	THD_TID = 2,
	THD_THREAD_NAME = 5,

	DA_NAME_IID = 1,
	DA_BOOL_VALUE = 2,
	DA_INT_VALUE = 4,
	DA_STRING_VALUE = 6,

	ID_EVENT_CATEGORIES = 1,
	ID_EVENT_NAMES = 2,
	ID_DEBUG_ANNOTATION_NAMES = 3,
	IID_IID = 1,			/* EventName, EventCategory, DebugAnnotationName */
	IID_NAME = 2,
};

#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQ_NEEDS_INCREMENTAL_STATE 2
#define SEQUENCE 1

/* ------------------------------------------------------------------ */
/* Wire format                                                         */

struct buf {
	unsigned char *p;
	size_t n, cap;
	bool failed;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		unsigned char *p;

		while (cap < b->n + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void varint(struct buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		tmp[n] = v & 0x7f;
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	put(b, tmp, n);
}

static void field_varint(struct buf *b, int field, uint64_t v)
{
	varint(b, (uint64_t)field << 3 | 0);
	varint(b, v);
}

static void field_bytes(struct buf *b, int field, const void *data, size_t n)
{
	varint(b, (uint64_t)field << 3 | 2);
	varint(b, n);
	put(b, data, n);
}

static void field_str(struct buf *b, int field, const char *s)
{
	field_bytes(b, field, s, strlen(s));
}

/* A nested message: its bytes come from sub. */
static void field_msg(struct buf *b, int field, struct buf *sub)
{
	field_bytes(b, field, sub->p, sub->n);
	b->failed |= sub->failed;
	sub->n = 0;
}

/* ------------------------------------------------------------------ */
/* Interning                                                           */

struct strtab {
	char **s;
	size_t n, cap;
};

/* iid of s (1-based) in the table; *fresh when it was just added. */
static uint64_t intern(struct strtab *t, const char *s, bool *fresh, bool *failed)
{
	*fresh = false;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i], s))
			return i + 1;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **p = realloc(t->s, cap * sizeof(*p));

		if (!p) {
			*failed = true;
			return 0;
		}
		t->s = p;
		t->cap = cap;
	}
	t->s[t->n] = strdup(s);
	if (!t->s[t->n]) {
		*failed = true;
		return 0;
	}
	*fresh = true;
	return ++t->n;
}

struct et_perfetto {
	FILE *out;
	struct buf pkt, sub, sub2, interned, names, cats, anns;
	struct strtab name_tab, cat_tab, ann_tab;
	bool first;
	bool failed;
	uint64_t packets, bytes;
};

struct et_perfetto *et_perfetto_new(FILE *out)
{
	struct et_perfetto *p = calloc(1, sizeof(*p));

	if (p) {
		p->out = out;
		p->first = true;
	}
	return p;
}

static void tab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
}

bool et_perfetto_free(struct et_perfetto *p, uint64_t *packets, uint64_t *bytes)
{
	bool ok;

	if (!p)
		return false;
	ok = !p->failed;
	if (packets)
		*packets = p->packets;
	if (bytes)
		*bytes = p->bytes;
	free(p->pkt.p);
	free(p->sub.p);
	free(p->sub2.p);
	free(p->interned.p);
	free(p->names.p);
	free(p->cats.p);
	free(p->anns.p);
	tab_free(&p->name_tab);
	tab_free(&p->cat_tab);
	tab_free(&p->ann_tab);
	free(p);
	return ok;
}

/*
 * Interned entries the next packet brings along (its InternedData): kept
 * length-prefixed per kind until the packet is written.
 */
static void entry(struct buf *pending, struct buf *e)
{
	varint(pending, e->n);
	put(pending, e->p, e->n);
}

static uint64_t iid(struct et_perfetto *p, struct strtab *t, struct buf *pending,
		    const char *s)
{
	bool fresh;
	uint64_t id = intern(t, s, &fresh, &p->failed);

	if (fresh) {
		struct buf e = { 0 };

		field_varint(&e, IID_IID, id);
		field_str(&e, IID_NAME, s);
		entry(pending, &e);
		p->failed |= e.failed;
		free(e.p);
	}
	return id;
}

/* Turn the length-prefixed pending entries into InternedData fields. */
static void flush_interned(struct buf *interned, int field, struct buf *pending)
{
	size_t i = 0;

	while (i < pending->n) {
		uint64_t len = 0;
		int shift = 0;

		while (i < pending->n) {
			unsigned char c = pending->p[i++];

			len |= (uint64_t)(c & 0x7f) << shift;
			shift += 7;
			if (!(c & 0x80))
				break;
		}
		field_bytes(interned, field, pending->p + i, len);
		i += len;
	}
	pending->n = 0;
}

/* Wrap the packet in pkt as Trace.packet and write it. */
static void emit(struct et_perfetto *p, uint64_t ts, bool has_ts)
{
	struct buf head = { 0 };

	if (has_ts)
		field_varint(&head, TP_TIMESTAMP, ts);
	field_varint(&head, TP_SEQUENCE_ID, SEQUENCE);
	field_varint(&head, TP_SEQUENCE_FLAGS, p->first ? SEQ_INCREMENTAL_STATE_CLEARED :
		     SEQ_NEEDS_INCREMENTAL_STATE);
	p->first = false;
	if (p->names.n || p->cats.n || p->anns.n) {
		flush_interned(&p->interned, ID_EVENT_NAMES, &p->names);
		flush_interned(&p->interned, ID_EVENT_CATEGORIES, &p->cats);
		flush_interned(&p->interned, ID_DEBUG_ANNOTATION_NAMES, &p->anns);
		field_msg(&head, TP_INTERNED_DATA, &p->interned);
	}
	put(&head, p->pkt.p, p->pkt.n);
	p->pkt.n = 0;
	varint(&p->sub2, (uint64_t)TRACE_PACKET << 3 | 2);
	varint(&p->sub2, head.n);
	if (fwrite(p->sub2.p, 1, p->sub2.n, p->out) != p->sub2.n ||
	    fwrite(head.p, 1, head.n, p->out) != head.n)
		p->failed = true;
	p->bytes += p->sub2.n + head.n;
	p->sub2.n = 0;
	p->packets++;
	p->failed |= head.failed;
	free(head.p);
}

/* ------------------------------------------------------------------ */
/* Tracks and events                                                   */

void et_perfetto_process(struct et_perfetto *p, uint64_t uuid, int pid, const char *name)
{
	field_varint(&p->sub, PD_PID, (uint64_t)(uint32_t)pid);
	field_str(&p->sub, PD_PROCESS_NAME, name);
	field_varint(&p->sub2, TD_UUID, uuid);
	field_msg(&p->sub2, TD_PROCESS, &p->sub);
	field_msg(&p->pkt, TP_TRACK_DESCRIPTOR, &p->sub2);
	emit(p, 0, false);
}

void et_perfetto_thread(struct et_perfetto *p, uint64_t uuid, int pid, int tid,
			const char *name)
{
	field_varint(&p->sub, THD_PID, (uint64_t)(uint32_t)pid);
	field_varint(&p->sub, THD_TID, (uint64_t)(uint32_t)tid);
	field_str(&p->sub, THD_THREAD_NAME, name);
	field_varint(&p->sub2, TD_UUID, uuid);
	field_msg(&p->sub2, TD_THREAD, &p->sub);
	field_msg(&p->pkt, TP_TRACK_DESCRIPTOR, &p->sub2);
	emit(p, 0, false);
}

void et_perfetto_track(struct et_perfetto *p, uint64_t uuid, const char *name)
{
	field_varint(&p->sub2, TD_UUID, uuid);
	field_str(&p->sub2, TD_NAME, name);
	field_msg(&p->pkt, TP_TRACK_DESCRIPTOR, &p->sub2);
	emit(p, 0, false);
}

void et_perfetto_event(struct et_perfetto *p, enum et_perfetto_type type, uint64_t ts,
		       uint64_t track, const char *cat, const char *name,
		       const struct et_perfetto_arg *args, int nr_args)
{
	field_varint(&p->sub2, TE_TYPE, type);
	field_varint(&p->sub2, TE_TRACK_UUID, track);
	if (type != ET_PF_END) {
		field_varint(&p->sub2, TE_CATEGORY_IIDS, iid(p, &p->cat_tab, &p->cats, cat));
		field_varint(&p->sub2, TE_NAME_IID, iid(p, &p->name_tab, &p->names, name));
	}
	for (int i = 0; i < nr_args; i++) {
		field_varint(&p->sub, DA_NAME_IID, iid(p, &p->ann_tab, &p->anns, args[i].name));
		if (args[i].str)
			field_str(&p->sub, DA_STRING_VALUE, args[i].str);
		else if (args[i].is_bool)
			field_varint(&p->sub, DA_BOOL_VALUE, args[i].i != 0);
		else
			field_varint(&p->sub, DA_INT_VALUE, (uint64_t)args[i].i);
		field_msg(&p->sub2, TE_DEBUG_ANNOTATIONS, &p->sub);
	}
	field_msg(&p->pkt, TP_TRACK_EVENT, &p->sub2);
	emit(p, ts, true);
}
