// SPDX-License-Identifier: LGPL-2.1
/*
 * The stage table, expanded from tracepoints/stages.def: the analyzer keeps
 * no list of its own.
 */
#include <stdio.h>
#include <string.h>

#include "entrytrace-local.h"


#define ET_PH(phase) ET_PHASE_##phase
#define ET_KD(kind) ET_KIND_##kind
#define ET_PARENT(parent) ET_PARENT_##parent
#define ET_PARENT_NONE ET_STAGE_NONE

/* Parent slots: one constant per stage so "NONE" and SYM both resolve. */
enum {
#define ENTRY_STAGE(SYM, name, phase, parent, paths, arches, kind, desc) \
	ET_PARENT_##SYM = ET_STAGE_##SYM,
#define ENTRY_STAGE_DERIVED(SYM, name, phase, parent, paths, desc) \
	ET_PARENT_##SYM = ET_SLOT_##SYM,
#include "stages.def"
};

/* The promise entrytrace.h makes: appending a kernel stage moves no id. */
_Static_assert(ET_STAGE_KERNEL_NR <= ET_STAGE_DERIVED_BASE,
	       "kernel stages run into the derived stages' ids");
_Static_assert(ET_STAGE_TOTAL == ET_STAGE_DERIVED_BASE, "total is the first derived id");
_Static_assert(ET_SLOT_NR <= 64, "a stage mask has a bit per slot");

#define ET_PATHS_G (ET_PATH_G)
#define ET_PATHS_L (ET_PATH_L)
#define ET_PATHS_S (ET_PATH_S)
#define ET_PATHS_GL (ET_PATH_G | ET_PATH_L)
#define ET_PATHS_GLS (ET_PATH_G | ET_PATH_L | ET_PATH_S)

const struct et_stage_info et_stages[ET_SLOT_NR] = {
#define ENTRY_STAGE(SYM, nm, ph, par, pa, ar, kd, ds)			\
	[ET_STAGE_##SYM] = { .name = #nm, .desc = ds, .phase = ET_PH(ph), \
			     .kind = ET_KD(kd), .parent = ET_PARENT(par), \
			     .paths = ET_PATHS_##pa },
#define ENTRY_STAGE_DERIVED(SYM, nm, ph, par, pa, ds)			\
	[ET_SLOT_##SYM] = { .name = #nm, .desc = ds, .phase = ET_PH(ph), \
			     .kind = ET_KIND_DERIVED, .parent = ET_PARENT(par), \
			     .paths = ET_PATHS_##pa },
#include "stages.def"
};

const char *const et_work_names[ET_WORK_NR] = {
#define ENTRY_STAGE_WORK(SYM, nm, ds) [ET_WORK_BIT_##SYM] = #nm,
#include "stages.def"
};

const char *const et_work_descs[ET_WORK_NR] = {
#define ENTRY_STAGE_WORK(SYM, nm, ds) [ET_WORK_BIT_##SYM] = ds,
#include "stages.def"
};

int et_slot_by_name(const char *name)
{
	for (int i = 0; i < ET_SLOT_NR; i++)
		if (!strcmp(et_stages[i].name, name))
			return i;
	return -1;
}

/* How deep a stage nests: 0 for a top-level stage, 1 for its children, ... */
int et_stage_depth(int stage)
{
	int d = 0;

	while (stage >= 0 && stage < ET_SLOT_NR && et_stages[stage].parent != ET_STAGE_NONE) {
		stage = et_stages[stage].parent;
		d++;
	}
	return d;
}

/* A stage's name indented two columns per level: a table's stage column. */
const char *et_stage_label(int stage, char *buf, size_t size)
{
	snprintf(buf, size, "%*s%s", 2 * et_stage_depth(stage), "", et_stages[stage].name);
	return buf;
}

/* The widest et_stage_label, for the column. */
int et_stage_label_width(void)
{
	int w = 0;

	for (int i = 0; i < ET_SLOT_NR; i++) {
		int n = 2 * et_stage_depth(i) + (int)strlen(et_stages[i].name);

		w = n > w ? n : w;
	}
	return w;
}

const char *et_phase_name(enum et_phase phase)
{
	static const char *const names[] = {
		[ET_PHASE_ENTRY] = "entry", [ET_PHASE_BODY] = "body",
		[ET_PHASE_EXIT] = "exit",   [ET_PHASE_USER] = "user",
		[ET_PHASE_KERNEL] = "kernel", [ET_PHASE_ALL] = "all",
	};
	return names[phase];
}

const char *et_kind_name(enum et_stage_kind kind)
{
	static const char *const names[] = {
		[ET_KIND_TIMED] = "timed",	 [ET_KIND_NOINSTR] = "noinstr",
		[ET_KIND_DEFERRED] = "deferred", [ET_KIND_AGG] = "agg",
		[ET_KIND_DERIVED] = "derived",
	};
	return names[kind];
}

char *et_work_str(unsigned int work, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < ET_WORK_NR; i++) {
		if (!(work & (1u << i)))
			continue;
		int n = snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
				 et_work_names[i]);
		if (n < 0 || (size_t)n >= size - len)
			break;
		len += n;
	}
	if (!len)
		snprintf(buf, size, "-");
	return buf;
}

