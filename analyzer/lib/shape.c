// SPDX-License-Identifier: LGPL-2.1
/*
 * Argument shapes: the arguments that choose a syscall's path.
 *
 * One syscall number can run paths of very different length: kill(-1, 0)
 * asks every process on the system (kill_something_info() walks them, each
 * target through check_kill_permission() and its LSM hook), kill(pid, 0)
 * asks one, kill(pid, 99) none (-EINVAL before any check).  A shape is a
 * small code computed from the arguments of the syscalls listed below; it
 * rides in the high bits of a statistics row's key, so that report, diff
 * and their JSON split a syscall by it (--by-arg) as they split it by
 * path signature (--by-work).
 *
 * The code is the same for every trace, so two files' rows pair by it:
 *
 *	shape = (target class << 7) | signal code	(0: no shape)
 *
 * target class: who the pid argument names (ET_TGT_*); signal code: the
 * signal number 0..64, or ET_SIG_BAD for one the kernel refuses (valid_signal()
 * is sig <= _NSIG, 64 on x86 and powerpc).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "entrytrace-local.h"

_Static_assert(ET_WORK_NR <= ET_WORK_SHAPE_SHIFT,
	       "path signature bits run into the argument shape's");

enum {
	ET_TGT_SELF = 1,	/* the caller's own process (or thread) */
	ET_TGT_PID,		/* another pid */
	ET_TGT_PGRP_SELF,	/* 0: the caller's process group */
	ET_TGT_ALL,		/* -1: every process it may signal */
	ET_TGT_PGRP,		/* -pgid */
	ET_TGT_INT_MIN,		/* refused with ESRCH before any lookup */
	ET_TGT_BAD,		/* tgkill/tkill: a pid the kernel refuses (EINVAL) */
};

#define ET_SIG_BAD	65
#define ET_SIG_MAX	64	/* _NSIG on x86 and powerpc */

/*
 * The syscalls whose arguments choose their path, and where those
 * arguments are: the pid (for tgkill, the thread group) and the signal.
 */
static const struct shape_syscall {
	const char *name;
	int8_t pid;		/* argument index */
	int8_t sig;
	bool thread;		/* tkill/tgkill: pid <= 0 is EINVAL */
} shape_syscalls[] = {
	{ "kill",	0, 1, false },
	{ "tkill",	0, 1, true },
	{ "tgkill",	0, 2, true },
};

static const char *const tgt_names[] = {
	[ET_TGT_SELF] = "self",		[ET_TGT_PID] = "pid",
	[ET_TGT_PGRP_SELF] = "0",	[ET_TGT_ALL] = "-1",
	[ET_TGT_PGRP] = "-pgrp",	[ET_TGT_INT_MIN] = "INT_MIN",
	[ET_TGT_BAD] = "bad",
};

/* Linux's numbers on x86 and powerpc (not alpha, mips, parisc, sparc). */
static const char *const sig_names[32] = {
	"0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
	"SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM",
	"SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN",
	"SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH",
	"SIGIO", "SIGPWR", "SIGSYS",
};

void et_shapes_init(struct et_shapes *sh, const struct et_trace *trace)
{
	sh->n = 0;
	for (size_t i = 0; i < ET_ARRAY_SIZE(shape_syscalls) && sh->n < ET_SHAPE_SYSCALLS; i++) {
		int nr = et_syscall_number(trace, shape_syscalls[i].name);

		if (nr >= 0)
			sh->nr[sh->n] = nr, sh->which[sh->n++] = (uint8_t)i;
	}
}

uint32_t et_shape_of(const struct et_shapes *sh, int nr, const long *arg, int nargs,
		     int pid, int tgid)
{
	const struct shape_syscall *s = NULL;
	int target, sig, tclass, scode;

	for (int i = 0; i < sh->n; i++)
		if (sh->nr[i] == nr)
			s = &shape_syscalls[sh->which[i]];
	if (!s || nargs <= s->pid || nargs <= s->sig)
		return 0;
	/* pid_t and int: the low 32 bits of the register, as the kernel reads them */
	target = (int)(unsigned int)arg[s->pid];
	sig = (int)(unsigned int)arg[s->sig];
	if (s->thread && target <= 0)
		tclass = ET_TGT_BAD;
	else if (target == pid || (tgid > 0 && target == tgid))
		tclass = ET_TGT_SELF;
	else if (target > 0)
		tclass = ET_TGT_PID;
	else if (target == 0)
		tclass = ET_TGT_PGRP_SELF;
	else if (target == -1)
		tclass = ET_TGT_ALL;
	else if (target == INT_MIN)
		tclass = ET_TGT_INT_MIN;
	else
		tclass = ET_TGT_PGRP;
	scode = sig < 0 || sig > ET_SIG_MAX ? ET_SIG_BAD : sig;
	return (uint32_t)(tclass << 7 | scode);
}

char *et_shape_str(uint32_t key, char *buf, size_t size)
{
	uint32_t shape = (key & ET_WORK_SHAPE_MASK) >> ET_WORK_SHAPE_SHIFT;
	unsigned int tclass = shape >> 7, scode = shape & 0x7f;
	char sb[16];
	const char *sig = sb;

	if (!shape || tclass >= ET_ARRAY_SIZE(tgt_names) || !tgt_names[tclass]) {
		snprintf(buf, size, "%s", shape ? "?" : "");
		return buf;
	}
	if (scode == ET_SIG_BAD)
		sig = "bad";
	else if (scode < ET_ARRAY_SIZE(sig_names))
		sig = sig_names[scode];
	else
		snprintf(sb, sizeof(sb), "SIGRTMIN+%u", scode - 32);
	snprintf(buf, size, "%s, %s", tgt_names[tclass], sig);
	return buf;
}

const char *et_syscall_label(const char *name, uint32_t key, char *buf, size_t size)
{
	char sb[48];

	if (!(key & ET_WORK_SHAPE_MASK))
		return name;
	snprintf(buf, size, "%s(%s)", name, et_shape_str(key, sb, sizeof(sb)));
	return buf;
}
