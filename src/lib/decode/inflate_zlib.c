/* inflate_zlib.c - one gzip member at a time with zlib (always built) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "inflate.h"

struct zlib_inflater {
	struct gh_inflater base;        /* first: callers see only this */
	z_stream zs;
	char why[128];
};

static enum gh_inflate_status zlib_step(struct gh_inflater *inf,
					const unsigned char **in,
					size_t *in_len, unsigned char **out,
					size_t *out_len, const char **why)
{
	struct zlib_inflater *z = (struct zlib_inflater *)inf;
	uInt in_now = *in_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
						    : (uInt)*in_len;
	uInt out_now = *out_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
						      : (uInt)*out_len;
	int ret;

	z->zs.next_in = (unsigned char *)*in;
	z->zs.avail_in = in_now;
	z->zs.next_out = *out;
	z->zs.avail_out = out_now;
	ret = inflate(&z->zs, Z_NO_FLUSH);
	*in += in_now - z->zs.avail_in;
	*in_len -= in_now - z->zs.avail_in;
	*out += out_now - z->zs.avail_out;
	*out_len -= out_now - z->zs.avail_out;
	switch (ret) {
	case Z_OK:
		return GH_INFLATE_MORE;
	case Z_STREAM_END:
		return GH_INFLATE_MEMBER_END;
	case Z_BUF_ERROR:
		/* No progress possible: it needs input we do not have yet. */
		if (z->zs.avail_in == 0)
			return GH_INFLATE_MORE;
		*why = "corrupt gzip data";
		return GH_INFLATE_ERROR;
	case Z_MEM_ERROR:
		*why = "out of memory while decoding gzip data";
		return GH_INFLATE_ERROR;
	default:
		snprintf(z->why, sizeof(z->why), "corrupt gzip data (%s)",
			 z->zs.msg ? z->zs.msg : "invalid stream");
		*why = z->why;
		return GH_INFLATE_ERROR;
	}
}

static int zlib_reset(struct gh_inflater *inf)
{
	struct zlib_inflater *z = (struct zlib_inflater *)inf;

	return inflateReset(&z->zs) == Z_OK ? 0 : -1;
}

static void zlib_free(struct gh_inflater *inf)
{
	struct zlib_inflater *z = (struct zlib_inflater *)inf;

	inflateEnd(&z->zs);
	free(z);
}

struct gh_inflater *gh_inflater_zlib_new(void)
{
	struct zlib_inflater *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	/* 15 + 16: a gzip wrapper only, with the largest window. */
	if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
		free(z);
		return NULL;
	}
	z->base.name = "zlib";
	z->base.step = zlib_step;
	z->base.reset = zlib_reset;
	z->base.free = zlib_free;
	return &z->base;
}

struct gh_inflater *gh_inflater_new(void)
{
#ifdef HAVE_ISAL
	const char *which = getenv("GPUHIST_INFLATE");

	if (!which || strcmp(which, "zlib"))
		return gh_inflater_isal_new();
#endif
	return gh_inflater_zlib_new();
}
