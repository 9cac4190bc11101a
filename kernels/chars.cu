/* chars.cu - counting the code points of UTF-8 text on the GPU
 *
 * 1,114,240 bins do not fit in shared memory, so each block keeps private
 * shared bins for the ranges text lives in, and only the rest goes to the
 * 64-bit totals in global memory:
 *   - bytes: ASCII and the invalid bytes 0x80..0xff, one row of 256 a
 *     warp (a byte value is either one or the other), as histogram.cu;
 *   - two-byte characters U+0080..U+07FF (Latin, Greek, Cyrillic, Hebrew,
 *     Arabic), two copies a block;
 *   - three-byte characters U+0800..U+FFFF (CJK, kana, Hangul, general
 *     punctuation): all 63,488 as 16-bit counters, two to a word.  A word
 *     never carries from one half into the other because the block empties
 *     them into global memory every ROUND_STEPS loads of each thread, fewer
 *     bytes than 3 x 65,535, and only in a round where any came;
 *   - four-byte characters (emoji, rare): a global atomic each.
 * Each thread takes sixteen aligned bytes (LOADS of them in flight) and
 * the four before and after them.  Sixteen ASCII bytes are counted as
 * histogram.cu counts bytes; anything else by gh_utf8.h's rule on bit
 * masks (count_mixed), so that the work follows the bytes above 0x7f and a
 * character is counted once, by the thread holding its first byte.  Only
 * positions [from, to) are counted; the bytes around them are context
 * (seams.c counts the rest).
 */
#include <cuda_runtime.h>

#include "gh_kernel.h"
#include "gh_utf8.h"

#define BYTE_ROW 257
#define TWO_FIRST 0x80u
#define TWO_BINS (0x800u - TWO_FIRST)
#define TWO_COPIES 2
#define THREE_FIRST 0x800u
#define THREE_WORDS ((0x10000u - THREE_FIRST) / 2)
/* Sixteen-byte loads a thread has in flight at once. */
#define LOADS 4
/* Loads of each thread between emptyings of the three-byte counters.  A
 * block's threads load 16 x threads contiguous bytes at a time, in which
 * at most (16 x threads + 2) / 3 three-byte characters begin; a round must
 * hold fewer than 65,536 (11 loads at 1024 threads; a round ends in a
 * barrier, so the most that fit). */
#define ROUND_STEPS(threads) ((int)(65535 / ((16ull * (threads) + 2) / 3)))
/* A block's shared words: the rows, the copies, the three-byte counters. */
#define SHARED_WORDS(threads, three) \
	((threads) / 32 * BYTE_ROW + TWO_COPIES * TWO_BINS + \
	 ((three) ? THREE_WORDS : 0))

/* Adds one to bin in a block's shared bins (bytes: this warp's row; two:
 * this warp's copy) or, past them, in totals; true for a three-byte one. */
template <bool THREE>
__device__ __forceinline__ bool count_bin(unsigned *bytes, unsigned *two,
					  unsigned *three,
					  unsigned long long *totals,
					  uint32_t bin)
{
	if (bin < 0x80u) {
		atomicAdd_block(&bytes[bin], 1);
	} else if (bin < 0x800u) {
		atomicAdd_block(&two[bin - TWO_FIRST], 1);
	} else if (THREE && bin < 0x10000u) {
		atomicAdd_block(&three[(bin - THREE_FIRST) >> 1],
				1u << ((bin & 1u) << 4));
		return true;
	} else if (bin < 0x110000u) {
		atomicAdd(&totals[bin], 1ull);
	} else {                /* an invalid byte: its own byte value */
		atomicAdd_block(&bytes[bin - 0x110000u + 0x80u], 1);
	}
	return false;
}

__device__ __forceinline__ void count_ascii_word(unsigned *bytes, unsigned w)
{
	atomicAdd_block(&bytes[w & 0xff], 1);
	atomicAdd_block(&bytes[(w >> 8) & 0xff], 1);
	atomicAdd_block(&bytes[(w >> 16) & 0xff], 1);
	atomicAdd_block(&bytes[w >> 24], 1);
}

__device__ __forceinline__ unsigned load_word(const unsigned char *data,
					      uint64_t len, int64_t at)
{
	if (at < 0)
		return 0;       /* before the data: NULs, which begin nothing */
	if ((uint64_t)at + 4 <= len)
		return __ldg((const unsigned *)(data + at));
	unsigned w = 0;
	for (int k = 0; k < 4 && (uint64_t)at + k < len; k++)
		w |= (unsigned)data[at + k] << (8 * k);
	return w;
}

