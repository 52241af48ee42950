// SPDX-License-Identifier: LGPL-2.1
/*
 * Filters: which syscalls a report keeps - by task, name, syscall, CPU, a
 * window of entry times and result; the stages to show ride along.
 */
#include <string.h>

#include "entrytrace-local.h"

bool et_filter_match(const struct et_filter *f, const struct et_syscall *sc,
		     uint64_t first_ts)
{
	int i;

	if (!f || !(f->nr_pids | f->nr_comms | f->nr_syscalls | f->nr_cpus |
		    f->have_window | f->result_ok | f->result_error | f->nr_errnos))
		return true;
	if (f->result_ok | f->result_error | f->nr_errnos) {
		bool err = sc->ret < 0 && sc->ret >= -4095, hit;

		hit = (f->result_ok && !err) || (f->result_error && err);
		for (i = 0; i < f->nr_errnos && !hit; i++)
			hit = err && -sc->ret == f->errnos[i];
		if (!hit)
			return false;
	}
	if (f->nr_pids) {
		for (i = 0; i < f->nr_pids && f->pids[i] != sc->pid; i++)
			;
		if (i == f->nr_pids)
			return false;
	}
	if (f->nr_comms) {
		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], sc->comm); i++)
			;
		if (i == f->nr_comms)
			return false;
	}
	if (f->nr_syscalls) {
		for (i = 0; i < f->nr_syscalls && f->syscalls[i] != sc->nr; i++)
			;
		if (i == f->nr_syscalls)
			return false;
	}
	if (f->nr_cpus) {
		for (i = 0; i < f->nr_cpus && f->cpus[i] != sc->cpu_enter &&
			    f->cpus[i] != sc->cpu_exit; i++)
			;
		if (i == f->nr_cpus)
			return false;
	}
	if (f->have_window) {
		double base = f->window_relative ? (double)first_ts / 1e9 : 0;
		double t = (double)sc->ts_enter / 1e9 - base;

		if (t < f->window_start || t > f->window_end)
			return false;
	}
	return true;
}
