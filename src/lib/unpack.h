/* unpack.h - zstd, xz and bzip2 streams decoded in order, from a
 * descriptor or from memory, by their Debian libraries
 *
 * Every frame, stream or member is decoded, exactly as zstd -dc, xz -dc
 * and bzip2 -dc decode them: concatenated ones in full, xz's stream
 * padding, bzip2's trailing garbage ignored with a warning (as bzip2
 * does), anything else they refuse refused.  A format left out of the
 * build (configure --without-zstd, ...) is refused with a message naming
 * what to install.
 */
#ifndef GH_UNPACK_H
#define GH_UNPACK_H

#include <stdbool.h>
#include <stdint.h>

enum gh_packed { GH_PACKED_ZSTD, GH_PACKED_XZ, GH_PACKED_BZIP2 };

/* The format's name: "zstd", "xz" or "bzip2". */
const char *gh_packed_name(enum gh_packed kind);

/* Whether this build decodes the format. */
bool gh_packed_built(enum gh_packed kind);

struct gh_unpack;

/*
 * A decoder reading compressed bytes from fd (mem NULL) or the mem_len
 * bytes at mem; the first primed_len bytes of a descriptor's stream were
 * already read and are handed over in primed.  threads: how many an xz
 * decoder may use (1: in this thread).  NULL with the reason in *why when
 * it cannot start (the format not built in, out of memory).
 */
struct gh_unpack *gh_unpack_new(enum gh_packed kind, int fd,
				const unsigned char *mem, uint64_t mem_len,
				const unsigned char *primed,
				unsigned primed_len, int threads,
				const char **why);

/*
 * Decodes up to cap bytes into out: the count (0 only at the clean end),
 * or -1 with the reason in *why (a static string; NULL for a read error,
 * errno set).  *warning, when set, is something to say of an input that
 * still succeeds (bzip2's trailing garbage), once.
 */
int64_t gh_unpack_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		       const char **why, const char **warning);

/* Compressed bytes read so far (for the progress meter). */
uint64_t gh_unpack_consumed(const struct gh_unpack *u);

/* What decodes it, for -v, a static string: "libzstd", "liblzma",
 * "liblzma's threaded decoder", "libbz2". */
const char *gh_unpack_engine(const struct gh_unpack *u);

void gh_unpack_free(struct gh_unpack *u);

#endif
