// SPDX-License-Identifier: GPL-2.0
/* qemu_plugin_install(): the options, the site file, the state set up. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

static int refuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PLUGIN_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return -1;
}

/* NAME:NAME...: the names, into a list of their own; how many */
static int split_names(const char *arg, char ***names, int *n)
{
	char *t = strdup(arg), *save = NULL;

	if (!t)
		die_oom();
	for (char *name = strtok_r(t, ":", &save); name; name = strtok_r(NULL, ":", &save)) {
		*names = realloc(*names, (*n + 1) * sizeof(char *));
		if (!*names)
			die_oom();
		(*names)[(*n)++] = name;
	}
	return *n;
}

ET_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				       int argc, char **argv)
{
	char err[512];
	const char *samples = NULL;

	if (info->version.min > ET_QEMU_PLUGIN_VERSION ||
	    info->version.cur < ET_QEMU_PLUGIN_VERSION)
		return refuse("written for QEMU plugin API version %d; this QEMU offers %d..%d",
			      ET_QEMU_PLUGIN_VERSION, info->version.min, info->version.cur);
	P.qemu_api_min = info->version.min;
	P.qemu_api_cur = info->version.cur;
	P.user_mode = !info->system_emulation;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		/* QEMU before 6.1 and "arg=..." pass key=value as the value of arg */
		if (!strncmp(a, "arg=", 4))
			a += 4;
		if (!strncmp(a, "sites=", 6)) {
			P.opt.sites_path = strdup(a + 6);
		} else if (!strncmp(a, "out=", 4)) {
			P.opt.out_path = strdup(a + 4);
		} else if (!strncmp(a, "samples=", 8)) {
			samples = P.opt.samples_arg = a + 8;
		} else if (!strncmp(a, "tables=", 7)) {
			P.opt.tables_arg = a + 7;
			if (!split_names(a + 7, &P.opt.table_names, &P.opt.ntable_names))
				return refuse("tables=%s: no syscall name", a + 7);
		} else if (!strcmp(a, "topk=all")) {
			P.opt.topk = 0;
		} else if (!strncmp(a, "topk=", 5)) {
			char *end;
			long v = strtol(a + 5, &end, 10);

			if (*end || v < 1 || v > 1000)
				return refuse("topk=%s: want a number from 1 to 1000, or all", a + 5);
			P.opt.topk = v;
		} else if (!strncmp(a, "detail=", 7)) {
			char *d = strdup(a + 7), *save = NULL, *end;

			for (char *t = strtok_r(d, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
				P.opt.detail_seqs = realloc(P.opt.detail_seqs, (P.opt.ndetail + 1) * sizeof(*P.opt.detail_seqs));
				if (!P.opt.detail_seqs)
					die_oom();
				P.opt.detail_seqs[P.opt.ndetail++] = strtoull(t, &end, 10);
				if (*end || !*t)
					return refuse("detail=%s: want syscall sequence numbers, "
						      "SEQ:SEQ...", a + 7);
			}
			free(d);
		} else if (!strncmp(a, "calls=", 6)) {
			P.opt.calls_arg = a + 6;
			if (!split_names(a + 6, &P.opt.call_names, &P.opt.ncall_names))
				return refuse("calls=%s: no function name", a + 6);
		} else if (!strcmp(a, "armed=ok")) {
			P.opt.armed_ok = true;
		} else if (!strncmp(a, "armed=", 6)) {
			return refuse("armed=%s: the only value is ok", a + 6);
		} else if (!strncmp(a, "model=", 6)) {
			P.opt.model_path = strdup(a + 6);
		} else if (!strcmp(a, "disas=check")) {
			P.opt.disas_check = true;
		} else if (!strncmp(a, "disas=", 6)) {
			return refuse("disas=%s: the only value is check", a + 6);
		} else {
			return refuse("unknown argument '%s' (sites=FILE out=FILE [samples=all|none|"
				      "NAME:NAME...] [tables=NAME:NAME...] [topk=N|all] [detail=SEQ:SEQ...] "
				      "[calls=FUNC:FUNC...] [armed=ok] [disas=check] [model=CPU.params])", a);
		}
	}
	if (P.opt.model_path && !*P.opt.model_path)
		return refuse("model=: no parameter file (analyzer/qemu-plugin/cpus/*.params)");
	if (P.user_mode) {
		/*
		 * User-mode QEMU: the timing model alone, over the whole program
		 * (the host validation, Documentation/cycles-model.md); no kernel,
		 * no site file, every instruction is user space.
		 */
		if (!P.opt.model_path)
			return refuse("needs system emulation (qemu-system-*), not user mode "
				      "(user mode runs the timing model alone: model=FILE)");
		if (P.opt.sites_path)
			return refuse("sites=%s: user mode has no kernel to place", P.opt.sites_path);
		if (strcmp(info->target_name, "x86_64"))
			return refuse("user mode: x86_64 only (the host validation), not %s",
				      info->target_name);
		snprintf(P.sf.arch_name, sizeof(P.sf.arch_name), "x86_64");
		P.sf.arch = ARCH_X86_64;
		snprintf(P.sf.build_id, sizeof(P.sf.build_id), "none");
		snprintf(P.sf.table_hash, sizeof(P.sf.table_hash), "none");
	}
	if (!P.user_mode && (!P.opt.sites_path || !*P.opt.sites_path))
		return refuse("sites=FILE missing (the site file of scripts/kernel/build/kernel-sites)");
	if (!P.opt.out_path || !*P.opt.out_path)
		return refuse("out=FILE missing (where the counts go)");
	if (!P.user_mode && sitefile_read(P.opt.sites_path, &P.sf, err, sizeof(err)))
		return refuse("%s", err);
	if (!P.user_mode &&
	    strcmp(info->target_name, P.sf.arch == ARCH_X86_64 ? "x86_64" : P.sf.ppc32 ? "ppc" : "ppc64"))
		return refuse("%s is a site file for %s, this QEMU emulates %s", P.opt.sites_path,
			      P.sf.arch_name, info->target_name);
	if (!P.user_mode && info->system.smp_vcpus != 1)
		return refuse("-smp %d: plugin API v1 has no per-vCPU inline counters, so the "
			      "counts of several vCPUs would mix; run with -smp 1",
			      info->system.smp_vcpus);
	if (samples && !strcmp(samples, "none")) {
		P.opt.samples_none = true;
	} else if (samples && strcmp(samples, "all") &&
		   !split_names(samples, &P.opt.sample_names, &P.opt.nsample_names)) {
		return refuse("samples=%s: no syscall name", samples);
	}
	/* check that out= can be written now, not at exit */
	{
		char tmp[4096];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", P.opt.out_path);
		f = fopen(tmp, "w");
		if (!f)
			return refuse("out=%s: %s", P.opt.out_path, strerror(errno));
		fclose(f);
		remove(tmp);
	}

	classify_init(P.sf.arch);
	if (P.opt.model_path) {
		P.model = model_load(P.opt.model_path, info->target_name, err, sizeof(err));
		if (!P.model || model_check(P.model, err, sizeof(err)))
			return refuse("%s", err);
	}
	/*
	 * calls=: each function's entry instruction counts as a kind of class
	 * call (ELFv2: the local entry point, which calls through the global
	 * entry reach too), so that the tables say how often it was called.
	 */
	for (int i = 0; i < P.opt.ncall_names; i++) {
		char kname[MIX_KIND_NAME];
		size_t f;
		int k;

		for (f = 0; f < P.sf.nfuncs; f++)
			if (!strcmp(P.sf.funcs[f].name, P.opt.call_names[i]))
				break;
		if (f == P.sf.nfuncs)
			return refuse("calls=%s: no function %s in the site file", P.opt.calls_arg,
				      P.opt.call_names[i]);
		snprintf(kname, sizeof(kname), "call:%s", P.opt.call_names[i]);
		k = classify_add_kind(kname, C_CALL);
		if (k < 0)
			return refuse("calls=%s: too many instruction kinds", P.opt.calls_arg);
		*map_slot(&P.calls, P.sf.funcs[f].addr + P.sf.funcs[f].lep) = k + 1;
	}
	P.nacc = P.sf.nstages + 4;
	P.acc_whole = P.sf.nstages;
	P.acc_total = P.sf.nstages + 1;
	P.acc_gap = P.sf.nstages + 2;
	P.acc_outside = P.sf.nstages + 3;
	P.acc_pending = P.sf.nstages + 4;	/* not written: settled into others */
	for (int s = 0; s < P.sf.nstages; s++)
		if (P.sf.stages[s].body)
			P.body_mask |= 1ULL << s;
	if (P.sf.sites_mode && !P.body_mask)
		return refuse("%s: no BODY stage without a parent: cannot name syscalls",
			      P.opt.sites_path);
	P.n_user = intern(&P.sf, "[user]");
	P.n_unsynced = intern(&P.sf, "[unsynced]");
	new_slot(0, -1, -1, -1);	/* SLOT_USER */
	/* user mode: the program's first thread (other threads are counted, not modelled) */
	P.nvcpus = !P.user_mode && info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
	P.vcpus = calloc(P.nvcpus, sizeof(*P.vcpus));
	if (!P.vcpus)
		die_oom();
	for (int i = 0; i < P.nvcpus; i++) {
		P.vcpus[i].base = P.user_mode ? BASE_USER : BASE_UNSYNCED;
		P.vcpus[i].user_since = P.user_mode ? 0 : -1;
	}
	if (P.model)
		model_vcpus(P.model, P.nvcpus);
	for (size_t i = 0; i < P.sf.nmarkers; i++)
		*map_slot(&P.markers, P.sf.markers[i].addr) = i + 1;

	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	if (P.user_mode)
		fprintf(stderr, PLUGIN_NAME ": %s user mode, timing model %s\n", P.sf.arch_name,
			P.opt.model_path);
	else
		fprintf(stderr, PLUGIN_NAME ": %s, %s mode, %zu markers (%zu sites), %zu functions, "
			"build id %s%s%s\n", P.sf.arch_name, P.sf.sites_mode ? "sites" : "fallback",
			P.sf.nmarkers, P.sf.nsites, P.sf.nfuncs, P.sf.build_id,
			P.model ? ", timing model " : "", P.model ? P.opt.model_path : "");
	return 0;
}
