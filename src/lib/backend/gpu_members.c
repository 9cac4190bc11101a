/* gpu_members.c - batches of whole gzip members decoded on the GPU by
 * nvCOMP, checked, and counted there: the decoded bytes never cross PCIe
 *
 * A batch (backend.h's struct gh_members) is a pinned buffer the caller
 * reads members into, with a device buffer for them, one for their output
 * (each member's at the sum of the ISIZEs before it, so the output is the
 * batch's text, back to back), nvCOMP's scratch, its argument arrays, and a
 * stream of its own.  members_decode() queues the copy, nvCOMP's batched
 * gzip decoder (whole members: header, deflate, trailer), and its CRC-32 of
 * each output, and fetches each member's status, decoded size and CRC with
 * the output's first and last bytes; every member must have decoded to its
 * trailer's ISIZE and CRC-32, or the caller decodes the batch on the CPU
 * (whose verdict then stands).  nvCOMP documents corrupt input as
 * undefined, and fuzzing found it reading and writing outside what it was
 * given: each output's room is its ISIZE (never 0), the output has a
 * guard before it and the input slack after it (below), and
 * t/gpu-fuzz-members.py checks what remains against the CPU.
 * members_count() queues the counting kernels on the output and an event;
 * a batch decoded again queues behind them on its stream, and one given
 * back is handed out again only once that event has passed.
 *
 * The batches are made with the first one asked for (a run without gzip
 * members pays nothing), BATCHES_PER_DEVICE on each device in turn.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvcomp/crc32.h>
#include <nvcomp/gzip.h>

#include "gpu_private.h"

/* 8 MiB of members in (BGZF: about 500 of them, 50 MiB of log text), at
 * most 96 MiB out; eight batches a device keep its copy engine, decoder
 * and counting kernels busy while readers fill the next ones.  On an H200
 * (16 GiB of BGZF text, bench/NOTES.md) 16 MiB batches were slower, and
 * 16 batches, or the CPU decoding whole spans while every batch was out,
 * within the noise of the GPU's start. */
#define BATCHES_PER_DEVICE 8
#define BATCH_IN ((uint64_t)8 << 20)
#define BATCH_OUT ((uint64_t)96 << 20)
#define BATCH_MEMBERS 8192u
/* BGZF's members hold at most 64 KiB of text. */
#define MEMBER_OUT_MAX ((uint32_t)1 << 16)
/* nvCOMP does not bound its reads by what corrupt data says (fuzzing
 * found it): a copy from further back than the member's output so far
 * reads before it, and a stored block's or header's length past the
 * member's end.  So the output begins after a guard of deflate's
 * farthest distance, and the input has slack after it of the largest
 * length a member's data can give; such reads stay in the buffers, and
 * what they decode fails the CRC-32. */
#define OUT_GUARD ((uint64_t)32 << 10)
#define IN_SLACK ((uint64_t)128 << 10)
/* And a member given no room at all (ISIZE 0) makes it write anywhere
 * (fuzzing found writes past every buffer): such members, BGZF's empty
 * end-of-file marker among them, are the CPU's. */

struct gpu_batch {
	struct gh_members m;        /* what the caller sees (first) */
	struct gpu_device *device;
	cudaStream_t stream;
	cudaEvent_t counted;
	int in_flight;
	unsigned char *d_in, *d_out;
	unsigned char *d_base;      /* d_out less its guard */
	void *d_temp;
	size_t temp_bytes;
	/* Device arrays, BATCH_MEMBERS each, in one allocation; and their
	 * pinned host twins. */
	void *d_args, *h_args;
	const void **in_ptr, **h_in_ptr;
	void **out_ptr, **h_out_ptr;
	size_t *in_len, *h_in_len, *room, *h_room, *got, *h_got;
	nvcompStatus_t *status, *h_status;
	uint32_t *crc, *h_crc;
	unsigned char *h_ends;      /* head, then tail */
	uint32_t h_len[BATCH_MEMBERS], h_isize[BATCH_MEMBERS],
		 h_trailer_crc[BATCH_MEMBERS];
};

struct gpu_members_pool {
	int n;
	struct gpu_batch *batches;
	pthread_mutex_t lock;       /* guards the free list */
	pthread_cond_t freed;
	int *free_list, n_free;
	nvcompBatchedCRC32Opts_t crc_opts;
	atomic_bool broken;         /* nvCOMP refused a call: none more */
};

