/* histogram.cu - privatized aggregation histogram of bytes (256 bins)
 *
 * Layers, each with one job (as CUB's agent_histogram does it):
 *   gh_kernel_histogram  sizes the grid and launches;
 *   histogram_kernel     per block: zero private bins, count, flush;
 *   count_word           per thread: four bytes into the private bins.
 *
 * Privatization: each warp of a block counts into its own copy of the 256
 * bins in shared memory, with block-scoped atomics; at the end the copies
 * are added and only non-zero bins go to the 64-bit totals in global
 * memory.  Aggregation: a thread keeps the byte it saw last and how many
 * times in a row, and only calls an atomic when the value changes, so a
 * run of one byte value (a file of zeros, padding) costs one atomic per
 * thread, not one per byte.  Loads are 16 bytes wide and coalesced, four in
 * flight per thread; bytes before the first 16-byte boundary and after the
 * last are counted one at a time.
 */
#include <cuda_runtime.h>

#include "gh_kernel.h"

#define WARPS_PER_BLOCK (GH_KERNEL_BLOCK_THREADS / 32)
#define LOADS_IN_FLIGHT 4

static_assert(GH_KERNEL_BLOCK_THREADS % 32 == 0, "whole warps only");
static_assert(sizeof(unsigned long long) == 8, "64-bit totals");
/* A block's shared bins count at most len bytes: 32 bits must hold that. */
static_assert(GH_KERNEL_MAX_LEN <= 0xffffffffull, "32-bit private bins");

struct run {
	unsigned value;     /* byte value of the current run */
	unsigned length;    /* how many times in a row */
};

__device__ __forceinline__ void add_byte(unsigned *bins, struct run *r,
					 unsigned value)
{
	if (value == r->value) {
		r->length++;
		return;
	}
	if (r->length)
		atomicAdd_block(&bins[r->value], r->length);
	r->value = value;
	r->length = 1;
}

__device__ __forceinline__ void count_word(unsigned *bins, struct run *r,
					   unsigned word)
{
	add_byte(bins, r, word & 0xff);
	add_byte(bins, r, (word >> 8) & 0xff);
	add_byte(bins, r, (word >> 16) & 0xff);
	add_byte(bins, r, word >> 24);
}

__device__ __forceinline__ void count_vec(unsigned *bins, struct run *r,
					  uint4 v)
{
	count_word(bins, r, v.x);
	count_word(bins, r, v.y);
	count_word(bins, r, v.z);
	count_word(bins, r, v.w);
}

__global__ void __launch_bounds__(GH_KERNEL_BLOCK_THREADS)
histogram_kernel(const unsigned char *__restrict__ data, uint64_t len,
		 unsigned long long *__restrict__ totals)
{
	__shared__ unsigned bins[WARPS_PER_BLOCK][256];
	unsigned *my_bins = bins[threadIdx.x / 32];
	struct run r = { 0, 0 };

	for (unsigned i = threadIdx.x; i < WARPS_PER_BLOCK * 256;
	     i += blockDim.x)
		(&bins[0][0])[i] = 0;
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
			add_byte(my_bins, &r, data[threadIdx.x]);
		if (tail_start + threadIdx.x < len)
			add_byte(my_bins, &r, data[tail_start + threadIdx.x]);
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
			count_vec(my_bins, &r, v[k]);
	}
	for (; i < n_vecs; i += stride)
		count_vec(my_bins, &r, __ldg(&vecs[i]));
	if (r.length)
		atomicAdd_block(&my_bins[r.value], r.length);
	__syncthreads();

	/* Flush: add the warps' copies, send only the non-zero bins. */
	for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
		unsigned long long sum = 0;
#pragma unroll
		for (int w = 0; w < WARPS_PER_BLOCK; w++)
			sum += bins[w][b];
		if (sum)
			atomicAdd(&totals[b], sum);
	}
}

extern "C" cudaError_t gh_kernel_blocks_per_sm(int *blocks)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		blocks, histogram_kernel, GH_KERNEL_BLOCK_THREADS, 0);
}

extern "C" cudaError_t gh_kernel_histogram(const unsigned char *data,
					   uint64_t len,
					   unsigned long long *totals,
					   int max_blocks, cudaStream_t stream)
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
	histogram_kernel<<<blocks, GH_KERNEL_BLOCK_THREADS, 0, stream>>>(
		data, len, totals);
	return cudaGetLastError();
}
