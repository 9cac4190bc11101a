/* counts.h - exact counts of byte strings, held in memory up to a limit
 * and spilled past it
 *
 * SHARDS tables, each with its own lock, a token going to the one its
 * hash's top bits name: threads adding batches seldom wait for each
 * other.  With a memory limit each table may hold limit / SHARDS bytes;
 * a full one is written to the spill file as a segment of its partition
 * and emptied.  At the end each partition that spilled is added up on its
 * own, in at most about half the limit: where that does not fit either,
 * it is split again by the hash's next bits, and so on.  What the result
 * gives is then a list of parts, disjoint sets of tokens each of which
 * fits in memory, read back one at a time (gh_counts_each).
 */
#ifndef GH_COUNTS_H
#define GH_COUNTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"

struct gh_counts;
struct gh_adopted;

/* The hash's top bits that name a token's table. */
#define GH_COUNTS_TABLE_BITS 6

/* The table a token of hash goes to: threads that add tokens of
 * different tables never wait for each other. */
static inline unsigned gh_counts_table_of(uint64_t hash)
{
	return (unsigned)(hash >> (64 - GH_COUNTS_TABLE_BITS));
}

/* A token to add n to; the hash is filled in by gh_counts_add, and given
 * to gh_counts_add_hashed. */
struct gh_unit {
	const unsigned char *p;
	uint64_t len, hash, n;
};

/* memory: bytes the tables may hold, 0 for no limit; dir: where to spill
 * (NULL: $TMPDIR or /tmp).  NULL when out of memory. */
struct gh_counts *gh_counts_new(uint64_t memory, const char *dir);
void gh_counts_free(struct gh_counts *c);

/* Forgets every count (and what was spilled). */
void gh_counts_reset(struct gh_counts *c);

/* Adds n units; safe from several threads at once.  0, or -1
 * (gh_counts_error). */
int gh_counts_add(struct gh_counts *c, struct gh_unit *units, int n);

/* The same, the units' hashes (gh_token_hash) given. */
int gh_counts_add_hashed(struct gh_counts *c, struct gh_unit *units, int n);

/* The same, but without waiting for a table another thread holds (one
 * growing, mostly): the units of such tables are moved to the front of
 * units, and *left says how many; the caller adds them later (their bytes
 * must stay put till then).  0, or -1 (gh_counts_error). */
int gh_counts_add_free(struct gh_counts *c, struct gh_unit *units, int n,
		       int *left);

/* Makes room in table k (gh_counts_table_of) for `units` more tokens of
 * `bytes` bytes, where it stays within its share of the limit, so that
 * adding them there grows nothing; 0, or -1 when out of memory. */
int gh_counts_reserve(struct gh_counts *c, unsigned k, uint64_t units,
		      uint64_t bytes);

/* Takes a list of distinct tokens counted elsewhere (adopted.h; a
 * device's table), which the result then holds besides the tables' (a
 * token in both counted once): 0, and *a is emptied; 1 where it is not
 * taken (one already was; the counts failed; it would pass half the
 * memory limit), *a left as it was.  Safe beside adds. */
int gh_counts_adopt(struct gh_counts *c, struct gh_adopted *a);

/* Whether a list of `distinct` tokens in `bytes` bytes of records would
 * be taken now: none taken yet, the counts not failed, and within half
 * the memory limit. */
bool gh_counts_may_adopt(struct gh_counts *c, uint64_t bytes,
			 uint64_t distinct);

/* The tokens the tables hold, as records (adopted.h's, counts in them)
 * at *recs + (*offs)[i], i < *n, in *bytes in all (malloc'd, the
 * caller's), for a device that counted the rest to add them to its own
 * and pick the commonest; 0; 1 where the counts cannot hand them over
 * (they spilled, failed, or adopted a list, or a token is longer than
 * max_len); -1 when out of memory.  Nothing may be added at the same
 * time. */
int gh_counts_held(struct gh_counts *c, uint64_t max_len,
		   unsigned char **recs, uint64_t **offs, uint64_t *n,
		   uint64_t *bytes);

/* Empties the tables: what gh_counts_held listed is counted elsewhere. */
void gh_counts_drop_held(struct gh_counts *c);

/* Adds up what spilled; then *out is the result (tokens NULL when it
 * spilled: read its parts with gh_counts_each), living as long as c.
 * top: where the caller reads only the top commonest (tokens_top; 0:
 * every token), the result may list only the tokens of the top largest
 * counts' and more (its listed; gh_counts_each then refuses).  0 or -1. */
int gh_counts_end(struct gh_counts *c, uint64_t top,
		  const struct gpuhist_tokens **out);

/* Calls fn with each part of the result until fn returns non-zero, which
 * it returns; GH_COUNTS_UNREAD when a spilled part cannot be read back
 * (gh_counts_error). */
#define GH_COUNTS_UNREAD INT_MIN
int gh_counts_each(struct gh_counts *c,
		   int (*fn)(void *ctx, const struct gpuhist_tokens *part),
		   void *ctx);

/* The counts whose result tk is (every gpuhist_tokens handed out is
 * one's). */
struct gh_counts *gh_counts_of(const struct gpuhist_tokens *tk);

/* Where the commonest of an ended result were picked, where only they
 * are listed: "device" or "host"; else NULL. */
const char *gh_counts_picked_on(const struct gh_counts *c);

/* Why the last -1. */
const char *gh_counts_error(const struct gh_counts *c);

#endif
