/* SPDX-License-Identifier: LGPL-2.1 */
/* Perfetto's protobuf trace format (perfetto.c), for entrytrace export. */
#ifndef _ET_PERFETTO_H
#define _ET_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum et_perfetto_type {			/* TrackEvent.Type */
	ET_PF_BEGIN = 1,
	ET_PF_END = 2,
	ET_PF_INSTANT = 3,
};

struct et_perfetto_arg {		/* a debug annotation */
	const char *name;
	const char *str;		/* a string, or else */
	long long i;			/* an integer (or a bool) */
	bool is_bool;
};

struct et_perfetto;

struct et_perfetto *et_perfetto_new(FILE *out);
/* false if anything failed (memory, writing); the counts of what was written */
bool et_perfetto_free(struct et_perfetto *p, uint64_t *packets, uint64_t *bytes);
void et_perfetto_process(struct et_perfetto *p, uint64_t uuid, int pid, const char *name);
void et_perfetto_thread(struct et_perfetto *p, uint64_t uuid, int pid, int tid,
			const char *name);
void et_perfetto_track(struct et_perfetto *p, uint64_t uuid, const char *name);
void et_perfetto_event(struct et_perfetto *p, enum et_perfetto_type type, uint64_t ts,
		       uint64_t track, const char *cat, const char *name,
		       const struct et_perfetto_arg *args, int nr_args);

#endif
