/* count_stats.h - ent's stream sums of one chunk, on the CPU */
#ifndef GH_COUNT_STATS_H
#define GH_COUNT_STATS_H

#include <stdint.h>

/* What a chunk adds on its own: the products of its adjacent bytes, and
 * the hits of the groups that begin at positions phase, phase + 6, ...
 * and end inside it (gh_stats.h). */
struct gh_stream_part {
	uint64_t pairs, hits;
};

/* Adds buf[0..n)'s pairs and hits (groups from phase, 0..5) into part. */
void gh_count_stats(const unsigned char *buf, uint64_t n, unsigned phase,
		    struct gh_stream_part *part);

#endif
