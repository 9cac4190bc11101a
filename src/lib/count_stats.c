/* count_stats.c - ent's stream sums of one chunk, on the CPU
 *
 * The products of adjacent bytes are summed 32 bits at a time over blocks
 * short enough not to wrap (65025 a product), then into 64 bits; the
 * compiler turns the inner loop into vector code.  Groups are tested one
 * by one, a sixth of the bytes.
 */
#include "config.h"

#include "count_stats.h"
#include "gh_stats.h"

/* Products a 32-bit sum holds: 65025 x 65536 < 2^32. */
#define PAIRS_BLOCK 65536

void gh_count_stats(const unsigned char *buf, uint64_t n, unsigned phase,
		    struct gh_stream_part *part)
{
	uint64_t pairs = 0, hits = 0;

	for (uint64_t i = 0; i + 1 < n;) {
		uint64_t end = n - 1 - i < PAIRS_BLOCK ? n - 1 : i + PAIRS_BLOCK;
		uint32_t sum = 0;

		for (; i < end; i++)
			sum += (uint32_t)buf[i] * buf[i + 1];
		pairs += sum;
	}
	for (uint64_t g = phase; g + GH_PI_GROUP <= n; g += GH_PI_GROUP)
		hits += (uint64_t)gh_pi_hit(buf + g);
	part->pairs += pairs;
	part->hits += hits;
}
