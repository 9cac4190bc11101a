/* choose.h - the backend that the options ask for */
#ifndef GH_CHOOSE_H
#define GH_CHOOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* Under auto, regular files of at least this many bytes a counting thread
 * are counted by the GPU alone for words or lines it would count itself
 * (below): 16 CPU threads count a GiB of a log's words or lines in
 * 0.4-2.1 s, the GPU in 0.1-0.5 s once up, 0.45 s after its start (an
 * H200 host; bench/NOTES.md); the GPU is ahead past 1.4-1.8 GiB on the
 * shapes whose tokens repeat, and at once where they seldom do.  (A field
 * of few values is counted as fast as bytes: its rule is theirs.) */
#define GH_AUTO_GPU_TOKEN_BYTES_PER_THREAD ((uint64_t)128 << 20)

/* Why the GPU would not count opts' tokens itself (NULL: it would, given
 * chunks of 16 MiB at most and room on the device): a key of several
 * fields or of JSON lines, counts per interval, a tight --memory. */
const char *gh_tokens_gpu_why_not(const struct gpuhist_options *opts);

/*
 * The backend that opts->backend asks for.  For "auto": on regular files of
 * file_bytes in all, at least GH_AUTO_GPU_BYTES_PER_THREAD a thread (or
 * GH_AUTO_GPU_TOKEN_BYTES_PER_THREAD for words or lines the GPU counts:
 * then the GPU alone), the CPU until a GPU has started and then the GPU;
 * with inputs of unknown
 * size (unsized: streams), the CPU, and a GPU too if the CPU falls
 * behind; else the CPU alone.  (Where
 * no GPU can start, the CPU throughout.)  For "gpu": the CPU until a GPU
 * has started, and then the GPU.
 * NULL, with "GPU backend unusable: why" (or the CPU's) in why, when the
 * requested one cannot count.
 */
struct gh_backend *gh_backend_choose(const struct gpuhist_options *opts,
				     uint64_t file_bytes, bool unsized,
				     char *why, size_t why_len);

#endif
