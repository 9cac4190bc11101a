/* gzip_parallel.h - one gzip file decoded on several cores at once */
#ifndef GH_GZIP_PARALLEL_H
#define GH_GZIP_PARALLEL_H

#include <stdint.h>

#include "decoder.h"

/* The most compressed bytes a task decodes in a file of `size` bytes with
 * `threads` threads (GPUHIST_GZIP_REGION sets every task's, for tests);
 * gh_gzip_pieces cuts smaller ones where the data packs tighter.  Files
 * of fewer than four such regions are decoded serially: starting threads
 * and looking for block starts would cost more than it saves. */
uint64_t gh_gzip_region(uint64_t size, int threads);

/* Threads from which decoding in parallel beats the serial inflater
 * `engine` ("isa-l" or "zlib"): one core of the parallel decoder does
 * about half of what ISA-L does, and more than zlib (bench/NOTES.md). */
int gh_gzip_parallel_threads(const char *engine);

/*
 * Decodes the gzip data of job's file span with its threads, into chunks
 * submitted to its input (begun for that many readers), cut at their edges
 * by its joins (for code points each task's output is a piece of its own,
 * and every chunk's offset in the input is known, for statistics).  Reads
 * with pread(), so the file offset is not used.  GH_PIECES_DONE: every
 * member's CRC and length good.
 */
enum gh_pieces_result gh_gzip_pieces(struct gh_pieces_job *job);

#endif
