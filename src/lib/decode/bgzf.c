/* bgzf.c - a gzip file of members that carry their own size (BGZF) decoded
 * member by member on several cores, by zlib
 *
 * bgzip, samtools and htslib write gzip as members of at most 64 KiB, each
 * with its compressed size in an extra field (subfield "BC", SAM/BAM
 * specification 4.1).  Members are independent: no speculation is needed,
 * only their bounds.  A thread takes the next batch of members (about
 * BATCH_BYTES of compressed data, read at once under the lock, which also
 * sums the members' sizes from their trailers, so that each batch knows
 * where its bytes begin in the output), then decodes each member with
 * zlib, the reference for gzip -dc's verdict, which also checks its CRC-32
 * and length, straight into the backend's chunks.  Memory is a batch's
 * compressed bytes and zlib's state a thread, whatever the file's size.
 *
 * Anything else (a member without the field, one whose size is not its
 * real length, zero padding or garbage after the members, an error of
 * zlib's, a read or an allocation that fails) gives up: the caller throws
 * away what was counted and decodes the file in order from its first
 * byte, whose verdict and message then stand.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bgzf.h"

/* Compressed bytes a batch holds at least (its last member may end past
 * that; GPUHIST_BGZF_BATCH sets another, for tests), and no member is
 * larger than 64 KiB. */
#define BATCH_BYTES ((uint64_t)1 << 20)
#define MEMBER_MAX ((uint64_t)1 << 16)

static const struct gh_decoding by_members = {
	"gzip", "zlib, BGZF members in parallel" };

struct bp {
	struct gh_pieces_job *job;
	uint64_t batch_bytes;       /* BATCH_BYTES, or the test's */
	pthread_mutex_t lock;       /* guards the cursors and batches */
	uint64_t cursor;            /* where the next batch begins */
	uint64_t end;               /* where the members end in the file */
	uint64_t out_cursor;        /* where the next batch's bytes begin */
	uint64_t batches;
	atomic_int bad;             /* invalid data, a read, memory: serial */
	atomic_int backend_failed;
	_Atomic(const char *) why;  /* the first backend failure's reason */
};

struct bp_thread {
	struct bp *p;
	unsigned char *in;          /* a batch's compressed bytes */
	z_stream z;
	struct gh_chunk *c;
	uint64_t fill;
	uint64_t batch;             /* the batch it decodes */
	uint64_t batch_out;         /* its bytes submitted so far */
	uint64_t batch_base;        /* the input's bytes before the batch */
};

static void backend_failed(struct bp *p, const char *why)
{
	const char *none = NULL;

	atomic_compare_exchange_strong(&p->why, &none, why);
	atomic_store(&p->backend_failed, 1);
}

