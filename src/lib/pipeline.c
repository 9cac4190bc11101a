/* pipeline.c - inputs through the chunks into the backend, several at once
 *
 * Inputs.  Up to GH_INPUTS_MAX input workers (no more than --threads or
 * operands) each take the next operand and count it; the calling thread
 * reports the results in operand order as they complete, like wc, and
 * draws the progress meter.  A worker's messages are kept with its input
 * and printed in that order too.  Workers run at most a window of operands
 * ahead of the report, so memory stays flat however many operands there
 * are.  Operands that are streams (standard input, FIFOs, devices) are
 * read one at a time in operand order, since two of them may be one.
 *
 * Readers.  A plain regular file is read by several threads at once (pread
 * at chunk offsets handed out in order), which is what a page-cached file
 * needs to go faster than one memcpy stream; the order of chunks does not
 * matter to a histogram.  Anything else (pipes, gzip, devices) is read in
 * order by its worker.  Either way readers write straight into the
 * backend's chunks.
 *
 * A file that changes size while it is read is counted up to where its end
 * was seen, a prefix of it, as cat or wc would.  Several readers could see
 * different ends (one finds the end, another then reads bytes appended
 * after it), which would count bytes past a gap; they note the least end
 * seen, and when more than that was read the input fails instead.
 *
 * Byte ranges.  An input may also be one byte range of a plain file (MPI
 * ranks share a large file that way); it is read like a whole file, but
 * stops at the range's end, and an end of file inside the range (the file
 * shrank since its size was taken) fails the input.
 *
 * Nothing is printed: what is said of an input goes into its notes, which
 * reach the caller with its result.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "clock.h"
#include "notes.h"
#include "pipeline.h"
#include "source.h"
#include "join/submit.h"

/* Room for what is said of one input: a few lines, each of which may
 * carry a name of thousands of characters. */
#define GH_JOB_NOTES (6 * GH_NOTE_LINE)

/* Whether an input is one byte range of a file. */
static bool ranged(const struct gpuhist_input *input)
{
	return input->type == GPUHIST_INPUT_PATH && input->length > 0;
}

enum job_state { JOB_RUNNING, JOB_DONE, JOB_FAILED };

/* One input being counted, where the reporter finds its result. */
struct job {
	int index;                          /* input number, -1 when unused */
	enum job_state state;
	const struct gpuhist_input *input;
	const char *name;
	atomic_uint_least64_t consumed;     /* how far it is read, for the meter */
	atomic_uint_least64_t counted;      /* its bytes counted, for the meter */
	atomic_uint_least64_t size;         /* its size when known, else 0 */
	uint64_t totals[256];
	struct gh_views views;              /* what it is counted by besides
					     * its totals (join/view.h), each
					     * view's state kept until it is
					     * reported */
	struct gh_lines *lines;             /* the lines it is counted by
					     * (match.h), or NULL: all */
	uint64_t lines_seen, lines_kept;    /* -v: what the filters did */
	struct gh_notes notes;              /* what is said of it, in messages */
	char messages[GH_JOB_NOTES];
	bool said_decoding;                 /* -v: how it was decoded is said */
	bool cancelled;                     /* failed once the run was cancelled */
};

/* All inputs of the run: shared by the workers and the reporter. */
struct inputs {
	struct gh_run *run;
	const struct gpuhist_input *list;
	int n;
	pthread_mutex_t lock;
	pthread_cond_t changed;             /* a job started or ended, or one was reported */
	int next;                           /* the next operand to take */
	int reported;                       /* operands reported so far */
	int window;                         /* jobs[]: operands in flight at most */
	struct job *jobs;
	int stream_tickets;                 /* stream operands taken so far */
	int stream_turn;                    /* the ticket whose turn it is */
	int readers_each;                   /* reader threads for one plain file */
	int workers;                        /* inputs counted at once at most */
};

/* One plain file being read by several threads. */
struct readers {
	struct gh_run *run;
	struct gh_source *src;
	struct job *job;
	int input;                          /* the backend's id for it */
	uint64_t start;                     /* where its bytes begin */
	uint64_t len;                       /* how many to read at most */
	atomic_uint_least64_t next_offset;  /* the next chunk to claim, from start */
	atomic_uint_least64_t bytes;        /* read and submitted so far */
	atomic_uint_least64_t end;          /* least end of file seen */
	atomic_int stop;                    /* end of file or failure seen */
	atomic_int failed;                  /* a reader failed; first one says why */
	const char *why;                    /* its reason, or NULL: errno `err` */
	int err;
};

/* What joins job's chunks at their edges, or NULL when nothing does (a
 * parallel decoder then need not end a chunk with each piece). */
static const struct gh_views *views_of(const struct job *job)
{
	return job->views.n ? &job->views : NULL;
}

