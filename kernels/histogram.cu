/* histogram.cu - privatized aggregation histogram of bytes (256 bins)
 *
 * Layers, each with one job (as CUB's agent_histogram does it):
 *   gh_kernel_histogram  sizes the grid and launches (launch_histogram);
 *   histogram_kernel     per block: zero private bins, count, flush;
 *   count_vec            per thread: sixteen bytes into the private bins.
 *
 * Privatization: each warp of a block counts into its own copy of the 256
 * bins in shared memory, with block-scoped atomics; at the end the copies
 * are added and only non-zero bins go to the 64-bit totals in global
 * memory.  Aggregation: a thread keeps the byte value of its current run
 * and its length in registers and calls an atomic only when the run ends,
 * so a run of one value (a file of zeros, padding) costs one atomic per
 * thread, not one per byte.  Loads are 16 bytes wide and coalesced, four
 * in flight per thread; bytes before the first 16-byte boundary and after
 * the last are counted one at a time.
 */
#include <cuda_runtime.h>

#include "gh_kernel.h"

#define WARPS_PER_BLOCK (GH_KERNEL_BLOCK_THREADS / 32)
#define LOADS_IN_FLIGHT 4
/* Each private copy's row is padded by one word, so that the same bin in
 * different copies falls in different shared-memory banks. */
#define BIN_ROW 257

static_assert(GH_KERNEL_BLOCK_THREADS % 32 == 0, "whole warps only");
static_assert(sizeof(unsigned long long) == 8, "64-bit totals");
/* A block's shared bins count at most len bytes: 32 bits must hold that. */
static_assert(GH_KERNEL_MAX_LEN <= 0xffffffffull, "32-bit private bins");

struct run {
	unsigned value;     /* byte value of the current run */
	unsigned length;    /* how many times in a row */
};

/* Adds length x value to the run, or flushes the run and starts anew. */
__device__ __forceinline__ void add_run(unsigned *bins, struct run *r,
					unsigned value, unsigned length)
{
	if (value == r->value) {
		r->length += length;
		return;
	}
	if (r->length)
		atomicAdd_block(&bins[r->value], r->length);
	r->value = value;
	r->length = length;
}

__device__ __forceinline__ void count_word_runs(unsigned *bins, struct run *r,
						unsigned word)
{
	add_run(bins, r, word & 0xff, 1);
	add_run(bins, r, (word >> 8) & 0xff, 1);
	add_run(bins, r, (word >> 16) & 0xff, 1);
	add_run(bins, r, word >> 24, 1);
}

__device__ __forceinline__ void count_word(unsigned *bins, unsigned word)
{
	atomicAdd_block(&bins[word & 0xff], 1);
	atomicAdd_block(&bins[(word >> 8) & 0xff], 1);
	atomicAdd_block(&bins[(word >> 16) & 0xff], 1);
	atomicAdd_block(&bins[word >> 24], 1);
}

/*
 * Sixteen bytes.  BYTE_RUNS: the textbook's aggregation, byte by byte.
 * Otherwise runs are followed a whole vector at a time: sixteen equal bytes
 * extend the register run with no atomic at all (so a file of one byte
 * value costs one atomic per thread), and any other vector is counted with
 * one atomic per byte and no per-byte branches.
 */
template <bool BYTE_RUNS>
__device__ __forceinline__ void count_vec(unsigned *bins, struct run *r,
					  uint4 v)
{
	if (BYTE_RUNS) {
		count_word_runs(bins, r, v.x);
		count_word_runs(bins, r, v.y);
		count_word_runs(bins, r, v.z);
		count_word_runs(bins, r, v.w);
		return;
	}
	if (v.x == v.y && v.x == v.z && v.x == v.w &&
	    v.x == (v.x & 0xff) * 0x01010101u) {
		add_run(bins, r, v.x & 0xff, 16);
		return;
	}
	count_word(bins, v.x);
	count_word(bins, v.y);
	count_word(bins, v.z);
	count_word(bins, v.w);
}

/*
 * COPIES_PER_WARP private copies of the bins per warp (lane mod copies picks
 * one): more copies, fewer lanes of a warp hitting the same counter at once
 * on skewed text, but more shared memory to zero and flush.
 */
