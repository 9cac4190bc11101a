/* xz_parallel.c - the blocks of an xz file decoded on several cores
 *
 * xz -T0 (and xz -T N, pixz, pxz) writes files of many blocks, each with
 * its own header, filters and integrity check, and an index at the end of
 * each stream that lists every block's size, compressed and decoded.  A
 * block depends on no other, so, as xz -T decodes them, the index is read
 * first (liblzma's file-info decoder: every stream's header, footer and
 * index, and the stream padding between them, with a few pread()s from the
 * end) and threads then take the next block in turn, each decoding it with
 * liblzma's block decoder of its own straight into the backend's chunks.
 * Unlike liblzma's threaded decoder, no one thread copies or counts every
 * byte: each thread counts what it decoded, and reads its block's bytes as
 * it decodes them, so the compressed bytes read tell how far the run is.
 *
 * Every block is checked against the index (its header's sizes, its
 * unpadded size, its decoded size) and by its own integrity check, so
 * what is counted is what xz -dc would write.  Anything wrong (a file the
 * file-info decoder refuses, a block that will not decode or is not as the
 * index says, a read or an allocation that fails) returns
 * GH_PIECES_SERIAL: the caller throws away what was counted and decodes
 * the file in order, whose verdict and message then stand.  A file of one
 * block, or with a check this liblzma cannot verify (decoded in order with
 * xz's warning), is GH_PIECES_IN_ORDER.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <lzma.h>

#include "pieces_state.h"
#include "read_at.h"
#include "xz_parallel.h"

/* Compressed bytes a thread reads at once. */
#define XP_READ_BYTES (256 * 1024)

/* Bytes of file the file-info decoder is given at a time. */
#define XP_INFO_BYTES (64 * 1024)

static const struct gh_decoding in_parallel = {
	"xz", "liblzma, blocks in parallel" };

struct xp {
	struct gh_sink sink;        /* code points: each block a piece */
	int fd;
	uint64_t start;             /* where the file's xz data begins */
	gh_pieces_progress_fn progress;
	void *ctx;
	uint64_t thread_memory;     /* what one thread's decoder may use */
	pthread_mutex_t lock;       /* guards iter and blocks */
	lzma_index_iter iter;       /* the next block */
	uint64_t blocks;
	struct gh_pieces_state st;  /* how the run ends */
};

/* One block as the index lists it. */
struct xp_block {
	uint64_t index;             /* its place among the file's blocks */
	uint64_t at;                /* where it begins in the xz data */
	uint64_t total;             /* its bytes: header to check */
	uint64_t unpadded;
	uint64_t decoded;           /* what it decodes to */
	uint64_t base;              /* the file's decoded bytes before it */
	lzma_check check;
};

/*
 * The index of the file span [start, start + size): every stream's, joined
 * (liblzma's file-info decoder, reading where it asks); NULL where the
 * file is not valid xz as far as those parts tell.
 */
static lzma_index *read_index(int fd, uint64_t start, uint64_t size)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_index *idx = NULL;
	unsigned char *buf = malloc(XP_INFO_BYTES);
	uint64_t pos = 0;
	lzma_ret ret = LZMA_OK;

	if (!buf || lzma_file_info_decoder(&s, &idx, UINT64_MAX, size) !=
		    LZMA_OK) {
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t want = size - pos < XP_INFO_BYTES ? (size_t)(size - pos)
							 : XP_INFO_BYTES;

		if (!want || !gh_read_at(fd, buf, want, start + pos))
			break;
		s.next_in = buf;
		s.avail_in = want;
		ret = lzma_code(&s, LZMA_RUN);
		if (ret == LZMA_SEEK_NEEDED) {
			pos = s.seek_pos;
			continue;
		}
		if (ret != LZMA_OK)
			break;
		pos += want - s.avail_in;
	}
	lzma_end(&s);
	free(buf);
	if (ret != LZMA_STREAM_END) {
		lzma_index_end(idx, NULL);      /* NULL is fine */
		return NULL;
	}
	return idx;
}

