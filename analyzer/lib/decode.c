// SPDX-License-Identifier: LGPL-2.1
/*
 * Decode: records -> struct et_event.
 *
 * Once per trace every event the analyzer understands (lib/events.def and
 * the entry_stage events of tracepoints/stages.def) is looked up by name
 * and its fields resolved to (offset, size, signedness); a table indexed by
 * event id then turns each record into a typed event without a string
 * compare.  Numbers are read in the file's byte order, signed fields
 * sign-extended from their own size.  Where a record came from - a page of
 * the file, a zstd chunk, libtracecmd, a live buffer - is not this file's
 * business.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "entrytrace-local.h"

/* The kernel's counter ticks at @khz to ns, rounded; khz 0 (PMU): cycles. */
static inline uint64_t ticks_ns(uint64_t ticks, uint64_t khz)
{
	if (!khz)
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * 1000000 + khz / 2) / khz);
}

/* The events' stamp_cost, thousandths of a tick at @khz, in ns (cycles). */
static inline double stamp_ns(uint64_t milli_ticks, uint64_t khz)
{
	return khz ? milli_ticks * 1000.0 / khz : milli_ticks / 1000.0;
}

static inline uint64_t rd_u(const struct et_decoder *d, const void *p, int size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return d->swap ? __builtin_bswap16(v) : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return d->swap ? __builtin_bswap32(v) : v;
	}
	case 8: {
		uint64_t v;
		memcpy(&v, p, 8);
		return d->swap ? __builtin_bswap64(v) : v;
	}
	}
	return 0;
}

/*
 * Read a fixed field the record is known to hold: et_decode() has checked
 * the record against its event's min_size (check_formats(): the end of
 * the format's last field).  Signed fields are sign-extended from their
 * own size.
 */
static inline int64_t rd_fixed(const struct et_decoder *d, const struct et_rec *rec,
			       const struct et_field *f)
{
	const char *p = (const char *)rec->data + f->offset;

	switch (f->size) {
	case 8:
		return (int64_t)rd_u(d, p, 8);
	case 4:
		return f->is_signed ? (int64_t)(int32_t)rd_u(d, p, 4) :
				      (int64_t)rd_u(d, p, 4);
	case 2:
		return f->is_signed ? (int64_t)(int16_t)rd_u(d, p, 2) :
				      (int64_t)rd_u(d, p, 2);
	case 1:
		return f->is_signed ? (int64_t)(int8_t)rd_u(d, p, 1) :
				      (int64_t)rd_u(d, p, 1);
	}
	return 0;
}

/* The same, for a record not checked yet: 0 if the field is past its end. */
static inline int64_t rd_field(const struct et_decoder *d, const struct et_rec *rec,
			       const struct et_field *f)
{
	if (__builtin_expect(f->offset + f->size > rec->size, 0))
		return 0;
	return rd_fixed(d, rec, f);
}

static const char *rd_comm(const struct et_rec *rec, const struct et_field *f, char *buf)
{
	int n = f->size < ET_COMM_LEN ? f->size : ET_COMM_LEN;

	if (f->size <= 0 || f->offset + f->size > rec->size) {
		buf[0] = '\0';
		return buf;
	}
	memcpy(buf, (const char *)rec->data + f->offset, n);
	buf[n] = '\0';
	buf[strnlen(buf, n)] = '\0';
	return buf;
}

