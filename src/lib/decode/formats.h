/* formats.h - the table of compressed formats: magic bytes and decoder */
#ifndef GH_FORMATS_H
#define GH_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#include "decoder.h"
#include "magic.h"

/* One row: a format, told by its first bytes. */
struct gh_format {
	const char *name;           /* "gzip", "zstd", ... */
	bool (*is)(const unsigned char *p, size_t len);
	const struct gh_decoder *decoder;   /* NULL: this build does not
					     * decode it; it is counted as it
					     * is, with a warning: */
	const char *not_decoded;    /* "zip archive: counted as it is; ..." */
	bool optional;              /* a decoder builds can have (--version
				     * -v lists the format) */
};

/* The format that input beginning with the len bytes at p is in (len up
 * to GH_MAGIC_MAX), or NULL for plain bytes. */
const struct gh_format *gh_format_of(const unsigned char *p, size_t len);

/* Row i of the table, or NULL past the last (for --version -v). */
const struct gh_format *gh_format_row(int i);

#endif
