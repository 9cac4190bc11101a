/* bzip2.c - bzip2: streams decoded in order by libbz2
 *
 * As bzip2 -dc: concatenated streams are decoded in full; after the first
 * stream, bytes that do not begin another ("BZh" and a level) are
 * trailing garbage, ignored with a warning; data that ends inside a
 * stream is truncated.  A regular file's blocks are decoded on several
 * cores where there are threads for them (bzip2_parallel.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <bzlib.h>

#include "bzip2_parallel.h"
#include "decoder.h"
#include "packed_in.h"

struct unbzip2 {
	struct gh_packed_in in;
	bz_stream bz;
	bool open;                  /* bz is initialised */
	int streams;                /* streams ended so far */
};

static const struct gh_decoding libbz2 = { "bzip2", "libbz2" };

static void bzip2_free(void *d)
{
	struct unbzip2 *z = d;

	if (z) {
		if (z->open)
			BZ2_bzDecompressEnd(&z->bz);
		gh_packed_in_free(&z->in);
		free(z);
	}
}

static void *bzip2_open(const struct gh_packed_from *from, const char **why)
{
	struct unbzip2 *z = calloc(1, sizeof(*z));

	*why = "out of memory";
	if (!z || gh_packed_in_init(&z->in, from, GH_PACKED_IN_BYTES)) {
		free(z);
		return NULL;
	}
	if (BZ2_bzDecompressInit(&z->bz, 0, 0) != BZ_OK) {
		bzip2_free(z);
		return NULL;
	}
	z->open = true;
	return z;
}

static int64_t bzip2_read(void *d, unsigned char *out, uint64_t cap,
			  const char **why, const char **warning)
{
	struct unbzip2 *z = d;
	struct gh_packed_in *u = &z->in;
	int ret;

	if (u->ended)
		return 0;
	z->bz.next_out = (char *)out;
	z->bz.avail_out = (unsigned)cap;
	while (z->bz.avail_out) {
		int more = gh_packed_in_more(u, z->open,
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
			/* Read to its end: all of it was the input's (a pipe's
			 * garbage may come in a later read). */
			if (gh_packed_in_drain(u) < 0) {
				*why = NULL;
				return -1;
			}
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

static uint64_t bzip2_consumed(const void *d)
{
	return ((const struct unbzip2 *)d)->in.consumed;
}

static const struct gh_decoding *bzip2_decoding(const void *d)
{
	(void)d;
	return &libbz2;
}

/* Blocks in parallel wherever there are threads for them. */
static int bzip2_pieces_threads(const void *d, const struct gh_file_span *file,
				int threads)
{
	(void)d, (void)file;
	return threads > 1 ? threads : 0;
}

const struct gh_decoder gh_bzip2_decoder = {
	.open = bzip2_open,
	.read = bzip2_read,
	.consumed = bzip2_consumed,
	.decoding = bzip2_decoding,
	.free = bzip2_free,
	.pieces_threads = bzip2_pieces_threads,
	.pieces = gh_bzip2_pieces,
};
