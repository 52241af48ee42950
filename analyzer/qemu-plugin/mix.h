/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entrytrace mix plugin: shared definitions (site file, instruction kinds).
 * Documentation/qemu-plugin.md describes the files and the counting rules.
 */
#ifndef ET_MIX_H
#define ET_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MIX_MAX_STAGES	64	/* stage ids are bits of a uint64_t */
#define MIX_MAX_KINDS	256
#define MIX_MAX_BYTES	16
#define MIX_MAX_SITES_AT 4	/* zero-width markers (MARK) at one address */

/* ARCH_PPC64: powerpc, 64-bit or (sitefile.ppc32) 32-bit */
enum arch { ARCH_X86_64, ARCH_PPC64 };

/* marker roles (one address may have several) */
enum {
	R_SYSENTRY = 1 << 0,	/* syscall entry vector: a syscall frame begins */
	R_VECTOR   = 1 << 1,	/* interrupt/exception vector: an irq frame begins */
	R_RETURN   = 1 << 2,	/* return instruction: the top frame ends after it */
	R_SWITCH   = 1 << 3,	/* context switch: every open frame is abandoned */
	R_HANDLER  = 1 << 4,	/* syscall handler entry: names the syscall */
	R_SITE     = 1 << 5,	/* entry_stage site (static-branch NOP) */
};

/*
 * Site edges and flags, as in .entry_stage_sites: the values are the
 * kernel's own (include/linux/entry_stage_types.h of the series), which the
 * build turns into site-abi.h (scripts/lib/siteabi.py).
 */
#include "site-abi.h"
enum {
	EDGE_BEGIN  = ENTRY_STAGE_EDGE_BEGIN,
	EDGE_END    = ENTRY_STAGE_EDGE_END,
	EDGE_SWITCH = ENTRY_STAGE_EDGE_SWITCH,
};
/* what a site does is its form's action (site_forms[], struct marker), never its flags */
enum {
	SF_ALL           = ENTRY_STAGE_SITE_ALL,
};
#define STAGE_NONE ENTRY_STAGE_NONE	/* a marker site of no stage */

enum stage_phase { PH_ENTRY, PH_BODY, PH_EXIT };
enum stage_kind { K_TIMED, K_NOINSTR, K_DEFERRED, K_AGG };

struct stage {
	char *name;
	int parent;		/* stage id, -1 for none */
	bool body;		/* phase BODY, no parent: the syscall body */
	enum stage_phase phase;
	enum stage_kind kind;
};

struct func {
	uint64_t addr, size;
	uint32_t lep;		/* ELFv2: the local entry point's offset, else 0 */
	char *name;
};

/* A site of the table: what its entry says, and its site_forms[] row and that row's action. */
struct site {
	uint8_t stage, edge, stage2, flags;
	uint8_t form, action;
};

struct marker {
	uint64_t addr;
	unsigned roles;
	int vector;		/* name id (R_VECTOR) */
	int handler;		/* name id (R_HANDLER) */
	bool to_user;		/* R_RETURN: always returns to user mode */
	/*
	 * R_SITE: one static-branch site, or up to MIX_MAX_SITES_AT zero-width
	 * markers (MARK), in the table's order, the order they run in
	 */
	struct site site[MIX_MAX_SITES_AT];
	uint8_t nsite;
	size_t seq;		/* its line in the file: markers at one address keep their order */
	uint8_t bytes[MIX_MAX_BYTES];
	int nbytes;
	/* at translation */
	bool checked, mismatch;
	uint8_t got[MIX_MAX_BYTES];
	int slot;
	uint64_t hits;
	uint32_t mbase[3];	/* the timing model: its cost in ticks (model.c) */
};

/*
 * R_SITE of zero-width markers (MARK; the sites at one address are all
 * markers or one branch site): they run before the instruction at the address.
 */
static inline bool marker_is_mark(const struct marker *m)
{
	return (m->roles & R_SITE) && SITE_IS_MARK(m->site[0].flags);
}

struct sitefile {
	enum arch arch;
	bool big_endian;
	bool sites_mode;
	char build_id[80], sites_sha[80], table_hash[24], arch_name[16];
	uint64_t realmode_end;	/* powerpc: real addresses below this are the kernel's */
	uint64_t page_offset;	/* powerpc: the kernel's virtual base (64-bit or 32-bit) */
	bool ppc32;		/* arch ppc: 32-bit powerpc, qemu-system-ppc */
	int nstages;
	struct stage stages[MIX_MAX_STAGES];
	struct func *funcs;
	size_t nfuncs;
	struct marker *markers;
	size_t nmarkers;
	size_t nsites;
	size_t nmarks;		/* of them zero-width markers (MARK) */
	/* interned names: handlers, vectors */
	char **names;
	int nnames, capnames;
};

/* sitefile.c */
int sitefile_read(const char *path, struct sitefile *sf, char *err, size_t errlen);
/* Which kind of site the series emits a site is (its site_forms[] index), or
 * -1 and why not in buf. */
int site_form(const struct sitefile *sf, unsigned stage, int edge, unsigned stage2,
	      unsigned flags, char *buf, size_t len);
int intern(struct sitefile *sf, const char *name);

/* classify.c: an instruction kind, or -1 */
#define MIX_KIND_NAME 64
struct kind {
	char name[MIX_KIND_NAME];
	unsigned classes;
};
enum {				/* classes: analyzer/include/mix-format.def's bits */
#define MIX_CLASS(SYM, name) C_BIT_##SYM,
#include "mix-format.def"
	MIX_NCLASSES
};
enum {				/* C_CALL: calls=, a function's entry instruction */
#define MIX_CLASS(SYM, name) C_##SYM = 1 << C_BIT_##SYM,
#include "mix-format.def"
};
extern const char *const class_names[MIX_NCLASSES];
int classify_nkinds(void);
const struct kind *classify_kind(int k);	/* 0 <= k < classify_nkinds() */
void classify_init(enum arch arch);
int classify_add_kind(const char *name, unsigned classes);
int classify_find(const char *name);	/* a kind of this run by name, or -1 */
int classify(enum arch arch, bool big_endian, const uint8_t *p, size_t n);
int kind_from_disas(enum arch arch, const char *disas);

#endif
