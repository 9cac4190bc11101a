/* kernel-check.c - TAP test: the GPU kernel's totals equal the one-byte CPU
 * loop at every start alignment, edge lengths, and four data shapes; with
 * ent's statistics, its stream sums equal a loop over every pair and group
 * at every phase. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "circle.h"
#include "backend/cpu/count.h"
#include "gh_kernel.h"

/* 64 MiB; 4 MiB with GH_KERNEL_CHECK_QUICK set (under compute-sanitizer). */
static size_t buf_bytes = (size_t)64 << 20;

static int test_no, failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
	failed |= !cond;
}

static int cuda_ok(cudaError_t err, const char *what)
{
	if (err == cudaSuccess)
		return 1;
	printf("# %s: %s\n", what, cudaGetErrorString(err));
	return 0;
}

/* Counts dev[off..off+len) on the GPU and host[off..) on the CPU. */
static int agree(const unsigned char *host, const unsigned char *dev,
		 unsigned long long *d_totals, int max_blocks, size_t off,
		 uint64_t len)
{
	uint64_t want[256] = { 0 };
	unsigned long long got[256];

	if (!cuda_ok(cudaMemset(d_totals, 0, sizeof(got)), "memset") ||
	    !cuda_ok(gh_kernel_histogram(dev + off, len, d_totals, max_blocks,
					 0), "launch") ||
	    !cuda_ok(cudaMemcpy(got, d_totals, sizeof(got),
				cudaMemcpyDeviceToHost), "copy back"))
		return 0;
	gh_count_bytes_simple(host + off, len, want);
	for (int v = 0; v < 256; v++)
		if (got[v] != want[v]) {
			printf("# off %zu len %" PRIu64 ": byte %d: gpu %llu cpu %" PRIu64 "\n",
			       off, len, v, got[v], want[v]);
			return 0;
		}
	return 1;
}

/* The same with the stream sums (groups from phase), against a plain loop
 * over every pair and group. */
static int agree_stats(const unsigned char *host, const unsigned char *dev,
		       unsigned long long *d_totals, int max_blocks,
		       size_t off, uint64_t len, unsigned phase)
{
	const unsigned char *p = host + off;
	uint64_t want[256] = { 0 }, pairs = 0, hits = 0;
	unsigned long long got[258];

	if (!cuda_ok(cudaMemset(d_totals, 0, sizeof(got)), "memset") ||
	    !cuda_ok(gh_kernel_histogram_stats(dev + off, len, phase, d_totals,
					       d_totals + 256, max_blocks, 0),
		     "launch") ||
	    !cuda_ok(cudaMemcpy(got, d_totals, sizeof(got),
				cudaMemcpyDeviceToHost), "copy back"))
		return 0;
	gh_count_bytes_simple(p, len, want);
	for (uint64_t i = 0; i + 1 < len; i++)
		pairs += (uint64_t)p[i] * p[i + 1];
	for (uint64_t g = phase; g + 6 <= len; g += 6) {
		uint64_t x = (uint64_t)p[g] << 16 | p[g + 1] << 8 | p[g + 2];
		uint64_t y = (uint64_t)p[g + 3] << 16 | p[g + 4] << 8 | p[g + 5];

		hits += x * x + y * y <= (uint64_t)0xffffff * 0xffffff;
	}
	for (int v = 0; v < 256; v++)
		if (got[v] != want[v]) {
			printf("# stats off %zu len %" PRIu64 ": byte %d: gpu %llu cpu %" PRIu64 "\n",
			       off, len, v, got[v], want[v]);
			return 0;
		}
	if (got[256] != pairs || got[257] != hits) {
		printf("# stats off %zu len %" PRIu64 " phase %u: pairs %llu hits %llu, want %" PRIu64 " %" PRIu64 "\n",
		       off, len, phase, got[256], got[257], pairs, hits);
		return 0;
	}
	return 1;
}

static void fill(unsigned char *p, size_t n, int shape)
{
	static const char text[] =
		"127.0.0.1 - - [22/Nov/2026:03:01:00 +0000] \"GET /index.html HTTP/1.1\" 200 5120\n";
	uint64_t x = 88172645463325252ull;

	for (size_t i = 0; i < n; i++) {
		switch (shape) {
		case 0:
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			p[i] = (unsigned char)x;
			break;
		case 1:
			p[i] = 0xff;
			break;
		case 3:         /* groups on either side of ent's circle */
			if (i % 6 == 0) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				unsigned char g[6];

				circle_group(x % 0x1000000, (int)(x >> 63), g);
				memcpy(p + i, g, n - i < 6 ? n - i : 6);
			}
			break;
		default:
			p[i] = (unsigned char)text[i % (sizeof(text) - 1)];
		}
	}
}

