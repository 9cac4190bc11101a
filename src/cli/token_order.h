/* token_order.h - the order tokens are shown in: most frequent first,
 * equal counts in byte order; and the n first of millions, picked on
 * threads without sorting the rest (report_tokens.c's rows) */
#ifndef GH_TOKEN_ORDER_H
#define GH_TOKEN_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuhist.h"

/* A token as it is sorted: most frequent first, then by its bytes, whose
 * first 16 (big-endian, zero-padded) settle most ties without a look at
 * the bytes themselves. */
struct gh_sort_key {
	uint64_t count;
	uint64_t head[2];
	const struct gpuhist_token *t;
};

/* Two gpuhist_tokens (for qsort) by their bytes, a shorter prefix first. */
int gh_by_bytes(const void *a, const void *b);
/* Two gh_sort_keys (for qsort) in the order shown. */
int gh_by_key(const void *a, const void *b);
/* Sorts len keys in gh_by_key's order (by_count), or in gh_by_bytes'
 * order of their tokens (the keys' tokens distinct), as qsort would but
 * without its comparisons of long common prefixes: a multikey quicksort
 * on 8-byte words (the count, the two heads, then the bytes), its parts
 * on up to threads threads (0: as many as there are processors).  The
 * sort uses head[1]
 * as its scratch: after it, only count, head[0] and t hold. */
void gh_sort_keys(struct gh_sort_key *k, size_t len, bool by_count,
		  int threads);
/* Puts the n first of len keys (n < len) first, in no order. */
void gh_select_first(struct gh_sort_key *k, size_t len, size_t n);
/* The keys of len tokens (a copy the caller frees; NULL when out of
 * memory). */
struct gh_sort_key *gh_keys_of(const struct gpuhist_token *t, size_t len);
/* The keys of the n first of len tokens, in no order (a copy the caller
 * frees; NULL when out of memory), picked on up to threads threads (0:
 * one a processor). */
struct gh_sort_key *gh_best_keys(const struct gpuhist_token *t, size_t len,
				 size_t n, int threads);

#endif
