/* unpack_in.h - what the zstd, xz and bzip2 decoders share: the decoder
 * struct and its compressed input, read from a descriptor or memory */
#ifndef GH_UNPACK_IN_H
#define GH_UNPACK_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unpack.h"

/* Compressed bytes read at once. */
#define GH_UNPACK_IN_BYTES (256 * 1024)

struct gh_unpack {
	enum gh_packed kind;
	int fd;                     /* -1: reading mem */
	const unsigned char *mem;
	uint64_t mem_left;
	bool eof;                   /* no input is left to read */
	bool ended;                 /* the data ended cleanly */
	uint64_t consumed;
	const unsigned char *next;  /* input not yet decoded, in in[] */
	size_t avail;
	const char *engine;         /* static: "libzstd", ... */
	void *state;                /* the format's own */
	unsigned char in[GH_UNPACK_IN_BYTES];
};

/* Reads more input into in[] after what is not yet decoded: 1 when some
 * came, 0 at the end of the input, -1 on a read error (errno set). */
int gh_unpack_refill(struct gh_unpack *u);

/* Makes sure some input is there to decode: 1 when there is, 0 at the
 * clean end of the input (u->ended set), -1 when it cannot: a read error
 * (*why NULL, errno set), or the input ended `inside` a frame or stream
 * (*why = truncated). */
int gh_unpack_more(struct gh_unpack *u, bool inside, const char *truncated,
		   const char **why);

/* Each format's start, step and end (unpack_zstd.c, unpack_xz.c,
 * unpack_bzip2.c): start returns 0 or a reason; read and free as in
 * unpack.h. */
const char *gh_unzstd_start(struct gh_unpack *u);
int64_t gh_unzstd_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		       const char **why);
void gh_unzstd_free(struct gh_unpack *u);
const char *gh_unxz_start(struct gh_unpack *u, int threads);
int64_t gh_unxz_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		     const char **why);
void gh_unxz_free(struct gh_unpack *u);
const char *gh_unbzip2_start(struct gh_unpack *u);
int64_t gh_unbzip2_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
			const char **why, const char **warning);
void gh_unbzip2_free(struct gh_unpack *u);

#endif