/* The sixteen bytes at 16 x i, whole in data[0..len) or not. */
__device__ __forceinline__ uint4 load_vector(const unsigned char *data,
					     uint64_t len, uint64_t i)
{
	uint64_t off = 16 * i;
	uint4 v;

	if (off + 16 <= len)
		return __ldg((const uint4 *)data + i);
	v.x = load_word(data, len, (int64_t)off);
	v.y = load_word(data, len, (int64_t)off + 4);
	v.z = load_word(data, len, (int64_t)off + 8);
	v.w = load_word(data, len, (int64_t)off + 12);
	return v;
}

/* Word j (0..5) of the window w, j known only at run time: selected, so
 * that w stays in registers. */
__device__ __forceinline__ unsigned window_word(const unsigned w[6], int j)
{
	unsigned r = w[0];

	r = j == 1 ? w[1] : r;
	r = j == 2 ? w[2] : r;
	r = j == 3 ? w[3] : r;
	r = j == 4 ? w[4] : r;
	r = j == 5 ? w[5] : r;
	return r;
}

/* Bytes k..k+3 of the window (k <= 19), byte k lowest. */
__device__ __forceinline__ unsigned window_bytes(const unsigned w[6], int k)
{
	return __funnelshift_r(window_word(w, k >> 2),
			       window_word(w, (k >> 2) + 1), 8 * (k & 3));
}

/* Bit 7 of each byte of x, as a 4-bit mask (byte 0 lowest). */
__device__ __forceinline__ unsigned byte_flags(unsigned x)
{
	unsigned f = (x >> 7) & 0x01010101u;

	return (f | f >> 7 | f >> 14 | f >> 21) & 0xfu;
}

/* The length (2..4) of the well-formed sequence whose bytes are x (first
 * byte lowest, at least 0xc0), its code point in *cp; 0 where there is
 * none (gh_utf8_sequence on a register). */
__device__ __forceinline__ int sequence_in(unsigned x, uint32_t *cp)
{
	unsigned b0 = x & 0xff, b1 = x >> 8 & 0xff, b2 = x >> 16 & 0xff,
		 b3 = x >> 24;
	unsigned lo = b0 == 0xe0 ? 0xa0 : b0 == 0xf0 ? 0x90 : 0x80;
	unsigned hi = b0 == 0xed ? 0x9f : b0 == 0xf4 ? 0x8f : 0xbf;

	if (b0 < 0xc2 || b0 > 0xf4)
		return 0;
	if (b0 < 0xe0) {
		*cp = (b0 & 0x1fu) << 6 | (b1 & 0x3fu);
		return gh_utf8_continuation(b1) ? 2 : 0;
	}
	if (b1 < lo || b1 > hi || !gh_utf8_continuation(b2))
		return 0;
	if (b0 < 0xf0) {
		*cp = (b0 & 0x0fu) << 12 | (b1 & 0x3fu) << 6 | (b2 & 0x3fu);
		return 3;
	}
	*cp = (b0 & 0x07u) << 18 | (b1 & 0x3fu) << 12 | (b2 & 0x3fu) << 6 |
	      (b3 & 0x3fu);
	return gh_utf8_continuation(b3) ? 4 : 0;
}

/*
 * Sixteen bytes v at off that are not all ASCII (or not all to count),
 * gh_utf8.h's rule on bit masks.  The window w holds the four bytes before
 * them and the four after (zeros past len: they begin and continue
 * nothing), positions 4..19 being v's.  ASCII bytes count themselves; each
 * byte from 0xc0 up (from position 1, as one before v may cover into it)
 * is decoded where it stands and marks the bytes its sequence covers; a
 * continuation byte left uncovered counts as invalid.  Work goes with the
 * bytes above 0x7f, not with the sixteen.  True when any character counted
 * was a three-byte one.
 */
