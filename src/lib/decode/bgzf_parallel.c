/* bgzf_parallel.c - a BGZF file's members decoded on several cores
 *
 * BGZF (bgzip, samtools, htslib; the SAM/BAM specification, section 4.1)
 * writes gzip members of at most 64 KiB, each carrying its own size in an
 * extra field (subfield "BC": the member's length less one).  Members are
 * independent (each has its own window and CRC), and their bounds are
 * known without decoding, so no speculation is needed: threads take the
 * next batch of whole members in turn (read with one pread() under the
 * lock, which also hands out the batch's place in the output, from each
 * member's ISIZE), and decode each member with the serial path's inflater
 * (inflate.h: ISA-L, each block header judged by zlib's rules, or zlib),
 * which checks its header, CRC-32 and length, straight into the backend's
 * chunks.  A batch is a piece of the input for code points and statistics
 * (its output's offset is the sum of the sizes before it).
 *
 * Anything that is not such a member, or does not decode to the size its
 * trailer says, returns GH_PIECES_SERIAL: the caller throws the counts
 * away and the serial decoder gives the verdict and the message, as for
 * the other parallel paths.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bgzf_parallel.h"
#include "gzip_parallel.h"
#include "inflate.h"
#include "magic.h"
#include "pieces_state.h"
#include "read_at.h"

/* A BGZF member's most bytes (BSIZE is 16 bits). */
#define MEMBER_MAX ((uint64_t)1 << 16)

static const struct gh_decoding in_members = {
	"gzip", "BGZF members in parallel" };

struct bp {
	struct gh_backend *b;
	int input;
	const struct gh_joins *joins;   /* code points, statistics */
	int fd;
	uint64_t end;                   /* where the file span ends */
	/* Compressed bytes a batch holds at least, its last member whole (a
	 * region of the parallel decoder: eight a thread, 128 KiB to 1 MiB),
	 * and what is read for one. */
	uint64_t batch_bytes, read_bytes;
	gh_pieces_progress_fn progress;
	void *ctx;
	pthread_mutex_t lock;           /* guards what follows */
	uint64_t cursor;                /* the next batch's first byte */
	uint64_t out_cursor;            /* its output's offset */
	uint64_t batches, members;
	struct gh_pieces_state st;  /* how the run ends */
};

