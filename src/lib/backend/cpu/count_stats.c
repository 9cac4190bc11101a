/* count_stats.c - ent's stream sums of one chunk, on the CPU
 *
 * The products of adjacent bytes: on x86-64, sixteen at a time with SSE2
 * (the bytes at i and at i + 1 widened to 16 bits, multiplied and added
 * in pairs by pmaddwd into 32-bit lanes, emptied into 64 bits before they
 * could wrap); elsewhere one at a time.  Groups are tested one by one
 * from an 8-byte load (a sixth of the bytes).
 */
#include "config.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define HAVE_SSE2_PAIRS 1
#endif

#include "count_stats.h"
#include "gh_stats.h"

/* Blocks of 16 bytes a 32-bit lane holds: 4 products of at most 65025
 * each block, 65025 x 4 x 16384 < 2^32. */
#define BLOCKS_PER_FLUSH 16384

/* Sum of p[i] x p[i + 1] for i < n (p[n] is read: n + 1 bytes there). */
static uint64_t pairs_of(const unsigned char *p, uint64_t n)
{
	uint64_t sum = 0, i = 0;

#ifdef HAVE_SSE2_PAIRS
	const __m128i zero = _mm_setzero_si128();

	while (n - i >= 16) {
		uint64_t blocks = (n - i) / 16;
		__m128i acc = _mm_setzero_si128();

		if (blocks > BLOCKS_PER_FLUSH)
			blocks = BLOCKS_PER_FLUSH;
		for (uint64_t b = 0; b < blocks; b++, i += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(p + i));
			__m128i c = _mm_loadu_si128((const __m128i *)(p + i + 1));

			acc = _mm_add_epi32(acc, _mm_madd_epi16(
				_mm_unpacklo_epi8(a, zero),
				_mm_unpacklo_epi8(c, zero)));
			acc = _mm_add_epi32(acc, _mm_madd_epi16(
				_mm_unpackhi_epi8(a, zero),
				_mm_unpackhi_epi8(c, zero)));
		}
		uint32_t lanes[4];

		_mm_storeu_si128((__m128i *)lanes, acc);
		sum += (uint64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3];
	}
#endif
	for (; i < n; i++)
		sum += (uint32_t)p[i] * p[i + 1];
	return sum;
}

void gh_count_stats(const unsigned char *buf, uint64_t n, unsigned phase,
		    struct gh_stream_part *part)
{
	uint64_t hits = 0, g = phase;

	if (n >= 2)
		part->pairs += pairs_of(buf, n - 1);
	/* Whole 8-byte loads while they fit, the last groups byte by byte. */
	for (; g + 8 <= n; g += GH_PI_GROUP) {
		const unsigned char *q = buf + g;
		/* first byte most significant (compilers load and swap) */
		uint64_t v = (uint64_t)q[0] << 56 | (uint64_t)q[1] << 48 |
			     (uint64_t)q[2] << 40 | (uint64_t)q[3] << 32 |
			     (uint64_t)q[4] << 24 | (uint64_t)q[5] << 16 |
			     (uint64_t)q[6] << 8 | q[7];

		hits += (uint64_t)gh_pi_inside((uint32_t)(v >> 40),
					       (uint32_t)(v >> 16) & 0xffffff);
	}
	for (; g + GH_PI_GROUP <= n; g += GH_PI_GROUP)
		hits += (uint64_t)gh_pi_hit(buf + g);
	part->hits += hits;
}