/* Notes how far job is read (for the meter), and the run's bytes read.
 * Decoders of pieces report the ends of their pieces out of order, so
 * only a point past the furthest so far moves either (an exchange would
 * step back and count the same bytes again, and the run would seem read
 * when it is not: the GPU's late start then misjudged the time left). */
static void note_read(struct gh_run *run, struct job *job, uint64_t consumed)
{
	uint_least64_t was = atomic_load(&job->consumed);

	while (consumed > was &&
	       !atomic_compare_exchange_weak(&job->consumed, &was, consumed))
		;
	if (consumed > was)
		atomic_fetch_add(&run->read_done, consumed - was);
}

double gh_run_seconds_left(void *ctx)
{
	struct gh_run *run = ctx;
	uint64_t read = atomic_load(&run->read_done);
	double elapsed = gh_now() - run->opened;

	if (!run->disk_bytes || !read || read >= run->disk_bytes ||
	    elapsed <= 0)
		return -1.0;
	return elapsed * (double)(run->disk_bytes - read) / (double)read;
}

/* Counts `got` more bytes of job, for -v and the meter. */
static void add_bytes(struct gh_run *run, struct job *job, uint64_t got,
		      uint64_t consumed)
{
	atomic_fetch_add(&run->bytes_done, got);
	atomic_fetch_add(&job->counted, got);
	note_read(run, job, consumed);
}

/* Remembers a failure; the first one is printed after the readers end. */
static void readers_fail(struct readers *rd, const char *why, int err)
{
	atomic_store(&rd->stop, 1);
	if (atomic_exchange(&rd->failed, 1))
		return;
	rd->why = why;
	rd->err = err;
}

/* Notes that a reader found the end of the file `end` bytes after start. */
static void note_end(struct readers *rd, uint64_t end)
{
	uint_least64_t seen = atomic_load(&rd->end);

	while (end < seen &&
	       !atomic_compare_exchange_weak(&rd->end, &seen, end))
		;
}

static void *read_chunks(void *arg)
{
	struct readers *rd = arg;
	struct gh_backend *b = rd->run->backend;

	while (!atomic_load(&rd->stop)) {
		struct gh_chunk *c = b->ops->acquire(b);
		uint64_t offset, room;
		int64_t got;

		if (!c) {
			readers_fail(rd, b->error, 0);
			break;
		}
		room = c->backend->chunk_bytes;     /* auto: the CPU's or the GPU's */
		offset = atomic_fetch_add(&rd->next_offset, room);
		if (offset >= rd->len) {            /* the range is all claimed */
			b->ops->submit(b, rd->input, c, 0);
			atomic_store(&rd->stop, 1);
			break;
		}
		uint64_t want = rd->len - offset < room
				? rd->len - offset : room;

		got = gh_source_pread(rd->src, c->data, want, rd->start + offset);
		if (got < 0) {
			int err = errno;

			b->ops->submit(b, rd->input, c, 0);
			readers_fail(rd, NULL, err);
			break;
		}
		const char *why = gh_submit(views_of(rd->job), b, rd->input, c,
					    (uint64_t)got, gh_place_at(offset));

		if (why) {
			readers_fail(rd, why, 0);
			break;
		}
		if ((uint64_t)got < want) {
			note_end(rd, offset + (uint64_t)got);
			atomic_store(&rd->stop, 1);     /* end of file */
		}
		add_bytes(rd->run, rd->job, (uint64_t)got,
			  atomic_fetch_add(&rd->bytes, (uint64_t)got) +
			  (uint64_t)got);
	}
	return NULL;
}

static int count_parallel(struct gh_run *run, struct gh_source *src,
			  struct job *job, int input, int n_readers)
{
	const struct gpuhist_input *what = job->input;
	struct readers rd = { .run = run, .src = src, .job = job,
			      .input = input,
			      .start = ranged(what) ? what->offset : 0,
			      .len = ranged(what) ? what->length : UINT64_MAX };
	pthread_t threads[GH_READERS_MAX];
	int started = 0;

	atomic_init(&rd.next_offset, 0);
	atomic_init(&rd.bytes, 0);
	atomic_init(&rd.end, UINT64_MAX);
	atomic_init(&rd.stop, 0);
	atomic_init(&rd.failed, 0);
	/* Fewer threads than asked for is fine: the caller reads too. */
	while (started < n_readers - 1 &&
	       pthread_create(&threads[started], NULL, read_chunks, &rd) == 0)
		started++;
	read_chunks(&rd);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	/* Bytes past the least end: the file grew or shrank in between; for
	 * a range, any end inside it: the file shrank. */
	uint64_t bytes = atomic_load(&rd.bytes), end = atomic_load(&rd.end);

