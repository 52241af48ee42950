// SPDX-License-Identifier: LGPL-2.1
/*
 * Timeline, tasks: the table of tasks by pid and their names.
 *
 * Task names: until an event names a task (sched_switch, fork, rename,
 * exit), the only name is the file's saved cmdlines entry, which is the
 * pid's *last* name - wrong for syscalls before an exec.  Such a task's
 * syscalls are held back (at most ET_HOLD_MAX) until its name is confirmed,
 * then labelled with the name they really ran under.
 */
#include <stdlib.h>
#include <string.h>

#include "timeline-local.h"

static size_t slot_of(const struct et_timeline *tl, int pid)
{
	return ((uint32_t)pid * 2654435761u) & (tl->nr_slots - 1);
}

bool tl_tasks_grow(struct et_timeline *tl)
{
	size_t n = tl->nr_slots ? tl->nr_slots * 2 : 1024;
	struct et_task **old = tl->slots;
	size_t old_n = tl->nr_slots;

	tl->slots = calloc(n, sizeof(*tl->slots));
	if (!tl->slots) {
		tl->slots = old;
		return false;
	}
	tl->nr_slots = n;
	for (size_t i = 0; i < old_n; i++) {
		struct et_task *t = old[i];
		size_t s;

		if (!t)
			continue;
		for (s = slot_of(tl, t->pid); tl->slots[s]; s = (s + 1) & (n - 1))
			;
		tl->slots[s] = t;
	}
	free(old);
	return true;
}

struct et_task *tl_task_find(struct et_timeline *tl, int pid)
{
	if (tl->last && tl->last->pid == pid)
		return tl->last;
	for (size_t s = slot_of(tl, pid); tl->slots[s];
	     s = (s + 1) & (tl->nr_slots - 1))
		if (tl->slots[s]->pid == pid)
			return tl->last = tl->slots[s];
	return NULL;
}

struct et_task *tl_task_get(struct et_timeline *tl, int pid)
{
	struct et_task *t = tl_task_find(tl, pid);
	size_t s;

	if (t)
		return t;
	if ((tl->nr_tasks + 1) * 2 > tl->nr_slots && !tl_tasks_grow(tl))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tgid = -1;
	for (int i = 0; i < ET_ARGS_RING; i++)
		t->args[i].nr = -1;
	for (s = slot_of(tl, pid); tl->slots[s]; s = (s + 1) & (tl->nr_slots - 1))
		;
	tl->slots[s] = t;
	tl->nr_tasks++;
	tl->counts.tasks++;
	return t;
}

/*
 * A name into a comm buffer, zero-padded: a syscall takes its task's
 * buffer whole, and the stats find its per-task group by comparing the 16
 * bytes at once (stats.c's same_comm()).  A shorter name over a longer
 * one left the longer one's tail behind the NUL, and every syscall of the
 * task missed the group cache (a map lookup and a strncmp each).
 */
static void set_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, ET_COMM_LEN - 1);

	memcpy(dst, src, n);
	memset(dst + n, 0, ET_COMM_LEN - n);
}

/* tl_task_comm()'s first time: the file's cmdlines name, until an event confirms it */
const char *tl_task_comm_slow(struct et_timeline *tl, struct et_task *t)
{
	const char *c = et_trace_comm(tl->trace, t->pid);

	set_comm(t->comm, c ? c : "<...>");
	t->comm_known = true;
	t->comm_tentative = true;
	return t->comm;
}

void tl_flush_held(struct et_timeline *tl, struct et_task *t)
{
	for (size_t i = 0; i < t->nr_held; i++)
		tl->sink(&t->held[i], tl->data);
	t->nr_held = 0;
}

/*
 * An event says what the task was called up to now (before: NULL when only
 * the new name is known) and what it is called from now on (now).
 */
void tl_task_name(struct et_timeline *tl, struct et_task *t,
		      const char *before, const char *now)
{
	if (t->comm_tentative) {
		for (size_t i = 0; i < t->nr_held; i++) {
			if (before && before[0])
				set_comm(t->held[i].comm, before);
			else
				tl->counts.comm_unverified++;
		}
		tl_flush_held(tl, t);
		t->comm_tentative = false;
		if (before && before[0]) {
			/* cur and pend began under the old name too */
			set_comm(CUR(t)->comm, before);
			set_comm(PEND(t)->comm, before);
		}
	}
	if (now && now[0]) {
		set_comm(t->comm, now);
		t->comm_known = true;
	}
}
