/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entrytrace mix, the QEMU plugin's private header: its types, its one
 * state (P) and the functions its files share.  plugin.c has the overview;
 * one concept per file:
 *   plugin.c     the state, out-of-memory, the sample buffer
 *   map.c        a small u64 -> u64 hash map
 *   slots.c      instruction slots (a counter per kernel instruction met),
 *                the functions they are in, the per-syscall aggregates
 *   harvest.c    the markers' callbacks: counters harvested into frames
 *                (user, interrupt, a syscall and its stages)
 *   translate.c  translation: the inline adds, the markers, disas=check
 *   output.c     the .mix file, written when QEMU exits
 *   install.c    qemu_plugin_install(): the options and the site file
 *   model.c      the timing model (model=FILE): caches, store queue, costs
 *   classify.c, sitefile.c (mix.h): instruction classes, the site file
 */
#ifndef _ET_MIX_PLUGIN_H
#define _ET_MIX_PLUGIN_H
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"
#include "qemu-api.h"

#define PLUGIN_NAME "entrytrace-mix"
#define OUTPUT_VERSION 2
#define OUTPUT_VERSION_MODEL 3	/* version 2 + the timing model's lines */

/*
 * The timing model's metrics per instruction slot, account and syscall:
 * modelled cycles at the parameters' low end, middle and high end (in
 * ticks, TICKS per cycle, until written), and misses.
 */
enum {				/* the timing model's columns */
#define MIX_MET(SYM, name) M_##SYM,
#include "mix-format.def"
	NMET
};
#define NPOINTS 3
#define TICKS 256

enum { SLOT_USER, SLOT_FIRST };
enum { BASE_USER, BASE_UNSYNCED };
enum { FR_SYSCALL, FR_IRQ };
enum {				/* sample flags: mix-format.def's bits */
#define MIX_FLAG(SYM, name, what) F_BIT_##SYM,
#include "mix-format.def"
	NFLAGS
};
enum {
#define MIX_FLAG(SYM, name, what) F_##SYM = 1 << F_BIT_##SYM,
#include "mix-format.def"
	/* set apart from the tables; an anomaly is counted in "anomaly" */
	F_SETAPART = F_SWITCHED | F_DESYNC | F_UNFINISHED,
};
extern const char *const flag_names[NFLAGS];

#define MAX_DEPTH 16
#define MAX_ACC (MIX_MAX_STAGES + 5)

struct ent {			/* a per-syscall partial sum, merged when it ends */
	uint8_t type;		/* 0: an instruction slot */
	uint8_t acc;
	uint32_t id;
	uint64_t n;
};

struct sysrec {
	uint64_t seq;
	int name;
	unsigned flags;
	int64_t user_before;	/* -1: unknown */
	bool window;		/* the staged syscall (or a restart of its exit) is open */
	bool window_done;	/* the staged syscall ended */
	bool tail;		/* after the tail begin: only the tail's end counts */
	bool restart;		/* in a restart window: only the restart's end counts */
	bool restart_seen;	/* a restart began in this syscall */
	bool pending;		/* after a restart's end: ACC_PENDING until the next or the return */
	int restart_stage;
	uint64_t open;		/* open stages */
	uint64_t acc[MAX_ACC];
	uint32_t runs[MAX_ACC];
	bool entered[MAX_ACC];
	uint64_t irq, nirq;
	struct ent *ents;
	size_t nents, capents;
	/* the timing model: per account, and per ent (ments[i] beside ents[i]) */
	uint64_t (*macc)[NMET];
	uint64_t (*ments)[NMET];
	uint64_t user_m[NMET];	/* the user gap before it (with user_before) */
};

struct frame {
	int type;
	int vector;
	uint64_t insns;
	uint64_t m[NMET];	/* the timing model */
};

struct vcpu {
	int base;
	int depth;
	struct frame st[MAX_DEPTH];
	struct sysrec sc;	/* the syscall frame, always st[0] when open */
	int64_t user_since;	/* user instructions since the last return to user, -1 unknown */
	bool user_irq;
	uint64_t user_m[NMET];	/* the timing model over the same user instructions */
};