/* __data_loc / __rel_loc string, bounded by the record. */
static const char *rd_dynstr(const struct et_decoder *d, const struct et_rec *rec,
			     const struct et_field *f, int *len)
{
	uint32_t loc;
	int off, n;

	if (f->size != 4 || f->offset + 4 > rec->size)
		return NULL;
	loc = (uint32_t)rd_u(d, (const char *)rec->data + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (f->is_signed)	/* relative to the end of the field */
		off += f->offset + 4;
	if (off < 0 || off + n > rec->size)
		return NULL;
	*len = n;
	return (const char *)rec->data + off;
}

/* ------------------------------------------------------------------ */
/* The formats of the events the analyzer reads, held against C         */

/*
 * The size (and signedness: 1, 0, or -1 either) a field's C type has in
 * the kernel that wrote the format; 0 for a type not known here.
 */
static int type_size(const char *type, int long_size, int *sign)
{
	static const struct { const char *name; int size, sign; } types[] = {
		{ "char", 1, -1 }, { "signed char", 1, 1 }, { "unsigned char", 1, 0 },
		{ "bool", 1, -1 }, { "_Bool", 1, -1 }, { "u8", 1, 0 }, { "s8", 1, 1 },
		{ "__u8", 1, 0 }, { "short", 2, 1 }, { "unsigned short", 2, 0 },
		{ "u16", 2, 0 }, { "s16", 2, 1 }, { "__u16", 2, 0 }, { "int", 4, 1 },
		{ "unsigned int", 4, 0 }, { "unsigned", 4, 0 }, { "u32", 4, 0 },
		{ "s32", 4, 1 }, { "__u32", 4, 0 }, { "pid_t", 4, 1 },
		{ "long long", 8, 1 }, { "unsigned long long", 8, 0 }, { "u64", 8, 0 },
		{ "s64", 8, 1 }, { "__u64", 8, 0 }, { "long", -1, 1 },
		{ "unsigned long", -1, 0 }, { "size_t", -1, 0 }, { "ssize_t", -1, 1 },
	};
	char base[64];
	size_t n;

	while (!strncmp(type, "const ", 6) || !strncmp(type, "volatile ", 9))
		type = strchr(type, ' ') + 1;
	*sign = -1;
	if (strchr(type, '*'))
		return long_size;
	n = strcspn(type, "[");
	if (n >= sizeof(base))
		return 0;
	memcpy(base, type, n);
	while (n && base[n - 1] == ' ')
		n--;
	base[n] = '\0';
	for (size_t i = 0; i < ET_ARRAY_SIZE(types); i++)
		if (!strcmp(base, types[i].name)) {
			*sign = types[i].sign;
			return types[i].size < 0 ? long_size : types[i].size;
		}
	return 0;
}

/*
 * An event's fields, in the order the format lists them (the kernel's
 * struct), against each other and their C types: each field the size its
 * type has (an array: its element's, times its length; a dynamic field: a
 * 4-byte locator), the signedness its type has, aligned to its element
 * (up to 4 bytes), after the end of the one before it and no further than
 * alignment padding.  One digit changed in a format's offsets, sizes or
 * signs breaks one of these, and it is named.  false, errbuf set.
 */
static bool check_format(const struct tep_event *ev, int long_size, const char *path,
			 char *errbuf, size_t errlen, int *min_size)
{
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	/*
	 * syscalls:sys_enter_<name> stores every argument as an unsigned long
	 * under its declared type's name (kernel/trace/trace_syscalls.c):
	 * "pid_t pid; size:8; signed:0" is what the kernel writes, not damage.
	 */
	bool sysargs = !strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_enter_", 10);
	const char *prev = NULL;
	int end = 0;

	for (int l = 0; l < 2; l++)
		for (const struct tep_format_field *f = lists[l]; f; f = f->next) {
			bool dyn = f->flags & TEP_FIELD_IS_DYNAMIC;
			bool arr = !dyn && (f->flags & TEP_FIELD_IS_ARRAY);
			/* a syscall argument: an unsigned long, whatever its type says */
			bool arg = sysargs && l == 1 && !dyn && !arr && strcmp(f->name, "__syscall_nr");
			int sign = arg ? 0 : -1;
			int base = dyn ? 4 : arg ? long_size : type_size(f->type, long_size, &sign);
			int size = (int)f->size, offset = (int)f->offset, alen = (int)f->arraylen;
			int elem = arr ? (base ? base : (int)f->elementsize) : (dyn ? 4 : size);
			int align = elem == 2 || elem == 4 || elem == 8 ? (elem < 4 ? elem : 4) : 1;
			int pad = elem == 2 || elem == 4 || elem == 8 ? elem : 1;
			const char *why = NULL;
			char buf[128];

			if (dyn && size != 4) {
				snprintf(buf, sizeof(buf), "a dynamic field of %d bytes, not 4", size);
				why = buf;
			} else if (arr && base && (alen <= 0 || size != base * alen)) {
				snprintf(buf, sizeof(buf), "%d bytes, its type %s makes it %d", size,
					 f->type, base * (alen > 0 ? alen : 0));
				why = buf;
			} else if (!dyn && !arr && base && size != base) {
				int sg;
				/* a long: its size is the header's word, not the format's */
				bool lng = arg || type_size(f->type, 8, &sg) != type_size(f->type, 4, &sg);

				snprintf(buf, sizeof(buf), "%d bytes, its type %s has %d%s", size,
					 f->type, base, lng ? " (the file's header says a long "
					 "has that many)" : "");
				why = buf;
			} else if (!dyn && !arr && base && sign >= 0 &&
				   !!(f->flags & TEP_FIELD_IS_SIGNED) != sign) {
				snprintf(buf, sizeof(buf), "signed:%d, its type %s is %s",
					 !!(f->flags & TEP_FIELD_IS_SIGNED), f->type,
					 sign ? "signed" : "unsigned");
				why = buf;
			} else if (offset < 0 || size <= 0 || offset % align) {
				snprintf(buf, sizeof(buf), "at offset %d, %d bytes: not aligned to "
					 "its %d-byte type", offset, size, align);
				why = buf;
			} else if (offset < end) {
				snprintf(buf, sizeof(buf), "at offset %d overlaps %s, which ends at "
					 "%d", offset, prev, end);
				why = buf;
			} else if (offset - end >= pad) {
				snprintf(buf, sizeof(buf), "at offset %d, %d bytes after %s ends: "
					 "more than alignment padding", offset, offset - end,
					 prev ? prev : "the header");
				why = buf;
			}
			if (why) {
				snprintf(errbuf, errlen, "%s: the format of %s:%s does not hold together: "
					 "field %s %s", path, ev->system, ev->name, f->name, why);
				return false;
			}
			end = offset + size;
			prev = f->name;
		}
	*min_size = end;
	return true;
}

/* Every event the decoder reads: its format, and the bytes its records need. */
static enum et_err check_formats(struct et_decoder *d, struct tep_handle *tep,
				 const struct et_trace_info *info, char *errbuf, size_t errlen)
{
	int long_size = tep_get_long_size(tep);

	d->min_size = calloc(d->max_id + 1, sizeof(*d->min_size));
	if (!d->min_size) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	for (int id = 0; id <= d->max_id; id++) {
		struct tep_event *ev;
		int need;

		if (d->handlers[id] == H_NONE || d->handlers[id] == H_UNREGISTERED)
			continue;
		ev = tep_find_event(tep, id);
		if (!ev)
			continue;
		if (!check_format(ev, long_size ? long_size : 8, info->path, errbuf, errlen, &need))
			return ET_ERR_FORMAT;
		d->min_size[id] = need > UINT16_MAX ? UINT16_MAX : need;
	}
	return ET_OK;
}

/* ------------------------------------------------------------------ */
/* Field resolution                                                    */

static bool resolve(struct tep_event *ev, const char *name, struct et_field *f)
{
	struct tep_format_field *fld = tep_find_any_field(ev, name);

	if (!fld)
		return false;
	f->offset = fld->offset;
	f->size = fld->size;
	if (fld->flags & TEP_FIELD_IS_DYNAMIC)
		f->is_signed = fld->flags & TEP_FIELD_IS_RELATIVE;
	else
		f->is_signed = fld->flags & TEP_FIELD_IS_SIGNED;
	return true;
}

static void set_handler(struct et_decoder *d, struct tep_event *ev,
			enum et_handler_kind kind)
{
	if (!ev || ev->id < 0 || ev->id > d->max_id)
		return;
	d->handlers[ev->id] = kind;
}

/*
 * raw_syscalls:sys_enter's args[6]: an array of unsigned long, 8 or 4
 * bytes each.  Optional: without it a syscall has no argument shape.
 */
static void resolve_enter_args(struct et_decoder *d, struct tep_event *ev)
{
	struct tep_format_field *fld = tep_find_field(ev, "args");

	if (!fld || !(fld->flags & TEP_FIELD_IS_ARRAY) ||
	    (fld->elementsize != 4 && fld->elementsize != 8) ||
	    fld->size < ET_SC_ARGS * (int)fld->elementsize || !resolve(ev, "args", &d->enter_args))
		return;
	d->enter_arg_size = fld->elementsize;
}

/*
 * syscalls:sys_enter_<name>: __syscall_nr, then the syscall's arguments in
 * order, each a field of its own; the first ET_SC_ARGS of them.
 */
static bool resolve_args_event(struct et_decoder *d, struct tep_event *ev)
{
	struct et_args_event *a;
	struct tep_format_field *fld;

	if (d->nr_args_ev == (int)ET_ARRAY_SIZE(d->args_ev))
		return false;
	a = &d->args_ev[d->nr_args_ev];
	memset(a, 0, sizeof(*a));
	if (!resolve(ev, "__syscall_nr", &a->nr))
		return false;
	for (fld = ev->format.fields; fld && a->nargs < ET_SC_ARGS; fld = fld->next) {
		if (!strcmp(fld->name, "__syscall_nr") || (fld->flags & TEP_FIELD_IS_ARRAY) ||
		    (fld->size != 4 && fld->size != 8))
			continue;
		resolve(ev, fld->name, &a->arg[a->nargs++]);
	}
	a->id = ev->id;
	d->nr_args_ev++;
	return true;
}

/* The fields a handler reads: false if one it cannot do without is missing. */
static bool resolve_fields(struct et_decoder *d, struct tep_event *ev,
			   enum et_handler_kind h)
{
	switch (h) {
	case H_SYS_ENTER:
		if (!resolve(ev, "id", &d->enter_id))
			return false;
		resolve_enter_args(d, ev);
		return true;
	case H_SYS_ARGS:
		return resolve_args_event(d, ev);
	case H_SYS_EXIT:
		return resolve(ev, "id", &d->exit_id) && resolve(ev, "ret", &d->exit_ret);
	case H_SIGNAL_DELIVER:
		return resolve(ev, "sig", &d->sig);
	case H_SCHED_SWITCH:
		if (!resolve(ev, "prev_pid", &d->sw_prev_pid) ||
		    !resolve(ev, "next_pid", &d->sw_next_pid) ||
		    !resolve(ev, "prev_state", &d->sw_prev_state))
			return false;
		resolve(ev, "prev_comm", &d->sw_prev_comm);
		resolve(ev, "next_comm", &d->sw_next_comm);
		return true;
	case H_PROCESS_EXIT:
		if (!resolve(ev, "pid", &d->pexit_pid))
			return false;
		resolve(ev, "comm", &d->pexit_comm);
		return true;
	case H_PROCESS_FORK:
		if (!resolve(ev, "child_pid", &d->fork_child_pid))
			return false;
		resolve(ev, "child_comm", &d->fork_child_comm);
		return true;
	case H_TASK_NEWTASK:
		if (!resolve(ev, "pid", &d->newtask_pid))
			return false;
		resolve(ev, "comm", &d->newtask_comm);
		resolve(ev, "clone_flags", &d->newtask_flags);
		return true;
	case H_TASK_RENAME:
		if (!resolve(ev, "pid", &d->rename_pid) ||
		    !resolve(ev, "newcomm", &d->rename_newcomm))
			return false;
		resolve(ev, "oldcomm", &d->rename_oldcomm);
		return true;
	case H_PROCESS_EXEC:
		return resolve(ev, "pid", &d->exec_pid) &&
		       resolve(ev, "old_pid", &d->exec_old_pid) &&
		       resolve(ev, "filename", &d->exec_filename);
	default:
		return true;	/* no fields: the event itself is the news */
	}
}

#define ET_HAVE_NONE 0
static const struct stock_event {
	const char *sys, *name;
	uint8_t handler;
	unsigned int family;
	bool with_prev;
} stock_events[] = {
#define ET_EVENT(sys, name, handler, family, record, link) \
	{ #sys, #name, H_##handler, ET_HAVE_##family, ET_LINK_##link },
#define ET_LINK_ALONE false
#define ET_LINK_WITH_PREV true
#include "events.def"
#undef ET_EVENT
};

static void resolve_stock(struct et_decoder *d, struct tep_handle *tep,
			  struct et_trace_info *info)
{
	bool prev = false;

	for (size_t i = 0; i < ET_ARRAY_SIZE(stock_events); i++) {
		const struct stock_event *s = &stock_events[i];
		struct tep_event *ev;

		if (s->with_prev && !prev)
			continue;	/* an exit without its entry */
		ev = tep_find_event_by_name(tep, s->sys, s->name);
		prev = ev && resolve_fields(d, ev, s->handler);
		if (!prev)
			continue;
		set_handler(d, ev, s->handler);
		info->present |= s->family;
	}
}

/*
 * ABI 2 (the first kernel series) had one entry_stage event per stage and
 * entry_stage:summary; ABI 3 has entry_stage_time with the stage id,
 * entry_stage_summary and entry_stage_calib, and counts counter ticks.
 */
static bool abi2_events(struct tep_handle *tep)
{
	if (tep_find_event_by_name(tep, "entry_stage", "summary"))
		return true;
	for (int i = 0; i < ET_STAGE_KERNEL_NR; i++)
		if (tep_find_event_by_name(tep, "entry_stage", et_stages[i].name))
			return true;
	return false;
}

/*
 * The recording's stage ids by name.  entry_stage_time prints its stage
 * through __print_symbolic() with the kernel's whole table, so a file that
 * has its format names every id; summary-only recordings lack it, and
 * their ids are taken by position: the vocabulary is append-only, so an
 * older kernel's ids are a prefix of this analyzer's, and a newer kernel's
 * extra ids are stages it does not know.
 */
static int stage_map(struct et_decoder *d, struct tep_handle *tep, int slots)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_time");
	const struct tep_print_arg *a = ev ? ev->print_fmt.args : NULL;
	int n = slots > ET_STAGE_KERNEL_NR ? slots : ET_STAGE_KERNEL_NR;
	size_t ulen = 0;

	while (a && a->type != TEP_PRINT_SYMBOL)
		a = a->next;
	for (const struct tep_print_flag_sym *sym = a ? a->symbol.symbols : NULL; sym; sym = sym->next)
		if (atoi(sym->value) >= n)
			n = atoi(sym->value) + 1;
	/*
	 * The kernel prints its stage table whole: ids 0, 1, 2... in order,
	 * each name once.  A digit changed there would map a stage to
	 * another's name.
	 */
	{
		int want = 0;

		for (const struct tep_print_flag_sym *sym = a ? a->symbol.symbols : NULL; sym;
		     sym = sym->next, want++) {
			bool dup = false;

			for (const struct tep_print_flag_sym *o = a->symbol.symbols; o != sym; o = o->next)
				dup |= !strcmp(o->str, sym->str);
			if (strtol(sym->value, NULL, 0) != want || dup) {
				snprintf(d->unknown_names, sizeof(d->unknown_names),
					 "its stage table gives id %s to %s, where id %d%s is due",
					 sym->value, sym->str, want, dup ? " and a name not seen before" : "");
				return -2;
			}
		}
	}
	d->kmap = malloc(n * sizeof(*d->kmap));
	if (!d->kmap)
		return -1;
	d->kmap_len = n;
	for (int i = 0; i < n; i++)
		d->kmap[i] = !a && i < ET_STAGE_KERNEL_NR ? i : -1;
	for (const struct tep_print_flag_sym *sym = a ? a->symbol.symbols : NULL; sym; sym = sym->next) {
		int kid = atoi(sym->value), id = et_slot_by_name(sym->str);

		d->kmap[kid] = id >= 0 && id < ET_STAGE_KERNEL_NR ? id : -1;
		if (d->kmap[kid] < 0 && ulen < sizeof(d->unknown_names))
			ulen += snprintf(d->unknown_names + ulen, sizeof(d->unknown_names) - ulen,
					 "%s%s", ulen ? ", " : "", sym->str);
	}
	for (int i = !a ? ET_STAGE_KERNEL_NR : n; i < slots; i++)
		if (ulen < sizeof(d->unknown_names))
			ulen += snprintf(d->unknown_names + ulen, sizeof(d->unknown_names) - ulen,
					 "%sid %d", ulen ? ", " : "", i);
	return 0;
}

static enum et_err resolve_stages(struct et_decoder *d, struct tep_handle *tep,
				  struct et_trace_info *info, char *errbuf, size_t errlen)
{
	struct tep_event *ev;

	if (abi2_events(tep)) {
		snprintf(errbuf, errlen,
			 "%s: recorded on a kernel with the first entry_stage series (ABI 2: one event per stage); this analyzer reads series v2 (ABI 3: entry_stage_time, entry_stage_summary): record again on a v2 kernel",
			 info->path);
		return ET_ERR_ABI;
	}
	ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_time");
	if (ev) {
		if (!resolve(ev, "seq", &d->st_seq) ||
		    !resolve(ev, "nr", &d->st_nr) ||
		    !resolve(ev, "stage", &d->st_stage) ||
		    !resolve(ev, "work", &d->st_work) ||
		    !resolve(ev, "count", &d->st_count) ||
		    !resolve(ev, "khz", &d->st_khz) ||
		    !resolve(ev, "sample", &d->st_sample) ||
		    !resolve(ev, "stamp_cost", &d->st_cost) ||
		    !resolve(ev, "start", &d->st_start) ||
		    !resolve(ev, "delta", &d->st_delta) ||
		    !resolve(ev, "insns", &d->st_insns) ||
		    !resolve(ev, "ret", &d->st_ret)) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_time lacks a field this analyzer needs (kernel built from another stages.def?)",
				 info->path);
			return ET_ERR_ABI;
		}
		set_handler(d, ev, H_STAGE);
		info->stage_events = 1;
		info->stage_formats = (1ull << ET_STAGE_KERNEL_NR) - 1;
		info->present |= ET_HAVE_STAGES;
	}

	ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_summary");
	if (ev) {
		if (!resolve(ev, "seq", &d->su_seq) ||
		    !resolve(ev, "tail_seq", &d->su_tail_seq) ||
		    !resolve(ev, "nr", &d->su_nr) ||
		    !resolve(ev, "work", &d->su_work) ||
		    !resolve(ev, "ret", &d->su_ret) ||
		    !resolve(ev, "start", &d->su_start) ||
		    !resolve(ev, "rcu_unlock_slow", &d->su_rcu) ||
		    !resolve(ev, "sample", &d->su_sample) ||
		    !resolve(ev, "khz", &d->su_khz) ||
		    !resolve(ev, "stamp_cost", &d->su_cost) ||
		    !resolve(ev, "delta", &d->su_delta)) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_summary lacks a field this analyzer needs",
				 info->path);
			return ET_ERR_ABI;
		}
		d->have_su_span = resolve(ev, "span", &d->su_span);
		if (d->have_su_span)
			info->present |= ET_HAVE_SPAN;
		d->su_nr_delta = d->su_delta.size / 4;
		set_handler(d, ev, H_SUMMARY);
		info->present |= ET_HAVE_SUMMARY;
	}

	switch (stage_map(d, tep, d->su_nr_delta)) {
	case -1:
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	case -2:
		snprintf(errbuf, errlen, "%s: the format of entry_stage:entry_stage_time does "
			 "not hold together: %s", info->path, d->unknown_names);
		d->unknown_names[0] = '\0';
		return ET_ERR_FORMAT;
	}
	/* aggregation: read in summary mode */
	ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_hist");
	if (ev && resolve(ev, "abi", &d->hi_abi) && resolve(ev, "cpu", &d->hi_cpu) &&
	    resolve(ev, "stages", &d->hi_stages) &&
	    resolve(ev, "nr", &d->hi_nr) && resolve(ev, "work", &d->hi_work) &&
	    resolve(ev, "stage", &d->hi_stage) && resolve(ev, "sample", &d->hi_sample) &&
	    resolve(ev, "khz", &d->hi_khz) && resolve(ev, "stamp_cost", &d->hi_cost) &&
	    resolve(ev, "agg_cost", &d->hi_agg_cost) && resolve(ev, "dropped", &d->hi_dropped) &&
	    resolve(ev, "count", &d->hi_count) && resolve(ev, "sum", &d->hi_sum) &&
	    resolve(ev, "sumsq", &d->hi_sumsq) && resolve(ev, "agg", &d->hi_agg) &&
	    resolve(ev, "min", &d->hi_min) && resolve(ev, "max", &d->hi_max) &&
	    resolve(ev, "bits", &d->hi_bits) && resolve(ev, "lo", &d->hi_lo) &&
	    resolve(ev, "buckets", &d->hi_buckets)) {
		set_handler(d, ev, H_HIST);
		info->present |= ET_HAVE_HIST;
	}
	/* packed records (series v4): read in summary mode, as summaries */
	ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_batch");
	if (ev) {
		if (!resolve(ev, "abi", &d->ba_abi) || !resolve(ev, "cpu", &d->ba_cpu) ||
		    !resolve(ev, "seq", &d->ba_seq) || !resolve(ev, "records", &d->ba_records) ||
		    !resolve(ev, "stages", &d->ba_stages) || !resolve(ev, "sample", &d->ba_sample) ||
		    !resolve(ev, "khz", &d->ba_khz) || !resolve(ev, "stamp_cost", &d->ba_cost) ||
		    !resolve(ev, "first", &d->ba_first) || !resolve(ev, "now", &d->ba_now) ||
		    !resolve(ev, "now_ns", &d->ba_now_ns) || !resolve(ev, "words", &d->ba_words)) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_batch lacks a field this analyzer needs",
				 info->path);
			return ET_ERR_ABI;
		}
		d->have_batch = true;
		set_handler(d, ev, H_BATCH);
		info->present |= ET_HAVE_BATCH | ET_HAVE_SPAN;
	}
	ev = tep_find_event_by_name(tep, "entry_stage", "entry_stage_calib");
	if (ev && resolve(ev, "abi", &d->ca_abi) &&
	    resolve(ev, "source", &d->ca_source) &&
	    resolve(ev, "counter_hz", &d->ca_hz) &&
	    resolve(ev, "sample", &d->ca_sample) &&
	    resolve(ev, "epoch", &d->ca_epoch) &&
	    resolve(ev, "cost_min", &d->ca_min) &&
	    resolve(ev, "cost_median", &d->ca_median) &&
	    resolve(ev, "agg_cost_median", &d->ca_agg) &&
	    resolve(ev, "scratch", &d->ca_scratch) &&
	    resolve(ev, "failed", &d->ca_failed))
		set_handler(d, ev, H_CALIB);
	return ET_OK;
}

