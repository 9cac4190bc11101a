/* nvcomp-bench.cu - nvCOMP's own batched decode rate on a file of gzip
 * members whose bounds are known (BGZF: each member's BC field), the
 * figure issue "The GPU decodes independent members" measures gpuhist
 * against
 *
 * Reads the whole file, finds its BGZF members, copies them to the device
 * once and decodes them all in one batch, timed with CUDA events (median
 * of 5 after a warm-up): with nvcompBatchedGzipDecompressAsync (whole
 * members, any alignment) and with nvcompBatchedDeflateDecompressAsync
 * (the members' deflate data copied to 4-byte aligned places first, as
 * that API asks).  Each output is checked against every member's ISIZE
 * and, with nvcompBatchedCRC32Async, its CRC-32 before it is timed.  Then
 * the same decode with the compressed bytes' copy from pinned memory.
 * Prints GB/s of decoded output.
 * Usage: nvcomp-bench FILE.gz
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <nvcomp/crc32.h>
#include <nvcomp/deflate.h>
#include <nvcomp/gzip.h>

#define BENCH_NAME "nvcomp-bench"
#include "event-timer.cuh"

#define NV(call) do {                                                     \
		nvcompStatus_t s_ = (call);                               \
		if (s_ != nvcompSuccess) {                                \
			fprintf(stderr, "%s: %s: status %d\n", BENCH_NAME,  \
				#call, (int)s_);                          \
			exit(1);                                          \
		}                                                         \
	} while (0)

static uint32_t le16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A BGZF member's length at p, or 0. */
static size_t bgzf_len(const unsigned char *p, size_t avail)
{
	if (avail < 18 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 ||
	    !(p[3] & 4))
		return 0;
	size_t xlen = le16(p + 10), at = 12;
	while (at + 4 <= 12 + xlen && 12 + xlen <= avail) {
		size_t slen = le16(p + at + 2);
		if (p[at] == 'B' && p[at + 1] == 'C' && slen == 2)
			return (size_t)le16(p + at + 4) + 1;
		at += 4 + slen;
	}
	return 0;
}

struct batch {
	size_t n;
	void **d_in, **d_out;
	size_t *d_in_len, *d_room, *d_got;
	nvcompStatus_t *d_status;
	uint32_t *d_crc;
	void *d_temp;
	size_t temp;
};

