/* bzip2_parallel.c - a bzip2 file's blocks decoded on several cores
 *
 * A bzip2 stream is a header ("BZh" and a level, 1-9: blocks of at most
 * that many 100 kB), blocks, and an end.  Each block begins with a 48-bit
 * magic (0x314159265359) and the CRC of its bytes, the end with another
 * magic (0x177245385090) and the stream's CRC, the blocks' CRCs combined;
 * both fall at any bit.  A block depends on no other (the Burrows-Wheeler
 * transform is undone a block at a time), which is how lbzip2 decodes on
 * several cores.  Here:
 *
 *  1. Find.  The file is cut into spans that the threads take in turn;
 *     each span is searched for both magics at every bit.
 *  2. Check.  The marks, in file order, must make streams as bzip2 writes
 *     them: a header at the first byte with a mark right after it,
 *     blocks, an end whose CRC is the blocks' CRCs combined, then at the
 *     next byte another header and mark, or the file's end.  Anything else
 *     (trailing garbage, a file cut short, a magic that is data by chance)
 *     goes to the serial decoder, whose verdict and warning then stand.
 *  3. Decode.  The threads take the blocks in turn.  A block's bits, from
 *     its magic to the next mark, are moved to a byte boundary between a
 *     made-up header (its stream's level) and end (its own CRC as the
 *     stream's), and libbz2 decodes that stream into the backend's chunks;
 *     so every block's bytes are checked against its CRC, as the serial
 *     decoder checks them.  Each block is a piece of the input.
 *
 * Memory: a thread's span buffer, libbz2's state (3.6 MB at level 9) and
 * one block's compressed bytes (at most BLOCK_BITS_MAX: more between two
 * marks is not a block an encoder writes, and goes to the serial
 * decoder); and 16 bytes a mark for the list, then a block (bzip2's
 * blocks are kilobytes; marks closer than 64 bytes apart, which only
 * contrived files or streams of a few bytes each have, go to the serial
 * decoder before their lists take more than a quarter of the file's size).
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>

#include "bzip2_parallel.h"
#include "pieces_state.h"
#include "read_at.h"

/* Compressed bytes a thread searches at once, and what it reads past them:
 * a mark at a span's last bit and the 32 bits after it. */
#define SPAN_BYTES ((uint64_t)4 << 20)
#define SPAN_AFTER 16

#define BLOCK_MAGIC 0x314159265359ull
#define END_MAGIC 0x177245385090ull
#define MAGIC_MASK 0xffffffffffffull

/* More bits than any encoder writes for a block of a level: at most
 * level * 100000 symbols of at most 20 bits, 32767 selectors of at most
 * 6 bits, 6 tables of 258 lengths, the header and symbol map; rounded
 * well up.  (libbz2 would take code lengths stretched without end by +1
 * -1 steps, but no encoder writes them; like bytes left between a block
 * and the next mark, they go to the serial decoder, which judges them
 * holding no more than its buffers.) */
#define BLOCK_BITS_MAX(level) (8 * ((uint64_t)(level) * 250000 + 65536))

static const struct gh_decoding in_parallel = {
	"bzip2", "libbz2, blocks in parallel" };

/* A magic found: its first bit in the file, whether it ends a stream, and
 * the 32 bits after it (the block's or the stream's CRC). */
struct mark {
	uint64_t bit;
	uint32_t crc;
	bool end;
};

struct marks {
	struct mark *m;
	size_t n, cap;
};

/* A block to decode: its first bit, its stream's level (bit << 4 | level),
 * its length in bits (at most BLOCK_BITS_MAX) and its CRC. */
struct block {
	uint64_t at;
	uint32_t bits, crc;
};

struct bp {
	struct gh_sink sink;
	int fd;
	uint64_t start, end;        /* the compressed bytes in the file */
	gh_pieces_progress_fn progress;
	void *ctx;
	uint64_t n_spans;
	atomic_uint_fast64_t next_span;
	struct marks *spans;        /* each span's marks */
	struct block *blocks;
	uint64_t n_blocks, streams;
	atomic_uint_fast64_t next_block;
	struct gh_pieces_state st;
};

/* Bytes of a byte holding part of a magic at offset s (0..7) of byte i:
 * byte i + 1 is wholly inside it, one of 16 values (8 offsets, 2 magics). */