enum et_err et_decoder_init(struct et_decoder *d, struct tep_handle *tep,
			    struct et_trace_info *info, char *errbuf, size_t errlen)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int n = tep_get_events_count(tep);
	enum et_err e;

	memset(d, 0, sizeof(*d));
	if (!all || n <= 0) {
		snprintf(errbuf, errlen, "%s: no event formats in file", info->path);
		return ET_ERR_NO_EVENTS;
	}
	d->swap = tep_is_file_bigendian(tep) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	d->max_id = all[n - 1]->id;
	for (int i = 0; i < n; i++)
		if (all[i]->id > d->max_id)
			d->max_id = all[i]->id;
	d->handlers = calloc(d->max_id + 1, 1);
	d->active = calloc(d->max_id + 1, 1);
	if (!d->handlers || !d->active) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	if (!resolve(all[0], "common_type", &d->common_type) ||
	    !resolve(all[0], "common_pid", &d->common_pid)) {
		snprintf(errbuf, errlen, "%s: events lack common fields", info->path);
		return ET_ERR_FORMAT;
	}
	/* each record says its event by id: two formats of one id cannot be told apart */
	for (int i = 1; i < n; i++)
		if (all[i]->id == all[i - 1]->id) {
			snprintf(errbuf, errlen, "%s: the formats of %s:%s and %s:%s both say ID %d",
				 info->path, all[i - 1]->system, all[i - 1]->name, all[i]->system,
				 all[i]->name, all[i]->id);
			return ET_ERR_FORMAT;
		}

	resolve_stock(d, tep, info);
	e = resolve_stages(d, tep, info, errbuf, errlen);
	if (e)
		return e;
	e = check_formats(d, tep, info, errbuf, errlen);
	if (e)
		return e;
	if (!(info->present & (ET_HAVE_RAW_SYSCALLS | ET_HAVE_STAGES | ET_HAVE_SUMMARY |
			       ET_HAVE_BATCH | ET_HAVE_HIST))) {
		snprintf(errbuf, errlen,
			 "%s: no syscall events: record raw_syscalls:sys_enter/sys_exit (stock kernel) or entry_stage:* (entrytrace kernel)",
			 info->path);
		return ET_ERR_NO_EVENTS;
	}
	return ET_OK;
}

