/* gh_stats.h - ent's Monte Carlo groups, one rule for the host and the device
 *
 * ent(1) takes the bytes six at a time from the start of its input (a
 * trailing partial group is left out): the first three, most significant
 * first, are x and the last three y, two 24-bit coordinates; the group is
 * a hit when (x, y) lies inside the circle of radius 2^24 - 1, x^2 + y^2
 * <= (2^24 - 1)^2, and pi is four times the hits over the groups.  Both
 * squares fit 48 bits, so the test is exact in 64-bit integers (ent does
 * it in doubles, exact too).
 *
 * A chunk is counted on its own: its groups begin at positions phase,
 * phase + 6, ... (the phase is where the input's next group begins, from
 * the chunk's offset in the input); groups that cross a chunk's ends are
 * counted on the host (edges.c).  The serial correlation needs the sum of
 * the products of adjacent bytes, counted the same way.
 */
#ifndef GH_STATS_H
#define GH_STATS_H

#include <stdint.h>

#ifdef __CUDACC__
#define GH_STATS_HD __host__ __device__ __forceinline__
#else
#define GH_STATS_HD inline
#endif

/* Bytes of a Monte Carlo group. */
#define GH_PI_GROUP 6
/* The circle: (2^24 - 1)^2, as ent has it. */
#define GH_PI_RADIUS2 ((uint64_t)0xffffff * 0xffffff)

/* Whether (x, y), each below 2^24, lies inside the circle. */
static GH_STATS_HD int gh_pi_inside(uint32_t x, uint32_t y)
{
	return (uint64_t)x * x + (uint64_t)y * y <= GH_PI_RADIUS2;
}

/* Whether the group at g[0..6) is a hit. */
static GH_STATS_HD int gh_pi_hit(const unsigned char *g)
{
	uint32_t x = (uint32_t)g[0] << 16 | (uint32_t)g[1] << 8 | g[2];
	uint32_t y = (uint32_t)g[3] << 16 | (uint32_t)g[4] << 8 | g[5];

	return gh_pi_inside(x, y);
}

/* Where the first group begins in a chunk at `offset` in its input. */
static GH_STATS_HD unsigned gh_pi_phase(uint64_t offset)
{
	return (unsigned)((GH_PI_GROUP - offset % GH_PI_GROUP) % GH_PI_GROUP);
}

#endif
