// SPDX-License-Identifier: LGPL-2.1
/*
 * The kit archive: a gzip'd POSIX tar (ustar), manifest.json first, so that
 * `tar tzf` lists it and `tar xzf` unpacks it anywhere, and one file to
 * send.  Written whole at the end of a run (or of an interrupted one) by
 * `entrytrace kit`; read whole here, members into memory (a kit is small:
 * counts, the workload's output, a .config, one aggregated recording).
 * The manifest's runs become et_kit_run records with every measure derived
 * once (et_kit_measures[]), NAN where the run lacks what it needs.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "entrytrace-local.h"
#include "entrytrace-kit.h"

const struct et_kit_measure_info et_kit_measures[ET_KM_NR] = {
	[ET_KM_OPS_S] = { "ops_per_s", "ops/s", "ops/s", true },
	[ET_KM_US_OP] = { "us_per_op", "us/op", "us", false },
	[ET_KM_INSN_OP] = { "instructions_per_op", "instr/op", "instructions", false },
	[ET_KM_CYC_OP] = { "cycles_per_op", "cycles/op", "cycles", false },
	[ET_KM_IPC] = { "ipc", "IPC", "instructions/cycle", true },
	[ET_KM_CPI] = { "cpi", "CPI", "cycles/instruction", false },
	[ET_KM_TASK_NS_OP] = { "task_clock_ns_per_op", "cpu ns/op", "ns", false },
	[ET_KM_CS_OP] = { "context_switches_per_op", "cs/op", "switches", false },
	[ET_KM_MIGR_OP] = { "cpu_migrations_per_op", "migr/op", "migrations", false },
	[ET_KM_AVC_LOOKUPS_OP] = { "avc_lookups_per_op", "avc lookups/op", "lookups", false },
	[ET_KM_AVC_MISSES_OP] = { "avc_misses_per_op", "avc misses/op", "misses", false },
};

/* ------------------------------------------------------------------ */
/* Writing                                                              */

struct et_tar_out {
	gzFile gz;
	bool err;
};

struct et_tar_out *et_tar_create(const char *path, char *err, size_t errlen)
{
	struct et_tar_out *t = calloc(1, sizeof(*t));

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->gz = gzopen(path, "wb6");
	if (!t->gz) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		free(t);
		return NULL;
	}
	return t;
}

static void octal(char *field, size_t width, uint64_t v)
{
	/* width - 1 digits and a NUL, as ustar has it */
	field[width - 1] = 0;
	for (size_t i = width - 1; i > 0; i--, v >>= 3)
		field[i - 1] = (char)('0' + (v & 7));
}

static void twrite(struct et_tar_out *t, const void *data, size_t size)
{
	if (size && !t->err && gzwrite(t->gz, data, (unsigned)size) != (int)size)
		t->err = true;
}

int et_tar_add(struct et_tar_out *t, const char *name, const void *data, size_t size,
	       int64_t mtime)
{
	static const char zero[512];
	char h[512];
	unsigned int sum = 0;
	size_t len = strlen(name);

	memset(h, 0, sizeof(h));
	if (len >= 100)
		return -1;	/* the kit's names are short: no ustar prefix needed */
	memcpy(h, name, len);
	octal(h + 100, 8, 0644);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, size);
	octal(h + 136, 12, mtime > 0 ? (uint64_t)mtime : 0);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	twrite(t, h, sizeof(h));
	twrite(t, data, size);
	twrite(t, zero, (512 - size % 512) % 512);
	return t->err ? -1 : 0;
}