/* The next block to decode: 1, or 0 when none is left. */
static int next_block(struct xp *p, struct xp_block *blk)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (!atomic_load(&p->st.bad) &&
	    !lzma_index_iter_next(&p->iter, LZMA_INDEX_ITER_BLOCK)) {
		const lzma_index_iter *it = &p->iter;

		*blk = (struct xp_block){
			.index = p->blocks++,
			.at = it->block.compressed_file_offset,
			.total = it->block.total_size,
			.unpadded = it->block.unpadded_size,
			.decoded = it->block.uncompressed_size,
			.base = it->block.uncompressed_file_offset,
			.check = it->stream.flags->check,
		};
		ret = 1;
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* A thread's own: its decoder, input buffer, and the chunk it fills. */
struct xp_thread {
	struct xp *p;
	lzma_stream s;
	lzma_block block;           /* s reads and writes it till the end */
	unsigned char *in;
	struct gh_chunk *c;
	size_t fill;
	const struct xp_block *blk; /* the block it decodes */
	uint64_t block_out;         /* its bytes submitted so far */
};

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct xp_thread *t, bool bad)
{
	struct gh_place at = {
		.major = t->blk ? t->blk->index : 0,
		.start = t->block_out,
		.offset = (t->blk ? t->blk->base : 0) + t->block_out };

	if (!t->c)
		return true;
	if (!gh_pieces_submit(&t->p->st, &t->p->sink, &t->c, t->fill, at,
			      bad))
		return false;
	t->block_out += t->fill;
	return true;
}

/* Frees what lzma_block_header_decode() allocated for the filters. */
static void free_filters(lzma_filter *filters)
{
	for (int i = 0; i < LZMA_FILTERS_MAX && filters[i].id != LZMA_VLI_UNKNOWN;
	     i++) {
		free(filters[i].options);
		filters[i].options = NULL;
	}
}

/* Reads the block's header and starts t's decoder on it, checked against
 * the index; the header's bytes, or 0 when it cannot. */
static uint32_t start_block(struct xp_thread *t, const struct xp_block *blk)
{
	struct xp *p = t->p;
	lzma_filter filters[LZMA_FILTERS_MAX + 1];
	lzma_block *block = &t->block;
	unsigned char header[LZMA_BLOCK_HEADER_SIZE_MAX];
	uint32_t size = 0;
	bool ok = false;

	/* The decoder keeps block to the end; the filters' options are
	 * needed only to start it (as in xz's own stream decoder). */
	*block = (lzma_block){ .version = 1, .check = blk->check };
	filters[0].id = LZMA_VLI_UNKNOWN;
	if (blk->total < 1 || !gh_read_at(p->fd, header, 1, p->start + blk->at))
		return 0;
	size = lzma_block_header_size_decode(header[0]);
	block->header_size = size;
	block->filters = filters;
	if (header[0] != 0x00 && size <= blk->total &&
	    gh_read_at(p->fd, header + 1, size - 1, p->start + blk->at + 1) &&
	    lzma_block_header_decode(block, NULL, header) == LZMA_OK) {
		ok = lzma_block_compressed_size(block, blk->unpadded) ==
			     LZMA_OK &&
		     (block->uncompressed_size == LZMA_VLI_UNKNOWN ||
		      block->uncompressed_size == blk->decoded) &&
		     lzma_raw_decoder_memusage(filters) <= p->thread_memory;
		/* The decoder then refuses a block that decodes to another
		 * size. */
		block->uncompressed_size = blk->decoded;
		ok = ok && lzma_block_decoder(&t->s, block) == LZMA_OK;
	}
	free_filters(filters);
	block->filters = NULL;
	return ok ? size : 0;
}

/* Decodes one block into chunks; false when it cannot (the reason in
 * p->bad or p->backend_failed). */
static bool decode_block(struct xp_thread *t, const struct xp_block *blk)
{
	struct xp *p = t->p;
	uint32_t header = start_block(t, blk);
	uint64_t at = blk->at + header, end = blk->at + blk->total;
	lzma_ret ret = LZMA_OK;

	if (!header) {
		gh_pieces_bad(&p->st);
		return false;
	}
	while (ret == LZMA_OK) {
		if (!t->s.avail_in) {
			size_t want = end - at < XP_READ_BYTES ? (size_t)(end - at)
							       : XP_READ_BYTES;

			if (want && !gh_read_at(p->fd, t->in, want, p->start + at)) {
				gh_pieces_bad(&p->st);  /* cut short, say */
				return false;
			}
			at += want;
			t->s.next_in = t->in;
			t->s.avail_in = want;
		}
		if (!t->c) {
			const char *why = NULL;

			t->c = gh_sink_acquire(&p->sink, &why);
			if (!t->c) {
				gh_pieces_backend_failed(&p->st, why);
				return false;
			}
			t->fill = 0;
		}
		t->s.next_out = t->c->data + t->fill;
		uint64_t room = gh_sink_room(t->c);

		t->s.avail_out = room - t->fill;
		ret = lzma_code(&t->s, at == end ? LZMA_FINISH : LZMA_RUN);
		t->fill = room - t->s.avail_out;
		if (t->fill == room &&
		    !submit_chunk(t, false))
			return false;
	}
	/* The block ended where the index says, every byte of it read. */
	if (ret != LZMA_STREAM_END || at != end || t->s.avail_in) {
		gh_pieces_bad(&p->st);
		return false;
	}
	return true;
}

