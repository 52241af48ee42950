// SPDX-License-Identifier: GPL-2.0
/* The .mix file, written when QEMU exits. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "mix-write.h"

/* "entrytrace-mix": the first line's word (analyzer/include/mix-format.def) */
#define MIX_MAGIC(str) static const char mix_magic[] = str;
#include "mix-format.def"

_Static_assert((int)NMET == (int)MIX_NR_METS, "the model's columns are mix-format.def's MIX_MET list");

static const char *acc_name(int a)
{
	if (a < P.sf.nstages)
		return P.sf.stages[a].name;
	if (a == P.acc_whole)
		return "whole";
	if (a == P.acc_total)
		return "total";
	if (a == P.acc_gap)
		return "gap";
	return "outside";
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_stat(const void *a, const void *b)
{
	const struct stat *x = a, *y = b;
	int c = strcmp(P.sf.names[x->name], P.sf.names[y->name]);

	return c ? c : x->acc - y->acc;
}

struct row {
	int name, acc, type;
	uint32_t id;
	uint64_t n;
};

/* by name, account, type; then instruction slots by address, the rest by id */
static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(P.sf.names[x->name], P.sf.names[y->name]);

	if (c)
		return c;
	if (x->acc != y->acc)
		return x->acc - y->acc;
	if (x->type != y->type)
		return x->type - y->type;
	if (x->type == 0 && P.islots[x->id].addr != P.islots[y->id].addr)
		return P.islots[x->id].addr < P.islots[y->id].addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_slot_addr(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (P.islots[x].addr != P.islots[y].addr)
		return P.islots[x].addr < P.islots[y].addr ? -1 : 1;
	return x - y;
}

struct nrow {			/* a count of an id (kind, function + 2), sorted by count */
	int id;
	uint64_t n;
	const char *name;
};

static int cmp_nrow(const void *a, const void *b)
{
	const struct nrow *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->name && y->name)
		return strcmp(x->name, y->name);
	return x->id - y->id;
}

/* CRC-32 (IEEE 802.3, zlib's crc32()) of the output, for its "end" line */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c = 0xffffffff;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t r = i;

			for (int k = 0; k < 8; k++)
				r = r & 1 ? 0xedb88320 ^ (r >> 1) : r >> 1;
			table[i] = r;
		}
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffff;
}

/*
 * One name x account's instruction slots (rows[i..j), type 0): its kinds,
 * classes and functions.  The insn/at lines come after every table.
 */
static void write_group(FILE *f, const struct row *r, size_t n, struct nrow *kn, struct nrow *fn,
			struct map *fidx)
{
	const char *name = P.sf.names[r[0].name], *acc = acc_name(r[0].acc);
	uint64_t cls[MIX_NCLASSES] = { 0 };
	size_t nf = 0;
	int rank = 0;

	for (int k = 0; k < classify_nkinds(); k++)
		kn[k] = (struct nrow){ .id = k };
	for (size_t i = 0; i < n; i++) {
		const struct islot *is = &P.islots[r[i].id];
		uint64_t *fi = map_slot(fidx, slot_func(r[i].id) + 2);

		if (r[i].id != SLOT_USER && is->kind >= 0)
			kn[is->kind].n += r[i].n;
		if (r[i].id != SLOT_USER && is->callkind >= 0)
			kn[is->callkind].n += r[i].n;
		if (!*fi) {
			fn[nf] = (struct nrow){ .id = slot_func(r[i].id),
						.name = func_name(slot_func(r[i].id)) };
			*fi = ++nf;
		}
		fn[*fi - 1].n += r[i].n;
	}
	qsort(kn, classify_nkinds(), sizeof(*kn), cmp_nrow);
	for (int k = 0; k < classify_nkinds() && kn[k].n; k++) {
		mix_put(f, KINDS, .name = name, .account = acc, .kind = classify_kind(kn[k].id)->name,
			.n = kn[k].n);
		for (int c = 0; c < MIX_NCLASSES; c++)
			if (classify_kind(kn[k].id)->classes & (1u << c))
				cls[c] += kn[k].n;
	}
	for (int c = 0; c < MIX_NCLASSES; c++)
		if (cls[c])
			mix_put(f, CLASS, .name = name, .account = acc, .class = class_names[c],
				.n = cls[c]);
	qsort(fn, nf, sizeof(*fn), cmp_nrow);
	for (size_t i = 0; i < nf && (!P.opt.topk || rank < P.opt.topk); i++)
		mix_put(f, FUNC, .name = name, .account = acc, .rank = (uint64_t)++rank,
			.func = fn[i].name, .n = fn[i].n);
	for (size_t i = 0; i < fidx->cap; i++)
		fidx->k[i] = 0;
	fidx->n = 0;
}

