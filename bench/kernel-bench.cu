/* kernel-bench.cu - the histogram kernel against NVIDIA CUB and the textbook
 * kernel, on 1 GiB already on the device, three shapes, timed with events.
 *
 * Prints one row per shape and kernel: milliseconds (median of 20 after a
 * warm-up), GB/s of input, and the ratio to CUB's
 * DeviceHistogram::HistogramEven (256 bins).  The device-to-device copy of
 * the same buffer is the memory ceiling (bytes read + written), and a
 * kernel doing nothing but shared-memory atomics (one a byte, no loads) is
 * the ceiling of counting each byte with an atomic.  Every
 * kernel's totals are checked against a CPU count before it is timed.
 * The kernel source is included whole, so that the variants gpuhist does
 * not run (other template parameters) are timed beside the one it does.
 * Usage: kernel-bench [MiB]   (default 1024)
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cub/device/device_histogram.cuh>

#include "histogram.cu"

#define BENCH_NAME "kernel-bench"
#include "event-timer.cuh"

/* The textbook's privatized kernel with aggregation of runs (Hwu, Kirk and
 * El Hajj, Programming Massively Parallel Processors, ch. 9), widened from
 * letter buckets to 256 byte bins: interleaved byte loads, one private
 * histogram per block, one atomic per run of equal values. */
__global__ void textbook_kernel(const unsigned char *data, uint64_t len,
				unsigned long long *histo)
{
	__shared__ unsigned histo_s[256];

	for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
		histo_s[b] = 0;
	__syncthreads();
	unsigned accumulator = 0;
	int prev_bin = -1;
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < len; i += (uint64_t)blockDim.x * gridDim.x) {
		int bin = data[i];
		if (bin == prev_bin) {
			accumulator++;
		} else {
			if (accumulator > 0)
				atomicAdd(&histo_s[prev_bin], accumulator);
			accumulator = 1;
			prev_bin = bin;
		}
	}
	if (accumulator > 0)
		atomicAdd(&histo_s[prev_bin], accumulator);
	__syncthreads();
	for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
		if (histo_s[b])
			atomicAdd(&histo[b], (unsigned long long)histo_s[b]);
}

static void fill(unsigned char *p, size_t n, int shape)
{
	static const char *paths[] = { "/", "/index.html", "/api/v1/items",
				       "/static/app.js", "/login" };
	uint64_t x = 88172645463325252ull;
	size_t i = 0;

	if (shape == 1) {
		memset(p, 'a', n);
		return;
	}
	while (i < n) {
		char line[256];
		int len;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		if (shape == 0) {
			p[i++] = (unsigned char)x;
			continue;
		}
		len = snprintf(line, sizeof(line),
			       "%u.%u.%u.%u - - [22/Nov/2026:03:%02u:%02u +0000] \"GET %s HTTP/1.1\" %u %u \"-\" \"Mozilla/5.0\"\n",
			       (unsigned)(x & 255), (unsigned)(x >> 8 & 255),
			       (unsigned)(x >> 16 & 255), (unsigned)(x >> 24 & 255),
			       (unsigned)(x >> 32 % 60) % 60, (unsigned)(x >> 40) % 60,
			       paths[(x >> 48) % 5], (x >> 52) % 7 ? 200u : 404u,
			       (unsigned)(x >> 20) % 100000);
		for (int k = 0; k < len && i < n; k++)
			p[i++] = (unsigned char)line[k];
	}
}

/* The ceiling of any kernel that does one shared-memory atomic a byte:
 * ATOMIC_THREADS threads a block, each adding 1 to bins picked by a register
 * xorshift (no loads at all), ATOMIC_ROUNDS x 16 atomics a thread.  COLUMNS: each thread
 * its own column of 256 counters laid out so that a warp never shares a
 * bank (no conflicts); otherwise one row of 256 a warp (random conflicts),
 * as gpuhist's kernel does.  The bins end in global memory so that none of
 * the work can be dropped. */
#define ATOMIC_ROUNDS 4096
#define ATOMIC_THREADS 64

