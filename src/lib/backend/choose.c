/* choose.c - choosing the backend that the options ask for */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "choose.h"

struct gh_backend *gh_backend_choose(const struct gpuhist_options *opts,
				     uint64_t file_bytes, uint64_t disk_bytes,
				     bool unsized,
				     int inputs, char *why, size_t why_len)
{
	struct gh_backend *b;
	char reason[256] = "";
	const char *which = "CPU";
	bool words_or_lines = opts->tokens == GPUHIST_TOKENS_WORDS ||
			      opts->tokens == GPUHIST_TOKENS_LINES;
	/* Words or lines of one large file: the GPU alone, the CPU idle
	 * while it starts (the CPU's share, counted into the host's
	 * tables, slowed the GPU's start and the end more than it saved:
	 * bench/NOTES.md); several inputs at once would take turns at one
	 * table a device. */
	uint64_t per_thread = file_bytes / (uint64_t)opts->threads;
	/* Through a decoder the GPU counts as fast as the cores decode, and
	 * the cores would decode and count: it pays from less. */
	bool packed = file_bytes > disk_bytes;
	uint64_t top_per_thread =
		packed ? GH_AUTO_GPU_TOP_PACKED_BYTES_PER_THREAD :
		opts->tokens == GPUHIST_TOKENS_LINES ?
			GH_AUTO_GPU_TOP_LINES_BYTES_PER_THREAD :
			GH_AUTO_GPU_TOP_WORDS_BYTES_PER_THREAD;
	bool top = opts->tokens_top && per_thread >= top_per_thread &&
		   file_bytes >= (packed ? GH_AUTO_GPU_TOP_PACKED_BYTES :
					   GH_AUTO_GPU_TOP_BYTES);
	bool alone = opts->backend == GPUHIST_BACKEND_AUTO && words_or_lines &&
		     inputs == 1 && !gh_tokens_gpu_why_not(opts) &&
		     (per_thread >= GH_AUTO_GPU_TOKEN_BYTES_PER_THREAD ||
		      top);
	bool large = alone || file_bytes / (uint64_t)opts->threads >=
			      GH_AUTO_GPU_BYTES_PER_THREAD;

	if (opts->backend == GPUHIST_BACKEND_AUTO && (large || unsized)) {
		/* Decoders fill a stage while the GPU starts; readers of
		 * a plain file, at 10 GB/s and more, would gain nothing by
		 * it (bench/NOTES.md "Session 28"). */
		b = gh_backend_auto_open(opts, large, false, alone,
					 packed ? GH_STAGE_BYTES : 0, reason,
					 sizeof(reason));
	} else if (opts->backend == GPUHIST_BACKEND_GPU) {
		/* The CPU counts while the GPU starts (backend_auto.c), unless
		 * the GPU is to count everything (GPUHIST_GPU_ONLY=1: tests
		 * of the GPU's counting, which the CPU must not stand in for). */
		const char *only = getenv("GPUHIST_GPU_ONLY");

		if (only && !strcmp(only, "1"))
			b = gh_backend_gpu_open(opts, reason, sizeof(reason));
		else
			b = gh_backend_auto_open(opts, large || unsized, true,
						 false, 0, reason,
						 sizeof(reason));
		which = "GPU";
	} else {
		b = gh_backend_cpu_open(opts, reason, sizeof(reason));
	}
	if (!b)
		snprintf(why, why_len, "%s backend unusable: %s", which,
			 reason);
	return b;
}
