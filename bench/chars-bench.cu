/* chars-bench.cu - the code-point kernel (kernels/chars.cu) against two
 * baselines on the same text already on the device, timed with events
 *
 * Baselines: "cub", a decode kernel writing each position's bin (or -1
 * where no character begins) followed by CUB's DeviceHistogram::
 * HistogramEven over all 1,114,240 bins; and "global", a kernel decoding
 * as gpuhist's does but adding every character straight into the 64-bit
 * totals in global memory.  Three shapes: English log text (ASCII with a
 * few accented names), mixed (words in ASCII, Cyrillic, Greek, accented
 * Latin, a few emoji) and Japanese-like text (ideographs drawn from 3,000
 * with a skew, kana, punctuation).  Every kernel's totals are checked against a count on
 * the CPU (gh_utf8.h's rule, one position at a time) before it is timed.
 * Prints milliseconds (median of 20 after a warm-up), GB/s of input, and
 * the ratio to the cub baseline; then two variants gpuhist does not run
 * (kernels/chars.cu's template parameters), for the record.
 * Usage: chars-bench [MiB]   (default 1024)
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cub/device/device_histogram.cuh>

#include "chars.cu"

#define BENCH_NAME "chars-bench"
#include "event-timer.cuh"

#define BINS (0x110000u + 128u)

/* Each position's bin, or -1 where no character begins (CUB skips it). */
__global__ void decode_kernel(const unsigned char *data, uint64_t len,
			      int *bins)
{
	for (uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     p < len; p += (uint64_t)gridDim.x * blockDim.x) {
		uint64_t q = gh_utf8_resume(data, len, p);

		bins[p] = q == p ? (int)gh_utf8_next(data, len, &q) : -1;
	}
}

/* Sixteen bytes a thread, decoded from where decoding resumes, each
 * character a 64-bit atomic in global memory. */
__global__ void global_kernel(const unsigned char *data, uint64_t len,
			      unsigned long long *totals)
{
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     16 * i < len; i += (uint64_t)gridDim.x * blockDim.x) {
		uint64_t end = 16 * i + 16 < len ? 16 * i + 16 : len;
		uint64_t p = gh_utf8_resume(data, len, 16 * i);

		while (p < end)
			atomicAdd(&totals[gh_utf8_next(data, len, &p)], 1ull);
	}
}

static const char *const english_names[] = { "José", "Zoë", "François",
					     "Müller", "Ångström" };
