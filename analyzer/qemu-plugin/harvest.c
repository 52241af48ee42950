// SPDX-License-Identifier: GPL-2.0
/* The markers' callbacks: counters harvested into frames; syscalls and stages. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "mix-write.h"

/* m: the timing model's NMET counters of the entry, or NULL */
static void add_ent(struct sysrec *sc, int type, int acc, uint32_t id, uint64_t n,
		    const uint64_t *m)
{
	if (sc->nents == sc->capents) {
		sc->capents = sc->capents ? 2 * sc->capents : 256;
		sc->ents = realloc(sc->ents, sc->capents * sizeof(*sc->ents));
		if (!sc->ents)
			die_oom();
		if (P.model && !(sc->ments = realloc(sc->ments, sc->capents * sizeof(*sc->ments))))
			die_oom();
	}
	if (P.model) {
		if (m)
			memcpy(sc->ments[sc->nents], m, sizeof(sc->ments[0]));
		else
			memset(sc->ments[sc->nents], 0, sizeof(sc->ments[0]));
	}
	sc->ents[sc->nents++] = (struct ent){ .type = type, .acc = acc, .id = id, .n = n };
}

/*
 * Give total instructions (their slots) to what is current on v; met: the
 * timing model's counters of each delta (NULL: the model is off).
 */
static void attribute(struct vcpu *v, uint64_t total, const struct delta *ds,
		      uint64_t (*met)[NMET], int nd)
{
	uint64_t mt[NMET] = { 0 };

	if (met)
		for (int i = 0; i < nd; i++)
			met_add(mt, met[i]);
	if (!total && !(met && met_any(mt)))
		return;
	if (met)
		met_add(P.mtotal, mt);
	if (!v->depth) {
		int name = v->base == BASE_USER ? P.n_user : P.n_unsynced;

		if (v->base == BASE_USER) {
			P.count.ins_user += total;
			if (v->user_since >= 0) {
				v->user_since += total;
				if (met)
					met_add(v->user_m, mt);
			}
		} else {
			P.count.ins_unsynced += total;
		}
		for (int i = 0; i < nd; i++) {
			uint64_t key = sum_key(name, P.acc_whole, 0, ds[i].id);

			if (ds[i].n)
				*map_slot(&P.sums, key) += ds[i].n;
			if (met)
				met_add(msum_of(key), met[i]);
		}
		return;
	}
	struct frame *f = &v->st[v->depth - 1];

	if (f->type == FR_IRQ) {
		f->insns += total;
		P.count.ins_irq += total;
		if (met)
			met_add(f->m, mt);
		for (int i = 0; i < nd; i++) {
			uint64_t key = sum_key(f->vector, P.acc_whole, 0, ds[i].id);

			if (ds[i].n)
				*map_slot(&P.sums, key) += ds[i].n;
			if (met)
				met_add(msum_of(key), met[i]);
		}
		return;
	}
	struct sysrec *sc = &v->sc;
	int accs[MAX_ACC], na = 0;

	P.count.ins_syscall += total;
	accs[na++] = P.acc_whole;
	if (P.sf.sites_mode) {
		if (sc->window) {
			accs[na++] = P.acc_total;
			if (!sc->open)
				accs[na++] = P.acc_gap;
			for (uint64_t o = sc->open; o; o &= o - 1)
				accs[na++] = __builtin_ctzll(o);
		} else {
			accs[na++] = sc->pending ? P.acc_pending : P.acc_outside;
		}
	}
	for (int a = 0; a < na; a++) {
		sc->acc[accs[a]] += total;
		sc->entered[accs[a]] = true;
		if (met)
			met_add(sc->macc[accs[a]], mt);
		for (int i = 0; i < nd; i++)
			add_ent(sc, 0, accs[a], ds[i].id, ds[i].n, met ? met[i] : NULL);
	}
}