static bool inside[256];
static pthread_once_t inside_once = PTHREAD_ONCE_INIT;

static void inside_init(void)
{
	for (unsigned s = 0; s < 8; s++) {
		inside[(BLOCK_MAGIC >> (32 + s)) & 255] = true;
		inside[(END_MAGIC >> (32 + s)) & 255] = true;
	}
}

static uint64_t load_be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int k = 0; k < 8; k++)
		v = v << 8 | p[k];
	return v;
}

static int add_mark(struct marks *ms, struct mark m)
{
	if (ms->n == ms->cap) {
		size_t cap = ms->cap ? 2 * ms->cap : 64;
		struct mark *n = realloc(ms->m, cap * sizeof(*n));

		if (!n)
			return -1;
		ms->m = n;
		ms->cap = cap;
	}
	ms->m[ms->n++] = m;
	return 0;
}

/* The marks that begin at a bit of buf[0, len) (bits from file bit
 * `base`); buf has SPAN_AFTER readable bytes past len.  -1 when memory
 * fails, or past a mark every 64 bytes (see the top). */
static int find_marks(const unsigned char *buf, uint64_t len, uint64_t base,
		      struct marks *ms)
{
	const size_t most = (size_t)(len / 64) + 2;

	for (uint64_t i = 0; i < len; i++) {
		if (!inside[buf[i + 1]])
			continue;
		uint64_t w = load_be64(buf + i), after = load_be64(buf + i + 6);

		for (unsigned s = 0; s < 8; s++) {
			uint64_t v = w >> (16 - s) & MAGIC_MASK;

			if (v != BLOCK_MAGIC && v != END_MAGIC)
				continue;
			if (ms->n == most || add_mark(ms, (struct mark){
					.bit = base + 8 * i + s,
					.crc = (uint32_t)(after >> (32 - s)),
					.end = v == END_MAGIC }))
				return -1;
		}
	}
	return 0;
}

static void *find_spans(void *arg)
{
	struct bp *p = arg;
	unsigned char *buf = malloc(SPAN_BYTES + SPAN_AFTER);
	uint64_t k;

	if (!buf) {
		gh_pieces_bad(&p->st);
		return NULL;
	}
	while (gh_pieces_going(&p->st) &&
	       (k = atomic_fetch_add(&p->next_span, 1)) < p->n_spans) {
		uint64_t at = p->start + k * SPAN_BYTES;
		uint64_t len = p->end - at < SPAN_BYTES ? p->end - at
							 : SPAN_BYTES;
		uint64_t more = p->end - at - len < SPAN_AFTER
				? p->end - at - len : SPAN_AFTER;

		memset(buf + len, 0, SPAN_AFTER);
		if (!gh_read_at(p->fd, buf, len + more, at) ||
		    find_marks(buf, len, 8 * at, &p->spans[k])) {
			gh_pieces_bad(&p->st);
			break;
		}
	}
	free(buf);
	return NULL;
}

/* Marks in file order, span after span; each span's list is freed once
 * walked. */
struct mark_walk {
	struct bp *p;
	uint64_t span;
	size_t at;
};

static bool next_mark(struct mark_walk *w, struct mark *m)
{
	struct bp *p = w->p;

	while (w->span < p->n_spans && w->at == p->spans[w->span].n) {
		free(p->spans[w->span].m);
		p->spans[w->span].m = NULL;
		w->span++;
		w->at = 0;
	}
	if (w->span == p->n_spans)
		return false;
	*m = p->spans[w->span].m[w->at++];
	return true;
}

static int add_block(struct bp *p, uint64_t *cap, struct block b)
{
	if (p->n_blocks == *cap) {
		uint64_t n = *cap ? 2 * *cap : 256;
		struct block *bs = realloc(p->blocks, n * sizeof(*bs));

		if (!bs)
			return -1;
		p->blocks = bs;
		*cap = n;
	}
	p->blocks[p->n_blocks++] = b;
	return 0;
}

/* The marks of every span, in file order, as streams: p->blocks.  0, or
 * -1 when they are not the streams bzip2 writes (the serial decoder is to
 * judge) or memory failed. */
