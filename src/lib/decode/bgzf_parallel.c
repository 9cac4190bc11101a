/* bgzf_parallel.c - a BGZF file's members decoded on several cores, or on
 * the GPU where the backend decodes them itself
 *
 * BGZF (bgzip, samtools, htslib; the SAM/BAM specification, section 4.1)
 * writes gzip members of at most 64 KiB, each carrying its own size in an
 * extra field (subfield "BC": the member's length less one).  Members are
 * independent (each has its own window and CRC), and their bounds are
 * known without decoding, so no speculation is needed.  Threads claim
 * spans of the file in turn and read them at once; a span's members are
 * those that begin in it (read whole: a member's most bytes past its end
 * are read too), and only the walk over their headers waits for the span
 * before it, which says where its first member begins and its output's
 * place (the sum of the ISIZEs before it).  Each member is decoded with
 * the serial path's inflater (inflate.h: ISA-L, each block header judged
 * by zlib's rules, or zlib), which checks its header, CRC-32 and length,
 * straight into the backend's chunks; or, where the backend decodes
 * members itself (backend.h's members_*: the GPU with nvCOMP), the span
 * is read into the backend's batch and handed over, as many members at a
 * time as a batch takes, a batch the GPU does not decode to its trailers
 * decoded here instead.  A span is a piece of the input for code points
 * and statistics.
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
#include <string.h>

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
	struct gh_sink sink;            /* code points, statistics */
	int fd;
	uint64_t end;                   /* where the file span ends */
	/* Compressed bytes a span of the CPU's holds (a region of the
	 * parallel decoder: eight a thread, 128 KiB to 1 MiB). */
	uint64_t span_bytes;
	/* GPUHIST_GZIP_REGION is set: the backend's spans are as short as
	 * the CPU's (tests make many of them); else as long as fit. */
	bool region_set;
	gh_pieces_progress_fn progress;
	void *ctx;
	pthread_mutex_t lock;           /* guards what follows */
	pthread_cond_t walked_one;
	uint64_t claim;                 /* the next span's first byte */
	uint64_t spans;                 /* spans claimed */
	uint64_t walked;                /* spans whose members are known */
	uint64_t entry, out_entry;      /* span `walked`'s first member's
					 * place, and its output's offset */
	uint64_t members;
	atomic_ullong on_backend;       /* batches the backend decoded */
	struct gh_pieces_state st;      /* how the run ends */
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

/* A span of the file, claimed by one thread: the members that begin in
 * it, each read whole (with up to a member's most bytes after it). */
struct span {
	uint64_t index;                 /* its piece number */
	uint64_t at, len;               /* the bytes claimed */
	uint64_t read;                  /* the bytes read from at */
	uint64_t first, bytes;          /* its members: from first (in the
					 * buffer), bytes of them */
	uint64_t base, out;             /* their output's offset, bytes */
	uint64_t members;
};

/* Claims the next span, of at most len bytes; false when none is left or
 * the run is ending. */
static bool claim_span(struct bp *p, uint64_t len, struct span *sp)
{
	bool ok;

	pthread_mutex_lock(&p->lock);
	ok = p->claim < p->end && gh_pieces_going(&p->st);
	if (ok) {
		*sp = (struct span){ .index = p->spans++, .at = p->claim,
				     .len = len < p->end - p->claim ? len
					    : p->end - p->claim };
		p->claim += sp->len;
	}
	pthread_mutex_unlock(&p->lock);
	return ok;
}

/* Reads span sp into buf (room for its length and MEMBER_MAX more),
 * waits until the span before it knows where its members end, and finds
 * sp's members from there, reading their sizes from their headers and
 * trailers; then the next span may go on.  The reads of many threads
 * overlap; only the walks over the headers, microseconds each, follow
 * one another.  False when they are not whole BGZF members, a read
 * failed, or the run is ending. */
