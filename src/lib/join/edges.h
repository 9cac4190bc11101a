/* edges.h - one input's chunks joined at their edges, for ent's statistics
 *
 * A backend sums each chunk's adjacent-byte products and Monte Carlo hits
 * on its own (count_stats.h); what crosses from one chunk into the next
 * (the pair at each join, a group split between chunks, the last byte's
 * wrap to the first) is counted here, from each chunk's first and last
 * five bytes, once the chunks before it have come, whatever order they
 * are submitted in.  A chunk's place is its first byte's offset in the
 * input, which every source knows when it submits (the parallel decoders
 * too: see gzip_parallel.c and zstd_parallel.c).
 */
#ifndef GH_EDGES_H
#define GH_EDGES_H

#include <stdint.h>

#include "backend/backend.h"
#include "gpuhist.h"

struct gh_edges;

/* NULL when out of memory. */
struct gh_edges *gh_edges_new(void);
void gh_edges_free(struct gh_edges *e);

/* Forgets every chunk, to count the input again from its start. */
void gh_edges_reset(struct gh_edges *e);

/* Keeps the edges of chunk c, len bytes at offset, and sets c->phase for
 * the backend.  Safe from several threads at once.  0, or -1 when out of
 * memory. */
int gh_edges_cut(struct gh_edges *e, struct gh_chunk *c, uint64_t len,
		 uint64_t offset);

/* The same for a chunk whose bytes are elsewhere (on a device): its first
 * bytes at first, its last ones just before end, GH_ENDS_BYTES of each (or
 * len, where fewer). */
int gh_edges_cut_ends(struct gh_edges *e, struct gh_chunk *c,
		      const unsigned char *first, const unsigned char *end,
		      uint64_t len, uint64_t offset);

/* Adds what crossed the chunks' edges into out (the backends' sums added
 * there too make the input's), and its groups; the input has `bytes`.  0,
 * or -1 when a chunk is missing (some byte before `bytes` never came) or
 * memory ran out. */
int gh_edges_end(struct gh_edges *e, uint64_t bytes,
		 struct gpuhist_stream *out);

#endif
