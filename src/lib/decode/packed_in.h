/* packed_in.h - a decoder's compressed input, read from a descriptor or
 * memory in turns, for the formats that take it in buffers (zstd, xz,
 * bzip2, lz4) */
#ifndef GH_PACKED_IN_H
#define GH_PACKED_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decoder.h"

/* Compressed bytes read at once, unless a format asks for another size. */
#define GH_PACKED_IN_BYTES (256 * 1024)

struct gh_packed_in {
	int fd;                     /* -1: reading mem */
	const unsigned char *mem;
	uint64_t mem_left;
	bool eof;                   /* no input is left to read */
	bool ended;                 /* the data ended cleanly */
	bool joined;                /* the primed bytes were joined with the
				     * first read */
	uint64_t consumed;
	const unsigned char *next;  /* input not yet decoded, in buf */
	size_t avail;
	size_t room;                /* bytes of buf */
	unsigned char *buf;
};

/* Takes its input from `from`, in buffers of `room` bytes (at least
 * GH_MAGIC_MAX); 0, or -1 when out of memory. */
int gh_packed_in_init(struct gh_packed_in *in,
		      const struct gh_packed_from *from, size_t room);

/* Reads more input into buf after what is not yet decoded: 1 when some
 * came, 0 at the end of the input, -1 on a read error (errno set). */
int gh_packed_in_refill(struct gh_packed_in *in);

/* Makes sure at least `need` bytes of input are there (fewer only at the
 * end of the input), reading until the buffer is full once it reads at all,
 * as the tools' own readers fill theirs: 1, or -1 on a read error (errno
 * set). */
int gh_packed_in_fill(struct gh_packed_in *in, size_t need);

/* Makes sure some input is there to decode, the bytes read to tell the
 * format joined with the next read (as the tools' own readers see them):
 * 1 when there is, 0 at the clean end of the input (in->ended set), -1
 * when it cannot: a read error (*why NULL, errno set), or the input ended
 * `inside` a frame or stream (*why = truncated). */
int gh_packed_in_more(struct gh_packed_in *in, bool inside,
		      const char *truncated, const char **why);

/* Takes n bytes of input as decoded. */
static inline void gh_packed_in_take(struct gh_packed_in *in, size_t n)
{
	in->next += n;
	in->avail -= n;
}

/* Reads the rest of the input and drops it, so that consumed is the
 * whole input's (trailing garbage ignored, a writer not left blocked);
 * 0, or -1 with errno set. */
int gh_packed_in_drain(struct gh_packed_in *in);

void gh_packed_in_free(struct gh_packed_in *in);

#endif