template <int COPIES_PER_WARP, bool BYTE_RUNS>
__global__ void __launch_bounds__(GH_KERNEL_BLOCK_THREADS)
histogram_kernel(const unsigned char *__restrict__ data, uint64_t len,
		 unsigned long long *__restrict__ totals)
{
	constexpr int copies = WARPS_PER_BLOCK * COPIES_PER_WARP;
	__shared__ unsigned bins[copies * BIN_ROW];
	unsigned *my_bins = &bins[((threadIdx.x / 32) * COPIES_PER_WARP +
				   threadIdx.x % COPIES_PER_WARP) * BIN_ROW];
	struct run r = { 0, 0 };

	for (unsigned i = threadIdx.x; i < copies * BIN_ROW; i += blockDim.x)
		bins[i] = 0;
	__syncthreads();

	/* Split data into an unaligned head, 16-byte vectors, and a tail. */
	uint64_t head = (16 - ((uintptr_t)data & 15)) & 15;
	if (head > len)
		head = len;
	const uint4 *vecs = (const uint4 *)(data + head);
	uint64_t n_vecs = (len - head) / 16;
	uint64_t tail_start = head + n_vecs * 16;

	if (blockIdx.x == 0) {
		if (threadIdx.x < head)
			add_run(my_bins, &r, data[threadIdx.x], 1);
		if (tail_start + threadIdx.x < len)
			add_run(my_bins, &r, data[tail_start + threadIdx.x], 1);
	}

	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + (LOADS_IN_FLIGHT - 1) * stride < n_vecs;
	     i += LOADS_IN_FLIGHT * stride) {
		uint4 v[LOADS_IN_FLIGHT];
#pragma unroll
		for (int k = 0; k < LOADS_IN_FLIGHT; k++)
			v[k] = __ldg(&vecs[i + k * stride]);
#pragma unroll
		for (int k = 0; k < LOADS_IN_FLIGHT; k++)
			count_vec<BYTE_RUNS>(my_bins, &r, v[k]);
	}
	for (; i < n_vecs; i += stride)
		count_vec<BYTE_RUNS>(my_bins, &r, __ldg(&vecs[i]));
	if (r.length)
		atomicAdd_block(&my_bins[r.value], r.length);
	__syncthreads();

	/* Flush: add the copies, send only the non-zero bins. */
	for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
		unsigned long long sum = 0;
#pragma unroll
		for (int c = 0; c < copies; c++)
			sum += bins[c * BIN_ROW + b];
		if (sum)
			atomicAdd(&totals[b], sum);
	}
}

/* Launches one variant; the benchmark calls the others directly. */
template <int COPIES_PER_WARP, bool BYTE_RUNS>
static cudaError_t launch_histogram(const unsigned char *data, uint64_t len,
				    unsigned long long *totals, int max_blocks,
				    cudaStream_t stream)
{
	uint64_t want;
	int blocks;

	if (len == 0)
		return cudaSuccess;
	if (len > GH_KERNEL_MAX_LEN || max_blocks < 1)
		return cudaErrorInvalidValue;
	/* Enough blocks for one vector a thread, no more than fit at once. */
	want = (len / 16 + GH_KERNEL_BLOCK_THREADS - 1) / GH_KERNEL_BLOCK_THREADS;
	blocks = want < (uint64_t)max_blocks ? (int)(want ? want : 1) : max_blocks;
	histogram_kernel<COPIES_PER_WARP, BYTE_RUNS>
		<<<blocks, GH_KERNEL_BLOCK_THREADS, 0, stream>>>(data, len, totals);
	return cudaGetLastError();
}

template <int COPIES_PER_WARP, bool BYTE_RUNS>
static cudaError_t blocks_per_sm(int *blocks)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		blocks, histogram_kernel<COPIES_PER_WARP, BYTE_RUNS>,
		GH_KERNEL_BLOCK_THREADS, 0);
}

/*
 * The variant gpuhist runs (bench/kernel-bench times them all).  On an H200,
 * 1 GiB: one copy per warp with runs followed a vector at a time ran 1.12x,
 * 1.26x and 1.16x CUB on random, one-byte and log data; byte-by-byte runs
 * ran 0.78x, 0.91x and 0.55x (their branches cost more than the atomics
 * they save), and more copies per warp cost more than they spread.
 */
#define GH_COPIES_PER_WARP 1
#define GH_BYTE_RUNS false

extern "C" cudaError_t gh_kernel_blocks_per_sm(int *blocks)
{
	return blocks_per_sm<GH_COPIES_PER_WARP, GH_BYTE_RUNS>(blocks);
}

extern "C" cudaError_t gh_kernel_histogram(const unsigned char *data,
					   uint64_t len,
					   unsigned long long *totals,
					   int max_blocks, cudaStream_t stream)
{
	return launch_histogram<GH_COPIES_PER_WARP, GH_BYTE_RUNS>(
		data, len, totals, max_blocks, stream);
}
