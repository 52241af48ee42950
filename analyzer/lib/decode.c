// SPDX-License-Identifier: LGPL-2.1
/*
 * Decode: libtracecmd records -> struct et_event.
 *
 * At open time every event the analyzer understands is looked up once by
 * name and its fields resolved to (offset, size); a table indexed by event
 * id then turns each record into a typed event without string compares.
 * The file format itself is entirely libtracecmd's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libaudit.h>

#include "entrytrace.h"
#include "internal.h"
#include "tracecmd-compat.h"

struct et_field {
	int offset;
	int size;
	bool is_signed;
};

enum et_handler_kind {
	H_NONE,
	H_SYS_ENTER,
	H_SYS_EXIT,
	H_USER_EXIT,
	H_USER_ENTER,
	H_SIGNAL_DELIVER,
	H_RSEQ_UPDATE,
	H_SCHED_SWITCH,
	H_IRQ_ENTER,
	H_IRQ_EXIT,
	H_PROCESS_EXIT,
	H_PROCESS_FORK,
	H_TASK_NEWTASK,
	H_TASK_RENAME,
	H_PROCESS_EXEC,
	H_STAGE,
	H_SUMMARY,
	H_CALIB,
};

struct et_handler {
	uint8_t kind;
};

struct et_trace {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct et_trace_info info;
	struct et_trace_counts counts;
	bool swap;
	int machine;		/* libaudit MACH_*, -1 unknown */

	struct et_handler *handlers;	/* every event the analyzer knows */
	struct et_handler *active;	/* ...and those the mode decodes */
	int max_id;
	unsigned int want;	/* ET_HAVE_* families decoded in this mode */

	struct et_field common_type;
	struct et_field common_pid;

	struct et_field enter_id;
	struct et_field exit_id, exit_ret;
	struct et_field sig;
	struct et_field sw_prev_comm, sw_prev_pid, sw_prev_state;
	struct et_field sw_next_comm, sw_next_pid;
	struct et_field pexit_pid;
	struct et_field fork_child_pid, fork_child_comm;
	struct et_field newtask_pid, newtask_comm, newtask_flags;
	struct et_field rename_pid, rename_newcomm, rename_oldcomm;
	struct et_field pexit_comm;
	struct et_field exec_pid, exec_old_pid, exec_filename;

	/* entry_stage (ABI 3): entry_stage_time, _summary, _calib */
	struct et_field st_seq, st_nr, st_stage, st_work, st_count, st_khz,
		st_sample, st_cost, st_start, st_delta, st_insns, st_ret;
	struct et_field su_seq, su_tail_seq, su_nr, su_work, su_ret, su_start,
		su_rcu, su_sample, su_khz, su_cost, su_delta;
	struct et_field ca_source, ca_hz, ca_sample, ca_epoch, ca_min, ca_median,
		ca_agg, ca_scratch, ca_failed, ca_abi;
	int su_nr_delta;

	char *path;
	char *open_path;	/* what libtracecmd opens: path, or the spooled copy */
	int spool_fd;		/* the copy of a pipe or stdin, -1 none */
	char *machine_str;
	char *uname_str;	/* live traces own these; files' are libtracecmd's */
	char *clock_str;

	unsigned long long abi_errors;
	int page_size;		/* files: pages are counted per CPU */
	uint64_t *last_page;	/* per CPU: page of the last record + 1 */
	uint64_t *last_rec_ts;	/* per CPU: timestamp of the last record */
	bool *lost_announced;	/* per CPU: gap before the next record told */
	int jobs;		/* reader threads for et_trace_iterate */
	et_progress_fn progress;
	void *progress_data;
	uint64_t pages_total;
};

/* ------------------------------------------------------------------ */

static inline uint64_t rd_u(const struct et_trace *t, const void *p, int size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return t->swap ? __builtin_bswap16(v) : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return t->swap ? __builtin_bswap32(v) : v;
	}
	case 8: {
		uint64_t v;
		memcpy(&v, p, 8);
		return t->swap ? __builtin_bswap64(v) : v;
	}
	}
	return 0;
}

/* Read a field; signed fields are sign-extended from their own size. */
static inline int64_t rd_field(const struct et_trace *t,
			       const struct tep_record *rec,
			       const struct et_field *f)
{
	const char *p = (const char *)rec->data + f->offset;

	if (__builtin_expect(f->offset + f->size > rec->size, 0))
		return 0;
	switch (f->size) {
	case 8:
		return (int64_t)rd_u(t, p, 8);
	case 4:
		return f->is_signed ? (int64_t)(int32_t)rd_u(t, p, 4) :
				      (int64_t)rd_u(t, p, 4);
	case 2:
		return f->is_signed ? (int64_t)(int16_t)rd_u(t, p, 2) :
				      (int64_t)rd_u(t, p, 2);
	case 1:
		return f->is_signed ? (int64_t)(int8_t)rd_u(t, p, 1) :
				      (int64_t)rd_u(t, p, 1);
	}
	return 0;
}