	if (ranged(what) ? end != UINT64_MAX || bytes != rd.len : bytes != end)
		readers_fail(&rd, "file changed size while being read", 0);
	if (!ranged(what))
		gh_source_pread_end(src, bytes);
	if (!atomic_load(&rd.failed))
		return 0;
	/* Noted here, by the input's worker, once the readers are done. */
	if (rd.why) {
		gh_note(&job->notes, "%s: %s", job->name, rd.why);
	} else {
		errno = rd.err;
		gh_note_errno(&job->notes, "%s: read error", job->name);
	}
	return -1;
}

static int count_sequential(struct gh_run *run, struct gh_source *src,
			    struct job *job, int input)
{
	struct gh_backend *b = run->backend;
	bool plain = !gh_source_decoding(src);
	uint64_t at = 0;                    /* where the next chunk begins */

	for (;;) {
		struct gh_chunk *c = b->ops->acquire(b);
		uint64_t want;
		int64_t got;

		if (!c) {
			gh_note(&job->notes, "%s: %s", job->name, b->error);
			return -1;
		}
		/* The chunk's own backend says how much of it a pipe fills. */
		want = c->backend->chunk_bytes;
		if (plain && c->backend->stream_bytes &&
		    c->backend->stream_bytes < want)
			want = c->backend->stream_bytes;
		if (job->lines) {
			const char *lines_why;

			got = gh_lines_fill(job->lines, src, c->data, want,
					    &lines_why);
			if (got < 0 && lines_why)
				gh_note(&job->notes, "%s: %s", job->name,
					lines_why);
		} else {
			got = gh_source_fill(src, c->data, want);
		}

		const char *why = gh_submit(views_of(job), b, input, c,
					    got > 0 ? (uint64_t)got : 0,
					    gh_place_at(at));

		if (why) {
			gh_note(&job->notes, "%s: %s", job->name, why);
			return -1;
		}
		if (got <= 0)
			return got < 0 ? -1 : 0;    /* the source noted why */
		at += (uint64_t)got;
		add_bytes(run, job, (uint64_t)got, gh_source_consumed(src));
	}
}

/*
 * A plain file whose lines a pattern filters, on several threads.  Each
 * claims the next span of the file (a chunk's size) and owns the lines that
 * begin in them (the last read on to its newline), filters them into a
 * buffer of its own, then, in span order, takes the next place in the
 * kept lines' stream, so that the views see them as one stream read in
 * order (-s and tokens join chunks by their offsets there), and hands
 * them on in chunks.  Only taking the place waits for the spans before.
 */
struct kept_readers {
	struct gh_run *run;
	struct gh_source *src;
	struct job *job;
	int input;
	uint64_t size;
	uint64_t span;                      /* bytes a reader claims at once */
	atomic_uint_least64_t next_span;
	pthread_mutex_t lock;
	pthread_cond_t turned;
	uint64_t turn;                      /* the span whose place is next */
	uint64_t at;                        /* the kept stream's length so far */
	atomic_uint_least64_t seen, kept;
	atomic_int failed;
	char why[GH_NOTE_LINE];             /* the first failure's, or "": */
	int err;                            /* errno of a read */
};

static void kept_fail(struct kept_readers *kr, const char *why, int err)
{
	/* Copied: a reader's reason lives in its filter, freed as it ends. */
	pthread_mutex_lock(&kr->lock);
	if (!atomic_exchange(&kr->failed, 1)) {
		snprintf(kr->why, sizeof(kr->why), "%s", why ? why : "");
		kr->err = err;
	}
	pthread_mutex_unlock(&kr->lock);
}

/* Span k's place in the kept stream, for n bytes: waits for the spans
 * before it (every span claimed takes its place, failed or not). */
static uint64_t kept_place(struct kept_readers *kr, uint64_t k, uint64_t n)
{
	uint64_t at;

	pthread_mutex_lock(&kr->lock);
	while (kr->turn != k)
		pthread_cond_wait(&kr->turned, &kr->lock);
	at = kr->at;
	kr->at += n;
	kr->turn++;
	pthread_cond_broadcast(&kr->turned);
	pthread_mutex_unlock(&kr->lock);
	return at;
}

/* Makes *buf hold at least need bytes (doubling); 0, or -1 (ENOMEM). */
static int kept_room(unsigned char **buf, size_t *room, size_t need)
{
	size_t more = *room ? *room : 1;
	unsigned char *b;

	if (need <= *room)
		return 0;
	while (more < need)
		more *= 2;
	b = realloc(*buf, more);
	if (!b) {
		errno = ENOMEM;
		return -1;
	}
	*buf = b;
	*room = more;
	return 0;
}

/* Reads span k (and the byte before it) into *buf (grown), and, where a
 * line begins in it, the rest of its last line: the bytes of the lines
 * that begin in the span at (*buf)[*first..*len) (none: *first ==
 * *len).  0, or -1 (errno, or ENOMEM). */