static bool walk_span(struct bp *p, const unsigned char *buf, struct span *sp)
{
	uint64_t want = sp->len + MEMBER_MAX, at;
	bool ok;

	if (want > p->end - sp->at)
		want = p->end - sp->at;
	sp->read = want;
	ok = gh_read_at(p->fd, (unsigned char *)buf, (size_t)want, sp->at);
	pthread_mutex_lock(&p->lock);
	while (p->walked < sp->index && gh_pieces_going(&p->st))
		pthread_cond_wait(&p->walked_one, &p->lock);
	ok = ok && p->walked == sp->index;
	at = p->entry - sp->at;         /* after a member begun before */
	sp->base = p->out_entry;
	pthread_mutex_unlock(&p->lock);

	sp->first = at;
	while (ok && at < sp->len) {    /* each member that begins in it */
		uint64_t len = at < want ? gh_bgzf_member_length(buf + at,
								  want - at)
					 : 0;

		if (len < 18 + 8 || len > want - at) {
			ok = false;     /* not a member, or cut by the end */
			break;
		}
		sp->out += le32(buf + at + len - 4);
		sp->members++;
		at += len;
	}
	sp->bytes = at - sp->first;
	pthread_mutex_lock(&p->lock);
	if (ok) {
		p->entry = sp->at + at;
		p->out_entry = sp->base + sp->out;
		p->walked++;
		p->members += sp->members;
	} else {
		gh_pieces_bad(&p->st);  /* the verdict: serial */
	}
	pthread_cond_broadcast(&p->walked_one);
	pthread_mutex_unlock(&p->lock);
	return ok;
}

/* A thread's own: its inflater, read buffer, and the chunk it fills. */
struct bp_thread {
	struct bp *p;
	struct gh_inflater *inf;
	unsigned char *buf;
	struct gh_chunk *c;
	size_t fill;
	const struct span *sp;
	uint64_t span_out;              /* its bytes submitted so far */
};

/* Where the thread's next bytes lie: its span is the piece. */
static struct gh_place next_place(const struct bp_thread *t)
{
	return (struct gh_place){ .major = t->sp->index,
				  .start = t->span_out,
				  .offset = t->sp->base + t->span_out };
}

/* Submits the thread's chunk (fill bytes, or none when bad); false when
 * the backend failed. */
static bool submit_chunk(struct bp_thread *t, bool bad)
{
	if (!t->c)
		return true;
	if (!gh_pieces_submit(&t->p->st, &t->p->sink, &t->c, t->fill,
			      next_place(t), bad))
		return false;
	t->span_out += t->fill;
	return true;
}

/* Decodes the member of len bytes at m into chunks; false when it cannot
 * (the reason in p->bad or p->backend_failed). */
static bool decode_member(struct bp_thread *t, const unsigned char *m,
			  uint64_t len)
{
	struct bp *p = t->p;
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
			t->c = gh_sink_acquire(&p->sink, &why);
			if (!t->c) {
				gh_pieces_backend_failed(&p->st, why);
				return false;
			}
			t->fill = 0;
		}
		unsigned char *next = t->c->data + t->fill;
		size_t room = gh_sink_room(t->c) - t->fill;
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

/* Members [from, to) of span sp in buf, at place `at` of it, decoded on
 * this thread; false when they cannot be (the reason in p->st). */
static bool decode_here(struct bp_thread *t, const unsigned char *buf,
			uint64_t at, uint64_t n)
{
	while (n--) {
		uint64_t len = gh_bgzf_member_length(buf + at,
						     t->sp->read - at);

		if (!decode_member(t, buf + at, len))
			return false;
		at += len;
	}
	return true;
}

/* Hands the backend the members of span sp from place at of m->in: as
 * many as one of its batches takes, decoded, cut and counted there.  The
 * members taken (0: the next one is for the CPU), or -1 when the run
 * cannot go on (the reason in p->st), with *bytes their bytes; where the
 * backend did not decode them to their trailers, they are decoded here
 * instead.  m stays the caller's. */
static int64_t backend_batch(struct bp_thread *t, struct gh_members *m,
			     uint64_t at, uint64_t left, uint64_t *bytes)
{
	struct bp *p = t->p;
	uint64_t from = at;
	const char *why;
	int ret;

	m->at = at;
	m->n = 0;
	m->out = 0;
	while (left-- && m->n < m->most) {
		uint64_t len = gh_bgzf_member_length(m->in + at,
						     t->sp->read - at);
		uint32_t isize = le32(m->in + at + len - 4);

		/* Only BGZF's own header (no name, comment or header CRC,
		 * which zlib would judge) goes to the backend, and only a
		 * member with text (nvCOMP given no room writes anywhere). */
		if (m->in[at + 3] != 0x04 || !isize ||
		    isize > m->member_out_max || m->out + isize > m->out_room)
			break;
		m->len[m->n] = (uint32_t)len;
		m->isize[m->n] = isize;
		m->crc[m->n++] = le32(m->in + at + len - 8);
		m->out += isize;
		at += len;
	}
	*bytes = at - from;
	if (!m->n)
		return 0;
	ret = gh_sink_members_decode(&p->sink, m, &why);
	if (ret < 0) {
		gh_pieces_backend_failed(&p->st, why);
		return -1;
	}
	if (!ret)               /* the CPU decides */
		return decode_here(t, m->in, from, m->n) ? (int64_t)m->n : -1;
	/* After the CPU's bytes of this span, if any. */
	if (!submit_chunk(t, false))
		return -1;
	why = gh_sink_submit_members(&p->sink, m, next_place(t));
	if (why) {
		gh_pieces_backend_failed(&p->st, why);
		return -1;
	}
	t->span_out += m->out;
	atomic_fetch_add(&p->on_backend, 1);
	return m->n;
}

