/* formats.c - the table of compressed formats: one row a format
 *
 * A format this build decodes has its decoder in its row; one left out at
 * configure time (or one gpuhist never decodes, zip) has none, and its
 * input is counted as it is, with the warning of its row.
 */
#include "config.h"

#include <string.h>

#include "formats.h"

/* Each format: the test of its first bytes, and its decoder where this
 * build has one (its file is built only then). */
extern const struct gh_decoder gh_gzip_decoder;

/* A zstd frame (28 b5 2f fd) or a skippable frame (5? 2a 4d 18), which
 * zstd -dc also takes (and lz4 -dc: a file that begins with one is taken
 * for zstd). */
static bool is_zstd(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "\x28\xb5\x2f\xfd", 4) ||
			    ((p[0] & 0xf0) == 0x50 &&
			     !memcmp(p + 1, "\x2a\x4d\x18", 3)));
}
#ifdef HAVE_ZSTD
extern const struct gh_decoder gh_zstd_decoder;
#define ZSTD_DECODER (&gh_zstd_decoder)
#else
#define ZSTD_DECODER NULL
#endif

static bool is_xz(const unsigned char *p, size_t len)
{
	return len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6);
}
#ifdef HAVE_XZ
extern const struct gh_decoder gh_xz_decoder;
#define XZ_DECODER (&gh_xz_decoder)
#else
#define XZ_DECODER NULL
#endif

static bool is_bzip2(const unsigned char *p, size_t len)
{
	return len >= 4 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9';
}
#ifdef HAVE_BZIP2
extern const struct gh_decoder gh_bzip2_decoder;
#define BZIP2_DECODER (&gh_bzip2_decoder)
#else
#define BZIP2_DECODER NULL
#endif

/* An lz4 frame (04 22 4d 18) or a legacy one (02 21 4c 18). */
static bool is_lz4(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "\x04\x22\x4d\x18", 4) ||
			    !memcmp(p, "\x02\x21\x4c\x18", 4));
}
#ifdef HAVE_LZ4
extern const struct gh_decoder gh_lz4_decoder;
#define LZ4_DECODER (&gh_lz4_decoder)
#else
#define LZ4_DECODER NULL
#endif

/* A zip archive: a local file header, or the end record of an empty one. */
static bool is_zip(const unsigned char *p, size_t len)
{
	return len >= 4 && (!memcmp(p, "PK\x03\x04", 4) ||
			    !memcmp(p, "PK\x05\x06", 4));
}

static const struct gh_format rows[] = {
	{ "gzip", gh_is_gzip, &gh_gzip_decoder, NULL, true },
	{ "zstd", is_zstd, ZSTD_DECODER,
	  "zstd data, but this gpuhist was built without zstd (libzstd-dev): counted as it is; zstd -dc FILE | gpuhist counts what it holds", true },
	{ "xz", is_xz, XZ_DECODER,
	  "xz data, but this gpuhist was built without xz (liblzma-dev): counted as it is; xz -dc FILE | gpuhist counts what it holds", true },
	{ "bzip2", is_bzip2, BZIP2_DECODER,
	  "bzip2 data, but this gpuhist was built without bzip2 (libbz2-dev): counted as it is; bzip2 -dc FILE | gpuhist counts what it holds", true },
	{ "lz4", is_lz4, LZ4_DECODER,
	  "lz4 data, but this gpuhist was built without lz4 (liblz4-dev): counted as it is; lz4 -dc FILE | gpuhist counts what it holds", true },
	{ "zip", is_zip, NULL,
	  "zip archive: counted as it is; unzip -p ARCHIVE | gpuhist counts its files",
	  false },
};

const struct gh_format *gh_format_of(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].is(p, len))
			return &rows[i];
	return NULL;
}

const struct gh_format *gh_format_row(int i)
{
	return i >= 0 && (size_t)i < sizeof(rows) / sizeof(rows[0])
	       ? &rows[i] : NULL;
}
