// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction kinds from instruction bytes (at translation time only).
 *
 * x86_64: legacy prefixes and REX are skipped (a lock prefix makes the
 * instruction "lock"), then the opcode, with the ModRM byte where it
 * selects the instruction.  VEX/EVEX encoded instructions are never one of
 * these kinds.  powerpc: one 32-bit word in the guest's byte order; the
 * primary opcode and the extended opcode field select the kind; a prefixed
 * (64-bit) instruction is none of them.
 *
 * A kind belongs to zero or more classes (analyzer/include/mix-format.def:
 * iret); kind_from_disas() is the independent check used by the plugin's
 * disas=check option: the same kinds derived from QEMU's disassembly.
 */
#include <stdio.h>
#include <string.h>

#include "mix.h"

const char *const class_names[MIX_NCLASSES] = {
#define MIX_CLASS(SYM, name) #name,
#include "mix-format.def"
};

/* The kinds of this run: the arch's table, then calls= and SPRs as met. */
static struct {
	struct kind k[MIX_MAX_KINDS];
	int n;
} table;

int classify_nkinds(void)
{
	return table.n;
}

const struct kind *classify_kind(int k)
{
	return &table.k[k];
}

static const struct kind x86_kinds[] = {
	{ "lock", C_ATOMIC },
	{ "xchg", C_ATOMIC },		/* xchg with memory: implicitly locked */
	{ "lfence", C_BARRIER },
	{ "mfence", C_BARRIER },
	{ "sfence", C_BARRIER },
	{ "cpuid", C_BARRIER },		/* serialising */
	{ "serialize", C_BARRIER },
	{ "iret", C_BARRIER | C_IRET },
	{ "wrmsr", C_BARRIER | C_SPRMSR },
	{ "mov_cr", C_BARRIER },
	{ "mov_dr", C_BARRIER },
	{ "invlpg", C_BARRIER },
	{ "invd", C_BARRIER },
	{ "wbinvd", C_BARRIER },
	{ "lgdt", C_BARRIER },
	{ "lidt", C_BARRIER },
	{ "lldt", C_BARRIER },
	{ "ltr", C_BARRIER },
	{ "rdmsr", C_SPRMSR },
	{ "swapgs", C_SPRMSR },
	{ "rdtsc", C_COUNTER },
	{ "rdtscp", C_COUNTER },
	{ "sysret", C_IRET },
	{ "syscall", 0 },
	{ "cli", 0 },
	{ "sti", 0 },
	{ "clac", 0 },
	{ "stac", 0 },
};

static const struct kind ppc_kinds[] = {
	{ "hwsync", C_BARRIER },	/* sync L=0 */
	{ "lwsync", C_BARRIER },	/* sync L=1 */
	{ "ptesync", C_BARRIER },	/* sync L=2 */
	{ "sync_other", C_BARRIER },	/* sync with another L (ISA 3.1 phwsync, ...) */
	{ "isync", C_BARRIER },
	{ "eieio", C_BARRIER },		/* = mbar 0 */
	{ "mtmsr", C_SPRMSR },
	{ "mtmsrd", C_SPRMSR },
	{ "mfmsr", C_SPRMSR },
	{ "mftb", C_COUNTER },		/* mftb, mfspr 268/269 */
	{ "lbarx", C_ATOMIC },
	{ "lharx", C_ATOMIC },
	{ "lwarx", C_ATOMIC },
	{ "ldarx", C_ATOMIC },
	{ "lqarx", C_ATOMIC },
	{ "stbcx", C_ATOMIC },
	{ "sthcx", C_ATOMIC },
	{ "stwcx", C_ATOMIC },
	{ "stdcx", C_ATOMIC },
	{ "stqcx", C_ATOMIC },
	{ "rfid", C_IRET },
	{ "hrfid", C_IRET },
	{ "rfscv", C_IRET },
	{ "rfi", C_IRET },
	{ "sc", 0 },
	{ "scv", 0 },
	/* mtspr.N / mfspr.N (class sprmsr) are added per SPR number as met */
};

static int find_kind(const char *name)
{
	for (int i = 0; i < table.n; i++)
		if (!strcmp(table.k[i].name, name))
			return i;
	return -1;
}

static int add_kind(const char *name, unsigned classes)
{
	int k = find_kind(name);

	if (k >= 0)
		return k;
	if (table.n == MIX_MAX_KINDS)
		return find_kind("spr_other");
	size_t l = strnlen(name, sizeof(table.k[0].name) - 1);

	memcpy(table.k[table.n].name, name, l);
	table.k[table.n].name[l] = 0;
	table.k[table.n].classes = classes;
	return table.n++;
}

