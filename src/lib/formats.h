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

/* Whether the len bytes at p begin a zstd frame (28 b5 2f fd) or a
 * skippable frame (5? 2a 4d 18), which zstd -dc also takes. */
static inline bool gh_is_zstd(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "\x28\xb5\x2f\xfd", 4) ||
			    ((p[0] & 0xf0) == 0x50 &&
			     !memcmp(p + 1, "\x2a\x4d\x18", 3)));
}

/* The format, among zstd (0), xz (1) and bzip2 (2), that an input
 * beginning with the len bytes at p is in (enum gh_packed); -1 for none. */
static inline int gh_packed_format(const unsigned char *p, size_t len)
{
	if (gh_is_zstd(p, len))
		return 0;
	if (len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		return 1;
	if (len >= 4 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9')
		return 2;
	return -1;
}

#endif
