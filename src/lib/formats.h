/* formats.h - compressed formats, told by their first bytes */
#ifndef GH_FORMATS_H
#define GH_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Bytes that tell every format here apart. */
#define GH_MAGIC_MAX 6

/* Whether the len bytes at p begin a gzip member (1f 8b). */
static inline bool gh_is_gzip(const unsigned char *p, size_t len)
{
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* The compressed format, among those not decoded here, that an input
 * beginning with the len bytes at p is in; NULL for none. */
static inline const char *gh_undecoded_format(const unsigned char *p,
					      size_t len)
{
	if (len >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4))
		return "zstd";
	if (len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		return "xz";
	if (len >= 4 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9')
		return "bzip2";
	return NULL;
}

#endif