template <bool THREE>
__device__ __forceinline__ bool count_mixed(unsigned *bytes, unsigned *two,
					    unsigned *three,
					    unsigned long long *totals,
					    const unsigned char *data,
					    uint64_t len, uint64_t from,
					    uint64_t to, uint64_t off, uint4 v)
{
	const unsigned w[6] = { load_word(data, len, (int64_t)off - 4), v.x,
				v.y, v.z, v.w,
				load_word(data, len, (int64_t)off + 16) };
	unsigned high = 0, cont = 0, covered = 0, leads, bad;
	uint64_t lo = from > off ? from - off : 0, hi = to - off;
	unsigned in_range;
	bool three_used = false;

	lo = lo < 16 ? lo : 16;
	hi = hi < 16 ? hi : 16;
	in_range = (unsigned)(((1ull << hi) - 1) & ~((1ull << lo) - 1)) << 4;
#pragma unroll
	for (int j = 0; j < 6; j++) {
		high |= byte_flags(w[j]) << (4 * j);
		cont |= byte_flags(w[j] & ~(w[j] << 1)) << (4 * j);
	}
	/* ASCII bytes of v. */
#pragma unroll
	for (int k = 4; k < 20; k++) {
		unsigned b = (w[k >> 2] >> (8 * (k & 3))) & 0xff;

		if (b < 0x80 && (in_range >> k & 1))
			atomicAdd_block(&bytes[b], 1);
	}
	leads = high & ~cont & 0xffffeu;        /* positions 1..19 */
	while (leads) {
		int k = __ffs(leads) - 1;
		unsigned x = window_bytes(w, k);
		uint32_t cp = 0;
		int n = sequence_in(x, &cp);

		leads &= leads - 1;
		if (n)
			covered |= ((1u << n) - 2u) << k;
		if (in_range >> k & 1) {
			if (n)
				three_used |= count_bin<THREE>(bytes, two,
							three, totals, cp);
			else
				atomicAdd_block(&bytes[x & 0xff], 1);
		}
	}
	/* Continuation bytes no sequence covers: invalid, each itself. */
	bad = cont & ~covered & in_range;
	while (bad) {
		int k = __ffs(bad) - 1;

		bad &= bad - 1;
		atomicAdd_block(&bytes[window_bytes(w, k) & 0xff], 1);
	}
	return three_used;
}

/* The characters that the sixteen bytes v at 16 x i begin; true when
 * any was a three-byte one. */
template <bool THREE>
__device__ __forceinline__ bool count_vector(unsigned *bytes, unsigned *two,
					     unsigned *three,
					     unsigned long long *totals,
					     const unsigned char *data,
					     uint64_t len, uint64_t from,
					     uint64_t to, uint64_t i, uint4 v)
{
	uint64_t off = 16 * i;

	if (off >= from && off + 16 <= to &&
	    !((v.x | v.y | v.z | v.w) & 0x80808080u)) {
		if (v.x == v.y && v.x == v.z && v.x == v.w &&
		    v.x == (v.x & 0xff) * 0x01010101u) {
			atomicAdd_block(&bytes[v.x & 0xff], 16);
			return false;
		}
		count_ascii_word(bytes, v.x);
		count_ascii_word(bytes, v.y);
		count_ascii_word(bytes, v.z);
		count_ascii_word(bytes, v.w);
		return false;
	}
	return count_mixed<THREE>(bytes, two, three, totals, data, len, from,
				  to, off, v);
}

/* Empties the three-byte counters into totals. */
template <int THREADS>
__device__ void flush_three(unsigned *three, unsigned long long *totals)
{
	for (unsigned w = threadIdx.x; w < THREE_WORDS; w += THREADS) {
		unsigned x = three[w];

		if (!x)
			continue;
		three[w] = 0;
		if (x & 0xffff)
			atomicAdd(&totals[THREE_FIRST + 2 * w], x & 0xffff);
		if (x >> 16)
			atomicAdd(&totals[THREE_FIRST + 2 * w + 1], x >> 16);
	}
}

/*
 * THREADS a block; THREE: the three-byte counters in shared memory (one
 * block a multiprocessor), or else those characters straight into the
 * totals (small blocks, many a multiprocessor: for text with few of them).
 */
