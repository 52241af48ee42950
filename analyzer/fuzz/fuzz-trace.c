// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a whole trace.dat file in, the full analysis out.
 * The bytes go to a temporary file (libtracecmd reads files), then through
 * et_trace_open, the timeline, the stats and the text renderer - the path
 * 'entrytrace report' takes.  Seeds: the real recordings in
 * analyzer/tests/data/.  Built and run by scripts/host/fuzz (make fuzz).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "entrytrace-private.h"

static void sink(const struct et_syscall *sc, void *data)
{
	if (!(et_syscall_flags(sc) & ET_SC_INCOMPLETE))
		et_stats_add(data, sc);
}

int LLVMFuzzerTestOneInput(const unsigned char *buf, size_t len)
{
	char path[] = "/tmp/et-fuzz-XXXXXX";
	struct et_report_file file = { .kind = et_source_kind_of("trace") };
	struct et_report rep = { 0 };
	struct et_timeline *tl;
	struct et_stats *st;
	struct et_trace *t;
	char err[256];
	enum et_err e;
	FILE *null;
	int fd;

	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);

	t = et_trace_open(path, &e, err, sizeof(err));
	if (t) {
		st = et_stats_new(ET_STATS_BY_WORK);
		tl = et_timeline_new(t, sink, st);
		if (st && tl && et_trace_iterate(t, et_timeline_feed, tl) == 0) {
			et_timeline_finish(tl);
			file.info = *et_trace_info(t);
			file.counts = *et_trace_counts(t);
			file.tl = *et_timeline_counts(tl);
			rep = (struct et_report){ .files = &file, .nr_files = 1, .stats = st,
						  .names = t, .breakdown = true };
			null = fopen("/dev/null", "w");
			if (null) {
				et_render(&rep, ET_FMT_TEXT, null);
				et_render(&rep, ET_FMT_JSON, null);
				fclose(null);
			}
		}
		et_timeline_free(tl);
		et_stats_free(st);
		et_trace_close(t);
	}
	unlink(path);
	return 0;
}