static uint32_t le16(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t gh_bgzf_member_length(const unsigned char *p, uint64_t avail)
{
	uint64_t xlen, at = 12;

	if (avail < 18 || !gh_is_gzip(p, avail) || p[2] != 8 ||
	    !(p[3] & 0x04))             /* deflate, with an extra field */
		return 0;
	xlen = le16(p + 10);
	if (avail < 12 + xlen)
		return 0;
	while (at + 4 <= 12 + xlen) {   /* the subfields: SI1 SI2 SLEN data */
		uint64_t slen = le16(p + at + 2);

		if (p[at] == 'B' && p[at + 1] == 'C' && slen == 2 &&
		    at + 6 <= 12 + xlen)
			return (uint64_t)le16(p + at + 4) + 1;
		at += 4 + slen;
	}
	return 0;
}

/* A batch of whole members, read into a thread's buffer. */
struct batch {
	uint64_t index;                 /* its piece number */
	uint64_t at, len;               /* where it lies in the file */
	uint64_t base;                  /* its output's offset in the input */
	uint64_t out;                   /* its output's bytes (ISIZEs) */
	uint64_t members;
};

/* Takes the next batch into buf: 1, 0 when none is left, -1 when the
 * next bytes are not whole BGZF members. */
static int next_batch(struct bp *p, unsigned char *buf, struct batch *bt)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (p->cursor < p->end && !atomic_load(&p->st.bad)) {
		uint64_t want = p->end - p->cursor, at = 0;

		if (want > p->read_bytes)
			want = p->read_bytes;
		*bt = (struct batch){ .index = p->batches, .at = p->cursor,
				      .base = p->out_cursor };
		ret = gh_read_at(p->fd, buf, (size_t)want, p->cursor) ? 1 : -1;
		while (ret > 0 && at < want && at < p->batch_bytes) {
			uint64_t len = gh_bgzf_member_length(buf + at,
							     want - at);

			if (len < 18 + 8 || len > want - at) {
				/* Not a member, or one the read cut: the
				 * latter starts the next batch. */
				if (!len || want - at >= MEMBER_MAX ||
				    p->cursor + want == p->end || !at)
					ret = -1;
				break;
			}
			bt->out += le32(buf + at + len - 4);
			bt->members++;
			at += len;
		}
		if (ret > 0) {
			bt->len = at;
			p->cursor += at;
			p->out_cursor += bt->out;
			p->batches++;
			p->members += bt->members;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* A thread's own: its inflater, read buffer, and the chunk it fills. */
struct bp_thread {
	struct bp *p;
	struct gh_inflater *inf;
	unsigned char *buf;
	struct gh_chunk *c;
	size_t fill;
	const struct batch *bt;
	uint64_t batch_out;             /* its bytes submitted so far */
};

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct bp_thread *t, bool bad)
{
	struct bp *p = t->p;
	struct gh_chunk *c = t->c;

	if (!c)
		return true;
	t->c = NULL;
	const char *why = gh_submit(bad ? NULL : p->joins, p->b, p->input, c,
				    bad ? 0 : t->fill,
				    (struct gh_place){
					    .major = t->bt->index,
					    .start = t->batch_out,
					    .offset = t->bt->base + t->batch_out });

	if (why) {
		gh_pieces_backend_failed(&p->st, why);
		return false;
	}
	t->batch_out += t->fill;
	return true;
}

/* Decodes the member of len bytes at m into chunks; false when it cannot
 * (the reason in p->bad or p->backend_failed). */
static bool decode_member(struct bp_thread *t, const unsigned char *m,
			  uint64_t len)
{
	struct bp *p = t->p;
	struct gh_backend *b = p->b;
	const unsigned char *in = m;
	size_t in_len = (size_t)len;
	uint64_t out = 0;
	const char *why;

	if (t->inf->reset(t->inf)) {
		gh_pieces_bad(&p->st);
		return false;
	}
	for (;;) {
		if (!t->c) {
			t->c = b->ops->acquire(b);
			if (!t->c) {
				gh_pieces_backend_failed(&p->st, b->error);
				return false;
			}
			t->fill = 0;
		}
		unsigned char *next = t->c->data + t->fill;
		size_t room = t->c->backend->chunk_bytes - t->fill;
		enum gh_inflate_status s = t->inf->step(t->inf, &in, &in_len,
							&next, &room, &why);

		out += (uint64_t)(next - (t->c->data + t->fill));
		t->fill = (size_t)(next - t->c->data);
		if (s == GH_INFLATE_ERROR ||
		    (s == GH_INFLATE_MORE && !in_len && room)) {
			gh_pieces_bad(&p->st);       /* the verdict: serial */
			return false;
		}
		if (!room && !submit_chunk(t, false))
			return false;
		if (s == GH_INFLATE_MEMBER_END)
			break;
	}
	/* The member ends where its size field says, and decodes to the
	 * size its trailer says (exactly: a member is under 64 KiB). */
	if (in != m + len || out != le32(m + len - 4)) {
		gh_pieces_bad(&p->st);
		return false;
	}
	return true;
}

static void *decode_batches(void *arg)
{
	struct bp_thread t = { .p = arg };
	struct bp *p = t.p;
	struct batch bt;
	int got = 0;

	t.inf = gh_inflater_new();
	t.buf = malloc(p->read_bytes);
	if (!t.inf || !t.buf) {
		gh_pieces_bad(&p->st);
		goto out;
	}
	t.bt = &bt;
	while (gh_pieces_going(&p->st) &&
	       (got = next_batch(p, t.buf, &bt)) > 0) {
		uint64_t at = 0;

		t.batch_out = 0;
		while (at < bt.len) {
			uint64_t len = gh_bgzf_member_length(t.buf + at,
							     bt.len - at);

			if (!decode_member(&t, t.buf + at, len))
				goto out;
			at += len;
		}
		/* Joined at their edges, a chunk holds one batch's bytes: a
		 * piece of the input (the thread's next batch is not the
		 * next in the input). */
		if (p->joins && !submit_chunk(&t, false))
			break;
		if (p->joins && p->joins->seams &&
		    gh_seams_end_piece(p->joins->seams, bt.index,
				       t.batch_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		if (p->progress)
			p->progress(p->ctx, bt.out, bt.at + bt.len);
	}
	if (got < 0)
		gh_pieces_bad(&p->st);
out:
	submit_chunk(&t, atomic_load(&p->st.bad));
	if (t.inf)
		t.inf->free(t.inf);
	free(t.buf);
	return NULL;
}

enum gh_pieces_result gh_bgzf_pieces(struct gh_pieces_job *job)
{
	struct bp p = { .b = job->b, .input = job->input, .joins = job->joins,
			.fd = job->fd, .end = job->start + job->size,
			.progress = job->progress, .ctx = job->ctx,
			.cursor = job->start,
			.batch_bytes = gh_gzip_region(job->size, job->threads) };
	int threads = job->threads;

	p.read_bytes = p.batch_bytes + MEMBER_MAX;
	pthread_mutex_init(&p.lock, NULL);
	gh_pieces_state_init(&p.st);
	/* The calling thread decodes too. */
	gh_pieces_run(threads, decode_batches, &p);
	pthread_mutex_destroy(&p.lock);
	job->decoding = &in_members;
	snprintf(job->summary, sizeof(job->summary),
		 "%llu regions of whole BGZF members (%llu members)",
		 (unsigned long long)p.batches,
		 (unsigned long long)p.members);
	return gh_pieces_verdict(&p.st, job);
}