void et_decoder_fini(struct et_decoder *d)
{
	free(d->handlers);
	free(d->active);
	free(d->kmap);
	free(d->min_size);
	d->handlers = d->active = NULL;
	d->kmap = NULL;
	d->min_size = NULL;
}

void et_decoder_mark_unregistered(struct et_decoder *d, struct tep_handle *tep)
{
	for (int id = 0; id <= d->max_id; id++)
		if (d->handlers[id] == H_NONE && !tep_find_event(tep, id))
			d->handlers[id] = H_UNREGISTERED;
	d->unregistered_out = true;
}

/* In a stage mode raw_syscalls would only duplicate the timeline. */
static bool handler_wanted(enum et_mode mode, enum et_handler_kind k)
{
	switch (k) {
	case H_SYS_ENTER:
	case H_SYS_EXIT:
	case H_USER_EXIT:
	case H_USER_ENTER:
	case H_SIGNAL_DELIVER:
	case H_RSEQ_UPDATE:
		return mode == ET_MODE_STOCK;
	case H_STAGE:
		return mode == ET_MODE_STAGES;
	case H_SUMMARY:
	case H_HIST:
	case H_BATCH:
		return mode == ET_MODE_SUMMARY;
	case H_CALIB:
	case H_SYS_ARGS:	/* stock: raw_syscalls:sys_enter has them */
		return mode != ET_MODE_STOCK;
	default:
		return true;
	}
}

