// SPDX-License-Identifier: GPL-2.0
/*
 * migrate: a task that changes CPU between its syscalls, so that series
 * v4's packed batches (entry_stage_batch, one per CPU) hold its records in
 * both CPUs' batches, each written when full: a batch of the first CPU
 * still open while the task's later records fill and write the second's.
 *
 *   migrate ROUNDS N
 *
 * Round r pins the task to CPU r % 2 (sched_setaffinity(); the kernel
 * moves it there before the call returns) and makes N getppid() calls
 * there.  Prints
 *
 *   migrate: pid=P rounds=R n=N getppid=R*N cpus=A,B
 *
 * with the CPUs sched_getcpu() saw after the first two pinnings.  Exit 1
 * when a pinning fails or the task is not where it was pinned, 2 on bad
 * usage.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long rounds, n;
	int seen[2] = { -1, -1 };
	char *end;

	if (argc != 3)
		goto usage;
	rounds = strtol(argv[1], &end, 10);
	if (*end || rounds < 2 || rounds > 1000000)
		goto usage;
	n = strtol(argv[2], &end, 10);
	if (*end || n < 1 || n > 100000000)
		goto usage;
	for (long r = 0; r < rounds; r++) {
		cpu_set_t set;
		int cpu = r % 2;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("migrate: sched_setaffinity");
			return 1;
		}
		if (sched_getcpu() != cpu) {
			fprintf(stderr, "migrate: pinned to CPU %d, running on %d\n", cpu,
				sched_getcpu());
			return 1;
		}
		if (r < 2)
			seen[r] = sched_getcpu();
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
	}
	printf("migrate: pid=%d rounds=%ld n=%ld getppid=%ld cpus=%d,%d\n", (int)getpid(),
	       rounds, n, rounds * n, seen[0], seen[1]);
	return 0;
usage:
	fprintf(stderr, "usage: migrate ROUNDS N (ROUNDS >= 2)\n");
	return 2;
}
