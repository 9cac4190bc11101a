/* zstd_parallel.h - a zstd file of several frames decoded on several cores */
#ifndef GH_ZSTD_PARALLEL_H
#define GH_ZSTD_PARALLEL_H

#include <stdint.h>

#include "backend.h"
#include "submit.h"
#include "gzip_parallel.h"

enum gh_zstd_parallel_result {
	GH_ZSTDP_DONE,          /* counted: every frame decoded and checked */
	GH_ZSTDP_ONE_FRAME,     /* nothing done: the file is one frame, which
				 * decodes in order; decode it serially */
	GH_ZSTDP_SERIAL,        /* not decoded: the data is invalid or a read
				 * or memory failed; what was submitted must
				 * not count; the serial decoder gives the
				 * verdict */
	GH_ZSTDP_BACKEND,       /* the backend failed (b->error) */
};

/*
 * Decodes the zstd frames in bytes [start, start + size) of the regular
 * file fd, each frame by one of `threads` threads, into chunks submitted
 * to input `input` of backend b (begun for that many readers), cut at
 * their edges by joins (NULL: none; for code points each frame is a piece
 * of its own).  Frames are independent (each has its own window), so any
 * thread may decode any frame and the histogram does not care in which
 * order.  Statistics need each chunk's offset in the input, so there
 * every frame must declare its content size (zstd's own files do; pzstd's
 * and streamed ones may not): else GH_ZSTDP_SERIAL.  progress is
 * told of decoded bytes and how far into the file the frames are handed
 * out; *frames gets how many frames there were.
 */
enum gh_zstd_parallel_result gh_zstd_parallel(struct gh_backend *b, int input,
					      const struct gh_joins *joins,
					      int fd, uint64_t start,
					      uint64_t size, int threads,
					      gh_gzip_progress_fn progress,
					      void *ctx, uint64_t *frames);

#endif
