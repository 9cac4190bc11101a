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
 *     them into global memory every ROUND_ITERS loads of the block, fewer
 *     bytes than 3 x 65,535, and only in a round where any came;
 *   - four-byte characters (emoji, rare): a global atomic each.
 * Each thread takes sixteen aligned bytes and the four before and after
 * them.  Sixteen ASCII bytes are counted as histogram.cu counts bytes;
 * anything else is decoded by gh_utf8.h's rule, from where decoding
 * resumes in the thread's bytes, so a character is counted by the thread
 * holding its first byte and exactly once.  Only positions [from, to) are
 * counted; the bytes around them are context (seams.c counts the rest).
 */
#include <cuda_runtime.h>

#include "gh_kernel.h"
#include "gh_utf8.h"

#define CT GH_CHARS_BLOCK_THREADS
#define WARPS (CT / 32)
#define BYTE_ROW 257
#define TWO_FIRST 0x80u
#define TWO_BINS (0x800u - TWO_FIRST)
#define TWO_COPIES 2
#define THREE_FIRST 0x800u
#define THREE_WORDS ((0x10000u - THREE_FIRST) / 2)
/* Loads of the block between emptyings of the three-byte counters: each
 * load is 16 bytes a thread, so a round holds at most 16 x CT x
 * ROUND_ITERS / 3 three-byte characters, which must stay below 65,536. */
#define ROUND_ITERS 11
#define SHARED_WORDS (WARPS * BYTE_ROW + TWO_COPIES * TWO_BINS + THREE_WORDS)

static_assert(16ull * CT * ROUND_ITERS / 3 < 65536, "16-bit counters");
static_assert(SHARED_WORDS * 4 <= 227 * 1024, "fits one block's shared memory");

struct shared_bins {
	unsigned *bytes;        /* this warp's row */
	unsigned *two;          /* this thread's copy */
	unsigned *three;
	int *three_used;
};

