/* unpack_zstd.c - zstd frames decoded in order by libzstd
 *
 * Every frame is decoded, skippable ones skipped, as zstd -dc does; data
 * that ends inside a frame is truncated, and anything after the last frame
 * that is not a frame is refused (zstd: "unknown header").  A frame's
 * window may be up to GH_ZSTD_WINDOW_LOG_MAX: larger ones are refused
 * rather than allocated, so memory stays bounded whatever the input says.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "unpack_in.h"
#include "zstd_limits.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

struct unzstd {
	ZSTD_DCtx *dctx;
	bool in_frame;              /* a frame has begun and not yet ended */
};

const char *gh_unzstd_start(struct gh_unpack *u)
{
	struct unzstd *z = calloc(1, sizeof(*z));

	if (!z)
		return "out of memory";
	z->dctx = gh_zstd_dctx_new();
	if (!z->dctx) {
		free(z);
		return "out of memory";
	}
	u->state = z;
	u->engine = "libzstd";
	return NULL;
}

int64_t gh_unzstd_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		       const char **why)
{
	struct unzstd *z = u->state;
	ZSTD_outBuffer ob = { out, (size_t)cap, 0 };

	while (ob.pos < ob.size) {
		int more = gh_unpack_more(u, z->in_frame,
					  "unexpected end of file (truncated zstd data)",
					  why);

		if (more < 0)
			return -1;
		if (!more)
			break;

		ZSTD_inBuffer ib = { u->next, u->avail, 0 };
		size_t ret = ZSTD_decompressStream(z->dctx, &ob, &ib);

		u->next += ib.pos;
		u->avail -= ib.pos;
		if (ZSTD_isError(ret)) {
			*why = gh_zstd_why(ret);
			return -1;
		}
		/* 0: a frame ended and all of it was written out. */
		z->in_frame = ret != 0;
	}
	return (int64_t)ob.pos;
}

void gh_unzstd_free(struct gh_unpack *u)
{
	struct unzstd *z = u->state;

	if (z) {
		ZSTD_freeDCtx(z->dctx);
		free(z);
	}
}
#else
const char *gh_unzstd_start(struct gh_unpack *u)
{
	(void)u;
	return "built without zstd";
}

int64_t gh_unzstd_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		       const char **why)
{
	(void)u, (void)out, (void)cap;
	*why = "built without zstd";
	return -1;
}

void gh_unzstd_free(struct gh_unpack *u)
{
	(void)u;
}
#endif
