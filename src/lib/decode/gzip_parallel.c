/* gzip_parallel.c - one gzip file decoded on several cores at once
 *
 * In the manner of pugz and rapidgzip (Kerbiriou & Chikhi 2019; Knespel &
 * Brunst, HPDC 2023).  The compressed file is cut into regions, one task
 * each, taken in order by `threads` workers.  A region's size follows the
 * data: it is cut when its task is taken, so that it decodes to about
 * OUT_TARGET bytes at the ratio the last published regions had (within
 * [REGION_FLOOR, REGION_BYTES], eight regions a thread at least).  A fixed
 * compressed size would make regions of highly repetitive logs (9:1 and
 * more) overflow a task's symbols, and a task that overflows before its
 * window is known holds up every task after it (bench/NOTES.md):
 *
 *  1. Look.  Task 0 starts at the first member's header.  Any other task
 *     looks in its region for a place a decoder could start: a gzip member
 *     header, or a dynamic or stored block header that is well-formed
 *     (deflate_marked.c's filter), and decodes from there to the first
 *     such boundary at or past its region's end (the decoder stops at no
 *     other kind, so that the next task's guess can match it).  The
 *     32 KiB before its start are unknown, so it decodes into 16-bit
 *     symbols whose values from 256 up name a byte of that window.  A
 *     start whose decoding fails was false: it looks on.
 *  2. Confirm.  Each task waits for the one before it to publish where it
 *     stopped and the 32 KiB it ended with.  The guess is kept only if it
 *     started exactly there; otherwise (a false start that decoded, a
 *     block kind the filter skips) the task decodes again from there with
 *     the window known.  So a count never depends on a guess.
 *  3. Publish, then resolve.  The task resolves its last 32 KiB and
 *     publishes them with its end (the chain between tasks is only this),
 *     then resolves all its symbols into the backend's chunks, computing
 *     CRC-32s on the way.  The CRCs are joined in task order
 *     (crc32_combine) and checked against each member's trailer.
 *
 * Memory is threads times (a region and its decoded symbols), whatever the
 * file's size.  A task's symbol buffer starts small and doubles up to
 * OUT_SYMBOLS; a task whose output fills even that waits for its window
 * and flushes.  Anything invalid, in the confirmed chain or in a member's
 * trailer, returns GH_PIECES_SERIAL: the caller throws the counts away and
 * the serial decoder gives the verdict and the message, so both paths
 * agree by construction.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "crc32.h"
#include "deflate_marked.h"
#include "gzip_parallel.h"

/* Compressed bytes a task starts from: eight regions a thread, within
 * [REGION_MIN, REGION_BYTES] (GPUHIST_GZIP_REGION sets another, for tests).
 * Decoded symbols a task holds: text compresses up to about 10:1, so most
 * tasks never flush before their end. */
#define REGION_BYTES ((uint64_t)1 << 20)
#define REGION_MIN ((uint64_t)128 << 10)
/* Decoded bytes a region is cut for, and the least compressed bytes one
 * is given (GPUHIST_GZIP_REGION_OUT sets another target, for the
 * benchmark; GPUHIST_GZIP_REGION fixes the compressed size instead).  The
 * ratio assumed before any region has published is FIRST_RATIO. */
#define OUT_TARGET ((uint64_t)4 << 20)
#define REGION_FLOOR ((uint64_t)64 << 10)
#define FIRST_RATIO 8.0
#define OUT_SYMBOLS ((uint64_t)8 << 20)
#define OUT_SYMBOLS_FIRST ((uint64_t)512 << 10)     /* doubled as needed */
/* Compressed bytes read at once beyond what a task has. */
#define READ_MORE ((uint64_t)256 << 10)
/* Input a decoder reading on from a confirmed start holds at most before
 * what it took is dropped. */
#define DROP_AFTER ((uint64_t)4 << 20)
/* Start candidates a task tries before it waits to decode for sure. */
#define ATTEMPTS_MAX 16

/* What -v says of a parallel decoding. */
struct gh_gzip_stats {
	atomic_uint_least64_t tasks;    /* regions of the file */
	atomic_uint_least64_t guessed;  /* decoded from a start guessed right */
	atomic_uint_least64_t redone;   /* decoded again, from the true start */
};

