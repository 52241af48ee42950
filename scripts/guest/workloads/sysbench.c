// SPDX-License-Identifier: GPL-2.0
/*
 * sysbench: the loops of 'perf bench syscall' (getppid, getpgid, fork,
 * execve), for guests that have no perf.  Static-linkable.
 *
 *   sysbench [-n N] MODE...
 *
 *   getppid  getppid(), N times
 *   getpgid  getpgid(0), N times
 *   fork     fork() a child that exits at once, wait for it; N times
 *   execve   fork() a child that execve()s this program with "-x" (which
 *            exits at once, as perf's /bin/true does), wait for it; N times
 *
 * Before each mode it prints "sysloop: MODE SYSCALL N pid=PID" lines (the
 * format of sysloop, so recordings are checked the same way), after it
 * "sysbench: MODE N ops NS ns NS/OP ns/op" (CLOCK_MONOTONIC; with QEMU
 * -icount shift=0, instructions).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void announce(const char *mode, const char *sc, long n)
{
	printf("sysloop: %s %s %ld pid=%d\n", mode, sc, n, (int)getpid());
	fflush(stdout);
}

static int child(const char *self, int exec)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (exec) {
			char *const argv[] = { (char *)self, "-x", NULL };

			execve(self, argv, NULL);
			_exit(127);
		}
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	long n = 1000;
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "-x"))
		return 0;
	if (argc > 2 && !strcmp(argv[1], "-n")) {
		n = strtol(argv[2], NULL, 0);
		i = 3;
	}
	if (i >= argc || n <= 0) {
		fprintf(stderr, "usage: sysbench [-n N] getppid|getpgid|fork|execve...\n");
		return 2;
	}
	for (; i < argc; i++) {
		const char *m = argv[i];
		unsigned long long t0;

		if (!strcmp(m, "getppid")) {
			announce(m, "getppid", n);
			t0 = now_ns();
			for (long k = 0; k < n; k++)
				syscall(SYS_getppid);
		} else if (!strcmp(m, "getpgid")) {
			announce(m, "getpgid", n);
			t0 = now_ns();
			for (long k = 0; k < n; k++)
				syscall(SYS_getpgid, 0);
		} else if (!strcmp(m, "fork") || !strcmp(m, "execve")) {
			int ex = !strcmp(m, "execve");

			announce(m, "clone", n);
			if (ex)
				announce(m, "execve", n);
			announce(m, "wait4", n);
			t0 = now_ns();
			for (long k = 0; k < n; k++) {
				if (child(argv[0], ex)) {
					fprintf(stderr, "sysbench: %s failed\n", m);
					return 1;
				}
			}
		} else {
			fprintf(stderr, "sysbench: unknown mode %s\n", m);
			return 2;
		}
		t0 = now_ns() - t0;
		printf("sysbench: %s %ld ops %llu ns %llu ns/op\n", m, n, t0, t0 / n);
		fflush(stdout);
	}
	return 0;
}
