/* stage.h - chunks that hold what readers fill while a GPU starts */
#ifndef GH_STAGE_H
#define GH_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"

struct gh_stage;

/* A stage of `room` bytes at most, in chunks of chunk_bytes, lent as if
 * owned by a backend that counts tokens itself (gh_stage_backend: views
 * cut them for the GPU).  Memory is taken as chunks are first lent.
 * NULL: out of memory. */
struct gh_stage *gh_stage_new(const struct gpuhist_options *opts,
			      uint64_t chunk_bytes, uint64_t room);
/* What its chunks name as their backend (none of its ops may be called). */
const struct gh_backend *gh_stage_backend(const struct gh_stage *s);
/* A chunk to fill, or NULL: the room is spent, or the stage is closed. */
struct gh_chunk *gh_stage_lend(struct gh_stage *s);
/* A lent chunk back, holding len bytes of input (0: unused). */
void gh_stage_hold(struct gh_stage *s, struct gh_chunk *c, int input,
		   uint64_t len);
/* Lends no more. */
void gh_stage_close(struct gh_stage *s);
/* After gh_stage_close(): the next chunk held, with its input and length
 * (with wait, waiting for chunks still lent), to be copied and then
 * handed to gh_stage_copied(); NULL when none is held (with wait: none
 * will be).  Several threads may take at once. */
struct gh_chunk *gh_stage_take(struct gh_stage *s, bool wait, int *input,
			       uint64_t *len);
/* A taken chunk's bytes are copied.  Once emptied (below) its memory is
 * given back. */
void gh_stage_copied(struct gh_stage *s);
/* Where it stands, read at once. */
struct gh_stage_state {
	bool emptied;       /* closed, every chunk lent back, taken, copied */
	int lent;           /* chunks lent so far */
	int waiting;        /* held and not yet taken */
	int chunks;         /* held with bytes, in all */
	uint64_t bytes;     /* held, in all */
};
struct gh_stage_state gh_stage_state(struct gh_stage *s);
void gh_stage_free(struct gh_stage *s);

#endif
