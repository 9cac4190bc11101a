/* zstd_parallel.c - a zstd file of several frames decoded on several cores
 *
 * pzstd, zstd -T with --rsyncable or block splitting, and plain
 * concatenation write files of many frames, and a frame depends on no
 * other: it has its own window, its own checksum.  So the file is mapped,
 * and threads take the next frame in turn (its length found by walking its
 * block headers, which is quick: ZSTD_findFrameCompressedSize) and decode
 * it with a context of their own straight into the backend's chunks.
 * Memory is each thread's context and window (at most the window limit,
 * zstd_limits.h), never the file's size; frames are handed out one at a
 * time, so no list of them is kept either.
 *
 * Anything wrong (a frame that will not parse or decode, a file that
 * ends inside a frame, a mapping that fails) returns GH_ZSTDP_SERIAL: the
 * caller throws away what was counted and decodes the file serially,
 * whose verdict and message then stand, as for gzip.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>

#include "zstd_limits.h"
#include "zstd_parallel.h"

#ifdef HAVE_ZSTD
struct zp {
	struct gh_backend *b;
	int input;
	const unsigned char *map;   /* the whole file */
	uint64_t end;               /* where the frames end in it */
	gh_gzip_progress_fn progress;
	void *ctx;
	pthread_mutex_t lock;       /* guards cursor and frames */
	uint64_t cursor;            /* where the next frame begins */
	uint64_t frames;
	atomic_int bad;             /* invalid data, memory: go serial */
	atomic_int backend_failed;
};

/* The next frame to decode: 1 with [*at, *at + *len), 0 when none is
 * left, -1 when the next one does not parse. */
static int next_frame(struct zp *p, uint64_t *at, size_t *len)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (p->cursor < p->end && !atomic_load(&p->bad)) {
		size_t n = ZSTD_findFrameCompressedSize(p->map + p->cursor,
							p->end - p->cursor);

		if (ZSTD_isError(n)) {
			ret = -1;
		} else {
			*at = p->cursor;
			*len = n;
			p->cursor += n;
			p->frames++;
			ret = 1;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

static void *decode_frames(void *arg)
{
	struct zp *p = arg;
	struct gh_backend *b = p->b;
	ZSTD_DCtx *d = gh_zstd_dctx_new();
	struct gh_chunk *c = NULL;
	size_t fill = 0;
	uint64_t at;
	size_t len;
	int got;

	if (!d) {
		atomic_store(&p->bad, 1);
		return NULL;
	}
	while (!atomic_load(&p->backend_failed) &&
	       (got = next_frame(p, &at, &len)) > 0) {
		ZSTD_inBuffer in = { p->map + at, len, 0 };
		size_t ret = 1;
		uint64_t decoded = 0;

		ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
		while (ret != 0) {
			if (!c) {
				c = b->ops->acquire(b);
				if (!c) {
					atomic_store(&p->backend_failed, 1);
					break;
				}
				fill = 0;
			}
			ZSTD_outBuffer out = { c->data, c->backend->chunk_bytes,
					       fill };

			ret = ZSTD_decompressStream(d, &out, &in);
			decoded += out.pos - fill;
			fill = out.pos;
			if (ZSTD_isError(ret) ||
			    (ret && in.pos == in.size && out.pos < out.size)) {
				/* Refused, or the frame's bytes ran out. */
				atomic_store(&p->bad, 1);
				break;
			}
			if (fill == c->backend->chunk_bytes) {
				if (b->ops->submit(b, p->input, c, fill)) {
					atomic_store(&p->backend_failed, 1);
					c = NULL;
					break;
				}
				c = NULL;
			}
		}
		if (atomic_load(&p->bad) || atomic_load(&p->backend_failed))
			break;
		if (p->progress)
			p->progress(p->ctx, decoded, at + len);
	}
	if (got < 0)
		atomic_store(&p->bad, 1);
	if (c && b->ops->submit(b, p->input, c,
				atomic_load(&p->bad) ? 0 : fill))
		atomic_store(&p->backend_failed, 1);
	ZSTD_freeDCtx(d);
	return NULL;
}

enum gh_zstd_parallel_result gh_zstd_parallel(struct gh_backend *b, int input,
					      int fd, uint64_t start,
					      uint64_t size, int threads,
					      gh_gzip_progress_fn progress,
					      void *ctx, uint64_t *frames)
{
	struct zp p = { .b = b, .input = input, .progress = progress,
			.ctx = ctx };
	pthread_t tids[GH_READERS_MAX];
	uint64_t map_len = start + size;
	void *map;
	size_t first;
	int started = 0;

	*frames = 0;
	if (!size || map_len != (size_t)map_len)
		return GH_ZSTDP_ONE_FRAME;
	map = mmap(NULL, (size_t)map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return GH_ZSTDP_ONE_FRAME;
	p.map = map;
	p.end = map_len;
	p.cursor = start;
	first = ZSTD_findFrameCompressedSize(p.map + start, size);
	if (ZSTD_isError(first) || first == size) {
		munmap(map, (size_t)map_len);
		return ZSTD_isError(first) ? GH_ZSTDP_SERIAL : GH_ZSTDP_ONE_FRAME;
	}
	madvise(map, (size_t)map_len, MADV_SEQUENTIAL);
	pthread_mutex_init(&p.lock, NULL);
	atomic_init(&p.bad, 0);
	atomic_init(&p.backend_failed, 0);
	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	/* The calling thread decodes too. */
	while (started < threads - 1 &&
	       pthread_create(&tids[started], NULL, decode_frames, &p) == 0)
		started++;
	decode_frames(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&p.lock);
	munmap(map, (size_t)map_len);
	*frames = p.frames;
	if (atomic_load(&p.backend_failed))
		return GH_ZSTDP_BACKEND;
	return atomic_load(&p.bad) ? GH_ZSTDP_SERIAL : GH_ZSTDP_DONE;
}
#else
enum gh_zstd_parallel_result gh_zstd_parallel(struct gh_backend *b, int input,
					      int fd, uint64_t start,
					      uint64_t size, int threads,
					      gh_gzip_progress_fn progress,
					      void *ctx, uint64_t *frames)
{
	(void)b, (void)input, (void)fd, (void)start, (void)size;
	(void)threads, (void)progress, (void)ctx;
	*frames = 0;
	return GH_ZSTDP_ONE_FRAME;
}
#endif
