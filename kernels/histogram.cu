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
 *
 * With ent's statistics (STATS), the same loads also give the chunk's
 * stream sums (gh_stats.h).  A thread then takes 48 bytes at once (three
 * vectors), in which the six-byte groups begin at the same places in
 * every unit of a chunk, so they are picked out by permutes fixed when
 * compiling (one variant of the loop for each of the six phases); it adds
 * the products of adjacent bytes with __dp4a, four at a time, and screens
 * each group in floats (group_hit), taking the next unit's first bytes
 * from the lane beside it (a shuffle; the last lane of a warp loads
 * them).  Warps walk the units in step, so every shuffle has all 32
 * lanes.  Bytes before the first unit and after the last are counted one
 * at a time.  A warp's sums go to two 64-bit totals after the 256.
 */
#include <cuda_runtime.h>

#include "gh_kernel.h"
#include "gh_stats.h"

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

/* A thread's stream sums: products of adjacent bytes, Monte Carlo hits. */
struct stream_sums {
	unsigned long long pairs;
	unsigned hits;
};

/*
 * A Monte Carlo group, screened in floats: X and Y are the top 16 bits of
 * its x and y, made floats by putting them under the exponent of 2^23
 * (one byte permute each, no conversion), so that X^2 + Y^2 is two float
 * operations on the pipe the integer work leaves idle.  x^2 + y^2 lies
 * within 2^16 ((X + 1)^2 + (Y + 1)^2) and 2^16 (X^2 + Y^2), and the float
 * sum within 2^10 of X^2 + Y^2, so below SURE_HIT the group is inside
 * (R^2 / 2^16 = 4294966784, less 2 (X + Y + 1) <= 262142, less 2^10) and
 * above SURE_MISS outside; in between (5 groups in 100000 of random
 * bytes, none of text) the exact test decides.
 */
#define SURE_HIT 4294700000.0f
#define SURE_MISS 4294970000.0f
#define TWO_23 8388608.0f

/* Byte i of the words w, i known when compiling. */
template <int I>
__device__ __forceinline__ unsigned byte_at(const unsigned *w)
{
	return (w[I >> 2] >> (8 * (I & 3))) & 0xff;
}

/* The float bits of 2^23 + (byte I << 8 | byte I + 1). */
template <int I>
__device__ __forceinline__ unsigned top16_bits(const unsigned *w)
{
	constexpr int q = I >> 2, m = I & 3;

	if (m <= 2)     /* both in w[q]; 0x4b00 gives the exponent */
		return __byte_perm(w[q], 0x4b00,
				   (m + 1) | m << 4 | 4 << 8 | 5 << 12);
	return __byte_perm(__byte_perm(w[q], w[q + 1], 0x3334), 0x4b00,
			   0x5410);
}

/* Whether the group at byte I of w is inside the circle. */
template <int I>
__device__ __forceinline__ unsigned group_hit(const unsigned *w)
{
	float x = __uint_as_float(top16_bits<I>(w)) - TWO_23;
	float y = __uint_as_float(top16_bits<I + 3>(w)) - TWO_23;
	float sq = x * x + y * y;
	unsigned hit = sq <= SURE_HIT;

	if (sq > SURE_HIT && sq < SURE_MISS)
		hit = gh_pi_inside(byte_at<I>(w) << 16 | byte_at<I + 1>(w) << 8 |
				   byte_at<I + 2>(w),
				   byte_at<I + 3>(w) << 16 |
				   byte_at<I + 4>(w) << 8 | byte_at<I + 5>(w));
	return hit;
}

/* Groups K.. of a unit whose first group begins at byte R0. */
template <unsigned R0, int K>
__device__ __forceinline__ unsigned unit_hits(const unsigned *w,
					      bool has_next)
{
	if constexpr (K == 8) {
		return 0;
	} else {
		constexpr int at = R0 + 6 * K;
		unsigned hit = 0;

		/* The last group runs into the next unit where R0 > 0. */
		if (at + 6 <= 48 || has_next)
			hit = group_hit<at>(w);
		return hit + unit_hits<R0, K + 1>(w, has_next);
	}
}

/*
 * The sums of one unit of 48 bytes (three vectors a, b, c: eight groups
 * whatever the phase), whose next unit begins with the words n0, n1
 * (zeros, with has_next false, for the last unit: what crosses into the
 * tail is counted one byte at a time).  R0 (0..5) is where its first
 * group begins, the same in every unit of a chunk.
 */
