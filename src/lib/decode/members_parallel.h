/* members_parallel.h - a gzip file of many members decoded on several cores */
#ifndef GH_MEMBERS_PARALLEL_H
#define GH_MEMBERS_PARALLEL_H

#include "decoder.h"

/* The threads with which to decode file by segments of whole members:
 * `threads` where it can be cut at member headers (more than one
 * segment), else 0.  Reads a little of the file at a few points. */
int gh_members_threads(const struct gh_file_span *file, int threads);

/*
 * Decodes job's gzip file in segments of whole members, one thread each
 * (see members_parallel.c): GH_PIECES_DONE; GH_PIECES_IN_ORDER, nothing
 * done, where no cut is found or statistics are counted; GH_PIECES_SERIAL
 * where a cut or a member is not as the serial decoder would read it.
 */
enum gh_pieces_result gh_members_pieces(struct gh_pieces_job *job);

#endif
