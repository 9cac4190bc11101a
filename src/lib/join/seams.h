/* seams.h - one input's chunks joined at their edges, for code points
 *
 * A chunk counts its code points on its own but for the three bytes at
 * each end, whose characters may begin or end in the chunk beside it.
 * Whoever submits a chunk first cuts it here: the backend then counts
 * positions [c->from, c->to) with the chunk's other bytes as context, and
 * the edges are kept with the chunk's place in the input and counted here
 * once their neighbours have come, whatever order chunks are submitted
 * in, so a sequence split between chunks counts once.
 *
 * A chunk's place is (major, start): its first byte's offset `start`
 * within piece `major` of the input.  One reader, or several reading a
 * file at offsets, use piece 0; parallel decoders number their pieces
 * (gzip regions, zstd frames) and start each at 0, marking the last chunk
 * of a piece (`last`, which may be empty).  Pieces follow one another in
 * the input; chunks of one piece are contiguous.
 */
#ifndef GH_SEAMS_H
#define GH_SEAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "gpuhist.h"

struct gh_seams;

/* Edges are counted into out (which the caller must not touch until
 * gh_seams_end has returned); NULL when out of memory. */
struct gh_seams *gh_seams_new(struct gpuhist_chars *out);
void gh_seams_free(struct gh_seams *s);

/* Forgets every chunk, to count the input again from its start. */
void gh_seams_reset(struct gh_seams *s);

/* Bytes just before the input (a byte range of a file): context only. */
void gh_seams_before(struct gh_seams *s, const unsigned char *bytes, int n);

/*
 * Cuts chunk c (len bytes at (major, start), the last of its piece when
 * last) before it is submitted: sets c->from and c->to and keeps its
 * edges.  Safe from several threads at once.  0, or -1 when out of memory.
 */
int gh_seams_cut(struct gh_seams *s, struct gh_chunk *c, uint64_t len,
		 uint64_t major, uint64_t start, bool last);

/* The same for a chunk whose bytes are elsewhere (on a device): its first
 * bytes at first, its last ones just before end, GH_ENDS_BYTES of each (or
 * len, where fewer). */
int gh_seams_cut_ends(struct gh_seams *s, struct gh_chunk *c,
		      const unsigned char *first, const unsigned char *end,
		      uint64_t len, uint64_t major, uint64_t start, bool last);

/* Piece major ends after `start` of its bytes (its last chunk was cut
 * without `last`, or it had none).  0, or -1 when out of memory. */
int gh_seams_end_piece(struct gh_seams *s, uint64_t major, uint64_t start);

/* Counts every edge left, the input ending after `after` (bytes just past
 * a byte range, context only; n may be 0).  0, or -1 when out of memory. */
int gh_seams_end(struct gh_seams *s, const unsigned char *after, int n);

#endif
