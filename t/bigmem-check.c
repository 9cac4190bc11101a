/* bigmem-check.c - TAP test: the tokens' large arrays (tokens/bigmem.c)
 * hold what is written to them across every way they are made and
 * grown: malloc's below 64 KiB, a mapping from there, a mapping aligned
 * to 2 MiB (where the kernel gives huge pages) from 2 MiB on, grown
 * within and across those bounds, from empty, and zeroed when new. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "tokens/bigmem.h"

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

/* The byte a pattern puts at i. */
static unsigned char at(size_t i, unsigned seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;

	return (unsigned char)(x >> 29);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = at(i, seed);
}

static bool holds(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != at(i, seed))
			return false;
	return true;
}

static bool zeroes(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Whether the kernel gives huge pages to a range that asks (not "never"),
 * and an eighth of the memory is free (bigmem.c asks only then). */
static bool huge_pages(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";
	struct sysinfo si;
	bool on;

	if (!f)
		return false;
	on = fgets(line, sizeof(line), f) && !strstr(line, "[never]");
	fclose(f);
	return on && !sysinfo(&si) &&
	       si.freeram >= si.totalram / 8 + si.totalram / 64;
}

int main(void)
{
	static const size_t sizes[] = {
		0, 1, 24, 4096, 65535, 65536, 65537, 100000,
		(2u << 20) - 24, 2u << 20, (2u << 20) + 24, 5u << 20, 32u << 20 };
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	char what[160];

	printf("1..%zu\n", n + n * (n - 1) / 2 + n / 2 + 2);
	/* Made new: zeroes, writable to the last byte, let go. */
	for (size_t i = 0; i < n; i++) {
		unsigned char *p = gh_big_alloc(sizes[i], i & 1);
		bool good = p && zeroes(p, sizes[i]);

		if (good)
			fill(p, sizes[i], (unsigned)i);
		good = good && holds(p, sizes[i], (unsigned)i);
		snprintf(what, sizeof(what),
			 "%zu bytes made: zeroes, then what is written",
			 sizes[i]);
		ok(good, what);
		gh_big_free(p, sizes[i]);
	}
	/* Grown from every size to every larger one, what it held kept. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			size_t keep = sizes[i] - sizes[i] / 3;
			unsigned char *p = gh_big_alloc(sizes[i], false), *q;
			bool good;

			if (p)
				fill(p, sizes[i], 7);
			q = p ? gh_big_grow(p, sizes[i], sizes[j], keep) : NULL;
			good = q && holds(q, keep, 7);
			if (good) {
				/* every byte of the new size writable */
				fill(q, sizes[j], 9);
				good = holds(q, sizes[j], 9);
			}
			snprintf(what, sizeof(what),
				 "grown from %zu to %zu bytes: the first %zu kept",
				 sizes[i], sizes[j], keep);
			ok(good, what);
			gh_big_free(q ? q : p, q ? sizes[j] : sizes[i]);
		}
	/* Grown from nothing. */
	for (size_t i = 0; i < n / 2; i++) {
		size_t s = sizes[2 * i + 1];
		unsigned char *q = gh_big_grow(NULL, 0, s, 0);

		if (q)
			fill(q, s, 3);
		snprintf(what, sizeof(what), "grown from nothing to %zu bytes", s);
		ok(q && holds(q, s, 3), what);
		gh_big_free(q, s);
	}
	/* Large ones on a huge page's boundary, where there are huge pages. */
	{
		unsigned char *p = gh_big_alloc(8u << 20, true);
		unsigned char *q = gh_big_grow(gh_big_alloc(2u << 20, false),
					       2u << 20, 16u << 20, 0);

		if (huge_pages())
			ok(p && q && (uintptr_t)p % (2u << 20) == 0,
			   "8 MiB made on a 2 MiB boundary");
		else
			printf("ok %d # SKIP no transparent huge pages, or little memory free\n",
			       ++test_no);
		ok(q != NULL, "2 MiB grown to 16 MiB");
		gh_big_free(p, 8u << 20);
		gh_big_free(q, 16u << 20);
	}
	return 0;
}