template <int THREADS, bool THREE>
__global__ void __launch_bounds__(THREADS)
chars_kernel(const unsigned char *__restrict__ data, uint64_t len,
	     uint64_t from, uint64_t to, unsigned long long *__restrict__ totals)
{
	constexpr int CT = THREADS, WARPS = THREADS / 32;
	static_assert(ROUND_STEPS(THREADS) >= 1 &&
		      (16ull * THREADS + 2) / 3 * ROUND_STEPS(THREADS) < 65536,
		      "16-bit counters");
	static_assert(SHARED_WORDS(THREADS, THREE) * 4 <= 227 * 1024,
		      "fits one block's shared memory");
	extern __shared__ unsigned smem[];
	unsigned warp = threadIdx.x / 32;
	unsigned *bytes = smem + warp * BYTE_ROW;
	unsigned *two = smem + WARPS * BYTE_ROW + (warp % TWO_COPIES) * TWO_BINS;
	unsigned *three = smem + WARPS * BYTE_ROW + TWO_COPIES * TWO_BINS;
	int three_used = 0;

	for (unsigned i = threadIdx.x; i < SHARED_WORDS(THREADS, THREE); i += CT)
		smem[i] = 0;
	__syncthreads();

	/* Loads [first, last) of 16 bytes hold the positions to count: this
	 * thread's are i0 + n x per_load.  LOADS of them are in flight in a
	 * ring of registers while one is counted, so that the counting code
	 * is there once (four copies of it overflowed the instruction
	 * cache). */
	uint64_t first = from / 16, last = (to + 15) / 16;
	uint64_t per_load = (uint64_t)gridDim.x * CT;
	uint64_t steps = (last - first + per_load - 1) / per_load;
	uint64_t i0 = first + (uint64_t)blockIdx.x * CT + threadIdx.x;
	uint4 ring[LOADS];

#pragma unroll
	for (int k = 0; k < LOADS; k++)
		if (i0 + k * per_load < last)
			ring[k] = load_vector(data, len, i0 + k * per_load);
	for (uint64_t n = 0; n < steps; n++) {
		uint64_t i = i0 + n * per_load, ahead = i + LOADS * per_load;
		uint4 v = ring[0];

#pragma unroll
		for (int k = 0; k < LOADS - 1; k++)
			ring[k] = ring[k + 1];
		if (ahead < last)
			ring[LOADS - 1] = load_vector(data, len, ahead);
		if (i < last)
			three_used |= count_vector<THREE>(bytes, two, three,
				totals, data, len, from, to, i, v);
		if (THREE && (n + 1) % ROUND_STEPS(THREADS) == 0) {
			/* Empties the three-byte counters where any came. */
			if (__syncthreads_or(three_used)) {
				flush_three<THREADS>(three, totals);
				__syncthreads();
			}
			three_used = 0;
		}
	}
	if (__syncthreads_or(three_used))
		flush_three<THREADS>(three, totals);
	for (unsigned b = threadIdx.x; b < 256; b += CT) {
		unsigned long long sum = 0;

		for (int w = 0; w < WARPS; w++)
			sum += smem[w * BYTE_ROW + b];
		if (sum)
			atomicAdd(&totals[b < 0x80 ? b : 0x110000u + b - 0x80u],
				  sum);
	}
	for (unsigned b = threadIdx.x; b < TWO_BINS; b += CT) {
		unsigned long long sum = 0;

		for (int c = 0; c < TWO_COPIES; c++)
			sum += smem[WARPS * BYTE_ROW + c * TWO_BINS + b];
		if (sum)
			atomicAdd(&totals[TWO_FIRST + b], sum);
	}
}

template <int THREADS, bool THREE>
static cudaError_t setup_chars(int *per_sm)
{
	cudaError_t err = cudaFuncSetAttribute(chars_kernel<THREADS, THREE>,
		cudaFuncAttributeMaxDynamicSharedMemorySize,
		SHARED_WORDS(THREADS, THREE) * 4);

	if (err == cudaSuccess)
		err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm,
			chars_kernel<THREADS, THREE>, THREADS,
			SHARED_WORDS(THREADS, THREE) * 4);
	return err;
}

template <int THREADS, bool THREE>
static cudaError_t launch_chars(const unsigned char *data, uint64_t len,
				uint64_t from, uint64_t to,
				unsigned long long *totals, int max_blocks,
				cudaStream_t stream)
{
	uint64_t want;
	int blocks;

	if (to > len)
		to = len;
	if (from >= to)
		return cudaSuccess;
	if (len > GH_KERNEL_MAX_LEN || max_blocks < 1 || ((uintptr_t)data & 15))
		return cudaErrorInvalidValue;
	want = ((to - from) / 16 + THREADS - 1) / THREADS;
	blocks = want < (uint64_t)max_blocks ? (int)(want ? want : 1) : max_blocks;
	chars_kernel<THREADS, THREE><<<blocks, THREADS,
		SHARED_WORDS(THREADS, THREE) * 4, stream>>>(data, len, from, to,
							  totals);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_chars_setup(void)
{
	int per_sm;

	return setup_chars<GH_CHARS_BLOCK_THREADS, true>(&per_sm);
}

extern "C" cudaError_t gh_kernel_chars(const unsigned char *data, uint64_t len,
				       uint64_t from, uint64_t to,
				       unsigned long long *totals,
				       int max_blocks, cudaStream_t stream)
{
	return launch_chars<GH_CHARS_BLOCK_THREADS, true>(data, len, from, to,
		totals, max_blocks, stream);
}