int et_tar_close(struct et_tar_out *t)
{
	static const char zero[1024];
	int ret;

	twrite(t, zero, sizeof(zero));
	ret = gzclose(t->gz) == Z_OK && !t->err ? 0 : -1;
	free(t);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

static bool header_ok(const unsigned char *h)
{
	unsigned int sum = 0, want;
	char field[9];
	char *end;

	for (int i = 0; i < 512; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	memcpy(field, h + 148, 8);
	field[8] = 0;
	want = (unsigned int)strtoul(field, &end, 8);
	return end != field && want == sum;
}

static bool all_zero(const unsigned char *h)
{
	for (int i = 0; i < 512; i++)
		if (h[i])
			return false;
	return true;
}

static void member_name(const unsigned char *h, char *name, size_t size)
{
	char n[101], prefix[156];

	memcpy(n, h, 100);
	n[100] = 0;
	memcpy(prefix, h + 345, 155);
	prefix[155] = 0;
	if (prefix[0] && !memcmp(h + 257, "ustar", 5))
		snprintf(name, size, "%s/%s", prefix, n);
	else
		snprintf(name, size, "%s", n);
}

static bool member_size(const unsigned char *h, uint64_t *size)
{
	char field[13], *end;

	memcpy(field, h + 124, 12);
	field[12] = 0;
	*size = strtoull(field, &end, 8);
	return end != field;
}

bool et_kit_probe(const char *path)
{
	unsigned char h[512];
	char name[300], head[256];
	struct stat st;
	bool yes = false;
	gzFile gz;
	int n;

	/* a regular file only: probing a pipe would eat what a trace reader needs */
	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(gz = gzopen(path, "rb")))
		return false;
	if (gzread(gz, h, sizeof(h)) == (int)sizeof(h) && header_ok(h)) {
		member_name(h, name, sizeof(name));
		if (!strcmp(name, ET_KIT_MANIFEST) && (n = gzread(gz, head, sizeof(head) - 1)) > 0) {
			head[n] = 0;
			yes = strstr(head, "\"" ET_KIT_FORMAT "\"") != NULL;
		}
	}
	gzclose(gz);
	return yes;
}

static int read_members(struct et_kit *k, gzFile gz, char *err, size_t errlen)
{
	unsigned char h[512];
	size_t cap = 0;

	for (;;) {
		struct et_kit_member *m;
		uint64_t size;
		int r = gzread(gz, h, sizeof(h));
		char name[300];

		if (r == 0) {
			snprintf(err, errlen, "%s: ends without the tar end blocks (cut short?)",
				 k->path);
			return -1;
		}
		if (r != (int)sizeof(h)) {
			snprintf(err, errlen, "%s: cut inside a tar header", k->path);
			return -1;
		}
		if (all_zero(h))
			return 0;
		if (!header_ok(h) || !member_size(h, &size)) {
			snprintf(err, errlen, "%s: a tar header with a bad checksum after %zu members",
				 k->path, k->nr_members);
			return -1;
		}
		member_name(h, name, sizeof(name));
		if (size > (1ull << 31)) {
			snprintf(err, errlen, "%s: member %s of %" PRIu64 " bytes: more than a kit holds",
				 k->path, name, size);
			return -1;
		}
		if (k->nr_members == cap) {
			size_t ncap = cap ? 2 * cap : 16;

			m = realloc(k->members, ncap * sizeof(*m));
			if (!m)
				goto nomem;
			k->members = m;
			cap = ncap;
		}
		m = &k->members[k->nr_members];
		m->name = strdup(name);
		m->data = malloc(size + 1);
		m->size = size;
		if (!m->name || !m->data) {
			free(m->name);
			free(m->data);
			goto nomem;
		}
		k->nr_members++;
		if (size && gzread(gz, m->data, (unsigned)size) != (int)size) {
			snprintf(err, errlen, "%s: member %s cut short", k->path, name);
			return -1;
		}
		m->data[size] = 0;
		if (size % 512) {
			unsigned char pad[512];
			unsigned int n = 512 - size % 512;

			if (gzread(gz, pad, n) != (int)n) {
				snprintf(err, errlen, "%s: member %s cut short", k->path, name);
				return -1;
			}
		}
	}
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

const struct et_kit_member *et_kit_member(const struct et_kit *k, const char *name)
{
	for (size_t i = 0; i < k->nr_members; i++)
		if (!strcmp(k->members[i].name, name))
			return &k->members[i];
	return NULL;
}

size_t et_kit_nr_boots(const struct et_kit *k)
{
	return et_jlen(et_jget(k->manifest, "boots"));
}

const struct et_jv *et_kit_facts(const struct et_kit *k, int boot)
{
	return et_jget(et_jat(et_jget(k->manifest, "boots"), boot), "facts");
}

/* a count of the run, or NAN when absent (null: not counted here) */
static double num(const struct et_jv *o, const char *key)
{
	return et_jnum(et_jget(o, key), NAN);
}

static double per(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : a / b;
}

static void derive(struct et_kit_run *r, const struct et_jv *run)
{
	const struct et_jv *c = et_jget(run, "counts");
	double ops = num(run, "ops"), secs = num(run, "seconds");
	double lb = num(et_jget(run, "avc_before"), "lookups");
	double la = num(et_jget(run, "avc_after"), "lookups");
	double mb = num(et_jget(run, "avc_before"), "misses");
	double ma = num(et_jget(run, "avc_after"), "misses");
	double insn = num(c, "instructions"), cyc = num(c, "cycles");

	r->v[ET_KM_OPS_S] = per(ops, secs);
	r->v[ET_KM_US_OP] = per(secs * 1e6, ops);
	r->v[ET_KM_INSN_OP] = per(insn, ops);
	r->v[ET_KM_CYC_OP] = per(cyc, ops);
	r->v[ET_KM_IPC] = per(insn, cyc);
	r->v[ET_KM_CPI] = per(cyc, insn);
	r->v[ET_KM_TASK_NS_OP] = per(num(c, "task_clock_ns"), ops);
	r->v[ET_KM_CS_OP] = per(num(c, "context_switches"), ops);
	r->v[ET_KM_MIGR_OP] = per(num(c, "cpu_migrations"), ops);
	r->v[ET_KM_AVC_LOOKUPS_OP] = la >= lb ? per(la - lb, ops) : NAN;
	r->v[ET_KM_AVC_MISSES_OP] = ma >= mb ? per(ma - mb, ops) : NAN;
}

static int load_runs(struct et_kit *k, char *err, size_t errlen)
{
	const struct et_jv *runs = et_jget(k->manifest, "runs");
	size_t n = et_jlen(runs), nb = et_kit_nr_boots(k);

	if (!runs || runs->t != ET_JARR) {
		snprintf(err, errlen, "%s: the manifest has no \"runs\" array", k->path);
		return -1;
	}
	k->runs = calloc(n + 1, sizeof(*k->runs));
	if (!k->runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct et_jv *run = et_jat(runs, i);
		struct et_kit_run *r = &k->runs[k->nr_runs];

		r->boot = (int)et_jnum(et_jget(run, "boot"), -1);
		r->workload = et_jstr(et_jget(run, "workload"), NULL);
		r->mode = et_jstr(et_jget(run, "mode"), NULL);
		r->rep = (int)et_jnum(et_jget(run, "rep"), 0);
		if (r->boot < 0 || (size_t)r->boot >= nb || !r->workload || !r->mode) {
			snprintf(err, errlen, "%s: run %zu lacks its boot, workload or mode",
				 k->path, i);
			return -1;
		}
		r->interrupted = et_jtrue(et_jget(run, "interrupted"));
		r->failed = et_jnum(et_jget(run, "exit_status"), 0) != 0 ||
			    isnan(num(run, "ops"));
		r->counter = et_jstr(et_jget(run, "counter"), "?");
		derive(r, run);
		k->nr_runs++;
	}
	return 0;
}

struct et_kit *et_kit_open(const char *path, enum et_err *e, char *err, size_t errlen)
{
	struct et_kit *k = calloc(1, sizeof(*k));
	const struct et_kit_member *man;
	const char *fmt;
	gzFile gz;
	char perr[200];

	*e = ET_ERR_NOMEM;
	if (!k || !(k->path = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		free(k);
		return NULL;
	}
	*e = ET_ERR_IO;
	gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		goto fail;
	}
	*e = ET_ERR_TRUNCATED;
	if (read_members(k, gz, err, errlen)) {
		gzclose(gz);
		goto fail;
	}
	gzclose(gz);
	*e = ET_ERR_FORMAT;
	man = et_kit_member(k, ET_KIT_MANIFEST);
	if (!man) {
		snprintf(err, errlen, "%s: no %s: not a kit archive", path, ET_KIT_MANIFEST);
		goto fail;
	}
	k->manifest = et_json_parse((const char *)man->data, man->size, perr, sizeof(perr));
	if (!k->manifest) {
		snprintf(err, errlen, "%s: %s: %s", path, ET_KIT_MANIFEST, perr);
		goto fail;
	}
	fmt = et_jstr(et_jget(k->manifest, "format"), "");
	if (strcmp(fmt, ET_KIT_FORMAT)) {
		snprintf(err, errlen, "%s: %s has format '%s', not %s", path, ET_KIT_MANIFEST,
			 fmt, ET_KIT_FORMAT);
		goto fail;
	}
	k->version = (int)et_jnum(et_jget(k->manifest, "version"), 0);
	if (k->version < 1 || k->version > ET_KIT_VERSION) {
		snprintf(err, errlen, "%s: kit format version %d; this entrytrace reads 1 to %d "
			 "(a newer entrytrace wrote it)", path, k->version, ET_KIT_VERSION);
		goto fail;
	}
	k->partial = et_jtrue(et_jget(k->manifest, "partial"));
	k->interrupted = et_jstr(et_jget(k->manifest, "interrupted"), NULL);
	if (!et_kit_nr_boots(k)) {
		snprintf(err, errlen, "%s: the manifest has no boot", path);
		goto fail;
	}
	if (load_runs(k, err, errlen))
		goto fail;
	*e = ET_OK;
	return k;
fail:
	et_kit_free(k);
	return NULL;
}

void et_kit_free(struct et_kit *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nr_members; i++) {
		free(k->members[i].name);
		free(k->members[i].data);
	}
	free(k->members);
	free(k->runs);
	et_json_free(k->manifest);
	free(k->path);
	free(k);
}