static const char *rd_comm(const struct tep_record *rec,
			   const struct et_field *f, char *buf)
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
static const char *rd_dynstr(const struct et_trace *t,
			     const struct tep_record *rec,
			     const struct et_field *f, int *len)
{
	uint32_t loc;
	int off, n;

	if (f->size != 4 || f->offset + 4 > rec->size)
		return NULL;
	loc = (uint32_t)rd_u(t, (const char *)rec->data + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (f->is_signed) /* is_signed reused as "relative" for dynamic fields */
		off += f->offset + 4;
	if (off < 0 || off + n > rec->size)
		return NULL;
	*len = n;
	return (const char *)rec->data + off;
}

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

static struct tep_event *find(struct et_trace *t, const char *sys,
			      const char *name)
{
	return tep_find_event_by_name(t->tep, sys, name);
}

static void set_handler(struct et_trace *t, struct tep_event *ev,
			enum et_handler_kind kind)
{
	if (!ev || ev->id < 0 || ev->id > t->max_id)
		return;
	t->handlers[ev->id].kind = kind;
}

/* ------------------------------------------------------------------ */
/* Open                                                                */

/*
 * libtracecmd 1.3.1 crashes in tracecmd_close() on a handle whose data
 * failed to initialise (tracecmd_open() itself does that on a truncated v6
 * file).  Such a handle is parked here instead: never closed, still
 * reachable, so it is neither a crash nor a leak report.  One per bad file.
 */
static struct tracecmd_input *parked[64];
static unsigned int nr_parked;

static void park_handle(struct tracecmd_input *handle)
{
	if (nr_parked < ET_ARRAY_SIZE(parked))
		parked[nr_parked++] = handle;
}

/*
 * libtracecmd maps and seeks the file, so a pipe, a FIFO or standard input
 * ("-") is first copied into an unlinked temporary file; the open path is
 * then /proc/self/fd/N, which reader threads can open again.  Returns the
 * descriptor (kept open until the trace is closed), or -1 with errbuf set.
 */
static int spool(const char *path, int in, char *open_path, size_t size,
		 char *errbuf, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char tmp[4096], buf[65536];
	ssize_t n;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/entrytrace-input.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(errbuf, errlen, "%s: not a seekable file, and no temporary copy "
			 "could be made in %s: %s", path, tmp, strerror(errno));
		return -1;
	}
	unlink(tmp);
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, n) != n) {
			snprintf(errbuf, errlen, "%s: copying the input to a temporary file: %s",
				 path, strerror(errno));
			close(fd);
			return -1;
		}
	}
	snprintf(open_path, size, "/proc/self/fd/%d", fd);
	return fd;
}

static enum et_err check_path(const char *path, char *errbuf, size_t errlen)
{
	struct stat st;
	char magic[3];
	int fd;

	if (stat(path, &st) < 0) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return ET_ERR_IO;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(errbuf, errlen, "%s: is a directory, not a trace.dat file", path);
		return ET_ERR_IO;
	}
	if (st.st_size == 0) {
		snprintf(errbuf, errlen, "%s: empty file", path);
		return ET_ERR_FORMAT;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return ET_ERR_IO;
	}
	if (read(fd, magic, 3) != 3 || magic[0] != 23 || magic[1] != 8 ||
	    magic[2] != 68) {
		close(fd);
		snprintf(errbuf, errlen,
			 "%s: not a trace-cmd trace.dat file (bad magic)", path);
		return ET_ERR_FORMAT;
	}
	close(fd);
	return ET_OK;
}

static const char *uname_machine(const char *uname, char **owned)
{
	const char *sp;

	*owned = NULL;
	if (!uname)
		return NULL;
	sp = strrchr(uname, ' ');
	*owned = strdup(sp ? sp + 1 : uname);
	if (*owned)
		(*owned)[strcspn(*owned, "\n")] = '\0';
	return *owned;
}

static void resolve_stock(struct et_trace *t)
{
	struct tep_event *ev;

	ev = find(t, "raw_syscalls", "sys_enter");
	if (ev && resolve(ev, "id", &t->enter_id)) {
		set_handler(t, ev, H_SYS_ENTER);
		ev = find(t, "raw_syscalls", "sys_exit");
		if (ev && resolve(ev, "id", &t->exit_id) &&
		    resolve(ev, "ret", &t->exit_ret)) {
			set_handler(t, ev, H_SYS_EXIT);
			t->info.present |= ET_HAVE_RAW_SYSCALLS;
		}
	}
	ev = find(t, "context_tracking", "user_exit");
	if (ev) {
		set_handler(t, ev, H_USER_EXIT);
		set_handler(t, find(t, "context_tracking", "user_enter"),
			    H_USER_ENTER);
		t->info.present |= ET_HAVE_CT;
	}
	ev = find(t, "signal", "signal_deliver");
	if (ev && resolve(ev, "sig", &t->sig)) {
		set_handler(t, ev, H_SIGNAL_DELIVER);
		t->info.present |= ET_HAVE_SIGNAL;
	}
	ev = find(t, "rseq", "rseq_update");
	if (ev) {
		set_handler(t, ev, H_RSEQ_UPDATE);
		t->info.present |= ET_HAVE_RSEQ;
	}
	ev = find(t, "sched", "sched_switch");
	if (ev && resolve(ev, "prev_pid", &t->sw_prev_pid) &&
	    resolve(ev, "next_pid", &t->sw_next_pid) &&
	    resolve(ev, "prev_state", &t->sw_prev_state)) {
		resolve(ev, "prev_comm", &t->sw_prev_comm);
		resolve(ev, "next_comm", &t->sw_next_comm);
		set_handler(t, ev, H_SCHED_SWITCH);
		t->info.present |= ET_HAVE_SCHED_SWITCH;
	}
	ev = find(t, "irq", "irq_handler_entry");
	if (ev) {
		set_handler(t, ev, H_IRQ_ENTER);
		set_handler(t, find(t, "irq", "irq_handler_exit"), H_IRQ_EXIT);
		t->info.present |= ET_HAVE_IRQ;
	}
	ev = find(t, "irq", "softirq_entry");
	if (ev) {
		set_handler(t, ev, H_IRQ_ENTER);
		set_handler(t, find(t, "irq", "softirq_exit"), H_IRQ_EXIT);
		t->info.present |= ET_HAVE_IRQ;
	}
	ev = find(t, "sched", "sched_process_exit");
	if (ev && resolve(ev, "pid", &t->pexit_pid)) {
		resolve(ev, "comm", &t->pexit_comm);
		set_handler(t, ev, H_PROCESS_EXIT);
		t->info.present |= ET_HAVE_TASK;
	}
	ev = find(t, "sched", "sched_process_fork");
	if (ev && resolve(ev, "child_pid", &t->fork_child_pid)) {
		resolve(ev, "child_comm", &t->fork_child_comm);
		set_handler(t, ev, H_PROCESS_FORK);
	}
	ev = find(t, "task", "task_newtask");
	if (ev && resolve(ev, "pid", &t->newtask_pid)) {
		resolve(ev, "comm", &t->newtask_comm);
		resolve(ev, "clone_flags", &t->newtask_flags);
		set_handler(t, ev, H_TASK_NEWTASK);
	}
	ev = find(t, "task", "task_rename");
	if (ev && resolve(ev, "pid", &t->rename_pid) &&
	    resolve(ev, "newcomm", &t->rename_newcomm)) {
		resolve(ev, "oldcomm", &t->rename_oldcomm);
		set_handler(t, ev, H_TASK_RENAME);
	}
	ev = find(t, "sched", "sched_process_exec");
	if (ev && resolve(ev, "pid", &t->exec_pid) &&
	    resolve(ev, "old_pid", &t->exec_old_pid) &&
	    resolve(ev, "filename", &t->exec_filename))
		set_handler(t, ev, H_PROCESS_EXEC);
}

