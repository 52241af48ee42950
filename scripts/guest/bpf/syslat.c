// SPDX-License-Identifier: GPL-2.0
/*
 * syslat: run a command with the BPF syscall latency histogram of
 * syslat.bpf.c attached (Documentation/overhead.md: the BPF anchor).
 *
 *   syslat [-q] CMD [ARG...]
 *
 * Loads the program (libbpf skeleton, built into this binary), attaches it
 * to the raw tracepoints sys_enter and sys_exit, runs CMD and waits for it,
 * detaches, and prints on stderr
 *
 *   syslat: N syscalls, M without an entry time, JIT yes|no
 *   syslat: 2^K ns: COUNT          (each non-empty bucket, unless -q)
 *
 * Exits with CMD's status; 125 when the program cannot be loaded or
 * attached (one line naming the step), or when it counted no syscall
 * (then nothing was measured).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "syslat.skel.h"

#define SYSLAT_BUCKETS	64

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int fail(const char *step, int err)
{
	fprintf(stderr, "syslat: %s: %s\n", step, strerror(err < 0 ? -err : err));
	return 125;
}

/* Every CPU's count of bucket b, summed. */
static int bucket_sum(int fd, __u32 b, int ncpu, unsigned long long *sum)
{
	unsigned long long v[ncpu];
	int i;

	if (bpf_map_lookup_elem(fd, &b, v))
		return -errno;
	*sum = 0;
	for (i = 0; i < ncpu; i++)
		*sum += v[i];
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0, orphan = 0, c = 0;
	struct bpf_prog_info info = { 0 };
	__u32 ilen = sizeof(info);
	struct syslat *skel;
	int quiet = 0, ncpu, fd, status, err;
	__u32 b;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-q")) {
		quiet = 1;
		argv++, argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: syslat [-q] CMD [ARG...]\n");
		return 125;
	}
	libbpf_set_print(quiet_print);
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return fail("possible CPUs", ncpu);
	skel = syslat__open_and_load();
	if (!skel)
		return fail("load", errno);
	err = syslat__attach(skel);
	if (err)
		return fail("attach to raw_syscalls sys_enter/sys_exit", err);
	if (bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.syslat_exit), &info, &ilen))
		return fail("program info", errno);

	pid = fork();
	if (pid < 0)
		return fail("fork", errno);
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "syslat: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid", errno);
	syslat__detach(skel);

	fd = bpf_map__fd(skel->maps.syslat_hist);
	for (b = 0; b <= SYSLAT_BUCKETS; b++) {
		err = bucket_sum(fd, b, ncpu, &c);
		if (err)
			return fail("reading the histogram", err);
		if (b == SYSLAT_BUCKETS) {
			orphan = c;
		} else {
			n += c;
			if (c && !quiet)
				fprintf(stderr, "syslat: 2^%u ns: %llu\n", b, c);
		}
	}
	fprintf(stderr, "syslat: %llu syscalls, %llu without an entry time, JIT %s\n",
		n, orphan, info.jited_prog_len ? "yes" : "no");
	syslat__destroy(skel);
	if (!n) {
		fprintf(stderr, "syslat: the histogram counted no syscall\n");
		return 125;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
