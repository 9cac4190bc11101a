/* members_parallel.c - a gzip file of many members decoded on several cores
 *
 * Logs rotated and joined (cat a.gz b.gz), gzip -c >> and per-block
 * compressors write files of many gzip members, and a member needs
 * nothing from another: its own header, window, CRC-32 and length.  So
 * the file is cut into segments at member headers: at evenly spaced
 * points, the first bytes at or after each that begin a member (1f 8b 08,
 * no reserved flag, a header that parses, and 32 KiB that decode from
 * there), however far on they lie.  The thread that takes a segment finds
 * the cuts at its two ends itself (a scan with memchr, in parallel with
 * the other threads; a cut two threads need is found twice, the same).
 * Each segment is decoded by one thread with the serial path's decoder
 * (gunzip.c over a span of the file: ISA-L, each block header judged by
 * zlib's rules, every member's CRC-32 and length checked), straight into
 * the backend's chunks.  Points whose cuts fall on the same member header
 * leave empty segments, which cost nothing.
 *
 * A cut is confirmed only when the segment before it ends exactly there,
 * at a member's end, and the segment after it decodes from there: then
 * the file is exactly those segments' members, as the serial decoder
 * reads them one after another.  A point that only looked like a header
 * (those bytes inside compressed data) fails one of the two, and so does
 * anything else wrong: GH_PIECES_SERIAL, and the serial decoder, from the
 * first byte, gives the verdict, as for the other parallel paths.  Whether
 * a file is worth cutting (gh_members_threads) is told by looking for a
 * member header past four points of it, each no further than a thread's
 * share: a file of one member (pigz, gzip -6) or of members too big for
 * the threads goes to the speculative decoder (gzip_parallel.c) or is
 * decoded in order.
 *
 * Each segment is a piece for code points and the tokens views (seams.c
 * and tokens.c join them in order, each told its length at its end);
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
#include "pieces_state.h"
#include "read_at.h"

/* Segments a thread at most, so that the last round is a small part. */
#define SEGMENTS_PER_THREAD 4
/* Bytes read at a time looking for a member header; a header longer than
 * this (a name of 256 KiB) is not taken for one. */
#define LOOK_BYTES (256 * 1024)
/* Output a member must decode to be taken for one. */
#define PROBE_BYTES (32 * 1024)
#define SEGMENTS_MAX (SEGMENTS_PER_THREAD * GH_READERS_MAX)

static const struct gh_decoding by_isal = {
	"gzip", "isa-l, members in parallel" };
static const struct gh_decoding by_zlib = {
	"gzip", "zlib, members in parallel" };

/*
 * Whether the len bytes at p begin a gzip member whose deflate data starts
 * within them: magic, deflate, no reserved flag, the optional fields
 * inside, and a first block type that exists (RFC 1952, 1951).  1: yes;
 * 0: no; -1: the bytes end first (a header may be long: its name and
 * comment have no bound, its extra field 64 KiB).
 */
static int member_at(const unsigned char *p, size_t len)
{
	size_t at = 10;

	if (len < 11)
		return -1;
	if (p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & 0xe0))
		return 0;
	if (p[3] & 0x04) {              /* FEXTRA: its length, then it */
		if (len < 12)
			return -1;
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
	if (at >= len)
		return -1;
	return (p[at] >> 1 & 3) != 3;
}

/* Whether a member that decodes begins at `at`: its first 32 KiB of
 * output come without a fault (or it ends cleanly before). */
static bool decodes_at(int fd, uint64_t at, uint64_t end)
{
	struct gh_gunzip *g = gh_gunzip_new_span(fd, at, end, true);
	unsigned char *out = malloc(PROBE_BYTES);
	const char *why;
	bool ok = g && out && gh_gunzip_read(g, out, PROBE_BYTES, &why) >= 0;

	free(out);
	gh_gunzip_free(g);
	return ok;
}

/*
 * The first member header at or after `from` and before `limit` (one that
 * parses and decodes: decodes_at), or `limit` where there is none; end:
 * where the span ends.  Each place is judged on the LOOK_BYTES from it,
 * whichever scan comes to it, so that scans from two points agree on
 * every place both pass: the cuts never cross.  *failed: memory or a read
 * failed (the answer is then `limit`, and means nothing).
 */
