/* xz_parallel.h - the blocks of an xz file decoded on several cores */
#ifndef GH_XZ_PARALLEL_H
#define GH_XZ_PARALLEL_H

#include "decoder.h"

/* What xz's decoders may hold for their threads, in all: past it, fewer
 * threads (and at one, a single decoder in order). */
#define GH_XZ_THREADS_MEMORY ((uint64_t)1 << 30)

/*
 * Decodes the blocks of the xz file in job's span, each block by one of
 * its threads, into chunks submitted to its input, cut at their edges by
 * its joins (for code points each block is a piece of its own; for
 * statistics the index gives each block's offset).  Blocks are independent
 * (each has its own dictionary and check), so any thread may decode any
 * block.  A file of one block, or whose check cannot be verified here:
 * GH_PIECES_IN_ORDER.  Anything not as xz -dc would take it:
 * GH_PIECES_SERIAL.
 */
enum gh_pieces_result gh_xz_pieces(struct gh_pieces_job *job);

#endif