/* Device arrays of n members: input at in + in_off[i], output packed. */
static void setup(struct batch *b, const std::vector<size_t> &in_off,
		  const std::vector<size_t> &in_len,
		  const std::vector<size_t> &out_len, unsigned char *d_in,
		  unsigned char *d_out)
{
	size_t n = in_off.size();
	std::vector<void *> ip(n), op(n);
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		ip[i] = d_in + in_off[i];
		op[i] = d_out + o;
		o += out_len[i];
	}
	b->n = n;
	CHECK(cudaMalloc(&b->d_in, n * sizeof(void *)));
	CHECK(cudaMalloc(&b->d_out, n * sizeof(void *)));
	CHECK(cudaMalloc(&b->d_in_len, n * sizeof(size_t)));
	CHECK(cudaMalloc(&b->d_room, n * sizeof(size_t)));
	CHECK(cudaMalloc(&b->d_got, n * sizeof(size_t)));
	CHECK(cudaMalloc(&b->d_status, n * sizeof(nvcompStatus_t)));
	CHECK(cudaMalloc(&b->d_crc, n * sizeof(uint32_t)));
	CHECK(cudaMemcpy(b->d_in, ip.data(), n * sizeof(void *),
			 cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(b->d_out, op.data(), n * sizeof(void *),
			 cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(b->d_in_len, in_len.data(), n * sizeof(size_t),
			 cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(b->d_room, out_len.data(), n * sizeof(size_t),
			 cudaMemcpyHostToDevice));
}

/* Checks every member's status, size and CRC-32 against its trailer. */
static void verify(const char *what, struct batch *b,
		   const std::vector<size_t> &out_len,
		   const std::vector<uint32_t> &crc)
{
	size_t n = b->n;
	std::vector<nvcompStatus_t> st(n);
	std::vector<size_t> got(n);
	std::vector<uint32_t> c(n);
	nvcompBatchedCRC32Opts_t copts;

	memset(&copts, 0, sizeof(copts));
	copts.spec = nvcompCRC32;
	NV(nvcompBatchedCRC32GetHeuristicConf(NULL, n, &copts.kernel_conf,
					      1 << 16, 0));
	NV(nvcompBatchedCRC32Async(b->d_out, b->d_got, n, b->d_crc, copts,
				   nvcompCRC32OnlySegment, NULL, 0));
	CHECK(cudaMemcpy(st.data(), b->d_status, n * sizeof(st[0]),
			 cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(got.data(), b->d_got, n * sizeof(size_t),
			 cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(c.data(), b->d_crc, n * sizeof(uint32_t),
			 cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++)
		if (st[i] != nvcompSuccess || got[i] != out_len[i] ||
		    c[i] != crc[i]) {
			fprintf(stderr, "%s: %s: member %zu: status %d, %zu of "
				"%zu bytes, crc %08x against %08x\n",
				BENCH_NAME, what, i, (int)st[i], got[i],
				out_len[i], c[i], crc[i]);
			exit(1);
		}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.gz (BGZF)\n", BENCH_NAME);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	std::vector<unsigned char> file;
	unsigned char buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		file.insert(file.end(), buf, buf + got);
	fclose(f);

	std::vector<size_t> off, len, out_len, dfl_off, dfl_len;
	std::vector<uint32_t> crc;
	size_t at = 0, total = 0, dfl_at = 0, most = 0;
	while (at < file.size()) {
		size_t m = bgzf_len(&file[at], file.size() - at);
		if (m < 26 || m > file.size() - at) {
			fprintf(stderr, "%s: %s: not BGZF at byte %zu\n",
				BENCH_NAME, argv[1], at);
			return 1;
		}
		size_t xlen = le16(&file[at + 10]);
		off.push_back(at);
		len.push_back(m);
		out_len.push_back(le32(&file[at + m - 4]));
		crc.push_back(le32(&file[at + m - 8]));
		dfl_off.push_back(dfl_at);
		dfl_len.push_back(m - 12 - xlen - 8);
		dfl_at += (m - 12 - xlen - 8 + 3) & ~(size_t)3;
		total += out_len.back();
		most = std::max(most, out_len.back());
		at += m;
	}
	size_t n = off.size();
	/* The deflate data alone, each at a 4-byte aligned place. */
	std::vector<unsigned char> dfl(dfl_at);
	for (size_t i = 0; i < n; i++)
		memcpy(&dfl[dfl_off[i]], &file[off[i] + 12 + le16(&file[off[i] + 10])],
		       dfl_len[i]);

	unsigned char *d_file, *d_dfl, *d_out, *h_pinned;
	CHECK(cudaMalloc(&d_file, file.size()));
	CHECK(cudaMalloc(&d_dfl, dfl.size() + 4));
	CHECK(cudaMalloc(&d_out, total + 1));
	CHECK(cudaMallocHost(&h_pinned, file.size()));
	memcpy(h_pinned, file.data(), file.size());
	CHECK(cudaMemcpy(d_file, file.data(), file.size(),
			 cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_dfl, dfl.data(), dfl.size(), cudaMemcpyHostToDevice));

	struct batch gz, df;
	setup(&gz, off, len, out_len, d_file, d_out);
	setup(&df, dfl_off, dfl_len, out_len, d_dfl, d_out);
	nvcompBatchedGzipDecompressOpts_t gopts =
		nvcompBatchedGzipDecompressDefaultOpts;
	nvcompBatchedDeflateDecompressOpts_t dopts =
		nvcompBatchedDeflateDecompressDefaultOpts;
	NV(nvcompBatchedGzipDecompressGetTempSize(n, most, gopts, &gz.temp,
						  total, 0));
	NV(nvcompBatchedDeflateDecompressGetTempSize(n, most, dopts, &df.temp,
						     total, 0));
	CHECK(cudaMalloc(&gz.d_temp, gz.temp + 1));
	CHECK(cudaMalloc(&df.d_temp, df.temp + 1));

	struct timer t;
	CHECK(cudaEventCreate(&t.start));
	CHECK(cudaEventCreate(&t.stop));
	auto run_gz = [&]() {
		NV(nvcompBatchedGzipDecompressAsync(
			gz.d_in, gz.d_in_len, gz.d_room, gz.d_got, n, gz.d_temp,
			gz.temp, gz.d_out, gopts, gz.d_status, 0));
	};
	auto run_df = [&]() {
		NV(nvcompBatchedDeflateDecompressAsync(
			df.d_in, df.d_in_len, df.d_room, df.d_got, n, df.d_temp,
			df.temp, df.d_out, dopts, df.d_status, 0));
	};
	CHECK(cudaMemset(d_out, 0, total));
	run_gz();
	CHECK(cudaDeviceSynchronize());
	verify("gzip API", &gz, out_len, crc);
	CHECK(cudaMemset(d_out, 0, total));
	run_df();
	CHECK(cudaDeviceSynchronize());
	verify("deflate API", &df, out_len, crc);

	float gz_ms = median_ms(&t, 5, run_gz);
	float df_ms = median_ms(&t, 5, run_df);
	float copy_gz_ms = median_ms(&t, 5, [&]() {
		CHECK(cudaMemcpyAsync(d_file, h_pinned, file.size(),
				      cudaMemcpyHostToDevice, 0));
		run_gz();
	});
	nvcompBatchedCRC32Opts_t copts;
	memset(&copts, 0, sizeof(copts));
	copts.spec = nvcompCRC32;
	NV(nvcompBatchedCRC32GetHeuristicConf(NULL, n, &copts.kernel_conf,
					      most, 0));
	float crc_ms = median_ms(&t, 5, [&]() {
		NV(nvcompBatchedCRC32Async(gz.d_out, gz.d_got, n, gz.d_crc,
					   copts, nvcompCRC32OnlySegment, NULL,
					   0));
	});
	printf("%s: %zu members, %zu bytes in, %zu out\n", argv[1], n,
	       file.size(), total);
	printf("gzip API     %8.2f ms %7.1f GB/s\n", gz_ms, total / gz_ms / 1e6);
	printf("deflate API  %8.2f ms %7.1f GB/s\n", df_ms, total / df_ms / 1e6);
	printf("gzip + copy  %8.2f ms %7.1f GB/s\n", copy_gz_ms,
	       total / copy_gz_ms / 1e6);
	printf("crc32        %8.2f ms %7.1f GB/s\n", crc_ms, total / crc_ms / 1e6);
	return 0;
}
