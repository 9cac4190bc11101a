/* zstd_parallel.c - a zstd file of several frames decoded on several cores
 *
 * pzstd, zstd -T with --rsyncable or block splitting, and plain
 * concatenation write files of many frames, and a frame depends on no
 * other: it has its own window, its own checksum.  So threads take the
 * next frame in turn, its length found from its header and its blocks'
 * 3-byte headers (a walk over the file, reading only those), and decode
 * it with a context of their own, reading it with pread(), straight into
 * the backend's chunks.  Memory is each thread's context, window (at most
 * the window limit, zstd_limits.h) and input buffer, never the file's or
 * a frame's size; frames are handed out one at a time, so no list of them
 * is kept either.  The file is read, not mapped: a file cut short while it
 * is decoded is then a short read, not a fault.
 *
 * Anything wrong (a frame that will not parse or decode, a file that ends
 * inside a frame, a read or an allocation that fails) returns
 * GH_PIECES_SERIAL: the caller throws away what was counted and decodes
 * the file serially, whose verdict and message then stand, as for gzip.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "pieces_state.h"
#include "read_at.h"
#include "zstd_limits.h"
#include "zstd_parallel.h"

/* Compressed bytes a thread reads at once. */
#define ZP_READ_BYTES (256 * 1024)

static const struct gh_decoding in_parallel = {
	"zstd", "libzstd, frames in parallel" };

struct zp {
	struct gh_sink sink;        /* code points: each frame a piece */
	bool offsets;               /* statistics: chunks' offsets needed */
	uint64_t out_cursor;        /* where the next frame's bytes begin */
	int fd;
	uint64_t end;               /* where the frames end in the file */
	gh_pieces_progress_fn progress;
	void *ctx;
	pthread_mutex_t lock;       /* guards cursor and frames */
	uint64_t cursor;            /* where the next frame begins */
	uint64_t frames;
	struct gh_pieces_state st;  /* how the run ends */
	atomic_int unsized;         /* ... or a frame -s cannot place */
};

/*
 * The length of the frame at `at` (a zstd frame or a skippable one), from
 * its header and its blocks' headers (RFC 8878, 3.1); 0 when it does not
 * parse or the file ends inside it.  *content gets the bytes it declares
 * it decodes to (0 for a skippable frame), or UINT64_MAX when it does not
 * say.  Frames it gets wrong only send the file to the serial decoder,
 * which has the last word.
 */
static uint64_t frame_length(int fd, uint64_t at, uint64_t end,
			     uint64_t *content)
{
	static const unsigned did_bytes[4] = { 0, 1, 2, 4 };
	unsigned char h[18];
	uint64_t pos;
	unsigned fhd, fcs_bytes, header;

	*content = 0;
	if (end - at < 8 || !gh_read_at(fd, h, 8, at))
		return 0;
	if ((h[0] & 0xf0) == 0x50 && h[1] == 0x2a && h[2] == 0x4d &&
	    h[3] == 0x18) {             /* skippable: magic, length, data */
		uint64_t len = 8 + ((uint64_t)h[4] | (uint64_t)h[5] << 8 |
				    (uint64_t)h[6] << 16 | (uint64_t)h[7] << 24);

		return len <= end - at ? len : 0;
	}
	if (h[0] != 0x28 || h[1] != 0xb5 || h[2] != 0x2f || h[3] != 0xfd)
		return 0;
	fhd = h[4];
	if (fhd & 0x08)                 /* the reserved bit */
		return 0;
	fcs_bytes = (fhd >> 6) == 0 ? (fhd & 0x20 ? 1 : 0)
		    : 1u << (fhd >> 6);
	header = 4 + 1 + (fhd & 0x20 ? 0 : 1) + did_bytes[fhd & 3] + fcs_bytes;
	if (end - at < header || !gh_read_at(fd, h, header, at))
		return 0;
	*content = fcs_bytes ? 0 : UINT64_MAX;
	for (unsigned k = fcs_bytes; k > 0; k--)  /* little-endian */
		*content = *content << 8 | h[header - fcs_bytes + k - 1];
	if (fcs_bytes == 2)
		*content += 256;
	pos = at + header;
	for (;;) {
		unsigned char b[3];
		uint32_t bh, size;

		if (end - pos < 3 || !gh_read_at(fd, b, 3, pos))
			return 0;
		bh = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
		size = bh >> 3;
		switch (bh >> 1 & 3) {
		case 0:                 /* raw */
		case 2:                 /* compressed */
			break;
		case 1:                 /* RLE: one byte */
			size = 1;
			break;
		default:                /* reserved */
			return 0;
		}
		if (end - pos - 3 < size)
			return 0;
		pos += 3 + size;
		if (bh & 1)             /* the last block */
			break;
	}
	if (fhd & 0x04) {               /* a content checksum */
		if (end - pos < 4)
			return 0;
		pos += 4;
	}
	return pos - at;
}

