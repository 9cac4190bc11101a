/* pipeline.h - inputs through the chunks into the backend, several at once */
#ifndef GH_PIPELINE_H
#define GH_PIPELINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "decode/decoder.h"
#include "gpuhist.h"
#include "match.h"

/* What the pipeline counts with, and what it has done, in one place. */
struct gh_run {
	const struct gpuhist_options *opts;     /* threads resolved */
	struct gh_match *match;             /* the lines counted (match.h),
					     * NULL: all */
	struct gh_backend *backend;
	double opened;                      /* gh_now() when the counter opened */
	atomic_uint_least64_t bytes_done;   /* all inputs so far */
	atomic_uint_least64_t read_done;    /* their bytes read (compressed,
					     * for compressed files) */
	uint64_t disk_bytes;                /* all the first count's inputs'
					     * sizes, if all are sized; else 0 */
	_Atomic(const struct gh_decoding *) decoding;   /* of the last
					     * compressed input, if any */
	pthread_mutex_t cancel_lock;        /* orders counting and cancel's
					     * changes (not their reads) */
	atomic_int counting;                /* a count (or a push) is under way */
	atomic_int cancel;                  /* ... and is cancelled (the
					     * backend's cancel points here) */
};

/* Counts the n inputs of list, several at once, handing each result to
 * fn in order from the calling thread; returns how many failed, or -1
 * with why[why_len] set when none could be counted (no thread started),
 * or -2 with why set when the backend turned out unable to count
 * (--backend=gpu whose GPU did not start: nothing was handed to fn). */
int gh_count_inputs(struct gh_run *run, const struct gpuhist_input *list,
		    int n, gpuhist_result_fn fn, void *ctx, char *why,
		    size_t why_len);

/* The run's seconds left by its inputs' sizes (disk_bytes) and what is
 * read of them at its pace so far; < 0 when that does not tell.  ctx: the
 * struct gh_run (the backend's seconds_left). */
double gh_run_seconds_left(void *ctx);

/* The bytes of the regular files among the inputs (a range's length, a
 * buffer's size; a compressed file of GH_SNIFF_BYTES or more, unless raw,
 * GH_COMPRESSED_RATIO times its size on disk), and in *unsized whether
 * any is of unknown size (standard input, a FIFO, a device): what auto
 * goes by; in *disk their sizes as they are.  (A compressed file is not counted as unsized: where the CPU
 * decodes and counts, its counting threads fall behind, yet a GPU started
 * for a file the cores finish in a third of a second only slows them.) */
uint64_t gh_inputs_bytes(const struct gpuhist_input *list, int n, bool raw,
			 bool *unsized, uint64_t *disk);

/* Regular files this big or more are looked into for a compressed format
 * by gh_inputs_bytes(); smaller ones cannot repay a GPU. */
#define GH_SNIFF_BYTES ((uint64_t)1 << 20)
/* What a compressed file is taken to decode to, times its size on disk,
 * before it is decoded: gzip -6 makes log text 4 to 10 times smaller. */
#define GH_COMPRESSED_RATIO 4

#endif
