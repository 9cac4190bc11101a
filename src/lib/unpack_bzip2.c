/* unpack_bzip2.c - bzip2 streams decoded in order by libbz2
 *
 * As bzip2 -dc: concatenated streams are decoded in full; after the first
 * stream, bytes that do not begin another ("BZh" and a level) are
 * trailing garbage, ignored with a warning; data that ends inside a
 * stream is truncated.  bzip2 may stay serial: its blocks could be
 * decoded apart, but none of the inputs users have asked for needs it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "unpack_in.h"

#ifdef HAVE_BZIP2
#include <bzlib.h>

struct unbzip2 {
	bz_stream bz;
	bool open;                  /* bz is initialised */
	int streams;                /* streams ended so far */
};

const char *gh_unbzip2_start(struct gh_unpack *u)
{
	struct unbzip2 *z = calloc(1, sizeof(*z));

	if (!z)
		return "out of memory";
	if (BZ2_bzDecompressInit(&z->bz, 0, 0) != BZ_OK) {
		free(z);
		return "out of memory";
	}
	z->open = true;
	u->state = z;
	u->engine = "libbz2";
	return NULL;
}

int64_t gh_unbzip2_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
			const char **why, const char **warning)
{
	struct unbzip2 *z = u->state;
	int ret;

	z->bz.next_out = (char *)out;
	z->bz.avail_out = (unsigned)cap;
	while (z->bz.avail_out) {
		int more = gh_unpack_more(u, z->open,
					  "unexpected end of file (truncated bzip2 data)",
					  why);

		if (more < 0)
			return -1;
		if (!more)
			break;
		if (!z->open) {         /* another stream follows */
			if (BZ2_bzDecompressInit(&z->bz, 0, 0) != BZ_OK) {
				*why = "out of memory";
				return -1;
			}
			z->open = true;
		}
		z->bz.next_in = (char *)u->next;
		z->bz.avail_in = (unsigned)u->avail;
		ret = BZ2_bzDecompress(&z->bz);
		u->next = (const unsigned char *)z->bz.next_in;
		u->avail = z->bz.avail_in;
		if (ret == BZ_STREAM_END) {
			BZ2_bzDecompressEnd(&z->bz);
			z->open = false;
			z->streams++;
			continue;
		}
		if (ret == BZ_DATA_ERROR_MAGIC && z->streams) {
			*warning = "trailing garbage after EOF ignored";
			BZ2_bzDecompressEnd(&z->bz);
			z->open = false;
			u->ended = true;
			break;
		}
		if (ret != BZ_OK) {
			*why = ret == BZ_MEM_ERROR ? "out of memory"
			       : ret == BZ_DATA_ERROR_MAGIC
			       ? "corrupt bzip2 data (bad magic number)"
			       : "corrupt bzip2 data (data integrity error)";
			return -1;
		}
	}
	return (int64_t)(cap - z->bz.avail_out);
}

void gh_unbzip2_free(struct gh_unpack *u)
{
	struct unbzip2 *z = u->state;

	if (z) {
		if (z->open)
			BZ2_bzDecompressEnd(&z->bz);
		free(z);
	}
}
#else
const char *gh_unbzip2_start(struct gh_unpack *u)
{
	(void)u;
	return "built without bzip2";
}

int64_t gh_unbzip2_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
			const char **why, const char **warning)
{
	(void)u, (void)out, (void)cap, (void)warning;
	*why = "built without bzip2";
	return -1;
}

void gh_unbzip2_free(struct gh_unpack *u)
{
	(void)u;
}
#endif