struct map {
	uint64_t *k, *v;	/* key 0 = empty; keys are stored + 1 */
	size_t cap, n;
};

/*
 * Instruction slots.  The counters are what translated code adds to, so
 * they never move: chunks of CHUNK slots, allocated as slots are handed
 * out, with one hint word per block of 64 slots (set when any of them
 * counted) so that a harvest reads only the blocks that ran.
 */
#define CHUNK_BITS 16
#define CHUNK (1 << CHUNK_BITS)
#define MAX_CHUNKS 2048

struct islot {
	uint64_t addr;		/* the kernel's virtual address; 0 for user space */
	int func;		/* sf.funcs index, -1: in no function */
	int kind, callkind;	/* classify(), calls=; -1: none */
	int next;		/* another slot at the same address (other bytes), -1 */
};

/* address -> first slot + 1 */
struct delta {
	uint32_t id;
	uint64_t n;
};

/* aggregates */
struct stat {
	int name, acc;
	uint64_t *v;
	size_t n, cap;
	uint64_t runs;
	uint64_t m[NMET];	/* the timing model: sums over the n */
};

struct disas_diff {
	uint64_t addr;
	char bytes[40], text[64];
	int bk, dk;
};

/* Everything the plugin keeps between callbacks. */
struct mix_plugin {
	struct {			/* qemu_plugin_install()'s arguments */
		char *out_path, *sites_path;
		int topk;			/* 0: every function */
		bool disas_check;
		bool armed_ok;		/* armed=ok: a site may be its jump (events on) */
		uint64_t *detail_seqs;	/* detail=SEQ:SEQ: per-function counts of those syscalls */
		int ndetail;
		char **sample_names;	/* NULL: all */
		int nsample_names;
		const char *samples_arg, *tables_arg;
		char **table_names;	/* tables=: kinds/class/func rows of these names only */
		int ntable_names;
		bool samples_none;
		char **call_names;	/* calls=: count the entries of these functions */
		int ncall_names;
		const char *calls_arg;
		char *model_path;	/* model=FILE: the timing model's parameters */
	} opt;
	bool user_mode;			/* user-mode QEMU: the timing model alone, no site file */
	struct model *model;		/* NULL: the timing model is off */
	struct sitefile sf;
	struct map calls;		/* entry address -> kind + 1 */
	struct map markers;		/* addr -> marker index + 1 */
	int qemu_api_min, qemu_api_cur;

	/* instruction slots */
	uint64_t *cnt_chunk[MAX_CHUNKS], *hint_chunk[MAX_CHUNKS];
	struct islot *islots;
	int nslots, capislots;
	struct map slot_at;		/* address -> first slot + 1 */
	struct delta *dslot;		/* a harvest's slots that counted */
	uint64_t *met_chunk[MAX_CHUNKS];	/* the timing model: NMET per slot */
	uint64_t (*dmet)[NMET];		/* and per delta of a harvest */

	/* frames and accounts */
	struct vcpu *vcpus;
	int nvcpus;
	int nacc, acc_whole, acc_total, acc_gap, acc_outside, acc_pending;
	int n_user, n_unsynced;		/* the names of the user and unsynced frames */
	uint64_t body_mask;

	/* aggregates */
	struct stat *stats;
	size_t nstats, capstats;
	struct map stat_idx;		/* (name << 8 | acc) -> index + 1 */
	struct map sums;		/* key(name, acc, type, id) -> count */
	struct map msums;		/* the same key -> the timing model's mvals index + 1 */
	uint64_t (*mvals)[NMET];
	size_t nmvals, capmvals;
	uint64_t mtotal[NMET];		/* everything the model counted */
	uint64_t seq;

