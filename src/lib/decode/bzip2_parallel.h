/* bzip2_parallel.h - a bzip2 file's blocks decoded on several cores */
#ifndef GH_BZIP2_PARALLEL_H
#define GH_BZIP2_PARALLEL_H

#include "decoder.h"

/*
 * Decodes the bzip2 streams of job's file span, each block by one of its
 * threads, into chunks submitted to its input, cut at their edges by its
 * joins (each block a piece).  Blocks do not say how many bytes they
 * decode to, so statistics (which need each chunk's offset) get
 * GH_PIECES_SERIAL, as does anything the serial decoder must judge
 * (trailing garbage, a file cut short, invalid data); a file of one block
 * or none, GH_PIECES_IN_ORDER.
 */
enum gh_pieces_result gh_bzip2_pieces(struct gh_pieces_job *job);

#endif
