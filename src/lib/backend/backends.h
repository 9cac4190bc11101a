/* backends.h - the backends, each started by its own function */
#ifndef GH_BACKENDS_H
#define GH_BACKENDS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

/* Each returns NULL with the reason in why[why_len] when it cannot start. */
struct gh_backend *gh_backend_cpu_open(const struct gpuhist_options *opts,
				       char *why, size_t why_len);
struct gh_backend *gh_backend_gpu_open(const struct gpuhist_options *opts,
				       char *why, size_t why_len);
/* The CUDA devices found, where every device opts names is among them;
 * else 0 with why set, as gh_backend_gpu_open() would say it.  Quicker
 * than a start: no context, streams or memory. */
int gh_backend_gpu_found(const struct gpuhist_options *opts, char *why,
			 size_t why_len);
/* The GPUs the driver lists (Linux: /proc/driver/nvidia/gpus), where
 * every device opts names is among them and CUDA_VISIBLE_DEVICES is not
 * set; else 0 (not known).  No CUDA call: read in microseconds, where
 * CUDA takes a fifth of a second to say as much. */
int gh_backend_gpu_listed(const struct gpuhist_options *opts);
/* The CPU backend now and the GPU's as soon as it has started, the GPU
 * started at once (start_now) or when the CPU falls behind
 * (backend_auto.c); with gpu_required (--backend=gpu), also once the run
 * has gone on GH_GPU_LATE_START_SECS, and the run cannot count without
 * it.  With gpu_alone (and start_now), no CPU chunk while the GPU starts:
 * the GPU's once it is up where it counts the tokens itself, else the
 * CPU's; up to stage_bytes (0: none) are filled meanwhile and held for
 * it (stage.c). */
struct gh_backend *gh_backend_auto_open(const struct gpuhist_options *opts,
					bool start_now, bool gpu_required,
					bool gpu_alone, uint64_t stage_bytes,
					char *why, size_t why_len);

#endif
