/* gpu_count.c - what the GPU backend's two files share: its error, the
 * device a thread works on, and the kernels that count device memory
 * (backend_gpu.c's chunks, gpu_members.c's decoded batches)
 */
#include "config.h"

#ifdef HAVE_CUDA
#include <pthread.h>
#include <stdio.h>

#include "gh_kernel.h"
#include "gpu_private.h"

/* Records why a CUDA call failed (the first failure of any thread wins);
 * returns -1 for the caller to pass up. */
int gh_gpu_failed(struct gh_backend *b, const char *what, cudaError_t err)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;

	pthread_mutex_lock(&gb->lock);
	if (!gb->failed)
		snprintf(b->error, sizeof(b->error), "CUDA error in %s: %s",
			 what, cudaGetErrorString(err));
	gb->failed = 1;
	pthread_mutex_unlock(&gb->lock);
	return -1;
}

cudaError_t gh_gpu_use_device(int id)
{
	static _Thread_local int current = -1;
	cudaError_t err;

	if (current == id)
		return cudaSuccess;
	err = cudaSetDevice(id);
	current = err == cudaSuccess ? id : -1;
	return err;
}

cudaError_t gh_gpu_count(struct gh_backend *b, struct gpu_device *d,
			 int input, const unsigned char *data, uint64_t len,
			 uint64_t from, uint64_t to, unsigned phase,
			 cudaStream_t stream, const char **what)
{
	unsigned long long *dt = d->d_totals + SLOT * input;
	cudaError_t launch = cudaSuccess;

	*what = "the histogram kernel's launch";
	if (b->chars && from < to)
		launch = gh_kernel_chars(data, len, from, to, d->d_chars +
					 (size_t)GPUHIST_CHAR_BINS * input,
					 d->sms, stream);
	/* With -m, the byte totals this adds are thrown away in finish():
	 * only the sums are wanted. */
	if (launch == cudaSuccess && b->stats)
		launch = gh_kernel_histogram_stats(data, len, phase, dt,
						   dt + 256, d->max_blocks,
						   stream);
	else if (launch == cudaSuccess && !b->chars)
		launch = gh_kernel_histogram(data, len, dt, d->max_blocks,
					     stream);
	return launch;
}
#endif
