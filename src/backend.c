/* backend.c - choosing the backend that --backend asks for */
#include <stdio.h>

#include "backend.h"
#include "config.h"
#include "msg.h"
#include "options.h"

struct gh_backend *gh_backend_choose(const struct gh_options *opts,
				     uint64_t file_bytes, bool streams)
{
	struct gh_backend *b;
	char why[256] = "";
	bool large = file_bytes / (uint64_t)opts->threads >=
		     GH_AUTO_GPU_BYTES_PER_THREAD;

	if (opts->backend == GH_BACKEND_AUTO && (large || streams)) {
		b = gh_backend_auto_open(opts, large, why, sizeof(why));
		if (!b)
			gh_msg("CPU backend unusable: %s", why);
		return b;
	}
	if (opts->backend == GH_BACKEND_GPU) {
		b = gh_backend_gpu_open(opts, why, sizeof(why));
		if (!b)
			gh_msg("GPU backend unusable: %s", why);
		return b;
	}
	b = gh_backend_cpu_open(opts, why, sizeof(why));
	if (!b)
		gh_msg("CPU backend unusable: %s", why);
	return b;
}

#ifndef HAVE_CUDA
int gh_gpu_device_count(char *why, size_t why_len)
{
	if (why)
		snprintf(why, why_len, "this gpuhist was built without CUDA");
	return 0;
}

struct gh_backend *gh_backend_gpu_open(const struct gh_options *opts,
				       char *why, size_t why_len)
{
	(void)opts;
	gh_gpu_device_count(why, why_len);
	return NULL;
}
#endif