void et_decoder_activate(struct et_decoder *d, enum et_mode mode)
{
	for (int id = 0; id <= d->max_id; id++)
		d->active[id] = handler_wanted(mode, d->handlers[id]) ? d->handlers[id] : H_NONE;
}

int et_scratch_init(const struct et_decoder *d, struct et_scratch *s)
{
	memset(s, 0, sizeof(*s));
	if (d->su_nr_delta || d->have_batch) {
		s->su_buf = calloc(ET_STAGE_KERNEL_NR, sizeof(*s->su_buf));
		if (!s->su_buf)
			return -1;
	}
	return 0;
}

void et_scratch_fini(struct et_scratch *s)
{
	free(s->su_buf);
	s->su_buf = NULL;
}

/* ------------------------------------------------------------------ */
/* Records to events                                                   */

/* The ABIs this analyzer reads: 3 (series v2, v3) and 4 (series v4). */
static bool abi_known(uint64_t abi)
{
	return abi >= ET_ABI_OLDEST && abi <= ENTRY_STAGE_ABI;
}

/*
 * entry_stage_hist: one aggregated cell.  What cannot be a cell (another
 * ABI, a stage id beyond the kernel's, buckets outside the record or the
 * histogram, min above max, a spread in an ABI 4 stage's cell) is damage,
 * counted in abi_errors.  ABI 4 keeps a stage's count, sum and agg only.
 */
static bool decode_hist(const struct et_decoder *d, const struct et_rec *rec,
			struct et_scratch *s, struct et_event *ev)
{
	uint32_t loc = (uint32_t)rd_field(d, rec, &d->hi_buckets);
	uint32_t off = loc & 0xffff, len = loc >> 16;
	uint64_t khz = rd_field(d, rec, &d->hi_khz);
	uint64_t stage = (uint32_t)rd_field(d, rec, &d->hi_stage);
	uint64_t stages = (uint32_t)rd_field(d, rec, &d->hi_stages);
	uint32_t bits = (uint32_t)rd_field(d, rec, &d->hi_bits);
	uint32_t lo = (uint32_t)rd_field(d, rec, &d->hi_lo), n = len / 4;
	uint64_t abi = rd_field(d, rec, &d->hi_abi);

