/* submit.h - the one way chunks reach a backend: cut at their edges first
 *
 * Each view an input is counted by (view.h) cuts the chunk first: keeps
 * its ends and sets what the backend reads for it.  Cutting needs the
 * chunk's place in its input.
 */
#ifndef GH_SUBMIT_H
#define GH_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "place.h"
#include "view.h"

/* Why a reader stopped once its count was cancelled. */
#define GH_CANCELLED "cancelled"

/* Submits chunk c (len bytes at `at`) of input to b, cut first by the
 * views v (NULL or none: the byte totals alone).  A chunk left with
 * nothing for the backend to count goes back to it unused.  NULL, or why
 * it failed: the backend's error, a view's (out of memory for the edges
 * of chunks, a spill), or GH_CANCELLED once the count is cancelled
 * (b->cancel; the chunk goes back unused), which the caller reports
 * (b->error is the backend's alone). */
const char *gh_submit(const struct gh_views *v, struct gh_backend *b,
		      int input, struct gh_chunk *c, uint64_t len,
		      struct gh_place at);

/* The same for a batch of gzip members the backend decoded itself
 * (backend.h): cut at its edges from its head and tail, then counted
 * (unless nothing is left to count); the caller still gives it back. */
const char *gh_submit_members(const struct gh_views *v, struct gh_backend *b,
			      int input, struct gh_members *m,
			      struct gh_place at);

#endif
