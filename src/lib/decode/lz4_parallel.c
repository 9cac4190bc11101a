/* lz4_parallel.c - the independent blocks of lz4 frames decoded on several
 * cores
 *
 * An lz4 frame (the format lz4 writes) is a magic number, a descriptor
 * (flags, the blocks' largest decoded size, optionally the content's size,
 * and a byte of checksum), blocks, an end mark, and optionally the
 * XXH32 of the whole content.  Each block is a 4-byte size (its top bit:
 * stored as is), its bytes, and optionally the XXH32 of those bytes.  lz4
 * writes independent blocks unless told -BD: such a block needs no other
 * to decode, so, with the sizes read first, any thread may decode any
 * block.  Here:
 *
 *  1. Walk.  The frames' headers and every block's size are read in turn
 *     (a pread() a block), and checked as liblz4 checks them: the
 *     descriptor's version, reserved bits, block size and checksum, each
 *     block within the largest size, the frames (and skippable frames)
 *     ending exactly at the file's end.  Anything else (linked blocks, a
 *     dictionary, a legacy frame, trailing bytes, a file cut short) is
 *     left to the serial decoder, nothing done.
 *  2. Decode.  Threads take the blocks in turn: each reads its block,
 *     checks the block's checksum where the frame has them, decodes it
 *     with LZ4_decompress_safe (a block that would decode past the largest
 *     size is refused, as liblz4 refuses it) and hands its bytes on in
 *     chunks, each block a piece.
 *  3. Content.  A frame's content checksum is one XXH32 over its bytes in
 *     order, which cannot be computed in pieces: after handing its block
 *     on, a thread waits for the blocks before it to be hashed, then
 *     hashes its own (xxHash runs at several GB/s on one core, so this
 *     chain sets the pace only past that), holding no chunk meanwhile.  A
 *     content's checksum or size that does not match makes the run bad.
 *
 * Bad data found once decoding began returns GH_PIECES_SERIAL: the caller
 * throws away what was counted and decodes the file in order, whose
 * verdict and message then stand.
 *
 * Memory: each thread holds one block's stored and decoded bytes (at most
 * the largest block size of the file's frames, 4 MiB, each); 24 bytes a
 * block for the list.  A file whose blocks average under BLOCK_MIN_AVG
 * bytes stored (lz4 writes no such file: 64 KiB of one byte is some 270
 * bytes) is left to the serial decoder before its list costs more than a
 * part of its size.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <xxhash.h>

#include "lz4_parallel.h"
#include "pieces_state.h"
#include "read_at.h"

#define LZ4_MAGIC 0x184D2204u
#define SKIPPABLE_MASK 0xfffffff0u
#define SKIPPABLE_MAGIC 0x184D2A50u

/* The descriptor's flags (its first byte) and block sizes (its second). */
#define FLG_VERSION_MASK 0xc0u
#define FLG_VERSION_01 0x40u
#define FLG_INDEPENDENT 0x20u
#define FLG_BLOCK_SUM 0x10u
#define FLG_CONTENT_SIZE 0x08u
#define FLG_CONTENT_SUM 0x04u
#define FLG_RESERVED 0x02u
#define FLG_DICT_ID 0x01u
#define BD_RESERVED 0x8fu
#define STORED_BIT 0x80000000u

/* The fewest stored bytes a block may average (see the top). */
#define BLOCK_MIN_AVG 64

/* File bytes the walk reads at once: many block headers where blocks are
 * small, one where they are large. */
#define WALK_WINDOW 4096

static const struct gh_decoding in_parallel = {
	"lz4", "liblz4, blocks in parallel" };

struct frame {
	uint32_t block_max;         /* a block's decoded bytes at most */
	bool block_sum, content_sum, has_size;
	uint64_t size;              /* the content's bytes, where it says */
	uint32_t sum;               /* the content's XXH32, where it has one */
	atomic_uint_fast64_t decoded;
};

struct block {
	uint64_t at;                /* its bytes in the file */
	uint32_t stored;            /* how many (without the checksum) */
	bool raw;                   /* stored as is */
	bool first, last;           /* of its frame */
	uint32_t frame;
};

