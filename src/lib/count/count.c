/* count.c - counting bytes on the CPU into 256 exact 64-bit totals
 *
 * Eight bytes are loaded at once and spread over four 32-bit tables, so
 * that consecutive equal bytes (runs of spaces, a file of zeros) increment
 * different counters instead of waiting on one store after another.  The
 * tables are added into the 64-bit totals every GH_COUNT_BLOCK bytes, long
 * before any 32-bit counter could wrap.
 */
#include "config.h"

#include <string.h>

#include "count.h"

#define GH_COUNT_TABLES 4
#define GH_COUNT_BLOCK ((uint64_t)1 << 30)

_Static_assert(GH_COUNT_BLOCK / GH_COUNT_TABLES * 2 < ((uint64_t)1 << 32),
	       "a table's counter must not wrap within one block");

static void count_block(const unsigned char *p, uint64_t n,
			uint64_t totals[256])
{
	uint32_t t[GH_COUNT_TABLES][256];
	uint64_t i = 0;

	memset(t, 0, sizeof(t));
	for (; i + 16 <= n; i += 16) {
		uint64_t a, b;

		memcpy(&a, p + i, 8);
		memcpy(&b, p + i + 8, 8);
		t[0][a & 0xff]++;         t[1][(a >> 8) & 0xff]++;
		t[2][(a >> 16) & 0xff]++; t[3][(a >> 24) & 0xff]++;
		t[0][(a >> 32) & 0xff]++; t[1][(a >> 40) & 0xff]++;
		t[2][(a >> 48) & 0xff]++; t[3][a >> 56]++;
		t[0][b & 0xff]++;         t[1][(b >> 8) & 0xff]++;
		t[2][(b >> 16) & 0xff]++; t[3][(b >> 24) & 0xff]++;
		t[0][(b >> 32) & 0xff]++; t[1][(b >> 40) & 0xff]++;
		t[2][(b >> 48) & 0xff]++; t[3][b >> 56]++;
	}
	for (; i < n; i++)
		t[0][p[i]]++;
	for (int v = 0; v < 256; v++)
		totals[v] += (uint64_t)t[0][v] + t[1][v] + t[2][v] + t[3][v];
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
