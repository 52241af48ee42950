// SPDX-License-Identifier: LGPL-2.1
/*
 * Render: the report as an aligned text table, JSON or CSV.  All times are
 * nanoseconds; exemplar timestamps are seconds on the trace clock, as
 * trace-cmd report prints them, so a min or max can be found in the trace.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "entrytrace-local.h"

#define TOP_GROUPS 10

static const char *const flag_names[16] = {
	"open_start", "open_end", "lost", "migrated", "noreturn", "no_exit",
	"mismatch", "child", "sigreturn", "no_tail", "pid_reuse", "seq_gap",
	"sample", "implausible",
};

static const char *const flag_text[16] = {
	"entered before the trace began",
	"still running when the trace ended",
	"crossed lost events",
	"returned on another CPU (kept)",
	"never return (exit, exit_group)",
	"entry without an exit (next entry came first)",
	"exit number differs from the entry",
	"fork/clone child's first return",
	"exit reported nr -1 (rt_sigreturn; kept)",
	"deferred stages never arrived (kept; no total)",
	"first syscall of a reused pid (kept)",
	"follow lost syscalls of the same task (kept)",
	"QEMU plugin samples (instructions; kept)",
	"times that cannot be (damaged data: longer than the trace, a stage longer than its syscall)",
};

char *et_sc_flags_str(uint32_t flags, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int b = 0; b < 16; b++)
		if ((flags & (1u << b)) && flag_names[b] && len < size)
			len += snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
					flag_names[b]);
	if (!len)
		snprintf(buf, size, "-");
	return buf;
}

static const char *syscall_name(const struct et_report *rep, int nr, char *buf,
				size_t size)
{
	const char *n = et_syscall_name(rep->names, nr);

	if (n)
		return n;
	snprintf(buf, size, nr < 0 ? "nr(%d)" : "sys_%d", nr);
	return buf;
}

static const char *errno_name(long e, char *buf, size_t size)
{
	const char *n;

	if (!e)
		return "ok";
	n = strerrorname_np((int)e);
	if (n)
		return n;
	snprintf(buf, size, "E%ld", e);
	return buf;
}

/* Kernel stages without a format in a stages-mode file. */
static void missing_stages(const struct et_trace_info *info, char *buf,
			   size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < ET_STAGE_KERNEL_NR; i++)
		if (!(info->stage_formats & (1ull << i)))
			len += snprintf(buf + len, len < size ? size - len : 0,
					"%s%s", len ? " " : "", et_stages[i].name);
}