template <unsigned R0>
__device__ __forceinline__ void stats_unit(struct stream_sums *s, uint4 a,
					   uint4 b, uint4 c, unsigned n0,
					   unsigned n1, bool has_next)
{
	const unsigned w[14] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w,
				 c.x, c.y, c.z, c.w, n0, n1 };
	unsigned pairs = 0;

	/* Byte k times byte k + 1: each word against itself moved on one
	 * (65025 x 48 fits 32 bits). */
#pragma unroll
	for (int k = 0; k < 12; k++)
		pairs = __dp4a(w[k], __byte_perm(w[k], w[k + 1], 0x4321), pairs);
	s->pairs += pairs;
	s->hits += unit_hits<R0, 0>(w, has_next);
}

/* Block 0's share: the pairs and groups not wholly inside the vectors
 * (those that begin in the unaligned head, or run into the tail). */
__device__ __forceinline__ void stats_ends(struct stream_sums *s,
					   const unsigned char *data,
					   uint64_t len, uint64_t head,
					   uint64_t n_vecs, uint64_t tail_start,
					   unsigned phase)
{
	uint64_t t = threadIdx.x;
	uint64_t pairs_from = n_vecs ? tail_start - 1 : tail_start;
	uint64_t groups_from = tail_start >= head + 5 ? tail_start - 5 : head;

	if (t < head && t + 1 < len)
		s->pairs += (unsigned)data[t] * data[t + 1];
	if (pairs_from + t + 1 < len)
		s->pairs += (unsigned)data[pairs_from + t] *
			    data[pairs_from + t + 1];
	if (t < head && (t + GH_PI_GROUP - phase) % GH_PI_GROUP == 0 &&
	    t + GH_PI_GROUP <= len)
		s->hits += gh_pi_hit(data + t);
	uint64_t g = groups_from + t;
	if ((g + GH_PI_GROUP - phase) % GH_PI_GROUP == 0 &&
	    g + GH_PI_GROUP <= len)
		s->hits += gh_pi_hit(data + g);
}

/* Adds a warp's sums into sums[0] (pairs) and sums[1] (hits). */
__device__ __forceinline__ void flush_sums(struct stream_sums s,
					   unsigned long long *sums)
{
	unsigned long long hits = s.hits;

#pragma unroll
	for (int d = 16; d > 0; d /= 2) {
		s.pairs += __shfl_xor_sync(0xffffffffu, s.pairs, d);
		hits += __shfl_xor_sync(0xffffffffu, hits, d);
	}
	if (threadIdx.x % 32 == 0) {
		if (s.pairs)
			atomicAdd(&sums[0], s.pairs);
		if (hits)
			atomicAdd(&sums[1], hits);
	}
}

/* Vector i, or zeros past n_vecs. */
__device__ __forceinline__ uint4 load_or_zero(const uint4 *vecs, uint64_t i,
					      uint64_t n_vecs)
{
	return i < n_vecs ? __ldg(&vecs[i]) : make_uint4(0, 0, 0, 0);
}

/*
 * The units with statistics: each lane takes one unit (three loads in
 * flight) and warps step over them together, so that every shuffle has
 * all 32 lanes; lanes past the end count nothing but still shuffle.
 */
template <unsigned R0, bool BYTE_RUNS>
__device__ __forceinline__ void count_units(unsigned *bins, struct run *r,
					    struct stream_sums *s,
					    const uint4 *vecs, uint64_t n_units)
{
	unsigned lane = threadIdx.x % 32;
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t base = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x - lane;
	uint64_t n_vecs = 3 * n_units;

	for (; base < n_units; base += stride) {
		uint64_t u = base + lane;
		uint4 a = load_or_zero(vecs, 3 * u, n_vecs);
		uint4 b = load_or_zero(vecs, 3 * u + 1, n_vecs);
		uint4 c = load_or_zero(vecs, 3 * u + 2, n_vecs);
		bool has_next = u + 1 < n_units;
		unsigned n0 = __shfl_down_sync(0xffffffffu, a.x, 1);
		unsigned n1 = __shfl_down_sync(0xffffffffu, a.y, 1);

		if (lane == 31 && has_next) {
			uint2 n = __ldg((const uint2 *)&vecs[3 * u + 3]);

			n0 = n.x;
			n1 = n.y;
		}
		if (!has_next)
			n0 = n1 = 0;
		if (u < n_units) {
			count_vec<BYTE_RUNS>(bins, r, a);
			count_vec<BYTE_RUNS>(bins, r, b);
			count_vec<BYTE_RUNS>(bins, r, c);
			stats_unit<R0>(s, a, b, c, n0, n1, has_next);
		}
	}
}

