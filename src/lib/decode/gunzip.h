/* gunzip.h - streaming gzip decoding (every member) into caller's buffers */
#ifndef GH_GUNZIP_H
#define GH_GUNZIP_H

#include <stdbool.h>
#include <stdint.h>

struct gh_gunzip;

/* A decoder reading compressed bytes from fd; the first `primed_len` bytes
 * of the stream were already read and are handed over in `primed`.  With
 * zlib, zlib decodes whatever GPUHIST_INFLATE says. */
struct gh_gunzip *gh_gunzip_new(int fd, const unsigned char *primed,
				unsigned primed_len, bool zlib);

/* A decoder of the whole members in bytes [start, end) of fd, read with
 * pread() (ISA-L where built in): end must be a member's end, or, where
 * ends_file, a member's end and zero padding. */
struct gh_gunzip *gh_gunzip_new_span(int fd, uint64_t start, uint64_t end,
				     bool ends_file);

/* Members begun so far. */
uint64_t gh_gunzip_members(const struct gh_gunzip *g);

/* The same reading len bytes of memory at data instead of a descriptor. */
struct gh_gunzip *gh_gunzip_new_mem(const unsigned char *data, uint64_t len,
				    bool zlib);

/*
 * Decodes up to cap bytes into out.  Returns the number of bytes written
 * (0 only at the clean end of the last member), or -1 with a reason in
 * *why (a static string, or errno set and *why NULL for read errors).
 */
int64_t gh_gunzip_read(struct gh_gunzip *g, unsigned char *out, uint64_t cap,
		       const char **why);

/* The inflater decoding it: "isa-l" or "zlib". */
const char *gh_gunzip_engine(const struct gh_gunzip *g);

/* Compressed bytes read from fd so far (for the progress meter). */
uint64_t gh_gunzip_consumed(const struct gh_gunzip *g);

void gh_gunzip_free(struct gh_gunzip *g);

#endif