struct lp {
	struct gh_sink sink;
	int fd;
	uint64_t start, end;        /* the compressed bytes in the file */
	gh_pieces_progress_fn progress;
	void *ctx;
	struct frame *frames;
	struct block *blocks;
	uint64_t n_frames, cap_frames, n_blocks, cap_blocks;
	uint32_t block_max;         /* the largest of the frames' */
	unsigned char window[WALK_WINDOW];      /* the walk's reads: */
	uint64_t window_at, window_len;         /* [at, at + len) */
	atomic_uint_fast64_t next_block;
	/* The content checksums' chain: block `hashed` is the next one whose
	 * bytes go into `content` (blocks of frames without one pass it). */
	pthread_mutex_t lock;
	pthread_cond_t turn;
	uint64_t hashed;
	XXH32_state_t *content;
	bool any_sum;               /* a frame has a content checksum */
	struct gh_pieces_state st;
};

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* Reads len bytes (at most WALK_WINDOW) at offset `at` of the span, through
 * the walk's window; false past its end. */
static bool span_read(struct lp *p, void *buf, size_t len, uint64_t at)
{
	if (at > p->end || len > p->end - at || len > WALK_WINDOW)
		return false;
	if (at < p->window_at || at + len > p->window_at + p->window_len) {
		uint64_t n = p->end - at < WALK_WINDOW ? p->end - at
						      : WALK_WINDOW;

		if (!gh_read_at(p->fd, p->window, (size_t)n, at))
			return false;
		p->window_at = at;
		p->window_len = n;
	}
	memcpy(buf, p->window + (at - p->window_at), len);
	return true;
}

/* Room for one more of n items of `size` bytes in *v, holding *cap. */
static bool room_for(void **v, uint64_t n, uint64_t *cap, size_t size)
{
	if (n < *cap)
		return true;
	uint64_t c = *cap ? 2 * *cap : 64;

	if (c > SIZE_MAX / size)
		return false;
	void *m = realloc(*v, (size_t)c * size);

	if (!m)
		return false;
	*v = m;
	*cap = c;
	return true;
}

/* The frame whose magic is at *at: its descriptor and blocks listed, *at
 * past its end.  False where it does not split, or is not as liblz4 would
 * read it. */
static bool walk_frame(struct lp *p, uint64_t *at)
{
	unsigned char d[4 + 2 + 8 + 4 + 1];
	unsigned char h[4];
	uint64_t pos = *at;

	if (!span_read(p, d, 6, pos))
		return false;
	unsigned flg = d[4], bd = d[5];
	size_t len = 6 + (flg & FLG_CONTENT_SIZE ? 8 : 0) +
		     (flg & FLG_DICT_ID ? 4 : 0);

	/* Linked blocks and dictionaries need the bytes before them. */
	if ((flg & FLG_VERSION_MASK) != FLG_VERSION_01 ||
	    (flg & FLG_RESERVED) || !(flg & FLG_INDEPENDENT) ||
	    (flg & FLG_DICT_ID) || (bd & BD_RESERVED) || ((bd >> 4) & 7) < 4 ||
	    !span_read(p, d, len + 1, pos) ||
	    ((XXH32(d + 4, len - 4, 0) >> 8) & 0xff) != d[len] ||
	    !room_for((void **)&p->frames, p->n_frames, &p->cap_frames,
		      sizeof(*p->frames)))
		return false;
	struct frame *f = &p->frames[p->n_frames];

	*f = (struct frame){
		.block_max = 1u << (8 + 2 * ((bd >> 4) & 7)),
		.block_sum = flg & FLG_BLOCK_SUM,
		.content_sum = flg & FLG_CONTENT_SUM,
		.has_size = flg & FLG_CONTENT_SIZE,
		.size = flg & FLG_CONTENT_SIZE ? le64(d + 6) : 0,
	};
	atomic_init(&f->decoded, 0);
	if (f->block_max > p->block_max)
		p->block_max = f->block_max;
	pos += len + 1;
	uint64_t first = p->n_blocks;

	for (;;) {
		if (!span_read(p, h, 4, pos))
			return false;
		uint32_t size = le32(h);

		pos += 4;
		if (!size)
			break;          /* the end mark */
		uint32_t stored = size & ~STORED_BIT;

		/* A stored block of no bytes, which lz4 never writes, is an
		 * end mark to liblz4 before 1.9.3 and a block after it: the
		 * serial decoder's liblz4 decides.  And a list of blocks
		 * far smaller than lz4 writes would cost more than it saves. */
		if (!stored ||
		    p->n_blocks >= (p->end - p->start) / BLOCK_MIN_AVG + 16 ||
		    stored > f->block_max ||
		    stored + (f->block_sum ? 4u : 0u) > p->end - pos ||
		    !room_for((void **)&p->blocks, p->n_blocks, &p->cap_blocks,
			      sizeof(*p->blocks)))
			return false;
		p->blocks[p->n_blocks++] = (struct block){
			.at = pos, .stored = stored,
			.raw = size & STORED_BIT,
			.frame = (uint32_t)p->n_frames };
		pos += stored + (f->block_sum ? 4 : 0);
	}
	if (f->content_sum) {
		if (!span_read(p, h, 4, pos))
			return false;
		f->sum = le32(h);
		pos += 4;
	}
	if (p->n_blocks > first) {
		p->blocks[first].first = true;
		p->blocks[p->n_blocks - 1].last = true;
	} else if ((f->has_size && f->size) ||
		   (f->content_sum && f->sum != XXH32(NULL, 0, 0))) {
		return false;   /* an empty frame that says otherwise */
	}
	p->n_frames++;
	*at = pos;
	return true;
}