static int kept_read(struct kept_readers *kr, uint64_t k, unsigned char **buf,
		     size_t *room, size_t *first, size_t *len)
{
	uint64_t start = k * kr->span, from = start ? start - 1 : 0;
	uint64_t end = start + kr->span < kr->size ? start + kr->span
						    : kr->size;
	size_t span_end = (size_t)(end - from), n, f = 0;
	int64_t got;

	*first = *len = 0;
	if (kept_room(buf, room, span_end ? span_end : 1))
		return -1;
	got = gh_source_pread(kr->src, *buf, span_end, from);
	if (got < 0)
		return -1;
	n = (size_t)got;                    /* less: the file shrank */
	/* The first line that begins in the span: at its start, or after
	 * the first newline from the byte before it; none where that
	 * newline is the span's last byte, or there is none (a line that
	 * began before goes on through it). */
	if (start) {
		const unsigned char *nl = memchr(*buf, '\n', n);

		if (!nl || (size_t)(nl - *buf) + 1 >= n)
			return 0;
		f = (size_t)(nl - *buf) + 1;
	}
	if (f >= n)
		return 0;
	/* The span's last line, to its newline past the span's end (or to
	 * the end of the file): read on, twice as much each time, looking
	 * only at what is new. */
	if (n == span_end && end < kr->size && (*buf)[n - 1] != '\n') {
		size_t want = span_end > ((size_t)64 << 10) ? span_end
							    : (size_t)64 << 10;

		for (;;) {
			if (kept_room(buf, room, n + want))
				return -1;
			got = gh_source_pread(kr->src, *buf + n, want, from + n);
			if (got < 0)
				return -1;
			const unsigned char *nl = memchr(*buf + n, '\n',
							 (size_t)got);

			if (nl) {
				n = (size_t)(nl - *buf) + 1;
				break;
			}
			n += (size_t)got;
			if ((size_t)got < want)
				break;      /* the end of the file */
			want *= 2;
		}
	}
	*first = f;
	*len = n;
	return 0;
}

static void *read_kept(void *arg)
{
	struct kept_readers *kr = arg;
	struct gh_backend *b = kr->run->backend;
	struct gh_lines *l = gh_lines_new(kr->run->match);
	unsigned char *buf = NULL, *out = NULL;
	size_t room = 0, out_room = 0;

	if (!l)
		kept_fail(kr, "out of memory", 0);
	for (;;) {
		uint64_t k = atomic_fetch_add(&kr->next_span, 1);
		size_t first = 0, len = 0;
		int64_t kept = 0;
		const char *why = NULL;

		if (k * kr->span >= kr->size && !(k == 0 && !kr->size))
			break;
		if (!atomic_load(&kr->failed) && l &&
		    kept_read(kr, k, &buf, &room, &first, &len)) {
			kept_fail(kr, NULL, errno);
			len = first = 0;
		}
		if (len - first > out_room) {
			unsigned char *o = realloc(out, len - first);

			if (o) {
				out = o;
				out_room = len - first;
			} else {
				kept_fail(kr, "out of memory", 0);
				len = first = 0;
			}
		}
		if (len > first && !atomic_load(&kr->failed)) {
			kept = gh_lines_filter(l, buf + first, len - first, out,
					       &why);
			if (kept < 0) {
				kept_fail(kr, why, 0);
				kept = 0;
			}
		}
		/* Every span takes its place, so that none waits forever. */
		uint64_t at = kept_place(kr, k, (uint64_t)kept);

		for (uint64_t done = 0; done < (uint64_t)kept &&
					!atomic_load(&kr->failed);) {
			struct gh_chunk *c = b->ops->acquire(b);

			if (!c) {
				kept_fail(kr, b->error, 0);
				break;
			}
			uint64_t n = (uint64_t)kept - done;

			if (n > c->backend->chunk_bytes)
				n = c->backend->chunk_bytes;
			memcpy(c->data, out + done, n);
			why = gh_submit(views_of(kr->job), b, kr->input, c, n,
					gh_place_at(at + done));
			if (why) {
				kept_fail(kr, why, 0);
				break;
			}
			done += n;
		}
		add_bytes(kr->run, kr->job, (uint64_t)kept, 0);
		note_read(kr->run, kr->job, k * kr->span + kr->span < kr->size
					    ? k * kr->span + kr->span : kr->size);
	}
	if (l) {
		uint64_t seen, kept;

		gh_lines_tally(l, &seen, &kept);
		atomic_fetch_add(&kr->seen, seen);
		atomic_fetch_add(&kr->kept, kept);
	}
	gh_lines_free(l);
	free(buf);
	free(out);
	return NULL;
}

static int count_kept_parallel(struct gh_run *run, struct gh_source *src,
			       struct job *job, int input, int n_readers)
{
	struct kept_readers kr = { .run = run, .src = src, .job = job,
				   .input = input,
				   .size = gh_source_size(src),
				   .span = run->backend->chunk_bytes };
	pthread_t threads[GH_READERS_MAX];
	int started = 0;

