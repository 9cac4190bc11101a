/* choose.h - the backend that the options ask for */
#ifndef GH_CHOOSE_H
#define GH_CHOOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/*
 * The backend that opts->backend asks for.  For "auto": on regular files of
 * file_bytes in all, at least GH_AUTO_GPU_BYTES_PER_THREAD a thread, the
 * CPU until a GPU has started and then the GPU; for words or lines of one
 * file (of `inputs`) of GH_AUTO_GPU_TOKEN_BYTES_PER_THREAD a thread or
 * more (of one asking for its commonest alone, opts->tokens_top:
 * GH_AUTO_GPU_TOP_WORDS_BYTES_PER_THREAD or _LINES_ and
 * GH_AUTO_GPU_TOP_BYTES, or the
 * _PACKED_ pair where file_bytes, an estimate, exceeds the disk_bytes
 * they are read from) that
 * the GPU would count itself, the GPU alone once started (the
 * CPU where it does not start); with inputs of unknown size (unsized:
 * streams), the CPU, and a GPU too if the CPU falls behind; else the CPU
 * alone.  (Where no GPU can start, the CPU throughout.)  For "gpu": the
 * CPU until a GPU has started, and then the GPU.
 * NULL, with "GPU backend unusable: why" (or the CPU's) in why, when the
 * requested one cannot count.
 */
struct gh_backend *gh_backend_choose(const struct gpuhist_options *opts,
				     uint64_t file_bytes, uint64_t disk_bytes,
				     bool unsized, int inputs, char *why,
				     size_t why_len);

#endif