void harvest(struct vcpu *v)
{
	uint64_t total = 0;
	int nd = 0;

	for (int c = 0; c <= (P.nslots - 1) >> CHUNK_BITS; c++) {
		int first = c << CHUNK_BITS, end = P.nslots < first + CHUNK ? P.nslots : first + CHUNK;

		for (int b = 0; first + 64 * b < end; b++) {
			uint64_t *cn = P.cnt_chunk[c] + 64 * b;
			int n = end - (first + 64 * b) < 64 ? end - (first + 64 * b) : 64;

			if (!P.hint_chunk[c][b])
				continue;
			P.hint_chunk[c][b] = 0;
			for (int i = 0; i < n; i++) {
				uint64_t *mm = P.model ? slot_met(first + 64 * b + i) : NULL;

				if (!cn[i] && !(mm && met_any(mm)))
					continue;
				if (mm) {
					memcpy(P.dmet[nd], mm, sizeof(P.dmet[0]));
					memset(mm, 0, sizeof(P.dmet[0]));
				}
				P.dslot[nd++] = (struct delta){ first + 64 * b + i, cn[i] };
				total += cn[i];
				cn[i] = 0;
			}
		}
	}
	attribute(v, total, P.dslot, P.model ? P.dmet : NULL, nd);
}

/* ---- frames --------------------------------------------------------------- */
static bool want_sample(int name)
{
	if (P.opt.samples_none)
		return false;
	if (!P.opt.sample_names)
		return true;
	for (int i = 0; i < P.opt.nsample_names; i++)
		if (!strcmp(P.opt.sample_names[i], P.sf.names[name]))
			return true;
	return false;
}

bool want_table(int name)
{
	if (!P.opt.table_names)
		return true;
	for (int i = 0; i < P.opt.ntable_names; i++)
		if (!strcmp(P.opt.table_names[i], P.sf.names[name]))
			return true;
	return false;
}

static void write_sample(const struct sysrec *sc)
{
	char flags[128] = "ok", *vals = NULL;
	size_t o = 0, len = 0;
	FILE *t = open_memstream(&vals, &len);	/* the values, KEY=VALUE each */

	if (!t)
		die_oom();

	for (int i = 0; i < NFLAGS; i++)
		if (sc->flags & (1u << i))
			o += (size_t)snprintf(flags + o, sizeof(flags) - o, "%s%s", o ? "," : "",
					      flag_names[i]);
	if (sc->user_before >= 0)
		fprintf(t, "user=%" PRId64, sc->user_before);
	else
		fprintf(t, "user=-");
	fprintf(t, " whole=%" PRIu64 " irq=%" PRIu64 " nirq=%" PRIu64,
		sc->acc[P.acc_whole], sc->irq, sc->nirq);
	if (P.sf.sites_mode) {
		fprintf(t, " total=%" PRIu64 " gap=%" PRIu64 " outside=%" PRIu64,
			sc->acc[P.acc_total], sc->acc[P.acc_gap], sc->acc[P.acc_outside]);
		for (int s = 0; s < P.sf.nstages; s++) {
			if (!sc->entered[s])
				continue;
			fprintf(t, " s.%s=%" PRIu64, P.sf.stages[s].name, sc->acc[s]);
			if (sc->runs[s] != 1)
				fprintf(t, " r.%s=%" PRIu32, P.sf.stages[s].name, sc->runs[s]);
		}
	}
	/* the timing model (version 3), last: the whole syscall's and the user gap's cycles */
	if (P.model) {
		const uint64_t *w = sc->macc[P.acc_whole];

		fprintf(t, " cyc_lo=%" PRIu64 " cyc=%" PRIu64 " cyc_hi=%" PRIu64,
			met_cycles(w[M_CYC_LO]), met_cycles(w[M_CYC]), met_cycles(w[M_CYC_HI]));
		if (sc->user_before >= 0)
			fprintf(t, " ucyc_lo=%" PRIu64 " ucyc=%" PRIu64 " ucyc_hi=%" PRIu64,
				met_cycles(sc->user_m[M_CYC_LO]), met_cycles(sc->user_m[M_CYC]),
				met_cycles(sc->user_m[M_CYC_HI]));
	}
	if (fclose(t) || !vals)
		die_oom();
	mix_sput(SAMPLE, .seq = sc->seq, .name = P.sf.names[sc->name], .flags = flags,
		 .values = vals);
	free(vals);
}

