/* submit.h - the one way chunks reach a backend: cut at their edges first
 *
 * Counting code points, a chunk's edges go to seams.c; counting ent's
 * statistics, to edges.c.  Either needs the chunk's place in its input.
 */
#ifndef GH_SUBMIT_H
#define GH_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "edges.h"
#include "seams.h"
#include "place.h"

/* What joins one input's chunks; either may be NULL. */
struct gh_joins {
	struct gh_seams *seams;
	struct gh_edges *edges;
	struct gh_tokens *tokens;
};

/* Whether j joins chunks by their offsets in the output (edges.c's sums,
 * tokens.c's ends), which a decoder must then know for every chunk. */
static inline bool gh_joins_by_offset(const struct gh_joins *j)
{
	return j && (j->edges || j->tokens);
}

/* Why a reader stopped once its count was cancelled. */
#define GH_CANCELLED "cancelled"

/* Submits chunk c (len bytes at `at`) of input to b, cut first by what
 * j holds (j may be NULL).  A chunk left with nothing for the backend to
 * count goes back to it unused.  NULL, or why it failed: the backend's
 * error, out of memory for the chunks' edges, or GH_CANCELLED once the
 * count is cancelled (b->cancel; the chunk goes back unused), which the
 * caller reports (b->error is the backend's alone). */
const char *gh_submit(const struct gh_joins *j, struct gh_backend *b,
		      int input, struct gh_chunk *c, uint64_t len,
		      struct gh_place at);

/* The same for a batch of gzip members the backend decoded itself
 * (backend.h): cut at its edges from its head and tail, then counted
 * (unless nothing is left to count); the caller still gives it back. */
const char *gh_submit_members(const struct gh_joins *j, struct gh_backend *b,
			      int input, struct gh_members *m,
			      struct gh_place at);

#endif
