/* backend.h - the one interface behind which the CPU and GPU backends count
 *
 * The caller fills chunks that the backend owns (so the GPU backend can hand
 * out pinned memory and readers write straight into it):
 *
 *	for each input:
 *		in = begin(b, readers, own) -- an input id; readers: threads
 *		                           feeding it; own: each should count
 *		                           what it feeds (the CPU backend), as
 *		                           when every core feeds an input
 *		while data: c = acquire(b); fill c->data (<= chunk_bytes of
 *			    c->backend, the backend that owns it);
 *			    submit(b, in, c, n)
 *		finish(b, in, counted) -- its 256 exact totals, and
 *		                           what the backend counted for the
 *		                           views (struct gh_counted); the id
 *		                           is free again
 *
 * Up to max_inputs inputs may be open at once, each fed by its own threads;
 * acquire() and submit() may be called from many threads at once, and
 * acquire() blocks until a chunk is free again (counted).  submit(.., 0)
 * gives a chunk back unused.  finish() is called once every reader of that
 * input is done.  After a failed input the caller still calls finish() and
 * throws the totals away, so nothing leaks into the next input.  Calls
 * return 0 (or a chunk, or an id) on success and -1 (or NULL) on failure
 * with the reason in b->error; backends never print or exit.  Each
 * backend's functions are one const table (struct gh_backend_ops).
 */
#ifndef GH_BACKEND_H
#define GH_BACKEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/cpu/count_stats.h"
#include "chunk.h"
#include "gpuhist.h"

/* Inputs a backend keeps open at once (each with its own totals). */
#define GH_INPUTS_MAX 16

struct gh_backend;

/* Where finish() puts an input's counts: its 256 totals, and what the
 * backend counted itself for the views that count on it (join/view.h's
 * into() points each at its view's state; NULL where no view asked). */
struct gh_counted {
	uint64_t *totals;               /* 256 */
	/* Code points (b->chars): the totals are then all zero and the
	 * code points are added in here. */
	struct gpuhist_chars *chars;
	/* Statistics (b->stats): the sums of its chunks, each on its own,
	 * added in here (count_stats.h). */
	struct gh_stream_part *part;
};

/* What a backend does; one const table a kind of backend. */
struct gh_backend_ops {
	int (*begin)(struct gh_backend *b, int readers, bool own);
	struct gh_chunk *(*acquire)(struct gh_backend *b);
	int (*submit)(struct gh_backend *b, int input, struct gh_chunk *c,
		      uint64_t len);
	int (*finish)(struct gh_backend *b, int input,
		      const struct gh_counted *into);
	/* NULL, or brings detail up to date, first waiting (wait) for work
	 * of its own in the background to end (auto: the GPU's start). */
	void (*settle)(struct gh_backend *b, bool wait);
	/* NULL, or waits until it is known whether the backend can count at
	 * all, and says why not ("GPU backend unusable: ...": auto standing
	 * for --backend=gpu, where no device was found), else NULL; with
	 * whole, waits for all of its start (the GPU's, up or failed). */
	const char *(*unusable)(struct gh_backend *b, bool whole);
	/* Frees everything and returns 0; or, where work of its own still
	 * runs in the background (auto: a GPU still starting), leaves that
	 * to the end of the process and returns 1: the caller then ends it
	 * with _exit(), which does not wait for the driver. */
	int (*destroy)(struct gh_backend *b);
	/* Batches of gzip members decoded by the backend (NULL where it
	 * cannot: no GPU, or no nvCOMP).  members_acquire() waits for a free
	 * batch; NULL: none now (auto before its GPU is up; the caller
	 * decodes on the CPU).  members_decode() returns 1 when every member
	 * decoded to its ISIZE and CRC-32, 0 when not (the caller decodes
	 * the batch itself, from in, then releases it), -1 when the backend
	 * failed.  members_count() queues the count of its output as
	 * input's next bytes (cut.from, cut.to, cut.phase as for a chunk);
	 * the batch may then be filled and decoded again.
	 * members_release() gives the batch back (counted or not). */
	struct gh_members *(*members_acquire)(struct gh_backend *b);
	int (*members_decode)(struct gh_backend *b, struct gh_members *m);
	int (*members_count)(struct gh_backend *b, int input,
			     struct gh_members *m);
	void (*members_release)(struct gh_backend *b, struct gh_members *m);
};

