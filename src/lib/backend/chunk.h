/* chunk.h - what a backend lends out to be filled: a chunk of bytes, or a
 * batch of gzip members it decodes itself; what readers and decoders see
 * of a backend besides sink.h's calls (backend.h has the rest) */
#ifndef GH_CHUNK_H
#define GH_CHUNK_H

#include <stddef.h>
#include <stdint.h>

struct gh_backend;
struct gh_tokens;

/* Most threads that fill one input's chunks at once (readers, or a
 * parallel decoder's threads). */
#define GH_READERS_MAX 64

struct gh_chunk {
	unsigned char *data;       /* backend->chunk_bytes of room */
	struct gh_backend *backend;    /* the backend that owns it */
	int slot;                  /* that backend's own index */
	/* What the views that count on the backend cut (join/view.h; each
	 * field is one view's, gh_chunk_uncut() below clears them all).
	 * Counting code points: the positions of data[0..len) the backend
	 * counts, the bytes around them context (seams.c sets both). */
	uint64_t from, to;
	/* Counting statistics: where its first Monte Carlo group begins,
	 * 0..5 (edges.c sets it). */
	unsigned char phase;
	/* Counting tokens where the backend counts them itself (its
	 * `tokens`): the tokens that the units of data[tok_from, tok_to)
	 * go to, NULL for none (submit.c sets all three before every submit
	 * with bytes; a submit of none reads them not). */
	struct gh_tokens *tokens;
	uint64_t tok_from, tok_to;
};

/* A chunk as no view has cut it: the backend counts all len bytes (the
 * views' cuts in join/view.h then set what is theirs). */
static inline void gh_chunk_uncut(struct gh_chunk *c, uint64_t len)
{
	c->from = 0;
	c->to = len;
	c->phase = 0;
	c->tokens = NULL;
	c->tok_from = c->tok_to = 0;
}

/* The bytes at each end of a chunk that joining chunks needs (seams.c,
 * edges.c): all a backend that decodes on a device copies back. */
#define GH_ENDS_BYTES 16

/*
 * A batch of whole gzip members that a backend decodes where it counts
 * them (the GPU, with nvCOMP: members_* below).  The backend hands one out
 * with room; the caller reads the members into in, back to back, and
 * lists them (n, and each one's bytes, ISIZE and CRC-32 from its trailer,
 * total output `out`); members_decode() decodes and checks them all; the
 * caller cuts the output at its edges (the chunk's from, to and phase,
 * from head and tail) and members_count() counts it; the caller may fill
 * it again, and at last gives it back with members_release().
 */
struct gh_members {
	struct gh_backend *backend;     /* the backend that owns it */
	int slot;                       /* that backend's own index */
	unsigned char *in;              /* in_room bytes */
	uint64_t at;                    /* the members begin at in + at */
	uint64_t in_room;
	uint64_t out_room;              /* most output a batch may have */
	uint32_t member_out_max;        /* most output of one member */
	uint32_t most;                  /* most members in a batch */
	uint32_t n;                     /* the batch: its members, */
	uint32_t *len, *isize, *crc;    /* each one's bytes and trailer */
	uint64_t out;                   /* the sum of their ISIZEs */
	/* After members_decode(): the output's first and last bytes (all of
	 * them where it has fewer than GH_ENDS_BYTES). */
	unsigned char head[GH_ENDS_BYTES], tail[GH_ENDS_BYTES];
	/* Where its code points and statistics begin (seams.c, edges.c). */
	struct gh_chunk cut;
};

#endif
