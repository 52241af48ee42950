// SPDX-License-Identifier: GPL-2.0
/*
 * fakeqemu: a stand-in for QEMU's side of plugin API version 1, so that the
 * mix plugin's install checks and its state machine can be tested without
 * QEMU (analyzer/tests/t-qemu-plugin.sh).
 *
 *   fakeqemu [--api MIN CUR] [--target NAME] [--smp N] [--user]
 *            [--replay FILE] PLUGIN.so [ARG...]
 *
 * Loads PLUGIN.so as QEMU does (its qemu_plugin_version, then
 * qemu_plugin_install with a qemu_info_t and the ARGs), prints
 * "install: RC".  With --replay, executes the instructions of FILE, one
 * "ADDRESS HEXBYTES" per line, in order: each is a translation block of one
 * instruction (translated once per address, as a TB cache would), whose
 * inline adds and callbacks run in the order the plugin registered them;
 * then runs the atexit callbacks.  Lines starting with # are comments.
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

struct qemu_plugin_insn {
	uint64_t vaddr;
	uint8_t bytes[MAXBYTES];
	size_t len;
	struct op ops[MAXOPS];
	int nops;
};

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

static int replay(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
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

		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %32s", &a, hex) != 2 || strlen(hex) % 2) {
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
	int i = 1, rc;
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
			"[--replay FILE] PLUGIN.so [ARG...]\n");
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
	return 0;
}
