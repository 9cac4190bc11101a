/* bgzf_parallel.h - a BGZF file's members decoded on several cores */
#ifndef GH_BGZF_PARALLEL_H
#define GH_BGZF_PARALLEL_H

#include <stdint.h>

#include "decoder.h"

/* The length of the BGZF member whose first avail bytes are at p (its
 * "BC" extra subfield), or 0 when they do not begin one. */
uint64_t gh_bgzf_member_length(const unsigned char *p, uint64_t avail);

/*
 * Decodes the BGZF members of job's file span with its threads, batches
 * of whole members each, into chunks submitted to its input, cut at their
 * edges by its joins (each batch a piece; its offset from the members'
 * sizes).  GH_PIECES_SERIAL where the span is not BGZF members throughout
 * or one does not decode as it says.
 */
enum gh_pieces_result gh_bgzf_pieces(struct gh_pieces_job *job);

#endif