int classify_find(const char *name)
{
	return find_kind(name);
}

int classify_add_kind(const char *name, unsigned classes)
{
	return table.n == MIX_MAX_KINDS && find_kind(name) < 0 ? -1 : add_kind(name, classes);
}

void classify_init(enum arch arch)
{
	const struct kind *t = arch == ARCH_X86_64 ? x86_kinds : ppc_kinds;
	size_t n = arch == ARCH_X86_64 ? sizeof(x86_kinds) / sizeof(*t) :
					 sizeof(ppc_kinds) / sizeof(*t);

	table.n = 0;
	for (size_t i = 0; i < n; i++)
		add_kind(t[i].name, t[i].classes);
	if (arch == ARCH_PPC64)
		add_kind("spr_other", C_SPRMSR);	/* when the table is full */
}

#define K(name) find_kind(name)

static int classify_x86(const uint8_t *p, size_t n)
{
	size_t i = 0;
	bool lock = false;
	uint8_t op, m;

	for (; i < n; i++) {
		uint8_t b = p[i];

		if (b == 0xf0)
			lock = true;
		else if (b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e ||
			 b == 0x26 || b == 0x64 || b == 0x65 || b == 0x66 || b == 0x67 ||
			 (b >= 0x40 && b <= 0x4f))
			continue;
		else
			break;
	}
	if (i >= n)
		return -1;
	if (lock)
		return K("lock");
	op = p[i++];
	m = i < n ? p[i] : 0;
	switch (op) {
	case 0xcf:
		return K("iret");
	case 0xfa:
		return K("cli");
	case 0xfb:
		return K("sti");
	case 0x86:
	case 0x87:
		return i < n && (m >> 6) != 3 ? K("xchg") : -1;
	case 0x0f:
		break;
	default:
		return -1;
	}
	if (i >= n)
		return -1;
	op = p[i++];
	m = i < n ? p[i] : 0;
	switch (op) {
	case 0x05: return K("syscall");
	case 0x07: return K("sysret");
	case 0x08: return K("invd");
	case 0x09: return K("wbinvd");
	case 0x22: return K("mov_cr");
	case 0x23: return K("mov_dr");
	case 0x30: return K("wrmsr");
	case 0x31: return K("rdtsc");
	case 0x32: return K("rdmsr");
	case 0xa2: return K("cpuid");
	case 0x00:
		if (i >= n)
			return -1;
		if (((m >> 3) & 7) == 2)
			return K("lldt");
		if (((m >> 3) & 7) == 3)
			return K("ltr");
		return -1;
	case 0x01:
		if (i >= n)
			return -1;
		switch (m) {
		case 0xf8: return K("swapgs");
		case 0xf9: return K("rdtscp");
		case 0xe8: return K("serialize");
		case 0xca: return K("clac");
		case 0xcb: return K("stac");
		}
		if ((m >> 6) == 3)
			return -1;
		switch ((m >> 3) & 7) {
		case 2: return K("lgdt");
		case 3: return K("lidt");
		case 7: return K("invlpg");
		}
		return -1;
	case 0xae:
		if (i >= n || (m >> 6) != 3)
			return -1;
		switch ((m >> 3) & 7) {
		case 5: return K("lfence");
		case 6: return K("mfence");
		case 7: return K("sfence");
		}
		return -1;
	}
	return -1;
}

/*
 * mtspr/mfspr per SPR number.  XER (1), LR (8) and CTR (9) are the
 * problem-state registers every function moves (mflr/mtlr, mtctr): kinds
 * of their own, in no class; every other SPR is class sprmsr.
 */
static int spr_kind(const char *op, unsigned spr)
{
	char name[24];

	snprintf(name, sizeof(name), "%s.%u", op, spr);
	return add_kind(name, spr == 1 || spr == 8 || spr == 9 ? 0 : C_SPRMSR);
}

static int classify_ppc(uint32_t w)
{
	unsigned op = w >> 26, xo = (w >> 1) & 0x3ff;
	unsigned field = (w >> 11) & 0x3ff, spr = ((field & 0x1f) << 5) | (field >> 5);

	if (op == 17)
		return w & 2 ? K("sc") : (w & 1 ? K("scv") : -1);
	if (op == 19) {
		switch (xo) {
		case 150: return K("isync");
		case 18: return K("rfid");
		case 274: return K("hrfid");
		case 82: return K("rfscv");
		case 50: return K("rfi");
		}
		return -1;
	}
	if (op != 31)
		return -1;
	switch (xo) {
	case 598:
		switch ((w >> 21) & 7) {
		case 0: return K("hwsync");
		case 1: return K("lwsync");
		case 2: return K("ptesync");
		}
		return K("sync_other");
	case 854: return K("eieio");
	case 146: return K("mtmsr");
	case 178: return K("mtmsrd");
	case 83: return K("mfmsr");
	case 371: return K("mftb");
	case 339:
		if (spr == 268 || spr == 269)
			return K("mftb");
		return spr_kind("mfspr", spr);
	case 467: return spr_kind("mtspr", spr);
	case 52: return K("lbarx");
	case 116: return K("lharx");
	case 20: return K("lwarx");
	case 84: return K("ldarx");
	case 276: return K("lqarx");
	case 694: return K("stbcx");
	case 726: return K("sthcx");
	case 150: return K("stwcx");
	case 214: return K("stdcx");
	case 182: return K("stqcx");
	}
	return -1;
}

