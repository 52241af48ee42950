// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's input: the site file written by scripts/kernel/build/kernel-sites
 * (format in Documentation/qemu-plugin.md).  Every line is checked; the
 * FNV-1a 64 hash of all bytes before the closing table_hash line must match
 * it, so an edited or truncated file is refused.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"

int intern(struct sitefile *sf, const char *name)
{
	for (int i = 0; i < sf->nnames; i++)
		if (!strcmp(sf->names[i], name))
			return i;
	if (sf->nnames == sf->capnames) {
		sf->capnames = sf->capnames ? 2 * sf->capnames : 64;
		sf->names = realloc(sf->names, sf->capnames * sizeof(*sf->names));
		if (!sf->names)
			abort();
	}
	sf->names[sf->nnames] = strdup(name);
	return sf->nnames++;
}

static int fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "site file %s line %d: ", path, line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_hex_bytes(const char *s, uint8_t *b, int *n)
{
	size_t len = s ? strlen(s) : 0;

	if (!len || len % 2 || len / 2 > MIX_MAX_BYTES)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		unsigned v;

		if (!isxdigit((unsigned char)s[i]) || !isxdigit((unsigned char)s[i + 1]) ||
		    sscanf(s + i, "%2x", &v) != 1)
			return -1;
		b[i / 2] = v;
	}
	*n = len / 2;
	return 0;
}