static int check_streams(struct bp *p)
{
	struct mark_walk w = { .p = p };
	struct mark m, next;
	uint64_t pos = p->start, cap = 0;

	while (pos < p->end) {
		unsigned char h[4];
		uint32_t combined = 0;
		unsigned level;

		if (p->end - pos < 4 || !gh_read_at(p->fd, h, 4, pos) ||
		    memcmp(h, "BZh", 3) || h[3] < '1' || h[3] > '9')
			return -1;      /* garbage, or cut short */
		level = h[3] - '0';
		if (!next_mark(&w, &m) || m.bit != 8 * (pos + 4))
			return -1;
		for (; !m.end; m = next) {
			if (!next_mark(&w, &next))
				return -1;      /* the stream does not end */
			if (next.bit - m.bit > BLOCK_BITS_MAX(level) ||
			    add_block(p, &cap, (struct block){
					    m.bit << 4 | level,
					    (uint32_t)(next.bit - m.bit),
					    m.crc }))
				return -1;
			combined = (combined << 1 | combined >> 31) ^ m.crc;
		}
		if (m.crc != combined || m.bit + 80 > 8 * p->end)
			return -1;
		pos = (m.bit + 80 + 7) / 8;
		p->streams++;
	}
	return next_mark(&w, &m) ? -1 : 0;     /* a magic past the streams */
}

/* A thread's own: libbz2's stream, the made-up stream's bytes, and the
 * chunk it fills. */
struct bp_thread {
	struct bp *p;
	unsigned char *in;
	size_t in_cap;
	struct gh_chunk *c;
	uint64_t fill;
	uint64_t block, block_out;  /* the block it decodes, bytes so far */
};

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct bp_thread *t, bool bad)
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

/* Writes n bits of v (its low ones, the first at the top) at bit *at of
 * buf, whose bytes from *at on are zero. */
static void put_bits(unsigned char *buf, uint64_t *at, uint64_t v, unsigned n)
{
	while (n--) {
		if (v >> n & 1)
			buf[*at / 8] |= (unsigned char)(0x80 >> (*at % 8));
		(*at)++;
	}
}

/* Block b as a stream of its own in t->in: *len bytes.  False when a read
 * or memory failed. */
static bool make_stream(struct bp_thread *t, const struct block *b,
			size_t *len)
{
	uint64_t bit = b->at >> 4, end = bit + b->bits;
	uint64_t first = bit / 8, last = (end + 7) / 8;
	uint64_t at = 32 + (uint64_t)b->bits;
	unsigned shift = bit % 8;
	size_t need = 4 + (size_t)(last - first) + 12;

	if (need > t->in_cap) {
		unsigned char *n = realloc(t->in, need);

		if (!n)
			return false;
		t->in = n;
		t->in_cap = need;
	}
	unsigned char *in = t->in;

	memset(in, 0, need);
	if (!gh_read_at(t->p->fd, in + 4, (size_t)(last - first), first))
		return false;
	if (shift)      /* moved up to a byte boundary, in place */
		for (uint64_t k = 0; k < last - first; k++)
			in[4 + k] = (unsigned char)(in[4 + k] << shift |
						    in[5 + k] >> (8 - shift));
	/* the bits past the block's end cleared, then the stream's end */
	size_t clear = (size_t)((at + 7) / 8);

	if (at % 8)
		in[at / 8] &= (unsigned char)(0xff00 >> (at % 8));
	memset(in + clear, 0, need - clear);
	in[0] = 'B';
	in[1] = 'Z';
	in[2] = 'h';
	in[3] = (unsigned char)('0' + (b->at & 15));
	put_bits(in, &at, END_MAGIC, 48);
	put_bits(in, &at, b->crc, 32);
	*len = (size_t)((at + 7) / 8);
	return true;
}

/* Decodes block b into chunks; false when it cannot (the reason in p's
 * state). */
