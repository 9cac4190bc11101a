/* backend_gpu.c - counting on a CUDA device: pinned ring, streams, events
 *
 * The ring holds two chunks per stream, each a pinned host buffer with a
 * device buffer of its own.  submit() queues, on the chunk's stream, the
 * copy to the device, the kernel and an event; acquire() hands a chunk back
 * to the reader only once its event has completed.  So while the reader
 * fills chunk k, chunk k-1 is being copied and k-2 counted, on different
 * streams.  All kernels add into one array of 256 64-bit totals on the
 * device, which comes back once, in finish(), and is then zeroed.
 *
 * Every CUDA call is checked; a failure is written into b->error and
 * returned, never printed or exited on here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backend.h"
#include "config.h"
#include "gh_kernel.h"
#include "options.h"
#include "version.h"

#define GH_GPU_CHUNK_DEFAULT ((uint64_t)16 << 20)
#define GH_GPU_STREAMS_DEFAULT 2

struct gpu_chunk {
	unsigned char *host;        /* pinned */
	unsigned char *dev;
	cudaStream_t stream;        /* borrowed from the stream list */
	cudaEvent_t counted;        /* recorded after the chunk's kernel */
	int in_flight;
};

struct gpu_backend {
	struct gh_backend base;     /* first: the caller sees only this */
	int device;
	int max_blocks;             /* multiprocessors x resident blocks */
	int n_streams;
	cudaStream_t *streams;
	int n_chunks;
	struct gpu_chunk *chunks;
	int next;                   /* the chunk acquire() hands out next */
	unsigned long long *d_totals;
};

_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t),
	       "device totals are 64-bit");

/* Records why a CUDA call failed; returns -1 for the caller to pass up. */
static int cuda_failed(struct gh_backend *b, const char *what, cudaError_t err)
{
	snprintf(b->error, sizeof(b->error), "CUDA error in %s: %s", what,
		 cudaGetErrorString(err));
	return -1;
}

#define CHECK(b, call) do {                                           \
		cudaError_t err_ = (call);                            \
		if (err_ != cudaSuccess)                              \
			return cuda_failed((b), #call, err_);         \
	} while (0)

static int wait_chunk(struct gpu_backend *gb, struct gpu_chunk *c)
{
	if (!c->in_flight)
		return 0;
	c->in_flight = 0;
	CHECK(&gb->base, cudaEventSynchronize(c->counted));
	return 0;
}

static unsigned char *gpu_acquire(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c = &gb->chunks[gb->next];

	return wait_chunk(gb, c) ? NULL : c->host;
}

static int gpu_submit(struct gh_backend *b, uint64_t len)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c = &gb->chunks[gb->next];

	if (len == 0)
		return 0;           /* the chunk stays next, unused */
	gb->next = (gb->next + 1) % gb->n_chunks;
	CHECK(b, cudaMemcpyAsync(c->dev, c->host, len, cudaMemcpyHostToDevice,
				 c->stream));
	CHECK(b, gh_kernel_histogram(c->dev, len, gb->d_totals, gb->max_blocks,
				     c->stream));
	CHECK(b, cudaEventRecord(c->counted, c->stream));
	c->in_flight = 1;
	return 0;
}

static int gpu_finish(struct gh_backend *b, uint64_t totals[256])
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	int failed = 0;

	/* Wait for every chunk, even after a failure, so none is left running. */
	for (int i = 0; i < gb->n_chunks; i++)
		if (wait_chunk(gb, &gb->chunks[i]))
			failed = 1;
	if (failed)
		return -1;
	CHECK(b, cudaMemcpy(totals, gb->d_totals, 256 * sizeof(uint64_t),
			    cudaMemcpyDeviceToHost));
	CHECK(b, cudaMemset(gb->d_totals, 0, 256 * sizeof(uint64_t)));
	return 0;
}

static void gpu_destroy(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;

	/* Best effort: a failed device has already been reported. */
	for (int i = 0; gb->chunks && i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		if (c->in_flight)
			cudaEventSynchronize(c->counted);
		if (c->counted)
			cudaEventDestroy(c->counted);
		cudaFreeHost(c->host);
		cudaFree(c->dev);
	}
	for (int i = 0; gb->streams && i < gb->n_streams; i++)
		if (gb->streams[i])
			cudaStreamDestroy(gb->streams[i]);
	cudaFree(gb->d_totals);
	free(gb->chunks);
	free(gb->streams);
	free(gb);
}