/* One argument array's bytes, 16-byte aligned. */
static size_t array_bytes(size_t each)
{
	return ((size_t)BATCH_MEMBERS * each + 15) & ~(size_t)15;
}

/* Points the arrays into one block of device (or pinned host) memory. */
static void lay_out(unsigned char *base, const void ***in_ptr,
		    void ***out_ptr, size_t **in_len, size_t **room,
		    size_t **got, nvcompStatus_t **status, uint32_t **crc)
{
	*in_ptr = (const void **)base;
	base += array_bytes(sizeof(void *));
	*out_ptr = (void **)base;
	base += array_bytes(sizeof(void *));
	*in_len = (size_t *)base;
	base += array_bytes(sizeof(size_t));
	*room = (size_t *)base;
	base += array_bytes(sizeof(size_t));
	*got = (size_t *)base;
	base += array_bytes(sizeof(size_t));
	*status = (nvcompStatus_t *)base;
	base += array_bytes(sizeof(nvcompStatus_t));
	*crc = (uint32_t *)base;
}

static size_t args_bytes(void)
{
	return 2 * array_bytes(sizeof(void *)) +
	       3 * array_bytes(sizeof(size_t)) +
	       array_bytes(sizeof(nvcompStatus_t)) +
	       array_bytes(sizeof(uint32_t)) + 2 * GH_ENDS_BYTES;
}

static int batch_setup(struct gpu_backend *gb, struct gpu_batch *t, int slot,
		       struct gpu_device *d)
{
	struct gh_backend *b = &gb->base;
	nvcompBatchedGzipDecompressOpts_t opts =
		nvcompBatchedGzipDecompressDefaultOpts;

	t->device = d;
	t->m = (struct gh_members){ .backend = b, .slot = slot,
				    .in_room = BATCH_IN, .out_room = BATCH_OUT,
				    .member_out_max = MEMBER_OUT_MAX,
				    .most = BATCH_MEMBERS, .len = t->h_len,
				    .isize = t->h_isize,
				    .crc = t->h_trailer_crc };
	CHECK(b, gh_gpu_use_device(d->id));
	CHECK(b, cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking));
	CHECK(b, cudaEventCreateWithFlags(&t->counted,
					  cudaEventDisableTiming));
	CHECK(b, cudaMallocHost((void **)&t->m.in, BATCH_IN));
	CHECK(b, cudaMalloc((void **)&t->d_in, BATCH_IN + IN_SLACK));
	CHECK(b, cudaMemsetAsync(t->d_in, 0, BATCH_IN + IN_SLACK, t->stream));
	CHECK(b, cudaMalloc((void **)&t->d_base, OUT_GUARD + BATCH_OUT));
	CHECK(b, cudaMemsetAsync(t->d_base, 0, OUT_GUARD, t->stream));
	t->d_out = t->d_base + OUT_GUARD;
	CHECK(b, cudaMalloc(&t->d_args, args_bytes()));
	CHECK(b, cudaMallocHost(&t->h_args, args_bytes()));
	lay_out(t->d_args, &t->in_ptr, &t->out_ptr, &t->in_len, &t->room,
		&t->got, &t->status, &t->crc);
	lay_out(t->h_args, &t->h_in_ptr, &t->h_out_ptr, &t->h_in_len,
		&t->h_room, &t->h_got, &t->h_status, &t->h_crc);
	t->h_ends = (unsigned char *)t->h_args + args_bytes() -
		    2 * GH_ENDS_BYTES;
	if (nvcompBatchedGzipDecompressGetTempSize(BATCH_MEMBERS,
						   MEMBER_OUT_MAX, opts,
						   &t->temp_bytes, BATCH_OUT,
						   t->stream) != nvcompSuccess)
		return gh_gpu_failed(b, "nvCOMP's scratch size",
				     cudaErrorInvalidValue);
	CHECK(b, cudaMalloc(&t->d_temp, t->temp_bytes ? t->temp_bytes : 1));
	CHECK(b, cudaStreamSynchronize(t->stream));
	return 0;
}

static void batch_free(struct gpu_batch *t)
{
	if (!t->device)
		return;
	gh_gpu_use_device(t->device->id);
	if (t->in_flight)
		cudaEventSynchronize(t->counted);
	if (t->stream)
		cudaStreamSynchronize(t->stream);
	cudaFreeHost(t->m.in);
	cudaFreeHost(t->h_args);
	cudaFree(t->d_in);
	cudaFree(t->d_base);
	cudaFree(t->d_args);
	cudaFree(t->d_temp);
	if (t->counted)
		cudaEventDestroy(t->counted);
	if (t->stream)
		cudaStreamDestroy(t->stream);
}

