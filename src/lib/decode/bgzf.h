/* bgzf.h - a gzip file of members that carry their own size (BGZF)
 * decoded member by member on several cores */
#ifndef GH_BGZF_H
#define GH_BGZF_H

#include <stdbool.h>
#include <stdint.h>

#include "decoder.h"

/* Whether the gzip data in bytes [start, start + size) of fd begins with a
 * member that carries its size (BGZF's "BC" extra subfield). */
bool gh_bgzf_is(int fd, uint64_t start, uint64_t size);

/* Decodes job's file span member by member with its threads (zlib, which
 * checks each member's CRC-32 and length), into chunks submitted to its
 * input, cut at their edges by its joins (each batch of members a piece).
 * Anything but members that carry their size: GH_PIECES_SERIAL. */
enum gh_pieces_result gh_bgzf_pieces(struct gh_pieces_job *job);

#endif
