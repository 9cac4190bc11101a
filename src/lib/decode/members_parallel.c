/* members_parallel.c - a gzip file of many members decoded on several cores
 *
 * Logs rotated and joined (cat a.gz b.gz), gzip -c >> and per-block
 * compressors write files of many gzip members, and a member needs
 * nothing from another: its own header, window, CRC-32 and length.  So
 * the file is cut, before anything is decoded, into segments at member
 * headers: at evenly spaced points, the first bytes after each that can
 * begin a member (1f 8b 08, no reserved flag, a header that parses,
 * then a deflate block type that exists).  Each segment is decoded by one
 * thread with the serial path's decoder (gunzip.c over a span of the
 * file: ISA-L, each block header judged by zlib's rules, every member's
 * CRC-32 and length checked), straight into the backend's chunks.
 *
 * A cut is confirmed only when the segment before it ends exactly there,
 * at a member's end, and the segment after it decodes from there: then
 * the file is exactly those segments' members, as the serial decoder
 * reads them one after another.  A point that only looked like a header
 * (those bytes inside compressed data) fails one of the two, and so does
 * anything else wrong: GH_PIECES_SERIAL, and the serial decoder, from the
 * first byte, gives the verdict, as for the other parallel paths.  Where
 * no cut is found (one member: pigz, gzip -6) it returns
 * GH_PIECES_IN_ORDER without decoding anything, for the caller to try the
 * speculative decoder (gzip_parallel.c) or to decode in order.
 *
 * Each segment is a piece for code points (seams.c joins them in order);
 * ent's sums need each chunk's offset in the output, which a member says
 * only at its end, so with them this returns GH_PIECES_IN_ORDER.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gunzip.h"
#include "gzip_parallel.h"
#include "members_parallel.h"
#include "read_at.h"

/* Segments a thread at most, so that the last round is a small part. */
#define SEGMENTS_PER_THREAD 4
/* How far past a point a member header is looked for. */
#define LOOK_BYTES (256 * 1024)
#define SEGMENTS_MAX (SEGMENTS_PER_THREAD * GH_READERS_MAX + 1)

static const struct gh_decoding by_isal = {
	"gzip", "isa-l, members in parallel" };
static const struct gh_decoding by_zlib = {
	"gzip", "zlib, members in parallel" };

/*
 * Whether the len bytes at p can begin a gzip member whose deflate data
 * starts within them: magic, deflate, no reserved flag, the optional
 * fields inside, and a first block type that exists (RFC 1952, 1951).
 */
static bool member_at(const unsigned char *p, size_t len)
{
	size_t at = 10;

	if (len < 11 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 ||
	    (p[3] & 0xe0))
		return false;
	if (p[3] & 0x04) {              /* FEXTRA: its length, then it */
		if (len < 12)
			return false;
		at += 2 + (size_t)(p[10] | p[11] << 8);
	}
	for (int flag = 0x08; flag <= 0x10; flag <<= 1) {  /* FNAME, FCOMMENT */
		if (!(p[3] & flag))
			continue;
		while (at < len && p[at])
			at++;
		at++;
	}
	if (p[3] & 0x02)                /* FHCRC */
		at += 2;
	return at < len && (p[at] >> 1 & 3) != 3;
}

/*
 * Where segments begin: cuts[0] the span's start, then the first possible
 * member header at or after each of the evenly spaced points, in order,
 * and cuts[n] its end; the number of segments n (1: no cut found, or a
 * read failed).
 */
static int find_cuts(const struct gh_file_span *file, int threads,
		     uint64_t cuts[SEGMENTS_MAX + 1])
{
	uint64_t end = file->start + file->size;
	uint64_t want = (uint64_t)threads * SEGMENTS_PER_THREAD;
	/* A segment is a region of the speculative decoder at least (128 KiB
	 * to 1 MiB; GPUHIST_GZIP_REGION for tests). */
	uint64_t least = gh_gzip_region(file->size, threads);
	unsigned char *buf;
	int n = 0;

	if (want > file->size / least)
		want = file->size / least;
	if (want > SEGMENTS_MAX)
		want = SEGMENTS_MAX;
	cuts[0] = file->start;
	if (want < 2 || !(buf = malloc(LOOK_BYTES)))
		goto out;
	for (uint64_t k = 1; k < want; k++) {
		uint64_t point = file->start + file->size / want * k;
		size_t len = end - point < LOOK_BYTES ? (size_t)(end - point)
						      : LOOK_BYTES;

		if (point <= cuts[n] + least / 2)
			continue;       /* the last cut lay past it */
		if (!gh_read_at(file->fd, buf, len, point)) {
			n = 0;
			break;
		}
		for (size_t i = 0; i + 11 <= len; i++) {
			const unsigned char *q = memchr(buf + i, 0x1f, len - i);

			if (!q)
				break;
			i = (size_t)(q - buf);
			if (member_at(q, len - i)) {
				cuts[++n] = point + i;
				break;
			}
		}
	}
	free(buf);
out:
	cuts[++n] = end;
	return n;
}