static void pool_free(struct gpu_members_pool *pool)
{
	if (!pool)
		return;
	for (int i = 0; pool->batches && i < pool->n; i++)
		batch_free(&pool->batches[i]);
	free(pool->batches);
	free(pool->free_list);
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->freed);
	free(pool);
}

void gh_gpu_members_free(struct gpu_backend *gb)
{
	pool_free(gb->members);
	gb->members = NULL;
}

/* Makes the pool; NULL with the backend failed when it cannot. */
static struct gpu_members_pool *pool_new(struct gpu_backend *gb)
{
	int n = BATCHES_PER_DEVICE * gb->n_devices;
	struct gpu_members_pool *pool = calloc(1, sizeof(*pool));
	bool ok = pool != NULL;

	if (ok) {
		pthread_mutex_init(&pool->lock, NULL);
		pthread_cond_init(&pool->freed, NULL);
		pool->batches = calloc((size_t)n, sizeof(*pool->batches));
		pool->free_list = calloc((size_t)n, sizeof(int));
		pool->n = n;
		ok = pool->batches && pool->free_list;
	}
	for (int i = 0; ok && i < n; i++) {
		ok = !batch_setup(gb, &pool->batches[i], i,
				  &gb->devices[i % gb->n_devices]);
		pool->free_list[pool->n_free++] = i;
	}
	if (ok) {
		pool->crc_opts.spec = nvcompCRC32;
		ok = nvcompBatchedCRC32GetHeuristicConf(
			NULL, BATCH_MEMBERS, &pool->crc_opts.kernel_conf,
			MEMBER_OUT_MAX, pool->batches[0].stream) == nvcompSuccess;
	}
	if (!ok) {
		if (!gb->failed)
			gh_gpu_failed(&gb->base, "making batches of gzip members",
				      cudaErrorMemoryAllocation);
		pool_free(pool);
		return NULL;
	}
	return pool;
}

/* The pool, made with the first batch asked for (the other threads wait
 * for it: tens of milliseconds, once; where they decoded on the CPU
 * meanwhile instead, a small file never reached the GPU); NULL when it
 * cannot be made (the backend has failed). */
static struct gpu_members_pool *pool_of(struct gpu_backend *gb)
{
	struct gpu_members_pool *pool = __atomic_load_n(&gb->members,
							__ATOMIC_ACQUIRE);

	if (pool)
		return pool;
	pthread_mutex_lock(&gb->members_lock);
	pool = gb->members;
	if (!pool && !gb->failed) {
		pool = pool_new(gb);
		__atomic_store_n(&gb->members, pool, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&gb->members_lock);
	return pool;
}

struct gh_members *gh_gpu_members_acquire(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_members_pool *pool = pool_of(gb);
	struct gpu_batch *t;

	if (!pool || atomic_load(&pool->broken))
		return NULL;
	pthread_mutex_lock(&pool->lock);
	while (!pool->n_free)
		pthread_cond_wait(&pool->freed, &pool->lock);
	t = &pool->batches[pool->free_list[--pool->n_free]];
	pthread_mutex_unlock(&pool->lock);
	if (t->in_flight) {
		t->in_flight = 0;
		if (gh_gpu_use_device(t->device->id) != cudaSuccess ||
		    cudaEventSynchronize(t->counted) != cudaSuccess) {
			gh_gpu_failed(b, "counting a batch of gzip members",
				      cudaErrorLaunchFailure);
			gh_gpu_members_release(b, &t->m);
			return NULL;
		}
	}
	t->m.n = 0;
	t->m.out = 0;
	t->m.at = 0;
	return &t->m;
}

void gh_gpu_members_release(struct gh_backend *b, struct gh_members *m)
{
	struct gpu_members_pool *pool = ((struct gpu_backend *)b)->members;

	pthread_mutex_lock(&pool->lock);
	pool->free_list[pool->n_free++] = m->slot;
	pthread_cond_signal(&pool->freed);
	pthread_mutex_unlock(&pool->lock);
}

/* Refuses the batch for the GPU from now on: nvCOMP refused a call. */
static int refused(struct gpu_members_pool *pool)
{
	atomic_store(&pool->broken, true);
	return 0;
}

int gh_gpu_members_decode(struct gh_backend *b, struct gh_members *m)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_members_pool *pool = gb->members;
	struct gpu_batch *t = (struct gpu_batch *)m;
	nvcompBatchedGzipDecompressOpts_t opts =
		nvcompBatchedGzipDecompressDefaultOpts;
	uint32_t n = m->n, ends = m->out < GH_ENDS_BYTES ? (uint32_t)m->out
							 : GH_ENDS_BYTES;
	uint64_t in = 0, out = 0;
	cudaStream_t s = t->stream;

