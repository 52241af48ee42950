// SPDX-License-Identifier: GPL-2.0
/* Translation: inline adds for every kernel instruction, callbacks for markers. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/*
 * A NOP the kernel rewrote at boot (x86 alternatives turn "90 90 90" into
 * "0f 1f 00"; powerpc feature fixups) is still the marker: compare NOP
 * with NOP, everything else byte by byte.
 */
static bool is_nop(const uint8_t *p, size_t n)
{
	size_t i = 0;

	if (P.sf.arch == ARCH_PPC64)
		return n >= 4 && !memcmp(p, P.sf.big_endian ? "\x60\0\0\0" : "\0\0\0\x60", 4);
	while (i < n && p[i] == 0x66)
		i++;
	return (i < n && p[i] == 0x90 && i + 1 == n) ||
	       (i + 1 < n && p[i] == 0x0f && p[i + 1] == 0x1f);
}

/* x86 jmp rel8/rel32, powerpc b: a static branch that is taken */
static bool is_jump(const uint8_t *p, size_t n)
{
	uint32_t w;

	if (P.sf.arch == ARCH_X86_64)
		return n >= 2 && (p[0] == 0xe9 || p[0] == 0xeb);
	if (n < 4)
		return false;
	w = P.sf.big_endian ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
			    (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
	return w >> 26 == 18 && !(w & 3);
}

static bool marker_bytes_match(const struct marker *m, const uint8_t *p, size_t len)
{
	size_t c = len < (size_t)m->nbytes ? len : (size_t)m->nbytes;
	size_t first = 1;

	if (!memcmp(p, m->bytes, c))
		return true;
	/*
	 * A marker before another key's static branch (context tracking's):
	 * the kernel patches it at boot, a NOP or a jump of the same length
	 */
	if (marker_is_mark(m) && len <= (size_t)m->nbytes &&
	    (is_jump(p, len) || is_nop(p, len)) &&
	    (is_jump(m->bytes, len) || is_nop(m->bytes, len)))
		return true;
	if (P.opt.armed_ok && (m->roles & R_SITE) && is_jump(p, len)) {
		P.count.sites_armed++;	/* its event is on: the jump is the site */
		return true;
	}
	if (!is_nop(p, len))
		return false;
	/* the expected bytes: the link-time instruction at the address is a NOP too */
	if (P.sf.arch == ARCH_PPC64)
		return is_nop(m->bytes, 4);
	while (first < (size_t)m->nbytes && m->bytes[first - 1] == 0x66)
		first++;
	if (m->bytes[first - 1] == 0x90)
		return true;	/* one-byte NOP (run), possibly after 0x66 */
	return m->nbytes >= 2 && is_nop(m->bytes, m->nbytes);
}

void hexbytes(char *buf, size_t len, const uint8_t *p, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 3 <= len; i++)
		o += snprintf(buf + o, len - o, "%02x", p[i]);
}

static void check_disas(struct qemu_plugin_insn *insn, uint64_t a, const uint8_t *p,
			size_t n, int bk)
{
	char *d;
	int dk;

	if (map_find(&P.disas_seen, a))
		return;
	/*
	 * powerpc: only what is translated once the kernel is up.  Before the
	 * first syscall firmware and early boot run too, and they run big-endian
	 * (MSR[LE] clear), which the plugin, reading no registers, cannot know.
	 * powerpc's low real addresses are boot code before the vectors are
	 * there.
	 */
	if (P.sf.arch == ARCH_PPC64 && (!P.seq || a < P.sf.realmode_end)) {
		P.count.disas_skipped++;
		return;
	}
	*map_slot(&P.disas_seen, a) = 1;
	d = qemu_plugin_insn_disas(insn);
	if (!d)
		return;
	dk = kind_from_disas(P.sf.arch, d);
	if (dk == -3) {
		P.count.disas_undecodable++;
		g_free(d);
		return;
	}
	if (dk == -2) {
		P.count.disas_undecided++;
		/* an SPR alias: the bytes must say some mtspr/mfspr/mftb, or none */
		if (bk < 0 || !strncmp(classify_kind(bk)->name, "mtspr.", 6) ||
		    !strncmp(classify_kind(bk)->name, "mfspr.", 6) || !strcmp(classify_kind(bk)->name, "mftb")) {
			g_free(d);
			return;
		}
	} else if (dk == bk) {
		P.count.disas_agree++;
		g_free(d);
		return;
	}
	P.count.disas_differ++;
	if (P.nddiff < (int)(sizeof(P.ddiff) / sizeof(*P.ddiff))) {
		struct disas_diff *x = &P.ddiff[P.nddiff++];

		x->addr = a;
		hexbytes(x->bytes, sizeof(x->bytes), p, n);
		snprintf(x->text, sizeof(x->text), "%s", d);
		for (char *c = x->text; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
		x->bk = bk;
		x->dk = dk;
	}
	g_free(d);
}

void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	int last_block = -1;
	int *mslots = NULL;
	uint32_t (*mbase)[NPOINTS] = NULL;

	(void)id;
	P.count.translations++;
	if (P.model) {
		mslots = malloc((n + 1) * sizeof(*mslots));
		mbase = malloc((n + 1) * sizeof(*mbase));
		if (!mslots || !mbase)
			die_oom();
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn);
		const uint8_t *p = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		int kind = classify(P.sf.arch, P.sf.big_endian, p, len);
		uint64_t *mi = map_find(&P.markers, a), *ck = map_find(&P.calls, a);
		int slot = slot_of(a, kind, ck ? (int)*ck - 1 : -1);

		if (P.opt.disas_check)
			check_disas(insn, a, p, len, kind);
		if (P.model) {
			mslots[i] = slot;
			model_insn(P.model, insn, slot, kind, mbase[i]);
		}
		if (mi) {
			struct marker *m = &P.sf.markers[*mi - 1];

			if (marker_bytes_match(m, p, len)) {
				if (!m->checked) {
					m->checked = true;
					P.count.markers_seen++;
				}
				m->slot = slot;
				if (P.model)	/* a marker's cost: on_marker adds it */
					memcpy(m->mbase, mbase[i], sizeof(m->mbase));
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
								       QEMU_PLUGIN_CB_NO_REGS, m);
				last_block = -1;	/* it harvests: hint the next block again */
				continue;
			}
			/*
			 * Other code at the marker's address (powerpc boot code and
			 * firmware at the real-mode vector addresses before the kernel
			 * is there; a static-branch site that is a jmp because its event
			 * is on): not the marker, counted as a plain instruction.
			 */
			P.count.unarmed++;
			if (m->roles & R_SITE)
				P.count.site_mismatches++;
			if (!m->mismatch) {
				size_t c = len < (size_t)m->nbytes ? len : (size_t)m->nbytes;

				m->mismatch = true;
				memcpy(m->got, p, c);
			}
		}
		if (slot / 64 != last_block) {
			last_block = slot / 64;
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   slot_hint(slot), 1);
		}
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   slot_cnt(slot), 1);
		/* the timing model: the instruction's cost at each point, as its count */
		for (int pt = 0; P.model && pt < NPOINTS; pt++)
			if (mbase[i][pt])
				qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									   slot_met(slot) + M_CYC_LO + pt,
									   mbase[i][pt]);
	}
	if (P.model) {
		model_tb(P.model, tb, mslots, (const uint32_t (*)[NPOINTS])mbase, n);
		free(mslots);
		free(mbase);
	}
}
