/* lz4.c - lz4: frames decoded in order by liblz4, as lz4 -dc decodes them
 *
 * A file is frames one after another: lz4 frames (liblz4's frame decoder,
 * which checks the checksums the frame has), skippable frames (skipped;
 * one cut short is truncated, as lz4 -dc says of it on a pipe) and legacy
 * frames (lz4 -l: blocks of up to 8 MiB of output, each after its 4-byte
 * size, until the end of the file or a size that is no block's, which
 * lz4 -dc reads as the next frame's magic number).  After a frame, what
 * does not begin another is refused, as lz4 -dc refuses it (exit 1).
 * A regular file of frames of independent blocks is decoded a block a
 * thread (lz4_parallel.c), where xxHash is there to check it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4frame.h>

#include "decoder.h"
#include "lz4_parallel.h"
#include "packed_in.h"

#define LZ4_MAGIC 0x184D2204u
#define LEGACY_MAGIC 0x184C2102u
#define LEGACY_BLOCK (8u << 20)         /* a legacy block's output at most */

static const char *const truncated = "unexpected end of file (truncated lz4 data)";

enum lz4_at { AT_FRAME, IN_FRAME, IN_LEGACY };

struct unlz4 {
	struct gh_packed_in in;
	LZ4F_dctx *dctx;
	enum lz4_at at;
	bool flushing;              /* the frame decoder filled its output:
				     * it may hold more without more input */
	unsigned char *block;       /* a legacy block's compressed bytes */
	unsigned char *stage;       /* and its decoded ones the caller had no
				     * room for yet: [staged, staged_end) */
	size_t staged, staged_end;
};

static const struct gh_decoding liblz4 = { "lz4", "liblz4" };

static void lz4_free(void *d)
{
	struct unlz4 *z = d;

	if (z) {
		LZ4F_freeDecompressionContext(z->dctx);
		gh_packed_in_free(&z->in);
		free(z->block);
		free(z->stage);
		free(z);
	}
}