/* The next frame to decode: 1 with [*at, *at + *len), 0 when none is
 * left, -1 when the next one does not parse. */
static int next_frame(struct zp *p, uint64_t *at, uint64_t *len,
		      uint64_t *index, uint64_t *content, uint64_t *base)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (p->cursor < p->end && !atomic_load(&p->st.bad)) {
		uint64_t n = frame_length(p->fd, p->cursor, p->end, content);

		/* Statistics: a frame of unknown size leaves the offsets
		 * of those after it unknown (the tokens views join frames
		 * piece by piece, and need none). */
		if (!n || (p->offsets && *content == UINT64_MAX)) {
			if (n)
				atomic_store(&p->unsized, 1);
			ret = -1;
		} else {
			*at = p->cursor;
			*len = n;
			*index = p->frames;
			*base = p->out_cursor;
			p->cursor += n;
			p->out_cursor += p->offsets ? *content : 0;
			p->frames++;
			ret = 1;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* A thread's own: its context, input buffer, and the chunk it fills. */
struct zp_thread {
	struct zp *p;
	ZSTD_DCtx *d;
	unsigned char *in;
	struct gh_chunk *c;
	size_t fill;
	uint64_t frame;             /* the frame it decodes */
	uint64_t frame_out;         /* its bytes submitted so far */
	uint64_t frame_base;        /* the input's bytes before the frame */
};

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct zp_thread *t, bool bad)
{
	struct gh_place at = { .major = t->frame,
			       .start = t->frame_out,
			       .offset = t->frame_base + t->frame_out };

	if (!t->c)
		return true;
	if (!gh_pieces_submit(&t->p->st, &t->p->sink, &t->c, t->fill, at,
			      bad))
		return false;
	t->frame_out += t->fill;
	return true;
}

/* Decodes the frame [at, at + len) into chunks; false when it cannot
 * (the reason in p->bad or p->backend_failed). */
static bool decode_frame(struct zp_thread *t, uint64_t at, uint64_t len,
			 uint64_t *decoded)
{
	struct zp *p = t->p;
	uint64_t done = 0;
	size_t ret = 1;

	ZSTD_DCtx_reset(t->d, ZSTD_reset_session_only);
	while (done < len) {
		size_t want = len - done < ZP_READ_BYTES ? (size_t)(len - done)
							 : ZP_READ_BYTES;
		ZSTD_inBuffer in = { t->in, want, 0 };

		if (!gh_read_at(p->fd, t->in, want, at + done)) {
			gh_pieces_bad(&p->st);       /* cut short, say */
			return false;
		}
		done += want;
		while (in.pos < in.size || (ret && done == len)) {
			if (!t->c) {
				const char *why = NULL;

				t->c = gh_sink_acquire(&p->sink, &why);
				if (!t->c) {
					gh_pieces_backend_failed(&p->st, why);
					return false;
				}
				t->fill = 0;
			}
			uint64_t room = gh_sink_room(t->c);
			ZSTD_outBuffer out = { t->c->data, room, t->fill };

			ret = ZSTD_decompressStream(t->d, &out, &in);
			*decoded += out.pos - t->fill;
			t->fill = out.pos;
			if (ZSTD_isError(ret) ||
			    (ret && done == len && in.pos == in.size &&
			     out.pos < out.size)) {
				/* Refused, or the frame's bytes ran out. */
				gh_pieces_bad(&p->st);
				return false;
			}
			if (t->fill == room &&
			    !submit_chunk(t, false))
				return false;
			if (!ret) {             /* the frame ended: there */
				if (in.pos != in.size || done != len) {
					gh_pieces_bad(&p->st);
					return false;
				}
				break;
			}
		}
	}
	if (ret) {                      /* the frame did not end */
		gh_pieces_bad(&p->st);
		return false;
	}
	return true;
}

static void *decode_frames(void *arg)
{
	struct zp_thread t = { .p = arg };
	struct zp *p = t.p;
	uint64_t at, len, index, content, base;
	int got = 0;

	t.d = gh_zstd_dctx_new();
	t.in = malloc(ZP_READ_BYTES);
	if (!t.d || !t.in) {
		gh_pieces_bad(&p->st);
		goto out;
	}
	while (gh_pieces_going(&p->st) &&
	       (got = next_frame(p, &at, &len, &index, &content, &base)) > 0) {
		uint64_t decoded = 0;

		t.frame = index;
		t.frame_out = 0;
		t.frame_base = base;
		if (!decode_frame(&t, at, len, &decoded))
			break;
		/* Joined at their edges, a chunk holds one frame's bytes: a
		 * piece of the input for seams.c, one offset for edges.c (the
		 * thread's next frame is not the next in the input). */
		if (gh_sink_joins(&p->sink) && !submit_chunk(&t, false))
			break;
		if (p->offsets && t.frame_out != content) {
			gh_pieces_bad(&p->st);       /* not as declared */
			break;
		}
		if (gh_sink_end_piece(&p->sink, index, t.frame_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		if (p->progress)
			p->progress(p->ctx, decoded, at + len);
	}
	if (got < 0)
		gh_pieces_bad(&p->st);
	submit_chunk(&t, atomic_load(&p->st.bad));
out:
	ZSTD_freeDCtx(t.d);
	free(t.in);
	return NULL;
}

enum gh_pieces_result gh_zstd_pieces(struct gh_pieces_job *job)
{
	struct zp p = { .sink = job->sink,
			.offsets = gh_sink_by_offset(&job->sink),
			.fd = job->fd, .end = job->start + job->size,
			.progress = job->progress, .ctx = job->ctx,
			.cursor = job->start };
	uint64_t first, first_content;
	int threads = job->threads;

	first = frame_length(p.fd, job->start, p.end, &first_content);
	if (!first)
		return GH_PIECES_SERIAL;
	if (first == job->size)
		return GH_PIECES_IN_ORDER;
	pthread_mutex_init(&p.lock, NULL);
	atomic_init(&p.unsized, 0);
	gh_pieces_state_init(&p.st);
	/* The calling thread decodes too. */
	gh_pieces_run(threads, decode_frames, &p);
	pthread_mutex_destroy(&p.lock);
	job->decoding = &in_parallel;
	snprintf(job->summary, sizeof(job->summary), "%llu frames",
		 (unsigned long long)p.frames);
	enum gh_pieces_result res = gh_pieces_verdict(&p.st, job);

	if (res != GH_PIECES_FAILED && atomic_load(&p.unsized)) {
		snprintf(job->why_text, sizeof(job->why_text),
			 "its frames do not all say their size, which %s to join them in parallel",
			 gh_sink_offsets_user(&job->sink));
		job->why = job->why_text;
	}
	return res;
}