	if (!n || n > m->most || m->out > m->out_room)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!m->isize[i] || m->isize[i] > m->member_out_max)
			return 0;
		t->h_in_ptr[i] = t->d_in + in;
		t->h_in_len[i] = m->len[i];
		t->h_out_ptr[i] = t->d_out + out;
		t->h_room[i] = m->isize[i];
		in += m->len[i];
		out += m->isize[i];
	}
	if (m->at + in > m->in_room || out != m->out)
		return 0;
	CHECK(b, gh_gpu_use_device(t->device->id));
	CHECK(b, cudaMemcpyAsync(t->d_in, m->in + m->at, in,
				 cudaMemcpyHostToDevice, s));
	CHECK(b, cudaMemcpyAsync(t->in_ptr, t->h_in_ptr, n * sizeof(void *),
				 cudaMemcpyHostToDevice, s));
	CHECK(b, cudaMemcpyAsync(t->out_ptr, t->h_out_ptr, n * sizeof(void *),
				 cudaMemcpyHostToDevice, s));
	CHECK(b, cudaMemcpyAsync(t->in_len, t->h_in_len, n * sizeof(size_t),
				 cudaMemcpyHostToDevice, s));
	CHECK(b, cudaMemcpyAsync(t->room, t->h_room, n * sizeof(size_t),
				 cudaMemcpyHostToDevice, s));
	if (nvcompBatchedGzipDecompressAsync(
		    (const void *const *)t->in_ptr, t->in_len, t->room, t->got,
		    n, t->d_temp, t->temp_bytes, (void *const *)t->out_ptr,
		    opts, t->status, s) != nvcompSuccess ||
	    nvcompBatchedCRC32Async((const void *const *)t->out_ptr, t->got, n,
				    t->crc, pool->crc_opts,
				    nvcompCRC32OnlySegment, NULL, s) !=
		    nvcompSuccess) {
		cudaStreamSynchronize(s);
		return refused(pool);
	}
	CHECK(b, cudaMemcpyAsync(t->h_status, t->status,
				 n * sizeof(nvcompStatus_t),
				 cudaMemcpyDeviceToHost, s));
	CHECK(b, cudaMemcpyAsync(t->h_got, t->got, n * sizeof(size_t),
				 cudaMemcpyDeviceToHost, s));
	CHECK(b, cudaMemcpyAsync(t->h_crc, t->crc, n * sizeof(uint32_t),
				 cudaMemcpyDeviceToHost, s));
	if (ends) {
		CHECK(b, cudaMemcpyAsync(t->h_ends, t->d_out, ends,
					 cudaMemcpyDeviceToHost, s));
		CHECK(b, cudaMemcpyAsync(t->h_ends + GH_ENDS_BYTES,
					 t->d_out + out - ends, ends,
					 cudaMemcpyDeviceToHost, s));
	}
	CHECK(b, cudaStreamSynchronize(s));
	for (uint32_t i = 0; i < n; i++)
		if (t->h_status[i] != nvcompSuccess ||
		    t->h_got[i] != m->isize[i] || t->h_crc[i] != m->crc[i])
			return 0;
	memcpy(m->head, t->h_ends, ends);
	memcpy(m->tail, t->h_ends + GH_ENDS_BYTES, ends);
	return 1;
}

int gh_gpu_members_count(struct gh_backend *b, int input, struct gh_members *m)
{
	struct gpu_batch *t = (struct gpu_batch *)m;
	const char *what = "cudaSetDevice";
	cudaError_t err = gh_gpu_use_device(t->device->id);

	if (err == cudaSuccess && m->out) {
		err = gh_gpu_count(b, t->device, input, t->d_out, m->out,
				   m->cut.from, m->cut.to, m->cut.phase,
				   t->stream, &what);
		cudaError_t rec = cudaEventRecord(t->counted, t->stream);

		if (err == cudaSuccess && rec != cudaSuccess) {
			err = rec;
			what = "cudaEventRecord";
		}
		t->in_flight = 1;
	}
	return err != cudaSuccess ? gh_gpu_failed(b, what, err) : 0;
}
