/* sink.h - where a parallel decoder's chunks go: one input's backend and
 * what joins its chunks, behind calls of their own
 *
 * The decoders that split a file among threads take chunks, fill them and
 * hand them on through these alone, so that decode/ names neither the
 * backend's interface nor how chunks are joined (decoder.h includes this
 * and chunk.h, not backend.h or submit.h).  sink.c is each call's few
 * lines over backend.h and submit.c.
 */
#ifndef GH_SINK_H
#define GH_SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/chunk.h"
#include "place.h"

struct gh_backend;
struct gh_views;

/* One input's way to its backend. */
struct gh_sink {
	struct gh_backend *b;
	int input;                  /* begun for the decoder's threads */
	const struct gh_views *views;   /* NULL: nothing joins chunks */
};

/* A chunk to fill, gh_sink_room() bytes at its data; NULL when the backend
 * failed, *why then its error. */
struct gh_chunk *gh_sink_acquire(const struct gh_sink *s, const char **why);
/* The bytes chunk c holds: its own backend's size (under auto, a GPU's
 * chunk is larger than the CPU's). */
uint64_t gh_sink_room(const struct gh_chunk *c);
/* Hands on len bytes of c, at `at`, cut at their edges first (gh_submit);
 * `bad`: the data proved invalid, so c goes back uncounted and unjoined.
 * NULL, or why it failed (the backend's error, memory for the edges, or
 * GH_CANCELLED). */
const char *gh_sink_submit(const struct gh_sink *s, struct gh_chunk *c,
			   uint64_t len, struct gh_place at, bool bad);
/* Gives c back unused, with no cut (a thread that stops). */
void gh_sink_give_back(const struct gh_sink *s, struct gh_chunk *c);
/* Whether anything joins the chunks; whether it needs every chunk's
 * offset in the output (statistics, tokens); whether it needs every
 * chunk's bytes on the host (tokens: no members decoded on a device). */
bool gh_sink_joins(const struct gh_sink *s);
bool gh_sink_by_offset(const struct gh_sink *s);
bool gh_sink_host_bytes(const struct gh_sink *s);
/* Who needs the offsets, as a message says it: "-s needs" (view.h). */
const char *gh_sink_offsets_user(const struct gh_sink *s);
/* Piece `major` ended after `len` bytes (code points join pieces there):
 * 0, or -1 when out of memory for the edges of chunks. */
int gh_sink_end_piece(const struct gh_sink *s, uint64_t major, uint64_t len);

/* Batches of gzip members the backend decodes itself (chunk.h): one with
 * room, or NULL where the backend has none; decoded (1; 0 where the CPU
 * is to decode them after all; -1 with the backend's error in *why);
 * counted, cut at their edges (as gh_sink_submit); given back. */
struct gh_members *gh_sink_members_acquire(const struct gh_sink *s);
int gh_sink_members_decode(const struct gh_sink *s, struct gh_members *m,
			   const char **why);
const char *gh_sink_submit_members(const struct gh_sink *s,
				   struct gh_members *m, struct gh_place at);
void gh_sink_members_release(const struct gh_sink *s, struct gh_members *m);

#endif