static uint64_t header_from(int fd, uint64_t from, uint64_t limit,
			    uint64_t end, bool *failed)
{
	unsigned char *buf = malloc(LOOK_BYTES), *again = malloc(LOOK_BYTES);
	uint64_t at = from, found = limit;

	*failed = !buf || !again;
	/* limit may lie past the end (a point's reach): nothing is there. */
	while (!*failed && at < limit && at < end) {
		size_t len = end - at < LOOK_BYTES ? (size_t)(end - at)
						   : LOOK_BYTES;
		size_t i = 0;

		if (!gh_read_at(fd, buf, len, at)) {
			*failed = true;
			break;
		}
		for (;;) {
			const unsigned char *q = memchr(buf + i, 0x1f, len - i);
			int is;

			if (!q)
				break;
			i = (size_t)(q - buf);
			if (at + i >= limit)
				break;
			is = member_at(q, len - i);
			if (is < 0 && i > 0) {
				/* Cut off by this read: judged on its own. */
				size_t more = end - (at + i) < LOOK_BYTES
					      ? (size_t)(end - (at + i))
					      : LOOK_BYTES;

				if (!gh_read_at(fd, again, more, at + i)) {
					*failed = true;
					goto out;
				}
				is = member_at(again, more);
			}
			if (is > 0 && decodes_at(fd, at + i, end)) {
				found = at + i;
				goto out;
			}
			i++;
		}
		at += len;
	}
out:
	free(buf);
	free(again);
	return *failed ? limit : found;
}

int gh_members_threads(const struct gh_file_span *file, int threads)
{
	uint64_t end = file->start + file->size;
	/* A member header within a thread's share past each of four points:
	 * members small enough for every thread to have one. */
	uint64_t reach = file->size / (uint64_t)(threads > 0 ? threads : 1);

	bool failed;

	if (threads < 2)
		return 0;
	for (uint64_t j = 1; j < 8; j += 2) {
		uint64_t point = file->start + file->size / 8 * j;

		if (header_from(file->fd, point, point + reach, end, &failed) >=
		    point + reach || failed)
			return 0;
	}
	return threads;
}

struct mp {
	struct gh_sink sink;
	int fd;
	uint64_t start, end;
	int segments;
	/* Where segment k begins, plus one (0: not yet found); segment k is
	 * [cut k, cut k + 1). */
	atomic_uint_least64_t cut[SEGMENTS_MAX + 1];
	atomic_int used;                /* segments with bytes */
	gh_pieces_progress_fn progress;
	void *ctx;
	atomic_int next;                /* the next segment to take */
	atomic_uint_least64_t members;
	atomic_bool zlib;               /* the inflater is zlib's */
	struct gh_pieces_state st;  /* how the run ends */
};

/* Where segment k begins: the first member header at or after its point
 * (the span's start and end for the first and past the last). */
static uint64_t cut_of(struct mp *p, int k)
{
	uint64_t known, point;

	if (k == 0)
		return p->start;
	if (k == p->segments)
		return p->end;
	known = atomic_load(&p->cut[k]);
	if (known)
		return known - 1;
	/* Looked for as far as eight segments on (two threads' shares, where
	 * gh_members_threads() found members within one): a member bigger
	 * than that spoils the cut (the segment before cannot end there), and
	 * the file goes to the speculative decoder rather than be scanned
	 * again and again. */
	uint64_t step = (p->end - p->start) / (uint64_t)p->segments;

	bool failed;

	point = p->start + step * (uint64_t)k;
	known = header_from(p->fd, point,
			    p->end - point > 8 * step ? point + 8 * step : p->end,
			    p->end, &failed);
	if (failed)
		gh_pieces_bad(&p->st);
	atomic_store(&p->cut[k], known + 1);
	return known;
}

/* Decodes segment s into chunks, each submitted as piece s; false when
 * it cannot (the reason in p->bad or p->backend_failed). */