/* detail=: one syscall's whole instructions by function, merged */
static void write_detail(const struct sysrec *sc)
{
	struct map m = { 0 };

	/* keys: function index + 2 (user -2, unknown -1) */
	for (size_t i = 0; i < sc->nents; i++)
		if (sc->ents[i].type == 0 && sc->ents[i].acc == P.acc_whole)
			*map_slot(&m, slot_func(sc->ents[i].id) + 2) += sc->ents[i].n;
	for (size_t i = 0; i < m.cap; i++)
		if (m.k[i])
			mix_sput(DETAIL, .seq = sc->seq, .name = P.sf.names[sc->name],
				 .func = func_name((int)(m.k[i] - 1) - 2), .n = m.v[i]);
	free(m.k);
	free(m.v);
}

/*
 * What ran since a restart's end: the restart stage's (and total's) if
 * another restart follows (several restarts in a row are one stage, from
 * the first begin to the last end), outside's if the syscall returns.
 */
static void settle_pending(struct sysrec *sc, int stage)
{
	size_t n = sc->nents;
	int to = stage >= 0 ? stage : P.acc_outside;

	if (!sc->pending)
		return;
	sc->pending = false;
	for (size_t i = 0; i < n; i++) {
		struct ent e = sc->ents[i];

		if (e.acc != P.acc_pending)
			continue;
		sc->ents[i].acc = to;
		if (stage >= 0)
			add_ent(sc, e.type, P.acc_total, e.id, e.n, P.model ? sc->ments[i] : NULL);
	}
	if (P.model) {
		met_add(sc->macc[to], sc->macc[P.acc_pending]);
		if (stage >= 0)
			met_add(sc->macc[P.acc_total], sc->macc[P.acc_pending]);
		memset(sc->macc[P.acc_pending], 0, sizeof(sc->macc[0]));
	}
	if (!sc->acc[P.acc_pending])
		return;
	sc->acc[to] += sc->acc[P.acc_pending];
	sc->entered[to] = true;
	if (stage >= 0)
		sc->acc[P.acc_total] += sc->acc[P.acc_pending];
	sc->acc[P.acc_pending] = 0;
}

void finish_syscall(struct vcpu *v, unsigned reason)
{
	struct sysrec *sc = &v->sc;

	settle_pending(sc, -1);
	sc->flags |= reason;
	P.count.syscalls++;
	if (sc->flags & F_SETAPART) {
		P.count.setapart++;
		for (int i = 0; i < NFLAGS; i++)
			if (reason & (1u << i))
				*map_slot(&P.sums, sum_key(sc->name, P.acc_whole, 2, i)) += 1;
	} else {
		for (int a = 0; a < P.nacc; a++)
			if (sc->entered[a]) {
				stat_push(sc->name, a, sc->acc[a], a < P.sf.nstages ? sc->runs[a] : 1);
				if (P.model)
					stat_push_met(sc->name, a, sc->macc[a]);
			}
		for (size_t i = 0; i < sc->nents; i++) {
			struct ent *e = &sc->ents[i];
			uint64_t key = sum_key(sc->name, e->acc, e->type, e->id);

			/* (a slot the timing model charged after it ran: cycles, no count) */
			if (e->n)
				*map_slot(&P.sums, key) += e->n;
			if (P.model)
				met_add(msum_of(key), sc->ments[i]);
		}
	}
	if (want_sample(sc->name))
		write_sample(sc);
	for (int i = 0; i < P.opt.ndetail; i++)
		if (P.opt.detail_seqs[i] == sc->seq)
			write_detail(sc);
}

static void begin_syscall(struct vcpu *v)
{
	struct sysrec *sc = &v->sc;
	struct ent *ents = sc->ents;
	uint64_t (*ments)[NMET] = sc->ments, (*macc)[NMET] = sc->macc;
	size_t cap = sc->capents;

	memset(sc, 0, sizeof(*sc));
	sc->ents = ents;
	sc->capents = cap;
	if (P.model) {
		sc->ments = ments;
		sc->macc = macc ? macc : malloc(MAX_ACC * sizeof(*macc));
		if (!sc->macc)
			die_oom();
		memset(sc->macc, 0, MAX_ACC * sizeof(*macc));
		memcpy(sc->user_m, v->user_m, sizeof(sc->user_m));
	}
	sc->seq = P.seq++;
	sc->name = 0;
	sc->user_before = v->base == BASE_USER ? v->user_since : -1;
	if (v->user_irq && sc->user_before >= 0)
		sc->flags |= F_GAPIRQ;
	v->st[0] = (struct frame){ .type = FR_SYSCALL };
	v->depth = 1;
}

