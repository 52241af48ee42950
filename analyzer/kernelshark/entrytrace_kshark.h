/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * KernelShark plugin for entrytrace: per-task syscall and stage boxes.
 *
 * The C part (entrytrace_kshark.c) runs libentrytrace's timeline over the
 * trace once when the plugin loads and keeps one compact box per syscall
 * and per placed stage.  The C++ part (entrytrace_plot.cpp) turns the
 * boxes inside the visible range into KsPlot shapes: KernelShark's draw
 * handler argument and its clickable plot objects are C++ classes.
 */
#ifndef _ENTRYTRACE_KSHARK_H
#define _ENTRYTRACE_KSHARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One syscall (stage == ets_total_stage) or one stage of it. */
struct ets_box {
	int64_t start;		/* trace clock ns: KernelShark's entry->ts */
	uint64_t dur;		/* ns */
	int32_t pid;
	int16_t stage;		/* et_stage_id */
	int16_t cpu;		/* CPU the syscall entered on */
	uint16_t flags;		/* ET_SC_* of the syscall */
	int16_t nr;		/* syscall number */
};

/* Per-stream plugin state. */
struct ets_context {
	int sd;
	struct ets_box *boxes;		/* sorted by pid, then start */
	size_t nr_boxes;
	int64_t *pid_maxend;		/* running max of box end, pid order */
	uint32_t *by_cpu;		/* box indices sorted by cpu, then start */
	int64_t *cpu_maxend;		/* running max of box end, cpu order */
	int rows;			/* box rows: syscall + stage depths */
	uint64_t syscalls;		/* the timeline's: et_timeline_syscalls() */
	uint64_t lost;			/* ...flagged ET_SC_LOST: et_timeline_flagged() */
	char *names;			/* syscall names, ETS_NAME_LEN apart */
	int nr_names;
	/* Set by the draw handler, used by the click handler. */
	struct kshark_trace_histo *histo;
	long selected;			/* box index of the last double click */
	uint64_t drawn;			/* shapes handed to KernelShark */
	uint64_t drawn_lost;
	/* the markers of the last double click: entries nearest the box's ends */
	bool marked;
	int64_t mark_a, mark_b;		/* their timestamps */
	int64_t mark_off_a, mark_off_b;	/* ...minus the box's start and end */
};

#define ETS_NAME_LEN 24

struct ets_rgb {
	uint8_t r, g, b;
};

extern const int ets_total_stage;
extern const int ets_stage_end;		/* ET_STAGE_END: one past the highest stage id */
extern const unsigned int ets_lost_flag;	/* ET_SC_LOST */
extern const struct ets_rgb ets_lost_rgb;

struct ets_context *ets_get_context(int sd);
struct ets_rgb ets_stage_rgb(int stage);
/* Box row: 0 the syscall, 1 top-level stages, 2 their children... */
int ets_box_row(const struct ets_box *box);
const char *ets_stage_name(int stage);

/* Indices [*first, *last) of the boxes of one task or one CPU. */
void ets_task_range(const struct ets_context *ctx, int pid,
		    size_t *first, size_t *last);
void ets_cpu_range(const struct ets_context *ctx, int cpu,
		   size_t *first, size_t *last);
/* In a range: the first position whose box may end after ts. */
size_t ets_first_ending_after(const int64_t *maxend, size_t first,
			      size_t last, int64_t ts);

/* "kill pid 1234: signal_exit 2755 ns at 866.844434015 [lost]" */
int ets_box_text(const struct ets_context *ctx, const struct ets_box *box,
		 char *buf, size_t size);
/* The syscall's name ("kill") for a box. */
const char *ets_box_name(const struct ets_context *ctx, const struct ets_box *box,
			 char *buf, size_t size);
/* A double click: print, log, remember, move KernelShark's markers. */
void ets_box_clicked(struct ets_context *ctx, const struct ets_box *box);
/* Markers A and B on the entries nearest the box's start and end (C++). */
void ets_mark_box(struct ets_context *ctx, const struct ets_box *box);
/* The plugin's entry points are its only exported symbols. */
#define ETS_EXPORT __attribute__((visibility("default")))

/* Lines for $ENTRYTRACE_KSHARK_LOG, if set. */
void ets_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void ets_draw(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);

#ifdef __cplusplus
}
#endif

#endif /* _ENTRYTRACE_KSHARK_H */
