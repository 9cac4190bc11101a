/* tokens-bench.cu - the tokens kernel (kernels/tokens.cu) alone on a file
 * already on the device, timed with CUDA events
 *
 * The file is cut as gpuhist cuts it: chunks of CHUNK bytes, each ending
 * after its last newline, launched round-robin on four streams into one
 * table that lasts for the file (as gpu_tokens.c's kept table), emptied
 * before each run.  For each view (words, lines, the first field) prints
 * milliseconds (median of 3 after a warm-up), GB/s of the file, and what
 * the table holds after a run: distinct units, all units, and a sum of the
 * slots' hashes weighted by their counts, which two builds of the kernel
 * must print alike.
 * Usage: tokens-bench FILE [CHUNK_MIB]   (default 4)
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tokens.cu"

#define BENCH_NAME "tokens-bench"
#include "event-timer.cuh"

#define STREAMS 4

/* Distinct slots, units, and the weighted sum of hashes, into out[0..2]. */
__global__ void sum_slots(const struct gh_tok_table t, unsigned long long *out)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < t.n_slots; i += stride) {
		struct gh_tok_entry e = t.slots[i];

		if (e.state != 2)
			continue;
		atomicAdd(&out[0], 1ull);
		atomicAdd(&out[1], (unsigned long long)e.count);
		atomicAdd(&out[2], (unsigned long long)(e.hash * e.count));
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: tokens-bench FILE [CHUNK_MIB]\n");
		return 2;
	}
	uint64_t chunk = (argc > 2 ? strtoull(argv[2], NULL, 10) : 4) << 20;
	FILE *f = fopen(argv[1], "rb");

	if (!f) {
		perror(argv[1]);
		return 1;
	}
	std::vector<unsigned char> text;
	unsigned char buf[1 << 16];
	size_t got;

	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		text.insert(text.end(), buf, buf + got);
	fclose(f);

	/* Chunks that end after their last newline, as the host's cut. */
	std::vector<std::pair<uint64_t, uint64_t>> ranges;
	for (uint64_t at = 0; at < text.size();) {
		uint64_t end = at + chunk < text.size() ? at + chunk
							: text.size();
		uint64_t to = end;

		while (to > at && text[to - 1] != '\n')
			to--;
		if (to == at)
			break;
		ranges.push_back({ at, to });
		at = to;
	}

	/* The kernel takes 32-bit offsets from the file's start. */
	if (text.size() >= (1ull << 31)) {
		fprintf(stderr, "tokens-bench: files under 2 GiB only\n");
		return 1;
	}
	unsigned char *dev;
	struct gh_tok_table t;
	unsigned long long *sums;

	CHECK(cudaMalloc(&dev, text.size() + 64));
	CHECK(cudaMemcpy(dev, text.data(), text.size(),
			 cudaMemcpyHostToDevice));
	t.n_slots = 1ull << 26;
	t.key_bytes = 6ull << 30;
	CHECK(cudaMalloc(&t.slots, t.n_slots * sizeof(struct gh_tok_entry)));
	CHECK(cudaMalloc(&t.keys, t.key_bytes));
	CHECK(cudaMalloc(&t.used, 2 * sizeof(unsigned long long)));
	CHECK(cudaMalloc(&sums, 3 * sizeof(unsigned long long)));

	cudaStream_t streams[STREAMS];
	cudaEvent_t joined[STREAMS];
	for (int i = 0; i < STREAMS; i++) {
		CHECK(cudaStreamCreate(&streams[i]));
		CHECK(cudaEventCreateWithFlags(&joined[i],
					       cudaEventDisableTiming));
	}
	struct timer tm;
	CHECK(cudaEventCreate(&tm.start));
	CHECK(cudaEventCreate(&tm.stop));

	const struct { const char *name; int view, field; } views[] = {
		{ "-t", GH_TOK_WORDS, 0 },
		{ "--lines", GH_TOK_LINES, 0 },
		{ "--field=1", GH_TOK_FIELD, 1 },
	};
	printf("| view | ms | GB/s | distinct | units | hash sum |\n");
	printf("| --- | ---: | ---: | ---: | ---: | --- |\n");
	for (const auto &v : views) {
		auto run = [&]() {
			CHECK(cudaMemset(t.slots, 0, t.n_slots *
					 sizeof(struct gh_tok_entry)));
			CHECK(cudaMemset(t.used, 0,
					 2 * sizeof(unsigned long long)));
			CHECK(cudaEventRecord(tm.start));
			for (int i = 0; i < STREAMS; i++)
				CHECK(cudaStreamWaitEvent(streams[i],
							  tm.start));
			for (size_t i = 0; i < ranges.size(); i++)
				CHECK(gh_kernel_tokens_insert(dev,
					ranges[i].first, ranges[i].second,
					v.view, v.field, -1, &t,
					streams[i % STREAMS]));
			for (int i = 0; i < STREAMS; i++) {
				CHECK(cudaEventRecord(joined[i], streams[i]));
				CHECK(cudaStreamWaitEvent(0, joined[i]));
			}
			CHECK(cudaEventRecord(tm.stop));
			CHECK(cudaEventSynchronize(tm.stop));
			float ms;
			CHECK(cudaEventElapsedTime(&ms, tm.start, tm.stop));
			return ms;
		};
		std::vector<float> ms;
		run();
		for (int r = 0; r < 3; r++)
			ms.push_back(run());
		std::sort(ms.begin(), ms.end());
		unsigned long long out[3];
		CHECK(cudaMemset(sums, 0, sizeof out));
		sum_slots<<<1024, 256>>>(t, sums);
		CHECK(cudaMemcpy(out, sums, sizeof out,
				 cudaMemcpyDeviceToHost));
		printf("| %s | %.2f | %.2f | %llu | %llu | %016llx |\n", v.name,
		       ms[1], text.size() / ms[1] / 1e6, out[0], out[1],
		       out[2]);
	}
	return 0;
}
