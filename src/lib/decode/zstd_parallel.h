/* zstd_parallel.h - a zstd file of several frames decoded on several cores */
#ifndef GH_ZSTD_PARALLEL_H
#define GH_ZSTD_PARALLEL_H

#include "decoder.h"

/*
 * Decodes the zstd frames of job's file span, each frame by one of its
 * threads, into chunks submitted to its input, cut at their edges by its
 * joins (for code points each frame is a piece of its own).  Frames are
 * independent (each has its own window), so any thread may decode any
 * frame and the histogram does not care in which order.  Statistics need
 * each chunk's offset in the input, so there every frame must declare its
 * content size (zstd's own files do; pzstd's and streamed ones may not):
 * else GH_PIECES_SERIAL.  A file of one frame: GH_PIECES_IN_ORDER.
 */
enum gh_pieces_result gh_zstd_pieces(struct gh_pieces_job *job);

#endif