static int write_body(FILE *f)
{
	struct row *rows;
	size_t nrows = 0;
	uint64_t mism = 0;
	struct nrow *kn, *fn;
	struct map fidx = { 0 };
	int *ids, nids = 0;
	uint64_t cols[NMET], zero[NMET] = { 0 };

	/* the timing model's lines make a version 3 file; without it, version 2 as ever */
	fprintf(f, "%s %d\n", mix_magic, P.model ? OUTPUT_VERSION_MODEL : OUTPUT_VERSION);
	mix_put(f, ARCH, .arch = P.sf.arch_name);
	mix_put(f, BUILD_ID, .id = P.sf.build_id);
	mix_put(f, SITES_SHA256, .sha = P.sf.sites_sha[0] ? P.sf.sites_sha : "none");
	mix_put(f, TABLE_HASH, .hash = P.sf.table_hash);
	mix_put(f, MODE, .mode = P.user_mode ? "user" : P.sf.sites_mode ? "sites" : "fallback");
	mix_put(f, NAMING, .naming = P.user_mode ? "none" : P.sf.sites_mode ?
		"first-handler-entry-in-body" : "first-handler-entry");
	mix_put(f, VCPUS, .n = (uint64_t)P.nvcpus);
	mix_put(f, QEMU_API, .min = (uint64_t)P.qemu_api_min, .cur = (uint64_t)P.qemu_api_cur);
	mix_put(f, SAMPLES, .arg = P.opt.samples_arg);
	mix_put(f, TABLES, .arg = P.opt.tables_arg);
	mix_put(f, CALLS, .arg = P.opt.calls_arg);
	mix_put(f, ARMED, .armed = P.opt.armed_ok ? "ok" : "no");
	if (P.opt.topk) {
		char k[16];

		snprintf(k, sizeof(k), "%d", P.opt.topk);
		mix_put(f, FUNCTIONS, .extent = "top", .n = k);
	} else {
		mix_put(f, FUNCTIONS, .extent = "all");
	}
	if (P.model)
		model_header(P.model, f);
	for (int a = 0; a < P.nacc; a++)
		if (P.sf.sites_mode || a == P.acc_whole)
			mix_put(f, ACCOUNT, .id = (uint64_t)a, .name = acc_name(a),
				.parent = a < P.sf.nstages && P.sf.stages[a].parent >= 0 ?
					  P.sf.stages[P.sf.stages[a].parent].name : "-");
	for (int k = 0; k < classify_nkinds(); k++) {
		char cl[128] = "-";
		size_t o = 0;

		for (int c = 0; c < MIX_NCLASSES; c++)
			if (classify_kind(k)->classes & (1u << c))
				o += (size_t)snprintf(cl + o, sizeof(cl) - o, "%s%s", o ? "," : "",
						      class_names[c]);
		mix_put(f, KIND, .id = (uint64_t)k, .name = classify_kind(k)->name, .classes = cl);
	}
#define COUNT(x) mix_put(f, COUNT, .name = #x, .n = P.count.x)
	COUNT(syscalls); COUNT(setapart); COUNT(switches); COUNT(desync);
	COUNT(unmatched_returns); COUNT(abandoned_irqs); COUNT(irqs); COUNT(irqs_in_syscall);
	COUNT(overflow); COUNT(ins_user); COUNT(ins_unsynced); COUNT(ins_syscall); COUNT(ins_irq);
	COUNT(site_hits); COUNT(ign_not_syscall); COUNT(ign_outside_window); COUNT(ign_tail);
	COUNT(ign_agg_outside_body);
	if (P.sf.nmarks)	/* a plain copy's markers (no line without: outputs as before) */
		COUNT(ign_other_path);
	COUNT(reopen); COUNT(end_not_open); COUNT(unclosed); COUNT(begin_in_window);
	COUNT(window_reopened); COUNT(end_outside_tail);
	COUNT(marker_hits); COUNT(markers_seen); COUNT(unarmed);
	COUNT(site_mismatches);
	if (P.opt.armed_ok)
		COUNT(sites_armed);
	COUNT(translations);
	if (P.opt.disas_check) {
		COUNT(disas_agree); COUNT(disas_differ); COUNT(disas_undecided);
		COUNT(disas_undecodable); COUNT(disas_skipped);
	}
#undef COUNT
	mix_put(f, COUNT, .name = "slots", .n = (uint64_t)P.nslots);
	if (P.model)
		model_counts(P.model, f);
	for (size_t i = 0; i < P.sf.nmarkers; i++) {
		struct marker *m = &P.sf.markers[i];
		char want[40] = "", got[40] = "", roles[16];

		if (!m->mismatch)
			continue;
		mism++;
		hexbytes(want, sizeof(want), m->bytes, m->nbytes);
		hexbytes(got, sizeof(got), m->got, m->nbytes);
		snprintf(roles, sizeof(roles), "%x", m->roles);
		mix_put(f, UNARMED, .addr = m->addr, .roles = roles, .want = want, .got = got);
	}
	for (int i = 0; i < P.nddiff; i++) {
		char what[512];

		snprintf(what, sizeof(what), "%s %s bytes=%s disas=%s", P.ddiff[i].bytes,
			 P.ddiff[i].text, P.ddiff[i].bk >= 0 ? classify_kind(P.ddiff[i].bk)->name : "-",
			 P.ddiff[i].dk >= 0 ? classify_kind(P.ddiff[i].dk)->name :
			 P.ddiff[i].dk == -2 ? "spr?" : "-");
		mix_put(f, DISAS_DIFF, .addr = P.ddiff[i].addr, .what = what);
	}
	/* markers by role: how often each kind of marker ran */
	{
		static const char *const rn[] = { "sysentry", "vector", "return", "switch",
						  "handler", "site" };
		uint64_t listed[6] = { 0 }, seen[6] = { 0 }, hits[6] = { 0 };

		for (size_t i = 0; i < P.sf.nmarkers; i++)
			for (int r = 0; r < 6; r++)
				if (P.sf.markers[i].roles & (1u << r)) {
					listed[r]++;
					seen[r] += P.sf.markers[i].checked;
					hits[r] += P.sf.markers[i].hits;
				}
		for (int r = 0; r < 6; r++)
			mix_put(f, MARKERS, .role = rn[r], .listed = listed[r], .checked = seen[r],
				.hits = hits[r]);
	}

	if (P.nstats)
		qsort(P.stats, P.nstats, sizeof(*P.stats), cmp_stat);
	for (size_t i = 0; i < P.nstats; i++) {
		struct stat *s = &P.stats[i];
		uint64_t sum = 0;

		qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
		for (size_t j = 0; j < s->n; j++)
			sum += s->v[j];
		mix_put(f, STAT, .name = P.sf.names[s->name], .account = acc_name(s->acc), .n = s->n,
			.runs = s->runs, .sum = sum, .min = s->v[0], .p50 = s->v[(s->n - 1) / 2],
			.mean = (double)sum / s->n, .max = s->v[s->n - 1]);
	}
	/* the timing model over the same syscalls: "cstat NAME ACCOUNT N CYC_LO CYC CYC_HI L1I L1D L2 L3 TLB" */
	for (size_t i = 0; P.model && i < P.nstats; i++)
		mix_put(f, CSTAT, .name = P.sf.names[P.stats[i].name], .account = acc_name(P.stats[i].acc),
			.n = P.stats[i].n, .mets = met_cols(P.stats[i].m, cols));
	/* and everything each name ran, set-apart syscalls and user space included */
	if (P.model) {
		struct map tix = { 0 };
		uint64_t (*tot)[NMET] = calloc(P.sf.nnames + 1, sizeof(*tot));

		if (!tot)
			die_oom();
		for (size_t i = 0; i < P.sums.cap; i++) {
			uint64_t k, *mv;

			if (!P.sums.k[i])
				continue;
			k = P.sums.k[i] - 1;
			if ((k >> 30 & 3) != 0 || (int)((k >> 32) & 0xff) != P.acc_whole)
				continue;
			mv = map_find(&P.msums, k);
			if (mv)
				met_add(tot[k >> 40], P.mvals[*mv - 1]);
			*map_slot(&tix, k >> 40) = 1;
		}
		mix_put(f, CTOTAL, .name = "*", .mets = met_cols(P.mtotal, cols));
		/* what the model charged to an instruction after it last ran (no at line to carry it) */
		{
			uint64_t orphan[NMET] = { 0 };

			for (size_t i = 0; i < P.msums.cap; i++)
				if (P.msums.k[i] && !map_find(&P.sums, P.msums.k[i] - 1))
					met_add(orphan, P.mvals[P.msums.v[i] - 1]);
			mix_put(f, CTOTAL, .name = "[no-at]", .mets = met_cols(orphan, cols));
		}
		for (int nm = 0; nm < P.sf.nnames; nm++) {
			if (!map_find(&tix, nm))
				continue;
			mix_put(f, CTOTAL, .name = P.sf.names[nm], .mets = met_cols(tot[nm], cols));
		}
		free(tot);
		free(tix.k);
		free(tix.v);
	}

	rows = malloc((P.sums.n + 1) * sizeof(*rows));
	kn = malloc((classify_nkinds() + 1) * sizeof(*kn));
	fn = malloc((P.sf.nfuncs + 2) * sizeof(*fn));
	ids = malloc((P.nslots + 1) * sizeof(*ids));
	if (!rows || !kn || !fn || !ids)
		die_oom();
	for (size_t i = 0; i < P.sums.cap; i++) {
		uint64_t k;

		if (!P.sums.k[i])
			continue;
		k = P.sums.k[i] - 1;
		if ((k >> 30 & 3) != 2 && !want_table(k >> 40))
			continue;
		rows[nrows++] = (struct row){ .name = k >> 40, .acc = (k >> 32) & 0xff,
					      .type = (k >> 30) & 3, .id = k & 0x3fffffff,
					      .n = P.sums.v[i] };
	}
	if (nrows)
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	/* kinds, classes and functions, per name x account */
	for (size_t i = 0; i < nrows;) {
		size_t j = i;

		while (j < nrows && rows[j].name == rows[i].name && rows[j].acc == rows[i].acc &&
		       rows[j].type == rows[i].type)
			j++;
		if (rows[i].type == 0)
			write_group(f, rows + i, j - i, kn, fn, &fidx);
		i = j;
	}
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].type == 2)
			mix_put(f, SETAPART, .name = P.sf.names[rows[i].name],
				.reason = flag_names[rows[i].id], .n = rows[i].n);
	/*
	 * The instructions the tables counted, by address (insn ID ADDR
	 * FUNC+OFF KINDS), then how often each ran per name x account.
	 */
	for (int s = 0; s < P.nslots; s++)
		ids[s] = -1;
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].type == 0 && rows[i].id != SLOT_USER)
			ids[rows[i].id] = 0;
	{
		int *order = malloc((P.nslots + 1) * sizeof(*order)), no = 0;

		if (!order)
			die_oom();
		for (int s = 0; s < P.nslots; s++)
			if (!ids[s])
				order[no++] = s;
		/* slots were handed out in translation order: sort by address */
		qsort(order, no, sizeof(*order), cmp_slot_addr);
		for (int o = 0; o < no; o++) {
			const struct islot *is = &P.islots[order[o]];

			char where[256] = "-", kinds[128];

			ids[order[o]] = nids++;
			if (is->func >= 0)
				snprintf(where, sizeof(where), "%s+%#" PRIx64, P.sf.funcs[is->func].name,
					 is->addr - P.sf.funcs[is->func].addr);
			snprintf(kinds, sizeof(kinds), "%s%s%s",
				 is->kind >= 0 ? classify_kind(is->kind)->name : "-",
				 is->callkind >= 0 ? "," : "",
				 is->callkind >= 0 ? classify_kind(is->callkind)->name : "");
			mix_put(f, INSN, .id = (uint64_t)ids[order[o]], .addr = is->addr, .where = where,
				.kinds = kinds);
		}
		free(order);
	}
	for (size_t i = 0; i < nrows; i++) {
		uint64_t *mv;

		if (rows[i].type != 0 || rows[i].id == SLOT_USER)
			continue;
		mix_put(f, AT, .name = P.sf.names[rows[i].name], .account = acc_name(rows[i].acc),
			.insn = (uint64_t)ids[rows[i].id], .n = rows[i].n);
		/* the timing model of the at line before: "cat NAME ACCOUNT ID CYC_LO ... TLB" */
		if (!P.model)
			continue;
		mv = map_find(&P.msums, sum_key(rows[i].name, rows[i].acc, 0, rows[i].id));
		mix_put(f, CAT, .name = P.sf.names[rows[i].name], .account = acc_name(rows[i].acc),
			.insn = (uint64_t)ids[rows[i].id],
			.mets = met_cols(mv ? P.mvals[*mv - 1] : zero, cols));
	}
	free(rows);
	free(kn);
	free(fn);
	free(ids);
	free(fidx.k);
	free(fidx.v);
	if (P.nsamp)
		fwrite(P.samp, 1, P.nsamp, f);
	return (int)mism;
}