/*
 * ABI 2 (the first kernel series) had one entry_stage event per stage and
 * entry_stage:summary; ABI 3 has entry_stage_time with the stage id,
 * entry_stage_summary and entry_stage_calib, and counts counter ticks.
 */
static bool abi2_events(struct et_trace *t)
{
	if (find(t, "entry_stage", "summary"))
		return true;
	for (int i = 0; i < et_stage_nr_kernel; i++)
		if (find(t, "entry_stage", et_stages[i].name))
			return true;
	return false;
}

static enum et_err resolve_stages(struct et_trace *t, char *errbuf,
				  size_t errlen)
{
	struct tep_event *ev;

	if (abi2_events(t)) {
		snprintf(errbuf, errlen,
			 "%s: recorded on a kernel with the first entry_stage series (ABI 2: one event per stage); this analyzer reads series v2 (ABI 3: entry_stage_time, entry_stage_summary): record again on a v2 kernel",
			 t->path);
		return ET_ERR_ABI;
	}
	ev = find(t, "entry_stage", "entry_stage_time");
	if (ev) {
		if (!resolve(ev, "seq", &t->st_seq) ||
		    !resolve(ev, "nr", &t->st_nr) ||
		    !resolve(ev, "stage", &t->st_stage) ||
		    !resolve(ev, "work", &t->st_work) ||
		    !resolve(ev, "count", &t->st_count) ||
		    !resolve(ev, "khz", &t->st_khz) ||
		    !resolve(ev, "sample", &t->st_sample) ||
		    !resolve(ev, "stamp_cost", &t->st_cost) ||
		    !resolve(ev, "start", &t->st_start) ||
		    !resolve(ev, "delta", &t->st_delta) ||
		    !resolve(ev, "insns", &t->st_insns) ||
		    !resolve(ev, "ret", &t->st_ret)) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_time lacks a field this analyzer needs (kernel built from another stages.def?)",
				 t->path);
			return ET_ERR_ABI;
		}
		set_handler(t, ev, H_STAGE);
		t->info.stage_events = 1;
		t->info.stage_formats = (1ull << et_stage_nr_kernel) - 1;
		t->info.present |= ET_HAVE_STAGES;
	}

	ev = find(t, "entry_stage", "entry_stage_summary");
	if (ev) {
		if (!resolve(ev, "seq", &t->su_seq) ||
		    !resolve(ev, "tail_seq", &t->su_tail_seq) ||
		    !resolve(ev, "nr", &t->su_nr) ||
		    !resolve(ev, "work", &t->su_work) ||
		    !resolve(ev, "ret", &t->su_ret) ||
		    !resolve(ev, "start", &t->su_start) ||
		    !resolve(ev, "rcu_unlock_slow", &t->su_rcu) ||
		    !resolve(ev, "sample", &t->su_sample) ||
		    !resolve(ev, "khz", &t->su_khz) ||
		    !resolve(ev, "stamp_cost", &t->su_cost) ||
		    !resolve(ev, "delta", &t->su_delta)) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_summary lacks a field this analyzer needs",
				 t->path);
			return ET_ERR_ABI;
		}
		t->su_nr_delta = t->su_delta.size / 4;
		if (t->su_nr_delta != et_stage_nr_kernel) {
			snprintf(errbuf, errlen,
				 "%s: entry_stage:entry_stage_summary has %d stage slots, this analyzer's stages.def has %d: kernel and analyzer vocabularies differ",
				 t->path, t->su_nr_delta, et_stage_nr_kernel);
			return ET_ERR_ABI;
		}
		set_handler(t, ev, H_SUMMARY);
		t->info.present |= ET_HAVE_SUMMARY;
	}

	ev = find(t, "entry_stage", "entry_stage_calib");
	if (ev && resolve(ev, "abi", &t->ca_abi) &&
	    resolve(ev, "source", &t->ca_source) &&
	    resolve(ev, "counter_hz", &t->ca_hz) &&
	    resolve(ev, "sample", &t->ca_sample) &&
	    resolve(ev, "epoch", &t->ca_epoch) &&
	    resolve(ev, "cost_min", &t->ca_min) &&
	    resolve(ev, "cost_median", &t->ca_median) &&
	    resolve(ev, "agg_cost_median", &t->ca_agg) &&
	    resolve(ev, "scratch", &t->ca_scratch) &&
	    resolve(ev, "failed", &t->ca_failed))
		set_handler(t, ev, H_CALIB);
	return ET_OK;
}

static void detect_mode(struct et_trace *t)
{
	unsigned int p = t->info.present;

	if (p & ET_HAVE_STAGES)
		t->info.mode = ET_MODE_STAGES;
	else if (p & ET_HAVE_SUMMARY)
		t->info.mode = ET_MODE_SUMMARY;
	else
		t->info.mode = ET_MODE_STOCK;
}

static void activate_handlers(struct et_trace *t);

bool et_trace_set_mode(struct et_trace *t, enum et_mode mode)
{
	unsigned int need = mode == ET_MODE_STAGES  ? ET_HAVE_STAGES :
			    mode == ET_MODE_SUMMARY ? ET_HAVE_SUMMARY :
						      ET_HAVE_RAW_SYSCALLS;

	if (!(t->info.present & need))
		return false;
	t->info.mode = mode;
	activate_handlers(t);
	return true;
}

/* In a stage mode raw_syscalls would only duplicate the timeline. */
static bool handler_wanted(const struct et_trace *t, enum et_handler_kind k)
{
	switch (k) {
	case H_SYS_ENTER:
	case H_SYS_EXIT:
	case H_USER_EXIT:
	case H_USER_ENTER:
	case H_SIGNAL_DELIVER:
	case H_RSEQ_UPDATE:
		return t->info.mode == ET_MODE_STOCK;
	case H_STAGE:
		return t->info.mode == ET_MODE_STAGES;
	case H_SUMMARY:
		return t->info.mode == ET_MODE_SUMMARY;
	case H_CALIB:
		return t->info.mode != ET_MODE_STOCK;
	default:
		return true;
	}
}

