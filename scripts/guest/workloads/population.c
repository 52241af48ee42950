// SPDX-License-Identifier: GPL-2.0
/*
 * population: N idle processes spread over K SELinux domains, the guest
 * population a distribution box has and kill(-1, 0) walks.
 *
 *   population N K [PREFIX]
 *
 * Forks N children.  Child i moves itself to the domain
 * system_u:system_r:PREFIX(i % K)_t (default PREFIX "pop": pop0_t ...) by
 * writing /proc/self/attr/current (a dyntransition the policy of
 * scripts/guest/selinux/gen-policy allows), then sleeps in pause() for good;
 * with K = 0, or when SELinux is not there (attr/current refuses the write),
 * it stays where it is.  Each child reports on a pipe whether it moved; the
 * parent waits for all of them, prints
 *
 *   population: N=300 K=8 moved=300 stayed=0
 *
 * and exits 0 (the children live on, reparented to init, their stdio on
 * /dev/null; they use no CPU).
 * Exit 1 when a fork failed, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *s, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end || end == s || *v < 0 || *v > max ? -1 : 0;
}

static char move_to(const char *prefix, long dom)
{
	char ctx[96];
	int fd, len, ok;

	len = snprintf(ctx, sizeof(ctx), "system_u:system_r:%s%ld_t", prefix, dom);
	fd = open("/proc/self/attr/current", O_WRONLY);
	if (fd < 0)
		return 's';
	ok = write(fd, ctx, (size_t)len) == len;
	close(fd);
	return ok ? 'm' : 's';
}

int main(int argc, char **argv)
{
	const char *prefix = argc > 3 ? argv[3] : "pop";
	long n, k, moved = 0, stayed = 0;
	int p[2];

	if (argc < 3 || argc > 4 || parse(argv[1], 100000, &n) || parse(argv[2], 64, &k)) {
		fprintf(stderr, "usage: population N K [PREFIX]  (N 0..100000, K 0..64)\n");
		return 2;
	}
	if (pipe(p)) {
		perror("population: pipe");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "population: fork %ld of %ld: %s\n", i + 1, n, strerror(errno));
			return 1;
		}
		if (pid == 0) {
			char c = k ? move_to(prefix, i % k) : 's';

			int nul = open("/dev/null", O_RDWR);

			close(p[0]);
			/* hold none of the caller's pipes: $(population ...) must end */
			for (int fd = 0; fd < 3 && nul >= 0; fd++)
				dup2(nul, fd);
			if (write(p[1], &c, 1) != 1)
				_exit(1);
			close(p[1]);
			for (;;)
				pause();
		}
	}
	close(p[1]);
	for (;;) {
		char c;
		ssize_t r = read(p[0], &c, 1);

		if (r <= 0)
			break;
		if (c == 'm')
			moved++;
		else
			stayed++;
	}
	printf("population: N=%ld K=%ld moved=%ld stayed=%ld\n", n, k, moved, stayed);
	return moved + stayed == n ? 0 : 1;
}
