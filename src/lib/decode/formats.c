/* formats.c - the table of compressed formats: one row a format
 *
 * A format this build decodes has its decoder in its row; one left out at
 * configure time (or one gpuhist never decodes, zip) has none, and its
 * input is counted as it is, with the warning of its row.
 */
#include "config.h"

#include "formats.h"

#ifdef HAVE_ZSTD
#define ZSTD_DECODER (&gh_zstd_decoder)
#else
#define ZSTD_DECODER NULL
#endif
#ifdef HAVE_XZ
#define XZ_DECODER (&gh_xz_decoder)
#else
#define XZ_DECODER NULL
#endif
#ifdef HAVE_BZIP2
#define BZIP2_DECODER (&gh_bzip2_decoder)
#else
#define BZIP2_DECODER NULL
#endif
#ifdef HAVE_LZ4
#define LZ4_DECODER (&gh_lz4_decoder)
#else
#define LZ4_DECODER NULL
#endif

static const struct gh_format rows[] = {
	{ "gzip", gh_is_gzip, &gh_gzip_decoder, NULL, true },
	{ "zstd", gh_is_zstd, ZSTD_DECODER,
	  "zstd data, but this gpuhist was built without zstd (libzstd-dev): counted as it is; zstd -dc FILE | gpuhist counts what it holds", true },
	{ "xz", gh_is_xz, XZ_DECODER,
	  "xz data, but this gpuhist was built without xz (liblzma-dev): counted as it is; xz -dc FILE | gpuhist counts what it holds", true },
	{ "bzip2", gh_is_bzip2, BZIP2_DECODER,
	  "bzip2 data, but this gpuhist was built without bzip2 (libbz2-dev): counted as it is; bzip2 -dc FILE | gpuhist counts what it holds", true },
	{ "lz4", gh_is_lz4, LZ4_DECODER,
	  "lz4 data, but this gpuhist was built without lz4 (liblz4-dev): counted as it is; lz4 -dc FILE | gpuhist counts what it holds", true },
	{ "zip", gh_is_zip, NULL,
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
