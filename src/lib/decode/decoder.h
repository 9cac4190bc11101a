/* decoder.h - the one seam for compressed formats: a decoder's const ops table
 *
 * A format is one file (gzip.c, zstd.c, xz.c, bzip2.c, lz4.c) that fills in
 * one struct gh_decoder, and one row of formats.c that tells its first
 * bytes and names that decoder.  source.c opens and reads any of them through this table alone;
 * pipeline.c schedules the pieces of those that can split a regular file
 * (pieces, below) and never names a format.
 */
#ifndef GH_DECODER_H
#define GH_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "join/sink.h"

/* How an input was decoded, for -v: a static pair. */
struct gh_decoding {
	const char *format;         /* "gzip", "zstd", ... */
	const char *decoder;        /* "isa-l", "libzstd", ... */
};

/* Where a decoder reads its compressed bytes: a descriptor (fd >= 0), after
 * primed_len bytes already read from it and handed over in primed; or
 * mem_len bytes of memory at mem (fd -1). */
struct gh_packed_from {
	int fd;
	const unsigned char *mem;
	uint64_t mem_len;
	const unsigned char *primed;
	unsigned primed_len;
	int threads;                /* how many a decoder may use (xz) */
	/* Whether the data of another format this build decodes starts at p
	 * (source.c's formats.c lookup): a decoder that goes on to another
	 * format where its own frames end (zstd, as zstd -dc does) stops
	 * there and hands the rest over (followed); NULL: none. */
	bool (*decodes)(const unsigned char *p, size_t len);
	bool strict;                /* decoding again for the verdict: the
				     * strictest engine (gzip: zlib) */
};

/* Told, now and then, how many decoded bytes went to the backend since the
 * last call, and how far into the compressed file decoding is (0: no
 * news). */
typedef void (*gh_pieces_progress_fn)(void *ctx, uint64_t bytes,
				      uint64_t consumed);

/* A regular file's compressed bytes: [start, start + size) of fd, read
 * with pread() only. */
struct gh_file_span {
	int fd;
	uint64_t start, size;
};

/* A regular file decoded in independent pieces on several threads. */
struct gh_pieces_job {
	struct gh_sink sink;        /* where the chunks go: its input begun
				     * for `threads` readers */
	int fd;                     /* read with pread() only */
	uint64_t start, size;       /* the compressed bytes in the file */
	int threads;
	gh_pieces_progress_fn progress;
	void *ctx;
	bool timing;                /* say where the time went (-v) */
	int attempt;                /* 0, then 1 after `again`... */
	/* Filled in by the decoder: */
	bool again;                 /* with GH_PIECES_SERIAL: nothing counts,
				     * but try pieces once more (attempt + 1)
				     * another way before the serial decoder */
	const char *why;            /* GH_PIECES_FAILED: the reason (static,
				     * or the backend's error); SERIAL: why
				     * not in parallel, where that is no
				     * fault of the data (static), or NULL */
	const struct gh_decoding *decoding;     /* what decoded it, for -v */
	char summary[640];          /* what -v says of it: "N regions ..." */
	char why_text[256];         /* room for a why made up here */
};

enum gh_pieces_result {
	GH_PIECES_DONE,         /* counted and checked */
	GH_PIECES_IN_ORDER,     /* nothing done: the file does not split (one
				 * zstd frame); decode it in order */
	GH_PIECES_SERIAL,       /* given up: the data is invalid, or a read or
				 * memory failed; what was submitted must not
				 * count, and the serial decoder, from the
				 * first byte, gives the verdict */
	GH_PIECES_FAILED,       /* the backend (or memory for the chunks'
				 * edges) failed: job->why */
};

struct gh_decoder {
	/* A decoder of what `from` holds, or NULL with the reason in *why. */
	void *(*open)(const struct gh_packed_from *from, const char **why);
	/* Decodes up to cap (at most 1 GiB) bytes into out: the count (0 only
	 * at the clean end), or -1 with the reason in *why (static; NULL for
	 * a read error, errno set).  *warning, when set, is something to say
	 * once of an input that still succeeds. */
	int64_t (*read)(void *d, unsigned char *out, uint64_t cap,
			const char **why, const char **warning);
	/* Compressed bytes read so far, for the progress meter. */
	uint64_t (*consumed)(const void *d);
	/* What decodes it, for -v. */
	const struct gh_decoding *(*decoding)(const void *d);
	void (*free)(void *d);
	/* NULL, or whether read() stopped (short of its cap) because data
	 * of another format follows (from->decodes said so): then true,
	 * with the rest of the input, *len bytes at *rest (the bytes read
	 * past its end, from a descriptor, which goes on after them; or the
	 * rest of the memory), of which *counted were counted as consumed. */
	bool (*followed)(void *d, const unsigned char **rest, uint64_t *len,
			 uint64_t *counted);
	/* What may decode it, for --version -v ("ISA-L, zlib"), or NULL. */
	const char *engines;

	/* NULL where the format does not split.  Else the threads with which
	 * to decode the regular file `file` in pieces, of `threads` at hand
	 * (d: the serial decoder, opened already; the file may be looked
	 * into with pread()); 0: decode it in order. */
	int (*pieces_threads)(const void *d, const struct gh_file_span *file,
			      int threads);
	enum gh_pieces_result (*pieces)(struct gh_pieces_job *job);
};

#endif
