/* place.h - where a chunk lies in its input, which joining its edges
 * needs (seams.c by piece, edges.c and tokens.c by offset) */
#ifndef GH_PLACE_H
#define GH_PLACE_H

#include <stdbool.h>
#include <stdint.h>

/* Where a chunk lies: piece `major`, from byte `start` of it, the piece's
 * last chunk when `last` (seams.h); and from byte `offset` of the input
 * (edges.h; pieces follow one another, so only sources that know how long
 * the pieces before were can count statistics). */
struct gh_place {
	uint64_t major, start;
	bool last;
	uint64_t offset;
};

/* A chunk of an input read in order, or at offsets: piece 0. */
static inline struct gh_place gh_place_at(uint64_t offset)
{
	return (struct gh_place){ .start = offset, .offset = offset };
}

#endif