/* Allocates streams, the ring and the totals; -1 with b->error set. */
static int gpu_setup(struct gpu_backend *gb)
{
	struct gh_backend *b = &gb->base;

	gb->streams = calloc((size_t)gb->n_streams, sizeof(*gb->streams));
	gb->chunks = calloc((size_t)gb->n_chunks, sizeof(*gb->chunks));
	if (!gb->streams || !gb->chunks) {
		snprintf(b->error, sizeof(b->error), "out of host memory");
		return -1;
	}
	for (int i = 0; i < gb->n_streams; i++)
		CHECK(b, cudaStreamCreateWithFlags(&gb->streams[i],
						   cudaStreamNonBlocking));
	for (int i = 0; i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		c->stream = gb->streams[i % gb->n_streams];
		CHECK(b, cudaMallocHost((void **)&c->host, b->chunk_bytes));
		CHECK(b, cudaMalloc((void **)&c->dev, b->chunk_bytes));
		CHECK(b, cudaEventCreateWithFlags(&c->counted,
						  cudaEventDisableTiming));
	}
	CHECK(b, cudaMalloc((void **)&gb->d_totals, 256 * sizeof(uint64_t)));
	CHECK(b, cudaMemset(gb->d_totals, 0, 256 * sizeof(uint64_t)));
	return 0;
}

struct gh_backend *gh_backend_gpu_open(const struct gh_options *opts,
				       char *why, size_t why_len)
{
	struct cudaDeviceProp prop;
	struct gpu_backend *gb;
	int n_devices = 0, per_sm = 0;
	cudaError_t err;

	err = cudaGetDeviceCount(&n_devices);
	if (err != cudaSuccess) {
		int driver = 0;

		cudaDriverGetVersion(&driver);
		snprintf(why, why_len, "%s", driver ? cudaGetErrorString(err)
			 : "no CUDA driver is installed");
		return NULL;
	}
	if (opts->device >= n_devices) {
		snprintf(why, why_len, "no CUDA device %d (%d found)",
			 opts->device, n_devices);
		return NULL;
	}
	if ((err = cudaSetDevice(opts->device)) != cudaSuccess ||
	    (err = cudaGetDeviceProperties(&prop, opts->device)) != cudaSuccess ||
	    (err = gh_kernel_blocks_per_sm(&per_sm)) != cudaSuccess) {
		snprintf(why, why_len, "device %d: %s", opts->device,
			 cudaGetErrorString(err));
		return NULL;
	}

	gb = calloc(1, sizeof(*gb));
	if (!gb) {
		snprintf(why, why_len, "out of host memory");
		return NULL;
	}
	gb->base.name = "gpu";
	gb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_GPU_CHUNK_DEFAULT;
	gb->base.acquire = gpu_acquire;
	gb->base.submit = gpu_submit;
	gb->base.finish = gpu_finish;
	gb->base.destroy = gpu_destroy;
	gb->device = opts->device;
	gb->max_blocks = prop.multiProcessorCount * (per_sm > 0 ? per_sm : 1);
	gb->n_streams = opts->streams ? opts->streams : GH_GPU_STREAMS_DEFAULT;
	gb->n_chunks = 2 * gb->n_streams;
	if (gpu_setup(gb)) {
		snprintf(why, why_len, "device %d: %.200s", opts->device,
			 gb->base.error);
		gpu_destroy(&gb->base);
		return NULL;
	}
	snprintf(gb->base.detail, sizeof(gb->base.detail),
		 "gpu backend, device %d (%.64s, %d SMs), %d stream%s, %d chunks of %llu bytes, grid %d x %d",
		 gb->device, prop.name, prop.multiProcessorCount,
		 gb->n_streams, gb->n_streams == 1 ? "" : "s", gb->n_chunks,
		 (unsigned long long)gb->base.chunk_bytes, gb->max_blocks,
		 GH_KERNEL_BLOCK_THREADS);
	return &gb->base;
}

void gh_gpu_print_versions(void)
{
	int runtime = 0, driver = 0, n = 0;
	cudaError_t err;

	cudaRuntimeGetVersion(&runtime);
	cudaDriverGetVersion(&driver);
	printf("CUDA runtime %d.%d, driver %d.%d\n", runtime / 1000,
	       runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
	err = cudaGetDeviceCount(&n);
	if (err != cudaSuccess) {
		printf("no usable CUDA device: %s\n", cudaGetErrorString(err));
		return;
	}
	for (int i = 0; i < n; i++) {
		struct cudaDeviceProp prop;

		if (cudaGetDeviceProperties(&prop, i) == cudaSuccess)
			printf("device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB\n",
			       i, prop.name, prop.major, prop.minor,
			       prop.multiProcessorCount,
			       (double)prop.totalGlobalMem / (1 << 30));
	}
}
