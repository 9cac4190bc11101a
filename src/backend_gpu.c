/* backend_gpu.c - counting on a CUDA device: pinned ring, streams, events
 *
 * The ring holds two chunks per stream plus one per reader thread, each a
 * pinned host buffer with a device buffer of its own, on a stream of its
 * own (chunk i on stream i mod streams).  submit() queues on that stream
 * the copy to the device, the kernel and an event, and puts the chunk at
 * the back of the free queue; acquire() takes the oldest chunk from the
 * front and waits for its event, so a chunk is refilled only once it has
 * been counted.  While readers fill some chunks, others are being copied
 * and counted, on different streams.  All kernels add into one array of
 * 256 64-bit totals on the device, which comes back once, in finish(), and
 * is then zeroed.
 *
 * Every CUDA call is checked; a failure is written into b->error (the
 * first one wins) and returned, never printed or exited on here.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backend.h"
#include "config.h"
#include "gh_kernel.h"
#include "options.h"
#include "version.h"

/* 4 MiB: on an H200, 8 GiB streamed at 50 GB/s with 4 MiB chunks, 37-41
 * with 16 MiB, and the smaller pinned ring starts faster. */
#define GH_GPU_CHUNK_DEFAULT ((uint64_t)4 << 20)
#define GH_GPU_STREAMS_DEFAULT 2

struct gpu_chunk {
	struct gh_chunk chunk;      /* what readers see: the pinned buffer */
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
	pthread_mutex_t lock;       /* guards the free queue and error */
	pthread_cond_t chunk_free;
	int *free_queue;            /* chunk indices, oldest use first */
	int q_head, q_len;
	int failed;
	unsigned long long *d_totals;   /* 256 for each input that may be open */
	int input_open[GH_INPUTS_MAX];
	cudaStream_t totals_stream;     /* fetches and zeroes the totals */
};

_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t),
	       "device totals are 64-bit");

/* Records why a CUDA call failed (the first failure of any thread wins);
 * returns -1 for the caller to pass up. */
static int cuda_failed(struct gh_backend *b, const char *what, cudaError_t err)
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

static void release(struct gpu_backend *gb, struct gpu_chunk *c)
{
	pthread_mutex_lock(&gb->lock);
	gb->free_queue[(gb->q_head + gb->q_len) % gb->n_chunks] = c->chunk.slot;
	gb->q_len++;
	pthread_cond_signal(&gb->chunk_free);
	pthread_mutex_unlock(&gb->lock);
}

static int gpu_begin(struct gh_backend *b, int readers)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	int id = -1;

	(void)readers;          /* the ring is sized for the most readers */
	pthread_mutex_lock(&gb->lock);
	for (int i = 0; i < GH_INPUTS_MAX && id < 0; i++)
		if (!gb->input_open[i])
			id = i;
	if (id >= 0)
		gb->input_open[id] = 1;     /* its totals are zero already */
	else
		snprintf(b->error, sizeof(b->error), "more than %d inputs open",
			 GH_INPUTS_MAX);
	pthread_mutex_unlock(&gb->lock);
	return id;
}

static struct gh_chunk *gpu_acquire(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c;

	pthread_mutex_lock(&gb->lock);
	while (!gb->q_len)
		pthread_cond_wait(&gb->chunk_free, &gb->lock);
	c = &gb->chunks[gb->free_queue[gb->q_head]];
	gb->q_head = (gb->q_head + 1) % gb->n_chunks;
	gb->q_len--;
	pthread_mutex_unlock(&gb->lock);

	if (wait_chunk(gb, c)) {
		release(gb, c);
		return NULL;
	}
	return &c->chunk;
}

static int gpu_submit(struct gh_backend *b, int input, struct gh_chunk *chunk,
		      uint64_t len)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c = &gb->chunks[chunk->slot];
	cudaError_t err = cudaSuccess;
	const char *what = NULL;

	if (len) {
		err = cudaMemcpyAsync(c->dev, chunk->data, len,
				      cudaMemcpyHostToDevice, c->stream);
		if (err != cudaSuccess) {
			what = "cudaMemcpyAsync";
		} else {
			cudaError_t launch = gh_kernel_histogram(c->dev, len,
				gb->d_totals + 256 * input, gb->max_blocks,
				c->stream);

			/* The event goes in even when the launch failed: the
			 * copy is queued, and the chunk must not be refilled
			 * before it is done. */
			err = cudaEventRecord(c->counted, c->stream);
			if (launch != cudaSuccess) {
				err = launch;
				what = "the histogram kernel's launch";
			} else if (err != cudaSuccess) {
				what = "cudaEventRecord";
			}
		}
		c->in_flight = 1;
	}
	release(gb, c);
	return what ? cuda_failed(b, what, err) : 0;
}