template <bool COLUMNS>
__global__ void __launch_bounds__(ATOMIC_THREADS)
atomic_ceiling_kernel(unsigned long long *sink)
{
	extern __shared__ unsigned bins[];
	constexpr int n_words = COLUMNS ? 256 * ATOMIC_THREADS
					: 257 * (ATOMIC_THREADS / 32);
	unsigned *mine = COLUMNS ? bins + threadIdx.x
				 : bins + (threadIdx.x / 32) * 257;
	const int step = COLUMNS ? ATOMIC_THREADS : 1;
	unsigned x = 2463534242u + 977 * (blockIdx.x * ATOMIC_THREADS +
					   threadIdx.x);

	for (int i = threadIdx.x; i < n_words; i += ATOMIC_THREADS)
		bins[i] = 0;
	__syncthreads();
	for (int r = 0; r < ATOMIC_ROUNDS; r++) {
#pragma unroll
		for (int k = 0; k < 4; k++) {
			x ^= x << 13; x ^= x >> 17; x ^= x << 5;
			atomicAdd_block(&mine[(x & 0xff) * step], 1);
			atomicAdd_block(&mine[(x >> 8 & 0xff) * step], 1);
			atomicAdd_block(&mine[(x >> 16 & 0xff) * step], 1);
			atomicAdd_block(&mine[(x >> 24) * step], 1);
		}
	}
	__syncthreads();
	unsigned long long sum = 0;
	for (int i = threadIdx.x; i < n_words; i += ATOMIC_THREADS)
		sum += bins[i];
	atomicAdd(sink, sum);
}

/* Prints the atomics a second as bytes a second (one atomic a byte), after
 * checking that every atomic landed. */
template <bool COLUMNS>
static void atomic_ceiling(struct timer *t, int sms, unsigned long long *sink,
			   const char *name, const char *what)
{
	size_t smem = (COLUMNS ? 256 * ATOMIC_THREADS : 257 * (ATOMIC_THREADS / 32))
		      * sizeof(unsigned);
	int per_sm = 0;

	CHECK(cudaFuncSetAttribute(atomic_ceiling_kernel<COLUMNS>,
		cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
		atomic_ceiling_kernel<COLUMNS>, ATOMIC_THREADS, smem));
	int blocks = sms * per_sm;
	unsigned long long atomics = (unsigned long long)blocks *
		ATOMIC_THREADS * ATOMIC_ROUNDS * 16, got = 0;
	auto run = [&] {
		atomic_ceiling_kernel<COLUMNS><<<blocks, ATOMIC_THREADS, smem>>>(sink);
		CHECK(cudaGetLastError());
	};
	CHECK(cudaMemset(sink, 0, sizeof(*sink)));
	run();
	CHECK(cudaMemcpy(&got, sink, sizeof(got), cudaMemcpyDeviceToHost));
	if (got != atomics) {
		printf("kernel-bench: atomic ceiling lost atomics\n");
		exit(1);
	}
	float ms = median_ms(t, 20, run);
	printf("%-9s %-9s %8.3f ms %8.1f GB/s  (%s, %d blocks/SM)\n", "-", name,
	       ms, atomics / ms / 1e6, what, per_sm);
}