__device__ __forceinline__ void count_bin(const struct shared_bins *s,
					  unsigned long long *totals,
					  uint32_t bin)
{
	if (bin < 0x80u) {
		atomicAdd_block(&s->bytes[bin], 1);
	} else if (bin < 0x800u) {
		atomicAdd_block(&s->two[bin - TWO_FIRST], 1);
	} else if (bin < 0x10000u) {
		atomicAdd_block(&s->three[(bin - THREE_FIRST) >> 1],
				1u << ((bin & 1u) << 4));
		*s->three_used = 1;
	} else if (bin < 0x110000u) {
		atomicAdd(&totals[bin], 1ull);
	} else {                /* an invalid byte: its own byte value */
		atomicAdd_block(&s->bytes[bin - 0x110000u + 0x80u], 1);
	}
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

/* The sixteen bytes at 16 x i and their characters. */
__device__ void count_vector(const struct shared_bins *s,
			     unsigned long long *totals,
			     const unsigned char *data, uint64_t len,
			     uint64_t from, uint64_t to, uint64_t i)
{
	uint64_t off = 16 * i;
	uint4 v;

	if (off + 16 <= len) {
		v = __ldg((const uint4 *)data + i);
	} else {
		v.x = load_word(data, len, (int64_t)off);
		v.y = load_word(data, len, (int64_t)off + 4);
		v.z = load_word(data, len, (int64_t)off + 8);
		v.w = load_word(data, len, (int64_t)off + 12);
	}
	if (off >= from && off + 16 <= to &&
	    !((v.x | v.y | v.z | v.w) & 0x80808080u)) {
		if (v.x == v.y && v.x == v.z && v.x == v.w &&
		    v.x == (v.x & 0xff) * 0x01010101u) {
			atomicAdd_block(&s->bytes[v.x & 0xff], 16);
			return;
		}
		count_ascii_word(s->bytes, v.x);
		count_ascii_word(s->bytes, v.y);
		count_ascii_word(s->bytes, v.z);
		count_ascii_word(s->bytes, v.w);
		return;
	}
	/* The window: four bytes before, the sixteen, four after. */
	unsigned words[6] = { load_word(data, len, (int64_t)off - 4), v.x, v.y,
			      v.z, v.w, load_word(data, len, (int64_t)off + 16) };
	unsigned char win[24];
	for (int k = 0; k < 24; k++)
		win[k] = (unsigned char)(words[k >> 2] >> (8 * (k & 3)));
	uint64_t avail = len - off + 4 < 24 ? len - off + 4 : 24;
	uint64_t end = avail < 20 ? avail : 20;
	uint64_t p = gh_utf8_resume(win, avail, 4);

	while (p < end) {
		uint64_t at = off + p - 4;
		uint32_t bin = gh_utf8_next(win, avail, &p);

		if (at >= from && at < to)
			count_bin(s, totals, bin);
	}
}

/* Empties the three-byte counters into totals. */
__device__ void flush_three(unsigned *three, unsigned long long *totals)
{
	for (unsigned w = threadIdx.x; w < THREE_WORDS; w += CT) {
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

__global__ void __launch_bounds__(CT)
chars_kernel(const unsigned char *__restrict__ data, uint64_t len,
	     uint64_t from, uint64_t to, unsigned long long *__restrict__ totals)
{
	extern __shared__ unsigned smem[];
	__shared__ int three_used;
	unsigned warp = threadIdx.x / 32;
	struct shared_bins s = {
		smem + warp * BYTE_ROW,
		smem + WARPS * BYTE_ROW + (warp % TWO_COPIES) * TWO_BINS,
		smem + WARPS * BYTE_ROW + TWO_COPIES * TWO_BINS,
		&three_used,
	};

	for (unsigned i = threadIdx.x; i < SHARED_WORDS; i += CT)
		smem[i] = 0;
	if (threadIdx.x == 0)
		three_used = 0;
	__syncthreads();

	/* Loads [first, last) of 16 bytes hold the positions to count. */
	uint64_t first = from / 16, last = (to + 15) / 16;
	uint64_t per_iter = (uint64_t)gridDim.x * CT;
	uint64_t iters = (last - first + per_iter - 1) / per_iter;

	for (uint64_t it = 0; it < iters; it++) {
		uint64_t i = first + it * per_iter + (uint64_t)blockIdx.x * CT +
			     threadIdx.x;

		if (i < last)
			count_vector(&s, totals, data, len, from, to, i);
		if ((it + 1) % ROUND_ITERS == 0) {
			__syncthreads();
			if (three_used) {
				flush_three(s.three, totals);
				__syncthreads();
				if (threadIdx.x == 0)
					three_used = 0;
			}
			__syncthreads();
		}
	}
	__syncthreads();
	if (three_used)
		flush_three(s.three, totals);
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

extern "C" cudaError_t gh_kernel_chars_setup(void)
{
	return cudaFuncSetAttribute(chars_kernel,
				    cudaFuncAttributeMaxDynamicSharedMemorySize,
				    SHARED_WORDS * 4);
}

extern "C" cudaError_t gh_kernel_chars(const unsigned char *data, uint64_t len,
				       uint64_t from, uint64_t to,
				       unsigned long long *totals,
				       int max_blocks, cudaStream_t stream)
{
	uint64_t want;
	int blocks;

	if (to > len)
		to = len;
	if (from >= to)
		return cudaSuccess;
	if (len > GH_KERNEL_MAX_LEN || max_blocks < 1 || ((uintptr_t)data & 15))
		return cudaErrorInvalidValue;
	want = ((to - from) / 16 + CT - 1) / CT;
	blocks = want < (uint64_t)max_blocks ? (int)(want ? want : 1) : max_blocks;
	chars_kernel<<<blocks, CT, SHARED_WORDS * 4, stream>>>(data, len, from,
							       to, totals);
	return cudaGetLastError();
}
