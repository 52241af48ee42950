// SPDX-License-Identifier: GPL-2.0
/*
 * cyclebench: the host microbenchmarks the timing model is checked
 * against (scripts/host/cycles-validate, Documentation/cycles-model.md):
 * the same static binary runs natively (timed with rdtsc) and under
 * qemu-x86_64 with the mix plugin's timing model (which counts its cycles).
 *
 *   cyclebench [-t] [-r REPS] [-H] MODE SIZE N
 *
 * MODE:
 *   chase       a pointer chase over SIZE bytes: one pointer per 64-byte
 *               line, the lines in one random cycle (Sattolo), 4 KB pages
 *               (MADV_NOHUGEPAGE); N dependent loads
 *   store       N bursts of 32 8-byte stores, one per line, walking a
 *               SIZE-byte buffer, each burst followed by mfence
 *   storenf     the same bursts without the mfence
 *   atomic      N lock-prefixed adds to one counter
 *   plain       N plain adds to one counter (a volatile store and load)
 *
 * -H maps the buffers with MADV_HUGEPAGE instead (2 MB pages where the
 * kernel gives them): the chase's TLB misses mostly go, its cache misses
 * stay (scripts/host/cycles-validate shows both, to tell them apart).
 *
 * Every mode first runs its loop N times untimed (the caches warm, the
 * chase walks its whole cycle when N is at least its lines), then N times
 * more; with -t it times that second run with rdtsc REPS times (default
 * 5) and prints the least and the median in TSC ticks per iteration (on
 * a shared machine the least is the run the others disturbed least) and
 * the TSC's rate (against CLOCK_MONOTONIC over 50 ms).  Under the plugin,
 * run it for N and 2N: the difference of the modelled cycles is N
 * iterations in the same warm state.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <x86intrin.h>

#define LINE 64
#define BURST 32

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static int huge;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void *region(size_t size)
{
	size_t al = 2 << 20;
	char *p = mmap(NULL, size + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("cyclebench: mmap");
		exit(1);
	}
	/* 2 MB aligned, so that -H can give whole huge pages */
	p += (al - (uintptr_t)p % al) % al;
	madvise(p, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(p, 0, size);
	return p;
}

/* one random cycle through every line (Sattolo's algorithm) */
static void **chase_setup(size_t size)
{
	size_t n = size / LINE;
	char *base = region(size);
	size_t *perm = malloc(n * sizeof(*perm));

	if (!perm || n < 2) {
		fprintf(stderr, "cyclebench: chase: SIZE %zu: want two lines or more\n", size);
		exit(2);
	}
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = next() % i, t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(base + perm[i] * LINE) = base + perm[(i + 1) % n] * LINE;
	free(perm);
	return (void **)base;
}

static void *volatile sink;

static __attribute__((noinline)) void **chase(void **p, uint64_t n)
{
	while (n--)
		p = (void **)*p;
	return p;
}

static __attribute__((noinline)) size_t stores(char *buf, size_t size, size_t off, uint64_t n,
						int fence)
{
	while (n--) {
		for (int i = 0; i < BURST; i++) {
			*(volatile uint64_t *)(buf + off) = n;
			off += LINE;
			if (off >= size)
				off = 0;
		}
		if (fence)
			__asm__ volatile("mfence" ::: "memory");
	}
	return off;
}

static __attribute__((noinline)) void atomics(uint64_t *c, uint64_t n)
{
	while (n--)
		__asm__ volatile("lock addq $1, %0" : "+m"(*c));
}

static __attribute__((noinline)) void plains(volatile uint64_t *c, uint64_t n)
{
	while (n--)
		*c = *c + 1;
}

static double tsc_hz(void)
{
	struct timespec a, b;
	uint64_t t0, t1;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 50e6);
	t1 = __rdtsc();
	s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	return (t1 - t0) / s;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int timed = 0, reps = 5, a = 1;
	const char *mode;
	size_t size;
	uint64_t n, t[64];
	void **p = NULL;
	char *buf = NULL;
	uint64_t *ctr = NULL;
	size_t off = 0;

	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-t")) {
			timed = 1;
			a++;
		} else if (!strcmp(argv[a], "-H")) {
			huge = 1;
			a++;
		} else if (!strcmp(argv[a], "-r") && a + 1 < argc) {
			reps = atoi(argv[a + 1]);
			a += 2;
		} else {
			break;
		}
	}
	if (argc - a != 3 || reps < 1 || reps > 64) {
		fprintf(stderr, "usage: cyclebench [-t] [-r REPS] [-H] chase|store|storenf|atomic|plain "
			"SIZE N\n");
		return 2;
	}
	mode = argv[a];
	size = strtoull(argv[a + 1], NULL, 0);
	n = strtoull(argv[a + 2], NULL, 0);
	if (!strcmp(mode, "chase")) {
		p = chase_setup(size);
	} else if (!strcmp(mode, "store") || !strcmp(mode, "storenf")) {
		if (size < LINE) {
			fprintf(stderr, "cyclebench: store: SIZE %zu: want a line or more\n", size);
			return 2;
		}
		buf = region(size);
	} else if (!strcmp(mode, "atomic") || !strcmp(mode, "plain")) {
		ctr = region(4096);
	} else {
		fprintf(stderr, "cyclebench: unknown mode '%s'\n", mode);
		return 2;
	}
	for (int r = 0; r < (timed ? reps + 1 : 2); r++) {
		uint64_t t0 = __rdtsc();

		if (p)
			p = chase(p, n);
		else if (buf)
			off = stores(buf, size, off, n, !strcmp(mode, "store"));
		else if (!strcmp(mode, "atomic"))
			atomics(ctr, n);
		else
			plains(ctr, n);
		if (r)
			t[r - 1] = __rdtsc() - t0;
	}
	sink = p;
	if (timed) {
		qsort(t, reps, sizeof(*t), cmp);
		printf("%s %zu %llu: %.3f ticks per iteration (least of %d), %.3f (median), tsc %.0f Hz\n",
		       mode, size, (unsigned long long)n, (double)t[0] / n, reps,
		       (double)t[reps / 2] / n, tsc_hz());
	}
	return 0;
}
