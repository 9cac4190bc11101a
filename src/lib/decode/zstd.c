/* zstd.c - zstd: frames decoded in order by libzstd, or split among threads
 *
 * Every frame is decoded, skippable ones skipped, as zstd -dc does; data
 * that ends inside a frame is truncated, and anything after the last frame
 * that is not a frame is refused (zstd: "unknown header"), but for the
 * data of another format this build decodes: as zstd -dc goes on to a
 * gzip, xz or lz4 stream after its frames (and an lz4 file that begins
 * with a skippable frame is one), the source goes on with that format's
 * decoder (followed), which then decodes to the end by its own rules
 * (zstd -dc would look for yet another format after that one's end).  A frame's
 * window may be up to GH_ZSTD_WINDOW_LOG_MAX: larger ones are refused
 * rather than allocated, so memory stays bounded whatever the input says.
 *
 * libzstd's verdict on a frame depends on how it is fed: a frame that
 * lies whole in the input buffer, with room for its declared content in
 * the output, is decoded at once, and that path and the streaming one
 * disagree on some invalid frames.  So libzstd is fed as zstd -dc feeds
 * it: input buffers of ZSTD_DStreamInSize() that begin with the bytes that
 * told the format, and every call a fresh output buffer of
 * ZSTD_DStreamOutSize() (staged here when the caller has less room); the
 * buffer filled whole (as the CLI's reader fills it) whenever a frame's
 * header or libzstd's next step needs more than it holds, so that a frame
 * no longer than the buffer is seen whole, from a pipe too.
 * Files of several frames are split among threads by zstd_parallel.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "decoder.h"
#include "packed_in.h"
#include "zstd_limits.h"
#include "zstd_parallel.h"

/* The longest frame header (libzstd's ZSTD_FRAMEHEADERSIZE_MAX, which only
 * its static API names). */
#define FRAME_HEADER_MAX 18

struct unzstd {
	struct gh_packed_in in;
	ZSTD_DCtx *dctx;
	bool in_frame;              /* a frame has begun and not yet ended */
	size_t hint;                /* libzstd's input for its next step */
	bool flushing;              /* the last call filled its output inside
				     * a frame: it may hold more without
				     * more input */
	size_t out_room;            /* ZSTD_DStreamOutSize() */
	unsigned char *stage;       /* decoded bytes the caller had no room
				     * for yet: [staged, staged_end) */
	size_t staged, staged_end;
	bool (*decodes)(const unsigned char *p, size_t len);
	bool handed_over;           /* another format follows: stopped */
};

static const struct gh_decoding serial = { "zstd", "libzstd" };

static void zstd_free(void *d)
{
	struct unzstd *z = d;

	if (z) {
		ZSTD_freeDCtx(z->dctx);
		gh_packed_in_free(&z->in);
		free(z->stage);
		free(z);
	}
}

static void *zstd_open(const struct gh_packed_from *from, const char **why)
{
	struct unzstd *z = calloc(1, sizeof(*z));

	*why = "out of memory";
	if (!z)
		return NULL;
	z->out_room = ZSTD_DStreamOutSize();
	z->decodes = from->decodes;
	z->dctx = gh_zstd_dctx_new();
	z->stage = malloc(z->out_room);
	if (!z->dctx || !z->stage ||
	    gh_packed_in_init(&z->in, from, ZSTD_DStreamInSize())) {
		zstd_free(z);
		return NULL;
	}
	return z;
}

/* A zstd frame's or a skippable frame's magic number. */
static bool is_frame(const unsigned char *p)
{
	uint32_t magic = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	return magic == ZSTD_MAGICNUMBER ||
	       (magic & 0xfffffff0u) == ZSTD_MAGIC_SKIPPABLE_START;
}

/* The formats zstd -dc goes on to after its frames (its fileio.c: gzip,
 * xz and lz4 frames, where it was built with them; not bzip2 or lz4's
 * legacy format). */
static bool zstd_cli_goes_on(const unsigned char *p, size_t len)
{
	return (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) ||
	       (len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6)) ||
	       (len >= 4 && !memcmp(p, "\x04\x22\x4d\x18", 4));
}

