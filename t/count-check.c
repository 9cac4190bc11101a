/* count-check.c - TAP test: the fast CPU count equals the one-byte loop,
 * at every length 0..300, every start alignment, and on skewed data. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/count.h"

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

/* Whether fast and simple agree on p[0..n). */
static int agree(const unsigned char *p, uint64_t n)
{
	uint64_t fast[256] = { 0 }, simple[256] = { 0 };

	gh_count_bytes(p, n, fast);
	gh_count_bytes_simple(p, n, simple);
	return !memcmp(fast, simple, sizeof(fast));
}

int main(void)
{
	enum { LEN = 1 << 20 };
	unsigned char *buf = malloc(LEN + 64);
	uint32_t x = 12345;
	int all;

	if (!buf)
		return 1;
	printf("1..5\n");
	for (size_t i = 0; i < LEN + 64; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (unsigned char)(x >> 16);
	}

	all = 1;
	for (uint64_t n = 0; n <= 300; n++)
		for (int start = 0; start < 16; start++)
			all &= agree(buf + start, n);
	ok(all, "random bytes, lengths 0..300, 16 start alignments");
	ok(agree(buf + 3, LEN), "1 MiB of random bytes, unaligned");

	memset(buf, 0xff, LEN);
	ok(agree(buf + 1, LEN - 1), "one repeated byte (0xff)");
	memset(buf, 0, LEN);
	ok(agree(buf, LEN), "one repeated byte (0x00)");

	for (size_t i = 0; i < LEN; i++)
		buf[i] = "aaaab  e\n"[i % 9];
	ok(agree(buf + 5, LEN - 7), "text-like runs");
	free(buf);
	return 0;
}