/*
 * What a trace needs once its tep handle and CPU count are known, wherever
 * they came from (a trace.dat, or the running kernel for live.c): the
 * handler table, every field the decoder reads, the mode, the counters.
 */
static enum et_err setup_events(struct et_trace *t, char *errbuf, size_t errlen)
{
	struct tep_event **all = tep_list_events(t->tep, TEP_EVENT_SORT_ID);
	int n = tep_get_events_count(t->tep);
	enum et_err e;

	if (!all || n <= 0) {
		snprintf(errbuf, errlen, "%s: no event formats in file", t->path);
		return ET_ERR_NO_EVENTS;
	}
	t->max_id = all[n - 1]->id;
	for (int i = 0; i < n; i++)
		if (all[i]->id > t->max_id)
			t->max_id = all[i]->id;
	t->handlers = calloc(t->max_id + 1, sizeof(*t->handlers));
	t->active = calloc(t->max_id + 1, sizeof(*t->active));
	if (!t->handlers || !t->active)
		return ET_ERR_NOMEM;
	if (!resolve(all[0], "common_type", &t->common_type) ||
	    !resolve(all[0], "common_pid", &t->common_pid)) {
		snprintf(errbuf, errlen, "%s: events lack common fields", t->path);
		return ET_ERR_FORMAT;
	}

	resolve_stock(t);
	e = resolve_stages(t, errbuf, errlen);
	if (e)
		return e;
	if (!(t->info.present & (ET_HAVE_RAW_SYSCALLS | ET_HAVE_STAGES |
				 ET_HAVE_SUMMARY))) {
		snprintf(errbuf, errlen,
			 "%s: no syscall events: record raw_syscalls:sys_enter/sys_exit (stock kernel) or entry_stage:* (entrytrace kernel)",
			 t->path);
		return ET_ERR_NO_EVENTS;
	}
	detect_mode(t);

	t->counts.nr_cpus = t->info.cpus;
	t->counts.lost_per_cpu = calloc(t->info.cpus, sizeof(uint64_t));
	t->counts.records_per_cpu = calloc(t->info.cpus, sizeof(uint64_t));
	t->lost_announced = calloc(t->info.cpus, sizeof(bool));
	t->counts.pages_per_cpu = calloc(t->info.cpus, sizeof(uint64_t));
	t->counts.pages_read_per_cpu = calloc(t->info.cpus, sizeof(uint64_t));
	t->counts.time_back_per_cpu = calloc(t->info.cpus, sizeof(uint64_t));
	t->last_page = calloc(t->info.cpus, sizeof(uint64_t));
	t->last_rec_ts = calloc(t->info.cpus, sizeof(uint64_t));
	if (!t->counts.lost_per_cpu || !t->counts.records_per_cpu ||
	    !t->lost_announced || !t->counts.pages_per_cpu ||
	    !t->counts.pages_read_per_cpu || !t->counts.time_back_per_cpu ||
	    !t->last_page || !t->last_rec_ts)
		return ET_ERR_NOMEM;
	return ET_OK;
}

/*
 * libtracecmd still writes some complaints straight to stderr, whatever its
 * log level (perror("mmap") and "Can not mmap file, will read instead" when
 * a CPU's data offset is corrupt).  Opening a file is where they happen and
 * where our own one-line error says what went wrong, so the library's
 * stderr goes to /dev/null while it opens one, unless
 * ENTRYTRACE_LIBRARY_MESSAGES is set.  Files are opened before any worker
 * thread starts, so nobody else's output is lost.
 */
static int quiet_stderr_begin(void)
{
	int saved, null;

	if (getenv("ENTRYTRACE_LIBRARY_MESSAGES"))
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0)
		return -1;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDERR_FILENO) < 0) {
		if (null >= 0)
			close(null);
		close(saved);
		return -1;
	}
	close(null);
	return saved;
}