	if (d->hi_buckets.is_signed)	/* __rel_loc: from the field's end */
		off += d->hi_buckets.offset + d->hi_buckets.size;
	if (!abi_known(abi) || bits < 1 || bits > 7 ||
	    stage > stages || stages > 64 || len % 4 || n > ET_KHIST_MAX_BUCKETS ||
	    (uint64_t)off + len > (uint64_t)rec->size ||
	    (uint64_t)lo + n > (uint64_t)(33 - bits) << bits) {
		s->abi_errors++;
		return false;
	}
	ev->kind = ET_EV_HIST;
	ev->hist.cpu = (int)rd_field(d, rec, &d->hi_cpu);
	ev->hist.nr = (int)rd_field(d, rec, &d->hi_nr);
	ev->hist.work = (uint32_t)rd_field(d, rec, &d->hi_work);
	ev->hist.sample = (uint32_t)rd_field(d, rec, &d->hi_sample);
	ev->hist.khz = khz;
	ev->hist.stamp_ns = stamp_ns(rd_field(d, rec, &d->hi_cost), khz);
	ev->hist.agg_ns = stamp_ns(rd_field(d, rec, &d->hi_agg_cost), khz);
	ev->hist.dropped = (uint32_t)rd_field(d, rec, &d->hi_dropped);
	ev->hist.count = (uint64_t)rd_field(d, rec, &d->hi_count);
	ev->hist.sum = (uint64_t)rd_field(d, rec, &d->hi_sum);
	ev->hist.sumsq = (uint64_t)rd_field(d, rec, &d->hi_sumsq);
	ev->hist.agg = (uint64_t)rd_field(d, rec, &d->hi_agg);
	ev->hist.min = (uint32_t)rd_field(d, rec, &d->hi_min);
	ev->hist.max = (uint32_t)rd_field(d, rec, &d->hi_max);
	ev->hist.bits = bits;
	ev->hist.lo = lo;
	ev->hist.mean_only = abi >= 4 && stage != stages;
	/* a total of count 0: the cell's tails never came; it has no buckets */
	if ((ev->hist.count ? ev->hist.min > ev->hist.max || (stage == stages) != (n > 0) :
			      stage != stages || n) ||
	    (ev->hist.mean_only && (ev->hist.sumsq || ev->hist.min || ev->hist.max))) {
		s->abi_errors++;
		return false;
	}
	if (stage == stages) {
		ev->hist.stage = ET_SLOT_TOTAL;
	} else if (stage < (uint64_t)d->kmap_len && d->kmap[stage] >= 0) {
		ev->hist.stage = d->kmap[stage];
	} else {
		s->unknown_stages++;
		return false;
	}
	for (uint32_t i = 0; i < n; i++)
		s->hi_buf[i] = (uint32_t)rd_u(d, (const char *)rec->data + off + 4 * i, 4);
	ev->hist.buckets = s->hi_buf;
	ev->hist.nr_buckets = n;
	return true;
}

static const char *exec_comm(const char *file, int len, char *buf)
{
	const char *base = file;
	int n;

	for (int i = 0; i < len && file[i]; i++)
		if (file[i] == '/')
			base = file + i + 1;
	n = (int)strnlen(base, len - (base - file));
	if (n > ET_COMM_LEN - 1)
		n = ET_COMM_LEN - 1;
	memcpy(buf, base, n);
	buf[n] = '\0';
	return buf;
}

static void task_event(struct et_event *ev, enum et_event_kind kind, int pid,
		       const char *comm)
{
	ev->kind = kind;
	ev->task.pid = pid;
	ev->task.old_pid = pid;
	ev->task.comm = comm;
	ev->task.old_comm = NULL;
	ev->task.clone_flags = -1;
	ev->task.exec = false;
}

/*
 * entry_stage_batch: a CPU's packed records (series v4; the words are
 * ENTRY_STAGE_BATCH_* of tracepoints/stages.def, the kernel's own).
 * The batch itself is no event: et_decode() returns false with the
 * scratch's batch cursor pending, for the walk, which checks its
 * sequence number; its records are handed on by et_decode_batch_next().
 * A batch of another ABI, or whose words lie outside the record, is
 * damage, counted in abi_errors with its records.
 */
static bool decode_batch(const struct et_decoder *d, const struct et_rec *rec,
			 struct et_scratch *s)
{
	struct et_batch_cursor *b = &s->batch;
	uint32_t loc = (uint32_t)rd_fixed(d, rec, &d->ba_words);
	uint32_t off = loc & 0xffff, len = loc >> 16;
	uint32_t records = (uint32_t)rd_fixed(d, rec, &d->ba_records);

	b->records = 0;
	if (d->ba_words.is_signed)	/* __rel_loc: from the field's end */
		off += d->ba_words.offset + d->ba_words.size;
	if (!abi_known(rd_fixed(d, rec, &d->ba_abi)) || len % 4 ||
	    (uint64_t)off + len > (uint64_t)rec->size ||
	    (uint64_t)records * ENTRY_STAGE_BATCH_HDR > len / 4) {
		s->abi_errors += records ? records : 1;
		return false;
	}
	b->p = (const char *)rec->data + off;
	b->words = len / 4;
	b->records = records;
	b->stages = (uint32_t)rd_fixed(d, rec, &d->ba_stages);
	b->sample = (uint32_t)rd_fixed(d, rec, &d->ba_sample);
	b->khz = rd_fixed(d, rec, &d->ba_khz);
	b->stamp_ns = stamp_ns(rd_fixed(d, rec, &d->ba_cost), b->khz);
	b->first = rd_fixed(d, rec, &d->ba_first);
	b->now = rd_fixed(d, rec, &d->ba_now);
	/*
	 * The records are placed from the batch's own time stamp, on the
	 * file's clock, not from now_ns (trace_clock_local(), which the
	 * file's clock need not be: trace-cmd records an SMP guest on
	 * "global"): the counter was read just before the event was
	 * reserved, a few hundred instructions earlier.
	 */
	b->at = rec->ts;
	b->cpu = (int)rd_fixed(d, rec, &d->ba_cpu);
	b->seq = (uint32_t)rd_fixed(d, rec, &d->ba_seq);
	b->pending = true;
	return false;
}

static uint32_t batch_word(const struct et_decoder *d, struct et_batch_cursor *b)
{
	uint32_t v = (uint32_t)rd_u(d, b->p, 4);

	b->p += 4;
	b->words--;
	return v;
}

/* The rest of a batch that does not hold together: counted, not read. */
static bool batch_damaged(struct et_scratch *s)
{
	s->abi_errors += s->batch.records;
	s->batch.records = 0;
	return false;
}

bool et_decode_batch_next(const struct et_decoder *d, struct et_scratch *s,
			  struct et_event *ev)
{
	struct et_batch_cursor *b = &s->batch;
	uint32_t w[ENTRY_STAGE_BATCH_HDR], flags, n, ret_hi = 0;
	uint64_t span, burst, ago;

	if (!b->records) {
		/* words no record claims: the batch is not what it says */
		if (b->words)
			s->abi_errors++;
		b->words = 0;
		return false;
	}
	if (b->words < ENTRY_STAGE_BATCH_HDR)
		return batch_damaged(s);
	for (int i = 0; i < ENTRY_STAGE_BATCH_HDR; i++)
		w[i] = batch_word(d, b);
	flags = w[3] >> 24;
	n = (w[3] >> 16) & 0xff;
	if (flags & ~(uint32_t)(ENTRY_STAGE_BATCH_RET_HI | ENTRY_STAGE_BATCH_SPAN_HI |
				ENTRY_STAGE_BATCH_RCU) ||
	    b->words < n + !!(flags & ENTRY_STAGE_BATCH_RET_HI) +
		       !!(flags & ENTRY_STAGE_BATCH_SPAN_HI) + !!(flags & ENTRY_STAGE_BATCH_RCU))
		return batch_damaged(s);
	span = w[6];
	if (flags & ENTRY_STAGE_BATCH_RET_HI)
		ret_hi = batch_word(d, b);
	if (flags & ENTRY_STAGE_BATCH_SPAN_HI)
		span |= (uint64_t)batch_word(d, b) << 32;