/* Hands out up to cap staged bytes into out. */
static size_t unstage(struct unzstd *z, unsigned char *out, uint64_t cap)
{
	size_t n = z->staged_end - z->staged;

	if (n > cap)
		n = (size_t)cap;
	memcpy(out, z->stage + z->staged, n);
	z->staged += n;
	return n;
}

static int64_t zstd_read(void *d, unsigned char *out, uint64_t cap,
			 const char **why, const char **warning)
{
	struct unzstd *z = d;
	uint64_t done = unstage(z, out, cap);

	(void)warning;
	while (done < cap && !z->in.ended && !z->handed_over) {
		/* zstd -dc has a frame's header whole before it starts it, and
		 * then what libzstd says the next step needs. */
		size_t need = z->in_frame ? z->hint : FRAME_HEADER_MAX;

		if (!z->flushing &&
		    gh_packed_in_fill(&z->in, need < z->in.room ? need
								 : z->in.room) < 0) {
			*why = NULL;
			return -1;
		}
		int more = z->flushing ? 1
			   : gh_packed_in_more(&z->in, z->in_frame,
					       "unexpected end of file (truncated zstd data)",
					       why);

		if (more < 0)
			return -1;
		if (!more)
			break;
		/* Between frames, another format's data: zstd -dc goes on
		 * to decode it, and so does the source, with its decoder. */
		if (!z->in_frame && !z->flushing && z->decodes &&
		    z->in.avail >= 4 && !is_frame(z->in.next) &&
		    zstd_cli_goes_on(z->in.next, z->in.avail) &&
		    z->decodes(z->in.next, z->in.avail)) {
			z->handed_over = true;
			break;
		}

		/* Straight into out when a whole output buffer fits. */
		bool direct = cap - done >= z->out_room;
		ZSTD_outBuffer ob = { direct ? out + done : z->stage,
				      z->out_room, 0 };
		ZSTD_inBuffer ib = { z->in.next, z->in.avail, 0 };
		size_t ret = ZSTD_decompressStream(z->dctx, &ob, &ib);

		gh_packed_in_take(&z->in, ib.pos);
		if (ZSTD_isError(ret)) {
			*why = gh_zstd_why(ret);
			return -1;
		}
		/* 0: a frame ended and all of it was written out. */
		z->in_frame = ret != 0;
		z->hint = ret;
		z->flushing = ret != 0 && ob.pos == ob.size;
		if (direct) {
			done += ob.pos;
		} else {
			z->staged = 0;
			z->staged_end = ob.pos;
			done += unstage(z, out + done, cap - done);
		}
	}
	return (int64_t)done;
}

static bool zstd_followed(void *d, const unsigned char **rest, uint64_t *len,
			  uint64_t *counted)
{
	struct unzstd *z = d;

	if (!z->handed_over)
		return false;
	*counted = z->in.avail;
	if (z->in.fd < 0) {         /* memory: the buffer came from it */
		*rest = z->in.mem - z->in.avail;
		*len = z->in.avail + z->in.mem_left;
	} else {
		*rest = z->in.next;
		*len = z->in.avail;
	}
	return true;
}

static uint64_t zstd_consumed(const void *d)
{
	return ((const struct unzstd *)d)->in.consumed;
}

static const struct gh_decoding *zstd_decoding(const void *d)
{
	(void)d;
	return &serial;
}

/* Frames in parallel wherever there are threads for them. */
static int zstd_pieces_threads(const void *d, const struct gh_file_span *file,
			      int threads)
{
	(void)d, (void)file;
	return threads > 1 ? threads : 0;
}

const struct gh_decoder gh_zstd_decoder = {
	.open = zstd_open,
	.read = zstd_read,
	.consumed = zstd_consumed,
	.decoding = zstd_decoding,
	.free = zstd_free,
	.followed = zstd_followed,
	.pieces_threads = zstd_pieces_threads,
	.pieces = gh_zstd_pieces,
};