/* Stage modes: what a stamp costs, whether it was subtracted, the sampling. */
static void text_stamps(const struct et_timeline_counts *tl, const char *unit, FILE *out)
{
	if (tl->pmu)
		fprintf(out, "stamps:      PMU stamps: stage times are CPU cycles, not ns\n");
	if (tl->stamp_ns > 0) {
		fprintf(out, "stamps:      one stamp costs %.1f %s (the kernel's calibration)", tl->stamp_ns, unit);
		if (tl->raw_stamps)
			fprintf(out, "; --raw-stamps: left in the stage times\n");
		else
			fprintf(out, "; subtracted from the stage times, once per stamp a stage holds\n");
	} else if (tl->stamp_uncorrected || tl->calib_events) {
		fprintf(out, "stamps:      the trace has no stamp calibration (record entry_stage_calib): stage times include the stamps' own cost\n");
	}
	if (tl->stamp_uncorrected && tl->stamp_ns > 0)
		fprintf(out, "             %8" PRIu64 " syscalls before the first calibration keep the stamps' cost\n",
			tl->stamp_uncorrected);
	if (tl->sample > 1)
		fprintf(out, "sampling:    the kernel staged one syscall in %u of each task (entry_stage.sample): counts are 1/%u of the syscalls made\n",
			tl->sample, tl->sample);
	if (tl->hist_cells)
		fprintf(out, "aggregated:  %" PRIu64 " cells of the kernel's tables (entry_stage_hist) hold %" PRIu64
			" syscalls: stages have count%s; totals a histogram; no tasks or errnos\n",
			tl->hist_cells, tl->hist_syscalls,
			tl->hist_mean_only ? " and mean (the kernel keeps no spread per stage)" :
			", mean, spread, min and max");
	if (tl->hist_dropped)
		fprintf(out, "             %8" PRIu64 " staged syscalls found their CPU's table full (entry_stage.hist_dropped): not in these figures\n",
			tl->hist_dropped);
	if (tl->hist_orphans)
		fprintf(out, "             %8" PRIu64 " stage cells came without their span: left out (damage)\n",
			tl->hist_orphans);
	if (tl->hist_saturated)
		fprintf(out, "             %8" PRIu64 " cells' sums of squares saturated in the kernel: their spread shows as 0\n",
			tl->hist_saturated);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* one line of the DAMAGED block: the first names it, the rest line up under it */
static void __attribute__((format(printf, 3, 4)))
damaged(FILE *out, bool *first, const char *fmt, ...)
{
	va_list ap;

	fputs(*first ? "DAMAGED:     " : "             ", out);
	*first = false;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/*
 * What the file holds that could not be read, per CPU: said in the header
 * of every report, and the commands exit with their own status for it.
 */
static void text_damage(const struct et_trace_counts *c, FILE *out)
{
	bool first = true;

	if (!et_counts_damaged(c))
		return;
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		uint64_t held = c->pages_per_cpu[cpu], read = c->pages_read_per_cpu[cpu];

		if (held > read)
			damaged(out, &first, "CPU %d: %" PRIu64 " of %" PRIu64 " pages gave no records "
				"(header empty or invalid, or a compressed chunk that does not "
				"decompress); their records are missing\n",
				cpu, held - read, held);
		if (c->time_back_per_cpu[cpu])
			damaged(out, &first, "CPU %d: %" PRIu64 " records earlier than the record "
				"before them (a page repeated or out of place)\n",
				cpu, c->time_back_per_cpu[cpu]);
		if (c->bad_pages_per_cpu[cpu])
			damaged(out, &first, "CPU %d: %" PRIu64 " pages hold data past their commit "
				"length (a commit cut short, or bytes overwritten): records may be "
				"missing\n", cpu,
				c->bad_pages_per_cpu[cpu]);
		if (c->unread_bytes_per_cpu[cpu])
			damaged(out, &first, "CPU %d: %" PRIu64 " bytes of its data lie beyond what "
				"its size fields let be read (a size or chunk count cut short): "
				"their records are missing\n", cpu, c->unread_bytes_per_cpu[cpu]);
	}
	if (c->seq_unexplained)
		damaged(out, &first, "%" PRIu64 " syscalls missing from the tasks' sequence numbers, "
			"with no lost events reported: their records are gone\n",
			c->seq_unexplained);
	if (c->implausible)
		damaged(out, &first, "%" PRIu64 " syscalls with times that cannot be (longer than "
			"the trace, or a stage longer than its syscall): left out\n",
			c->implausible);
	if (c->abi_errors)
		damaged(out, &first, "%" PRIu64 " entry_stage events that do not fit "
			"ABI %d to %d (a stage id beyond the kernel's own table, or a "
			"calibration of another ABI): dropped\n",
			c->abi_errors, ET_ABI_OLDEST, ENTRY_STAGE_ABI);
	if (c->unknown_stages)
		damaged(out, &first, "%" PRIu64 " stage values of stages this analyzer "
			"does not know (%s: a newer kernel's vocabulary; update "
			"entrytrace): left out\n", c->unknown_stages, c->unknown_stage_names ? c->unknown_stage_names : "?");
	if (c->unregistered)
		damaged(out, &first, "%" PRIu64 " records of a type no event format registers "
			"(a type or a format's ID changed): not read\n",
			c->unregistered);
	if (c->batches_unexplained)
		damaged(out, &first, "%" PRIu64 " packed batches missing from their CPU's "
			"numbers with no lost events reported: their records are not read\n",
			c->batches_unexplained);
	if (c->short_records)
		damaged(out, &first, "%" PRIu64 " records shorter than their event's format (a "
			"type or a format changed): not read\n",
			c->short_records);
	if (c->bad_nr)
		damaged(out, &first, "%" PRIu64 " syscalls numbered beyond the architecture's "
			"table of %d (e.g. %ld), not returning ENOSYS: left out\n",
			c->bad_nr, c->nr_table,
			c->bad_nr_example);
	for (const char *l = c->index_mismatches ? c->index_notes : NULL; l && *l; ) {
		const char *nl = strchr(l, '\n');
		int n = nl ? (int)(nl - l) : (int)strlen(l);

		damaged(out, &first, "%.*s\n", n, l);
		l = nl ? nl + 1 : NULL;
	}
}

static void text_file(const struct et_report_file *f, FILE *out)
{
	const struct et_sections *sec = et_sections_of(f->kind);
	const struct et_trace_info *in = &f->info;
	const char *inv[8];
	size_t nr_inv;
	char buf[1024];

	if (sec->text_header) {
		sec->text_header(f, out);
		return;
	}
	fprintf(out, "file:        %s\n", in->path);
	fprintf(out, "kernel:      %s\n", in->uname ? in->uname : "(no uname in file)");
	if (!in->file_version)	/* live: the kernel's own buffers */
		fprintf(out, "format:      live per-CPU buffers, %d CPUs, clock %s\n",
			in->cpus, in->clock ? in->clock : "?");
	else
		fprintf(out, "format:      trace.dat v%lu, %s, %d CPUs, clock %s, %s-endian %d-bit\n",
			in->file_version,
			in->compression ? in->compression : "uncompressed", in->cpus,
			in->clock ? in->clock : "?", in->big_endian ? "big" : "little",
			in->long_size * 8);
	et_present_str(in->present, buf, sizeof(buf));
	fprintf(out, "mode:        %s (events: %s)\n", et_mode_name(in->mode), buf);
	if (in->mode == ET_MODE_STAGES) {
		missing_stages(in, buf, sizeof(buf));
		if (buf[0])
			fprintf(out, "not recorded: %s\n", buf);
	}
	if (in->mode != ET_MODE_STOCK && (in->present & ET_HAVE_RAW_SYSCALLS))
		fprintf(out, "warning:     raw_syscalls was enabled: SYSCALL_WORK_SYSCALL_TRACEPOINT ran on every syscall, so the measured path includes the tracepoint work\n");
	nr_inv = et_mode_invisible(in->mode, in->present, inv, ET_ARRAY_SIZE(inv));
	for (size_t i = 0; i < nr_inv; i++)
		fprintf(out, "%s %s\n", i ? "            " : "not visible:", inv[i]);
	fprintf(out, "events:      %" PRIu64 " records, %" PRIu64 " decoded",
		f->counts.records, f->counts.used);
	if (f->counts.lost_events || f->counts.lost_unknown) {
		fprintf(out, ", LOST: %" PRIu64 " events", f->counts.lost_events);
		if (f->counts.lost_unknown)
			fprintf(out, " + %" PRIu64 " gaps of unknown size",
				f->counts.lost_unknown);
		fprintf(out, " (per CPU:");
		for (int c = 0; c < f->counts.nr_cpus; c++)
			fprintf(out, " %d:%" PRIu64, c, f->counts.lost_per_cpu[c]);
		fprintf(out, ")");
	} else {
		fprintf(out, ", no events lost");
	}
	if (in->present & ET_HAVE_BATCH) {
		fprintf(out, "; %" PRIu64 " packed batches", f->counts.batches);
		if (f->counts.lost_batches)
			fprintf(out, ", LOST: %" PRIu64 " batches (gaps in their CPU's numbers)",
				f->counts.lost_batches);
	}
	fprintf(out, "\n");
	text_damage(&f->counts, out);
	if (f->tl.hist_cells && !f->tl.syscalls)
		fprintf(out, "syscalls:    none one at a time: the kernel aggregated them (below)");
	else
		fprintf(out, "syscalls:    %" PRIu64 " seen, %" PRIu64 " complete, by %" PRIu64 " task%s",
			f->tl.syscalls, f->tl.complete, f->tl.syscall_tasks,
			f->tl.syscall_tasks == 1 ? "" : "s");
	if (f->tl.tasks != f->tl.syscall_tasks)
		fprintf(out, " (%" PRIu64 " in all events)", f->tl.tasks);
	if (f->tl.seq_lost)
		fprintf(out, ", %" PRIu64 " missing from sequence gaps", f->tl.seq_lost);
	fprintf(out, "\n");
	if (f->tl.batch_held)
		fprintf(out, "             %8" PRIu64 " records waited for an earlier one of their task "
			"(it had moved CPU: another CPU's batch came first)\n", f->tl.batch_held);
	if (f->tl.batch_late)
		fprintf(out, "             %8" PRIu64 " records came too late to be put in order "
			"(after a later one of their task)\n", f->tl.batch_late);
	for (int b = 0; b < 16; b++)
		if (f->tl.excluded[b])
			fprintf(out, "             %8" PRIu64 " excluded: %s\n",
				f->tl.excluded[b], flag_text[b]);
	for (int b = 0; b < 16; b++)
		if (f->tl.flagged[b] && !(ET_SC_INCOMPLETE & (1u << b)))
			fprintf(out, "             %8" PRIu64 " %s\n", f->tl.flagged[b],
				flag_text[b]);
	if (f->tl.event_cost_samples)
		fprintf(out, "tracer:      one entry_stage event costs ~%" PRIu64 " ns here "
			"(median of %" PRIu64 " back-to-back pairs)\n", f->tl.event_cost,
			f->tl.event_cost_samples);
	text_stamps(&f->tl, et_file_unit(f), out);
	if (f->tl.overlays_dropped)
		fprintf(out, "             %8" PRIu64 " syscalls had more interrupts/switches than kept for --exclusive\n",
			f->tl.overlays_dropped);
	if (f->tl.stray || f->tl.dup_stage)
		fprintf(out, "             %8" PRIu64 " events fit no syscall, %" PRIu64
			" duplicate stages\n", f->tl.stray, f->tl.dup_stage);
}

/* The report's kind of input: its first file's (they are one kind), or NULL. */
static const struct et_file_kind *report_kind(const struct et_report *rep)
{
	return rep->nr_files ? rep->files[0].kind : NULL;
}

static bool stage_shown(const struct et_report *rep, int stage)
{
	return !rep->filter || !rep->filter->stages ||
	       (rep->filter->stages & (1ull << stage));
}

static const char *const unit_names[] = {
	[ET_UNIT_NS] = "ns", [ET_UNIT_US] = "us", [ET_UNIT_MS] = "ms", [ET_UNIT_S] = "s",
};

int et_unit_by_name(const char *name)
{
	for (size_t i = 0; i < ET_ARRAY_SIZE(unit_names); i++)
		if (!strcmp(name, unit_names[i]))
			return (int)i;
	return -1;
}

/* One syscall [work]'s run of cells in the table, and what it sorts by. */
struct cell_run {
	size_t first, n;
	double key;
	const char *name;
	int nr;
};

static int cmp_runs(const void *a, const void *b)
{
	const struct cell_run *x = a, *y = b;

	if (x->name)	/* by name */
		return strcmp(x->name, y->name) ? strcmp(x->name, y->name) : x->nr - y->nr;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->first < y->first ? -1 : 1;
}

static void text_cells(const struct et_report *rep, FILE *out)
{
	const struct et_cell **cells;
	size_t n = et_stats_cells(rep->stats, &cells), nr_runs = 0;
	char nb[32], wb[160], lb[48], ab[96];
	bool by_work = et_stats_by_work(rep->stats), by_arg = et_stats_by_arg(rep->stats);
	const struct et_file_kind *k = report_kind(rep);
	bool samples = k && k->samples;
	enum et_unit u = k && k->unit ? ET_UNIT_NS : rep->unit;	/* a fixed unit: as counted */
	struct cell_run *runs = calloc(n + 1, sizeof(*runs));
	size_t shown;

	if (!runs) {
		fprintf(out, "\n(out of memory: no table)\n");
		return;
	}
	/* the cells come grouped per syscall [work], its total first */
	for (size_t i = 0; i < n; i++) {
		if (!i || cells[i]->nr != cells[i - 1]->nr || cells[i]->work != cells[i - 1]->work) {
			runs[nr_runs++] = (struct cell_run){ .first = i, .nr = cells[i]->nr };
			if (rep->sort == ET_SORT_NAME) {
				const char *sn = et_syscall_name(rep->names, cells[i]->nr);

				runs[nr_runs - 1].name = sn ? sn : "~";	/* unnamed last */
			}
		}
		runs[nr_runs - 1].n++;
		if (cells[i]->stage == ET_SLOT_TOTAL)
			runs[nr_runs - 1].key = et_sort_key(rep->sort, &cells[i]->hist);
	}
	if (rep->sort != ET_SORT_TOTAL)
		qsort(runs, nr_runs, sizeof(*runs), cmp_runs);
	shown = rep->top && (size_t)rep->top < nr_runs ? (size_t)rep->top : nr_runs;

	fprintf(out, "\n%-16s %-18s", "syscall", "stage");
	et_cols_text_head(out, samples);
	fprintf(out, "\n");
	for (size_t r = 0; r < shown; r++) {
		const char *name = syscall_name(rep, runs[r].nr, nb, sizeof(nb));

		if (by_work || by_arg) {
			uint32_t key = cells[runs[r].first]->work;

			fprintf(out, "%s", et_syscall_label(name, key, ab, sizeof(ab)));
			if (by_work)
				fprintf(out, "[%s]", et_work_str(key, wb, sizeof(wb)));
			fprintf(out, "\n");
			name = "";
		}
		for (size_t i = runs[r].first; i < runs[r].first + runs[r].n; i++) {
			const struct et_cell *c = cells[i];
			const struct et_hist *h = &c->hist;

			if (!stage_shown(rep, c->stage))
				continue;
			fprintf(out, "%-16s %-18s", name, et_stage_label(c->stage, lb, sizeof(lb)));
			name = "";
			et_cols_text_row(out, h, u, samples);
			if (et_stages[c->stage].kind == ET_KIND_AGG && c->agg_count != h->count)
				fprintf(out, "  (%" PRIu64 " occurrences)", c->agg_count);
			fprintf(out, "\n");
		}
	}
	if (shown < nr_runs)
		fprintf(out, "(%zu more syscall%s by %s not shown: --top %d)\n", nr_runs - shown,
			by_work ? " [work] groups" : by_arg ? " (args) groups" : "s",
			et_sort_name(rep->sort), rep->top);
	free(runs);
}

static void text_groups(const struct et_report *rep, enum et_breakdown by,
			FILE *out)
{
	static const char *const title[] = {
		[ET_BY_PID] = "task", [ET_BY_CPU] = "cpu", [ET_BY_RET] = "result",
	};
	const struct et_group **g;
	size_t n = et_stats_groups(rep->stats, by, &g);
	char nb[32], kb[4 * ET_COMM_LEN + 24], eb[16], nt[4 * ET_COMM_LEN + 1], pb[4 * ET_COMM_LEN + 48];
	int last_nr = -2, shown = 0, width = 22;
	size_t skipped = 0;

	if (!n)
		return;
	/* the task column as wide as its widest name text (escapes included) */
	for (size_t i = 0; by == ET_BY_PID && i < n; i++) {
		int w;

		snprintf(kb, sizeof(kb), "%s-%ld", et_name_text(g[i]->comm, nt, sizeof(nt)),
			 g[i]->key);
		w = et_text_width(kb);
		if (w > width)
			width = w;
	}
	fprintf(out, "\n%-16s %s", "syscall", et_pad_text(title[by], width, true, pb, sizeof(pb)));
	et_cols_group_head(out);
	fprintf(out, "   (total per syscall, by %s)\n", title[by]);
	for (size_t i = 0; i < n; i++) {
		const struct et_hist *h = &g[i]->hist;
		const char *name = "";

		if (g[i]->nr != last_nr) {
			if (skipped)
				fprintf(out, "%-16s ... %zu more (see --json)\n", "", skipped);
			name = syscall_name(rep, g[i]->nr, nb, sizeof(nb));
			last_nr = g[i]->nr;
			shown = 0;
			skipped = 0;
		}
		if (shown++ >= TOP_GROUPS) {
			skipped++;
			continue;
		}
		if (by == ET_BY_PID)
			snprintf(kb, sizeof(kb), "%s-%ld",
				 et_name_text(g[i]->comm, nt, sizeof(nt)), g[i]->key);
		else if (by == ET_BY_CPU)
			snprintf(kb, sizeof(kb), "%ld", g[i]->key);
		else
			snprintf(kb, sizeof(kb), "%s", errno_name(g[i]->key, eb, sizeof(eb)));
		fprintf(out, "%-16s %s", name, et_pad_text(kb, width, true, pb, sizeof(pb)));
		et_cols_group_row(out, h);
		fprintf(out, "\n");
	}
	if (skipped)
		fprintf(out, "%-16s ... %zu more (see --json)\n", "", skipped);
}

/* How much --exclusive and --no-overhead took off, over all cells. */
static void text_subtracted(const struct et_report *rep, FILE *out)
{
	const struct et_cell **cells;
	size_t n = et_stats_cells(rep->stats, &cells);
	uint64_t sub = 0, ovh = 0, all = 0;

	for (size_t i = 0; i < n; i++) {
		if (cells[i]->stage != ET_SLOT_TOTAL)
			continue;
		sub += cells[i]->sub_total;
		ovh += cells[i]->ovh_total;
		all += cells[i]->hist.total + cells[i]->sub_total + cells[i]->ovh_total;
	}
	fprintf(out, "taken off the totals: %" PRIu64 " ns of interrupts/preemption, %" PRIu64
		" ns of tracer events (%.2f%% of %" PRIu64 " ns)\n", sub, ovh,
		all ? 100.0 * (double)(sub + ovh) / (double)all : 0.0, all);
}

static void text_excluded(const struct et_report *rep, FILE *out)
{
	char nb[32], fb[128];

	if (!rep->show_excluded)
		return;
	char task[4 * ET_COMM_LEN + 16], nt[4 * ET_COMM_LEN + 1], pb[4 * ET_COMM_LEN + 48];
	int width = 22;

	for (size_t i = 0; i < rep->nr_excluded; i++) {
		const struct et_syscall *sc = &rep->excluded[i];

		snprintf(task, sizeof(task), "%s-%d", et_name_text(sc->comm, nt, sizeof(nt)), sc->pid);
		if (et_text_width(task) > width)
			width = et_text_width(task);
	}
	fprintf(out, "\n%zu syscalls excluded from the table:\n", rep->nr_excluded);
	fprintf(out, "%s %-16s %9s %16s %16s %7s  %s\n", et_pad_text("task", width, true, pb, sizeof(pb)),
		"syscall", "ret", "enter(s)", "exit(s)", "cpus", "why");
	for (size_t i = 0; i < rep->nr_excluded; i++) {
		const struct et_syscall *sc = &rep->excluded[i];

		snprintf(task, sizeof(task), "%s-%d", et_name_text(sc->comm, nt, sizeof(nt)), sc->pid);
		fprintf(out, "%s %-16s %9ld %16.6f %16.6f %3d>%-3d  %s\n",
			et_pad_text(task, width, true, pb, sizeof(pb)),
			syscall_name(rep, sc->nr, nb, sizeof(nb)), sc->ret,
			sc->ts_enter / 1e9, sc->ts_exit / 1e9, sc->cpu_enter, sc->cpu_exit,
			et_sc_flags_str(sc->flags, fb, sizeof(fb)));
	}
}

static int render_text(const struct et_report *rep, FILE *out)
{
	const struct et_file_kind *k = report_kind(rep);
	const struct et_sections *sec = et_sections_of(k);

	for (int i = 0; i < rep->nr_files; i++) {
		if (i)
			fprintf(out, "\n");
		text_file(&rep->files[i], out);
	}
	if (rep->filtered_out)
		fprintf(out, "filtered:    %" PRIu64 " complete syscalls left out by filters\n",
			rep->filtered_out);
	if (!et_stats_syscalls(rep->stats)) {
		fprintf(out, "\nno complete syscall matched: nothing to tabulate\n");
		if (sec->text_tail)
			sec->text_tail(rep, out);
		return 0;
	}
	fprintf(out, "\n%" PRIu64 " syscalls in the table; %s; percentiles within %s%s%s\n",
		et_stats_syscalls(rep->stats),
		k && k->legend ? k->legend :
		et_info_virtual_clock(&rep->files[0].info) ?
		(rep->unit == ET_UNIT_NS ? "times in virtual ns (QEMU -icount: one per guest instruction)" :
		 "times in virtual time (QEMU -icount: 1 ns per guest instruction)") :
		rep->unit == ET_UNIT_NS ? "times in ns" : rep->unit == ET_UNIT_US ? "times in us" :
		rep->unit == ET_UNIT_MS ? "times in ms" : "times in s",
		rep->files[0].tl.hist_cells ? "1.6% (the kernel's buckets)" : "0.4%",
		rep->exclusive ? "; exclusive of interrupts and preemption" : "",
		rep->no_overhead ? "; tracer overhead taken off" : "");
	if (rep->exclusive || rep->no_overhead)
		text_subtracted(rep, out);
	text_cells(rep, out);
	/* samples have no task, CPU or result */
	if (rep->breakdown && !(k && k->samples))
		for (int by = 0; by < ET_BY_NR_BREAKDOWNS; by++)
			text_groups(rep, by, out);
	text_excluded(rep, out);
	if (sec->text_tail)
		sec->text_tail(rep, out);
	return 0;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */


/* "KEY": [v0, v1, ...], one value per CPU */
static void json_per_cpu(FILE *out, const char *key, const uint64_t *v, int nr_cpus)
{
	fprintf(out, "\"%s\": [", key);
	for (int c = 0; c < nr_cpus; c++)
		fprintf(out, "%s%" PRIu64, c ? ", " : "", v[c]);
	fprintf(out, "]");
}
static void json_file(const struct et_report_file *f, FILE *out)
{
	const struct et_sections *sec = et_sections_of(f->kind);
	const struct et_trace_info *in = &f->info;
	const char *inv[8];
	size_t nr_inv;
	char buf[1024];

	fprintf(out, "    {\"path\": ");
	et_json_str(out, in->path);
	fprintf(out, ", \"kind\": \"%s\"", f->kind->key);
	if (sec->json_file)
		sec->json_file(f, out);
	fprintf(out, ", \"uname\": ");
	et_json_str(out, in->uname);
	fprintf(out, ", \"machine\": ");
	et_json_str(out, in->machine);
	fprintf(out, ", \"file_version\": %lu, \"compression\": ", in->file_version);
	if (in->compression)
		et_json_str(out, in->compression);
	else
		fprintf(out, "null");
	fprintf(out, ", \"cpus\": %d, \"clock\": ", in->cpus);
	et_json_str(out, in->clock);
	fprintf(out, ",\n     \"mode\": \"%s\", \"events_present\": ", et_mode_name(in->mode));
	et_present_str(in->present, buf, sizeof(buf));
	et_json_str(out, buf);
	fprintf(out, ", \"not_recorded\": ");
	if (in->mode == ET_MODE_STAGES) {
		missing_stages(in, buf, sizeof(buf));
		et_json_str(out, buf);
	} else {
		fprintf(out, "null");
	}
	fprintf(out, ", \"invisible\": [");
	nr_inv = et_mode_invisible(in->mode, in->present, inv, ET_ARRAY_SIZE(inv));
	for (size_t i = 0; i < nr_inv; i++) {
		fprintf(out, "%s", i ? ", " : "");
		et_json_str(out, inv[i]);
	}
	fprintf(out, "],\n     \"records\": %" PRIu64 ", \"decoded\": %" PRIu64
		", \"lost_events\": %" PRIu64 ", \"lost_unknown_gaps\": %" PRIu64 ", ",
		f->counts.records, f->counts.used, f->counts.lost_events, f->counts.lost_unknown);
	json_per_cpu(out, "lost_per_cpu", f->counts.lost_per_cpu, f->counts.nr_cpus);
	if (in->present & ET_HAVE_BATCH)
		fprintf(out, ", \"batches\": %" PRIu64 ", \"lost_batches\": %" PRIu64
			", \"batches_unexplained\": %" PRIu64, f->counts.batches,
			f->counts.lost_batches, f->counts.batches_unexplained);
	fprintf(out, ",\n     \"damaged\": %s, ",
		et_counts_damaged(&f->counts) ? "true" : "false");
	json_per_cpu(out, "pages_per_cpu", f->counts.pages_per_cpu, f->counts.nr_cpus);
	fprintf(out, ", ");
	json_per_cpu(out, "pages_read_per_cpu", f->counts.pages_read_per_cpu, f->counts.nr_cpus);
	fprintf(out, ", ");
	json_per_cpu(out, "time_back_per_cpu", f->counts.time_back_per_cpu, f->counts.nr_cpus);
	fprintf(out, ", ");
	json_per_cpu(out, "bad_pages_per_cpu", f->counts.bad_pages_per_cpu, f->counts.nr_cpus);
	fprintf(out, ", ");
	json_per_cpu(out, "unread_bytes_per_cpu", f->counts.unread_bytes_per_cpu, f->counts.nr_cpus);
	fprintf(out, ", \"implausible_syscalls\": %" PRIu64 ", \"seq_unexplained\": %" PRIu64,
		f->counts.implausible, f->counts.seq_unexplained);
	fprintf(out, ", \"abi_errors\": %" PRIu64 ", \"unknown_stages\": %" PRIu64
		", \"first_ts\": %.9f, \"last_ts\": %.9f", f->counts.abi_errors,
		f->counts.unknown_stages, f->info.first_ts / 1e9, f->counts.last_ts / 1e9);
	fprintf(out, ", \"unregistered_records\": %" PRIu64 ", \"short_records\": %" PRIu64
		", \"syscalls_beyond_table\": %" PRIu64 ", \"index_mismatches\": [",
		f->counts.unregistered, f->counts.short_records, f->counts.bad_nr);
	for (const char *l = f->counts.index_mismatches ? f->counts.index_notes : NULL, *first = l;
	     l && *l; ) {
		const char *nl = strchr(l, '\n');
		char line[512];

		snprintf(line, sizeof(line), "%.*s", nl ? (int)(nl - l) : (int)strlen(l), l);
		fprintf(out, "%s", l == first ? "" : ", ");
		et_json_str(out, line);
		l = nl ? nl + 1 : NULL;
	}
	fprintf(out, "]");
	fprintf(out, ",\n     \"syscalls\": {\"seen\": %" PRIu64 ", \"complete\": %" PRIu64
		", \"tasks\": %" PRIu64 ", \"tasks_in_events\": %" PRIu64 ", \"seq_lost\": %" PRIu64
		", \"stray_events\": %" PRIu64 ", \"duplicate_stages\": %" PRIu64, f->tl.syscalls,
		f->tl.complete, f->tl.syscall_tasks, f->tl.tasks, f->tl.seq_lost, f->tl.stray,
		f->tl.dup_stage);
	if (in->present & ET_HAVE_BATCH)
		fprintf(out, ", \"batch_held\": %" PRIu64 ", \"batch_late\": %" PRIu64,
			f->tl.batch_held, f->tl.batch_late);
	fprintf(out, ",\n       \"aggregated\": {\"cells\": %" PRIu64 ", \"syscalls\": %" PRIu64
		", \"kernel_dropped\": %" PRIu64 ", \"orphan_cells\": %" PRIu64
		", \"saturated\": %" PRIu64 ", \"mean_only_cells\": %" PRIu64 "}",
		f->tl.hist_cells, f->tl.hist_syscalls, f->tl.hist_dropped, f->tl.hist_orphans,
		f->tl.hist_saturated, f->tl.hist_mean_only);
	fprintf(out, ",\n       \"flagged\": {");
	for (int b = 0, n = 0; b < 16; b++)
		if (flag_names[b])
			fprintf(out, "%s\"%s\": %" PRIu64, n++ ? ", " : "", flag_names[b],
				f->tl.flagged[b]);
	fprintf(out, "},\n       \"excluded\": {");
	for (int b = 0, n = 0; b < 16; b++)
		if (flag_names[b] && (ET_SC_INCOMPLETE & (1u << b)))
			fprintf(out, "%s\"%s\": %" PRIu64, n++ ? ", " : "", flag_names[b],
				f->tl.excluded[b]);
	fprintf(out, "},\n       \"event_cost_ns\": %" PRIu64 ", \"event_cost_samples\": %" PRIu64
		", \"overlays_dropped\": %" PRIu64, f->tl.event_cost,
		f->tl.event_cost_samples, f->tl.overlays_dropped);
	fprintf(out, ",\n       \"stamp_ns\": %.3f, \"agg_stamp_ns\": %.3f, \"stamps_subtracted\": %s"
		", \"stamp_corrected\": %" PRIu64 ", \"stamp_uncorrected\": %" PRIu64
		", \"sample\": %u, \"pmu\": %s}}", f->tl.stamp_ns, f->tl.agg_ns,
		f->tl.raw_stamps || !(f->tl.stamp_ns > 0) ? "false" : "true",
		f->tl.stamp_corrected, f->tl.stamp_uncorrected, f->tl.sample ? f->tl.sample : 1,
		f->tl.pmu ? "true" : "false");
}

static int render_json(const struct et_report *rep, FILE *out)
{
	const struct et_cell **cells;
	size_t n = et_stats_cells(rep->stats, &cells);
	char nb[32], wb[160], eb[16];
	bool first = true;
	const struct et_file_kind *k = report_kind(rep);
	const struct et_sections *sec = et_sections_of(k);
	double div = k && k->samples ? 1 : 1e9;	/* exemplars: sample numbers, or ns */

	fprintf(out, "{\n  \"stage_abi\": %d,\n  \"unit\": \"%s\",\n  \"files\": [\n",
		ENTRY_STAGE_ABI, rep->nr_files ? et_file_unit(&rep->files[0]) : "ns");
	for (int i = 0; i < rep->nr_files; i++) {
		json_file(&rep->files[i], out);
		fprintf(out, "%s\n", i + 1 < rep->nr_files ? "," : "");
	}
	fprintf(out, "  ],\n  \"filtered_out\": %" PRIu64 ",\n  \"syscalls\": %" PRIu64
		",\n  \"cells\": [\n", rep->filtered_out, et_stats_syscalls(rep->stats));
	for (size_t i = 0; i < n; i++) {
		const struct et_cell *c = cells[i];

		if (!stage_shown(rep, c->stage))
			continue;
		fprintf(out, "%s    {\"syscall\": ", first ? "" : ",\n");
		first = false;
		et_json_str(out, syscall_name(rep, c->nr, nb, sizeof(nb)));
		fprintf(out, ", \"nr\": %d, \"work\": ", c->nr);
		if (et_stats_by_work(rep->stats))
			et_json_str(out, et_work_str(c->work, wb, sizeof(wb)));
		else
			fprintf(out, "null");	/* not split: every path together */
		if (et_stats_by_arg(rep->stats)) {	/* null: no shape for these arguments */
			fprintf(out, ", \"args\": ");
			if (c->work & ET_WORK_SHAPE_MASK)
				et_json_str(out, et_shape_str(c->work, wb, sizeof(wb)));
			else
				fprintf(out, "null");
		}
		fprintf(out, ", \"stage\": \"%s\", \"phase\": \"%s\", \"kind\": \"%s\", ",
			et_stages[c->stage].name, et_phase_name(et_stages[c->stage].phase),
			et_kind_name(et_stages[c->stage].kind));
		et_cols_json(out, &c->hist, div);
		fprintf(out, ", \"occurrences\": %" PRIu64 ", \"subtracted_exclusive\": %" PRIu64
			", \"subtracted_overhead\": %" PRIu64 "}", c->agg_count, c->sub_total,
			c->ovh_total);
	}
	fprintf(out, "\n  ],\n  \"breakdown\": {");
	for (int by = 0; by < ET_BY_NR_BREAKDOWNS; by++) {
		static const char *const key[] = {
			[ET_BY_PID] = "pid", [ET_BY_CPU] = "cpu", [ET_BY_RET] = "errno",
		};
		const struct et_group **g;
		size_t ng = et_stats_groups(rep->stats, by, &g);

		fprintf(out, "%s\n    \"%s\": [", by ? "," : "", key[by]);
		for (size_t i = 0; i < ng; i++) {
			fprintf(out, "%s\n      {\"syscall\": ", i ? "," : "");
			et_json_str(out, syscall_name(rep, g[i]->nr, nb, sizeof(nb)));
			fprintf(out, ", \"nr\": %d, \"%s\": %ld", g[i]->nr, key[by], g[i]->key);
			if (by == ET_BY_PID) {
				char nt[4 * ET_COMM_LEN + 1];

				fprintf(out, ", \"comm\": ");
				et_json_str(out, et_name_text(g[i]->comm, nt, sizeof(nt)));
			} else if (by == ET_BY_RET) {
				fprintf(out, ", \"name\": ");
				et_json_str(out, errno_name(g[i]->key, eb, sizeof(eb)));
			}
			fprintf(out, ", ");
			et_cols_json(out, &g[i]->hist, div);
			fprintf(out, "}");
		}
		fprintf(out, "%s]", ng ? "\n    " : "");
	}
	fprintf(out, "\n  }");
	if (rep->show_excluded) {
		char fb[128];

		fprintf(out, ",\n  \"excluded_syscalls\": [");
		for (size_t i = 0; i < rep->nr_excluded; i++) {
			const struct et_syscall *sc = &rep->excluded[i];

			char nt[4 * ET_COMM_LEN + 1];

			fprintf(out, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", sc->pid);
			et_json_str(out, et_name_text(sc->comm, nt, sizeof(nt)));
			fprintf(out, ", \"syscall\": ");
			et_json_str(out, syscall_name(rep, sc->nr, nb, sizeof(nb)));
			fprintf(out, ", \"nr\": %d, \"ret\": %ld, \"enter\": %.9f, \"exit\": %.9f, "
				"\"cpu_enter\": %d, \"cpu_exit\": %d, \"flags\": \"%s\"}",
				sc->nr, sc->ret, sc->ts_enter / 1e9, sc->ts_exit / 1e9,
				sc->cpu_enter, sc->cpu_exit,
				et_sc_flags_str(sc->flags, fb, sizeof(fb)));
		}
		fprintf(out, "%s]", rep->nr_excluded ? "\n  " : "");
	}
	if (sec->json_tail)
		sec->json_tail(rep->files, rep->nr_files, out);
	fprintf(out, "\n}\n");
	return 0;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

static void csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
}

static int render_csv(const struct et_report *rep, FILE *out)
{
	const struct et_cell **cells;
	size_t n = et_stats_cells(rep->stats, &cells);
	char nb[32], wb[160];

	bool by_arg = et_stats_by_arg(rep->stats);

	fprintf(out, "syscall,nr,work,%sstage,phase,", by_arg ? "args," : "");
	et_cols_csv_head(out);
	fprintf(out, ",occurrences\n");
	for (size_t i = 0; i < n; i++) {
		const struct et_cell *c = cells[i];
		const struct et_hist *h = &c->hist;

		if (!stage_shown(rep, c->stage))
			continue;
		csv_field(out, syscall_name(rep, c->nr, nb, sizeof(nb)));
		fprintf(out, ",%d,", c->nr);
		if (et_stats_by_work(rep->stats))	/* empty: not split */
			csv_field(out, et_work_str(c->work, wb, sizeof(wb)));
		if (by_arg) {
			fputc(',', out);
			csv_field(out, et_shape_str(c->work, wb, sizeof(wb)));
		}
		fprintf(out, ",%s,%s,", et_stages[c->stage].name,
			et_phase_name(et_stages[c->stage].phase));
		et_cols_csv_row(out, h);
		fprintf(out, ",%" PRIu64 "\n", c->agg_count);
	}
	return 0;
}

int et_render(const struct et_report *rep, enum et_format fmt, FILE *out)
{
	switch (fmt) {
	case ET_FMT_TEXT:
		return render_text(rep, out);
	case ET_FMT_JSON:
		return render_json(rep, out);
	case ET_FMT_CSV:
		return render_csv(rep, out);
	}
	return -1;
}
