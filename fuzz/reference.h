/* reference.h - the fuzz harnesses' reference: a gzip stream decoded by zlib */
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

#endif
