// SPDX-License-Identifier: GPL-2.0
/*
 * fakeqemu: a stand-in for QEMU's side of plugin API version 1, so that the
 * mix plugin's install checks and its state machine can be tested without
 * QEMU (analyzer/tests/t-qemu-plugin.sh).
 *
 *   fakeqemu [--api MIN CUR] [--target NAME] [--smp N] [--user]
 *            [--replay FILE] [--actions] PLUGIN.so [ARG...]
 *
 * Loads PLUGIN.so as QEMU does (its qemu_plugin_version, then
 * qemu_plugin_install with a qemu_info_t and the ARGs), prints
 * "install: RC".  With --replay, executes the instructions of FILE, one
 * "ADDRESS HEXBYTES [r:ADDR:SIZE|w:ADDR:SIZE]..." per line, in order: each
 * is a translation block of one instruction (translated once per address,
 * as a TB cache would), whose block callbacks and inline adds run first,
 * then the instruction's in the order the plugin registered them, then its
 * memory callbacks once per access the line lists (r: a load, w: a store,
 * SIZE bytes at ADDR); then runs the atexit callbacks.  Lines starting
 * with # are comments.  The physical address of an access is its virtual
 * address (no hwaddr in --user mode), the host address of an instruction
 * its address.  --actions: then prints what the mix plugin's
 * entrytrace_mix_site_actions() says (how often each kind of site action
 * ran), which QEMU never asks for.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../qemu-api.h"

#define MAXOPS 16
#define MAXBYTES 16

struct op {
	int cb;			/* 0 inline add, 1 callback */
	uint64_t *ptr;
	uint64_t imm;
	qemu_plugin_vcpu_udata_cb_t fn;
	void *udata;
};

struct memop {
	qemu_plugin_vcpu_mem_cb_t fn;
	enum qemu_plugin_mem_rw rw;
	void *udata;
};

struct qemu_plugin_insn {
	uint64_t vaddr;
	uint8_t bytes[MAXBYTES];
	size_t len;
	struct op ops[MAXOPS];
	int nops;
	struct memop mops[MAXOPS];
	int nmops;
};

struct qemu_plugin_hwaddr {
	uint64_t pa;
};

static int user_mode;

struct qemu_plugin_tb {
	struct qemu_plugin_insn insn;
	struct op tbops[MAXOPS];
	int ntbops;
};

static qemu_plugin_vcpu_tb_trans_cb_t trans_cb;
static qemu_plugin_udata_cb_t exit_cb;
static void *exit_udata;
static qemu_plugin_id_t plugin_id = 42;

static void add_op(struct op *ops, int *n, struct op o)
{
	if (*n == MAXOPS) {
		fprintf(stderr, "fakeqemu: more than %d ops on one instruction\n", MAXOPS);
		exit(3);
	}
	ops[(*n)++] = o;
}

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	trans_cb = cb;
}

void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm)
{
	(void)op;
	add_op(tb->tbops, &tb->ntbops, (struct op){ .ptr = ptr, .imm = imm });
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	add_op(insn->ops, &insn->nops, (struct op){ .cb = 1, .fn = cb, .udata = userdata });
}

void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm)
{
	(void)op;
	add_op(insn->ops, &insn->nops, (struct op){ .ptr = ptr, .imm = imm });
}

void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	add_op(tb->tbops, &tb->ntbops, (struct op){ .cb = 1, .fn = cb, .udata = userdata });
}

void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
				      void *userdata)
{
	(void)flags;
	if (insn->nmops == MAXOPS) {
		fprintf(stderr, "fakeqemu: more than %d memory callbacks on one instruction\n", MAXOPS);
		exit(3);
	}
	insn->mops[insn->nmops++] = (struct memop){ .fn = cb, .rw = rw, .udata = userdata };
}

/* meminfo: bits 0-3 the size's shift, bit 4 a store */
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info)
{
	return info & 15;
}

bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info)
{
	return info & 16;
}

static struct qemu_plugin_hwaddr hw;

struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	(void)info;
	if (user_mode)
		return NULL;
	hw.pa = vaddr;
	return &hw;
}

bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *h)
{
	(void)h;
	return false;
}

uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *h)
{
	return h->pa;
}

void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn)
{
	return (void *)(uintptr_t)insn->vaddr;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	(void)tb;
	return 1;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{
	(void)idx;
	return (struct qemu_plugin_insn *)&tb->insn;
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->bytes;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->len;
}

uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn)
{
	return insn->vaddr;
}

char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn)
{
	(void)insn;
	return strdup("nop");
}

void g_free(void *p)
{
	free(p);
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *udata)
{
	(void)id;
	exit_cb = cb;
	exit_udata = udata;
}

void qemu_plugin_outs(const char *s)
{
	fputs(s, stdout);
}

/* a translation-block cache keyed by address */
struct entry {
	struct qemu_plugin_tb tb;
	struct entry *next;
};
static struct entry *cache[4096];

static struct qemu_plugin_tb *translate(uint64_t a, const uint8_t *b, size_t len)
{
	struct entry **h = &cache[(a ^ (a >> 12)) & 4095], *e;

	for (e = *h; e; e = e->next)
		if (e->tb.insn.vaddr == a && e->tb.insn.len == len &&
		    !memcmp(e->tb.insn.bytes, b, len))
			return &e->tb;
	e = calloc(1, sizeof(*e));
	if (!e)
		exit(3);
	e->tb.insn.vaddr = a;
	e->tb.insn.len = len;
	memcpy(e->tb.insn.bytes, b, len);
	e->next = *h;
	*h = e;
	trans_cb(plugin_id, &e->tb);
	return &e->tb;
}