/* Decodes span sp's members (read into buf; m: the backend's batch that
 * holds them, or NULL); false when the run cannot go on. */
static bool decode_span(struct bp_thread *t, const unsigned char *buf,
			struct gh_members *m)
{
	const struct span *sp = t->sp;
	uint64_t at = sp->first, left = sp->members;

	while (left) {
		uint64_t bytes = 0;
		int64_t n = m ? backend_batch(t, m, at, left, &bytes) : 0;

		if (n < 0)
			return false;
		if (!n) {       /* one member the backend does not take */
			uint64_t len = gh_bgzf_member_length(buf + at,
							     sp->read - at);

			if (!decode_here(t, buf, at, 1))
				return false;
			n = 1;
			bytes = len;
		}
		at += bytes;
		left -= (uint64_t)n;
	}
	/* Joined at their edges, a chunk holds one span's bytes: a piece of
	 * the input (the thread's next span is not the next in the input). */
	return !gh_sink_joins(&t->p->sink) || submit_chunk(t, false);
}

static void *decode_spans(void *arg)
{
	struct bp_thread t = { .p = arg };
	struct bp *p = t.p;
	struct span sp;

	t.inf = gh_inflater_new();
	t.buf = malloc(p->span_bytes + MEMBER_MAX);
	if (!t.inf || !t.buf) {
		gh_pieces_bad(&p->st);
		goto out;
	}
	t.sp = &sp;
	for (;;) {
		/* Tokens need every decoded byte here: not on a device. */
		struct gh_members *m = !gh_sink_host_bytes(&p->sink)
				       ? gh_sink_members_acquire(&p->sink)
				       : NULL;
		unsigned char *buf = m ? m->in : t.buf;
		uint64_t len = m && !p->region_set ? m->in_room - MEMBER_MAX
						   : p->span_bytes;
		bool ok = claim_span(p, len, &sp) && walk_span(p, buf, &sp);

		t.span_out = 0;
		ok = ok && decode_span(&t, buf, m);
		if (m)
			gh_sink_members_release(&p->sink, m);
		if (!ok)
			break;
		if (gh_sink_end_piece(&p->sink, sp.index, t.span_out)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			break;
		}
		if (p->progress)
			p->progress(p->ctx, sp.out, sp.at + sp.len);
	}
out:
	submit_chunk(&t, atomic_load(&p->st.bad));
	if (t.inf)
		t.inf->free(t.inf);
	free(t.buf);
	return NULL;
}

enum gh_pieces_result gh_bgzf_pieces(struct gh_pieces_job *job)
{
	struct bp p = { .sink = job->sink,
			.fd = job->fd, .end = job->start + job->size,
			.progress = job->progress, .ctx = job->ctx,
			.claim = job->start, .entry = job->start,
			.span_bytes = gh_gzip_region(job->size, job->threads),
			.region_set = getenv("GPUHIST_GZIP_REGION") != NULL };

	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.walked_one, NULL);
	atomic_init(&p.on_backend, 0);
	gh_pieces_state_init(&p.st);
	/* The calling thread decodes too. */
	gh_pieces_run(job->threads, decode_spans, &p);
	/* The members end where the file does. */
	if (gh_pieces_going(&p.st) && p.entry != p.end)
		gh_pieces_bad(&p.st);
	pthread_cond_destroy(&p.walked_one);
	pthread_mutex_destroy(&p.lock);
	job->decoding = &in_members;
	snprintf(job->summary, sizeof(job->summary),
		 "%llu regions of whole BGZF members (%llu members)",
		 (unsigned long long)p.spans,
		 (unsigned long long)p.members);
	if (atomic_load(&p.on_backend)) {
		size_t used = strlen(job->summary);

		snprintf(job->summary + used, sizeof(job->summary) - used,
			 ", %llu batches decoded on the GPU",
			 (unsigned long long)atomic_load(&p.on_backend));
	}
	return gh_pieces_verdict(&p.st, job);
}