/*
 * A stage's place in the tables: the kernel stages in path order (entry,
 * body, exit; by slot within a phase, so that a stage appended to stages.def,
 * such as series v3's arch_syscall_entry, is listed where it runs), then
 * the derived stages.  For the stages before v3 this is the slot.
 */
int et_stage_path_rank(int stage)
{
	int rank = 0;

	if (stage < 0 || stage >= ET_STAGE_KERNEL_NR)
		return stage;
	for (int s = 0; s < ET_STAGE_KERNEL_NR; s++)
		if (et_stages[s].phase < et_stages[stage].phase ||
		    (et_stages[s].phase == et_stages[stage].phase && s < stage))
			rank++;
	return rank;
}

/* The public calls: ids in, ids out. */
int et_stage_count(void)
{
	return ET_SLOT_NR;
}

int et_stage_kernel_count(void)
{
	return ET_STAGE_KERNEL_NR;
}

int et_stage_next(int stage)
{
	int slot;

	if (stage == ET_STAGE_NONE)
		return et_slot_stage(0);
	slot = et_stage_slot(stage);
	return slot < 0 ? ET_STAGE_NONE : et_slot_stage(slot + 1);
}

uint64_t et_stage_bit(int stage)
{
	int slot = et_stage_slot(stage);

	return slot < 0 ? 0 : 1ull << slot;
}

int et_stage_by_name(const char *name)
{
	return et_slot_stage(et_slot_by_name(name));
}

static const struct et_stage_info *info(int stage)
{
	int slot = et_stage_slot(stage);

	return slot < 0 ? NULL : &et_stages[slot];
}

const char *et_stage_name(int stage)
{
	return info(stage) ? info(stage)->name : NULL;
}

const char *et_stage_desc(int stage)
{
	return info(stage) ? info(stage)->desc : NULL;
}

enum et_phase et_stage_phase(int stage)
{
	return info(stage) ? info(stage)->phase : ET_PHASE_ALL;
}

enum et_stage_kind et_stage_kind(int stage)
{
	return info(stage) ? info(stage)->kind : ET_KIND_DERIVED;
}

int et_stage_parent(int stage)
{
	return info(stage) ? et_slot_stage(info(stage)->parent) : ET_STAGE_NONE;
}

unsigned int et_stage_paths(int stage)
{
	return info(stage) ? info(stage)->paths : 0;
}

int et_work_count(void)
{
	return ET_WORK_NR;
}

const char *et_work_name(int bit)
{
	return bit >= 0 && bit < ET_WORK_NR ? et_work_names[bit] : NULL;
}

const char *et_work_desc(int bit)
{
	return bit >= 0 && bit < ET_WORK_NR ? et_work_descs[bit] : NULL;
}
