/* circle.h - test data for ent's Monte Carlo test: a six-byte group on
 * the edge of its circle (kernel-check.c and stats-check.c) */
#ifndef GH_TEST_CIRCLE_H
#define GH_TEST_CIRCLE_H

#include <math.h>
#include <stdint.h>

/* The group (x, y) with y the largest inside the circle for x, plus out
 * (0 or 1: just inside or just outside), x and y most significant byte
 * first, as ent reads them. */
static inline void circle_group(uint64_t x, int out, unsigned char g[6])
{
	uint64_t rest = (uint64_t)0xffffff * 0xffffff - x * x;
	uint64_t y = (uint64_t)sqrt((double)rest);

	while (y * y > rest)
		y--;
	while ((y + 1) * (y + 1) <= rest)
		y++;
	y += (uint64_t)out;
	if (y > 0xffffff)
		y = 0xffffff;
	g[0] = (unsigned char)(x >> 16);
	g[1] = (unsigned char)(x >> 8);
	g[2] = (unsigned char)x;
	g[3] = (unsigned char)(y >> 16);
	g[4] = (unsigned char)(y >> 8);
	g[5] = (unsigned char)y;
}

#endif