/* count_units for a first group at r0, known only when running. */
template <bool BYTE_RUNS>
__device__ __forceinline__ void count_units_at(unsigned r0, unsigned *bins,
					       struct run *r,
					       struct stream_sums *s,
					       const uint4 *vecs,
					       uint64_t n_units)
{
	switch (r0) {
	case 0: count_units<0, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	case 1: count_units<1, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	case 2: count_units<2, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	case 3: count_units<3, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	case 4: count_units<4, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	default: count_units<5, BYTE_RUNS>(bins, r, s, vecs, n_units); break;
	}
}

/*
 * COPIES_PER_WARP private copies of the bins per warp (lane mod copies picks
 * one): more copies, fewer lanes of a warp hitting the same counter at once
 * on skewed text, but more shared memory to zero and flush.
 */
template <int COPIES_PER_WARP, bool BYTE_RUNS, bool STATS>
__global__ void __launch_bounds__(GH_KERNEL_BLOCK_THREADS)
histogram_kernel(const unsigned char *__restrict__ data, uint64_t len,
		 unsigned long long *__restrict__ totals, unsigned phase,
		 unsigned long long *__restrict__ sums)
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
	/* With statistics, whole units of three vectors (48 bytes). */
	uint64_t n_vecs = STATS ? (len - head) / 48 * 3 : (len - head) / 16;
	uint64_t tail_start = head + n_vecs * 16;

	if (blockIdx.x == 0) {
		if (threadIdx.x < head)
			add_run(my_bins, &r, data[threadIdx.x], 1);
		if (tail_start + threadIdx.x < len)
			add_run(my_bins, &r, data[tail_start + threadIdx.x], 1);
	}

	if (STATS) {
		struct stream_sums s = { 0, 0 };

		if (blockIdx.x == 0)
			stats_ends(&s, data, len, head, n_vecs, tail_start,
				   phase);
		count_units_at<BYTE_RUNS>((unsigned)((phase + 6 - head % 6) % 6),
					  my_bins, &r, &s, vecs, n_vecs / 3);
		flush_sums(s, sums);
	}
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i = STATS ? n_vecs
		     : (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
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
template <int COPIES_PER_WARP, bool BYTE_RUNS, bool STATS>
static cudaError_t launch_any(const unsigned char *data, uint64_t len,
			      unsigned long long *totals, int max_blocks,
			      cudaStream_t stream, unsigned phase,
			      unsigned long long *sums)
{
	uint64_t want;
	int blocks;

	if (len == 0)
		return cudaSuccess;
	if (len > GH_KERNEL_MAX_LEN || max_blocks < 1 || phase >= GH_PI_GROUP)
		return cudaErrorInvalidValue;
	/* Enough blocks for one vector a thread, no more than fit at once. */
	want = (len / 16 + GH_KERNEL_BLOCK_THREADS - 1) / GH_KERNEL_BLOCK_THREADS;
	blocks = want < (uint64_t)max_blocks ? (int)(want ? want : 1) : max_blocks;
	histogram_kernel<COPIES_PER_WARP, BYTE_RUNS, STATS>
		<<<blocks, GH_KERNEL_BLOCK_THREADS, 0, stream>>>(
			data, len, totals, phase, sums);
	return cudaGetLastError();
}

template <int COPIES_PER_WARP, bool BYTE_RUNS>
static cudaError_t launch_histogram(const unsigned char *data, uint64_t len,
				    unsigned long long *totals, int max_blocks,
				    cudaStream_t stream)
{
	return launch_any<COPIES_PER_WARP, BYTE_RUNS, false>(
		data, len, totals, max_blocks, stream, 0, NULL);
}

template <int COPIES_PER_WARP, bool BYTE_RUNS>
static cudaError_t blocks_per_sm(int *blocks)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		blocks, histogram_kernel<COPIES_PER_WARP, BYTE_RUNS, false>,
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

extern "C" cudaError_t gh_kernel_histogram_stats(const unsigned char *data,
						 uint64_t len, unsigned phase,
						 unsigned long long *totals,
						 unsigned long long *sums,
						 int max_blocks,
						 cudaStream_t stream)
{
	return launch_any<GH_COPIES_PER_WARP, GH_BYTE_RUNS, true>(
		data, len, totals, max_blocks, stream, phase, sums);
}
