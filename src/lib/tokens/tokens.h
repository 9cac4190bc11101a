/* tokens.h - one input's tokens (words, lines, or a field of each line)
 * counted exactly, as byte strings, however its chunks come
 *
 * Each chunk is cut where it is submitted (submit.c): the units wholly
 * inside it (between its first and its last boundary: a separator byte,
 * or a newline) are counted at once, from whichever thread submits it;
 * its two ends, which may belong to units that cross into the chunks
 * beside it, are kept with the chunk's offset in the input.  At the end
 * the ends are joined in offset order and the units they make counted.
 * The counts are counts.c's: in memory up to the memory option, spilled
 * to the temporary directory past it.
 */
#ifndef GH_TOKENS_H
#define GH_TOKENS_H

#include <stdint.h>

#include "counts.h"
#include "gpuhist.h"

struct gh_tokens;

/* The view opts ask for (opts->tokens, field, separator); NULL when out of
 * memory. */
struct gh_tokens *gh_tokens_new(const struct gpuhist_options *opts);
void gh_tokens_free(struct gh_tokens *t);

/* Forgets everything, to count the input again from its start. */
void gh_tokens_reset(struct gh_tokens *t);

/* Counts the units inside len bytes at p, piece major's bytes from start
 * on (an input read in order: piece 0, start its offset), and keeps its
 * ends.  Safe from several threads at once.  0, or -1 when out of
 * memory. */
int gh_tokens_cut(struct gh_tokens *t, const unsigned char *p, uint64_t len,
		  uint64_t major, uint64_t start);

/* The same, but leaves the units wholly inside the chunk for the caller
 * to count (a backend that counts them on a device, then adds them with
 * gh_tokens_add): they lie in p[*from, *to), which begins just after a
 * newline (lines, fields) or at a separator (words) and ends with one;
 * *from == *to when there are none. */
int gh_tokens_cut_ends(struct gh_tokens *t, const unsigned char *p,
		       uint64_t len, uint64_t major, uint64_t start,
		       uint64_t *from, uint64_t *to);

/* Piece major (a parallel decoder's: pieces are numbered from 0 in the
 * input's order) ended after len bytes: the next piece's chunks join on
 * once all of its are in.  Safe from several threads at once.  0, or -1
 * when out of memory. */
int gh_tokens_end_piece(struct gh_tokens *t, uint64_t major, uint64_t len);

/* Counts the units of p[from, to) that gh_tokens_cut_ends left (a
 * backend that counts them on the host, in its own threads).  Safe from
 * several threads at once.  0, or -1, which gh_tokens_end then reports
 * too. */
int gh_tokens_count_inside(struct gh_tokens *t, const unsigned char *p,
			   uint64_t from, uint64_t to);

/* Notes that the host counts a chunk's inside (called before it is
 * queued), so that no device picks the commonest without it. */
void gh_tokens_inside_on_host(struct gh_tokens *t);

/* Adds n units counted elsewhere, their hashes (gh_token_hash) and counts
 * given.  Safe from several threads at once.  0, or -1, which
 * gh_tokens_end then reports too. */
int gh_tokens_add(struct gh_tokens *t, struct gh_unit *units, int n);
/* Makes room in its counts' table k for units more tokens of bytes
 * bytes (gh_counts_reserve); 0, or -1 (t says why, at its end). */
int gh_tokens_reserve(struct gh_tokens *t, unsigned k, uint64_t units,
		      uint64_t bytes);

/* Hands its counts the distinct units a device counted for the whole
 * input (gh_counts_adopt): 0, or 1 where they are not taken. */
int gh_tokens_adopt(struct gh_tokens *t, struct gh_adopted *a);
/* Whether they would be taken (gh_counts_may_adopt). */
bool gh_tokens_may_adopt(struct gh_tokens *t, uint64_t bytes,
			 uint64_t distinct);

/* For a device that counted the input and picks its commonest units
 * (gpu_tokens.c), once every chunk is in and nothing is being added:
 * counts the last unit now, then lists what the host's tables hold
 * (gh_counts_held; none longer than max_len) for the device to add to
 * its own; 0; 1 where the host
 * counted chunks itself or its counts cannot hand them over; -1 when out
 * of memory or a count failed (t says why). */
int gh_tokens_take_held(struct gh_tokens *t, uint64_t max_len,
			unsigned char **recs, uint64_t **offs, uint64_t *n,
			uint64_t *bytes);
/* Empties the host's tables: the device holds their units now. */
void gh_tokens_drop_held(struct gh_tokens *t);

/* Joins the ends of the chunks of an input of `bytes` bytes and counts
 * what they make; then the input's tokens (in no order) are in
 * *out (living as long as t).  0, or -1 when a chunk is missing, memory
 * ran out or a spill failed. */
int gh_tokens_end(struct gh_tokens *t, uint64_t bytes,
		  const struct gpuhist_tokens **out);

/* Why the last -1 (a spill's names its directory). */
const char *gh_tokens_error(const struct gh_tokens *t);

#endif