/* Every frame of the span listed; false where the file does not split. */
static bool walk(struct lp *p)
{
	unsigned char h[8];

	for (uint64_t at = p->start; at < p->end;) {
		if (!span_read(p, h, 4, at))
			return false;
		uint32_t magic = le32(h);

		if ((magic & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
			if (!span_read(p, h, 8, at) ||
			    le32(h + 4) > p->end - at - 8)
				return false;
			at += 8 + (uint64_t)le32(h + 4);
		} else if (magic != LZ4_MAGIC || !walk_frame(p, &at)) {
			return false;
		}
	}
	return p->n_frames > 0 && p->n_frames <= UINT32_MAX;
}

/* A thread's own: its block's stored and decoded bytes, and the chunk it
 * fills. */
struct lp_thread {
	struct lp *p;
	unsigned char *in, *out;
	struct gh_chunk *c;
	uint64_t fill;
	uint64_t block, block_out;  /* the block it hands on, bytes so far */
};

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct lp_thread *t, bool bad)
{
	struct gh_place at = { .major = t->block, .start = t->block_out };

	if (!t->c)
		return true;
	if (!gh_pieces_submit(&t->p->st, &t->p->sink, &t->c, t->fill, at,
			      bad))
		return false;
	t->block_out += t->fill;
	return true;
}

/* Block b's bytes decoded into t->out: how many, or -1 where the block or
 * its checksum is bad, or the read failed. */
static int64_t decode_block(struct lp_thread *t, const struct block *b)
{
	const struct frame *f = &t->p->frames[b->frame];
	size_t len = b->stored + (f->block_sum ? 4 : 0);
	unsigned char *in = b->raw ? t->out : t->in;

	if (!gh_read_at(t->p->fd, in, len, b->at) ||
	    (f->block_sum && XXH32(in, b->stored, 0) != le32(in + b->stored)))
		return -1;
	if (b->raw)
		return b->stored;
	int n = LZ4_decompress_safe((const char *)in, (char *)t->out,
				    (int)b->stored, (int)f->block_max);

	return n < 0 ? -1 : n;
}

/* n decoded bytes of the thread's block handed on in chunks; false when
 * the backend failed. */
static bool hand_on(struct lp_thread *t, uint64_t n)
{
	struct lp *p = t->p;

	for (uint64_t done = 0; done < n;) {
		if (!t->c) {
			const char *why = NULL;

			t->c = gh_sink_acquire(&p->sink, &why);
			if (!t->c) {
				gh_pieces_backend_failed(&p->st, why);
				return false;
			}
			t->fill = 0;
		}
		uint64_t room = gh_sink_room(t->c) - t->fill;
		uint64_t part = n - done < room ? n - done : room;

		memcpy(t->c->data + t->fill, t->out + done, part);
		t->fill += part;
		done += part;
		if (t->fill == gh_sink_room(t->c) && !submit_chunk(t, false))
			return false;
	}
	return true;
}

/* Block k's n decoded bytes into its frame's content checksum, in the
 * blocks' order: waits for the blocks before it.  False when the run
 * stopped meanwhile, or the content's checksum is wrong. */
