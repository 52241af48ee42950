// SPDX-License-Identifier: GPL-2.0
/*
 * acctest: is a syscall exit that replays an interrupt charged its CPU time
 * once?  With VIRT_CPU_ACCOUNTING_NATIVE, getrusage() reports the utime and
 * stime the entry and exit code summed from the timebase as they are
 * (kernel/sched/cputime.c: task_cputime_adjusted()), while
 * CLOCK_THREAD_CPUTIME_ID is the scheduler's runtime of the thread: their
 * ratio is ~1 when every stretch of time is charged once.
 *
 * Needs a kernel with arch/powerpc/fixes/debug/0003-DEBUG-*.patch: every
 * syscall exit of a task named "et-acct" finds a decrementer interrupt
 * pending, replays it and retries.  Two phases of the same loop of read()s
 * from /dev/zero (BYTES each, short next to a tick, so that most of a
 * syscall's time is since its entry, not since a tick):
 *   control  under this program's own name: no replay;
 *   replay   named "et-acct": every exit replays.
 * The replays are counted from /proc/interrupts, read outside the phase:
 * the decrementer interrupts, "Local timer interrupts for others" (a
 * spurious one: the hook's) plus "... for timer event device" (a tick that
 * was due when it was replayed: arch/powerpc/kernel/time.c timer_interrupt()
 * counts it there; 12 of 20000 exits in one run of the plain kernel).
 *
 *   acctest [READS [BYTES]]     (default 20000 reads of 65536 bytes)
 *
 * Prints one line per phase:
 *   acctest: PHASE reads N bytes B utime U stime S cputime C ms ratio R replays K ticks T
 * where R = (U + S) / C, K the spurious decrementer interrupts and T the
 * ticks.  Exit status: 0 when the replay phase's ratio is within 0.25 of
 * the control's, 1 when it is not (time charged twice), 3 when fewer
 * decrementer interrupts (K + T) than reads were counted (not the debug
 * kernel), 2 on a usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct phase {
	double utime, stime, cputime;	/* ms */
	long long replays, ticks;
};

static double tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

static double ts_ms(struct timespec ts)
{
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The sum over CPUs of /proc/interrupts' "Local timer interrupts for WHAT". */
static long long timer_irqs(const char *what)
{
	char line[4096];
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		if (!strstr(line, "Local timer interrupts for ") || !strstr(line, what))
			continue;
		p = strchr(line, ':');
		if (!p)
			break;
		sum = 0;
		for (p++;; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}

static int sample(double *u, double *s, double *c)
{
	struct rusage ru;
	struct timespec ts;

	if (getrusage(RUSAGE_THREAD, &ru) || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)) {
		perror("acctest: getrusage/clock_gettime");
		return -1;
	}
	*u = tv_ms(ru.ru_utime);
	*s = tv_ms(ru.ru_stime);
	*c = ts_ms(ts);
	return 0;
}

static int run(const char *name, int fd, char *buf, size_t bytes, long reads, struct phase *ph)
{
	double u0, s0, c0, u1, s1, c1;
	long long k0, k1, t0, t1;

	k0 = timer_irqs("for others");
	t0 = timer_irqs("for timer event device");
	if (k0 < 0 || t0 < 0) {
		fprintf(stderr, "acctest: no \"Local timer interrupts for others\" or \"... for timer event device\" in /proc/interrupts\n");
		return -1;
	}
	if (prctl(PR_SET_NAME, name, 0, 0, 0)) {
		perror("acctest: prctl(PR_SET_NAME)");
		return -1;
	}
	if (sample(&u0, &s0, &c0))
		return -1;
	for (long i = 0; i < reads; i++) {
		ssize_t n = read(fd, buf, bytes);

		if (n != (ssize_t)bytes) {
			fprintf(stderr, "acctest: read of /dev/zero returned %zd: %s\n", n,
				n < 0 ? strerror(errno) : "short");
			return -1;
		}
	}
	if (sample(&u1, &s1, &c1))
		return -1;
	prctl(PR_SET_NAME, "acctest", 0, 0, 0);
	k1 = timer_irqs("for others");
	t1 = timer_irqs("for timer event device");
	ph->utime = u1 - u0;
	ph->stime = s1 - s0;
	ph->cputime = c1 - c0;
	ph->replays = k1 - k0;
	ph->ticks = t1 - t0;
	return 0;
}

static void print(const char *what, long reads, size_t bytes, const struct phase *ph)
{
	printf("acctest: %s reads %ld bytes %zu utime %.1f stime %.1f cputime %.1f ms ratio %.3f replays %lld ticks %lld\n",
	       what, reads, bytes, ph->utime, ph->stime, ph->cputime,
	       ph->cputime > 0 ? (ph->utime + ph->stime) / ph->cputime : 0.0, ph->replays, ph->ticks);
}

int main(int argc, char **argv)
{
	long reads = argc > 1 ? atol(argv[1]) : 20000;
	long bytes = argc > 2 ? atol(argv[2]) : 65536;
	struct phase ctl, rep;
	double rc, rr;
	char *buf;
	int fd;

	if (reads < 1 || bytes < 1) {
		fprintf(stderr, "acctest: READS and BYTES must be positive numbers\n");
		return 2;
	}
	buf = malloc(bytes);
	fd = open("/dev/zero", O_RDONLY);
	if (!buf || fd < 0) {
		perror("acctest: /dev/zero");
		return 2;
	}
	memset(buf, 1, bytes);		/* no page fault inside the phases */
	if (run("acctest", fd, buf, bytes, reads, &ctl) || run("et-acct", fd, buf, bytes, reads, &rep))
		return 2;
	print("control", reads, bytes, &ctl);
	print("replay", reads, bytes, &rep);
	fflush(stdout);
	if (ctl.cputime <= 0 || rep.cputime <= 0) {
		fprintf(stderr, "acctest: no CPU time measured\n");
		return 2;
	}
	if (rep.replays + rep.ticks < reads) {
		fprintf(stderr, "acctest: %lld decrementer interrupts (%lld spurious, %lld ticks) for %ld reads: not a kernel with the debug hook\n",
			rep.replays + rep.ticks, rep.replays, rep.ticks, reads);
		return 3;
	}
	rc = (ctl.utime + ctl.stime) / ctl.cputime;
	rr = (rep.utime + rep.stime) / rep.cputime;
	return rr - rc <= 0.25 && rc - rr <= 0.25 ? 0 : 1;
}
