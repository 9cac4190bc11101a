/* magic.h - the first bytes that tell the compressed formats apart */
#ifndef GH_MAGIC_H
#define GH_MAGIC_H

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
 * skippable frame (5? 2a 4d 18), which zstd -dc also takes (and lz4 -dc:
 * a file that begins with one is taken for zstd). */
static inline bool gh_is_zstd(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "\x28\xb5\x2f\xfd", 4) ||
			    ((p[0] & 0xf0) == 0x50 &&
			     !memcmp(p + 1, "\x2a\x4d\x18", 3)));
}

static inline bool gh_is_xz(const unsigned char *p, size_t len)
{
	return len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6);
}

static inline bool gh_is_bzip2(const unsigned char *p, size_t len)
{
	return len >= 4 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9';
}

/* An lz4 frame (04 22 4d 18) or a legacy one (02 21 4c 18). */
static inline bool gh_is_lz4(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "\x04\x22\x4d\x18", 4) ||
			    !memcmp(p, "\x02\x21\x4c\x18", 4));
}

/* A zip archive: a local file header, or the end record of an empty one. */
static inline bool gh_is_zip(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "PK\x03\x04", 4) ||
			    !memcmp(p, "PK\x05\x06", 4));
}

#endif