/* Fetches an input's totals and zeroes them for the next input there. */
static int fetch_totals(struct gpu_backend *gb, int input,
			uint64_t totals[256])
{
	struct gh_backend *b = &gb->base;
	unsigned long long *d = gb->d_totals + 256 * input;

	/* Every chunk this input submitted is queued on the streams before
	 * this call, so waiting for the streams waits for all of them (and
	 * perhaps for other inputs' chunks too, which costs only time). */
	for (int i = 0; i < gb->n_streams; i++)
		CHECK(b, cudaStreamSynchronize(gb->streams[i]));
	/* Fetch and zero on a stream of their own, then wait for both: a later
	 * input's kernels (on non-blocking streams) must not start before the
	 * zeroing is done, and the legacy stream would not order them. */
	CHECK(b, cudaMemcpyAsync(totals, d, 256 * sizeof(uint64_t),
				 cudaMemcpyDeviceToHost, gb->totals_stream));
	CHECK(b, cudaMemsetAsync(d, 0, 256 * sizeof(uint64_t),
				 gb->totals_stream));
	CHECK(b, cudaStreamSynchronize(gb->totals_stream));
	return 0;
}

/* After any CUDA failure every later input fails too (gb->failed), so an
 * input slot left unzeroed by a failed fetch is never read again. */
static int gpu_finish(struct gh_backend *b, int input, uint64_t totals[256])
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	int ret = fetch_totals(gb, input, totals);

	pthread_mutex_lock(&gb->lock);
	gb->input_open[input] = 0;
	if (gb->failed)
		ret = -1;
	pthread_mutex_unlock(&gb->lock);
	return ret;
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
		cudaFreeHost(c->chunk.data);
		cudaFree(c->dev);
	}
	for (int i = 0; gb->streams && i < gb->n_streams; i++)
		if (gb->streams[i])
			cudaStreamDestroy(gb->streams[i]);
	if (gb->totals_stream)
		cudaStreamDestroy(gb->totals_stream);
	cudaFree(gb->d_totals);
	free(gb->chunks);
	free(gb->free_queue);
	free(gb->streams);
	pthread_mutex_destroy(&gb->lock);
	pthread_cond_destroy(&gb->chunk_free);
	free(gb);
}

/* Allocates streams, the ring and the totals; -1 with b->error set. */
static int gpu_setup(struct gpu_backend *gb)
{
	struct gh_backend *b = &gb->base;

	gb->streams = calloc((size_t)gb->n_streams, sizeof(*gb->streams));
	gb->chunks = calloc((size_t)gb->n_chunks, sizeof(*gb->chunks));
	gb->free_queue = calloc((size_t)gb->n_chunks, sizeof(*gb->free_queue));
	if (!gb->streams || !gb->chunks || !gb->free_queue) {
		snprintf(b->error, sizeof(b->error), "out of host memory");
		return -1;
	}
	for (int i = 0; i < gb->n_streams; i++)
		CHECK(b, cudaStreamCreateWithFlags(&gb->streams[i],
						   cudaStreamNonBlocking));
	for (int i = 0; i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		c->chunk.slot = i;
		c->stream = gb->streams[i % gb->n_streams];
		gb->free_queue[gb->q_len++] = i;
		CHECK(b, cudaMallocHost((void **)&c->chunk.data, b->chunk_bytes));
		CHECK(b, cudaMalloc((void **)&c->dev, b->chunk_bytes));
		CHECK(b, cudaEventCreateWithFlags(&c->counted,
						  cudaEventDisableTiming));
	}
	CHECK(b, cudaStreamCreateWithFlags(&gb->totals_stream,
					   cudaStreamNonBlocking));
	CHECK(b, cudaMalloc((void **)&gb->d_totals,
			    GH_INPUTS_MAX * 256 * sizeof(uint64_t)));
	CHECK(b, cudaMemsetAsync(gb->d_totals, 0,
				 GH_INPUTS_MAX * 256 * sizeof(uint64_t),
				 gb->totals_stream));
	CHECK(b, cudaStreamSynchronize(gb->totals_stream));
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
	pthread_mutex_init(&gb->lock, NULL);
	pthread_cond_init(&gb->chunk_free, NULL);
	gb->base.name = "gpu";
	gb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_GPU_CHUNK_DEFAULT;
	gb->base.begin = gpu_begin;
	gb->base.acquire = gpu_acquire;
	gb->base.submit = gpu_submit;
	gb->base.finish = gpu_finish;
	gb->base.destroy = gpu_destroy;
	gb->device = opts->device;
	gb->max_blocks = prop.multiProcessorCount * (per_sm > 0 ? per_sm : 1);
	gb->n_streams = opts->streams ? opts->streams : GH_GPU_STREAMS_DEFAULT;
	gb->n_chunks = 2 * gb->n_streams + gh_options_readers(opts);
	if (gpu_setup(gb)) {
		snprintf(why, why_len, "device %d: %.200s", opts->device,
			 gb->base.error);
		gpu_destroy(&gb->base);
		return NULL;
	}
	snprintf(gb->base.detail, sizeof(gb->base.detail),
		 "gpu backend, device %d (%.64s, %d SMs), %d stream%s, %d readers, %d chunks of %llu bytes, grid %d x %d",
		 gb->device, prop.name, prop.multiProcessorCount,
		 gb->n_streams, gb->n_streams == 1 ? "" : "s",
		 gh_options_readers(opts), gb->n_chunks,
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