struct gh_backend {
	const char *name;          /* "cpu" or "gpu" */
	const struct gh_backend_ops *ops;
	uint64_t chunk_bytes;      /* room of each chunk it owns (auto hands
				    * out the CPU's and the GPU's chunks) */
	bool chars;                /* counts code points, not bytes: each
				    * chunk's positions [from, to) */
	bool stats;                /* also each chunk's stream sums, its
				    * groups from its phase */
	bool tokens;               /* counts the tokens inside its chunks
				    * itself (gh_chunk.tokens: the GPU's
				    * kernels); else submit.c counts them */
	uint64_t stream_bytes;     /* at most this much of one of its chunks
				    * from a plain stream read in order (a
				    * pipe); 0: all */
	char detail[512];          /* what runs, for -v */
	char error[256];           /* why the first failed call failed */
	/* The run's seconds left, as far as its files' sizes tell (< 0: not
	 * known); set by the caller after opening, read by auto. */
	double (*seconds_left)(void *ctx);
	void *left_ctx;
	/* Nonzero once the count is cancelled: gh_submit() then takes no
	 * more chunks.  Set by the caller after opening; may be NULL. */
	const atomic_int *cancel;
};

/* Under auto, regular files of at least this many bytes a counting thread
 * start a GPU at once.  A GPU costs 0.35 s to start and to close, and on
 * page-cached text a CPU thread counts 1.3-2.5 GB/s: below this the CPU is
 * done first (bench/NOTES.md). */
#define GH_AUTO_GPU_BYTES_PER_THREAD ((uint64_t)512 << 20)
/* Under auto, regular files of at least this many bytes a counting thread
 * are counted by the GPU alone for words or lines it would count itself
 * (below): 16 CPU threads count a GiB of a log's words or lines in
 * 0.4-2.1 s, the GPU in 0.1-0.5 s once up, 0.45 s after its start (an
 * H200 host; bench/NOTES.md); the GPU is ahead past 1.4-1.8 GiB on the
 * shapes whose tokens repeat, and at once where they seldom do.  (A field
 * of few values is counted as fast as bytes: its rule is theirs.) */
#define GH_AUTO_GPU_TOKEN_BYTES_PER_THREAD ((uint64_t)128 << 20)
/* ... and for the words or lines of one input that asks only for its
 * commonest (tokens_top), which the device picks without copying every
 * distinct one back: at least this many a thread (words; lines) and
 * GH_AUTO_GPU_TOP_BYTES in all.  The GPU alone takes 0.45-0.6 s whole for
 * 0.5-2 GiB, most of it its start; 16 threads, since session 27's mend,
 * count a GiB's words in 0.32-0.60 s and its lines in 0.23-0.54 s, 2 GiB's
 * in 0.55-1.09 s and 0.38-0.98 s (H200 host, bench/NOTES.md "Session 28"):
 * the GPU is ahead on most shapes from 1.5 GiB of words and 2 GiB of
 * lines on 16 threads. */
#define GH_AUTO_GPU_TOP_WORDS_BYTES_PER_THREAD ((uint64_t)96 << 20)
#define GH_AUTO_GPU_TOP_LINES_BYTES_PER_THREAD ((uint64_t)128 << 20)
#define GH_AUTO_GPU_TOP_BYTES ((uint64_t)512 << 20)
/* ... and the same through a decoder, the text's size guessed from the
 * disk's (GH_COMPRESSED_RATIO): a GiB of a log in gzip -6 took the GPU
 * alone 0.58-0.82 s, 16 cores decoding and counting 0.69-1.95 s, and the GPU
 * after its start counted at the decoder's speed (H200 host,
 * bench/NOTES.md "Session 21"): from 120 MiB on disk on 16 threads. */