/* A member's output within one task: its CRC, joined in order. */
struct segment {
	uint32_t crc;
	uint64_t len;
	bool ends;                      /* the member ends with it: check */
	uint32_t want_crc, want_size;
};

/* One task: its region, and what it publishes. */
struct task {
	uint64_t index;
	uint64_t from, to;              /* its region: compressed bytes */
	bool published, done;
	/* published: where it stopped and the window there */
	bool end_of_stream;
	uint64_t end_bit;
	enum gh_dm_at end_at;
	uint64_t member_out;            /* member bytes before end_bit, capped */
	uint64_t out_end;               /* the input's bytes up to end_bit */
	unsigned char window[GH_WINDOW];
	/* done: its segments, for the CRC check */
	struct segment *segs;
	int n_segs, cap_segs;
};

static const struct gh_decoding in_regions = {
	"gzip", "gpuhist's parallel decoder" };

struct par {
	struct gh_gzip_stats *stats;
	uint64_t region;                /* compressed bytes of the first tasks,
					 * and the most a task gets */
	bool fixed;                     /* every region that size (tests) */
	uint64_t out_target;            /* decoded bytes a region is cut for */
	double ratio;                   /* decoded bytes a compressed byte, of
					 * the regions published last */
	uint64_t next_from;             /* where the next task's region starts */
	struct gh_sink sink;            /* code points: each task a piece */
	int fd;
	uint64_t start, size;
	gh_pieces_progress_fn progress;
	void *ctx;
	uint64_t n_tasks;               /* UINT64_MAX until the last is taken */
	int n_slots;
	struct task *slots;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint64_t next_task;             /* the next task to take */
	uint64_t stitched;              /* tasks whose CRCs are joined */
	bool failed;                    /* invalid data, or a read failed */
	bool backend_failed;
	const char *why;                /* the backend's first failure */
	/* the member being joined across tasks */
	uint32_t crc;
	uint64_t len;
	bool stream_ended;              /* a task found the clean end */
};

/* What a worker's time goes to, for -v (with job->timing): each stage's
 * thread CPU time and wall time, summed over the workers. */
enum stage { LOOK, WAIT_PREVIOUS, DECODE, RESOLVE, CHUNKS, READ,
	     WAIT_SLOT, OTHER, STAGES };
static const char *const stage_names[STAGES] = {
	"look and decode from a guess", "wait for the previous region",
	"decode from a known start", "resolve and CRC",
	"chunks (acquire, submit)", "read", "wait for a slot", "other" };

/* What one worker holds. */
struct worker {
	struct par *p;
	bool timing;                    /* clocks read at each stage's edge */
	enum stage stage;               /* the stage it is in */
	uint64_t cpu_at, wall_at;       /* when that stage began, ns */
	uint64_t cpu_ns[STAGES], wall_ns[STAGES];
	const char *why;                /* why the backend failed it */
	struct gh_dm dm;
	struct gh_dm_input in;
	unsigned char *buf;             /* compressed bytes of its task */
	uint64_t buf_cap;
	bool reading_on;                /* decoding from a confirmed start: it
					 * only reads forward from here */
	uint16_t *out;
	uint64_t out_cap;               /* symbols out[] holds (plus slack) */
	struct gh_chunk *chunk;         /* being filled, or NULL */
	uint64_t chunk_fill;
	uint64_t task;                  /* the task it decodes */
	uint64_t task_out;              /* its bytes submitted so far */
	uint64_t task_base;             /* the input's bytes before the task */
	uint64_t bytes;                 /* decoded bytes not yet reported */
	unsigned char kept[GH_WINDOW];  /* the window kept at a flush */
	unsigned char map[GH_DM_MAP_BYTES];     /* symbol -> byte (resolve) */
};

/* ---- time ---- */

static uint64_t ns_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Moves worker w to stage `to`, charging the one it leaves; returns that
 * one, for a stage nested in another (a read inside a decode). */
static enum stage stage_to(struct worker *w, enum stage to)
{
	enum stage from = w->stage;

