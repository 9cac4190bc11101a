/* reference.h - the fuzz harnesses' reference: gzip decoded by zlib, zstd,
 * xz, bzip2 and lz4 by their libraries' one-shot calls */
#ifndef GH_FUZZ_REFERENCE_H
#define GH_FUZZ_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the gzip stream p[0..len) with zlib at once (windowBits 31,
 * member after member, then zero bytes or nothing, as gunzip.c rules) and
 * adds its bytes, counted one at a time, into totals.  Returns 0, -1 where
 * the stream is corrupt, truncated or followed by garbage, and -2 when
 * zlib itself could not start.  Shares no code with what it checks.
 */
int gh_fuzz_zlib_totals(const unsigned char *p, size_t len, uint64_t *totals);

/* Which of zstd (1), xz (2), bzip2 (3) and lz4 (4) the stream p[0..len) begins as
 * (its own test of the magic bytes), or 0. */
int gh_fuzz_packed_kind(const unsigned char *p, size_t len);

/*
 * The same for a zstd, xz, bzip2 or lz4 stream (kind as above), decoded at
 * once by its library's one-shot call (zstd: with the 2 GiB window limit;
 * bzip2: stream after stream, trailing garbage ignored as bzip2 ignores
 * it).  Returns 0, -1 where the tool refuses it, -2 when the library could
 * not start, and -3 when the output would be larger than the reference's
 * buffer (then it knows nothing).
 */
int gh_fuzz_packed_totals(int kind, const unsigned char *p, size_t len,
			  uint64_t *totals);

#endif