#define GH_AUTO_GPU_TOP_PACKED_BYTES_PER_THREAD ((uint64_t)30 << 20)
#define GH_AUTO_GPU_TOP_PACKED_BYTES ((uint64_t)480 << 20)

/* Under auto, the most that decoders fill while the GPU starts, for it to
 * count alone (backend_auto.c, stage.c): a GPU start of 0.25-0.45 s at
 * the parallel decoders' 3-5 GB/s.  Given back once the GPU has it. */
#define GH_STAGE_BYTES ((uint64_t)1 << 30)

/* A GPU chunk, unless the user chose one (also the stage's and, with a
 * stage, the CPU's): 4 MiB.  On an H200, 8 GiB streamed at 50 GB/s with
 * 4 MiB chunks, 37-41 with 16 MiB, and the smaller pinned ring starts
 * faster. */
#define GH_GPU_CHUNK_DEFAULT ((uint64_t)4 << 20)

/* Under a --memory of less than this the host counts the tokens: the
 * device's tables are emptied through host memory it does not count. */
#define GH_TOK_MEMORY_LEAST ((uint64_t)64 << 20)

/* Why the GPU would not count opts' tokens itself (NULL: it would, given
 * chunks of 16 MiB at most and room on the device): a key of several
 * fields or of JSON lines, counts per interval, bytes as tokens, a tight
 * --memory. */
static inline const char *
gh_tokens_gpu_why_not(const struct gpuhist_options *opts)
{
	/* The kernels cut one field: a key of several is the host's. */
	if (opts->n_fields > 1)
		return "a key of several fields";
	if (opts->tokens == GPUHIST_TOKENS_KEY)
		return "a key of JSON lines";
	if (opts->per)
		return "counts per interval of time";
	if (opts->tokens == GPUHIST_TOKENS_BYTES)
		return "bytes as tokens (the byte views count them)";
	if (opts->tokens == GPUHIST_TOKENS_CHARS)
		return "characters as tokens (-m counts them)";
	if (opts->memory && opts->memory < GH_TOK_MEMORY_LEAST)
		return "--memory under 64 MiB";
	return NULL;
}

/* Under auto, a stream starts a GPU once readers have waited this long
 * within one second for the CPU to free a chunk: the CPU is behind. */
#define GH_AUTO_BEHIND_SECS 0.010
/* Under --backend=gpu, files that auto would count on the CPU alone start
 * the GPU once the run has gone on this long: a run over sooner (one
 * 64 MiB .gz: 0.03 s on 16 cores) does not wait for the driver. */
#define GH_GPU_LATE_START_SECS 0.5
/* ... and then only while the run has this long left, or more (or no
 * telling): a GPU up 0.25-0.3 s later must have work left to do, and a
 * start still under way at the end holds the process in the driver. */
#define GH_GPU_WORTH_SECS 0.5

/* Reader threads for a regular file: opts->threads, at most
 * GH_READERS_PER_DEVICE for each device named (16 fill one H200), and
 * never more than GH_READERS_MAX (chunk.h).  opts->threads is resolved (not 0). */
#define GH_READERS_PER_DEVICE 16
static inline int gh_readers(const struct gpuhist_options *opts)
{
	int devices = opts->all_devices ? GPUHIST_DEVICES_MAX
		      : opts->n_devices > 1 ? opts->n_devices : 1;
	int most = GH_READERS_PER_DEVICE * devices;

	if (most > GH_READERS_MAX)
		most = GH_READERS_MAX;
	return opts->threads < most ? opts->threads : most;
}

#endif
