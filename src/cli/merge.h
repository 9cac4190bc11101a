/* merge.h - reading the 256 totals back from a -f json result (--merge) */
#ifndef GH_MERGE_H
#define GH_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"

/* Reads NAME ("-" is stdin), a document gpuhist -f json wrote, into the
 * 256 totals of its "total" entry.  The whole document is checked (merge.c
 * says how), and its totals must fit beside sum, the results merged before
 * it: no count, nor all of them together, may pass 2^64-1.  On failure
 * prints "gpuhist: NAME: reason", leaves totals alone and returns -1.
 * With chars (-m; empty, and the caller's to free whatever is returned),
 * the total's code points go there too, and every entry must have them.
 * The total's stream sums (--stats) go to stream, with *stream_known
 * whether the document has them (either may be NULL). */
int gh_merge_read(const char *name, const uint64_t sum[256],
		  uint64_t totals[256], struct gpuhist_chars *chars,
		  struct gpuhist_stream *stream, bool *stream_known);

#endif