	atomic_init(&kr.next_span, 0);
	atomic_init(&kr.seen, 0);
	atomic_init(&kr.kept, 0);
	atomic_init(&kr.failed, 0);
	pthread_mutex_init(&kr.lock, NULL);
	pthread_cond_init(&kr.turned, NULL);
	while (started < n_readers - 1 &&
	       pthread_create(&threads[started], NULL, read_kept, &kr) == 0)
		started++;
	read_kept(&kr);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&kr.lock);
	pthread_cond_destroy(&kr.turned);
	gh_source_pread_end(src, kr.size);
	job->lines_seen = atomic_load(&kr.seen);
	job->lines_kept = atomic_load(&kr.kept);
	if (!atomic_load(&kr.failed))
		return 0;
	if (kr.why[0]) {
		gh_note(&job->notes, "%s: %s", job->name, kr.why);
	} else {
		errno = kr.err;
		gh_note_errno(&job->notes, "%s: read error", job->name);
	}
	return -1;
}

/* What a decoder of pieces reports goes to the meter and -v. */
struct pieces_meter {
	struct gh_run *run;
	struct job *job;
	atomic_uint_least64_t added;
};

static void pieces_progress(void *ctx, uint64_t bytes, uint64_t consumed)
{
	struct pieces_meter *m = ctx;

	if (bytes) {
		atomic_fetch_add(&m->run->bytes_done, bytes);
		atomic_fetch_add(&m->job->counted, bytes);
		atomic_fetch_add(&m->added, bytes);
	}
	if (consumed)
		note_read(m->run, m->job, consumed);
}

/* Throws away what input *input holds and opens it again for `readers`;
 * 0, or -1 (noted). */
static int begin_again(struct gh_run *run, struct job *job, int *input,
		       int readers)
{
	struct gh_backend *b = run->backend;
	uint64_t discard[256];
	struct gh_counted into = { .totals = discard };

	/* The backend's first: it may still add tokens it counted. */
	gh_views_into(&job->views, &into);
	if (b->ops->finish(b, *input, &into)) {
		gh_note(&job->notes, "%s: %s", job->name, b->error);
		*input = -1;
		return -1;
	}
	gh_views_reset(&job->views);
	*input = b->ops->begin(b, readers, false);
	if (*input < 0) {
		gh_note(&job->notes, "%s: %s", job->name, b->error);
		return -1;
	}
	return 0;
}

/*
 * Decodes the input in independent pieces on `threads` threads (its
 * decoder splits it: gzip's regions, zstd's frames).  Where that decoder
 * gives up (invalid data, or a read it could not make), what it counted is
 * thrown away and the input is decoded again, in order, from its first
 * byte by the reference engine (gzip: zlib), which then gives the verdict
 * and the message in its own words.  Where the input
 * does not split after all (one zstd frame), it is begun again for one
 * reader, so that the CPU's workers count while this thread decodes.  0,
 * or -1 (noted) on failure.
 */
static int count_pieces(struct gh_run *run, struct gh_source *src,
			struct job *job, int *input, int threads)
{
	struct pieces_meter meter = { .run = run, .job = job };
	struct gh_pieces_job pj = { .sink = { .b = run->backend,
					      .input = *input,
					      .views = views_of(job) },
				    .threads = threads,
				    .progress = pieces_progress, .ctx = &meter,
				    .timing = run->opts->verbose };
	const struct gh_decoding *serial = gh_source_decoding(src);

	atomic_init(&meter.added, 0);
	for (;;) {
		switch (gh_source_pieces(src, &pj)) {
		case GH_PIECES_DONE:
			atomic_store(&run->decoding, pj.decoding);
			if (run->opts->verbose)
				gh_note(&job->notes, "%s: %s decoded by %d thread%s: %s",
					job->name, serial->format, threads,
					threads > 1 ? "s" : "", pj.summary);
			job->said_decoding = true;
			return 0;
		case GH_PIECES_FAILED:
			gh_note(&job->notes, "%s: %s", job->name, pj.why);
			return -1;
		case GH_PIECES_IN_ORDER:
			if (begin_again(run, job, input, 1))
				return -1;
			return count_sequential(run, src, job, *input);
		case GH_PIECES_SERIAL:
			break;
		}
		atomic_fetch_sub(&run->bytes_done, atomic_load(&meter.added));
		atomic_fetch_sub(&job->counted, atomic_load(&meter.added));
		atomic_store(&meter.added, 0);
		if (!pj.again)
			break;
		/* Another way of splitting it, from nothing counted. */
		if (begin_again(run, job, input, threads))
			return -1;
		pj.sink.input = *input;
		pj.attempt++;
		pj.again = false;
		pj.why = NULL;
	}
	if (begin_again(run, job, input, 1) || gh_source_restart(src))
		return -1;
	serial = gh_source_decoding(src);
	if (run->opts->verbose && pj.why)   /* as planned, not a fault */
		gh_note(&job->notes, "%s: decoded serially with %s: %s",
			job->name, serial->decoder, pj.why);
	else if (run->opts->verbose)
		gh_note(&job->notes, "%s: the parallel %s decoder gave up; decoding serially with %s",
			job->name, serial->format, serial->decoder);
	return count_sequential(run, src, job, *input);
}