static void quiet_stderr_end(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

struct et_trace *et_trace_open(const char *path, enum et_err *err,
			       char *errbuf, size_t errlen)
{
	struct et_trace *t;
	const char *name = NULL, *version = NULL;
	bool init_failed = false;
	enum et_err e;
	int quiet;

	struct stat st;
	char open_path[64];
	int spool_fd = -1;

	if (!strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
				   !S_ISDIR(st.st_mode))) {
		int in = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;

		if (in < 0) {
			snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
			*err = ET_ERR_IO;
			return NULL;
		}
		spool_fd = spool(strcmp(path, "-") ? path : "standard input", in, open_path,
				 sizeof(open_path), errbuf, errlen);
		if (in != STDIN_FILENO)
			close(in);
		if (spool_fd < 0) {
			*err = ET_ERR_IO;
			return NULL;
		}
	}
	e = check_path(spool_fd >= 0 ? open_path : path, errbuf, errlen);
	if (e) {
		if (spool_fd >= 0) {
			/* say which input, not the temporary copy */
			char *colon = strchr(errbuf, ':');

			if (colon) {
				char rest[512];

				snprintf(rest, sizeof(rest), "%s", colon);
				snprintf(errbuf, errlen, "%s%s", strcmp(path, "-") ? path :
					 "standard input", rest);
			}
			close(spool_fd);
		}
		*err = e;
		return NULL;
	}

	t = calloc(1, sizeof(*t));
	if (!t) {
		*err = ET_ERR_NOMEM;
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	t->path = strdup(path);
	t->spool_fd = spool_fd;
	t->open_path = strdup(spool_fd >= 0 ? open_path : path);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	quiet = quiet_stderr_begin();
	t->handle = tracecmd_open_head(t->open_path ? t->open_path : path,
				       TRACECMD_FL_LOAD_NO_PLUGINS);
	if (t->handle && tracecmd_init_data(t->handle) < 0)
		init_failed = true;
	quiet_stderr_end(quiet);
	if (!t->handle) {
		snprintf(errbuf, errlen,
			 "%s: libtracecmd cannot read the headers (truncated or corrupt file, or an unsupported version)",
			 path);
		*err = ET_ERR_FORMAT;
		goto fail;
	}
	if (init_failed) {
		snprintf(errbuf, errlen,
			 "%s: the trace data is shorter or other than the headers describe (truncated file?)",
			 path);
		*err = ET_ERR_TRUNCATED;
		park_handle(t->handle);
		t->handle = NULL;
		goto fail;
	}
	t->tep = tracecmd_get_tep(t->handle);
	t->info.path = t->path;
	t->info.uname = tracecmd_get_uname(t->handle);
	t->info.machine = uname_machine(t->info.uname, &t->machine_str);
	t->info.clock = tracecmd_get_trace_clock(t->handle);
	t->info.file_version = tracecmd_get_in_file_version(t->handle);
	if (tracecmd_get_file_compress_proto(t->handle, &name, &version) == 0 && name)
		t->info.compression = name;
	t->info.cpus = tracecmd_cpus(t->handle);
	t->info.first_ts = tracecmd_get_first_ts(t->handle);
	t->info.long_size = tep_get_long_size(t->tep);
	t->info.big_endian = tep_is_file_bigendian(t->tep);
	t->swap = t->info.big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	t->machine = t->info.machine ? audit_name_to_machine(t->info.machine) : -1;
	if (t->info.cpus <= 0) {
		snprintf(errbuf, errlen, "%s: the file records no CPU data", path);
		*err = ET_ERR_FORMAT;
		goto fail;
	}

	e = setup_events(t, errbuf, errlen);
	if (e) {
		*err = e;
		goto fail;
	}
	/* what each CPU holds, in pages, to compare with what is read */
	t->page_size = tracecmd_page_size(t->handle);
	for (int c = 0; t->page_size > 0 && c < t->info.cpus; c++) {
		long long size = tracecmd_get_cpu_file_size(t->handle, c);

		if (size > 0)
			t->counts.pages_per_cpu[c] = (uint64_t)size / t->page_size;
		t->pages_total += t->counts.pages_per_cpu[c];
	}
	*err = ET_OK;
	return t;
fail:
	et_trace_close(t);
	return NULL;
}

void et_trace_close(struct et_trace *t)
{
	if (!t)
		return;
	if (t->handle)
		tracecmd_close(t->handle);
	free(t->handlers);
	free(t->active);
	free(t->counts.lost_per_cpu);
	free(t->counts.records_per_cpu);
	free(t->counts.pages_per_cpu);
	free(t->counts.pages_read_per_cpu);
	free(t->counts.time_back_per_cpu);
	free(t->last_page);
	free(t->last_rec_ts);
	free(t->lost_announced);
	free(t->machine_str);
	free(t->uname_str);
	free(t->clock_str);
	free(t->path);
	free(t->open_path);
	if (t->spool_fd >= 0)
		close(t->spool_fd);
	free(t);
}

const struct et_trace_info *et_trace_info(const struct et_trace *t)
{
	return &t->info;
}

const struct et_trace_counts *et_trace_counts(const struct et_trace *t)
{
	return &t->counts;
}

/* ------------------------------------------------------------------ */
/* Iterate                                                             */

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

static bool decode(const struct et_trace *t, struct et_walk *w,
		   const struct tep_record *rec, const struct et_handler *h,
		   struct et_event *ev)
{
	int len;
	const char *s;

	switch (h->kind) {
	case H_SYS_ENTER:
		ev->kind = ET_EV_SYS_ENTER;
		ev->enter.nr = rd_field(t, rec, &t->enter_id);
		return true;
	case H_SYS_EXIT:
		ev->kind = ET_EV_SYS_EXIT;
		ev->exit.nr = rd_field(t, rec, &t->exit_id);
		ev->exit.ret = rd_field(t, rec, &t->exit_ret);
		return true;
	case H_USER_EXIT:
		ev->kind = ET_EV_USER_EXIT;
		return true;
	case H_USER_ENTER:
		ev->kind = ET_EV_USER_ENTER;
		return true;
	case H_SIGNAL_DELIVER:
		ev->kind = ET_EV_SIGNAL_DELIVER;
		ev->signal.sig = rd_field(t, rec, &t->sig);
		return true;
	case H_RSEQ_UPDATE:
		ev->kind = ET_EV_RSEQ_UPDATE;
		return true;
	case H_SCHED_SWITCH:
		ev->kind = ET_EV_SCHED_SWITCH;
		ev->sw.prev_pid = rd_field(t, rec, &t->sw_prev_pid);
		ev->sw.next_pid = rd_field(t, rec, &t->sw_next_pid);
		ev->sw.prev_state = rd_field(t, rec, &t->sw_prev_state);
		ev->sw.prev_comm = rd_comm(rec, &t->sw_prev_comm, w->comm_a);
		ev->sw.next_comm = rd_comm(rec, &t->sw_next_comm, w->comm_b);
		return true;
	case H_IRQ_ENTER:
		ev->kind = ET_EV_IRQ_ENTER;
		return true;
	case H_IRQ_EXIT:
		ev->kind = ET_EV_IRQ_EXIT;
		return true;
	case H_PROCESS_EXIT:
		ev->task.clone_flags = -1;
		ev->task.exec = false;
		ev->kind = ET_EV_TASK_EXIT;
		ev->task.pid = rd_field(t, rec, &t->pexit_pid);
		ev->task.old_pid = ev->task.pid;
		ev->task.comm = rd_comm(rec, &t->pexit_comm, w->comm_a);
		ev->task.old_comm = NULL;
		return true;
	case H_PROCESS_FORK:
		ev->task.clone_flags = -1;
		ev->task.exec = false;
		ev->kind = ET_EV_TASK_NEW;
		ev->task.pid = rd_field(t, rec, &t->fork_child_pid);
		ev->task.old_pid = ev->task.pid;
		ev->task.comm = rd_comm(rec, &t->fork_child_comm, w->comm_a);
		ev->task.old_comm = NULL;
		return true;
	case H_TASK_NEWTASK:
		ev->task.exec = false;
		ev->kind = ET_EV_TASK_NEW;
		ev->task.pid = rd_field(t, rec, &t->newtask_pid);
		ev->task.old_pid = ev->task.pid;
		ev->task.comm = rd_comm(rec, &t->newtask_comm, w->comm_a);
		ev->task.old_comm = NULL;
		ev->task.clone_flags = t->newtask_flags.size ?
			rd_field(t, rec, &t->newtask_flags) : -1;
		return true;
	case H_TASK_RENAME:
		ev->task.clone_flags = -1;
		ev->task.exec = false;
		ev->kind = ET_EV_COMM;
		ev->task.pid = rd_field(t, rec, &t->rename_pid);
		ev->task.old_pid = ev->task.pid;
		ev->task.comm = rd_comm(rec, &t->rename_newcomm, w->comm_a);
		ev->task.old_comm = t->rename_oldcomm.size ?
			rd_comm(rec, &t->rename_oldcomm, w->comm_b) : NULL;
		return true;
	case H_PROCESS_EXEC:
		ev->task.clone_flags = -1;
		ev->task.exec = true;
		ev->kind = ET_EV_COMM;
		ev->task.pid = rd_field(t, rec, &t->exec_pid);
		ev->task.old_pid = rd_field(t, rec, &t->exec_old_pid);
		s = rd_dynstr(t, rec, &t->exec_filename, &len);
		ev->task.comm = s ? exec_comm(s, len, w->comm_a) : NULL;
		ev->task.old_comm = NULL;
		return true;
	case H_STAGE: {
		uint64_t khz = rd_field(t, rec, &t->st_khz);

		ev->kind = ET_EV_STAGE;
		ev->stage.seq = rd_field(t, rec, &t->st_seq);
		ev->stage.nr = rd_field(t, rec, &t->st_nr);
		ev->stage.stage = rd_field(t, rec, &t->st_stage);
		/* a stage id stages.def does not have: damaged, or another ABI */
		if (ev->stage.stage >= et_stage_nr_kernel) {
			w->abi_errors++;
			return false;
		}
		ev->stage.work = rd_field(t, rec, &t->st_work);
		ev->stage.count = rd_field(t, rec, &t->st_count);
		ev->stage.start = rd_field(t, rec, &t->st_start);
		ev->stage.delta = et_ticks_ns(rd_field(t, rec, &t->st_delta), khz);
		ev->stage.insns = rd_field(t, rec, &t->st_insns);
		ev->stage.ret = rd_field(t, rec, &t->st_ret);
		ev->stage.pmu = !khz;
		ev->stage.sample = rd_field(t, rec, &t->st_sample);
		ev->stage.stamp_ns = et_stamp_ns(rd_field(t, rec, &t->st_cost), khz);
		return true;
	}
	case H_SUMMARY: {
		uint64_t khz = rd_field(t, rec, &t->su_khz);

		ev->kind = ET_EV_SUMMARY;
		ev->summary.seq = rd_field(t, rec, &t->su_seq);
		ev->summary.tail_seq = rd_field(t, rec, &t->su_tail_seq);
		ev->summary.nr = rd_field(t, rec, &t->su_nr);
		ev->summary.work = rd_field(t, rec, &t->su_work);
		ev->summary.ret = rd_field(t, rec, &t->su_ret);
		ev->summary.start = rd_field(t, rec, &t->su_start);
		ev->summary.rcu_unlock_slow = rd_field(t, rec, &t->su_rcu);
		ev->summary.sample = rd_field(t, rec, &t->su_sample);
		ev->summary.pmu = !khz;
		/* thousandths of a tick per stamp */
		ev->summary.stamp_ns = et_stamp_ns(rd_field(t, rec, &t->su_cost), khz);
		if (t->su_delta.offset + t->su_delta.size > rec->size)
			return false;
		for (int i = 0; i < t->su_nr_delta; i++)
			w->su_buf[i] = et_ticks_ns(rd_u(t, (const char *)rec->data +
							t->su_delta.offset + 4 * i, 4), khz);
		ev->summary.delta = w->su_buf;
		ev->summary.nr_delta = t->su_nr_delta;
		return true;
	}
	case H_CALIB: {
		uint64_t hz = rd_field(t, rec, &t->ca_hz);
		/* thousandths of a tick (of a cycle: PMU) to ns */
		double per = rd_field(t, rec, &t->ca_source) || !hz ? 1e-3 : 1e6 / hz;

		/* the kernel's own word on its stage ABI */
		if (rd_field(t, rec, &t->ca_abi) != ENTRY_STAGE_ABI) {
			w->abi_errors++;
			return false;
		}
		ev->kind = ET_EV_CALIB;
		ev->calib.source = rd_field(t, rec, &t->ca_source);
		ev->calib.counter_hz = hz;
		ev->calib.sample = rd_field(t, rec, &t->ca_sample);
		ev->calib.epoch = rd_field(t, rec, &t->ca_epoch);
		ev->calib.cost_min_ns = rd_field(t, rec, &t->ca_min) * per;
		ev->calib.cost_ns = rd_field(t, rec, &t->ca_median) * per;
		ev->calib.agg_ns = rd_field(t, rec, &t->ca_agg) * per;
		ev->calib.scratch = rd_field(t, rec, &t->ca_scratch);
		ev->calib.failed = rd_field(t, rec, &t->ca_failed);
		return true;
	}
	}
	return false;
}

/*
 * libtracecmd reports a ring-buffer overrun on the first record after the
 * gap.  In global time order, records of other CPUs that fall inside the gap
 * come first, so waiting for that record would announce the loss too late.
 * The merge below already holds each CPU's next record, so a gap is
 * announced at its start instead: right after the record before it.
 */
static int emit_lost(struct et_trace *t, struct et_walk *w, int cpu,
		     uint64_t ts, long long missed)
{
	struct et_event ev = {
		.kind = ET_EV_LOST, .cpu = cpu, .pid = -1, .ts = ts,
		.lost.count = missed > 0 ? missed : -1,
	};

	if (missed > 0)
		w->lost_events += missed;
	else
		w->lost_unknown++;
	t->counts.lost_per_cpu[cpu] += missed > 0 ? missed : 1;
	return w->fn(&ev, w->data);
}

/* Each CPU is walked by exactly one walker: per-CPU state needs no lock. */
static int on_record(struct et_trace *t, struct et_walk *w,
		     const struct tep_record *rec, const struct tep_record *next,
		     int cpu)
{
	const struct et_handler *h;
	struct et_event ev;
	int id, ret;

	w->records++;
	t->counts.records_per_cpu[cpu]++;
	if (t->page_size > 0) {
		/* records of a CPU come in file order: count page changes */
		uint64_t page = rec->offset / (uint64_t)t->page_size + 1;

		if (page != t->last_page[cpu]) {
			/* one writer per CPU; the progress reads it from the merge */
			__atomic_store_n(&t->counts.pages_read_per_cpu[cpu],
					 t->counts.pages_read_per_cpu[cpu] + 1, __ATOMIC_RELAXED);
			t->last_page[cpu] = page;
		}
		/* (live rounds are in order only within a round) */
		if (rec->ts < t->last_rec_ts[cpu])
			t->counts.time_back_per_cpu[cpu]++;
		t->last_rec_ts[cpu] = rec->ts;
	}
	if (rec->ts > w->last_ts)
		w->last_ts = rec->ts;

	/* only the first record of a CPU can carry an unannounced gap */
	if (rec->missed_events && !t->lost_announced[cpu]) {
		ret = emit_lost(t, w, cpu, rec->ts, rec->missed_events);
		if (ret)
			return ret;
	}
	t->lost_announced[cpu] = false;

	id = (int)rd_field(t, rec, &t->common_type);
	h = id >= 0 && id <= t->max_id ? &t->active[id] : NULL;
	if (h && h->kind != H_NONE) {
		ev.cpu = cpu;
		ev.ts = rec->ts;
		ev.pid = (int)rd_field(t, rec, &t->common_pid);
		if (decode(t, w, rec, h, &ev)) {
			w->used++;
			ret = w->fn(&ev, w->data);
			if (ret)
				return ret;
		}
	}

	if (next && next->missed_events) {
		t->lost_announced[cpu] = true;
		return emit_lost(t, w, cpu, rec->ts, next->missed_events);
	}
	return 0;
}

/* Min-heap of CPUs keyed by their next record's timestamp. */
struct merge {
	struct tep_record **next;	/* per CPU, NULL when drained */
	int *heap;
	int n;
};

static bool before(const struct merge *m, int a, int b)
{
	return m->next[a]->ts < m->next[b]->ts ||
	       (m->next[a]->ts == m->next[b]->ts && a < b);
}

static void sift_down(struct merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i, tmp;

		if (l < m->n && before(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->n && before(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			return;
		tmp = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = tmp;
		i = s;
	}
}

int et_walk_init(const struct et_trace *t, struct et_walk *w, et_event_fn fn,
		 void *data)
{
	memset(w, 0, sizeof(*w));
	w->fn = fn;
	w->data = data;
	if (t->su_nr_delta) {
		w->su_buf = calloc(t->su_nr_delta, sizeof(*w->su_buf));
		if (!w->su_buf)
			return -1;
	}
	return 0;
}

void et_walk_fini(struct et_trace *t, struct et_walk *w)
{
	t->counts.records += w->records;
	t->counts.used += w->used;
	t->counts.lost_events += w->lost_events;
	t->counts.lost_unknown += w->lost_unknown;
	t->abi_errors += w->abi_errors;
	t->counts.abi_errors = t->abi_errors;
	if (w->last_ts > t->counts.last_ts)
		t->counts.last_ts = w->last_ts;
	free(w->su_buf);
	w->su_buf = NULL;
}

/*
 * The same walk as tracecmd_iterate_events(), over the given CPUs of the
 * given handle: their records merged by timestamp, ties to the lower CPU.
 * Done here because the merge holds the next record of the CPU just read,
 * which is what lost-event announcement needs, and a heap keeps many-CPU
 * traces at log(CPUs) per record.
 */
int et_walk_cpus(struct et_trace *t, struct tracecmd_input *handle,
		 const int *cpus, int ncpus, struct et_walk *w)
{
	struct merge m = { 0 };
	int ret = 0;

	/* indexed by trace CPU, so the heap compares the real CPU numbers */
	m.next = calloc(t->info.cpus, sizeof(*m.next));
	m.heap = calloc(ncpus, sizeof(*m.heap));
	if (!m.next || !m.heap) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < ncpus; i++) {
		int c = cpus[i];

		m.next[c] = tracecmd_peek_data(handle, c);
		if (m.next[c])
			m.heap[m.n++] = c;
	}
	for (int i = m.n / 2 - 1; i >= 0; i--)
		sift_down(&m, i);

	while (m.n && !ret) {
		int cpu = m.heap[0];
		struct tep_record *rec;

		if (m.n <= 8) {
			/* few CPUs: a scan beats the heap's bookkeeping */
			for (int i = 1; i < m.n; i++)
				if (before(&m, m.heap[i], cpu))
					cpu = m.heap[i];
		}
		rec = tracecmd_read_data(handle, cpu);
		m.next[cpu] = tracecmd_peek_data(handle, cpu);
		if (m.n <= 8) {
			if (!m.next[cpu]) {
				for (int i = 0; i < m.n; i++)
					if (m.heap[i] == cpu)
						m.heap[i] = m.heap[--m.n];
				/* the heap order is rebuilt if it is needed again */
				for (int i = m.n / 2 - 1; i >= 0; i--)
					sift_down(&m, i);
			}
		} else {
			if (!m.next[cpu])
				m.heap[0] = m.heap[--m.n];
			sift_down(&m, 0);
		}
		if (!rec)
			continue;
		ret = on_record(t, w, rec, m.next[cpu], cpu);
		tracecmd_free_record(rec);
	}
out:
	free(m.next);
	free(m.heap);
	return ret;
}

static void activate_handlers(struct et_trace *t)
{
	for (int id = 0; id <= t->max_id; id++)
		t->active[id] = handler_wanted(t, t->handlers[id].kind) ?
					t->handlers[id] : (struct et_handler){ H_NONE };
}

/* Sum up what each CPU held and what could be read of it. */
static void count_holes(struct et_trace *t)
{
	struct et_trace_counts *c = &t->counts;

	c->pages_unread = 0;
	c->time_back = 0;
	for (int cpu = 0; cpu < t->info.cpus; cpu++) {
		if (c->pages_per_cpu[cpu] > c->pages_read_per_cpu[cpu])
			c->pages_unread += c->pages_per_cpu[cpu] - c->pages_read_per_cpu[cpu];
		c->time_back += c->time_back_per_cpu[cpu];
	}
}

bool et_counts_damaged(const struct et_trace_counts *c)
{
	return c->pages_unread || c->time_back || c->abi_errors;
}

void et_trace_set_progress(struct et_trace *t, et_progress_fn fn, void *data)
{
	t->progress = fn;
	t->progress_data = data;
}

struct progress {
	struct et_trace *t;
	et_event_fn fn;
	void *data;
	unsigned int n;
};

static int with_progress(const struct et_event *ev, void *data)
{
	struct progress *p = data;

	if (!(++p->n & 16383) && p->t->pages_total) {
		uint64_t read = 0;

		for (int c = 0; c < p->t->info.cpus; c++)
			read += __atomic_load_n(&p->t->counts.pages_read_per_cpu[c],
						__ATOMIC_RELAXED);
		p->t->progress(p->t->path, (double)read / (double)p->t->pages_total,
			       p->t->progress_data);
	}
	return p->fn(ev, p->data);
}

int et_trace_iterate(struct et_trace *t, et_event_fn fn, void *data)
{
	struct progress prog = { t, fn, data, 0 };
	struct et_walk w;
	int *all, ret;

	if (t->progress && t->pages_total) {
		fn = with_progress;
		data = &prog;
	}
	activate_handlers(t);
	if (t->jobs > 1 && t->info.cpus > 1) {
		ret = et_iterate_parallel(t, t->jobs, fn, data);
		count_holes(t);
		if (t->progress && t->pages_total)
			t->progress(t->path, 1, t->progress_data);
		return ret;
	}

	all = calloc(t->info.cpus, sizeof(*all));
	if (!all || et_walk_init(t, &w, fn, data)) {
		free(all);
		return -1;
	}
	for (int c = 0; c < t->info.cpus; c++)
		all[c] = c;
	ret = et_walk_cpus(t, t->handle, all, t->info.cpus, &w);
	et_walk_fini(t, &w);
	free(all);
	count_holes(t);
	if (t->progress && t->pages_total)
		t->progress(t->path, 1, t->progress_data);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Live: the running kernel's formats, records one at a time (live.c)  */

struct et_trace *et_trace_new_live(struct tep_handle *tep, const char *name,
				   const char *uname, const char *clock, int cpus,
				   enum et_err *err, char *errbuf, size_t errlen)
{
	struct et_trace *t = calloc(1, sizeof(*t));
	enum et_err e = ET_ERR_NOMEM;

	snprintf(errbuf, errlen, "out of memory");
	if (!t)
		goto fail;
	t->spool_fd = -1;
	t->path = strdup(name);
	t->uname_str = uname ? strdup(uname) : NULL;
	t->clock_str = clock ? strdup(clock) : NULL;
	if (!t->path || (uname && !t->uname_str) || (clock && !t->clock_str))
		goto fail;
	t->tep = tep;
	t->info.path = t->path;
	t->info.uname = t->uname_str;
	t->info.machine = uname_machine(t->uname_str, &t->machine_str);
	t->info.clock = t->clock_str;
	t->info.cpus = cpus;
	t->info.long_size = sizeof(long);
	t->info.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	t->machine = t->info.machine ? audit_name_to_machine(t->info.machine) : -1;
	e = setup_events(t, errbuf, errlen);
	if (e)
		goto fail;
	activate_handlers(t);
	*err = ET_OK;
	return t;
fail:
	*err = e;
	et_trace_close(t);
	return NULL;
}

int et_trace_decode_record(struct et_trace *t, struct et_walk *w,
			   const struct tep_record *rec, int cpu)
{
	if (cpu < 0 || cpu >= t->info.cpus)
		return 0;
	return on_record(t, w, rec, NULL, cpu);
}

int et_trace_decode_gap(struct et_trace *t, struct et_walk *w, int cpu,
			uint64_t ts)
{
	if (cpu < 0 || cpu >= t->info.cpus)
		return 0;
	t->lost_announced[cpu] = false;
	return emit_lost(t, w, cpu, ts, -1);
}

void et_trace_set_jobs(struct et_trace *t, int jobs)
{
	t->jobs = jobs;
}

/* A second handle on the same file, for a reader thread. */
struct tracecmd_input *et_trace_reopen(const struct et_trace *t)
{
	struct tracecmd_input *h = tracecmd_open_head(t->open_path ? t->open_path : t->path,
						      TRACECMD_FL_LOAD_NO_PLUGINS);

	if (h && tracecmd_init_data(h) < 0) {
		park_handle(h);
		return NULL;
	}
	return h;
}

int et_trace_summary_slots(const struct et_trace *t)
{
	return t->su_nr_delta;
}

int et_trace_cpus(const struct et_trace *t)
{
	return t->info.cpus;
}

unsigned long long et_trace_abi_errors(const struct et_trace *t)
{
	return t->abi_errors;
}

/* ------------------------------------------------------------------ */
/* Syscall names                                                       */

/*
 * 32-bit powerpc (uname machine "ppc"): the kernel's own 32-bit table.
 * libaudit's MACH_PPC is the 64-bit table (it names 64-bit-only calls)
 * and ends at 450.
 */
static bool is_ppc32(const struct et_trace *t)
{
	return t->info.machine && !strcmp(t->info.machine, "ppc");
}

const char *et_syscall_name(const struct et_trace *t, long nr)
{
	if (t && is_ppc32(t))
		return nr >= 0 && nr < et_ppc32_nr_syscalls ? et_ppc32_syscalls[nr] : NULL;
	if (!t || t->machine < 0 || nr < 0 || nr > 100000)
		return NULL;
	return audit_syscall_to_name((int)nr, t->machine);
}

long et_syscall_number(const struct et_trace *t, const char *name)
{
	char *end;
	long nr = strtol(name, &end, 0);

	if (*name && !*end)
		return nr;
	if (t && is_ppc32(t)) {
		for (int i = 0; i < et_ppc32_nr_syscalls; i++)
			if (et_ppc32_syscalls[i] && !strcmp(et_ppc32_syscalls[i], name))
				return i;
		return -1;
	}
	if (!t || t->machine < 0)
		return -1;
	return audit_name_to_syscall(name, t->machine);
}

struct tep_handle *et_trace_tep(const struct et_trace *t)
{
	return t->tep;
}

struct tracecmd_input *et_trace_handle(const struct et_trace *t)
{
	return t->handle;
}