static int cmp_marker(const void *a, const void *b)
{
	const struct marker *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *const kind_names[] = { "TIMED", "NOINSTR", "DEFERRED", "AGG" };

_Static_assert(sizeof(site_forms) / sizeof(site_forms[0]) <= UINT8_MAX && SITE_NACTIONS <= UINT8_MAX,
	       "a marker keeps its site's form and action in a byte each");

/* Does a stage (NULL: no stage) fit a form's "none", "any", "!AGG" or kind? */
static bool form_kind_ok(const char *want, const struct stage *s)
{
	if (!strcmp(want, "none") || !s)
		return !strcmp(want, "none") && !s;
	return !strcmp(want, "any") || (!strcmp(want, "!AGG") && s->kind != K_AGG) ||
	       !strcmp(want, kind_names[s->kind]);
}

/*
 * A site is one of the forms the helpers of include/linux/entry_stage.h and
 * entry_stage_stamp.h emit: site_forms[]
 * of site-abi.h, generated from scripts/lib/siteabi.py's FORMS, the list
 * scripts/kernel/build/kernel-sites checks against too.  The form's action
 * is what the site does when it runs (harvest.c's site_hit()).
 */
int site_form(const struct sitefile *sf, unsigned st, int edge, unsigned st2, unsigned fl,
	      char *buf, size_t len)
{
	const struct stage *s = st < (unsigned)sf->nstages ? &sf->stages[st] : NULL;
	const struct stage *s2 = edge == EDGE_SWITCH && st2 < (unsigned)sf->nstages ?
				 &sf->stages[st2] : NULL;
	static const char *const edges[] = { "begin", "end", "switch" };

	if ((st != STAGE_NONE && !s) || (edge == EDGE_SWITCH && !s2)) {
		snprintf(buf, len, "stage %u or %u unknown", st, st2);
		return -1;
	}
	for (size_t i = 0; i < sizeof(site_forms) / sizeof(site_forms[0]); i++) {
		const struct site_form *f = &site_forms[i];

		if (form_kind_ok(f->stage, s) && (f->edges & 1u << edge) &&
		    f->flags == SITE_FORM_FLAGS(fl) &&
		    (!f->stage2 || form_kind_ok(f->stage2, s2)))
			return i;
	}
	snprintf(buf, len, "%s of %s%s%s%s%s, flags %#x: not a site the series emits",
		 edges[edge], s ? kind_names[s->kind] : "no stage", s ? " stage " : "",
		 s ? s->name : "", s2 ? " to stage " : "", s2 ? s2->name : "", fl);
	return -1;
}

#define MAXTOK 10
/* inside the read loop: say why, and let the caller free what it holds */
#define FAIL(...) do { fail(err, errlen, path, ln, __VA_ARGS__); goto bad; } while (0)

int sitefile_read(const char *path, struct sitefile *sf, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, capm = 0, capf = 0;
	ssize_t len;
	uint64_t h = 0xcbf29ce484222325ULL;
	int ln = 0, declared_stages = -1;
	bool have_hash = false, have_arch = false, have_endian = false;
	bool have_bid = false, have_mode = false;

	memset(sf, 0, sizeof(*sf));
	if (!f) {
		snprintf(err, errlen, "site file %s: %s", path, strerror(errno));
		return -1;
	}
	intern(sf, "?");	/* name 0: a syscall whose handler was not seen */
	while ((len = getline(&line, &cap, f)) > 0) {
		char *tok[MAXTOK], *save = NULL, *p;
		int nt = 0;

		ln++;
		if (have_hash)
			FAIL( "text after table_hash");
		if (!strncmp(line, "table_hash ", 11)) {
			char want[24];

			snprintf(want, sizeof(want), "%016llx", (unsigned long long)h);
			line[strcspn(line, "\n")] = 0;
			if (strcmp(line + 11, want))
				FAIL(
					    "table_hash %s, but the file hashes to %s (edited or truncated?)",
					    line + 11, want);
			snprintf(sf->table_hash, sizeof(sf->table_hash), "%s", want);
			have_hash = true;
			continue;
		}
		for (ssize_t i = 0; i < len; i++)
			h = (h ^ (uint8_t)line[i]) * 0x100000001b3ULL;
		if (line[len - 1] != '\n')
			FAIL( "no newline at the end (truncated?)");
		line[len - 1] = 0;
		for (p = strtok_r(line, " ", &save); p && nt < MAXTOK; p = strtok_r(NULL, " ", &save))
			tok[nt++] = p;
		if (!nt)
			FAIL( "empty line");
		if (ln == 1) {
			if (nt != 2 || strcmp(tok[0], "entrytrace-sites") || strcmp(tok[1], "1"))
				FAIL(
					    "not an entrytrace site file version 1 ('%s')", tok[0]);
			continue;
		}
		if (!strcmp(tok[0], "arch") && nt == 2) {
			if (!strcmp(tok[1], "x86_64"))
				sf->arch = ARCH_X86_64;
			else if (!strcmp(tok[1], "ppc64le") || !strcmp(tok[1], "ppc64"))
				sf->arch = ARCH_PPC64;
			else if (!strcmp(tok[1], "ppc")) {
				sf->arch = ARCH_PPC64;
				sf->ppc32 = true;
			}
			else
				FAIL( "unknown arch '%s'", tok[1]);
			snprintf(sf->arch_name, sizeof(sf->arch_name), "%s", tok[1]);
			have_arch = true;
		} else if (!strcmp(tok[0], "endian") && nt == 2) {
			if (strcmp(tok[1], "little") && strcmp(tok[1], "big"))
				FAIL( "unknown endian '%s'", tok[1]);
			sf->big_endian = !strcmp(tok[1], "big");
			have_endian = true;
		} else if (!strcmp(tok[0], "build_id") && nt == 2) {
			snprintf(sf->build_id, sizeof(sf->build_id), "%s", tok[1]);
			have_bid = true;
		} else if (!strcmp(tok[0], "vmlinux") && nt == 2) {
			/* informational */
		} else if (!strcmp(tok[0], "mode") && nt == 2) {
			if (strcmp(tok[1], "sites") && strcmp(tok[1], "fallback"))
				FAIL( "unknown mode '%s'", tok[1]);
			sf->sites_mode = !strcmp(tok[1], "sites");
			have_mode = true;
		} else if (!strcmp(tok[0], "sites_sha256") && nt == 2) {
			snprintf(sf->sites_sha, sizeof(sf->sites_sha), "%s", tok[1]);
		} else if (!strcmp(tok[0], "page_offset") && nt == 2) {
			if (parse_u64(tok[1], &sf->page_offset))
				FAIL( "bad page_offset '%s'", tok[1]);
		} else if (!strcmp(tok[0], "realmode_end") && nt == 2) {
			if (parse_u64(tok[1], &sf->realmode_end))
				FAIL( "bad realmode_end '%s'", tok[1]);
		} else if (!strcmp(tok[0], "stages") && nt == 2) {
			uint64_t n;

			if (parse_u64(tok[1], &n) || n > MIX_MAX_STAGES)
				FAIL(
					    "stages %s: the plugin supports 1..%d", tok[1],
					    MIX_MAX_STAGES);
			declared_stages = n;
		} else if (!strcmp(tok[0], "stage") && nt == 6) {
			uint64_t id, par = 0;

			if (parse_u64(tok[1], &id) || id != (uint64_t)sf->nstages ||
			    id >= MIX_MAX_STAGES)
				FAIL( "stage id '%s' out of order", tok[1]);
			if (strcmp(tok[3], "-") && (parse_u64(tok[3], &par) || par >= id))
				FAIL( "stage %s: bad parent '%s'", tok[2],
					    tok[3]);
			static const char *const phases[] = { "ENTRY", "BODY", "EXIT" };
			int ph = -1, k = -1;

			for (int i = 0; i < 3; i++)
				if (!strcmp(tok[4], phases[i]))
					ph = i;
			for (int i = 0; i < 4; i++)
				if (!strcmp(tok[5], kind_names[i]))
					k = i;
			if (ph < 0 || k < 0)
				FAIL("stage %s: unknown phase '%s' or kind '%s'", tok[2], tok[4],
				     tok[5]);
			sf->stages[id].name = strdup(tok[2]);
			sf->stages[id].parent = strcmp(tok[3], "-") ? (int)par : -1;
			sf->stages[id].body = ph == PH_BODY && !strcmp(tok[3], "-");
			sf->stages[id].phase = ph;
			sf->stages[id].kind = k;
			sf->nstages++;
		} else if (!strcmp(tok[0], "func") && (nt == 4 || nt == 5)) {
			struct func fn = { 0 };
			uint64_t lep = 0;

			if (parse_u64(tok[1], &fn.addr) || parse_u64(tok[2], &fn.size) || !fn.size ||
			    (nt == 5 && (parse_u64(tok[4], &lep) || lep >= fn.size || lep % 4)))
				FAIL("bad func line for '%s'", tok[3]);
			fn.lep = lep;
			fn.name = strdup(tok[3]);
			if (sf->nfuncs == capf) {
				capf = capf ? 2 * capf : 4096;
				sf->funcs = realloc(sf->funcs, capf * sizeof(*sf->funcs));
				if (!sf->funcs)
					abort();
			}
			sf->funcs[sf->nfuncs++] = fn;
		} else if ((!strcmp(tok[0], "site") && nt >= 7) ||
			   ((!strcmp(tok[0], "sysentry") || !strcmp(tok[0], "vector") ||
			     !strcmp(tok[0], "return") || !strcmp(tok[0], "switch") ||
			     !strcmp(tok[0], "handler")) && nt == 5)) {
			struct marker m = { .vector = -1, .handler = -1, .slot = -1 };
			const char *bytes;

			if (parse_u64(tok[1], &m.addr))
				FAIL( "bad address '%s'", tok[1]);
			if (!strcmp(tok[0], "site")) {
				uint64_t st, st2 = 0xff, fl;
				int edge;

				if (!sf->sites_mode)
					FAIL( "a site line in a fallback file");
				if (!strcmp(tok[3], "begin"))
					edge = EDGE_BEGIN;
				else if (!strcmp(tok[3], "end"))
					edge = EDGE_END;
				else if (!strcmp(tok[3], "switch"))
					edge = EDGE_SWITCH;
				else
					FAIL( "unknown edge '%s'", tok[3]);
				char why[200];

				if (!strcmp(tok[2], "-"))
					st = STAGE_NONE;
				else if (parse_u64(tok[2], &st) || st >= (uint64_t)sf->nstages)
					FAIL("site %s: stage '%s' unknown", tok[1], tok[2]);
				if (edge == EDGE_SWITCH &&
				    (parse_u64(tok[4], &st2) || st2 >= (uint64_t)sf->nstages))
					FAIL("site %s: switch stage '%s' unknown", tok[1], tok[4]);
				if (edge != EDGE_SWITCH && strcmp(tok[4], "-"))
					FAIL("site %s: a second stage '%s' on a %s", tok[1], tok[4],
					     tok[3]);
				if (parse_u64(tok[5], &fl) || (fl & ~(uint64_t)SF_ALL))
					FAIL("site %s: bad flags '%s'", tok[1], tok[5]);
				int form = site_form(sf, st, edge, st2, fl, why, sizeof(why));

				if (form < 0)
					FAIL("site %s: %s", tok[1], why);
				m.roles = R_SITE;
				m.site[0] = (struct site){ .stage = st, .edge = edge, .stage2 = st2,
							   .flags = fl, .form = form,
							   .action = site_forms[form].action };
				m.nsite = 1;
				bytes = tok[6];
				sf->nsites++;
				sf->nmarks += marker_is_mark(&m);
			} else if (!strcmp(tok[0], "handler")) {
				m.roles = R_HANDLER;
				m.handler = intern(sf, tok[2]);
				bytes = tok[4];
			} else {
				char vname[128];

				m.roles = !strcmp(tok[0], "sysentry") ? R_SYSENTRY :
					  !strcmp(tok[0], "vector") ? R_VECTOR :
					  !strcmp(tok[0], "return") ? R_RETURN : R_SWITCH;
				if (strcmp(tok[3], "any") && strcmp(tok[3], "user"))
					FAIL( "unknown return kind '%s'", tok[3]);
				m.to_user = !strcmp(tok[3], "user");
				snprintf(vname, sizeof(vname), "irq:%s", tok[2]);
				if (m.roles == R_VECTOR)
					m.vector = intern(sf, vname);
				bytes = tok[4];
			}
			if (parse_hex_bytes(bytes, m.bytes, &m.nbytes))
				FAIL( "bad instruction bytes '%s'", bytes);
			if (sf->nmarkers == capm) {
				capm = capm ? 2 * capm : 1024;
				sf->markers = realloc(sf->markers, capm * sizeof(*sf->markers));
				if (!sf->markers)
					abort();
			}
			m.seq = sf->nmarkers;
			sf->markers[sf->nmarkers++] = m;
		} else {
			FAIL( "unknown line '%s' (%d fields)", tok[0], nt);
		}
	}
	free(line);
	fclose(f);
	line = NULL;
	f = NULL;
	if (!have_hash)
		return fail(err, errlen, path, ln, "no table_hash line (truncated?)");
	if (!have_arch || !have_endian || !have_bid || !have_mode)
		return fail(err, errlen, path, ln, "arch, endian, build_id or mode missing");
	if (sf->arch == ARCH_PPC64 && !sf->page_offset)
		sf->page_offset = sf->ppc32 ? 0xc0000000ULL : 0xc000000000000000ULL;
	if (declared_stages != sf->nstages)
		return fail(err, errlen, path, ln, "stages %d declared, %d stage lines",
			    declared_stages, sf->nstages);
	if (sf->sites_mode && !sf->nsites)
		return fail(err, errlen, path, ln, "mode sites without a site line");
	if (sf->sites_mode) {
		bool begin = false, end = false;

		for (size_t i = 0; i < sf->nmarkers; i++) {
			const struct marker *m = &sf->markers[i];

			if (!(m->roles & R_SITE))
				continue;
			begin |= SITE_ACT_OPENS(m->site[0].action);
			end |= SITE_ACT_ENDS(m->site[0].action);
		}
		if (!begin || !end)
			return fail(err, errlen, path, ln, "no syscall %s site: no syscall can be "
				    "staged", begin ? "end (SYSCALL_END)" :
				    "begin (no stage, SYSCALL_BEGIN)");
	}

	/* one marker per address, with every role it has */
	if (sf->nmarkers)
		qsort(sf->markers, sf->nmarkers, sizeof(*sf->markers), cmp_marker);
	size_t out = 0;
	for (size_t i = 0; i < sf->nmarkers; i++) {
		struct marker *m = &sf->markers[i], *o = out ? &sf->markers[out - 1] : NULL;

		if (o && o->addr == m->addr) {
			if (marker_is_mark(o) && marker_is_mark(m)) {
				/* zero-width markers at one address: they run in the table's order */
				if (o->nsite == MIX_MAX_SITES_AT)
					return fail(err, errlen, path, ln,
						    "address %#llx has more than %d markers",
						    (unsigned long long)m->addr, MIX_MAX_SITES_AT);
				if (m->nbytes != o->nbytes || memcmp(m->bytes, o->bytes, m->nbytes))
					return fail(err, errlen, path, ln,
						    "address %#llx: two entries with different bytes",
						    (unsigned long long)m->addr);
				o->site[o->nsite++] = m->site[0];
				continue;
			}
			if (o->roles & m->roles & ~R_HANDLER)
				return fail(err, errlen, path, ln, "address %#llx has two %s entries",
					    (unsigned long long)m->addr,
					    m->roles & R_SITE ? "site" : "marker");
			if (m->nbytes != o->nbytes || memcmp(m->bytes, o->bytes, m->nbytes))
				return fail(err, errlen, path, ln,
					    "address %#llx: two entries with different bytes",
					    (unsigned long long)m->addr);
			if (m->roles & R_HANDLER && o->roles & R_HANDLER)
				continue;	/* two prefixes of one handler: keep the first */
			o->roles |= m->roles;
			if (m->roles & R_VECTOR)
				o->vector = m->vector;
			if (m->roles & R_HANDLER)
				o->handler = m->handler;
			if (m->roles & R_RETURN)
				o->to_user = m->to_user;
			if (m->roles & R_SITE) {
				memcpy(o->site, m->site, sizeof(o->site));
				o->nsite = m->nsite;
			}
			continue;
		}
		sf->markers[out++] = *m;
	}
	sf->nmarkers = out;
	if (!sf->nfuncs)
		return fail(err, errlen, path, ln, "no func lines");
	qsort(sf->funcs, sf->nfuncs, sizeof(*sf->funcs), cmp_func);
	return 0;
bad:
	free(line);
	fclose(f);
	return -1;
}