	ev->kind = ET_EV_SUMMARY;
	ev->pid = (int)w[0];
	ev->summary.seq = w[1];
	ev->summary.tail_seq = w[2];
	ev->summary.nr = (int16_t)(w[3] & 0xffff);
	ev->summary.work = w[4];
	ev->summary.ret = flags & ENTRY_STAGE_BATCH_RET_HI ?
		(long)(int64_t)((uint64_t)ret_hi << 32 | w[7]) : (long)(int32_t)w[7];
	ev->summary.rcu_unlock_slow = flags & ENTRY_STAGE_BATCH_RCU ? batch_word(d, b) : 0;
	ev->summary.sample = b->sample;
	ev->summary.stamp_ns = b->stamp_ns;
	ev->summary.pmu = false;
	ev->summary.batch = true;
	ev->summary.batch_at = b->at;
	ev->summary.batch_last = b->records == 1;
	/* the burst: the batch's first plus 32 bits, before the batch was written */
	burst = b->first + (uint32_t)(w[5] - (uint32_t)b->first);
	if (burst > b->now)
		return batch_damaged(s);
	ago = ticks_ns(b->now - burst, b->khz);
	ev->ts = b->at > ago ? b->at - ago : 0;
	ev->summary.span = ticks_ns(span, b->khz);
	ev->summary.start = ev->ts > ev->summary.span ? ev->ts - ev->summary.span : 0;

	memset(s->su_buf, 0, ET_STAGE_KERNEL_NR * sizeof(*s->su_buf));
	while (n--) {
		uint32_t v = batch_word(d, b), id = v >> ENTRY_STAGE_BATCH_ID_SHIFT;
		uint64_t delta = v & ENTRY_STAGE_BATCH_ESC;

		if (delta == ENTRY_STAGE_BATCH_ESC) {
			if (!n--)
				return batch_damaged(s);
			delta = batch_word(d, b);
		}
		if (id >= b->stages)
			return batch_damaged(s);
		if (id < (uint32_t)d->kmap_len && d->kmap[id] >= 0)
			s->su_buf[d->kmap[id]] = ticks_ns(delta, b->khz);
		else
			s->unknown_stages++;
	}
	ev->summary.delta = s->su_buf;
	ev->summary.nr_delta = ET_STAGE_KERNEL_NR;
	b->records--;
	return true;
}