static bool chain(struct lp *p, uint64_t k, uint64_t n, const unsigned char *out)
{
	const struct block *b = &p->blocks[k];
	const struct frame *f = &p->frames[b->frame];
	bool ok = true;

	pthread_mutex_lock(&p->lock);
	while (p->hashed != k && gh_pieces_going(&p->st))
		pthread_cond_wait(&p->turn, &p->lock);
	if (p->hashed != k) {
		ok = false;
	} else {
		if (f->content_sum) {
			if (b->first)
				XXH32_reset(p->content, 0);
			XXH32_update(p->content, out, (size_t)n);
			if (b->last && XXH32_digest(p->content) != f->sum) {
				gh_pieces_bad(&p->st);
				ok = false;
			}
		}
		p->hashed++;
	}
	pthread_cond_broadcast(&p->turn);
	pthread_mutex_unlock(&p->lock);
	return ok;
}

static void *decode_blocks(void *arg)
{
	struct lp_thread t = { .p = arg };
	struct lp *p = t.p;
	uint64_t k;

	/* A block's stored bytes and checksum; decoded, at most the
	 * largest size (a stored one read there with its checksum). */
	t.in = malloc((size_t)p->block_max + 4);
	t.out = malloc((size_t)p->block_max + 4);
	if (!t.in || !t.out)
		gh_pieces_bad(&p->st);
	while (gh_pieces_going(&p->st) &&
	       (k = atomic_fetch_add(&p->next_block, 1)) < p->n_blocks) {
		const struct block *b = &p->blocks[k];
		int64_t n = decode_block(&t, b);

		if (n < 0) {
			gh_pieces_bad(&p->st);
			break;
		}
		t.block = k;
		t.block_out = 0;
		if (!hand_on(&t, (uint64_t)n))
			break;
		/* Joined at their edges, a chunk holds one block's bytes. */
		if (gh_sink_joins(&p->sink) && !submit_chunk(&t, false))
			break;
		if (gh_sink_end_piece(&p->sink, k, t.block_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		atomic_fetch_add(&p->frames[b->frame].decoded, (uint64_t)n);
		/* No chunk is held while waiting in the chain: the blocks
		 * before this one may need every chunk there is. */
		if (p->any_sum && (!submit_chunk(&t, false) ||
				   !chain(p, k, (uint64_t)n, t.out)))
			break;
		if (p->progress)
			p->progress(p->ctx, (uint64_t)n, b->at + b->stored);
	}
	submit_chunk(&t, atomic_load(&p->st.bad));
	/* Threads waiting their turn in the chain see a run that stopped. */
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->turn);
	pthread_mutex_unlock(&p->lock);
	free(t.in);
	free(t.out);
	return NULL;
}

/* Whether every frame's content is as long as it says (a size of 0 says
 * nothing, as liblz4 reads it). */
static bool sizes_match(struct lp *p)
{
	for (uint64_t i = 0; i < p->n_frames; i++)
		if (p->frames[i].has_size && p->frames[i].size &&
		    atomic_load(&p->frames[i].decoded) != p->frames[i].size)
			return false;
	return true;
}

enum gh_pieces_result gh_lz4_pieces(struct gh_pieces_job *job)
{
	struct lp p = { .sink = job->sink, .fd = job->fd,
			.start = job->start, .end = job->start + job->size,
			.progress = job->progress, .ctx = job->ctx };
	enum gh_pieces_result res = GH_PIECES_IN_ORDER;

	if (gh_sink_by_offset(&job->sink)) {
		snprintf(job->why_text, sizeof(job->why_text),
			 "its blocks do not say their size, which %s to join them in parallel",
			 gh_sink_offsets_user(&job->sink));
		job->why = job->why_text;
		return GH_PIECES_SERIAL;
	}
	if (!walk(&p) || p.n_blocks < 2)
		goto out;
	for (uint64_t i = 0; i < p.n_frames; i++)
		p.any_sum = p.any_sum || p.frames[i].content_sum;
	p.content = XXH32_createState();
	if (!p.content)
		goto out;
	atomic_init(&p.next_block, 0);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.turn, NULL);
	gh_pieces_state_init(&p.st);
	gh_pieces_run(job->threads, decode_blocks, &p);
	pthread_cond_destroy(&p.turn);
	pthread_mutex_destroy(&p.lock);
	if (gh_pieces_going(&p.st) && !sizes_match(&p))
		gh_pieces_bad(&p.st);
	job->decoding = &in_parallel;
	snprintf(job->summary, sizeof(job->summary), "%llu blocks in %llu frame%s",
		 (unsigned long long)p.n_blocks,
		 (unsigned long long)p.n_frames, p.n_frames == 1 ? "" : "s");
	res = gh_pieces_verdict(&p.st, job);
out:
	XXH32_freeState(p.content);
	free(p.frames);
	free(p.blocks);
	return res;
}