int gh_members_threads(const struct gh_file_span *file, int threads)
{
	uint64_t cuts[SEGMENTS_MAX + 1];

	return threads > 1 && find_cuts(file, threads, cuts) > 1 ? threads : 0;
}

struct mp {
	struct gh_backend *b;
	int input;
	const struct gh_joins *joins;
	int fd;
	const uint64_t *cuts;
	int segments;
	gh_pieces_progress_fn progress;
	void *ctx;
	atomic_int next;                /* the next segment to take */
	atomic_uint_least64_t members;
	atomic_bool zlib;               /* the inflater is zlib's */
	atomic_int bad;                 /* invalid, a read, memory: serial */
	atomic_int backend_failed;
	_Atomic(const char *) why;      /* the first backend failure's */
};

static void backend_failed(struct mp *p, const char *why)
{
	const char *none = NULL;

	atomic_compare_exchange_strong(&p->why, &none, why);
	atomic_store(&p->backend_failed, 1);
}

/* Decodes segment s into chunks, each submitted as piece s; false when
 * it cannot (the reason in p->bad or p->backend_failed). */
static bool decode_segment(struct mp *p, int s)
{
	struct gh_backend *b = p->b;
	struct gh_gunzip *g = gh_gunzip_new_span(p->fd, p->cuts[s],
						 p->cuts[s + 1],
						 s + 1 == p->segments);
	uint64_t out = 0;
	bool ok = g != NULL;

	while (ok) {
		struct gh_chunk *c = b->ops->acquire(b);
		const char *why;
		int64_t got;

		if (!c) {
			backend_failed(p, b->error);
			ok = false;
			break;
		}
		got = gh_gunzip_read(g, c->data, c->backend->chunk_bytes, &why);
		if (got <= 0) {
			/* The end, or invalid data: the chunk goes back
			 * unused; at the end, seams.c is told the piece's
			 * length. */
			why = gh_submit(NULL, b, p->input, c, 0,
					gh_place_at(0));
			if (why) {
				backend_failed(p, why);
			} else if (got < 0) {
				atomic_store(&p->bad, 1);
			} else if (p->joins && p->joins->seams &&
				   gh_seams_end_piece(p->joins->seams,
						      (uint64_t)s, out)) {
				backend_failed(p, "out of memory for the edges of chunks");
				why = "";
			}
			ok = got == 0 && !why;
			break;
		}
		why = gh_submit(p->joins, b, p->input, c, (uint64_t)got,
				(struct gh_place){ .major = (uint64_t)s,
						   .start = out });
		out += (uint64_t)got;
		if (why) {
			backend_failed(p, why);
			ok = false;
			break;
		}
		if (p->progress)
			p->progress(p->ctx, (uint64_t)got, 0);
	}
	if (!g) {
		atomic_store(&p->bad, 1);
	} else {
		atomic_fetch_add(&p->members, gh_gunzip_members(g));
		if (!strcmp(gh_gunzip_engine(g), "zlib"))
			atomic_store(&p->zlib, true);
	}
	if (ok && p->progress)
		p->progress(p->ctx, 0, p->cuts[s + 1]);
	gh_gunzip_free(g);
	return ok;
}

static void *decode_segments(void *arg)
{
	struct mp *p = arg;
	int s;

	while (!atomic_load(&p->bad) && !atomic_load(&p->backend_failed) &&
	       (s = atomic_fetch_add(&p->next, 1)) < p->segments)
		if (!decode_segment(p, s))
			break;
	return NULL;
}

enum gh_pieces_result gh_members_pieces(struct gh_pieces_job *job)
{
	const struct gh_file_span file = { job->fd, job->start, job->size };
	uint64_t cuts[SEGMENTS_MAX + 1];
	struct mp p = { .b = job->b, .input = job->input, .joins = job->joins,
			.fd = job->fd, .cuts = cuts,
			.progress = job->progress, .ctx = job->ctx };
	pthread_t tids[GH_READERS_MAX];
	int started = 0, threads = job->threads;

	if (job->joins && job->joins->edges)
		return GH_PIECES_IN_ORDER;      /* offsets unknown: see above */
	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	p.segments = find_cuts(&file, threads, cuts);
	if (p.segments < 2)
		return GH_PIECES_IN_ORDER;
	atomic_init(&p.next, 0);
	atomic_init(&p.members, 0);
	atomic_init(&p.zlib, false);
	atomic_init(&p.bad, 0);
	atomic_init(&p.backend_failed, 0);
	atomic_init(&p.why, NULL);
	if (threads > p.segments)
		threads = p.segments;
	/* The calling thread decodes too. */
	while (started < threads - 1 &&
	       pthread_create(&tids[started], NULL, decode_segments, &p) == 0)
		started++;
	decode_segments(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	job->decoding = atomic_load(&p.zlib) ? &by_zlib : &by_isal;
	snprintf(job->summary, sizeof(job->summary),
		 "%d segments of whole members (%llu members)", p.segments,
		 (unsigned long long)atomic_load(&p.members));
	if (atomic_load(&p.backend_failed)) {
		job->why = atomic_load(&p.why);
		return GH_PIECES_FAILED;
	}
	return atomic_load(&p.bad) ? GH_PIECES_SERIAL : GH_PIECES_DONE;
}