static bool decode_segment(struct mp *p, int s)
{
	uint64_t from = cut_of(p, s), to = cut_of(p, s + 1);
	struct gh_gunzip *g;
	uint64_t out = 0;
	bool ok;

	if (from > to) {                /* crossed: a scan gave up */
		gh_pieces_bad(&p->st);
		return false;
	}
	if (from == to) {               /* two points, one header: empty */
		if (gh_sink_end_piece(&p->sink, (uint64_t)s, 0)) {
			gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
			return false;
		}
		return true;
	}
	atomic_fetch_add(&p->used, 1);
	g = gh_gunzip_new_span(p->fd, from, to, to == p->end);
	ok = g != NULL;

	while (ok) {
		const char *why = NULL;
		struct gh_chunk *c = gh_sink_acquire(&p->sink, &why);
		int64_t got;

		if (!c) {
			gh_pieces_backend_failed(&p->st, why);
			ok = false;
			break;
		}
		got = gh_gunzip_read(g, c->data, gh_sink_room(c), &why);
		if (got <= 0) {
			/* The end, or invalid data: the chunk goes back
			 * unused; at the end, seams.c is told the piece's
			 * length. */
			why = gh_sink_submit(&p->sink, c, 0, gh_place_at(0),
					     true);
			if (why) {
				gh_pieces_backend_failed(&p->st, why);
			} else if (got < 0) {
				gh_pieces_bad(&p->st);
			} else if (gh_sink_end_piece(&p->sink, (uint64_t)s,
						     out)) {
				gh_pieces_backend_failed(&p->st, "out of memory for the edges of chunks");
				why = "";
			}
			ok = got == 0 && !why;
			break;
		}
		why = gh_sink_submit(&p->sink, c, (uint64_t)got,
				     (struct gh_place){ .major = (uint64_t)s,
							.start = out },
				     false);
		out += (uint64_t)got;
		if (why) {
			gh_pieces_backend_failed(&p->st, why);
			ok = false;
			break;
		}
		if (p->progress)
			p->progress(p->ctx, (uint64_t)got, 0);
	}
	if (!g) {
		gh_pieces_bad(&p->st);
	} else {
		atomic_fetch_add(&p->members, gh_gunzip_members(g));
		if (!strcmp(gh_gunzip_engine(g), "zlib"))
			atomic_store(&p->zlib, true);
	}
	if (ok && p->progress)
		p->progress(p->ctx, 0, to);
	gh_gunzip_free(g);
	return ok;
}

static void *decode_segments(void *arg)
{
	struct mp *p = arg;
	int s;

	while (gh_pieces_going(&p->st) &&
	       (s = atomic_fetch_add(&p->next, 1)) < p->segments)
		if (!decode_segment(p, s))
			break;
	return NULL;
}

enum gh_pieces_result gh_members_pieces(struct gh_pieces_job *job)
{
	struct mp *p = calloc(1, sizeof(*p));
	int threads = job->threads;
	/* A segment is a region of the speculative decoder at least (128 KiB
	 * to 1 MiB; GPUHIST_GZIP_REGION for tests). */
	uint64_t least = gh_gzip_region(job->size, threads);
	uint64_t want = (uint64_t)threads * SEGMENTS_PER_THREAD;
	enum gh_pieces_result res;

	if (gh_sink_by_offset(&job->sink)) {
		free(p);
		return GH_PIECES_IN_ORDER;      /* offsets unknown: see above */
	}
	if (!p)
		return GH_PIECES_SERIAL;
	p->sink = job->sink;
	p->fd = job->fd;
	p->start = job->start;
	p->end = job->start + job->size;
	p->progress = job->progress;
	p->ctx = job->ctx;
	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	if (want > job->size / least)
		want = job->size / least;
	if (want > SEGMENTS_MAX)
		want = SEGMENTS_MAX;
	if (want < 2) {
		free(p);
		return GH_PIECES_IN_ORDER;
	}
	p->segments = (int)want;
	for (int k = 0; k <= p->segments; k++)
		atomic_init(&p->cut[k], 0);
	atomic_init(&p->used, 0);
	atomic_init(&p->next, 0);
	atomic_init(&p->members, 0);
	atomic_init(&p->zlib, false);
	gh_pieces_state_init(&p->st);
	if (threads > p->segments)
		threads = p->segments;
	/* The calling thread decodes too. */
	gh_pieces_run(threads, decode_segments, p);
	job->decoding = atomic_load(&p->zlib) ? &by_zlib : &by_isal;
	snprintf(job->summary, sizeof(job->summary),
		 "%d segments of whole members (%llu members)",
		 atomic_load(&p->used),
		 (unsigned long long)atomic_load(&p->members));
	res = gh_pieces_verdict(&p->st, job);
	free(p);
	return res;
}
