/* pieces_state.h - what the parallel decoders share: how a run of pieces
 * ends, the threads that decode them, and how a thread hands a chunk on
 *
 * zstd_parallel.c, xz_parallel.c, bgzf_parallel.c, bzip2_parallel.c,
 * lz4_parallel.c and members_parallel.c each run threads over independent
 * pieces of one file, and each ends the same way: invalid data, a read or
 * memory that failed makes the run "bad" (GH_PIECES_SERIAL: the serial
 * decoder gives the verdict); the backend failing (or memory for the
 * chunks' edges) makes it fail, with the first reason (GH_PIECES_FAILED);
 * else it is done.
 */
#ifndef GH_PIECES_STATE_H
#define GH_PIECES_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "decoder.h"

struct gh_pieces_state {
	atomic_int bad;             /* invalid data, a read, memory: serial */
	atomic_int backend_failed;
	_Atomic(const char *) why;  /* the first backend failure's reason */
};

static inline void gh_pieces_state_init(struct gh_pieces_state *s)
{
	atomic_init(&s->bad, 0);
	atomic_init(&s->backend_failed, 0);
	atomic_init(&s->why, NULL);
}

/* The data, a read or memory failed: the serial decoder decides. */
static inline void gh_pieces_bad(struct gh_pieces_state *s)
{
	atomic_store(&s->bad, 1);
}

/* Remembers that the backend (or memory for the chunks' edges) failed,
 * and the first reason. */
static inline void gh_pieces_backend_failed(struct gh_pieces_state *s,
					    const char *why)
{
	const char *none = NULL;

	atomic_compare_exchange_strong(&s->why, &none, why);
	atomic_store(&s->backend_failed, 1);
}

/* Whether the threads go on taking pieces. */
static inline bool gh_pieces_going(struct gh_pieces_state *s)
{
	return !atomic_load(&s->bad) && !atomic_load(&s->backend_failed);
}

/* Runs fn(arg) on `threads` threads, the calling thread one of them (as
 * many as can be started), and waits for them all. */
static inline void gh_pieces_run(int threads, void *(*fn)(void *), void *arg)
{
	pthread_t tids[GH_READERS_MAX];
	int started = 0;

	if (threads > GH_READERS_MAX)
		threads = GH_READERS_MAX;
	while (started < threads - 1 &&
	       pthread_create(&tids[started], NULL, fn, arg) == 0)
		started++;
	fn(arg);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
}

/* Hands on the chunk a thread fills (*c, which it holds no more), its
 * first `fill` bytes, at `place`; `bad` as gh_sink_submit's.  False where
 * the backend failed (noted in s): the thread stops. */
static inline bool gh_pieces_submit(struct gh_pieces_state *s,
				    const struct gh_sink *sink,
				    struct gh_chunk **c, uint64_t fill,
				    struct gh_place place, bool bad)
{
	struct gh_chunk *chunk = *c;
	const char *why;

	*c = NULL;
	why = gh_sink_submit(sink, chunk, fill, place, bad);
	if (why)
		gh_pieces_backend_failed(s, why);
	return !why;
}

/* How the run ended, with job->why set where the backend failed. */
static inline enum gh_pieces_result gh_pieces_verdict(struct gh_pieces_state *s,
						      struct gh_pieces_job *job)
{
	if (atomic_load(&s->backend_failed)) {
		job->why = atomic_load(&s->why);
		return GH_PIECES_FAILED;
	}
	return atomic_load(&s->bad) ? GH_PIECES_SERIAL : GH_PIECES_DONE;
}

#endif