int main(void)
{
	static const char *shape_name[] = { "random", "one repeated byte", "log text",
					    "groups at ent's circle" };
	static const uint64_t lengths[] = {
		0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 95, 96, 97, 143,
		144, 145, 255, 256, 257, 4095, 4096,
		4097, 65535, 65536, 65537, 1000003,
	};
	unsigned long long *d_totals = NULL;
	unsigned char *host, *dev = NULL;
	int n_devices = 0, per_sm = 0, max_blocks;
	struct cudaDeviceProp prop;
	char what[160];

	if (getenv("GH_KERNEL_CHECK_QUICK"))
		buf_bytes = (size_t)4 << 20;
	if (cudaGetDeviceCount(&n_devices) != cudaSuccess || n_devices == 0) {
		printf("1..0 # SKIP no CUDA device\n");
		return 0;
	}
	printf("1..%d\n", 4 * 6 + 3);
	host = malloc(buf_bytes);
	if (!host || !cuda_ok(cudaMalloc((void **)&dev, buf_bytes), "malloc") ||
	    !cuda_ok(cudaMalloc((void **)&d_totals, 258 * 8), "malloc") ||
	    !cuda_ok(cudaGetDeviceProperties(&prop, 0), "properties") ||
	    !cuda_ok(gh_kernel_blocks_per_sm(&per_sm), "occupancy"))
		return 1;
	max_blocks = prop.multiProcessorCount * per_sm;
	printf("# %s, %d SMs, %d blocks per SM\n", prop.name,
	       prop.multiProcessorCount, per_sm);

	for (int shape = 0; shape < 4; shape++) {
		int all = 1;

		fill(host, buf_bytes, shape);
		if (!cuda_ok(cudaMemcpy(dev, host, buf_bytes,
					cudaMemcpyHostToDevice), "copy"))
			return 1;
		for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
			for (size_t off = 0; off < 16; off++)
				all &= agree(host, dev, d_totals, max_blocks, off,
					     lengths[i]);
		snprintf(what, sizeof(what), "%s: lengths 0..1000003 at 16 start alignments",
			 shape_name[shape]);
		ok(all, what);
		snprintf(what, sizeof(what), "%s: whole buffer minus 5 bytes from offset 3",
			 shape_name[shape]);
		ok(agree(host, dev, d_totals, max_blocks, 3, buf_bytes - 5), what);
		snprintf(what, sizeof(what), "%s: whole buffer on one block", shape_name[shape]);
		ok(agree(host, dev, d_totals, 1, 0, buf_bytes), what);

		all = 1;
		for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
			for (size_t off = 0; off < 16; off++)
				for (unsigned ph = 0; ph < 6; ph++)
					all &= agree_stats(host, dev, d_totals,
							   max_blocks, off,
							   lengths[i], ph);
		snprintf(what, sizeof(what), "%s, stats: lengths 0..1000003 at 16 start alignments, 6 phases",
			 shape_name[shape]);
		ok(all, what);
		all = 1;
		for (unsigned ph = 0; ph < 6; ph++)
			all &= agree_stats(host, dev, d_totals, max_blocks, 3,
					   buf_bytes - 5, ph);
		snprintf(what, sizeof(what), "%s, stats: whole buffer minus 5 bytes, 6 phases",
			 shape_name[shape]);
		ok(all, what);
		snprintf(what, sizeof(what), "%s, stats: whole buffer on one block",
			 shape_name[shape]);
		ok(agree_stats(host, dev, d_totals, 1, 0, buf_bytes, 1), what);
	}
	ok(gh_kernel_histogram_stats(dev, 100, 6, d_totals, d_totals + 256,
				     max_blocks, 0) == cudaErrorInvalidValue,
	   "a phase past 5 is refused");
	ok(gh_kernel_histogram(dev, GH_KERNEL_MAX_LEN + 1, d_totals, max_blocks,
			       0) == cudaErrorInvalidValue,
	   "a length over the limit is refused, not miscounted");
	ok(cudaDeviceSynchronize() == cudaSuccess, "no asynchronous error left");
	cudaFree(dev);
	cudaFree(d_totals);
	free(host);
	return failed;
}