static void run(const struct op *ops, int n)
{
	for (int i = 0; i < n; i++) {
		if (ops[i].cb)
			ops[i].fn(0, ops[i].udata);
		else
			*ops[i].ptr += ops[i].imm;
	}
}

/* the accesses of a replay line: r:ADDR:SIZE (a load), w:ADDR:SIZE (a store) */
static int accesses(const struct qemu_plugin_insn *insn, const char *rest, const char *path, int ln)
{
	char kind;
	unsigned long long a;
	unsigned sz;
	int used;

	while (sscanf(rest, " %c:%llx:%u%n", &kind, &a, &sz, &used) == 3) {
		unsigned shift = 0;

		if ((kind != 'r' && kind != 'w') || !sz || (sz & (sz - 1)) || sz > 64) {
			fprintf(stderr, "fakeqemu: %s line %d: want r:ADDR:SIZE or w:ADDR:SIZE "
				"(SIZE a power of 2)\n", path, ln);
			return -1;
		}
		while ((1u << shift) < sz)
			shift++;
		for (int i = 0; i < insn->nmops; i++)
			if (insn->mops[i].rw & (kind == 'r' ? QEMU_PLUGIN_MEM_R : QEMU_PLUGIN_MEM_W))
				insn->mops[i].fn(0, shift | (kind == 'w' ? 16 : 0), a, insn->mops[i].udata);
		rest += used;
	}
	while (*rest == ' ' || *rest == '\n')
		rest++;
	if (*rest) {
		fprintf(stderr, "fakeqemu: %s line %d: unknown access '%s'\n", path, ln, rest);
		return -1;
	}
	return 0;
}

static int replay(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int ln = 0;
	long n = 0;

	if (!f) {
		perror(path);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char hex[2 * MAXBYTES + 1];
		uint8_t b[MAXBYTES];
		size_t len;
		struct qemu_plugin_tb *tb;
		int used = 0;

		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %32s%n", &a, hex, &used) != 2 || strlen(hex) % 2) {
			fprintf(stderr, "fakeqemu: %s line %d: want ADDRESS HEXBYTES\n", path, ln);
			return 2;
		}
		len = strlen(hex) / 2;
		for (size_t i = 0; i < len; i++) {
			unsigned v;

			sscanf(hex + 2 * i, "%2x", &v);
			b[i] = v;
		}
		tb = translate(a, b, len);
		run(tb->tbops, tb->ntbops);
		run(tb->insn.ops, tb->insn.nops);
		if (accesses(&tb->insn, line + used, path, ln))
			return 2;
		n++;
	}
	fclose(f);
	printf("replayed: %ld instructions\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	qemu_info_t info = { .target_name = "x86_64", .version = { 1, 1 },
			     .system_emulation = true, .system = { 1, 1 } };
	const char *rep = NULL;
	int i = 1, rc, actions = 0;
	void *h;
	int *ver;
	int (*install)(qemu_plugin_id_t, const qemu_info_t *, int, char **);

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--api") && i + 2 < argc) {
			info.version.min = atoi(argv[i + 1]);
			info.version.cur = atoi(argv[i + 2]);
			i += 3;
		} else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
			info.target_name = argv[i + 1];
			i += 2;
		} else if (!strcmp(argv[i], "--smp") && i + 1 < argc) {
			info.system.smp_vcpus = info.system.max_vcpus = atoi(argv[i + 1]);
			i += 2;
		} else if (!strcmp(argv[i], "--user")) {
			info.system_emulation = false;
			user_mode = 1;
			i++;
		} else if (!strcmp(argv[i], "--actions")) {
			actions = 1;
			i++;
		} else if (!strcmp(argv[i], "--replay") && i + 1 < argc) {
			rep = argv[i + 1];
			i += 2;
		} else {
			fprintf(stderr, "fakeqemu: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: fakeqemu [--api MIN CUR] [--target NAME] [--smp N] [--user] "
			"[--replay FILE] [--actions] PLUGIN.so [ARG...]\n");
		return 2;
	}
	h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "fakeqemu: %s\n", dlerror());
		return 2;
	}
	ver = dlsym(h, "qemu_plugin_version");
	install = (int (*)(qemu_plugin_id_t, const qemu_info_t *, int, char **))dlsym(h, "qemu_plugin_install");
	if (!ver || !install) {
		fprintf(stderr, "fakeqemu: %s exports no qemu_plugin_version or qemu_plugin_install\n",
			argv[i]);
		return 2;
	}
	printf("qemu_plugin_version: %d\n", *ver);
	rc = install(plugin_id, &info, argc - i - 1, argv + i + 1);
	printf("install: %d\n", rc);
	if (rc)
		return 1;
	if (rep && (rc = replay(rep)))
		return rc;
	if (exit_cb)
		exit_cb(plugin_id, exit_udata);
	if (actions) {
		void (*show)(FILE *) = (void (*)(FILE *))dlsym(h, "entrytrace_mix_site_actions");

		if (!show) {
			fprintf(stderr, "fakeqemu: --actions: %s exports no entrytrace_mix_site_actions\n",
				argv[i]);
			return 2;
		}
		show(stdout);
	}
	return 0;
}
