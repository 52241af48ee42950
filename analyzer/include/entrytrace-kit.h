/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The kit archive (entrytrace kit, Documentation/kit.md): one gzip'd tar
 * whose first member is manifest.json, a versioned JSON document of the
 * machine's facts per boot and one record per workload run; the files the
 * runs left (the workload's own output, perf stat's, the .config, a stage
 * recording) are members beside it.  What reads it (report, diff) and what
 * writes it (the kit command) share this header; it is not part of the
 * public interface.
 */
#ifndef _ENTRYTRACE_KIT_H
#define _ENTRYTRACE_KIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "entrytrace-private.h"

#define ET_KIT_FORMAT	"entrytrace-kit"
#define ET_KIT_VERSION	1	/* the manifest's "version"; a reader refuses a newer one */
#define ET_KIT_MANIFEST	"manifest.json"

/* ---- jsonparse.c: JSON text into a tree ---- */
enum et_jtype { ET_JNULL, ET_JFALSE, ET_JTRUE, ET_JNUM, ET_JSTR, ET_JARR, ET_JOBJ };

struct et_jv {
	enum et_jtype t;
	double num;
	char *str;		/* ET_JSTR: decoded, NUL-terminated */
	size_t n;		/* string length, or members / elements */
	struct et_jv *items;	/* ET_JARR, ET_JOBJ */
	char **keys;		/* ET_JOBJ */
};

/* NULL on error, with "byte N: what" in err */
struct et_jv *et_json_parse(const char *text, size_t len, char *err, size_t errlen);
void et_json_free(struct et_jv *v);
const struct et_jv *et_jget(const struct et_jv *obj, const char *key);
const struct et_jv *et_jat(const struct et_jv *arr, size_t i);
size_t et_jlen(const struct et_jv *v);
double et_jnum(const struct et_jv *v, double dflt);
const char *et_jstr(const struct et_jv *v, const char *dflt);
bool et_jtrue(const struct et_jv *v);
/* a tree back as JSON text (json.c's string escaping) */
void et_jv_write(FILE *out, const struct et_jv *v);

/* ---- kit.c: the archive ---- */

/* A gzip'd tar being written; members are added whole. */
struct et_tar_out;
struct et_tar_out *et_tar_create(const char *path, char *err, size_t errlen);
int et_tar_add(struct et_tar_out *t, const char *name, const void *data, size_t size,
	       int64_t mtime);
/* The end-of-archive blocks, then the gzip trailer; -1 on a write error. */
int et_tar_close(struct et_tar_out *t);

/* The per-run measures the reader derives (NAN where a run lacks them). */
enum et_kit_measure {
	ET_KM_OPS_S,		/* workload ops per wall second */
	ET_KM_US_OP,		/* wall microseconds per op */
	ET_KM_INSN_OP,		/* instructions per op */
	ET_KM_CYC_OP,		/* cycles per op */
	ET_KM_IPC,		/* instructions per cycle */
	ET_KM_CPI,		/* cycles per instruction */
	ET_KM_TASK_NS_OP,	/* task-clock (CPU time of the workload's tasks) per op, ns */
	ET_KM_CS_OP,		/* context switches per op */
	ET_KM_MIGR_OP,		/* CPU migrations per op */
	ET_KM_AVC_LOOKUPS_OP,	/* SELinux AVC lookups per op (system-wide delta) */
	ET_KM_AVC_MISSES_OP,	/* AVC misses per op */
	ET_KM_NR
};

struct et_kit_measure_info {
	const char *key;	/* JSON */
	const char *head;	/* text column */
	const char *unit;
	bool higher_better;
};
extern const struct et_kit_measure_info et_kit_measures[ET_KM_NR];

struct et_kit_run {
	int boot;
	const char *workload;
	const char *mode;
	int rep;
	bool interrupted;	/* cut short by a signal: kept, not used */
	bool failed;		/* the workload failed: kept, not used */
	const char *counter;	/* "perf", "perf_event_open", "rusage" */
	double v[ET_KM_NR];
};

struct et_kit_member {
	char *name;
	unsigned char *data;
	size_t size;
};

struct et_kit {
	char *path;
	struct et_jv *manifest;
	int version;
	bool partial;
	const char *interrupted;	/* what was running when the signal came */
	struct et_kit_run *runs;
	size_t nr_runs;
	struct et_kit_member *members;
	size_t nr_members;
};

/* A kit archive, by its first member (cheap: reads one tar header). */
bool et_kit_probe(const char *path);
/* NULL with the reason in err (ET_ERR_* in *e) */
struct et_kit *et_kit_open(const char *path, enum et_err *e, char *err, size_t errlen);
void et_kit_free(struct et_kit *k);
const struct et_kit_member *et_kit_member(const struct et_kit *k, const char *name);
/* The manifest's boots[i].facts */
const struct et_jv *et_kit_facts(const struct et_kit *k, int boot);
size_t et_kit_nr_boots(const struct et_kit *k);

/* A measure over the runs of one workload x mode (render_kit.c). */
struct et_kit_stat {
	int n;			/* runs with the measure */
	double mean, sd, lo, hi, min, max;	/* lo, hi: 95% t interval of the mean */
};

/* ---- render_kit.c: the reporter's table, and two kits compared ---- */
struct et_kit_diff_opts {
	double threshold;	/* a part moved when its ratio leaves 1 +- this (0.01) */
	double alpha;		/* family-wise, Bonferroni over the tests made (0.05) */
};
void et_kit_render(const struct et_kit *k, enum et_format fmt, FILE *out);
/* 0 done; 1: nothing to compare (no workload x mode on both sides) */
int et_kit_render_diff(const struct et_kit *a, const struct et_kit *b,
		       const struct et_kit_diff_opts *o, enum et_format fmt, FILE *out);

#endif