int classify(enum arch arch, bool big_endian, const uint8_t *p, size_t n)
{
	uint32_t w;

	if (arch == ARCH_X86_64)
		return classify_x86(p, n);
	if (n != 4)
		return -1;	/* prefixed instructions: none of the kinds */
	w = big_endian ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
			 (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
	return classify_ppc(w);
}

/*
 * The kinds again, from QEMU's disassembly text: used only to check the
 * byte decoder (disas=check).  Returns -1 for an instruction of no kind,
 * -2 when the text cannot decide (an SPR alias such as mtamr is taken as
 * "some mtspr"), -3 when the disassembler did not decode the instruction
 * (.byte/.long: binutils' powerpc tables refuse lwarx/ldarx with the EH
 * hint bit set, for instance).
 */
int kind_from_disas(enum arch arch, const char *d)
{
	char mn[32] = "";
	const char *s = d;

	while (*s == ' ' || *s == '\t')
		s++;
	sscanf(s, "%31s", mn);
	if (mn[0] == '.' || !mn[0])
		return -3;
	if (arch == ARCH_X86_64) {
		if (!strcmp(mn, "lock"))
			return K("lock");
		if (!strncmp(mn, "xchg", 4))
			return strchr(s, '(') ? K("xchg") : -1;	/* AT&T: memory operand */
		if (!strncmp(mn, "iret", 4))
			return K("iret");
		if (!strncmp(mn, "sysret", 6))
			return K("sysret");
		if (!strcmp(mn, "mov") || !strcmp(mn, "movq") || !strcmp(mn, "movl")) {
			const char *c = strrchr(s, ',');

			if (c && strstr(c, "%cr"))
				return K("mov_cr");
			if (c && (strstr(c, "%db") || strstr(c, "%dr")))
				return K("mov_dr");
			return -1;
		}
		static const char *const same[] = {
			"lfence", "mfence", "sfence", "cpuid", "serialize", "wrmsr", "invlpg",
			"invd", "wbinvd", "rdmsr", "swapgs", "rdtsc", "rdtscp",
			"syscall", "cli", "sti", "clac", "stac",
		};
		for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++)
			if (!strcmp(mn, same[i]))
				return K(same[i]);
		/* capstone adds the operand size: lgdtq, lidtq, lldtw, ltrw */
		if (!strncmp(mn, "lldt", 4))
			return K("lldt");
		if (!strncmp(mn, "ltr", 3))
			return K("ltr");
		if (!strncmp(mn, "lgdt", 4))
			return K("lgdt");
		if (!strncmp(mn, "lidt", 4))
			return K("lidt");
		return -1;
	}
	/* powerpc */
	size_t l = strlen(mn);

	if (l && mn[l - 1] == '.')
		mn[--l] = 0;
	if (!strcmp(mn, "sync") || !strcmp(mn, "hwsync") || !strcmp(mn, "msync"))
		return strstr(s, ",") || strchr(s, '1') || strchr(s, '2') ? -2 : K("hwsync");
	static const char *const same[] = {
		"lwsync", "ptesync", "isync", "eieio", "mtmsr", "mtmsrd", "mfmsr", "mftb",
		"lbarx", "lharx", "lwarx", "ldarx", "lqarx", "stbcx", "sthcx", "stwcx",
		"stdcx", "stqcx", "rfid", "hrfid", "rfscv", "rfi", "sc", "scv",
	};
	for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++)
		if (!strcmp(mn, same[i]))
			return K(same[i]);
	if (!strcmp(mn, "mbar"))
		return K("eieio");
	if (!strcmp(mn, "mftbu"))
		return K("mftb");
	if (!strcmp(mn, "mtspr") || !strcmp(mn, "mfspr"))
		return -2;
	if ((!strncmp(mn, "mt", 2) || !strncmp(mn, "mf", 2)) && l > 2)
		return -2;	/* mtlr, mfctr, mtamr ...: an SPR alias, or mtcrf/mfcr */
	return -1;
}
