// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace mix: a QEMU TCG plugin (plugin API version 1) that counts the
 * guest instructions of every syscall, per entry_stage stage, with no
 * instruction added to the guest.
 *
 *   qemu-system-... -plugin build/entrytrace-mix.so,sites=K.sites,out=RUN.mix
 *
 * Counting: every translated kernel instruction gets an inline add to the
 * counter of its address (a dense slot per kernel instruction met, one for
 * all of user space); its function and its kind (classify.c, calls=) are
 * properties of the slot, so the function, kind and class tables are sums
 * over slots, and the per-address table (insn/at lines) says which
 * instruction ran how often in each stage.  Marker instructions (the site file:
 * entry vectors, interrupt vectors, return instructions, the context switch,
 * syscall handler entries, entry_stage sites) get a callback instead, which
 * takes the counters' deltas since the previous marker ("harvest"), gives
 * them to whatever was current (user, an interrupt, a syscall and its open
 * stages), counts the marker instruction itself and makes the transition.
 * Nothing runs per instruction but the inline adds.
 *
 * Where a marker's own instruction goes: a vector's first instruction
 * belongs to the frame it opens; a return instruction to the frame it
 * closes; a site's NOP to the interval before it (as a stamp reads the
 * clock after the NOP).  Documentation/qemu-plugin.md has the rest.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugin.h"

ET_QEMU_EXPORT int qemu_plugin_version = ET_QEMU_PLUGIN_VERSION;

const char *const flag_names[NFLAGS] = {
#define MIX_FLAG(SYM, name, what) #name,
#include "mix-format.def"
};

/* the plugin's one state */
struct mix_plugin P = {
	.opt = { .samples_arg = "all", .tables_arg = "all", .calls_arg = "none" },
};

void die_oom(void)
{
	fprintf(stderr, PLUGIN_NAME ": out of memory\n");
	abort();
}

static void vsappend(const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	for (;;) {
		va_copy(aq, ap);
		n = vsnprintf(P.samp + P.nsamp, P.capsamp - P.nsamp, fmt, aq);
		va_end(aq);
		if (n >= 0 && (size_t)n < P.capsamp - P.nsamp)
			break;
		P.capsamp = P.capsamp ? 2 * P.capsamp : 1 << 20;
		P.samp = realloc(P.samp, P.capsamp);
		if (!P.samp)
			die_oom();
	}
	P.nsamp += n;
}

void sappend_emit(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsappend(fmt, ap);
	va_end(ap);
}