/* Every event but the two of every syscall: out of et_decode()'s way. */
static __attribute__((noinline)) bool decode_other(const struct et_decoder *d,
						   const struct et_rec *rec,
						   struct et_scratch *s, struct et_event *ev,
						   int id)
{
	const char *str;
	int len;

	switch (d->active[id]) {
	case H_NONE:
		return false;
	case H_UNREGISTERED:
		s->unregistered++;
		return false;
	case H_SYS_ARGS:
		for (int i = 0; i < d->nr_args_ev; i++) {
			const struct et_args_event *a = &d->args_ev[i];

			if (a->id != id)
				continue;
			ev->kind = ET_EV_SYS_ARGS;
			ev->enter.nr = rd_fixed(d, rec, &a->nr);
			ev->enter.nargs = a->nargs;
			for (int j = 0; j < a->nargs; j++)
				ev->enter.arg[j] = rd_fixed(d, rec, &a->arg[j]);
			return true;
		}
		return false;
	case H_USER_EXIT:
		ev->kind = ET_EV_USER_EXIT;
		return true;
	case H_USER_ENTER:
		ev->kind = ET_EV_USER_ENTER;
		return true;
	case H_SIGNAL_DELIVER:
		ev->kind = ET_EV_SIGNAL_DELIVER;
		ev->signal.sig = rd_fixed(d, rec, &d->sig);
		return true;
	case H_RSEQ_UPDATE:
		ev->kind = ET_EV_RSEQ_UPDATE;
		return true;
	case H_SCHED_SWITCH:
		ev->kind = ET_EV_SCHED_SWITCH;
		ev->sw.prev_pid = rd_fixed(d, rec, &d->sw_prev_pid);
		ev->sw.next_pid = rd_fixed(d, rec, &d->sw_next_pid);
		ev->sw.prev_state = rd_fixed(d, rec, &d->sw_prev_state);
		ev->sw.prev_comm = rd_comm(rec, &d->sw_prev_comm, s->comm_a);
		ev->sw.next_comm = rd_comm(rec, &d->sw_next_comm, s->comm_b);
		return true;
	case H_IRQ_ENTER:
		ev->kind = ET_EV_IRQ_ENTER;
		return true;
	case H_IRQ_EXIT:
		ev->kind = ET_EV_IRQ_EXIT;
		return true;
	case H_PROCESS_EXIT:
		task_event(ev, ET_EV_TASK_EXIT, rd_fixed(d, rec, &d->pexit_pid),
			   rd_comm(rec, &d->pexit_comm, s->comm_a));
		return true;
	case H_PROCESS_FORK:
		task_event(ev, ET_EV_TASK_NEW, rd_fixed(d, rec, &d->fork_child_pid),
			   rd_comm(rec, &d->fork_child_comm, s->comm_a));
		return true;
	case H_TASK_NEWTASK:
		task_event(ev, ET_EV_TASK_NEW, rd_fixed(d, rec, &d->newtask_pid),
			   rd_comm(rec, &d->newtask_comm, s->comm_a));
		ev->task.clone_flags = d->newtask_flags.size ?
			rd_fixed(d, rec, &d->newtask_flags) : -1;
		return true;
	case H_TASK_RENAME:
		task_event(ev, ET_EV_COMM, rd_fixed(d, rec, &d->rename_pid),
			   rd_comm(rec, &d->rename_newcomm, s->comm_a));
		ev->task.old_comm = d->rename_oldcomm.size ?
			rd_comm(rec, &d->rename_oldcomm, s->comm_b) : NULL;
		return true;
	case H_PROCESS_EXEC:
		str = rd_dynstr(d, rec, &d->exec_filename, &len);
		task_event(ev, ET_EV_COMM, rd_fixed(d, rec, &d->exec_pid),
			   str ? exec_comm(str, len, s->comm_a) : NULL);
		ev->task.old_pid = rd_fixed(d, rec, &d->exec_old_pid);
		ev->task.exec = true;
		return true;
	case H_STAGE: {
		uint64_t khz = rd_fixed(d, rec, &d->st_khz);

		ev->kind = ET_EV_STAGE;
		ev->stage.seq = rd_fixed(d, rec, &d->st_seq);
		ev->stage.nr = rd_fixed(d, rec, &d->st_nr);
		ev->stage.stage = rd_fixed(d, rec, &d->st_stage);
		/* an id beyond the kernel's own table: damaged */
		if (ev->stage.stage >= d->kmap_len) {
			s->abi_errors++;
			return false;
		}
		/* a stage of a newer vocabulary: its data is left out, counted */
		if (d->kmap[ev->stage.stage] < 0) {
			s->unknown_stages++;
			return false;
		}
		ev->stage.stage = d->kmap[ev->stage.stage];
		ev->stage.work = rd_fixed(d, rec, &d->st_work);
		ev->stage.count = rd_fixed(d, rec, &d->st_count);
		ev->stage.start = rd_fixed(d, rec, &d->st_start);
		ev->stage.delta = ticks_ns(rd_fixed(d, rec, &d->st_delta), khz);
		ev->stage.insns = rd_fixed(d, rec, &d->st_insns);
		ev->stage.ret = rd_fixed(d, rec, &d->st_ret);
		ev->stage.pmu = !khz;
		ev->stage.sample = rd_fixed(d, rec, &d->st_sample);
		ev->stage.stamp_ns = stamp_ns(rd_fixed(d, rec, &d->st_cost), khz);
		return true;
	}
	case H_SUMMARY: {
		uint64_t khz = rd_fixed(d, rec, &d->su_khz);

		ev->kind = ET_EV_SUMMARY;
		ev->summary.batch = false;
		ev->summary.seq = rd_fixed(d, rec, &d->su_seq);
		ev->summary.tail_seq = rd_fixed(d, rec, &d->su_tail_seq);
		ev->summary.nr = rd_fixed(d, rec, &d->su_nr);
		ev->summary.work = rd_fixed(d, rec, &d->su_work);
		ev->summary.ret = rd_fixed(d, rec, &d->su_ret);
		ev->summary.start = rd_fixed(d, rec, &d->su_start);
		ev->summary.rcu_unlock_slow = rd_fixed(d, rec, &d->su_rcu);
		ev->summary.sample = rd_fixed(d, rec, &d->su_sample);
		ev->summary.pmu = !khz;
		/* thousandths of a tick per stamp */
		ev->summary.stamp_ns = stamp_ns(rd_fixed(d, rec, &d->su_cost), khz);
		if (d->su_delta.offset + d->su_delta.size > rec->size)
			return false;
		memset(s->su_buf, 0, ET_STAGE_KERNEL_NR * sizeof(*s->su_buf));
		for (int i = 0; i < d->su_nr_delta; i++) {
			uint64_t v = rd_u(d, (const char *)rec->data + d->su_delta.offset + 4 * i, 4);

			if (i < d->kmap_len && d->kmap[i] >= 0)
				s->su_buf[d->kmap[i]] = ticks_ns(v, khz);
			else if (v)
				s->unknown_stages++;
		}
		ev->summary.delta = s->su_buf;
		ev->summary.nr_delta = ET_STAGE_KERNEL_NR;
		ev->summary.span = d->have_su_span ?
			ticks_ns(rd_fixed(d, rec, &d->su_span), khz) : 0;
		return true;
	}
	case H_HIST:
		return decode_hist(d, rec, s, ev);
	case H_BATCH:
		return decode_batch(d, rec, s);
	case H_CALIB: {
		uint64_t hz = rd_fixed(d, rec, &d->ca_hz);
		/* thousandths of a tick (of a cycle: PMU) to ns */
		double per = rd_fixed(d, rec, &d->ca_source) || !hz ? 1e-3 : 1e6 / hz;

		/* the kernel's own word on its stage ABI */
		if (!abi_known(rd_fixed(d, rec, &d->ca_abi))) {
			s->abi_errors++;
			return false;
		}

		ev->kind = ET_EV_CALIB;
		ev->calib.source = rd_fixed(d, rec, &d->ca_source);
		ev->calib.counter_hz = hz;
		ev->calib.sample = rd_fixed(d, rec, &d->ca_sample);
		ev->calib.epoch = rd_fixed(d, rec, &d->ca_epoch);
		ev->calib.cost_min_ns = rd_fixed(d, rec, &d->ca_min) * per;
		ev->calib.cost_ns = rd_fixed(d, rec, &d->ca_median) * per;
		ev->calib.agg_ns = rd_fixed(d, rec, &d->ca_agg) * per;
		ev->calib.scratch = rd_fixed(d, rec, &d->ca_scratch);
		ev->calib.failed = rd_fixed(d, rec, &d->ca_failed);
		return true;
	}
	}
	return false;
}

bool et_decode(const struct et_decoder *d, const struct et_rec *rec,
	       struct et_scratch *s, struct et_event *ev)
{
	int id = (int)rd_field(d, rec, &d->common_type);

	if (id < 0 || id > d->max_id) {
		s->unregistered += d->unregistered_out;
		return false;
	}
	if (__builtin_expect(rec->size < d->min_size[id], 0)) {
		s->short_records++;
		return false;
	}
	ev->pid = (int)rd_fixed(d, rec, &d->common_pid);
	switch (d->active[id]) {
	case H_SYS_ENTER:
		ev->kind = ET_EV_SYS_ENTER;
		ev->enter.nr = rd_fixed(d, rec, &d->enter_id);
		ev->enter.nargs = 0;
		if (d->enter_arg_size && d->enter_args.offset + ET_SC_ARGS * d->enter_arg_size <= rec->size) {
			const char *p = (const char *)rec->data + d->enter_args.offset;

			/* every sys_enter: the native case is one copy */
			if (d->enter_arg_size == sizeof(long) && !d->swap)
				memcpy(ev->enter.arg, p, sizeof(ev->enter.arg));
			else
				for (int i = 0; i < ET_SC_ARGS; i++)
					ev->enter.arg[i] = (long)rd_u(d, p + i * d->enter_arg_size,
								      d->enter_arg_size);
			ev->enter.nargs = ET_SC_ARGS;
		}
		return true;
	case H_SYS_EXIT:
		ev->kind = ET_EV_SYS_EXIT;
		ev->exit.nr = rd_fixed(d, rec, &d->exit_id);
		ev->exit.ret = rd_fixed(d, rec, &d->exit_ret);
		return true;
	default:
		return decode_other(d, rec, s, ev, id);
	}
}

enum et_event_kind et_event_kind(const struct et_event *ev)
{
	return ev->kind;
}

uint64_t et_event_ts(const struct et_event *ev)
{
	return ev->ts;
}

int et_event_cpu(const struct et_event *ev)
{
	return ev->cpu;
}

int et_event_pid(const struct et_event *ev)
{
	return ev->pid;
}
