/* unpack_xz.c - xz streams decoded in order by liblzma
 *
 * Concatenated streams and the stream padding between them are decoded as
 * xz -dc decodes them (LZMA_CONCATENATED); anything else after the last
 * stream is refused, as xz refuses it.  With several threads, liblzma's
 * threaded decoder decodes the blocks of a file that xz -T0 wrote (several
 * blocks with their sizes in the headers) at once; it decodes anything
 * else in one thread.  Its memory for threads is bounded by
 * GH_XZ_THREADS_MEMORY, past which it decodes in one thread rather than
 * allocate more.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "unpack_in.h"

#ifdef HAVE_XZ
#include <lzma.h>

/* What the threaded decoder may hold for its threads' blocks. */
#define GH_XZ_THREADS_MEMORY ((uint64_t)1 << 30)

const char *gh_unxz_start(struct gh_unpack *u, int threads)
{
	lzma_stream *s = calloc(1, sizeof(*s));
	lzma_ret ret;

	if (!s)
		return "out of memory";
	*s = (lzma_stream)LZMA_STREAM_INIT;
	if (threads > 1) {
		lzma_mt mt = {
			.flags = LZMA_CONCATENATED,
			.threads = (uint32_t)threads,
			.memlimit_threading = GH_XZ_THREADS_MEMORY,
			.memlimit_stop = UINT64_MAX,
		};

		ret = lzma_stream_decoder_mt(s, &mt);
		u->engine = "liblzma's threaded decoder";
	} else {
		ret = lzma_stream_decoder(s, UINT64_MAX, LZMA_CONCATENATED);
		u->engine = "liblzma";
	}
	if (ret != LZMA_OK) {
		free(s);
		return ret == LZMA_MEM_ERROR ? "out of memory"
					     : "cannot start the xz decoder";
	}
	u->state = s;
	return NULL;
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

int64_t gh_unxz_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		     const char **why)
{
	lzma_stream *s = u->state;

	s->next_out = out;
	s->avail_out = (size_t)cap;
	while (s->avail_out) {
		if (!u->avail && gh_unpack_refill(u) < 0) {
			*why = NULL;
			return -1;
		}
		s->next_in = u->next;
		s->avail_in = u->avail;

		lzma_ret ret = lzma_code(s, u->eof && !u->avail ? LZMA_FINISH
							      : LZMA_RUN);

		u->next = s->next_in;
		u->avail = s->avail_in;
		if (ret == LZMA_STREAM_END) {
			u->ended = true;
			break;
		}
		if (ret != LZMA_OK) {
			*why = xz_why(ret);
			return -1;
		}
	}
	return (int64_t)(cap - s->avail_out);
}

void gh_unxz_free(struct gh_unpack *u)
{
	lzma_stream *s = u->state;

	if (s) {
		lzma_end(s);
		free(s);
	}
}
#else
const char *gh_unxz_start(struct gh_unpack *u, int threads)
{
	(void)u, (void)threads;
	return "built without xz";
}

int64_t gh_unxz_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		     const char **why)
{
	(void)u, (void)out, (void)cap;
	*why = "built without xz";
	return -1;
}

void gh_unxz_free(struct gh_unpack *u)
{
	(void)u;
}
#endif