/*
 * The bytes just before a byte range of a file (before) or just after it,
 * as context for its first and last characters: what a file split among
 * processes needs so that a sequence across a split counts once.  After
 * the range, it also ends the seams: 0, or -1 when out of memory.
 */
static int range_context(struct gh_source *src, struct job *job, bool before)
{
	const struct gpuhist_input *what = job->input;
	unsigned char ctx[3];
	uint64_t at = before ? (what->offset < 3 ? 0 : what->offset - 3)
		      : what->offset + what->length;
	int64_t got = before ? (int64_t)(what->offset - at) : 3;

	if (got > 0)
		got = gh_source_pread(src, ctx, (uint64_t)got, at);
	if (got < 0)
		got = 0;        /* unreadable context: as if the file ended */
	if (!before)
		return gh_views_end_cut(&job->views, ctx, (int)got);
	gh_views_before(&job->views, ctx, (int)got);
	return 0;
}

/* Counts one input into job->totals; -1 (reason noted) on failure. */
static int count_one(struct inputs *in, struct job *job)
{
	struct gh_run *run = in->run;
	struct gh_backend *b = run->backend;
	struct gh_source *src;
	struct gh_counted into = { .totals = job->totals };
	const char *why;
	int input, readers, ret, pieces = 0;

	src = gh_source_open(job->input, run->opts->raw, in->readers_each,
			     &job->notes);
	if (!src)
		return -1;
	if (ranged(job->input) && !gh_source_can_pread(src)) {
		/* It was a plain file when the ranges were drawn. */
		gh_note(&job->notes, "%s: file changed while being read",
			job->name);
		gh_source_close(src);
		return -1;
	}
	if (ranged(job->input) &&
	    job->input->offset + job->input->length > gh_source_size(src)) {
		gh_note(&job->notes,
			"%s: bytes %llu to %llu are past its end (%llu bytes)",
			job->name, (unsigned long long)job->input->offset,
			(unsigned long long)(job->input->offset +
					     job->input->length),
			(unsigned long long)gh_source_size(src));
		gh_source_close(src);
		return -1;
	}
	atomic_store(&job->size, ranged(job->input) ? job->input->length
						    : gh_source_size(src));
	const struct gh_decoding *decoding = gh_source_decoding(src);

	if (decoding)
		atomic_store(&run->decoding, decoding);
	/* Lines matched: a plain file by its readers (count_kept_parallel),
	 * anything else in order by one thread. */
	if (!ranged(job->input) && !run->match)
		pieces = gh_source_pieces_threads(src, in->readers_each);
	readers = pieces ? pieces
		  : gh_source_can_pread(src) ? in->readers_each : 1;
	job->said_decoding = false;
	job->views.n = 0;
	if (ranged(job->input) && (why = gh_views_no_ranges(run->opts))) {
		gh_note(&job->notes, "%s: %s", job->name, why);
		ret = -1;
		goto out;
	}
	if (run->match && ranged(job->input)) {
		gh_note(&job->notes, "%s: lines are not matched in byte ranges (mpirun) yet",
			job->name);
		ret = -1;
		goto out;
	}
	job->lines_seen = job->lines_kept = 0;
	if ((run->match && readers == 1 &&
	     !(job->lines = gh_lines_new(run->match))) ||
	    gh_views_open(&job->views, run->opts)) {
		gh_note(&job->notes, "%s: out of memory", job->name);
		ret = -1;
		goto out;
	}
	if (gh_views_context(&job->views) && ranged(job->input))
		range_context(src, job, true);
	/* Every core busy with an input of its own: each counts its own. */
	input = b->ops->begin(b, readers,
			      in->workers > 1 && in->readers_each == 1);
	if (input < 0) {
		gh_note(&job->notes, "%s: %s", job->name, b->error);
		ret = -1;
		goto out;
	}
	if (pieces)
		ret = count_pieces(run, src, job, &input, pieces);
	else if (run->match && readers > 1)
		ret = count_kept_parallel(run, src, job, input, readers);
	else if (run->match)
		ret = count_sequential(run, src, job, input);
	else if (readers > 1 || ranged(job->input))
		ret = count_parallel(run, src, job, input, readers);
	else
		ret = count_sequential(run, src, job, input);
	if (!ret && (ranged(job->input) && gh_views_context(&job->views)
		     ? range_context(src, job, false)
		     : gh_views_end_cut(&job->views, NULL, 0)))
		ret = -1;
	if (ret == -1 && gh_views_context(&job->views) && !*job->messages)
		gh_note(&job->notes, "%s: out of memory", job->name);
	if (job->lines)
		gh_lines_tally(job->lines, &job->lines_seen, &job->lines_kept);
	if (!ret && run->opts->verbose && run->match)
		gh_note(&job->notes, "%s: %llu of %llu lines matched (on the CPU, %d thread%s, %s)",
			job->name, (unsigned long long)job->lines_kept,
			(unsigned long long)job->lines_seen,
			readers > 1 ? readers : 1, readers > 1 ? "s" : "",
			gh_match_engine());
	/* -v: how each compressed input was decoded, named (the parallel
	 * decoders said so with their figures). */
	if (!ret && run->opts->verbose && gh_source_decoding(src) &&
	    !job->said_decoding)
		gh_note(&job->notes, "%s: %s decoded with %s", job->name,
			gh_source_decoding(src)->format,
			gh_source_decoding(src)->decoder);
	/* Always collect, so a failed input's counts never reach the next. */
	gh_views_into(&job->views, &into);
	if (input >= 0 && b->ops->finish(b, input, &into) && !ret) {
		gh_note(&job->notes, "%s: %s", job->name, b->error);
		ret = -1;
	}
	if (!ret && (why = gh_views_end(&job->views, &(struct gh_view_end){
			.totals = job->totals, .ranged = ranged(job->input),
			.length = job->input->length }))) {
		gh_note(&job->notes, "%s: %s", job->name, why);
		ret = -1;
	}
out:
	gh_lines_free(job->lines);
	job->lines = NULL;
	/* The views' results stay until the input is reported. */
	if (ret)
		gh_views_close(&job->views);
	if (gh_source_close(src))
		ret = -1;
	return ret;
}

