/* source.h - one input: a file, a descriptor or memory, plain or compressed, read in chunks */
#ifndef GH_SOURCE_H
#define GH_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/decoder.h"
#include "gpuhist.h"
#include "notes.h"

struct gh_source;

/* Opens what input names (a path, "-" for stdin; a descriptor the caller
 * has open already, read from where it stands and left open; or memory,
 * which must stay until gh_source_close()) and tells its format from its
 * first bytes unless raw; a decoder may use `threads` threads.  What goes
 * wrong, now or later, is noted in notes as "NAME: reason"; NULL on
 * failure. */
struct gh_source *gh_source_open(const struct gpuhist_input *input, bool raw,
				 int threads, struct gh_notes *notes);

/* Fills buf with up to cap bytes of (decoded) data, as many as the input
 * has: fewer only at its end.  Returns the count (0 at the end), or -1
 * after noting "NAME: reason". */
int64_t gh_source_fill(struct gh_source *src, unsigned char *buf, uint64_t cap);

/* Whether the input is plain bytes in a regular file, which several
 * threads can read at once with gh_source_pread(). */
bool gh_source_can_pread(const struct gh_source *src);

/* Like gh_source_fill(), but from byte `offset` of the input, safe to call
 * from several threads at once, and silent: -1 leaves errno for the caller
 * to report once. */
int64_t gh_source_pread(struct gh_source *src, unsigned char *buf,
			uint64_t cap, uint64_t offset);

/* After reading with gh_source_pread(): puts the file offset just after the
 * `bytes` counted, where sequential reads would have left it, so that a
 * shared descriptor (stdin given as "- -", or to the shell's next command)
 * goes on from there. */
void gh_source_pread_end(struct gh_source *src, uint64_t bytes);

/* Size on disk when known (a regular file), else 0; and how much of it has
 * been read so far, for the progress meter. */
uint64_t gh_source_size(const struct gh_source *src);
uint64_t gh_source_consumed(const struct gh_source *src);

/* How the input is decoded, for -v; NULL for plain input. */
const struct gh_decoding *gh_source_decoding(const struct gh_source *src);

/* Threads with which to decode the input in independent pieces (a regular
 * file whose format splits), of `threads` at hand; 0: read it in order. */
int gh_source_pieces_threads(const struct gh_source *src, int threads);

/* Decodes it so (job's file span filled in here); after GH_PIECES_DONE
 * the file offset is past the input, as after reading it in order. */
enum gh_pieces_result gh_source_pieces(struct gh_source *src,
				       struct gh_pieces_job *job);

/* Decodes the input from its first byte again, in order, with the
 * strictest engine (after decoding in pieces gave up: the input is bad or
 * a read failed, and this decoder's verdict and message are the tool's;
 * gzip with zlib, whose verdict is gzip -dc's); -1 after noting why. */
int gh_source_restart(struct gh_source *src);

/* Closes; returns -1 after noting why if close() failed. */
int gh_source_close(struct gh_source *src);

#endif
