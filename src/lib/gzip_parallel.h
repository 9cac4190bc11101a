/* gzip_parallel.h - one gzip file decoded on several cores at once */
#ifndef GH_GZIP_PARALLEL_H
#define GH_GZIP_PARALLEL_H

#include <stdatomic.h>
#include <stdint.h>

#include "backend.h"
#include "submit.h"

/* Compressed bytes a task decodes in a file of `size` bytes with `threads`
 * threads (GPUHIST_GZIP_REGION sets it, for tests).  Files of fewer than
 * four regions are decoded serially: starting threads and looking for
 * block starts would cost more than it saves. */
uint64_t gh_gzip_region(uint64_t size, int threads);

/* Threads from which decoding in parallel beats the serial inflater
 * `engine` ("isa-l" or "zlib"): one core of the parallel decoder does
 * about half of what ISA-L does, and more than zlib (bench/NOTES.md). */
int gh_gzip_parallel_threads(const char *engine);

/* What -v says of a parallel decoding. */
struct gh_gzip_stats {
	atomic_uint_least64_t tasks;    /* regions of the file */
	atomic_uint_least64_t guessed;  /* decoded from a start guessed right */
	atomic_uint_least64_t redone;   /* decoded again, from the true start */
};

/* Told, now and then, how many decoded bytes went to the backend since
 * the last call, and how far into the compressed file decoding is. */
typedef void (*gh_gzip_progress_fn)(void *ctx, uint64_t bytes,
				     uint64_t consumed);

enum gh_gzip_parallel_result {
	GH_GZP_DONE,            /* counted: every member's CRC and length good */
	GH_GZP_SERIAL,          /* not decoded: the data is invalid, or memory
				 * or a read failed; what was submitted must
				 * not count; the serial decoder gives the
				 * verdict */
	GH_GZP_BACKEND,         /* the backend failed (b->error) */
};

/*
 * Decodes the gzip data in bytes [start, start + size) of the regular
 * file fd, with `threads` threads, into chunks submitted to input `input`
 * of backend b (begun for that many readers), cut at their edges by
 * joins (NULL: none; for code points each task's output is a piece of its
 * own, and every chunk's offset in the input is known, for statistics).
 * Reads with pread(), so the file offset is not used.
 */
enum gh_gzip_parallel_result gh_gzip_parallel(struct gh_backend *b, int input,
					      const struct gh_joins *joins,
					      int fd, uint64_t start,
					      uint64_t size, int threads,
					      gh_gzip_progress_fn progress,
					      void *ctx, struct gh_gzip_stats *stats);

#endif