/* Whether an input is standard input or another stream (a FIFO, a
 * device) that several inputs might share; regular files, memory and
 * what cannot be opened are not.  *size gets a regular file's size. */
static bool is_stream(const struct gpuhist_input *input, uint64_t *size)
{
	struct stat st;

	*size = 0;
	switch (input->type) {
	case GPUHIST_INPUT_MEMORY:
		*size = input->size;
		return false;
	case GPUHIST_INPUT_FD:
		if (fstat(input->fd, &st) != 0 || S_ISDIR(st.st_mode))
			return false;
		if (S_ISREG(st.st_mode))
			*size = (uint64_t)st.st_size;
		return !S_ISREG(st.st_mode);
	case GPUHIST_INPUT_PATH:
		break;
	}
	return gpuhist_probe(input->name, 1, size) == GPUHIST_KIND_STREAM;
}

static void *input_worker(void *arg)
{
	struct inputs *in = arg;
	int n = in->n;

	pthread_mutex_lock(&in->lock);
	for (;;) {
		while (in->next < n && in->next >= in->reported + in->window)
			pthread_cond_wait(&in->changed, &in->lock);
		if (in->next >= n)
			break;
		int i = in->next++;
		struct job *job = &in->jobs[i % in->window];

		job->index = i;
		job->state = JOB_RUNNING;
		job->input = &in->list[i];
		job->name = job->input->name;
		atomic_store(&job->size, 0);
		atomic_store(&job->consumed, 0);
		atomic_store(&job->counted, 0);
		/* Streams are read one at a time, in operand order: "-" twice,
		 * or "-" and /dev/stdin, share one stream and must not split it. */
		uint64_t size;
		int ticket = !ranged(job->input) && is_stream(job->input, &size)
			     ? in->stream_tickets++ : -1;

		while (ticket >= 0 && in->stream_turn != ticket)
			pthread_cond_wait(&in->changed, &in->lock);
		pthread_mutex_unlock(&in->lock);

		/* Cancelled: what is not yet begun is not opened. */
		int ret = -1;

		if (atomic_load(&in->run->cancel))
			gh_note(&job->notes, "%s: %s", job->name, GH_CANCELLED);
		else
			ret = count_one(in, job);

		pthread_mutex_lock(&in->lock);
		if (ticket >= 0)
			in->stream_turn++;
		job->cancelled = ret && atomic_load(&in->run->cancel);
		job->state = ret ? JOB_FAILED : JOB_DONE;
		pthread_cond_broadcast(&in->changed);
	}
	pthread_mutex_unlock(&in->lock);
	return NULL;
}

/* Tells the caller's progress callback where job stands; ended: it is
 * finished. */
static void draw_meter(struct gh_run *run, struct job *job, bool ended)
{
	struct gpuhist_progress at = {
		.name = job->name,
		.counted = atomic_load(&job->counted),
		.read = atomic_load(&job->consumed),
		.size = atomic_load(&job->size),
		.all_counted = atomic_load(&run->bytes_done),
		.seconds = gh_now() - run->opened,
		.ended = ended,
	};

	if (run->opts->progress)
		run->opts->progress(run->opts->progress_ctx, &at);
}

