/* count_chars.h - counting the code points of UTF-8 text on the CPU */
#ifndef GH_COUNT_CHARS_H
#define GH_COUNT_CHARS_H

#include <stdint.h>

#include "gpuhist.h"

/* One thread's 32-bit counters, emptied into 64-bit totals after each
 * chunk (a chunk is at most GPUHIST_CHUNK_MAX bytes, so none wraps). */
struct gh_char_tally;

struct gh_char_tally *gh_char_tally_new(void);
void gh_char_tally_free(struct gh_char_tally *t);

/* Counts the characters that positions [from, to) of buf[0..n) begin
 * (gh_utf8.h's rule); the bytes outside are context only. */
void gh_count_chars(struct gh_char_tally *t, const unsigned char *buf,
		    uint64_t n, uint64_t from, uint64_t to);

/* Adds t into chars and empties t: GPUHIST_OK or GPUHIST_ERR_NOMEM. */
int gh_char_tally_flush(struct gh_char_tally *t, struct gpuhist_chars *chars);

/* The same count one position at a time: the reference for tests. */
void gh_count_chars_simple(const unsigned char *buf, uint64_t n,
			   uint64_t from, uint64_t to,
			   struct gpuhist_chars *chars);

#endif