/* Reads len bytes at offset, all of them; false when it cannot. */
static bool read_at(int fd, void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The size of the BGZF member whose first `have` bytes are at h (at least
 * 18 are needed): its BSIZE + 1, or 0 when it is not one. */
static uint64_t member_size(const unsigned char *h, uint64_t have)
{
	uint64_t xlen, at;

	if (have < 18 || h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 ||
	    !(h[3] & 4))
		return 0;
	xlen = h[10] | (uint64_t)h[11] << 8;
	/* Subfields: SI1 SI2 LEN(2) data; "BC" with 2 bytes of BSIZE. */
	for (at = 12; at + 4 <= 12 + xlen && at + 4 <= have;) {
		uint64_t len = h[at + 2] | (uint64_t)h[at + 3] << 8;

		if (h[at] == 'B' && h[at + 1] == 'C' && len == 2 &&
		    at + 6 <= have)
			return (h[at + 4] | (uint64_t)h[at + 5] << 8) + 1;
		at += 4 + len;
	}
	return 0;
}

bool gh_bgzf_is(int fd, uint64_t start, uint64_t size)
{
	unsigned char h[64];
	uint64_t n = size < sizeof(h) ? size : sizeof(h);

	return read_at(fd, h, (size_t)n, start) && member_size(h, n) >= 26;
}

/* The next batch: whole members from the cursor, read into t->in; its
 * length in *len, or 0 when none is left; -1 when the members do not
 * parse. */
static int next_batch(struct bp_thread *t, uint64_t *len)
{
	struct bp *p = t->p;
	int ret = 0;

	*len = 0;
	pthread_mutex_lock(&p->lock);
	if (p->cursor < p->end && !atomic_load(&p->bad)) {
		uint64_t want = p->end - p->cursor, at = 0, out = 0;

		if (want > p->batch_bytes + MEMBER_MAX)
			want = p->batch_bytes + MEMBER_MAX;
		ret = -1;
		if (read_at(p->job->fd, t->in, (size_t)want, p->cursor)) {
			while (at < want && at < p->batch_bytes) {
				uint64_t m = member_size(t->in + at, want - at);

				if (m < 26 || m > want - at)
					break;
				out += le32(t->in + at + m - 4);
				at += m;
			}
			/* Whole members up to the batch's size, or to the end
			 * of the file. */
			if (at && (at >= p->batch_bytes || p->cursor + at == p->end))
				ret = 1;
		}
		if (ret == 1) {
			*len = at;
			t->batch = p->batches++;
			t->batch_base = p->out_cursor;
			p->cursor += at;
			p->out_cursor += out;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct bp_thread *t, bool bad)
{
	struct bp *p = t->p;
	struct gh_chunk *c = t->c;

	if (!c)
		return true;
	t->c = NULL;
	const char *why = gh_submit(bad ? NULL : p->job->joins, p->job->b,
				    p->job->input, c, bad ? 0 : t->fill,
				    (struct gh_place){ .major = t->batch,
						       .start = t->batch_out,
						       .offset = t->batch_base +
								 t->batch_out });

	if (why) {
		backend_failed(p, why);
		return false;
	}
	t->batch_out += t->fill;
	return true;
}

/* Decodes the members of a batch (len bytes in t->in) into chunks; the
 * decoded bytes, or -1 (the reason in p->bad or p->backend_failed). */
static int64_t decode_batch(struct bp_thread *t, uint64_t len)
{
	struct bp *p = t->p;
	struct gh_backend *b = p->job->b;
	uint64_t at = 0, decoded = 0;

	while (at < len) {
		uint64_t m = member_size(t->in + at, len - at);
		int ret = Z_OK;

		if (inflateReset(&t->z) != Z_OK) {
			atomic_store(&p->bad, 1);
			return -1;
		}
		t->z.next_in = t->in + at;
		t->z.avail_in = (uInt)m;
		while (ret != Z_STREAM_END) {
			if (!t->c) {
				t->c = b->ops->acquire(b);
				if (!t->c) {
					backend_failed(p, b->error);
					return -1;
				}
				t->fill = 0;
			}
			uint64_t room = t->c->backend->chunk_bytes - t->fill;

			t->z.next_out = t->c->data + t->fill;
			t->z.avail_out = room > UINT32_MAX ? UINT32_MAX
							   : (uInt)room;
			ret = inflate(&t->z, Z_NO_FLUSH);
			uint64_t n = (uint64_t)(t->z.next_out -
						(t->c->data + t->fill));

			t->fill += n;
			decoded += n;
			if (ret != Z_OK && ret != Z_STREAM_END) {
				atomic_store(&p->bad, 1);       /* refused */
				return -1;
			}
			if (ret == Z_OK && !t->z.avail_in && t->z.avail_out) {
				atomic_store(&p->bad, 1);       /* cut short */
				return -1;
			}
			if (t->fill == t->c->backend->chunk_bytes &&
			    !submit_chunk(t, false))
				return -1;
		}
		/* The member's size was its real length. */
		if (t->z.avail_in) {
			atomic_store(&p->bad, 1);
			return -1;
		}
		at += m;
	}
	return (int64_t)decoded;
}

static void *decode_batches(void *arg)
{
	struct bp_thread t = { .p = arg };
	struct bp *p = t.p;
	uint64_t len;
	int got = 0;

	t.in = malloc(p->batch_bytes + MEMBER_MAX);
	if (!t.in || inflateInit2(&t.z, 31) != Z_OK) {
		free(t.in);
		atomic_store(&p->bad, 1);
		return NULL;
	}
	while (!atomic_load(&p->backend_failed) && !atomic_load(&p->bad) &&
	       (got = next_batch(&t, &len)) > 0) {
		int64_t decoded;

		t.batch_out = 0;
		decoded = decode_batch(&t, len);
		if (decoded < 0)
			break;
		/* Joined at their edges, a chunk holds one batch's bytes: a
		 * piece of the input for seams.c, one offset for edges.c. */
		if (p->job->joins && !submit_chunk(&t, false))
			break;
		if (p->job->joins && p->job->joins->seams &&
		    gh_seams_end_piece(p->job->joins->seams, t.batch,
				       t.batch_out)) {
			backend_failed(p, "out of memory for the edges of chunks");
			break;
		}
		if (p->job->progress)
			p->job->progress(p->job->ctx, (uint64_t)decoded, 0);
	}
	if (got < 0)
		atomic_store(&p->bad, 1);
	submit_chunk(&t, atomic_load(&p->bad));
	inflateEnd(&t.z);
	free(t.in);
	return NULL;
}

enum gh_pieces_result gh_bgzf_pieces(struct gh_pieces_job *job)
{
	const char *env = getenv("GPUHIST_BGZF_BATCH");
	struct bp p = { .job = job, .cursor = job->start,
			.end = job->start + job->size,
			.batch_bytes = BATCH_BYTES };

	if (env && atoll(env) > 0 && atoll(env) <= (long long)BATCH_BYTES)
		p.batch_bytes = (uint64_t)atoll(env);
	pthread_t tids[GH_READERS_MAX];
	int started = 0, threads = job->threads;

	pthread_mutex_init(&p.lock, NULL);
	atomic_init(&p.bad, 0);
	atomic_init(&p.backend_failed, 0);
	atomic_init(&p.why, NULL);
	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	/* The calling thread decodes too. */
	while (started < threads - 1 &&
	       pthread_create(&tids[started], NULL, decode_batches, &p) == 0)
		started++;
	decode_batches(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&p.lock);
	job->decoding = &by_members;
	snprintf(job->summary, sizeof(job->summary),
		 "%llu regions of whole BGZF members",
		 (unsigned long long)p.batches);
	if (atomic_load(&p.backend_failed)) {
		job->why = atomic_load(&p.why);
		return GH_PIECES_FAILED;
	}
	return atomic_load(&p.bad) ? GH_PIECES_SERIAL : GH_PIECES_DONE;
}