int main(int argc, char **argv)
{
	static const char *shape_name[] = { "random", "repeated", "log" };
	size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 1024) << 20;
	unsigned char *host, *dev, *dev2;
	unsigned long long *d_totals;
	int *d_cub_hist;
	void *d_temp = NULL;
	size_t temp_bytes = 0;
	struct cudaDeviceProp prop;
	struct timer t;
	int per_sm, max_blocks;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	CHECK(gh_kernel_blocks_per_sm(&per_sm));
	max_blocks = prop.multiProcessorCount * per_sm;
	host = (unsigned char *)malloc(bytes);
	CHECK(cudaMalloc(&dev, bytes));
	CHECK(cudaMalloc(&dev2, bytes));
	/* 256 totals, then --stats' two sums */
	CHECK(cudaMalloc(&d_totals, 258 * sizeof(*d_totals)));
	CHECK(cudaMalloc(&d_cub_hist, 256 * sizeof(int)));
	CHECK(cudaEventCreate(&t.start));
	CHECK(cudaEventCreate(&t.stop));
	/* CUB's sample count is an int: at most 2 GiB - 1. */
	CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, dev,
		d_cub_hist, 257, 0, 256, (int)bytes));
	CHECK(cudaMalloc(&d_temp, temp_bytes));

	printf("# %s, %d SMs, %zu MiB, grid %d x %d\n", prop.name,
	       prop.multiProcessorCount, bytes >> 20, max_blocks,
	       GH_KERNEL_BLOCK_THREADS);
	float copy_ms = median_ms(&t, 20, [&] {
		CHECK(cudaMemcpyAsync(dev2, dev, bytes, cudaMemcpyDeviceToDevice));
	});
	double ceiling = 2.0 * bytes / copy_ms / 1e6;
	printf("%-9s %-9s %8.3f ms %8.1f GB/s  (read+written; the ceiling)\n",
	       "-", "d2d-copy", copy_ms, ceiling);

	/* Shared-memory atomics: the ceiling of one atomic a byte. */
	atomic_ceiling<false>(&t, prop.multiProcessorCount, d_totals,
			      "atomics", "one shared atomic a byte, no loads, a row a warp");
	atomic_ceiling<true>(&t, prop.multiProcessorCount, d_totals,
			     "atomics-c", "the same, conflict-free columns");

	/* Host-to-device ceilings: what the pipeline's copies can reach. */
	unsigned char *pinned, *pageable = (unsigned char *)malloc(bytes);
	CHECK(cudaMallocHost(&pinned, bytes));
	memset(pinned, 1, bytes);
	memset(pageable, 1, bytes);
	float pinned_ms = median_ms(&t, 5, [&] {
		CHECK(cudaMemcpyAsync(dev2, pinned, bytes, cudaMemcpyHostToDevice));
	});
	float pageable_ms = median_ms(&t, 5, [&] {
		CHECK(cudaMemcpy(dev2, pageable, bytes, cudaMemcpyHostToDevice));
	});
	printf("%-9s %-9s %8.3f ms %8.1f GB/s  (host to device, pinned)\n",
	       "-", "h2d-pin", pinned_ms, bytes / pinned_ms / 1e6);
	printf("%-9s %-9s %8.3f ms %8.1f GB/s  (host to device, pageable)\n",
	       "-", "h2d-page", pageable_ms, bytes / pageable_ms / 1e6);
	CHECK(cudaFreeHost(pinned));
	free(pageable);

	for (int shape = 0; shape < 3; shape++) {
		uint64_t want[256] = { 0 };
		unsigned long long got[256];
		int cub_got[256];
		float plain_ms = 0;

		fill(host, bytes, shape);
		for (size_t i = 0; i < bytes; i++)
			want[host[i]]++;
		CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));

		struct variant {
			const char *name;
			cudaError_t (*launch)(const unsigned char *, uint64_t,
					      unsigned long long *, int,
					      cudaStream_t);
			cudaError_t (*per_sm)(int *);
		} variants[] = {
			{ "gpuhist", gh_kernel_histogram, gh_kernel_blocks_per_sm },
			{ "c1-bytes", launch_histogram<1, true>, blocks_per_sm<1, true> },
			{ "c1-vecs", launch_histogram<1, false>, blocks_per_sm<1, false> },
			{ "c2-vecs", launch_histogram<2, false>, blocks_per_sm<2, false> },
			{ "c4-vecs", launch_histogram<4, false>, blocks_per_sm<4, false> },
			{ "c2-bytes", launch_histogram<2, true>, blocks_per_sm<2, true> },
		};
		auto textbook = [&] {
			textbook_kernel<<<max_blocks, GH_KERNEL_BLOCK_THREADS>>>(
				dev, bytes, d_totals);
			CHECK(cudaGetLastError());
		};
		auto cub_hist = [&] {
			CHECK(cub::DeviceHistogram::HistogramEven(d_temp,
				temp_bytes, dev, d_cub_hist, 257, 0, 256,
				(int)bytes));
		};
		auto check = [&](const char *name, auto fn) {
			CHECK(cudaMemset(d_totals, 0, 256 * 8));
			fn();
			CHECK(cudaMemcpy(got, d_totals, sizeof(got),
					 cudaMemcpyDeviceToHost));
			for (int v = 0; v < 256; v++)
				if (got[v] != want[v]) {
					printf("kernel-bench: %s: %s miscounted byte %d\n",
					       shape_name[shape], name, v);
					exit(1);
				}
		};
		cub_hist();
		CHECK(cudaMemcpy(cub_got, d_cub_hist, sizeof(cub_got),
				 cudaMemcpyDeviceToHost));
		for (int v = 0; v < 256; v++)
			if ((uint64_t)cub_got[v] != want[v]) {
				printf("kernel-bench: %s: cub miscounted\n",
				       shape_name[shape]);
				return 1;
			}
		check("textbook", textbook);
		float cub_ms = median_ms(&t, 20, cub_hist);
		float tb_ms = median_ms(&t, 20, textbook);
		printf("%-9s %-9s %8.3f ms %8.1f GB/s  %5.2fx CUB\n",
		       shape_name[shape], "cub", cub_ms, bytes / cub_ms / 1e6, 1.0);
		printf("%-9s %-9s %8.3f ms %8.1f GB/s  %5.2fx CUB\n",
		       shape_name[shape], "textbook", tb_ms, bytes / tb_ms / 1e6,
		       cub_ms / tb_ms);
		for (auto &var : variants) {
			int per_sm;

			CHECK(var.per_sm(&per_sm));
			int blocks = prop.multiProcessorCount * per_sm;
			auto run = [&] {
				CHECK(var.launch(dev, bytes, d_totals, blocks, 0));
			};
			check(var.name, run);
			float ms = median_ms(&t, 20, run);
			printf("%-9s %-9s %8.3f ms %8.1f GB/s  %5.2fx CUB  %5.2fx textbook  %4.2fx ceiling  (%d blocks/SM)\n",
			       shape_name[shape], var.name, ms, bytes / ms / 1e6,
			       cub_ms / ms, tb_ms / ms, bytes / ms / 1e6 / ceiling,
			       per_sm);
			if (var.launch == gh_kernel_histogram)
				plain_ms = ms;
		}
		/* --stats: the same kernel with ent's stream sums (groups
		 * from phase 1, the general case); its sums are checked
		 * against a loop on the host. */
		int per_sm;

		CHECK(gh_kernel_blocks_per_sm(&per_sm));
		auto with_stats = [&] {
			CHECK(gh_kernel_histogram_stats(dev, bytes, 1, d_totals,
				d_totals + 256,
				prop.multiProcessorCount * per_sm, 0));
		};
		unsigned long long sums[2];
		uint64_t pairs = 0, hits = 0;

		CHECK(cudaMemset(d_totals, 0, 258 * 8));
		with_stats();
		CHECK(cudaMemcpy(sums, d_totals + 256, sizeof(sums),
				 cudaMemcpyDeviceToHost));
		for (size_t i = 0; i + 1 < bytes; i++)
			pairs += (uint64_t)host[i] * host[i + 1];
		for (size_t g = 1; g + GH_PI_GROUP <= bytes; g += GH_PI_GROUP)
			hits += (uint64_t)gh_pi_hit(host + g);
		if (sums[0] != pairs || sums[1] != hits) {
			printf("kernel-bench: %s: --stats miscounted\n",
			       shape_name[shape]);
			return 1;
		}
		check("gpuhist --stats", with_stats);
		float stats_ms = median_ms(&t, 20, with_stats);
		printf("%-9s %-9s %8.3f ms %8.1f GB/s  %5.2fx CUB  %4.2fx gpuhist without --stats\n",
		       shape_name[shape], "--stats", stats_ms,
		       bytes / stats_ms / 1e6, cub_ms / stats_ms,
		       plain_ms / stats_ms);
	}
	return 0;
}
