/* xz.c - xz: streams decoded in order by liblzma
 *
 * Concatenated streams and the stream padding between them are decoded as
 * xz -dc decodes them (LZMA_CONCATENATED); anything else after the last
 * stream is refused, as xz refuses it.  A regular file of several blocks
 * (xz -T0) is decoded a block a thread by xz_parallel.c; what is left to
 * this file with several threads (a pipe, say) goes to liblzma's threaded
 * decoder, which decodes at once the blocks whose sizes their headers
 * give, and anything else in one thread.  Its memory for threads is bounded by
 * GH_XZ_THREADS_MEMORY, past which it decodes in one thread rather than
 * allocate more.  A check this liblzma cannot verify (xz's own test file
 * unsupported-check.xz) is decoded with a warning, as xz -dc decodes it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <lzma.h>

#include "decoder.h"
#include "packed_in.h"
#include "xz_parallel.h"

struct unxz {
	struct gh_packed_in in;
	lzma_stream s;
	bool open;                  /* s is initialised */
	bool warned;                /* of a check it cannot verify */
	const struct gh_decoding *decoding;
};

static const struct gh_decoding one_thread = { "xz", "liblzma" };
static const struct gh_decoding threaded = { "xz",
					     "liblzma's threaded decoder" };

static void xz_free(void *d)
{
	struct unxz *x = d;

	if (x) {
		if (x->open)
			lzma_end(&x->s);
		gh_packed_in_free(&x->in);
		free(x);
	}
}

static void *xz_open(const struct gh_packed_from *from, const char **why)
{
	/* Tells of a check it cannot verify, as xz warns of it. */
	const uint32_t flags = LZMA_CONCATENATED | LZMA_TELL_UNSUPPORTED_CHECK;
	struct unxz *x = calloc(1, sizeof(*x));
	lzma_ret ret;

	*why = "out of memory";
	if (!x || gh_packed_in_init(&x->in, from, GH_PACKED_IN_BYTES)) {
		free(x);
		return NULL;
	}
	x->s = (lzma_stream)LZMA_STREAM_INIT;
	if (from->threads > 1) {
		lzma_mt mt = {
			.flags = flags,
			.threads = (uint32_t)from->threads,
			.memlimit_threading = GH_XZ_THREADS_MEMORY,
			.memlimit_stop = UINT64_MAX,
		};

		ret = lzma_stream_decoder_mt(&x->s, &mt);
		x->decoding = &threaded;
	} else {
		ret = lzma_stream_decoder(&x->s, UINT64_MAX, flags);
		x->decoding = &one_thread;
	}
	if (ret != LZMA_OK) {
		if (ret != LZMA_MEM_ERROR)
			*why = "cannot start the xz decoder";
		xz_free(x);
		return NULL;
	}
	x->open = true;
	return x;
}

/* Why liblzma stopped, in the words gzip's messages use. */
static const char *xz_why(lzma_ret ret)
{
	switch (ret) {
	case LZMA_FORMAT_ERROR:
		return "corrupt xz data (file format not recognized)";
	case LZMA_OPTIONS_ERROR:
		return "corrupt xz data (unsupported options)";
	case LZMA_DATA_ERROR:
		return "corrupt xz data (compressed data is corrupt)";
	case LZMA_BUF_ERROR:
		return "unexpected end of file (truncated xz data)";
	case LZMA_MEM_ERROR:
	case LZMA_MEMLIMIT_ERROR:
		return "out of memory for xz data";
	default:
		return "corrupt xz data";
	}
}

static int64_t xz_read(void *d, unsigned char *out, uint64_t cap,
		       const char **why, const char **warning)
{
	struct unxz *x = d;
	struct gh_packed_in *in = &x->in;
	lzma_stream *s = &x->s;

	if (in->ended)
		return 0;
	s->next_out = out;
	s->avail_out = (size_t)cap;
	while (s->avail_out) {
		if (!in->avail && gh_packed_in_refill(in) < 0) {
			*why = NULL;
			return -1;
		}
		s->next_in = in->next;
		s->avail_in = in->avail;

		lzma_ret ret = lzma_code(s, in->eof && !in->avail ? LZMA_FINISH
								  : LZMA_RUN);

		gh_packed_in_take(in, in->avail - s->avail_in);
		if (ret == LZMA_STREAM_END) {
			in->ended = true;
			break;
		}
		if (ret == LZMA_UNSUPPORTED_CHECK) {
			/* Decoding goes on; xz says so once (and exits 2). */
			if (!x->warned)
				*warning = "unsupported type of integrity check; not verifying file integrity";
			x->warned = true;
			continue;
		}
		if (ret != LZMA_OK) {
			*why = xz_why(ret);
			return -1;
		}
	}
	return (int64_t)(cap - s->avail_out);
}

static uint64_t xz_consumed(const void *d)
{
	return ((const struct unxz *)d)->in.consumed;
}

static const struct gh_decoding *xz_decoding(const void *d)
{
	return ((const struct unxz *)d)->decoding;
}

/* Blocks in parallel wherever there are threads for them. */
static int xz_pieces_threads(const void *d, const struct gh_file_span *file,
			      int threads)
{
	(void)d, (void)file;
	return threads > 1 ? threads : 0;
}

const struct gh_decoder gh_xz_decoder = {
	.open = xz_open,
	.read = xz_read,
	.consumed = xz_consumed,
	.decoding = xz_decoding,
	.free = xz_free,
	.pieces_threads = xz_pieces_threads,
	.pieces = gh_xz_pieces,
};
