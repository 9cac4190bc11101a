/* count-bench.c - the CPU counting loop's own rate, one thread, data
 * already in memory: gh_count_bytes (what the CPU backend runs), the
 * one-byte-at-a-time reference, and memcpy of the same bytes (what reading
 * a page-cached file into a chunk costs besides).  bench/run's cpu case
 * prints these beside the whole-process rate.
 * Usage: bench/count-bench [MiB]   (default 256; log-like text)
 * Prints: "# ..." notes, then rows "tool<TAB>seconds<TAB>GB/s", median of 5.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "count.h"

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

/* Log-like lines from a fixed seed: an access log's fields and a path. */
static void fill_text(unsigned char *p, uint64_t n)
{
	uint64_t i = 0, seed = 1;

	while (i < n) {
		char line[160];
		int len;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		len = snprintf(line, sizeof(line),
			       "10.%u.%u.%u - - [22/Nov/2026:10:%02u:%02u +0000] "
			       "\"GET /shop/item/%u HTTP/1.1\" 200 %u\n",
			       (unsigned)(seed >> 56), (unsigned)(seed >> 48) & 255,
			       (unsigned)(seed >> 40) & 255,
			       (unsigned)(seed >> 32) % 60, (unsigned)(seed >> 24) % 60,
			       (unsigned)(seed >> 8) % 100000, (unsigned)seed % 65536);
		for (int k = 0; k < len && i < n; k++)
			p[i++] = (unsigned char)line[k];
	}
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
	uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 256;
	uint64_t n = mib << 20;
	unsigned char *src = malloc(n), *dst = malloc(n);
	static const char *names[] = { "gh_count_bytes", "one byte at a time",
				       "memcpy (the read's copy)" };
	uint64_t fast[256] = { 0 }, slow[256] = { 0 };

	if (!mib || !src || !dst) {
		fprintf(stderr, "count-bench: cannot have %llu MiB\n",
			(unsigned long long)mib);
		return 1;
	}
	fill_text(src, n);
	memset(dst, 0, n);
	printf("# count-bench: %llu MiB of log text in memory, one thread, "
	       "median of %d after a warm-up\n", (unsigned long long)mib, RUNS);
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
