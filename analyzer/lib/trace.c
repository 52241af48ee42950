// SPDX-License-Identifier: LGPL-2.1
/*
 * Trace: a trace.dat opened with libtracecmd, and what it says about
 * itself - kernel, clock, CPUs, the event families it has formats for, the
 * mode that follows, syscall names for its architecture, the names its
 * saved cmdlines give tasks.  Reading the records is walk.c's; decoding
 * them decode.c's.
 *
 * Files are opened with tracecmd_open_head() + tracecmd_init_data(), never
 * tracecmd_open(), whose cleanup after a failed data init crashes
 * libtracecmd 1.3.1 on truncated v6 files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libaudit.h>
#include <event-parse.h>

#include "entrytrace-local.h"
#include "tracecmd-compat.h"

/*
 * libtracecmd 1.3.1 crashes in tracecmd_close() on a handle whose data
 * failed to initialise (tracecmd_open() itself does that on a truncated v6
 * file).  Such a handle is parked here instead: never closed, still
 * reachable, so it is neither a crash nor a leak report.  One per bad file;
 * the library's only process-wide state, taken one slot at a time, so that
 * two threads opening bad files do not share one.
 */
static struct tracecmd_input *parked[64];
static atomic_uint nr_parked;

static void park_handle(struct tracecmd_input *handle)
{
	unsigned int i = atomic_fetch_add(&nr_parked, 1);

	if (i < ET_ARRAY_SIZE(parked))
		parked[i] = handle;
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

static void detect_mode(struct et_trace *t)
{
	unsigned int p = t->info.present;

	if (p & ET_HAVE_STAGES)
		t->info.mode = ET_MODE_STAGES;
	else if (p & (ET_HAVE_SUMMARY | ET_HAVE_BATCH | ET_HAVE_HIST))
		t->info.mode = ET_MODE_SUMMARY;
	else
		t->info.mode = ET_MODE_STOCK;
}

bool et_trace_set_mode(struct et_trace *t, enum et_mode mode)
{
	unsigned int need = mode == ET_MODE_STAGES  ? ET_HAVE_STAGES :
			    mode == ET_MODE_SUMMARY ? ET_HAVE_SUMMARY | ET_HAVE_BATCH | ET_HAVE_HIST :
						      ET_HAVE_RAW_SYSCALLS;

	if (!(t->info.present & need))
		return false;
	t->info.mode = mode;
	et_decoder_activate(&t->dec, mode);
	return true;
}

/*
 * What a trace needs once its tep handle and CPU count are known, wherever
 * they came from (a trace.dat, or the running kernel for live.c): the
 * decoder, the mode, the counters.
 */
static enum et_err setup_events(struct et_trace *t, char *errbuf, size_t errlen)
{
	enum et_err e = et_decoder_init(&t->dec, t->tep, &t->info, errbuf, errlen);
	int n = t->info.cpus;

	if (e)
		return e;
	detect_mode(t);
	t->long_size = tep_get_header_page_size(t->tep);
	t->counts.nr_cpus = n;
	t->counts.unknown_stage_names = t->dec.unknown_names;
	t->counts.lost_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.records_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.pages_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.pages_read_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.time_back_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.bad_pages_per_cpu = calloc(n, sizeof(uint64_t));
	t->counts.unread_bytes_per_cpu = calloc(n, sizeof(uint64_t));
	t->lost_announced = calloc(n, sizeof(bool));
	t->last_page = calloc(n, sizeof(uint64_t));
	t->last_rec_ts = calloc(n, sizeof(uint64_t));
	t->batch_seq = calloc(n, sizeof(uint32_t));
	t->lost_unknown_per_cpu = calloc(n, sizeof(uint64_t));
	if (!t->lost_unknown_per_cpu ||
	    !t->counts.lost_per_cpu || !t->counts.records_per_cpu ||
	    !t->lost_announced || !t->counts.pages_per_cpu ||
	    !t->counts.pages_read_per_cpu || !t->counts.time_back_per_cpu ||
	    !t->counts.bad_pages_per_cpu || !t->counts.unread_bytes_per_cpu ||
	    !t->last_page || !t->last_rec_ts || !t->batch_seq) {
		snprintf(errbuf, errlen, "out of memory");
		return ET_ERR_NOMEM;
	}
	et_decoder_activate(&t->dec, t->info.mode);
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

/*
 * Whether pages.c reads the CPUs itself: the file's layout is known and
 * each CPU's first record there is the one libtracecmd gives (same time,
 * same bytes), which also rules out timestamp conversions the options
 * scan could have missed.  ENTRYTRACE_READER=libtracecmd reads through
 * libtracecmd regardless, ENTRYTRACE_DEBUG says which reader and why.
 */
static void choose_reader(struct et_trace *t)
{
	const char *env = getenv("ENTRYTRACE_READER"), *why = NULL;
	int unread_cpu = -1;
	uint64_t unread = 0;
	bool ok;

	if (env && !strcmp(env, "libtracecmd")) {
		why = "ENTRYTRACE_READER=libtracecmd";
		ok = false;
	} else {
		ok = et_pages_layout(t, &why);
	}
	for (int cpu = 0; ok && cpu < t->info.cpus; cpu++) {
		struct tep_record *lt = tracecmd_peek_data(t->handle, cpu);
		bool data = t->layout[cpu].source != ET_SRC_NONE;
		struct et_cpu_reader *r;
		struct et_rec rec;
		int got = 0;

		if (data != (tracecmd_get_cpu_file_size(t->handle, cpu) > 0)) {
			why = "a CPU has data by one reading of the file and none by the other";
			/* the section is there, its chunk count or size says nothing */
			if (data) {
				unread_cpu = cpu;
				unread = t->layout[cpu].size;
			}
			ok = false;
			break;
		}
		if (!data) {
			if (lt) {
				why = "libtracecmd reads records of a CPU without data";
				ok = false;
			}
			continue;
		}
		t->direct = true;	/* for the reader's setup */
		r = et_cpu_reader_new(t, cpu, NULL);
		t->direct = false;
		if (r)
			got = et_cpu_reader_next(r, &rec);
		if (!r || (got > 0) != (lt != NULL) ||
		    (lt && (lt->ts != rec.ts || lt->size != rec.size ||
			    memcmp(lt->data, rec.data, rec.size)))) {
			why = "a CPU's first record differs from libtracecmd's";
			ok = false;
		}
		et_cpu_reader_free(r);
	}
	t->direct = ok;
	if (!ok) {
		free(t->layout);
		t->layout = NULL;
	}
	/* the first records read above were a probe: the real reading counts */
	memset(t->counts.bad_pages_per_cpu, 0, t->info.cpus * sizeof(uint64_t));
	memset(t->counts.unread_bytes_per_cpu, 0, t->info.cpus * sizeof(uint64_t));
	if (unread_cpu >= 0)
		t->counts.unread_bytes_per_cpu[unread_cpu] = unread;
	if (getenv("ENTRYTRACE_DEBUG"))
		fprintf(stderr, "entrytrace: %s: %s%s%s\n", t->path,
			ok ? "reading the pages directly" : "reading through libtracecmd",
			why ? ": " : "", why ? why : "");
}

/*
 * What the headers say of the CPU data, held against the file before
 * libtracecmd reads it: tracecmd_init_data() allocates by counts the file
 * gives (et_pages_chunk_counts_fit()).  Only what open_head read is known
 * here; the rest of et_trace_info is filled in after.
 */
static bool counts_fit(struct et_trace *t, char *why, size_t len)
{
	bool ok;

	if (t->fd < 0 || tracecmd_get_in_file_version(t->handle) != 7 ||
	    tracecmd_cpus(t->handle) <= 0 || tracecmd_page_size(t->handle) <= 0)
		return true;
	t->info.file_version = 7;
	t->info.cpus = tracecmd_cpus(t->handle);
	t->info.big_endian = tep_is_file_bigendian(tracecmd_get_tep(t->handle));
	t->page_size = tracecmd_page_size(t->handle);
	ok = et_pages_chunk_counts_fit(t, why, len);
	t->info.cpus = 0;
	t->page_size = 0;
	return ok;
}

/*
 * The trace's end: the latest of the CPUs' last records, on a handle of
 * its own (reading a CPU's last record moves the handle there).  Each
 * CPU's first and last record are held against its CPUSTAT (index.c).
 */
static void find_last_ts(struct et_trace *t)
{
	struct tracecmd_input *h = et_trace_reopen(t);

	for (int cpu = 0; h && cpu < t->info.cpus; cpu++) {
		struct tep_record *rec;
		uint64_t first = 0;

		/* (libtracecmd 1.3 crashes reading the last record of a CPU without data) */
		if (tracecmd_get_cpu_file_size(h, cpu) <= 0)
			continue;
		rec = tracecmd_read_cpu_first(h, cpu);
		if (rec)
			first = rec->ts;
		tracecmd_free_record(rec);
		rec = tracecmd_read_cpu_last(h, cpu);

		if (rec && rec->ts > t->info.last_ts)
			t->info.last_ts = rec->ts;
		if (rec)
			et_index_check_times(t, cpu, first, rec->ts);
		tracecmd_free_record(rec);
	}
	if (h)
		tracecmd_close(h);
}

struct et_trace *et_trace_open(const char *path, enum et_err *err,
			       char *errbuf, size_t errlen)
{
	struct et_trace *t;
	const char *name = NULL, *version = NULL;
	bool init_failed = false, index_bad = false;
	enum et_err e;
	int quiet;

	struct stat st;
	char open_path[64];
	int spool_fd = -1;
	char why[256] = "";

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
	t->fd = -1;
	t->path = strdup(path);
	t->spool_fd = spool_fd;
	t->open_path = strdup(spool_fd >= 0 ? open_path : path);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	quiet = quiet_stderr_begin();
	t->handle = tracecmd_open_head(t->open_path ? t->open_path : path,
				       TRACECMD_FL_LOAD_NO_PLUGINS);
	t->fd = open(t->open_path, O_RDONLY | O_CLOEXEC);
	if (t->handle && !et_index_read(t, why, sizeof(why)))
		init_failed = index_bad = true;
	else if (t->handle && !counts_fit(t, why, sizeof(why)))
		init_failed = true;
	else if (t->handle && tracecmd_init_data(t->handle) < 0)
		init_failed = true;
	quiet_stderr_end(quiet);
	if (!t->handle) {
		if (et_index_layout(t->open_path, why, sizeof(why)))
			snprintf(errbuf, errlen, "%s: libtracecmd cannot read the headers: %s",
				 path, why);
		else
			snprintf(errbuf, errlen,
				 "%s: libtracecmd cannot read the headers (truncated or corrupt file, or an unsupported version)",
				 path);
		*err = ET_ERR_FORMAT;
		goto fail;
	}
	if (init_failed) {
		if (index_bad)
			snprintf(errbuf, errlen, "%s: the file contradicts itself: %s", path, why);
		else if (why[0])
			snprintf(errbuf, errlen, "%s: the trace data is other than the headers "
				 "describe: %s", path, why);
		else
			snprintf(errbuf, errlen, "%s: the trace data is shorter or other than "
				 "the headers describe (truncated file?)", path);
		*err = ET_ERR_TRUNCATED;
		park_handle(t->handle);
		t->handle = NULL;
		goto fail;
	}
	t->tep = tracecmd_get_tep(t->handle);
	t->info.path = t->path;
	t->info.uname = tracecmd_get_uname(t->handle);
	t->info.machine = uname_machine(t->info.uname, &t->machine_str);
	/* the file's own word first: libtracecmd's may be heap bytes (index.c) */
	t->info.clock = t->index.clock ? t->index.clock : tracecmd_get_trace_clock(t->handle);
	t->info.file_version = tracecmd_get_in_file_version(t->handle);
	if (tracecmd_get_file_compress_proto(t->handle, &name, &version) == 0 && name)
		t->info.compression = name;
	t->info.cpus = tracecmd_cpus(t->handle);
	t->info.first_ts = tracecmd_get_first_ts(t->handle);
	t->info.long_size = tep_get_long_size(t->tep);
	t->info.big_endian = tep_is_file_bigendian(t->tep);
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
	et_decoder_mark_unregistered(&t->dec, t->tep);
	et_decoder_activate(&t->dec, t->info.mode);
	/* what each CPU holds, in pages, to compare with what is read */
	t->page_size = tracecmd_page_size(t->handle);
	for (int c = 0; t->page_size > 0 && c < t->info.cpus; c++) {
		long long size = tracecmd_get_cpu_file_size(t->handle, c);

		if (size > 0)
			t->counts.pages_per_cpu[c] = (uint64_t)size / t->page_size;
		t->pages_total += t->counts.pages_per_cpu[c];
	}
	if (t->fd >= 0)
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (t->page_size > 0)
		choose_reader(t);
	/* section bytes no index entry reaches: the CPU's before them */
	for (int i = 0; i < t->index.nr_unread; i++)
		if (t->index.unread_cpu[i] < t->info.cpus)
			t->counts.unread_bytes_per_cpu[t->index.unread_cpu[i]] += t->index.unread[i];
	/* the reader audits what it reads itself; the others' bytes here */
	if (t->page_size > 0 && !t->direct && t->fd >= 0)
		et_audit_v6(t);
	find_last_ts(t);
	t->open_notes_len = t->notes_len;
	t->open_mismatches = t->counts.index_mismatches;
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
	et_decoder_fini(&t->dec);
	free(t->counts.lost_per_cpu);
	free(t->counts.records_per_cpu);
	free(t->counts.pages_per_cpu);
	free(t->counts.pages_read_per_cpu);
	free(t->counts.time_back_per_cpu);
	free(t->counts.bad_pages_per_cpu);
	free(t->counts.unread_bytes_per_cpu);
	free(t->last_page);
	free(t->last_rec_ts);
	free(t->batch_seq);
	free(t->lost_announced);
	free(t->lost_unknown_per_cpu);
	et_index_free(&t->index);
	free(t->layout);
	free(t->machine_str);
	free(t->uname_str);
	free(t->clock_str);
	free(t->path);
	free(t->open_path);
	if (t->fd >= 0)
		close(t->fd);
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

bool et_counts_damaged(const struct et_trace_counts *c)
{
	if (c->pages_unread || c->time_back || c->abi_errors || c->unknown_stages ||
	    c->implausible || c->seq_unexplained || c->index_mismatches || c->unregistered ||
	    c->short_records || c->bad_nr || c->batches_unexplained)
		return true;
	for (int cpu = 0; cpu < c->nr_cpus; cpu++)
		if ((c->bad_pages_per_cpu && c->bad_pages_per_cpu[cpu]) ||
		    (c->unread_bytes_per_cpu && c->unread_bytes_per_cpu[cpu]))
			return true;
	return false;
}

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

/* ------------------------------------------------------------------ */
/* Live: the running kernel's formats                                  */

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
	t->fd = -1;
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
	*err = ET_OK;
	return t;
fail:
	*err = e;
	et_trace_close(t);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Mix: plugin output has an architecture and, if recorded, a release   */

struct et_trace *et_trace_new_mix(const char *path, const char *arch, const char *release,
				  enum et_err *err, char *errbuf, size_t errlen)
{
	struct et_trace *t = calloc(1, sizeof(*t));
	char uname[256];

	*err = ET_ERR_NOMEM;
	snprintf(errbuf, errlen, "out of memory");
	if (!t)
		return NULL;
	t->spool_fd = -1;
	t->fd = -1;
	t->path = strdup(path);
	/* a uname of the kernel's shape, so that the entry path follows from it */
	if (release) {
		snprintf(uname, sizeof(uname), "Linux qemu-plugin %s #mix %s", release, arch);
		t->uname_str = strdup(uname);
	}
	t->machine_str = strdup(arch);
	if (!t->path || !t->machine_str || (release && !t->uname_str)) {
		et_trace_close(t);
		return NULL;
	}
	t->info.path = t->path;
	t->info.uname = t->uname_str;
	t->info.machine = t->machine_str;
	t->info.mode = ET_MODE_STAGES;
	t->info.clockless = true;
	t->info.long_size = 8;
	t->machine = audit_name_to_machine(arch);
	if (t->machine < 0 && strcmp(arch, "ppc")) {
		snprintf(errbuf, errlen, "%s: architecture '%s' has no syscall table here", path,
			 arch);
		*err = ET_ERR_FORMAT;
		et_trace_close(t);
		return NULL;
	}
	*err = ET_OK;
	return t;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */

/*
 * The kernel's own names (its unistd names: pread64, not libaudit's
 * pread) for the architectures syscalls.c has, from their syscall tables;
 * libaudit for the rest.  libaudit's powerpc table is also the 64-bit one
 * only, and Debian 12's ends at 450.
 */
static const struct et_syscall_table *kernel_table(const struct et_trace *t)
{
	if (!t || !t->info.machine)
		return NULL;
	for (const struct et_syscall_table *k = et_syscall_tables; k->machine; k++)
		if (!strcmp(k->machine, t->info.machine))
			return k;
	return NULL;
}

const char *et_syscall_name(const struct et_trace *t, long nr)
{
	const struct et_syscall_table *k = kernel_table(t);

	if (k)
		return nr >= 0 && (size_t)nr < k->nr ? k->names[nr] : NULL;
	if (!t || t->machine < 0 || nr < 0 || nr > 100000)
		return NULL;
	return audit_syscall_to_name((int)nr, t->machine);
}

/* The kernel's own syscall table for the trace's architecture: its size, 0 if none. */
int et_syscall_table_size(const struct et_trace *t)
{
	const struct et_syscall_table *k = kernel_table(t);

	return k ? (int)k->nr : 0;
}

/* A name: the kernel's, or libaudit's where it differs (pread for pread64). */
long et_syscall_number(const struct et_trace *t, const char *name)
{
	const struct et_syscall_table *k = kernel_table(t);
	char *end;
	long nr = strtol(name, &end, 0);

	if (*name && !*end)
		return nr;
	if (k)
		for (size_t i = 0; i < k->nr; i++)
			if (k->names[i] && !strcmp(k->names[i], name))
				return (long)i;
	if (!t || t->machine < 0 || (k && !strcmp(k->machine, "ppc")))
		return -1;	/* (libaudit's powerpc numbers are the 64-bit ones) */
	return audit_name_to_syscall(name, t->machine);
}

const char *et_trace_comm(const struct et_trace *t, int pid)
{
	return tep_data_comm_from_pid(t->tep, pid);
}

/* Syscall numbers, and so cells, only mean the same on one architecture. */
bool et_same_machine(const struct et_trace_info *a, const struct et_trace_info *b)
{
	if (!a->machine || !b->machine)
		return a->machine == b->machine;
	return !strcmp(a->machine, b->machine);
}

bool et_info_virtual_clock(const struct et_trace_info *in)
{
	const char *sp = in->uname ? strchr(in->uname, ' ') : NULL;

	return sp && !strncmp(sp + 1, "qemu-icount ", strlen("qemu-icount "));
}

unsigned int et_info_entry_path(const struct et_trace_info *in)
{
	unsigned int major = 0, minor = 0;
	const char *v;

	if (in->mode == ET_MODE_STOCK)
		return ET_PATH_S;
	/* powerpc's own entry code until 7.2 enabled GENERIC_ENTRY */
	if (in->machine && !strncmp(in->machine, "ppc", 3) && in->uname) {
		v = strchr(in->uname, ' ');
		v = v ? strchr(v + 1, ' ') : NULL;
		if (v && sscanf(v + 1, "%u.%u", &major, &minor) == 2 &&
		    (major < 7 || (major == 7 && minor < 2)))
			return ET_PATH_L;
	}
	return ET_PATH_G;
}

unsigned int et_trace_entry_path(const struct et_trace *t)
{
	return et_info_entry_path(&t->info);
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */

const char *et_trace_path(const struct et_trace *t)
{
	return t->info.path;
}

const char *et_trace_uname(const struct et_trace *t)
{
	return t->info.uname;
}

const char *et_trace_machine(const struct et_trace *t)
{
	return t->info.machine;
}

const char *et_trace_clock(const struct et_trace *t)
{
	return t->info.clock;
}

unsigned long et_trace_file_version(const struct et_trace *t)
{
	return t->info.file_version;
}

const char *et_trace_compression(const struct et_trace *t)
{
	return t->info.compression;
}

int et_trace_cpus(const struct et_trace *t)
{
	return t->info.cpus;
}

unsigned int et_trace_present(const struct et_trace *t)
{
	return t->info.present;
}

uint64_t et_trace_first_ts(const struct et_trace *t)
{
	return t->info.first_ts;
}

enum et_mode et_trace_mode(const struct et_trace *t)
{
	return t->info.mode;
}

uint64_t et_trace_records(const struct et_trace *t)
{
	return t->counts.records;
}

uint64_t et_trace_decoded(const struct et_trace *t)
{
	return t->counts.used;
}

uint64_t et_trace_last_ts(const struct et_trace *t)
{
	return t->counts.last_ts;
}

uint64_t et_trace_lost_events(const struct et_trace *t)
{
	return t->counts.lost_events;
}

uint64_t et_trace_lost_gaps(const struct et_trace *t)
{
	return t->counts.lost_unknown;
}

uint64_t et_trace_lost_on_cpu(const struct et_trace *t, int cpu)
{
	return cpu >= 0 && cpu < t->counts.nr_cpus ? t->counts.lost_per_cpu[cpu] : 0;
}

bool et_trace_damaged(const struct et_trace *t)
{
	return et_counts_damaged(&t->counts);
}

/* ------------------------------------------------------------------ */
/* Modes: what each can see                                            */

const char *et_mode_name(enum et_mode mode)
{
	switch (mode) {
	case ET_MODE_STOCK:
		return "stock";
	case ET_MODE_SUMMARY:
		return "summary";
	case ET_MODE_STAGES:
		return "stages";
	}
	return "?";
}

static const char *const invisible_stock[] = {
	"arch entry, context tracking (RCU eqs exit), kstack randomisation: run before raw_syscalls:sys_enter; outside total, which is the sys_enter..sys_exit window",
	"ptrace and seccomp on entry: run before sys_enter fires, so their cost lies outside the syscall window (a seccomp filter makes the syscall slower, not the window longer)",
	"audit entry/exit, LSM hooks, RCU read-side slow paths: inside the window, not separable from the body",
	"exit loop (resched, signal delivery, notify-resume/rseq) and arch exit: after sys_exit; only their markers are visible (signal_exit ends at signal:signal_deliver, off_cpu needs context tracking to be attributed to the exit path)",
	NULL,
};

static const char *const invisible_stock_ct[] = {
	"entry pieces (arch, kstack randomisation, ptrace, seccomp) are one span: kernel_entry, user_exit to sys_enter",
	"audit entry/exit, LSM hooks, RCU read-side slow paths: inside the window, not separable from the body",
	"exit loop pieces (resched, signal delivery, notify-resume/rseq) and arch exit are one span: kernel_exit, sys_exit to user_enter",
	NULL,
};

static const char *const invisible_summary_span[] = {
	"summary mode: stage durations only, no stage start times; total is the kernel's span (first stamp to burst) and the stages after the burst, untimed the part of the span no stage covers (emit is not in total)",
	"interrupt and off-CPU time cannot be placed inside a syscall from one event per syscall: irq and off_cpu are not computed",
	NULL,
};

static const char *const invisible_hist[] = {
	"aggregated (entry_stage_hist): the kernel's cells, not syscalls: no tasks, errnos, times or user_gap; a stage has count and mean (series v3's kernels also kept its spread, min and max), no percentiles",
	"total is the kernel's span and the stages after the burst, less a stamp, its percentiles from the kernel's histogram (1/32 of a power of two); a task's last syscall has none; untimed is not computed",
	NULL,
};

static const char *const invisible_summary[] = {
	"summary mode: stage durations only, no stage start times; total is the sum of the top-level stages but emit (code between stages is not timed, and user_gap absorbs it; emit is not in user_gap)",
	"interrupt and off-CPU time cannot be placed inside a syscall from one event per syscall: irq and off_cpu are not computed",
	NULL,
};

static const char *const no_sched_switch =
	"off_cpu: sched:sched_switch not recorded: time switched out stays in the stage it fell in, and --exclusive cannot take it off";
static const char *const no_irq =
	"irq: irq:* not recorded: interrupt and softirq time stays in the stage it fell in, and --exclusive cannot take it off";

size_t et_mode_invisible(enum et_mode mode, unsigned int present, const char **lines,
			 size_t max)
{
	const char *const *base = NULL;
	size_t n = 0;

	switch (mode) {
	case ET_MODE_STOCK:
		base = present & ET_HAVE_CT ? invisible_stock_ct : invisible_stock;
		break;
	case ET_MODE_SUMMARY:
		base = present & ET_HAVE_SPAN ? invisible_summary_span :
		       (present & (ET_HAVE_HIST | ET_HAVE_SUMMARY | ET_HAVE_BATCH)) == ET_HAVE_HIST ?
		       invisible_hist : invisible_summary;
		break;
	case ET_MODE_STAGES:
		break;
	}
	for (; base && *base && n < max; base++)
		lines[n++] = *base;
	if (mode == ET_MODE_SUMMARY)	/* says so already */
		return n;
	if (!(present & ET_HAVE_SCHED_SWITCH) && n < max)
		lines[n++] = no_sched_switch;
	if (!(present & ET_HAVE_IRQ) && n < max)
		lines[n++] = no_irq;
	return n;
}

/* "raw_syscalls, sched_switch, ...": the event families a file has. */
char *et_present_str(unsigned int present, char *buf, size_t size)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} fam[] = {
		{ ET_HAVE_RAW_SYSCALLS, "raw_syscalls" },
		{ ET_HAVE_CT, "context_tracking" },
		{ ET_HAVE_SIGNAL, "signal_deliver" },
		{ ET_HAVE_RSEQ, "rseq_update" },
		{ ET_HAVE_SCHED_SWITCH, "sched_switch" },
		{ ET_HAVE_IRQ, "irq" },
		{ ET_HAVE_TASK, "sched_process_*" },
		{ ET_HAVE_STAGES, "entry_stage:entry_stage_time" },
		{ ET_HAVE_SUMMARY, "entry_stage:entry_stage_summary" },
		{ ET_HAVE_BATCH, "entry_stage:entry_stage_batch" },
		{ ET_HAVE_HIST, "entry_stage:entry_stage_hist" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ET_ARRAY_SIZE(fam); i++)
		if (present & fam[i].bit)
			len += snprintf(buf + len, len < size ? size - len : 0,
					"%s%s", len ? ", " : "", fam[i].name);
	return buf;
}