/* Appends code point cp's UTF-8 to line at *len. */
static void put_cp(char *line, int *len, uint32_t cp)
{
	if (cp < 0x80) {
		line[(*len)++] = (char)cp;
	} else if (cp < 0x800) {
		line[(*len)++] = (char)(0xc0 | cp >> 6);
		line[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		line[(*len)++] = (char)(0xe0 | cp >> 12);
		line[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		line[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		line[(*len)++] = (char)(0xf0 | cp >> 18);
		line[(*len)++] = (char)(0x80 | (cp >> 12 & 0x3f));
		line[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		line[(*len)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
	return *x;
}

/* A line of mixed words: ASCII (60%), Cyrillic, Greek, accented Latin,
 * and now and then an emoji. */
static int mixed_line(char *line, uint64_t *x)
{
	int len = snprintf(line, 64, "2026-11-24 %02u:%02u ",
			   (unsigned)(next(x) % 24), (unsigned)(next(x) % 60));

	for (int w = 0; w < 10; w++) {
		unsigned kind = next(x) % 100, n = 3 + next(x) % 7;

		for (unsigned k = 0; k < n; k++) {
			uint64_t r = next(x);
			uint32_t cp = kind < 60 ? 'a' + r % 26
				: kind < 75 ? 0x430 + r % 32
				: kind < 85 ? 0x3b1 + r % 25
				: kind < 97 ? 0xe0 + r % 32
				: 0x1f600 + r % 80;
			put_cp(line, &len, cp);
		}
		line[len++] = ' ';
	}
	line[len++] = '\n';
	return len;
}

/* A line of Japanese-like text: ideographs drawn from 3,000 common ones
 * with a skew (a few very frequent, a long tail), kana, punctuation. */
static int cjk_line(char *line, uint64_t *x)
{
	int len = snprintf(line, 64, "2026-11-24 %02u:%02u ",
			   (unsigned)(next(x) % 24), (unsigned)(next(x) % 60));

	for (int c = 0; c < 40; c++) {
		uint64_t r = next(x);
		unsigned kind = r % 100;
		double u = (double)(r >> 16 & 0xffff) / 65536.0;
		uint32_t cp = kind < 6 ? '0' + (r >> 8) % 10
			: kind < 28 ? 0x3041 + (r >> 8) % 83
			: kind < 34 ? 0x3001 + (r >> 8) % 2
			: 0x4e00 + ((uint32_t)(3000 * u * u * u) * 7919u) % 20992;
		put_cp(line, &len, cp);
	}
	line[len++] = '\n';
	return len;
}

static void fill(unsigned char *p, size_t n, int shape)
{
	uint64_t x = 88172645463325252ull;
	size_t i = 0;

	while (i < n) {
		char line[512];
		int len;

		next(&x);
		if (shape == 0)
			len = snprintf(line, sizeof(line),
				"%u.%u.%u.%u - %s [22/Nov/2026:03:%02u:%02u +0000] \"GET /api/v1/items HTTP/1.1\" %u %u\n",
				(unsigned)(x & 255), (unsigned)(x >> 8 & 255),
				(unsigned)(x >> 16 & 255), (unsigned)(x >> 24 & 255),
				(x >> 60) ? "-" : english_names[(x >> 40) % 5],
				(unsigned)(x >> 32) % 60, (unsigned)(x >> 40) % 60,
				(x >> 52) % 7 ? 200u : 404u,
				(unsigned)(x >> 20) % 100000);
		else if (shape == 1)
			len = mixed_line(line, &x);
		else
			len = cjk_line(line, &x);
		for (int k = 0; k < len && i < n; k++)
			p[i++] = (unsigned char)line[k];
	}
}

int main(int argc, char **argv)
{
	static const char *shape_name[] = { "english", "mixed", "cjk" };
	size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 1024) << 20;
	std::vector<unsigned long long> want(BINS), got(BINS);
	std::vector<int> cub_got(BINS);
	unsigned char *host, *dev;
	unsigned long long *d_totals;
	int *d_bins, *d_cub;
	void *d_temp = NULL;
	size_t temp_bytes = 0;
	struct cudaDeviceProp prop;
	struct timer t;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	CHECK(gh_kernel_chars_setup());
	host = (unsigned char *)malloc(bytes);
	CHECK(cudaMalloc(&dev, bytes));
	CHECK(cudaMalloc(&d_bins, bytes * sizeof(int)));
	CHECK(cudaMalloc(&d_totals, BINS * sizeof(*d_totals)));
	CHECK(cudaMalloc(&d_cub, BINS * sizeof(int)));
	CHECK(cudaEventCreate(&t.start));
	CHECK(cudaEventCreate(&t.stop));
	CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_bins,
		d_cub, (int)BINS + 1, 0, (int)BINS, (int)bytes));
	CHECK(cudaMalloc(&d_temp, temp_bytes));
	printf("# %s, %d SMs, %zu MiB, chars kernel grid %d x %d\n", prop.name,
	       prop.multiProcessorCount, bytes >> 20, prop.multiProcessorCount,
	       GH_CHARS_BLOCK_THREADS);

	for (int shape = 0; shape < 3; shape++) {
		uint64_t chars = 0, multi = 0;

		fill(host, bytes, shape);
		std::fill(want.begin(), want.end(), 0);
		for (uint64_t p = 0; p < bytes;) {
			uint64_t q = gh_utf8_resume(host, bytes, p);

			if (q != p) {
				p = q;
				continue;
			}
			uint32_t bin = gh_utf8_next(host, bytes, &p);

			want[bin]++;
			chars++;
			multi += bin >= 0x80;
		}
		CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
		auto check = [&](const char *name, auto fn) {
			CHECK(cudaMemset(d_totals, 0, BINS * 8));
			fn();
			CHECK(cudaMemcpy(got.data(), d_totals, BINS * 8,
					 cudaMemcpyDeviceToHost));
			if (got != want) {
				printf("chars-bench: %s: %s miscounted\n",
				       shape_name[shape], name);
				exit(1);
			}
		};
		auto ours = [&] {
			CHECK(gh_kernel_chars(dev, bytes, 0, bytes, d_totals,
					      prop.multiProcessorCount, 0));
		};
		auto global = [&] {
			global_kernel<<<prop.multiProcessorCount * 8, 256>>>(
				dev, bytes, d_totals);
			CHECK(cudaGetLastError());
		};
		auto cub_hist = [&] {
			decode_kernel<<<prop.multiProcessorCount * 8, 256>>>(
				dev, bytes, d_bins);
			CHECK(cudaGetLastError());
			CHECK(cub::DeviceHistogram::HistogramEven(d_temp,
				temp_bytes, d_bins, d_cub, (int)BINS + 1, 0,
				(int)BINS, (int)bytes));
		};
		struct variant {
			const char *name;
			int per_sm;
			cudaError_t (*launch)(const unsigned char *, uint64_t,
					      uint64_t, uint64_t,
					      unsigned long long *, int,
					      cudaStream_t);
		} variants[] = {
			/* Half the block, three-byte characters in shared
			 * memory: half the warps of a multiprocessor. */
			{ "s512-3", 0, launch_chars<512, true> },
			/* No three-byte counters: two blocks a
			 * multiprocessor, those characters global atomics. */
			{ "s512-g", 0, launch_chars<512, false> },
		};
		CHECK((setup_chars<512, true>(&variants[0].per_sm)));
		CHECK((setup_chars<512, false>(&variants[1].per_sm)));
		check("gpuhist", ours);
		check("global", global);
		cub_hist();
		CHECK(cudaMemcpy(cub_got.data(), d_cub, BINS * sizeof(int),
				 cudaMemcpyDeviceToHost));
		for (uint32_t b = 0; b < BINS; b++)
			if ((unsigned long long)cub_got[b] != want[b]) {
				printf("chars-bench: %s: cub miscounted\n",
				       shape_name[shape]);
				return 1;
			}
		printf("# %s: %.1f bytes a character, %.1f%% of characters not ASCII\n",
		       shape_name[shape], (double)bytes / chars,
		       100.0 * multi / chars);
		float cub_ms = median_ms(&t, 20, cub_hist);
		float global_ms = median_ms(&t, 20, global);
		float ours_ms = median_ms(&t, 20, ours);
		printf("%-8s %-8s %8.3f ms %8.1f GB/s  %5.2fx cub\n",
		       shape_name[shape], "cub", cub_ms, bytes / cub_ms / 1e6, 1.0);
		printf("%-8s %-8s %8.3f ms %8.1f GB/s  %5.2fx cub\n",
		       shape_name[shape], "global", global_ms,
		       bytes / global_ms / 1e6, cub_ms / global_ms);
		printf("%-8s %-8s %8.3f ms %8.1f GB/s  %5.2fx cub\n",
		       shape_name[shape], "gpuhist", ours_ms,
		       bytes / ours_ms / 1e6, cub_ms / ours_ms);
		for (auto &var : variants) {
			int blocks = prop.multiProcessorCount * var.per_sm;
			auto run = [&] {
				CHECK(var.launch(dev, bytes, 0, bytes, d_totals,
						 blocks, 0));
			};
			check(var.name, run);
			float ms = median_ms(&t, 20, run);
			printf("%-8s %-8s %8.3f ms %8.1f GB/s  %5.2fx cub  (%d blocks/SM)\n",
			       shape_name[shape], var.name, ms, bytes / ms / 1e6,
			       cub_ms / ms, var.per_sm);
		}
	}
	return 0;
}
