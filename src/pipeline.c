/* pipeline.c - one input through the chunks into the backend
 *
 * Two ways to feed the backend.  A plain regular file is read by several
 * threads at once (pread at chunk offsets handed out in order), which is
 * what a page-cached file needs to go faster than one memcpy stream; the
 * order of chunks does not matter to a histogram.  Anything else (pipes,
 * gzip, devices) is read in order by the calling thread.  Either way the
 * reader writes straight into the backend's chunks.
 *
 * A file that changes size while it is read is counted up to where its end
 * was seen, a prefix of it, as cat or wc would.  Several readers could see
 * different ends (one finds the end, another then reads bytes appended
 * after it), which would count bytes past a gap; they note the least end
 * seen, and when more than that was read the input fails instead.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "msg.h"
#include "pipeline.h"
#include "source.h"

/* One input being read by several threads. */
struct readers {
	struct gh_run *run;
	struct gh_source *src;
	const char *name;
	atomic_uint_least64_t next_offset;  /* the next chunk to claim */
	atomic_uint_least64_t bytes;        /* read and submitted so far */
	atomic_uint_least64_t end;          /* least end of file seen */
	atomic_int stop;                    /* end of file or failure seen */
	atomic_int failed;                  /* first failure prints, once */
};

/* Remembers a failure; only the first is printed. */
static void readers_fail(struct readers *rd, const char *why, int err)
{
	atomic_store(&rd->stop, 1);
	if (atomic_exchange(&rd->failed, 1))
		return;
	if (why) {
		gh_msg("%s: %s", rd->name, why);
	} else {
		errno = err;
		gh_msg_errno("%s: read error", rd->name);
	}
}

/* Notes that a reader found the end of the file at offset `end`. */
static void note_end(struct readers *rd, uint64_t end)
{
	uint_least64_t seen = atomic_load(&rd->end);

	while (end < seen &&
	       !atomic_compare_exchange_weak(&rd->end, &seen, end))
		;
}

/* One reader's loop; the calling thread (with_progress) also draws the meter. */
static void read_chunks(struct readers *rd, int with_progress)
{
	struct gh_backend *b = rd->run->backend;

	while (!atomic_load(&rd->stop)) {
		struct gh_chunk *c = b->acquire(b);
		uint64_t offset;
		int64_t got;

		if (!c) {
			readers_fail(rd, b->error, 0);
			return;
		}
		offset = atomic_fetch_add(&rd->next_offset, b->chunk_bytes);
		got = gh_source_pread(rd->src, c->data, b->chunk_bytes, offset);
		if (got < 0) {
			int err = errno;

			b->submit(b, c, 0);
			readers_fail(rd, NULL, err);
			return;
		}
		if (b->submit(b, c, (uint64_t)got)) {
			readers_fail(rd, b->error, 0);
			return;
		}
		if ((uint64_t)got < b->chunk_bytes) {
			note_end(rd, offset + (uint64_t)got);
			atomic_store(&rd->stop, 1);     /* end of file */
		}
		uint64_t in_done = atomic_fetch_add(&rd->bytes, (uint64_t)got) +
				   (uint64_t)got;
		if (with_progress)
			gh_progress_update(&rd->run->progress, rd->name,
					   rd->run->bytes_done + in_done, in_done,
					   gh_source_size(rd->src));
	}
}

static void *reader_thread(void *arg)
{
	read_chunks(arg, 0);
	return NULL;
}

static int count_parallel(struct gh_run *run, struct gh_source *src,
			  const char *name, int n_readers)
{
	struct readers rd = { .run = run, .src = src, .name = name };
	pthread_t threads[GH_READERS_MAX];
	int started = 0;

	atomic_init(&rd.next_offset, 0);
	atomic_init(&rd.bytes, 0);
	atomic_init(&rd.end, UINT64_MAX);
	atomic_init(&rd.stop, 0);
	atomic_init(&rd.failed, 0);
	/* Fewer threads than asked for is fine: the caller reads too. */
	while (started < n_readers - 1 &&
	       pthread_create(&threads[started], NULL, reader_thread, &rd) == 0)
		started++;
	read_chunks(&rd, 1);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	/* Bytes past the least end: the file grew or shrank in between. */
	if (atomic_load(&rd.bytes) != atomic_load(&rd.end))
		readers_fail(&rd, "file changed size while being read", 0);
	gh_source_pread_end(src, atomic_load(&rd.bytes));
	run->bytes_done += atomic_load(&rd.bytes);
	/* The other readers may have read it all: draw the meter once. */
	gh_progress_update(&run->progress, name, run->bytes_done,
			   atomic_load(&rd.bytes), gh_source_size(src));
	return atomic_load(&rd.failed) ? -1 : 0;
}

static int count_sequential(struct gh_run *run, struct gh_source *src,
			    const char *name)
{
	struct gh_backend *b = run->backend;

	for (;;) {
		struct gh_chunk *c = b->acquire(b);
		int64_t got;

		if (!c) {
			gh_msg("%s: %s", name, b->error);
			return -1;
		}
		got = gh_source_fill(src, c->data, b->chunk_bytes);
		if (b->submit(b, c, got > 0 ? (uint64_t)got : 0)) {
			gh_msg("%s: %s", name, b->error);
			return -1;
		}
		if (got <= 0)
			return got < 0 ? -1 : 0;    /* the source printed why */
		run->bytes_done += (uint64_t)got;
		gh_progress_update(&run->progress, name, run->bytes_done,
				   gh_source_consumed(src), gh_source_size(src));
	}
}

int gh_count_input(struct gh_run *run, const char *name, uint64_t totals[256])
{
	struct gh_backend *b = run->backend;
	int readers = gh_options_readers(run->opts);
	struct gh_source *src;
	int ret;

	src = gh_source_open(name, run->opts->raw);
	if (!src)
		return -1;
	if (readers > 1 && gh_source_can_pread(src)) {
		b->begin(b, readers);
		ret = count_parallel(run, src, name, readers);
	} else {
		b->begin(b, 1);
		ret = count_sequential(run, src, name);
	}
	/* Always collect, so a failed input's counts never reach the next. */
	if (b->finish(b, totals) && !ret) {
		gh_msg("%s: %s", name, b->error);
		ret = -1;
	}
	if (gh_source_close(src))
		ret = -1;
	return ret;
}