/* every open frame ends without its return: a context switch, a desync */
static void abandon(struct vcpu *v, unsigned reason)
{
	for (int d = v->depth - 1; d >= 0; d--) {
		if (v->st[d].type == FR_SYSCALL)
			finish_syscall(v, reason);
		else
			P.count.abandoned_irqs++;
	}
	v->depth = 0;
	v->base = BASE_UNSYNCED;
	v->user_since = -1;
	v->user_irq = false;
	memset(v->user_m, 0, sizeof(v->user_m));
}

static void enter_syscall(struct vcpu *v)
{
	if (v->depth) {
		P.count.desync++;
		abandon(v, F_DESYNC);
	}
	begin_syscall(v);
}

static void enter_irq(struct vcpu *v, int vector)
{
	if (v->depth == MAX_DEPTH) {
		P.count.overflow++;
		return;
	}
	if (!v->depth && v->base == BASE_USER)
		v->user_irq = true;
	v->st[v->depth++] = (struct frame){ .type = FR_IRQ, .vector = vector };
}

static void do_return(struct vcpu *v, const struct marker *m)
{
	struct frame *f;

	if (!v->depth) {
		P.count.unmatched_returns++;
		if (m->to_user && v->base == BASE_UNSYNCED) {
			/* sysret/rfscv only go to user mode: in step again */
			v->base = BASE_USER;
			v->user_since = 0;
			v->user_irq = false;
			memset(v->user_m, 0, sizeof(v->user_m));
		}
		return;
	}
	f = &v->st[--v->depth];
	if (f->type == FR_IRQ) {
		P.count.irqs++;
		stat_push(f->vector, P.acc_whole, f->insns, 1);
		if (P.model)
			stat_push_met(f->vector, P.acc_whole, f->m);
		if (v->depth && v->st[0].type == FR_SYSCALL) {
			P.count.irqs_in_syscall++;
			v->sc.irq += f->insns;
			v->sc.nirq++;
			v->sc.flags |= F_IRQ;
		}
		return;
	}
	finish_syscall(v, 0);
	v->base = BASE_USER;
	v->user_since = 0;
	v->user_irq = false;
	memset(v->user_m, 0, sizeof(v->user_m));
}

static void anomaly(struct sysrec *sc, uint64_t *counter)
{
	(*counter)++;
	sc->flags |= F_ANOMALY;
}

static void stage_begin(struct sysrec *sc, int s)
{
	uint64_t bit = 1ULL << s;

	if (sc->open & bit)
		anomaly(sc, &P.count.reopen);
	sc->open |= bit;
	sc->runs[s]++;
	sc->entered[s] = true;
}

static void stage_end(struct sysrec *sc, int s)
{
	uint64_t bit = 1ULL << s;

	if (!(sc->open & bit))
		anomaly(sc, &P.count.end_not_open);
	sc->open &= ~bit;
}

/* powerpc's syscall_exit_restart(): a DEFERRED stage after the syscall ended */
static void restart_begin(struct sysrec *sc, const struct site *s)
{
	sc->window = true;
	sc->restart = true;
	if (!sc->restart_seen) {
		sc->restart_seen = true;
		sc->restart_stage = s->stage;
		stage_begin(sc, s->stage);
	} else {
		settle_pending(sc, sc->restart_stage);
		sc->open |= 1ULL << sc->restart_stage;
	}
}

/* entry_stage_restart_end(): in a restart window, the one site that counts */
static bool restart_end(struct sysrec *sc, const struct site *s)
{
	if (s->stage != sc->restart_stage) {
		P.count.ign_tail++;
		return false;
	}
	stage_end(sc, s->stage);
	sc->window = false;
	sc->restart = false;
	sc->pending = true;
	return true;
}

static void syscall_end(struct sysrec *sc)
{
	if (sc->open) {
		P.count.unclosed += __builtin_popcountll(sc->open);
		sc->flags |= F_ANOMALY;
	}
	sc->open = 0;
	sc->window = false;
	sc->tail = false;
	sc->window_done = true;
}

