/* count-bench.c - the CPU counting loop's own rate, one thread, data
 * already in memory: gh_count_bytes (what the CPU backend runs), the
 * one-byte-at-a-time reference, and memcpy of the same bytes (what reading
 * a page-cached file into a chunk costs besides).  bench/run's cpu case
 * runs it on the text it times the whole process on, and prints these
 * beside the whole-process rate.
 * Usage: bench/count-bench FILE [MiB]   (the first MiB of FILE, default 256)
 * Prints: "# ..." notes, then rows "tool<TAB>seconds<TAB>GB/s", median of 5.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cpu/count.h"

#define RUNS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Reads up to n bytes of path into p; the count read, or 0 on failure. */
static uint64_t read_text(const char *path, unsigned char *p, uint64_t n)
{
	FILE *f = fopen(path, "rb");
	uint64_t got;

	if (!f)
		return 0;
	got = fread(p, 1, n, f);
	fclose(f);
	return got;
}

enum tool { COUNT, SIMPLE, COPY };

static double time_one(enum tool tool, const unsigned char *src,
		       unsigned char *dst, uint64_t n, uint64_t totals[256])
{
	double t = now();

	if (tool == COUNT)
		gh_count_bytes(src, n, totals);
	else if (tool == SIMPLE)
		gh_count_bytes_simple(src, n, totals);
	else
		memcpy(dst, src, n);
	return now() - t;
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 2 ? strtoull(argv[2], NULL, 10) : 256;
	uint64_t n = mib << 20;
	unsigned char *src = malloc(n), *dst = malloc(n);
	static const char *names[] = { "gh_count_bytes", "one byte at a time",
				       "memcpy (the read's copy)" };
	uint64_t fast[256] = { 0 }, slow[256] = { 0 };

	if (argc < 2 || !mib || !src || !dst) {
		fprintf(stderr, "usage: count-bench FILE [MiB]\n");
		return 2;
	}
	n = read_text(argv[1], src, n);
	if (!n) {
		fprintf(stderr, "count-bench: %s: nothing read\n", argv[1]);
		return 1;
	}
	memset(dst, 0, n);
	printf("# count-bench: %llu bytes of %s in memory, one thread, "
	       "median of %d after a warm-up\n", (unsigned long long)n, argv[1],
	       RUNS);
	for (int tool = COUNT; tool <= COPY; tool++) {
		double s[RUNS];
		uint64_t *totals = tool == SIMPLE ? slow : fast;

		time_one(tool, src, dst, n, totals);
		for (int r = 0; r < RUNS; r++)
			s[r] = time_one(tool, src, dst, n, totals);
		qsort(s, RUNS, sizeof(s[0]), by_value);
		printf("%s\t%.6f\t%.3f\n", names[tool], s[RUNS / 2],
		       n / s[RUNS / 2] / 1e9);
	}
	/* The two counters saw the same bytes the same number of times. */
	if (memcmp(fast, slow, sizeof(fast))) {
		fprintf(stderr, "count-bench: the two counts differ\n");
		return 1;
	}
	return 0;
}
