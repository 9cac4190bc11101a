/* source.h - one input: a file, a descriptor or memory, plain or gzip, read in chunks */
#ifndef GH_SOURCE_H
#define GH_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "notes.h"

struct gh_source;

/* Opens NAME ("-" is stdin) and looks for the magic bytes of gzip, zstd,
 * xz and bzip2 unless raw; an xz decoder may use `threads` threads.  What
 * goes wrong, now or later, is noted in notes as "NAME: reason"; NULL on
 * failure. */
struct gh_source *gh_source_open(const char *name, bool raw, int threads,
				 struct gh_notes *notes);

/* The same for a descriptor the caller has open already: read from where
 * it stands, left open by gh_source_close(), and NAME used only in
 * messages. */
struct gh_source *gh_source_open_fd(const char *name, int fd, bool raw,
				    int threads, struct gh_notes *notes);

/* The same for size bytes of memory at data, which must stay until
 * gh_source_close(). */
struct gh_source *gh_source_open_mem(const char *name, const void *data,
				     uint64_t size, bool raw, int threads,
				     struct gh_notes *notes);

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
/* "isa-l" or "zlib" for gzip input, NULL for other input. */
const char *gh_source_gzip_engine(const struct gh_source *src);
/* What decodes the input ("isa-l", "libzstd", ...), with its format in
 * *format ("gzip", "zstd", "xz", "bzip2"); NULL for plain input. */
const char *gh_source_decoder(const struct gh_source *src,
			      const char **format);

/* Whether the input is gzip in a regular file, which gzip_parallel.c can
 * decode with several threads: its descriptor, where the gzip data begins
 * in it, and how many bytes it has from there. */
bool gh_source_gzip_file(const struct gh_source *src, int *fd,
			 uint64_t *start, uint64_t *size);

/* The same for zstd in a regular file, which zstd_parallel.c can decode
 * frame by frame on several threads. */
bool gh_source_zstd_file(const struct gh_source *src, int *fd,
			 uint64_t *start, uint64_t *size);

/* Decodes a gzip or zstd file from its first byte again, serially (after
 * the parallel decoder gave up: the input is bad or a read failed, and
 * the serial decoder's verdict and message are the tool's; gzip with
 * zlib, whose verdict is gzip -dc's); -1 after noting why. */
int gh_source_restart(struct gh_source *src);

/* Closes; returns -1 after noting why if close() failed. */
int gh_source_close(struct gh_source *src);

#endif
