/* local.h - a chunk's units added up by the thread that cuts them, before
 * they reach the shared tables (counts.h) */
#ifndef GH_TOKENS_LOCAL_H
#define GH_TOKENS_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "counts.h"

/* Slots of a local table (a power of two); it is flushed at 3/4 full. */
#define GH_LOCAL_SLOTS 2048

struct gh_local_slot {
	uint64_t hash;                  /* 0 with n 0: free */
	const unsigned char *p;         /* the unit's bytes, in the chunk */
	uint64_t len, n;
};

/* One thread's units of one chunk.  Logs repeat: a few clients, paths and
 * words make most of the units, and adding each to the shared tables
 * made every thread write the same few entries (a cache line passed from
 * core to core for each) and take their locks.  Added up here first, a
 * unit that repeats reaches the shared tables once a flush.  Where the
 * units hardly repeat (9 in 10 distinct at a flush), the table steps
 * aside for the rest of the chunk and units go through in batches. */
struct gh_local {
	struct gh_counts *counts;
	struct gh_local_slot *slot;     /* GH_LOCAL_SLOTS, or NULL: direct */
	uint64_t used;                  /* distinct units held */
	uint64_t added;                 /* units added since the last flush */
	struct gh_unit batch[1024];     /* units on their way (direct, or a
					 * flush): some 16 a shared table, so
					 * that fetching ahead pays (counts.c) */
	int n;
};

/* Starts l for units of `bytes` bytes of one chunk: small chunks go
 * direct.  -1 when out of memory. */
int gh_local_begin(struct gh_local *l, struct gh_counts *c, uint64_t bytes);

/* Adds one unit (len bytes at p, which stay put until gh_local_end). */
int gh_local_add(struct gh_local *l, const unsigned char *p, uint64_t len);
/* ... n times (a run of the same unit). */
int gh_local_add_n(struct gh_local *l, const unsigned char *p, uint64_t len,
		   uint64_t n);

/* Hands what it holds to the shared tables and lets its memory go; 0 or
 * -1 (then the counts have failed). */
int gh_local_end(struct gh_local *l);

#endif