/* Does a site count here: in the window, not in a restart of the exit, not after the tail begin? */
static bool counts_here(const struct sysrec *sc)
{
	return sc->window && !sc->restart && !sc->tail;
}

/* counts_here(), counting the sites it ignores */
static bool in_window(struct sysrec *sc)
{
	if (counts_here(sc))
		return true;
	if (!sc->window)
		P.count.ign_outside_window++;	/* SHARED sites outside a syscall, ... */
	else
		P.count.ign_tail++;
	return false;
}

static void edge(struct sysrec *sc, const struct site *s)
{
	switch (s->edge) {
	case EDGE_BEGIN:
		stage_begin(sc, s->stage);
		break;
	case EDGE_END:
		stage_end(sc, s->stage);
		break;
	case EDGE_SWITCH:
		stage_end(sc, s->stage);
		stage_begin(sc, s->stage2);
		break;
	}
}

/*
 * The actions of scripts/lib/siteabi.py's ACTIONS (site-abi.h's
 * SITE_ACTIONS), one each, for the site forms of include/linux/entry_stage.h
 * and entry_stage_stamp.h: every stamp but the markers tests
 * entry_stage_cur (set from the syscall begin to its end, cleared by the
 * tail begin).  Each says whether the site did what its action is (false:
 * ignored, or an anomaly).
 */
static bool act_window_open(struct sysrec *sc, const struct site *s)
{
	/* entry_stage_syscall_begin() */
	if (sc->window) {
		anomaly(sc, &P.count.begin_in_window);
		return false;
	}
	if (sc->window_done)
		anomaly(sc, &P.count.window_reopened);
	sc->window = true;
	return true;
}

static bool act_tail_open(struct sysrec *sc, const struct site *s)
{
	/* entry_stage_tail_begin(): only the tail's end counts from here */
	if (!in_window(sc))
		return false;
	sc->tail = true;
	return true;
}

static bool act_restart_begin(struct sysrec *sc, const struct site *s)
{
	if (sc->window) {
		if (in_window(sc))
			anomaly(sc, &P.count.begin_in_window);	/* a restart inside the syscall */
		return false;
	}
	if (!sc->window_done) {
		P.count.ign_outside_window++;	/* the kernel restarts the exit of a staged syscall */
		return false;
	}
	restart_begin(sc, s);
	return true;
}

static bool act_tail_end(struct sysrec *sc, const struct site *s)
{
	/* entry_stage_tail_end(), entry_stage_restart_end(): SYSCALL_END, not SHARED */
	if (!sc->window) {
		P.count.ign_outside_window++;
		return false;
	}
	if (sc->restart)
		return restart_end(sc, s);
	if (!sc->tail) {
		anomaly(sc, &P.count.end_outside_tail);	/* the kernel ignores it */
		return false;
	}
	stage_end(sc, s->stage);
	syscall_end(sc);
	return true;
}

static bool act_syscall_end(struct sysrec *sc, const struct site *s)
{
	/* entry_stage_syscall_end(): SYSCALL_END|SHARED */
	if (sc->window && sc->restart)
		return restart_end(sc, s);
	if (!in_window(sc))
		return false;
	stage_end(sc, s->stage);
	syscall_end(sc);
	return true;
}

static bool act_resume_switch(struct sysrec *sc, const struct site *s)
{
	if (!in_window(sc))
		return false;
	edge(sc, s);
	/* a resumed stage is one run in two pieces, as the kernel counts it */
	sc->runs[s->stage2]--;
	return true;
}

static bool act_agg_edge(struct sysrec *sc, const struct site *s)
{
	if (!in_window(sc))
		return false;
	/* entry_stage_agg_*(): the body's AGG stages count inside the body only */
	if (P.sf.stages[s->stage].phase == PH_BODY && !(sc->open & P.body_mask)) {
		P.count.ign_agg_outside_body++;
		return false;
	}
	edge(sc, s);
	return true;
}

static bool act_edge(struct sysrec *sc, const struct site *s)
{
	if (!in_window(sc))
		return false;
	edge(sc, s);
	return true;
}