/* Waits until input r is done, telling the progress meanwhile. */
static struct job *wait_for(struct inputs *in, int r)
{
	struct job *job = &in->jobs[r % in->window];

	pthread_mutex_lock(&in->lock);
	while (job->index != r || job->state == JOB_RUNNING) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&in->changed, &in->lock, &until);
		if (job->index == r && job->state == JOB_RUNNING)
			draw_meter(in->run, job, false);
	}
	pthread_mutex_unlock(&in->lock);
	return job;
}

int gh_count_inputs(struct gh_run *run, const struct gpuhist_input *list,
		    int n, gpuhist_result_fn fn, void *ctx, char *why,
		    size_t why_len)
{
	const struct gpuhist_options *opts = run->opts;
	struct inputs in = { .run = run, .list = list, .n = n };
	int workers, started = 0, failed = 0, err;
	pthread_t threads[GH_INPUTS_MAX];
	const char *unusable = NULL;

	if (n < 1)
		return 0;
	workers = n;
	if (workers > opts->threads)
		workers = opts->threads;
	if (workers > GH_INPUTS_MAX)
		workers = GH_INPUTS_MAX;
	in.workers = workers;
	in.readers_each = gh_readers(opts) / workers;
	if (in.readers_each < 1)
		in.readers_each = 1;
	in.window = 2 * workers;
	in.jobs = calloc((size_t)in.window, sizeof(*in.jobs));
	if (!in.jobs) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	for (int i = 0; i < in.window; i++) {
		in.jobs[i].index = -1;
		gh_notes_init(&in.jobs[i].notes, in.jobs[i].messages,
			      sizeof(in.jobs[i].messages));
	}
	pthread_mutex_init(&in.lock, NULL);
	pthread_cond_init(&in.changed, NULL);
	while (started < workers &&
	       !(err = pthread_create(&threads[started], NULL, input_worker,
				      &in)))
		started++;
	if (!started) {
		snprintf(why, why_len, "cannot start a thread: %s",
			 strerror(err));
		failed = -1;
	}

	for (int r = 0; started && r < n; r++) {
		struct job *job = wait_for(&in, r);

		/* Before the first result: can the backend count at all?
		 * (--backend=gpu counts on the CPU while its GPU starts.)
		 * If not, nothing is reported; the inputs left fail fast. */
		if (r == 0 && !unusable && run->backend->ops->unusable &&
		    (unusable = run->backend->ops->unusable(run->backend,
							       false)))
			snprintf(why, why_len, "%s", unusable);
		if (!unusable) {
			bool done = job->state == JOB_DONE;
			struct gpuhist_result result = {
				.index = r,
				.name = job->name,
				.status = done ? GPUHIST_OK
					  : job->cancelled ? GPUHIST_ERR_CANCELLED
					  : GPUHIST_ERR_INPUT,
				.totals = done ? job->totals : NULL,
				.messages = job->messages,
			};

			if (done)
				gh_views_publish(&job->views, &result);

			/* Show each input's end, however quickly it went. */
			draw_meter(run, job, done);
			fn(ctx, &result);
			if (!done)
				failed++;
		}
		pthread_mutex_lock(&in.lock);
		job->index = -1;
		gh_views_close(&job->views);
		gh_notes_init(&job->notes, job->messages,
			      sizeof(job->messages));
		in.reported++;
		pthread_cond_broadcast(&in.changed);
		pthread_mutex_unlock(&in.lock);
	}
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&in.lock);
	pthread_cond_destroy(&in.changed);
	for (int i = 0; i < in.window; i++) {
		gh_views_close(&in.jobs[i].views);
	}
	free(in.jobs);
	return unusable ? -2 : failed;
}

uint64_t gh_inputs_bytes(const struct gpuhist_input *list, int n, bool raw,
			 bool *unsized, uint64_t *disk)
{
	uint64_t bytes = 0, size;

	*unsized = false;
	*disk = 0;
	for (int i = 0; i < n; i++) {
		if (ranged(&list[i])) {
			bytes += list[i].length;
			*disk += list[i].length;
		} else if (is_stream(&list[i], &size)) {
			*unsized = true;
		} else {
			bytes += size;  /* 0 for what will fail, and cost nothing */
			*disk += size;
			if (!raw && size >= GH_SNIFF_BYTES &&
			    list[i].type == GPUHIST_INPUT_PATH &&
			    gpuhist_probe(list[i].name, 0, NULL) ==
			    GPUHIST_KIND_COMPRESSED)
				bytes += (GH_COMPRESSED_RATIO - 1) * size;
		}
	}
	return bytes;
}
