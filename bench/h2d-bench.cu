/* h2d-bench.cu - the host's pinned host-to-device ceiling for N GPUs at
 * once, the figure several GPUs' counting is measured against (issue
 * "Every view on every scale", bench/run's devices case)
 *
 * One host thread a GPU, each with its own pinned buffer (allocated and
 * first touched by that thread) and device buffer, copies MiB megabytes
 * to its GPU in 4 MiB pieces on two streams, as gpuhist's ring does; the
 * threads start together, and the aggregate rate is the bytes of all of
 * them over the time from the start until the last is done (median of 5
 * after a warm-up).  Prints one line a GPU count, 1..N.
 * Usage: h2d-bench [GPUS [MiB]]   (default: every GPU, 2048 MiB each)
 */
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define BENCH_NAME "h2d-bench"
#include "event-timer.cuh"

static const size_t PIECE = (size_t)4 << 20;

struct gpu {
	int id;
	unsigned char *host, *dev;
	cudaStream_t s[2];
};

static void setup(gpu *g, size_t bytes)
{
	CHECK(cudaSetDevice(g->id));
	CHECK(cudaMallocHost((void **)&g->host, bytes));
	memset(g->host, 'x', bytes);
	CHECK(cudaMalloc((void **)&g->dev, 2 * PIECE));
	for (auto &s : g->s)
		CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
}

static void copy_all(gpu *g, size_t bytes)
{
	CHECK(cudaSetDevice(g->id));
	for (size_t at = 0, k = 0; at < bytes; at += PIECE, k++) {
		size_t n = std::min(PIECE, bytes - at);

		CHECK(cudaMemcpyAsync(g->dev + (k % 2) * PIECE, g->host + at, n,
				      cudaMemcpyHostToDevice, g->s[k % 2]));
	}
	for (auto &s : g->s)
		CHECK(cudaStreamSynchronize(s));
}

/* Seconds for n GPUs to copy bytes each, all at once. */
static double run(std::vector<gpu> &gpus, int n, size_t bytes)
{
	std::atomic<int> ready{0};
	std::vector<std::thread> threads;
	auto t0 = std::chrono::steady_clock::now();

	for (int i = 0; i < n; i++)
		threads.emplace_back([&, i] {
			ready++;
			while (ready.load() < n)
				;
			copy_all(&gpus[i], bytes);
		});
	while (ready.load() < n)
		;
	t0 = std::chrono::steady_clock::now();
	for (auto &t : threads)
		t.join();
	return std::chrono::duration<double>(std::chrono::steady_clock::now() -
					     t0).count();
}

int main(int argc, char **argv)
{
	int count = 0;

	CHECK(cudaGetDeviceCount(&count));
	int n = argc > 1 ? atoi(argv[1]) : count;
	size_t bytes = (argc > 2 ? (size_t)atol(argv[2]) : 2048) << 20;

	if (n < 1 || n > count) {
		fprintf(stderr, "%s: %d GPUs asked for, %d here\n", BENCH_NAME,
			n, count);
		return 2;
	}
	std::vector<gpu> gpus(n);
	std::vector<std::thread> makers;
	for (int i = 0; i < n; i++) {
		gpus[i].id = i;
		makers.emplace_back(setup, &gpus[i], bytes);
	}
	for (auto &t : makers)
		t.join();
	for (int k = 1; k <= n; k++) {
		std::vector<double> s;

		run(gpus, k, bytes);            /* warm-up */
		for (int r = 0; r < 5; r++)
			s.push_back(run(gpus, k, bytes));
		std::sort(s.begin(), s.end());
		printf("%d GPUs: %.1f GB/s pinned host to device (%.1f a GPU)\n",
		       k, k * (double)bytes / s[2] / 1e9,
		       (double)bytes / s[2] / 1e9);
	}
	return 0;
}
