/* event-timer.cuh - what the device benchmarks share: CHECK, which ends
 * the program on a CUDA error naming BENCH_NAME, and the median of
 * repeated runs timed with CUDA events */
#ifndef GH_EVENT_TIMER_CUH
#define GH_EVENT_TIMER_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call) do {                                                  \
		cudaError_t err_ = (call);                                \
		if (err_ != cudaSuccess) {                                \
			fprintf(stderr, "%s: %s: %s\n", BENCH_NAME, #call, \
				cudaGetErrorString(err_));                \
			exit(1);                                          \
		}                                                         \
	} while (0)

struct timer {
	cudaEvent_t start, stop;
};

/* Median milliseconds of reps runs of fn, after one untimed run. */
template <typename F> static float median_ms(struct timer *t, int reps, F fn)
{
	std::vector<float> ms;

	fn();                                   /* warm-up */
	CHECK(cudaDeviceSynchronize());
	for (int r = 0; r < reps; r++) {
		float m;

		CHECK(cudaEventRecord(t->start));
		fn();
		CHECK(cudaEventRecord(t->stop));
		CHECK(cudaEventSynchronize(t->stop));
		CHECK(cudaEventElapsedTime(&m, t->start, t->stop));
		ms.push_back(m);
	}
	std::sort(ms.begin(), ms.end());
	return ms[ms.size() / 2];
}

#endif
