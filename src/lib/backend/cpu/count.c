/* count.c - counting bytes on the CPU into 256 exact 64-bit totals
 *
 * A block is counted as four streams at once (its four quarters), eight
 * bytes of each loaded at a time and spread over eight 32-bit tables:
 * consecutive equal bytes (runs of spaces, a file of zeros) increment
 * different counters instead of waiting on one store after another, and
 * the four streams' increments are independent of each other, which keeps
 * more of them in flight (1.1x the single stream over four tables on an
 * H100 host's cores, 1.1-1.7x on the dev VM's: bench/NOTES.md).  The
 * tables are added into the 64-bit totals every GH_COUNT_BLOCK bytes, long
 * before any 32-bit counter could wrap.
 */
#include "config.h"

#include <string.h>

#include "count.h"

#define GH_COUNT_TABLES 8
#define GH_COUNT_STREAMS 4
#define GH_COUNT_BLOCK ((uint64_t)1 << 30)

/* Each table takes one byte in eight of the streams' part; the rest (under
 * 4 x 8 bytes) goes to table 0. */
_Static_assert(GH_COUNT_BLOCK / GH_COUNT_TABLES + 64 < ((uint64_t)1 << 32),
	       "a table's counter must not wrap within one block");

/* The four low bytes of x into tables o..o+3, and its four high bytes. */
#define LOW4(t, x, o)                                              \
	do {                                                       \
		t[(o)][(x) & 0xff]++;                              \
		t[(o) + 1][((x) >> 8) & 0xff]++;                   \
		t[(o) + 2][((x) >> 16) & 0xff]++;                  \
		t[(o) + 3][((x) >> 24) & 0xff]++;                  \
	} while (0)
#define HIGH4(t, x, o)                                             \
	do {                                                       \
		t[(o)][((x) >> 32) & 0xff]++;                      \
		t[(o) + 1][((x) >> 40) & 0xff]++;                  \
		t[(o) + 2][((x) >> 48) & 0xff]++;                  \
		t[(o) + 3][(x) >> 56]++;                           \
	} while (0)

static void count_block(const unsigned char *p, uint64_t n,
			uint64_t totals[256])
{
	uint32_t t[GH_COUNT_TABLES][256];
	uint64_t quarter = n / GH_COUNT_STREAMS & ~(uint64_t)7, i;
	const unsigned char *q1 = p + quarter, *q2 = q1 + quarter,
			    *q3 = q2 + quarter;

	memset(t, 0, sizeof(t));
	for (i = 0; i < quarter; i += 8) {
		uint64_t a, b, c, d;

		memcpy(&a, p + i, 8);
		memcpy(&b, q1 + i, 8);
		memcpy(&c, q2 + i, 8);
		memcpy(&d, q3 + i, 8);
		LOW4(t, a, 0);
		LOW4(t, b, 4);
		LOW4(t, c, 0);
		LOW4(t, d, 4);
		HIGH4(t, a, 0);
		HIGH4(t, b, 4);
		HIGH4(t, c, 0);
		HIGH4(t, d, 4);
	}
	for (i = GH_COUNT_STREAMS * quarter; i < n; i++)
		t[0][p[i]]++;
	for (int v = 0; v < 256; v++) {
		uint64_t sum = 0;

		for (int k = 0; k < GH_COUNT_TABLES; k++)
			sum += t[k][v];
		totals[v] += sum;
	}
}

void gh_count_bytes(const unsigned char *p, uint64_t n, uint64_t totals[256])
{
	while (n) {
		uint64_t len = n < GH_COUNT_BLOCK ? n : GH_COUNT_BLOCK;

		count_block(p, len, totals);
		p += len;
		n -= len;
	}
}

void gh_count_bytes_simple(const unsigned char *p, uint64_t n,
			   uint64_t totals[256])
{
	for (uint64_t i = 0; i < n; i++)
		totals[p[i]]++;
}