static void *lz4_open(const struct gh_packed_from *from, const char **why)
{
	struct unlz4 *z = calloc(1, sizeof(*z));

	*why = "out of memory";
	if (!z || gh_packed_in_init(&z->in, from, GH_PACKED_IN_BYTES)) {
		free(z);
		return NULL;
	}
	if (LZ4F_isError(LZ4F_createDecompressionContext(&z->dctx,
							 LZ4F_VERSION))) {
		z->dctx = NULL;
		lz4_free(z);
		return NULL;
	}
	return z;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Reads until n bytes of input are there, or the input ends: how many are
 * there then (at most n), or -1 on a read error. */
static int64_t have(struct gh_packed_in *in, size_t n)
{
	while (in->avail < n || !in->joined) {
		int got = gh_packed_in_refill(in);

		if (got < 0)
			return -1;
		if (!got)
			break;
	}
	return (int64_t)(in->avail < n ? in->avail : n);
}

/* Between frames: begins the next one; 1, 0 at the clean end, -1. */
static int next_frame(struct unlz4 *z, const char **why)
{
	int64_t n = have(&z->in, 4);
	uint32_t magic;

	if (n < 0) {
		*why = NULL;
		return -1;
	}
	if (n == 0) {
		z->in.ended = true;
		return 0;
	}
	if (n < 4) {
		*why = "trailing garbage after lz4 data";
		return -1;
	}
	magic = le32(z->in.next);
	if (magic == LEGACY_MAGIC) {
		gh_packed_in_take(&z->in, 4);
		z->at = IN_LEGACY;
	} else if (magic == LZ4_MAGIC || (magic & 0xfffffff0u) == 0x184D2A50u) {
		z->at = IN_FRAME;       /* liblz4 reads the magic itself */
	} else {
		*why = "trailing garbage after lz4 data";
		return -1;
	}
	return 1;
}

/* Decodes from an lz4 (or skippable) frame into out[0..cap): the count,
 * or -1. */
static int64_t frame_read(struct unlz4 *z, unsigned char *out, uint64_t cap,
			  const char **why)
{
	if (!z->flushing) {
		int more = gh_packed_in_more(&z->in, true, truncated, why);

		if (more < 0)
			return -1;
	}
	size_t dst = (size_t)cap, src = z->in.avail;
	size_t ret = LZ4F_decompress(z->dctx, out, &dst, z->in.next, &src,
				     NULL);

	gh_packed_in_take(&z->in, src);
	if (LZ4F_isError(ret)) {
		LZ4F_resetDecompressionContext(z->dctx);
		/* The codes are liblz4's static API; their names are not. */
		*why = strstr(LZ4F_getErrorName(ret), "Checksum_invalid")
		       ? "corrupt lz4 data (checksum mismatch)"
		       : "corrupt lz4 data";
		return -1;
	}
	z->flushing = dst == cap;
	if (ret == 0) {                 /* the frame ended */
		z->at = AT_FRAME;
		z->flushing = false;
	}
	return (int64_t)dst;
}

/* Decodes the next legacy block into out (room for LEGACY_BLOCK bytes):
 * the count, 0 when the legacy frame ended (at the end of the input, or
 * before what is no block's size), or -1. */
static int64_t legacy_block(struct unlz4 *z, unsigned char *out,
			    const char **why)
{
	struct gh_packed_in *in = &z->in;
	int64_t n = have(in, 4);
	uint32_t size, got = 0;

	if (n < 0) {
		*why = NULL;
		return -1;
	}
	if (n == 0) {
		in->ended = true;
		return 0;
	}
	if (n < 4) {
		*why = truncated;
		return -1;
	}
	size = le32(in->next);
	if (size == LEGACY_MAGIC ||
	    size > (uint32_t)LZ4_COMPRESSBOUND(LEGACY_BLOCK)) {
		z->at = AT_FRAME;       /* the next frame's magic, or garbage */
		return 0;
	}
	gh_packed_in_take(in, 4);
	if (!z->block && !(z->block = malloc(LZ4_COMPRESSBOUND(LEGACY_BLOCK)))) {
		*why = "out of memory";
		return -1;
	}
	while (got < size) {
		size_t part = in->avail < size - got ? in->avail : size - got;

		memcpy(z->block + got, in->next, part);
		gh_packed_in_take(in, part);
		got += (uint32_t)part;
		if (got < size) {
			int more = gh_packed_in_refill(in);

			if (more <= 0) {
				*why = more < 0 ? NULL : truncated;
				return -1;
			}
		}
	}
	int dec = LZ4_decompress_safe((const char *)z->block, (char *)out,
				      (int)size, LEGACY_BLOCK);

	if (dec < 0) {              /* a block may decode to nothing */
		*why = "corrupt lz4 data";
		return -1;
	}
	return dec;
}

static int64_t lz4_read(void *d, unsigned char *out, uint64_t cap,
			const char **why, const char **warning)
{
	struct unlz4 *z = d;
	uint64_t done = 0;

	(void)warning;
	while (done < cap) {
		int64_t n = 0;

		if (z->staged < z->staged_end) {
			n = (int64_t)(z->staged_end - z->staged);
			if ((uint64_t)n > cap - done)
				n = (int64_t)(cap - done);
			memcpy(out + done, z->stage + z->staged, (size_t)n);
			z->staged += (size_t)n;
			done += (uint64_t)n;
			continue;
		}
		if (z->in.ended)
			break;
		switch (z->at) {
		case AT_FRAME:
			if (next_frame(z, why) < 0)
				return -1;
			continue;
		case IN_FRAME:
			n = frame_read(z, out + done, cap - done, why);
			break;
		case IN_LEGACY:
			if (cap - done >= LEGACY_BLOCK) {
				n = legacy_block(z, out + done, why);
				break;
			}
			if (!z->stage && !(z->stage = malloc(LEGACY_BLOCK))) {
				*why = "out of memory";
				return -1;
			}
			n = legacy_block(z, z->stage, why);
			if (n > 0) {
				z->staged = 0;
				z->staged_end = (size_t)n;
				continue;
			}
			break;
		}
		if (n < 0)
			return -1;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static uint64_t lz4_consumed(const void *d)
{
	return ((const struct unlz4 *)d)->in.consumed;
}

static const struct gh_decoding *lz4_decoding(const void *d)
{
	(void)d;
	return &liblz4;
}

#if HAVE_LZ4_PARALLEL
/* Blocks in parallel wherever there are threads for them (whether the
 * frames' blocks are independent, lz4_parallel.c reads). */
static int lz4_pieces_threads(const void *d, const struct gh_file_span *file,
			      int threads)
{
	(void)d, (void)file;
	return threads > 1 ? threads : 0;
}
#endif

const struct gh_decoder gh_lz4_decoder = {
	.open = lz4_open,
	.read = lz4_read,
	.consumed = lz4_consumed,
	.decoding = lz4_decoding,
	.free = lz4_free,
#if HAVE_LZ4_PARALLEL
	.pieces_threads = lz4_pieces_threads,
	.pieces = gh_lz4_pieces,
#endif
};
