/* gh_kernel.h - the C interface to the GPU histogram kernel */
#ifndef GH_KERNEL_H
#define GH_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block the kernel is compiled for. */
#define GH_KERNEL_BLOCK_THREADS 256

/* Largest len one launch takes: keeps every shared 32-bit bin from wrapping. */
#define GH_KERNEL_MAX_LEN ((uint64_t)1 << 31)

/* Resident blocks per multiprocessor at full occupancy (grid sizing). */
cudaError_t gh_kernel_blocks_per_sm(int *blocks);

/*
 * Adds the byte values of data[0..len) (device memory, any alignment,
 * len <= GH_KERNEL_MAX_LEN) into totals[0..256) on stream, with at most
 * max_blocks blocks.  Returns the launch's error; errors of the run itself
 * surface at the next synchronisation.
 */
cudaError_t gh_kernel_histogram(const unsigned char *data, uint64_t len,
				unsigned long long *totals, int max_blocks,
				cudaStream_t stream);

/*
 * The same, adding also ent's stream sums of data[0..len) (gh_stats.h):
 * into sums[0] the products of its adjacent bytes, into sums[1] the hits
 * of the Monte Carlo groups that begin at positions phase (0..5), phase +
 * 6, ... and end inside it.
 */
cudaError_t gh_kernel_histogram_stats(const unsigned char *data, uint64_t len,
				      unsigned phase,
				      unsigned long long *totals,
				      unsigned long long *sums, int max_blocks,
				      cudaStream_t stream);

/* Threads per block of the code-point kernel (one block a multiprocessor:
 * its shared bins take most of the shared memory). */
#define GH_CHARS_BLOCK_THREADS 1024

/* Allows the code-point kernel its shared memory; once per device. */
cudaError_t gh_kernel_chars_setup(void);

/*
 * Adds the code points that positions [from, to) of data[0..len) begin
 * (gh_utf8.h's rule; the other bytes are context) into
 * totals[0..GPUHIST_CHAR_BINS) on stream, with at most max_blocks blocks.
 * data must be 16-byte aligned, len <= GH_KERNEL_MAX_LEN.
 */
cudaError_t gh_kernel_chars(const unsigned char *data, uint64_t len,
			    uint64_t from, uint64_t to,
			    unsigned long long *totals, int max_blocks,
			    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
