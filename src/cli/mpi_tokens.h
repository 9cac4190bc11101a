/* mpi_tokens.h - the tokens views under mpirun: each operand's tokens,
 * counted whole by one rank, sent to rank 0 (mpi_tokens.c) */
#ifndef GH_MPI_TOKENS_H
#define GH_MPI_TOKENS_H

#include "gpuhist.h"

/* Moves the tokens of a batch's n operands to rank 0: sums[i] (on the
 * rank owner[i] >= 0 that counted operand i; NULL where it failed) is sent
 * in blocks and added into a new sum on rank 0, made with the memory
 * limits of opts (rank 0's own stay as they are).  Point to point between
 * each owner and rank 0, in operand order, before the ranks agree on
 * which operands failed: failed[i] is set (and why said) on the rank where
 * sending or taking operand i's tokens failed (out of memory, a spill). */
void gh_mpi_send_tokens(gpuhist_token_sum **sums, const int *owner, int n,
			int rank, const struct gpuhist_options *opts,
			int *failed);

#endif