static void *decode_blocks(void *arg)
{
	struct xp_thread t = { .p = arg, .s = LZMA_STREAM_INIT };
	struct xp *p = t.p;
	struct xp_block blk;

	t.in = malloc(XP_READ_BYTES);
	if (!t.in) {
		gh_pieces_bad(&p->st);
		return NULL;
	}
	while (gh_pieces_going(&p->st) &&
	       next_block(p, &blk)) {
		t.blk = &blk;
		t.block_out = 0;
		t.s.avail_in = 0;
		if (!decode_block(&t, &blk))
			break;
		/* Joined at their edges, a chunk holds one block's bytes. */
		if (gh_sink_joins(&p->sink) && !submit_chunk(&t, false))
			break;
		if (gh_sink_end_piece(&p->sink, blk.index, t.block_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		if (p->progress)
			p->progress(p->ctx, blk.decoded, blk.at + blk.total);
	}
	submit_chunk(&t, atomic_load(&p->st.bad));
	lzma_end(&t.s);
	free(t.in);
	return NULL;
}

/* What the decoder of the file's first block needs; 0 when its header
 * does not decode. */
static uint64_t first_block_memory(const struct xp *p, lzma_index *idx)
{
	lzma_filter filters[LZMA_FILTERS_MAX + 1];
	unsigned char header[LZMA_BLOCK_HEADER_SIZE_MAX];
	lzma_index_iter it;
	lzma_block block = { .version = 1, .filters = filters };
	uint64_t memory = 0;

	filters[0].id = LZMA_VLI_UNKNOWN;
	lzma_index_iter_init(&it, idx);
	if (lzma_index_iter_next(&it, LZMA_INDEX_ITER_BLOCK) ||
	    !gh_read_at(p->fd, header, 1,
			p->start + it.block.compressed_file_offset) ||
	    header[0] == 0x00)
		return 0;
	block.check = it.stream.flags->check;
	block.header_size = lzma_block_header_size_decode(header[0]);
	if (gh_read_at(p->fd, header + 1, block.header_size - 1,
		       p->start + it.block.compressed_file_offset + 1) &&
	    lzma_block_header_decode(&block, NULL, header) == LZMA_OK)
		memory = lzma_raw_decoder_memusage(filters);
	free_filters(filters);
	return memory == UINT64_MAX ? 0 : memory;
}

/* Whether every stream's check can be verified here, and the file has
 * more than one block. */
static bool worth_splitting(lzma_index *idx)
{
	lzma_index_iter it;

	if (lzma_index_block_count(idx) < 2)
		return false;
	lzma_index_iter_init(&it, idx);
	while (!lzma_index_iter_next(&it, LZMA_INDEX_ITER_STREAM))
		if (!lzma_check_is_supported(it.stream.flags->check))
			return false;
	return true;
}

enum gh_pieces_result gh_xz_pieces(struct gh_pieces_job *job)
{
	struct xp p = { .sink = job->sink,
			.fd = job->fd, .start = job->start,
			.progress = job->progress, .ctx = job->ctx };
	lzma_index *idx = read_index(p.fd, job->start, job->size);
	int threads = job->threads;

	if (!idx)
		return GH_PIECES_SERIAL;
	if (!worth_splitting(idx)) {
		lzma_index_end(idx, NULL);
		return GH_PIECES_IN_ORDER;
	}
	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	/* As many threads as the first block's decoder fits in the memory
	 * for them (xz -9: 64 MiB of dictionary each). */
	uint64_t first = first_block_memory(&p, idx);

	if (first && GH_XZ_THREADS_MEMORY / first < (uint64_t)threads)
		threads = (int)(GH_XZ_THREADS_MEMORY / first);
	if (!first || threads < 2) {
		lzma_index_end(idx, NULL);
		return first ? GH_PIECES_IN_ORDER : GH_PIECES_SERIAL;
	}
	p.thread_memory = GH_XZ_THREADS_MEMORY / (uint64_t)threads;
	lzma_index_iter_init(&p.iter, idx);
	pthread_mutex_init(&p.lock, NULL);
	gh_pieces_state_init(&p.st);
	/* The calling thread decodes too. */
	gh_pieces_run(threads, decode_blocks, &p);
	pthread_mutex_destroy(&p.lock);
	job->decoding = &in_parallel;
	lzma_vli streams = lzma_index_stream_count(idx);

	snprintf(job->summary, sizeof(job->summary), "%llu blocks in %llu stream%s",
		 (unsigned long long)lzma_index_block_count(idx),
		 (unsigned long long)streams, streams == 1 ? "" : "s");
	lzma_index_end(idx, NULL);
	return gh_pieces_verdict(&p.st, job);
}
