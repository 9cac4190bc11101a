/* lz4_parallel.h - the independent blocks of lz4 frames decoded on several
 * cores */
#ifndef GH_LZ4_PARALLEL_H
#define GH_LZ4_PARALLEL_H

#include "decoder.h"

/*
 * Decodes the lz4 frames of job's file span, each block by one of its
 * threads, into chunks submitted to its input, cut at their edges by its
 * joins (each block a piece).  Only frames of independent blocks (lz4's
 * default) split; blocks do not say how many bytes they decode to, so
 * statistics (which need each chunk's offset) get GH_PIECES_SERIAL.  A
 * file with a frame of linked blocks, a dictionary, a legacy frame,
 * anything after the frames, a header or block that is not as lz4 writes
 * it (a stored block of no bytes, blocks of a few bytes), or fewer than
 * two blocks: GH_PIECES_IN_ORDER, nothing done, and the
 * serial decoder gives the verdict.  A block or checksum that proves bad
 * once decoding began: GH_PIECES_SERIAL.
 */
enum gh_pieces_result gh_lz4_pieces(struct gh_pieces_job *job);

#endif