	if (w->timing) {
		uint64_t cpu = ns_of(CLOCK_THREAD_CPUTIME_ID);
		uint64_t wall = ns_of(CLOCK_MONOTONIC);

		w->cpu_ns[from] += cpu - w->cpu_at;
		w->wall_ns[from] += wall - w->wall_at;
		w->cpu_at = cpu;
		w->wall_at = wall;
	}
	w->stage = to;
	return from;
}

/* ---- input ---- */

/* Reads more of the file after what the buffer holds. */
static int read_more(void *ctx, struct gh_dm_input *in)
{
	struct worker *w = ctx;
	struct par *p = w->p;
	uint64_t at = in->base + in->len, want = READ_MORE;

	/* A decoder asks for more once it has taken all it holds; one that
	 * decodes on from a confirmed start never looks back, so what it took
	 * goes (it would otherwise keep every byte of a task that runs far
	 * past its region: a stream no region can start in). */
	if (w->reading_on && in->len >= DROP_AFTER) {
		in->base += in->len;
		in->len = 0;
	}
	if (at + want > p->size)
		want = p->size - at;
	if (in->len + want > w->buf_cap) {
		uint64_t cap = (in->len + want) * 2;
		unsigned char *nb = realloc(w->buf, cap);

		if (!nb)
			return -1;
		w->buf = nb;
		w->buf_cap = cap;
		in->data = nb;
	}
	uint64_t got = 0;
	enum stage was = stage_to(w, READ);

	while (got < want) {
		ssize_t n = pread(p->fd, w->buf + in->len + got, want - got,
				  (off_t)(p->start + at + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			stage_to(w, was);
			return -1;      /* an error, or the file shrank */
		}
		got += (uint64_t)n;
	}
	stage_to(w, was);
	in->len += got;
	if (in->base + in->len >= p->size)
		in->at_eof = true;
	return 0;
}

/* Points the input at the file from byte `from` on, holding nothing yet. */
static void input_at(struct worker *w, uint64_t from)
{
	w->in.data = w->buf;
	w->in.len = 0;
	w->in.base = from;
	w->in.at_eof = from >= w->p->size;
	w->in.more = read_more;
	w->in.ctx = w;
	w->reading_on = false;
}

/* ---- output ---- */

/* Hands the chunk being filled to the backend; -1 if the backend failed. */
static int submit_chunk(struct worker *w)
{
	struct par *p = w->p;
	struct gh_chunk *c = w->chunk;

	if (!c)
		return 0;
	w->chunk = NULL;
	enum stage was = stage_to(w, CHUNKS);

	w->why = gh_sink_submit(&p->sink, c, w->chunk_fill,
				(struct gh_place){ .major = w->task,
						   .start = w->task_out,
						   .offset = w->task_base +
							     w->task_out },
				false);
	stage_to(w, was);
	if (w->why)
		return -1;
	w->task_out += w->chunk_fill;
	w->bytes += w->chunk_fill;
	return 0;
}

/* Whether a symbol names one of the first `below` window bytes: bytes from
 * before the member began, which zlib calls too far back. */
static bool refers_below(const uint16_t *sym, uint64_t n, unsigned below)
{
	unsigned bad = 0;

	for (uint64_t i = 0; i < n; i++)
		bad |= (unsigned)(sym[i] - 256) < below;
	return bad;
}

static int add_segment(struct task *t, uint32_t crc, uint64_t len, bool ends,
		       uint32_t want_crc, uint32_t want_size)
{
	if (t->n_segs == t->cap_segs) {
		int cap = t->cap_segs ? 2 * t->cap_segs : 8;
		struct segment *s = realloc(t->segs, (size_t)cap * sizeof(*s));

		if (!s)
			return -1;
		t->segs = s;
		t->cap_segs = cap;
	}
	t->segs[t->n_segs++] = (struct segment){ crc, len, ends, want_crc,
						 want_size };
	return 0;
}

/*
 * Resolves the decoder's output out[GH_WINDOW..pos) into the backend's
 * chunks, with CRC-32s per member piece into t's segments.  Returns 0, 1
 * for invalid data (a reference too far back), -1 if the backend failed.
 */
static int flush_output(struct worker *w, struct task *t, unsigned bad_below)
{
	struct par *p = w->p;
	struct gh_dm *dm = &w->dm;
	uint64_t at = GH_WINDOW;
	uint32_t crc = 0;

	for (int e = 0; e <= dm->n_ends; e++) {
		uint64_t to = e < dm->n_ends ? dm->ends[e].out_end : dm->pos;
		uint64_t len = to - at;

		while (at < to) {
			if (!w->chunk) {
				enum stage was = stage_to(w, CHUNKS);

				w->chunk = gh_sink_acquire(&p->sink, &w->why);
				stage_to(w, was);
				if (!w->chunk)
					return -1;
				w->chunk_fill = 0;
			}
			uint64_t room = gh_sink_room(w->chunk) -
					w->chunk_fill;
			uint64_t n = to - at < room ? to - at : room;
			unsigned char *dst = w->chunk->data + w->chunk_fill;

			if (bad_below && refers_below(dm->out + at, n, bad_below))
				return 1;
			gh_dm_resolve(dm->out + at, n, w->map, dst);
			crc = gh_crc32(crc, dst, n);
			w->chunk_fill += n;
			at += n;
			if (w->chunk_fill == gh_sink_room(w->chunk) &&
			    submit_chunk(w))
				return -1;
		}
		if (e < dm->n_ends ? add_segment(t, crc, len, true,
						 dm->ends[e].want_crc,
						 dm->ends[e].want_size)
				   : len && add_segment(t, crc, len, false, 0, 0))
			return 1;
		crc = 0;
		/* after a member's start nothing refers to the old window */
		if (e < dm->n_ends)
			bad_below = 0;
	}
	return 0;
}

/* ---- the chain between tasks ---- */

static struct task *slot_of(struct par *p, uint64_t i)
{
	return &p->slots[i % (uint64_t)p->n_slots];
}

/* Waits until task i - 1 has published (or the run failed): the caller
 * holds no lock; returns it, or NULL when the run failed. */
static struct task *wait_previous(struct par *p, uint64_t i)
{
	struct task *prev = slot_of(p, i - 1);

	pthread_mutex_lock(&p->lock);
	while (!p->failed && !p->backend_failed &&
	       !(prev->index == i - 1 && prev->published))
		pthread_cond_wait(&p->changed, &p->lock);
	bool ok = !p->failed && !p->backend_failed;

	pthread_mutex_unlock(&p->lock);
	return ok ? prev : NULL;
}

/* Stops the run: the backend failed (backend_why, its reason), or the
 * data is invalid or a read failed (NULL). */
static void fail(struct par *p, const char *backend_why)
{
	pthread_mutex_lock(&p->lock);
	if (backend_why && !p->backend_failed)
		p->why = backend_why;
	if (backend_why)
		p->backend_failed = true;
	else
		p->failed = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* Joins the segments of finished tasks, in order, into members and
 * checks each member's CRC and length.  Called with the lock held. */
static void stitch(struct par *p)
{
	for (;;) {
		struct task *t = slot_of(p, p->stitched);

		if (p->stitched >= p->n_tasks || t->index != p->stitched ||
		    !t->done)
			return;
		for (int s = 0; s < t->n_segs; s++) {
			struct segment *g = &t->segs[s];

			p->crc = (uint32_t)crc32_combine(p->crc, g->crc,
							 (z_off_t)g->len);
			p->len += g->len;
			if (!g->ends)
				continue;
			if (p->crc != g->want_crc ||
			    (uint32_t)p->len != g->want_size)
				p->failed = true;
			p->crc = 0;
			p->len = 0;
		}
		if (t->end_of_stream)
			p->stream_ended = true;
		p->stitched++;
		if (p->progress)
			p->progress(p->ctx, 0, t->to);
		pthread_cond_broadcast(&p->changed);
	}
}

/* Resolves the last GH_WINDOW symbols into dst: those still in the
 * starting window as they are, the decoded ones checked. */
static int resolve_tail(struct worker *w, unsigned bad_below,
			unsigned char *dst)
{
	const struct gh_dm *dm = &w->dm;
	uint64_t from = dm->pos - GH_WINDOW;
	uint64_t in_window = from < GH_WINDOW ? GH_WINDOW - from : 0;

	if (bad_below && refers_below(dm->out + from + in_window,
				      GH_WINDOW - in_window, bad_below))
		return -1;
	gh_dm_resolve(dm->out + from, GH_WINDOW, w->map, dst);
	return 0;
}

/* Publishes where task t stopped: the window is the last GH_WINDOW
 * symbols, resolved with win. */
static int publish(struct worker *w, struct task *t, enum gh_dm_status st,
		   unsigned bad_below, uint64_t member_out_before,
		   uint64_t start_bit)
{
	struct par *p = w->p;
	struct gh_dm *dm = &w->dm;

	if (resolve_tail(w, bad_below, t->window))
		return -1;
	uint64_t total = gh_dm_total(dm);
	uint64_t mo = dm->member_at >= 0 ? total - (uint64_t)dm->member_at
					 : member_out_before + total;

	uint64_t in_bytes = (gh_dm_bit(dm) - start_bit) / 8;

	pthread_mutex_lock(&p->lock);
	/* The ratio the next regions are cut for: this region's, averaged
	 * with those before it, the nearest weighing most. */
	if (in_bytes >= 4096 && total >= GH_WINDOW) {
		double r = (double)total / (double)in_bytes;

		p->ratio = p->ratio > 0 ? (p->ratio + r) / 2 : r;
	}
	t->end_of_stream = st == GH_DM_END;
	t->end_bit = gh_dm_bit(dm);
	t->end_at = gh_dm_where(dm);
	t->member_out = mo < GH_WINDOW ? mo : GH_WINDOW;
	t->out_end = w->task_base + total;
	t->published = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* Publishes an empty task: it ends where the previous one did. */
static void pass_through(struct par *p, struct task *t,
			 const struct task *prev)
{
	pthread_mutex_lock(&p->lock);
	t->end_of_stream = prev->end_of_stream;
	t->end_bit = prev->end_bit;
	t->end_at = prev->end_at;
	t->member_out = prev->member_out;
	t->out_end = prev->out_end;
	memcpy(t->window, prev->window, GH_WINDOW);
	t->published = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* ---- one task ---- */

static void fill_markers(uint16_t *out)
{
	for (unsigned k = 0; k < GH_WINDOW; k++)
		out[k] = (uint16_t)(256 + k);
}

/* Doubles the output buffer of a decoder that filled it, up to
 * OUT_SYMBOLS; false when it is that big already (or memory is short). */
static bool grow_output(struct worker *w)
{
	uint64_t cap = 2 * w->out_cap;
	uint16_t *out;

	if (cap > OUT_SYMBOLS)
		return false;
	out = realloc(w->out, (cap + GH_DM_SLACK) * sizeof(*out));
	if (!out)
		return false;
	w->out = out;
	w->out_cap = cap;
	w->dm.out = out;
	w->dm.cap = cap;
	return true;
}

/* Decodes on while the output fills a buffer that can still grow. */
static enum gh_dm_status decode_on(struct worker *w)
{
	enum gh_dm_status st;

	while ((st = gh_dm_run(&w->dm)) == GH_DM_FULL && grow_output(w))
		;
	return st;
}

/*
 * Decodes from a start not confirmed yet.  Returns the status it reached
 * (GH_DM_STOP or GH_DM_END, or GH_DM_FULL with output waiting for the
 * window), with the start in *cand, *cand_at; GH_DM_ERROR when no start
 * decoded.
 */
static enum gh_dm_status guess(struct worker *w, uint64_t from, uint64_t to,
			       uint64_t *cand, enum gh_dm_at *cand_at)
{
	for (int tries = 0; tries < ATTEMPTS_MAX && from < to; tries++) {
		if (gh_dm_find_start(&w->in, from, to, cand, cand_at) != 1)
			break;
		fill_markers(w->out);
		if (gh_dm_start(&w->dm, &w->in, *cand, *cand_at, w->out,
				w->out_cap, 0, to))
			break;
		enum gh_dm_status st = decode_on(w);

		if (st != GH_DM_ERROR)
			return st;
		from = *cand + 1;
	}
	return GH_DM_ERROR;
}

/* Runs task i; 0, or -1 after marking the run failed. */
static int run_task(struct worker *w, uint64_t i)
{
	struct par *p = w->p;
	struct task *t = slot_of(p, i);
	uint64_t region = t->from;
	uint64_t stop = t->to * 8;
	uint64_t cand = 0;
	enum gh_dm_at cand_at = GH_DM_AT_MEMBER;
	enum gh_dm_status st = GH_DM_ERROR;
	static const unsigned char no_window[GH_WINDOW];
	const unsigned char *win = no_window;
	uint64_t member_out = 0;        /* member bytes before the start */
	unsigned bad_below;
	int ret;

	input_at(w, region);
	w->task = i;
	w->task_out = 0;
	w->task_base = 0;
	if (i > 0) {
		/* Guess only while the previous region has not ended: once it
		 * has, its end and window are known (always, with one thread). */
		pthread_mutex_lock(&p->lock);
		struct task *before = slot_of(p, i - 1);
		bool known = before->index == i - 1 && before->published;

		pthread_mutex_unlock(&p->lock);
		stage_to(w, LOOK);
		if (!known)
			st = guess(w, region * 8, stop, &cand, &cand_at);

		/* The chain: where the previous task stopped. */
		stage_to(w, WAIT_PREVIOUS);
		struct task *prev = wait_previous(p, i);

		stage_to(w, OTHER);

		if (!prev)
			return -1;
		w->task_base = prev->out_end;
		if (prev->end_of_stream || prev->end_bit >= stop) {
			pass_through(p, t, prev);
			goto done;
		}
		win = prev->window;
		member_out = prev->member_out;
		if (st != GH_DM_ERROR &&
		    gh_dm_same_start(&w->in, prev->end_bit, prev->end_at,
				     cand, cand_at)) {
			atomic_fetch_add(&p->stats->guessed, 1);
			goto confirmed;
		}
		if (!known)
			atomic_fetch_add(&p->stats->redone, 1);
		cand = prev->end_bit;
		cand_at = prev->end_at;
	}
	/* Decode for sure, from where the previous task stopped. */
	for (unsigned k = 0; k < GH_WINDOW; k++)
		w->out[k] = win[k];
	if (gh_dm_start(&w->dm, &w->in, cand, cand_at, w->out, w->out_cap,
			GH_WINDOW - member_out, stop))
		goto invalid;
	w->reading_on = true;
	stage_to(w, DECODE);
	st = decode_on(w);
confirmed:
	w->reading_on = true;
	bad_below = (unsigned)(GH_WINDOW - member_out);
	memcpy(w->map + 256, win, GH_WINDOW);
	while (st == GH_DM_FULL) {
		/* Keep the window resolved: bytes from here on. */
		stage_to(w, RESOLVE);
		if (resolve_tail(w, bad_below, w->kept))
			goto invalid;
		ret = flush_output(w, t, bad_below);
		if (ret)
			goto flush_failed;
		gh_dm_flushed(&w->dm);
		for (unsigned k = 0; k < GH_WINDOW; k++)
			w->dm.out[k] = w->kept[k];
		bad_below = 0;
		stage_to(w, DECODE);
		st = decode_on(w);
	}
	stage_to(w, RESOLVE);
	if (st == GH_DM_ERROR)
		goto invalid;
	if (publish(w, t, st, bad_below, member_out, cand))
		goto invalid;
	ret = flush_output(w, t, bad_below);
	if (ret)
		goto flush_failed;
done:
	/* A chunk never holds two tasks' bytes: for seams.c, a task is one
	 * piece of the input; for edges.c, a chunk has one offset. */
	if (submit_chunk(w)) {
		fail(p, w->why);
		return -1;
	}
	if (gh_sink_end_piece(&p->sink, i, w->task_out)) {
		fail(p, "out of memory for the edges of chunks");
		return -1;
	}
	stage_to(w, OTHER);
	pthread_mutex_lock(&p->lock);
	t->done = true;
	stitch(p);
	pthread_mutex_unlock(&p->lock);
	if (p->progress && w->bytes) {
		p->progress(p->ctx, w->bytes, 0);
		w->bytes = 0;
	}
	return 0;
flush_failed:
	if (ret > 0)
		goto invalid;
	fail(p, w->why);
	return -1;
invalid:
	fail(p, NULL);
	return -1;
}

int gh_gzip_parallel_threads(const char *engine)
{
	return engine && !strcmp(engine, "zlib") ? 2 : 4;
}

/* The decoded bytes a region is cut for: OUT_TARGET, or
 * GPUHIST_GZIP_REGION_OUT's. */
static uint64_t region_out_target(void)
{
	const char *env = getenv("GPUHIST_GZIP_REGION_OUT");
	char *end;
	unsigned long long v = env ? strtoull(env, &end, 10) : 0;

	return v >= 4096 && !*end ? v : OUT_TARGET;
}

uint64_t gh_gzip_region(uint64_t size, int threads)
{
	const char *env = getenv("GPUHIST_GZIP_REGION");
	char *end;
	unsigned long long v = env ? strtoull(env, &end, 10) : 0;

	if (v >= 64 && !*end)
		return v;
	/* Eight regions a thread at least, so that the last round of
	 * regions is a small part of the time. */
	uint64_t r = size / (8 * (uint64_t)(threads > 0 ? threads : 1));

	return r < REGION_MIN ? REGION_MIN : r > REGION_BYTES ? REGION_BYTES : r;
}

/* The compressed bytes of the region about to be taken: p->region when
 * fixed, else what decodes to out_target at the ratio seen last. */
static uint64_t next_region(const struct par *p)
{
	if (p->fixed)
		return p->region;
	double ratio = p->ratio > 0 ? p->ratio : FIRST_RATIO;
	double want = (double)p->out_target / ratio;
	uint64_t r = want > (double)p->region ? p->region : (uint64_t)want;

	return r < REGION_FLOOR ? REGION_FLOOR : r;
}

/* Takes the next task, waiting while its slot is still in use; the
 * task's number, or UINT64_MAX when there is none or the run failed.
 * Its region is cut here, from where the one before it ends. */
static uint64_t take_task(struct par *p)
{
	uint64_t i;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		i = p->next_task;
		if (p->failed || p->backend_failed || i >= p->n_tasks ||
		    p->next_from >= p->size) {
			i = UINT64_MAX;
			break;
		}
		/* Slot i's last task and the one after it (which read its
		 * window) are joined. */
		if (i + 2 <= p->stitched + (uint64_t)p->n_slots)
			break;
		pthread_cond_wait(&p->changed, &p->lock);
	}
	if (i != UINT64_MAX) {
		struct task *t = slot_of(p, i);

		p->next_task++;
		t->index = i;
		t->from = p->next_from;
		t->to = t->from + next_region(p);
		/* no region of a few bytes left at the end */
		if (t->to >= p->size ||
		    (!p->fixed && p->size - t->to < REGION_FLOOR / 4))
			t->to = p->size;
		p->next_from = t->to;
		if (t->to == p->size)
			p->n_tasks = i + 1;
		atomic_fetch_add(&p->stats->tasks, 1);
		t->published = false;
		t->done = false;
		t->n_segs = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return i;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t i;

	if (w->timing) {
		w->cpu_at = ns_of(CLOCK_THREAD_CPUTIME_ID);
		w->wall_at = ns_of(CLOCK_MONOTONIC);
	}
	for (;;) {
		stage_to(w, WAIT_SLOT);
		i = take_task(w->p);
		stage_to(w, OTHER);
		if (i == UINT64_MAX || run_task(w, i))
			break;
	}
	stage_to(w, OTHER);             /* charges the stage it ended in */
	/* A chunk still held after a failure goes back unused. */
	if (w->chunk) {
		gh_sink_give_back(&w->p->sink, w->chunk);
		w->chunk = NULL;
	}
	return NULL;
}

/* Adds to job's summary where the workers' time went: per stage, thread
 * CPU time and wall time in ms, summed over the workers. */
static void describe_time(struct gh_pieces_job *job,
			  const struct worker *workers, int threads)
{
	size_t used = strlen(job->summary);

	snprintf(job->summary + used, sizeof(job->summary) - used,
		 "; ms of CPU/wall, all threads:");
	for (int s = 0; s < STAGES; s++) {
		uint64_t cpu = 0, wall = 0;

		for (int k = 0; k < threads; k++) {
			cpu += workers[k].cpu_ns[s];
			wall += workers[k].wall_ns[s];
		}
		used = strlen(job->summary);
		snprintf(job->summary + used, sizeof(job->summary) - used,
			 "%s %s %.0f/%.0f", s ? "," : "", stage_names[s],
			 cpu / 1e6, wall / 1e6);
	}
}

enum gh_pieces_result gh_gzip_pieces(struct gh_pieces_job *job)
{
	struct gh_gzip_stats stats = { 0, 0, 0 };
	int threads = job->threads;
	struct par p = { .sink = job->sink,
			 .fd = job->fd, .start = job->start, .size = job->size,
			 .progress = job->progress, .ctx = job->ctx,
			 .stats = &stats,
			 .region = gh_gzip_region(job->size, threads),
			 .fixed = getenv("GPUHIST_GZIP_REGION") != NULL,
			 .out_target = region_out_target(),
			 .n_tasks = UINT64_MAX };
	struct worker *workers;
	pthread_t *tids;
	int started = 0;
	enum gh_pieces_result res = GH_PIECES_SERIAL;

	/* Regions start at p.region and shrink with the ratio: at least
	 * this many. */
	if ((uint64_t)threads > (p.size + p.region - 1) / p.region)
		threads = (int)((p.size + p.region - 1) / p.region);
	p.n_slots = 2 * threads + 2;
	p.slots = calloc((size_t)p.n_slots, sizeof(*p.slots));
	workers = calloc((size_t)threads, sizeof(*workers));
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!p.slots || !workers || !tids)
		goto out;
	for (int k = 0; k < p.n_slots; k++)
		p.slots[k].index = UINT64_MAX;
	for (int k = 0; k < threads; k++) {
		workers[k].p = &p;
		workers[k].timing = job->timing;
		workers[k].stage = OTHER;
		for (unsigned v = 0; v < 256; v++)
			workers[k].map[v] = (unsigned char)v;
		workers[k].out_cap = OUT_SYMBOLS_FIRST;
		workers[k].out = malloc((OUT_SYMBOLS_FIRST + GH_DM_SLACK) *
					sizeof(uint16_t));
		if (!workers[k].out)
			goto out;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	if (threads == 1) {             /* no thread to start: decode here */
		work(&workers[0]);
	} else {
		while (started < threads &&
		       pthread_create(&tids[started], NULL, work,
				      &workers[started]) == 0)
			started++;
		if (!started)
			p.failed = true;
	}
	for (int k = 0; k < started; k++)
		pthread_join(tids[k], NULL);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
	if (p.backend_failed) {
		job->why = p.why;
		res = GH_PIECES_FAILED;
	} else if (!p.failed && p.stitched == p.n_tasks && p.stream_ended) {
		res = GH_PIECES_DONE;
	}
	job->decoding = &in_regions;
	snprintf(job->summary, sizeof(job->summary),
		 "%llu regions, %llu started at a guessed block, %llu decoded again",
		 (unsigned long long)stats.tasks,
		 (unsigned long long)atomic_load(&stats.guessed),
		 (unsigned long long)atomic_load(&stats.redone));
	if (job->timing && workers && res != GH_PIECES_SERIAL)
		describe_time(job, workers, threads);
out:
	for (int k = 0; workers && k < threads; k++) {
		free(workers[k].out);
		free(workers[k].buf);
		gh_dm_end(&workers[k].dm);
	}
	for (int k = 0; p.slots && k < p.n_slots; k++)
		free(p.slots[k].segs);
	free(p.slots);
	free(workers);
	free(tids);
	return res;
}