static bool act_tail_stage(struct sysrec *sc, const struct site *s)
{
	/* entry_stage_tail_stage_begin()/_end(): stamped while the tail is open */
	if (!sc->window || (!sc->tail && !sc->restart)) {
		P.count.ign_outside_window++;
		return false;
	}
	if (sc->restart) {
		P.count.ign_tail++;	/* in a restart only its end counts */
		return false;
	}
	edge(sc, s);
	return true;
}

static bool (*const site_acts[SITE_NACTIONS])(struct sysrec *, const struct site *) = {
#define SITE_ACTION(SYM, name) [SITE_ACT_##SYM] = act_##name,
	SITE_ACTIONS(SITE_ACTION)
#undef SITE_ACTION
};

/*
 * A zero-width marker (the plain copy of a path) at the end of a
 * conditional block has the address of the code where the paths join:
 * there it ends (or switches from) a stage only the other path opened.
 * Such a marker is that path's, not this one's: skipped, and counted.
 */
static bool other_path(const struct sysrec *sc, const struct site *s)
{
	return SITE_IS_MARK(s->flags) && s->edge != EDGE_BEGIN && s->stage != STAGE_NONE &&
	       counts_here(sc) && !(sc->open & 1ULL << s->stage);
}

/* A site counts only in the syscall frame (not in an interrupt): then its action. */
static void site_hit(struct vcpu *v, const struct site *s)
{
	P.count.site_hits++;
	if (!v->depth || v->st[v->depth - 1].type != FR_SYSCALL) {
		P.count.ign_not_syscall++;	/* interrupt context, or not in step */
		return;
	}
	if (other_path(&v->sc, s)) {
		P.count.ign_other_path++;
		return;
	}
	if (site_acts[s->action](&v->sc, s))
		P.site_acted[s->action]++;
}

/* The sites of a marker, in the order they run. */
static void sites_hit(struct vcpu *v, const struct marker *m)
{
	for (int i = 0; i < m->nsite; i++)
		site_hit(v, &m->site[i]);
}

void entrytrace_mix_site_actions(FILE *f)
{
	static const char *const names[SITE_NACTIONS] = {
#define SITE_ACTION(SYM, name) [SITE_ACT_##SYM] = #name,
		SITE_ACTIONS(SITE_ACTION)
#undef SITE_ACTION
	};

	for (int a = 0; a < SITE_NACTIONS; a++)
		fprintf(f, "action %s %" PRIu64 "\n", names[a], P.site_acted[a]);
}

static void handler_hit(struct vcpu *v, const struct marker *m)
{
	struct sysrec *sc = &v->sc;

	if (!v->depth || v->st[v->depth - 1].type != FR_SYSCALL || sc->name)
		return;
	/* with a site table: only once the body has begun */
	if (P.sf.sites_mode && !(sc->open & P.body_mask))
		return;
	sc->name = m->handler;
}

void on_marker(unsigned int cpu, void *udata)
{
	struct marker *m = udata;
	struct vcpu *v;
	struct delta self = { m->slot, 1 };
	uint64_t selfm[1][NMET] = { { m->mbase[0], m->mbase[1], m->mbase[2] } };

	if (cpu >= (unsigned)P.nvcpus)
		return;
	v = &P.vcpus[cpu];
	m->hits++;
	P.count.marker_hits++;
	/* the timing model: what its slot holds (its fetch) goes with the marker instruction */
	if (P.model) {
		uint64_t *mm = slot_met(m->slot);

		met_add(selfm[0], mm);
		memset(mm, 0, NMET * sizeof(*mm));
	}
	harvest(v);
	/* transitions before the marker instruction */
	if (m->roles & R_SYSENTRY)
		enter_syscall(v);
	else if (m->roles & R_VECTOR)
		enter_irq(v, m->vector);
	if (m->roles & R_SWITCH) {
		P.count.switches++;
		abandon(v, F_SWITCHED);
	}
	/* zero-width markers: before the instruction at their address, which follows them */
	if (marker_is_mark(m))
		sites_hit(v, m);
	attribute(v, 1, &self, P.model ? selfm : NULL, 1);
	/* transitions after it */
	if (m->roles & R_HANDLER)
		handler_hit(v, m);
	if (m->roles & R_SITE && !marker_is_mark(m))
		sites_hit(v, m);
	if (m->roles & R_RETURN)
		do_return(v, m);
}
