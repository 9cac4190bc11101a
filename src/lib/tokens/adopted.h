/* adopted.h - an input's distinct tokens counted elsewhere (a device's
 * table that lasted for the input), handed to its counts whole and made
 * part of their result at the end without a host table: a token the
 * host's tables also hold (a joined end, a chunk the CPU counted) has
 * its count added there, and leaves the list
 */
#ifndef GH_ADOPTED_H
#define GH_ADOPTED_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"
#include "table.h"

/* A record: this, then its len bytes, zero-filled to a multiple of 8
 * (kernels/gh_tokens_kernel.h's struct gh_tok_record, checked where both
 * are seen).  A count of 0 marks a record whose count went to a host
 * table. */
struct gh_adopted_record {
	uint64_t hash;
	uint64_t count;
	uint32_t len;
	uint32_t unused;
};

static inline uint64_t gh_adopted_record_bytes(uint64_t len)
{
	return sizeof(struct gh_adopted_record) + ((len + 7) & ~(uint64_t)7);
}

/* The records back to back in data[0, bytes), distinct tokens each; and,
 * so that threads may read them from many places at once, for each window
 * of 2^GH_ADOPTED_WINDOW_BITS bytes the place of the first record that
 * begins in it, in 8-byte words (UINT32_MAX: none), and how many begin in
 * it. */
#define GH_ADOPTED_WINDOW_BITS 20
struct gh_adopted {
	unsigned char *data;
	uint64_t bytes, distinct;
	uint32_t *first, *n;
	uint64_t windows;
	/* Only the commonest: the records are those whose count is a
	 * bound or more, among them the input's commonest, and the host's
	 * tables held nothing more (gh_counts_take_held); all_distinct and
	 * all_total are the input's whole. */
	bool commonest;
	uint64_t all_distinct, all_total;
};

/* The windows an arena of `bytes` bytes has. */
static inline uint64_t gh_adopted_windows(uint64_t bytes)
{
	return (bytes >> GH_ADOPTED_WINDOW_BITS) + 1;
}

/* What gh_adopted_list found wrong. */
enum gh_adopted_fault {
	GH_ADOPTED_OK = 0,
	GH_ADOPTED_TORN,        /* the windows do not match the records */
	GH_ADOPTED_OVERFLOW,    /* a count passed 2^64-1 */
	GH_ADOPTED_MEMORY,
};

/* The most tables gh_adopted_list meets. */
#define GH_ADOPTED_TABLES_MAX 64

/* Lists a's tokens into to[0, a->distinct), in no order: a token that
 * tables[hash >> (64 - table_bits)] (of 2^table_bits, at most
 * GH_ADOPTED_TABLES_MAX) holds has its count added
 * there (and to that table's total), its record's count set to 0 (so
 * that listing again adds it once), and leaves a hole, {NULL, 0, 0}, in
 * `to`.  *total is the sum of the counts listed; *holes (malloc'd, NULL
 * where none) the n_holes holes' places, ascending.  Threads read the
 * tables at once; the counts found there are added once they are done. */
enum gh_adopted_fault gh_adopted_list(struct gh_adopted *a,
				      struct gh_token_table **tables,
				      int table_bits,
				      struct gpuhist_token *to,
				      uint64_t *total, uint64_t **holes,
				      uint64_t *n_holes);

/* Fills the holes (places ascending) of tok[0, n) with its last tokens;
 * the tokens left. */
uint64_t gh_adopted_close_holes(struct gpuhist_token *tok, uint64_t n,
				const uint64_t *hole, uint64_t n_holes);

void gh_adopted_free(struct gh_adopted *a);

#endif