static bool decode_block(struct bp_thread *t, const struct block *b,
			 uint64_t *decoded)
{
	struct bp *p = t->p;
	bz_stream bz = { 0 };
	size_t len;
	int ret = BZ_OK;

	if (!make_stream(t, b, &len) || BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) {
		gh_pieces_bad(&p->st);
		return false;
	}
	bz.next_in = (char *)t->in;
	bz.avail_in = (unsigned)len;
	while (ret == BZ_OK) {
		if (!t->c) {
			const char *why = NULL;

			t->c = gh_sink_acquire(&p->sink, &why);
			if (!t->c) {
				gh_pieces_backend_failed(&p->st, why);
				BZ2_bzDecompressEnd(&bz);
				return false;
			}
			t->fill = 0;
		}
		uint64_t room = gh_sink_room(t->c);
		uint64_t want = room - t->fill < (1u << 30) ? room - t->fill
							     : 1u << 30;

		bz.next_out = (char *)t->c->data + t->fill;
		bz.avail_out = (unsigned)want;
		ret = BZ2_bzDecompress(&bz);
		t->fill += want - bz.avail_out;
		*decoded += want - bz.avail_out;
		if (ret == BZ_OK && !bz.avail_in && bz.avail_out) {
			ret = BZ_UNEXPECTED_EOF;        /* did not end */
			break;
		}
		if (t->fill == room && !submit_chunk(t, false)) {
			BZ2_bzDecompressEnd(&bz);
			return false;
		}
	}
	BZ2_bzDecompressEnd(&bz);
	/* Ended, and at the made-up end: bits left between a block and the
	 * next mark can read as an end of their own (the end magic's last
	 * three bits are its first three), leaving ours unread. */
	if (ret != BZ_STREAM_END || bz.avail_in) {
		gh_pieces_bad(&p->st);
		return false;
	}
	return true;
}

static void *decode_blocks(void *arg)
{
	struct bp_thread t = { .p = arg };
	struct bp *p = t.p;
	uint64_t k;

	while (gh_pieces_going(&p->st) &&
	       (k = atomic_fetch_add(&p->next_block, 1)) < p->n_blocks) {
		uint64_t decoded = 0;

		t.block = k;
		t.block_out = 0;
		if (!decode_block(&t, &p->blocks[k], &decoded))
			break;
		/* Joined at their edges, a chunk holds one block's bytes. */
		if (gh_sink_joins(&p->sink) && !submit_chunk(&t, false))
			break;
		if (gh_sink_end_piece(&p->sink, k, t.block_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		if (p->progress)
			p->progress(p->ctx, decoded,
				    ((p->blocks[k].at >> 4) + p->blocks[k].bits) / 8);
	}
	submit_chunk(&t, atomic_load(&p->st.bad));
	free(t.in);
	return NULL;
}

enum gh_pieces_result gh_bzip2_pieces(struct gh_pieces_job *job)
{
	struct bp p = { .sink = job->sink, .fd = job->fd,
			.start = job->start, .end = job->start + job->size,
			.progress = job->progress, .ctx = job->ctx };
	enum gh_pieces_result res;

	if (gh_sink_by_offset(&job->sink)) {
		snprintf(job->why_text, sizeof(job->why_text),
			 "its blocks do not say their size, which %s to join them in parallel",
			 gh_sink_offsets_user(&job->sink));
		job->why = job->why_text;
		return GH_PIECES_SERIAL;
	}
	pthread_once(&inside_once, inside_init);
	p.n_spans = (job->size + SPAN_BYTES - 1) / SPAN_BYTES;
	p.spans = calloc(p.n_spans ? p.n_spans : 1, sizeof(*p.spans));
	if (!p.spans)
		return GH_PIECES_SERIAL;
	atomic_init(&p.next_span, 0);
	atomic_init(&p.next_block, 0);
	gh_pieces_state_init(&p.st);
	gh_pieces_run(job->threads, find_spans, &p);
	if (atomic_load(&p.st.bad) || check_streams(&p)) {
		res = GH_PIECES_SERIAL;
	} else if (p.n_blocks < 2) {
		res = GH_PIECES_IN_ORDER;
	} else {
		gh_pieces_run(job->threads, decode_blocks, &p);
		job->decoding = &in_parallel;
		snprintf(job->summary, sizeof(job->summary),
			 "%llu blocks in %llu stream%s",
			 (unsigned long long)p.n_blocks,
			 (unsigned long long)p.streams,
			 p.streams == 1 ? "" : "s");
		res = gh_pieces_verdict(&p.st, job);
	}
	for (uint64_t s = 0; s < p.n_spans; s++)
		free(p.spans[s].m);
	free(p.spans);
	free(p.blocks);
	return res;
}
