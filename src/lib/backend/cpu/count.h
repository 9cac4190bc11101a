/* count.h - counting bytes on the CPU into 256 exact 64-bit totals */
#ifndef GH_COUNT_H
#define GH_COUNT_H

#include <stddef.h>
#include <stdint.h>

/* Adds the byte values of p[0..n) to totals; fast, any n and alignment. */
void gh_count_bytes(const unsigned char *p, uint64_t n, uint64_t totals[256]);

/* The same, one byte at a time: the reference the fast one is tested on. */
void gh_count_bytes_simple(const unsigned char *p, uint64_t n,
			   uint64_t totals[256]);

#endif
