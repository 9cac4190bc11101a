/* view.h - a view of an input beyond its 256 byte totals (code points,
 * ent's sums, tokens): one const table of what it does, found through the
 * rows of views.c, so that the pipeline, submit.c and the parallel
 * decoders carry "the views asked for" without naming any
 *
 * A view's life, for each input (struct gh_views holds the views asked
 * for and a state of each):
 *
 *	state = new(opts)
 *	before(state, bytes)      -- a byte range's bytes before it (context)
 *	for each chunk, from any thread:
 *		cut(state, chunk, ...)    -- keeps its ends, sets the chunk's
 *		                             fields the backend reads for it
 *	end_piece(state, piece, len) -- a parallel decoder's piece ended
 *	end_cut(state, after)     -- no chunk comes any more
 *	into(state, counted)      -- where the backend's finish() adds what
 *	                             its kernels counted for the view
 *	end(state, totals)        -- joins its ends: the input's result
 *	publish(state, result)    -- its part of struct gpuhist_result
 *	free(state)               -- once the result is reported
 *
 * reset(state) forgets everything, to count the input again from its
 * start.  Any of before, end_piece, end_cut and into may be NULL: the
 * view needs nothing there.  The 256 byte totals are every input's and
 * no view: the backends count them (views.c's rows are what is asked for
 * besides).
 */
#ifndef GH_VIEW_H
#define GH_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "gpuhist.h"
#include "place.h"

/* A chunk to cut: len bytes whose first ones are at first and last ones
 * just before end (GH_ENDS_BYTES of each, or all of them: the whole
 * chunk is at c->data unless on_device), lying at `at`. */
struct gh_cut {
	const unsigned char *first, *end;
	uint64_t len;
	struct gh_place at;
	bool on_device;         /* a batch of members the backend decoded */
};

/* What a view's end() is given: the input's totals (a view may set
 * them: code points give their bytes' totals) and, for a byte range, its
 * length. */
struct gh_view_end {
	uint64_t *totals;       /* 256 */
	bool ranged;
	uint64_t length;        /* a range's bytes */
};

struct gh_view_ops {
	const char *name;               /* "chars", "stats", "tokens" */
	/* Whether opts ask for it. */
	bool (*wanted)(const struct gpuhist_options *opts);
	/* NULL, or why it cannot count a byte range of a file (mpirun). */
	const char *no_ranges;
	/* It joins chunks by their offsets in the output (a decoder must
	 * know every chunk's); it needs every chunk's bytes on the host
	 * (no batch of members decoded on a device). */
	bool by_offset, host_bytes;
	/* Where it joins by offset: who needs them, as a message says it
	 * ("-s needs"). */
	const char *offsets_user;
	/* It takes the place of the byte totals in the backend (code
	 * points: the backend counts only its positions): a chunk none of
	 * whose views needs the backend then goes back uncounted. */
	bool replaces_bytes;

	void *(*new)(const struct gpuhist_options *opts);
	void (*free)(void *state);
	void (*reset)(void *state);
	void (*before)(void *state, const unsigned char *bytes, int n);
	/* Cuts chunk c (x says where its bytes are) and keeps its ends;
	 * *backend: whether the backend has anything to count of it for
	 * this view.  Safe from several threads at once.  0, or -1 when out
	 * of memory (or, for tokens, a spill failed: message()). */
	int (*cut)(void *state, struct gh_chunk *c, const struct gh_cut *x,
		   bool *backend);
	int (*end_piece)(void *state, uint64_t major, uint64_t len);
	/* after: n bytes just past a byte range (context), else NULL. */
	int (*end_cut)(void *state, const unsigned char *after, int n);
	void (*into)(void *state, struct gh_counted *counted);
	/* NULL, or why the input fails. */
	const char *(*end)(void *state, const struct gh_view_end *e);
	void (*publish)(const void *state, struct gpuhist_result *r);
	/* Why the last -1 of cut() or end_piece(), or NULL for "out of
	 * memory for the edges of chunks". */
	const char *(*message)(const void *state);
};

/* The rows: every view there is (views.c). */
extern const struct gh_view_ops *const gh_view_rows[];

/* The views one input is counted by, each with its state. */
#define GH_VIEWS_MAX 8
struct gh_views {
	int n;
	const struct gh_view_ops *ops[GH_VIEWS_MAX];
	void *state[GH_VIEWS_MAX];
};

/* The views opts ask for, each with a new state: 0, or -1 when out of
 * memory (v then holds none). */
int gh_views_open(struct gh_views *v, const struct gpuhist_options *opts);
/* Frees every state; v then holds none. */
void gh_views_close(struct gh_views *v);
void gh_views_reset(struct gh_views *v);
/* NULL, or why the views opts ask for cannot count a byte range. */
const char *gh_views_no_ranges(const struct gpuhist_options *opts);
/* Whether any view joins chunks by offset; needs the bytes on the host;
 * needs the bytes around a byte range.  v may be NULL (none). */
bool gh_views_by_offset(const struct gh_views *v);
bool gh_views_host_bytes(const struct gh_views *v);
bool gh_views_context(const struct gh_views *v);
/* The last view's offsets_user that joins by offset ("the views need"
 * where none does). */
const char *gh_views_offsets_user(const struct gh_views *v);

void gh_views_before(struct gh_views *v, const unsigned char *bytes, int n);
/* Cuts c by every view: NULL, or why not.  *left: the bytes left for the
 * backend to count (0: none). */
const char *gh_views_cut(const struct gh_views *v, struct gh_chunk *c,
			 const struct gh_cut *x, uint64_t *left);
/* 0, or -1: out of memory for the edges of chunks. */
int gh_views_end_piece(const struct gh_views *v, uint64_t major,
		       uint64_t len);
/* 0, or -1 when out of memory. */
int gh_views_end_cut(struct gh_views *v, const unsigned char *after, int n);
/* Points counted's fields at the views' storage (totals left as given). */
void gh_views_into(struct gh_views *v, struct gh_counted *counted);
/* Every view's end, in the rows' order: NULL, or the first one's why. */
const char *gh_views_end(struct gh_views *v, const struct gh_view_end *e);
void gh_views_publish(const struct gh_views *v, struct gpuhist_result *r);

#endif
