/* mpi_views.h - what -m and --stats add to the ranks' shares under mpirun
 * (mpi_views.c): stream sums joined across ranges, code points gathered */
#ifndef GH_MPI_VIEWS_H
#define GH_MPI_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"

/* Where the ranges that split a file begin: pages (no two ranks read one)
 * and whole Monte Carlo groups of six bytes. */
#define GH_MPI_RANGE_ALIGN ((uint64_t)3 * 4096)

/* Makes s, the stream sums of bytes [lo, hi) of the file path (size
 * bytes) counted as a stream of their own, this range's part of the
 * file's: its last byte paired with the next byte of the file (its first
 * byte, after the last range) instead of its own first.  0, or -1 with
 * errno set when a byte cannot be read. */
int gh_mpi_join_range(const char *path, uint64_t lo, uint64_t hi,
		      uint64_t size, struct gpuhist_stream *s);

/* Adds every rank's chars[0..n) (the code points of a batch's operands)
 * into rank 0's; collective.  0, or -1 (on rank 0) when a rank was out of
 * memory. */
int gh_mpi_gather_chars(struct gpuhist_chars *chars, int n, int rank,
			int size);

#endif