	struct {			/* the counts the .mix file ends with */
	uint64_t syscalls, setapart, switches, desync, unmatched_returns, abandoned_irqs;
	uint64_t irqs, irqs_in_syscall, overflow;
	uint64_t ins_user, ins_unsynced, ins_syscall, ins_irq;
	uint64_t site_hits, ign_not_syscall, ign_outside_window, ign_tail, ign_agg_outside_body;
	uint64_t reopen, end_not_open, unclosed, begin_in_window, window_reopened;
	uint64_t ign_other_path;	/* a MARK site at a join: the other path's */
	uint64_t end_outside_tail;
	uint64_t marker_hits, markers_seen, unarmed, site_mismatches, sites_armed, translations;
	uint64_t disas_agree, disas_differ, disas_undecided, disas_undecodable, disas_skipped;
	} count;
	/* the sites that did what their action is, per action (not in the .mix
	 * file: fakeqemu --actions prints them through entrytrace_mix_site_actions()) */
	uint64_t site_acted[SITE_NACTIONS];

	/* disas=check */
	struct disas_diff ddiff[20];
	int nddiff;
	struct map disas_seen;

	/* sample lines, written after the tables */
	char *samp;
	size_t nsamp, capsamp;
};

extern struct mix_plugin P;

/* map.c */
uint64_t *map_slot(struct map *m, uint64_t key);
uint64_t *map_find(const struct map *m, uint64_t key);

/* slots.c */
uint64_t *slot_cnt(int s);
uint64_t *slot_met(int s);	/* NMET counters, the timing model's */
uint64_t *slot_hint(int s);
int new_slot(uint64_t addr, int func, int kind, int callkind);
int slot_of(uint64_t a, int kind, int callkind);
const char *func_name(int f);
int slot_func(int s);
uint64_t sum_key(int name, int acc, int type, uint32_t id);
void stat_push(int name, int acc, uint64_t v, uint32_t runs);
void stat_push_met(int name, int acc, const uint64_t *m);
uint64_t *msum_of(uint64_t key);	/* the NMET sums of a sums key */

/* model.c */
struct model;
struct qemu_plugin_insn;
struct model *model_load(const char *path, const char *target, char *err, size_t errlen);
int model_check(const struct model *mo, char *err, size_t errlen);
void model_vcpus(struct model *mo, int n);
/* an instruction's cost in ticks at each point, and its callbacks */
void model_insn(struct model *mo, struct qemu_plugin_insn *insn, int slot, int kind,
		uint32_t base[NPOINTS]);
/* a translation block: its instruction fetches (slots[i]: instruction i's slot) */
void model_tb(struct model *mo, struct qemu_plugin_tb *tb, const int *slots,
	      const uint32_t (*base)[NPOINTS], size_t n);
void model_header(const struct model *mo, FILE *f);
void model_counts(const struct model *mo, FILE *f);
uint64_t met_cycles(uint64_t ticks);
void met_add(uint64_t *dst, const uint64_t *src);
bool met_any(const uint64_t *m);
/* m's columns as written (cycles from ticks) into out[NMET]; returns out */
const uint64_t *met_cols(const uint64_t *m, uint64_t *out);

/* harvest.c */
void harvest(struct vcpu *v);
bool want_table(int name);
void finish_syscall(struct vcpu *v, unsigned reason);
void on_marker(unsigned int cpu, void *udata);
/* the tests' view of the sites' actions: "action NAME N" per action, in site-abi.h's order */
ET_QEMU_EXPORT void entrytrace_mix_site_actions(FILE *f);

/* translate.c */
void hexbytes(char *buf, size_t len, const uint8_t *p, size_t n);
void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* output.c */
void at_exit(qemu_plugin_id_t id, void *udata);

/* plugin.c */
void die_oom(void);
/* mix_write_line()'s way into the sample lines, after the tables; ctx unused */
void sappend_emit(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* mix_sput(SYM, .field = value, ...): record SYM's line (mix-write.h) into the sample lines */
#define mix_sput(SYM, ...)							\
	mix_write_line(sappend_emit, NULL, MIX_R_##SYM,				\
		       &(const struct mix_line_##SYM){ __VA_ARGS__ })

#endif
