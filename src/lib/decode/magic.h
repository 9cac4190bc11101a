/* magic.h - gzip's first bytes, which gzip's own decoders look for too
 * (formats.c tells the other formats by theirs) */
#ifndef GH_MAGIC_H
#define GH_MAGIC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Bytes that tell every format apart (formats.c). */
#define GH_MAGIC_MAX 6

/* Whether the len bytes at p begin a gzip member (1f 8b). */
static inline bool gh_is_gzip(const unsigned char *p, size_t len)
{
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

#endif