/*
 * Every line written, after the first, against mix-format.def's records
 * (mix-shape.h): the readers take a line's shape from there, so a line
 * this file writes in another shape is the plugin's bug.  0, or -1 with
 * the first such line named on stderr.
 */
static int check_shapes(char *buf, size_t len, int version)
{
	char *tok[4096], why[320];
	size_t ln = 1;
	char *p = memchr(buf, '\n', len), *end = buf + len;

	for (p = p ? p + 1 : end; p < end; ln++) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *save = NULL, *line;
		struct mix_toks t;
		int n = 0, rec;

		line = strndup(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		if (!line)
			die_oom();
		for (char *s = strtok_r(line, " ", &save); s && n < 4096; s = strtok_r(NULL, " ", &save))
			tok[n++] = s;
		rec = n ? mix_record_of(tok[0]) : -1;
		t.tok = tok + 1;
		t.n = n - 1;
		if (rec < 0 || mix_shape_check(rec, version, &t, why, sizeof(why))) {
			fprintf(stderr, PLUGIN_NAME ": line %zu of the output is not a mix-format.def "
				"record (%s): %.*s\n", ln + 1, rec < 0 ? "no such record" : why,
				(int)(nl && nl - p < 60 ? nl - p : 60), p);
			free(line);
			return -1;
		}
		free(line);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static void write_output(void)
{
	char tmp[4096], *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *mem = open_memstream(&buf, &len), *f;
	int mism;

	if (!mem)
		die_oom();
	mism = write_body(mem);
	if (fclose(mem))
		die_oom();
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (check_shapes(buf, len, P.model ? OUTPUT_VERSION_MODEL : OUTPUT_VERSION)) {
		fprintf(stderr, PLUGIN_NAME ": %s not written\n", P.opt.out_path);
		free(buf);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", P.opt.out_path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, PLUGIN_NAME ": %s: %s\n", tmp, strerror(errno));
		free(buf);
		return;
	}
	/* what comes before it: its lines and their CRC-32 */
	fwrite(buf, 1, len, f);
	fprintf(f, "end %zu %08" PRIx32 "\n", lines, crc32_of((unsigned char *)buf, len));
	free(buf);
	if (fclose(f) || rename(tmp, P.opt.out_path)) {
		fprintf(stderr, PLUGIN_NAME ": writing %s: %s\n", P.opt.out_path, strerror(errno));
		return;
	}
	fprintf(stderr, PLUGIN_NAME ": %" PRIu64 " syscalls (%" PRIu64 " set apart), %" PRIu64
		" interrupts, %d markers with other code at their address (%" PRIu64
		" sites), %d instruction addresses -> %s\n", P.count.syscalls, P.count.setapart, P.count.irqs, mism,
		P.count.site_mismatches, P.nslots - SLOT_FIRST, P.opt.out_path);
	if (!P.count.syscalls && !P.user_mode)
		fprintf(stderr, PLUGIN_NAME ": no syscall matched: no marker of the site file ran "
			"(wrong kernel, or no syscall made?)\n");
}

void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	for (int i = 0; i < P.nvcpus; i++) {
		harvest(&P.vcpus[i]);
		if (P.vcpus[i].depth && P.vcpus[i].st[0].type == FR_SYSCALL)
			finish_syscall(&P.vcpus[i], F_UNFINISHED);
		P.vcpus[i].depth = 0;
	}
	write_output();
}
