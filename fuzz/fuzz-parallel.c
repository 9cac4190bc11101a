/* fuzz-parallel.c - libFuzzer harness: the parallel gzip decoder against zlib
 *
 * Arbitrary bytes that begin as gzip does (1f 8b) go into a memfd and
 * through gh_gzip_pieces() (gzip_parallel.c, deflate_marked.c) into the
 * real CPU backend, with regions of a few bytes to a few KiB so that a case
 * has many tasks, each guessing a block start and confirming it.  The
 * reference shares none of that code: zlib decodes the whole stream at
 * once (windowBits 31, member after member, then zero bytes or nothing, as
 * gunzip.c rules), counted one byte at a time.  Where zlib succeeds the
 * parallel decoder must finish with the same 256 totals; where zlib fails
 * it must give up (GH_PIECES_SERIAL: the serial decoder then gives the
 * verdict) and never report a count.  It counts ent's stream sums too
 * (--stats), whose chunks edges.c joins by the offset each task gives
 * them: a decoded stream's chunks must join up, no gap and no overlap,
 * to exactly its length.  A disagreement aborts.
 *
 * The first byte of a case chooses: bits 0-2 the region size, bits 3-4 the
 * threads, bits 5-7 the CPU backend's chunk size; the rest is the stream.
 *
 * A stream that begins with a BGZF member goes through gh_bgzf_pieces()
 * (bgzf_parallel.c: whole members, each by the serial inflater) instead,
 * which may also give up where zlib takes the stream (what follows the
 * members is not BGZF: zero padding, another member), but where it
 * finishes, the totals must be zlib's.
 *
 * A stream that begins as zstd does goes through gh_zstd_pieces()
 * (zstd_parallel.c: frames found by walking their headers, decoded on
 * several threads) instead, against libzstd's one-shot decode of the
 * whole stream: where zstd takes it the frames must be decoded (or the
 * file found to be one frame, left to the serial decoder) with the same
 * totals; where zstd refuses it they must never be reported as counted.
 *
 * Any other gzip stream also goes through gh_members_pieces()
 * (members_parallel.c: cut at what look like member headers, each segment
 * by the serial inflater): where it finishes, the totals must be zlib's,
 * and it must never finish a stream zlib refuses (a cut inside a member
 * may make it give up where zlib takes the stream).
 *
 * A stream that begins as xz does goes through gh_xz_pieces()
 * (xz_parallel.c: blocks found by the index, decoded on several threads)
 * against liblzma's one-shot decode of the whole stream, by the same
 * rules.
 *
 * A stream that begins as lz4 does goes through gh_lz4_pieces()
 * (lz4_parallel.c: frames walked block by block, each block decoded on
 * its own, the content checksums chained in order) against the lz4
 * reference (liblz4's frame decoder, the whole input at once), by the
 * same rules as zstd's.
 *
 * A stream that begins as bzip2 does goes through gh_bzip2_pieces()
 * (bzip2_parallel.c: blocks found by their magics, each decoded as a
 * stream of its own) against libbz2's decode of the whole stream: where
 * it finishes, the totals must be libbz2's, and it must never finish a
 * stream libbz2 refuses (it may give up where libbz2 takes the stream:
 * trailing garbage, a magic inside a block's data).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "backend/backends.h"
#include "backend/cpu/count.h"
#include "join/submit.h"
#include "decode/bgzf_parallel.h"
#include "decode/bzip2_parallel.h"
#include "decode/gzip_parallel.h"
#include "decode/lz4_parallel.h"
#include "decode/members_parallel.h"
#include "reference.h"
#include "decode/xz_parallel.h"
#include "decode/zstd_parallel.h"

static const char *const regions[8] = { "64", "97", "128", "200", "301",
					 "1024", "4096", "65536" };
static const int thread_counts[4] = { 2, 3, 4, 8 };
/* Chunks small enough that a case fills many (big ones only cost time). */
static const uint64_t chunk_sizes[8] = { 61, 64, 1000, 4093, 4096, 65537,
					 100000, 262144 };

static void disagree(const char *what)
{
	fprintf(stderr, "fuzz-parallel: %s\n", what);
	abort();
}

/* A zstd (kind 1), xz (kind 2), bzip2 (kind 3) or lz4 (kind 4) stream p[0..len) in
 * memfd fd through its parallel decoder into b, against its library's
 * decode of the whole. */
static void packed_case(int kind, struct gh_backend *b, int fd,
			const unsigned char *p, size_t len, int threads)
{
	uint64_t want[256] = { 0 }, got[256];
	struct gh_stream_part part = { 0, 0 };
	int want_ret = gh_fuzz_packed_totals(kind, p, len, want);
	int input = b->ops->begin(b, threads, false);
	enum gh_pieces_result res;

	if (want_ret == -2)
		disagree("reference: the library failed to start");
	if (input < 0)
		disagree(b->error);
	struct gh_pieces_job job = { .sink = { .b = b, .input = input },
				     .fd = fd, .size = len, .threads = threads };

	res = kind == 1 ? gh_zstd_pieces(&job)
	      : kind == 2 ? gh_xz_pieces(&job)
	      : kind == 3 ? gh_bzip2_pieces(&job) : gh_lz4_pieces(&job);
	if (b->ops->finish(b, input, &(struct gh_counted){ .totals = got,
						       .part = &part }))
		disagree(b->error);
	if (res == GH_PIECES_FAILED)
		disagree("the backend failed");
	if (want_ret == -3)
		return;                 /* too large for the reference */
	if (want_ret < 0 && res == GH_PIECES_DONE)
		disagree("the parallel decoder took a stream its library rejects");
	if (want_ret == 0 && res == GH_PIECES_SERIAL && kind != 3)
		disagree("the parallel decoder gave up on a stream its library takes");
	if (res == GH_PIECES_DONE && memcmp(got, want, sizeof(got)))
		disagree("the zstd, xz, bzip2 or lz4 totals differ");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t want[256] = { 0 }, got[256];
	struct gh_stream_part part = { 0, 0 };
	struct gpuhist_options opts;
	unsigned long long tasks = 0, guessed = 0, redone = 0;
	struct gh_backend *b;
	char why[256];
	int fd, input, threads, want_ret;
	enum gh_pieces_result res;

	int kind = size >= 5 ? gh_fuzz_packed_kind(data + 1, size - 1) : 0;
	bool packed = kind >= 1 && kind <= 4;

	if (!packed && (size < 3 || data[1] != 0x1f || data[2] != 0x8b))
		return 0;
	const unsigned char *p = data + 1;
	size_t len = size - 1;

	setenv("GPUHIST_GZIP_REGION", regions[data[0] & 7], 1);
	threads = thread_counts[(data[0] >> 3) & 3];
	memset(&opts, 0, sizeof(opts));
	opts.backend = GPUHIST_BACKEND_CPU;
	opts.threads = threads;
	opts.chunk_bytes = chunk_sizes[data[0] >> 5];
	opts.stats = !packed;
	b = gh_backend_cpu_open(&opts, why, sizeof(why));
	if (!b)
		disagree(why);
	fd = memfd_create("fuzz-parallel", MFD_CLOEXEC);
	if (fd < 0 || write(fd, p, len) != (ssize_t)len)
		disagree("cannot fill the memfd");
	if (packed) {
		packed_case(kind, b, fd, p, len, threads);
		close(fd);
		b->ops->destroy(b);
		return 0;
	}

	want_ret = gh_fuzz_zlib_totals(p, len, want);
	if (want_ret == -2)
		disagree("reference: zlib failed to start");
	struct gh_views views;
	struct gh_counted into = { .totals = got };

	if (gh_views_open(&views, &opts))
		disagree("out of memory for the views");
	input = b->ops->begin(b, threads, false);
	if (input < 0)
		disagree(b->error);
	struct gh_pieces_job job = { .sink = { .b = b, .input = input,
					       .views = &views },
				     .fd = fd, .size = len, .threads = threads };

	bool bgzf = gh_bgzf_member_length(p, len) > 0;

	res = bgzf ? gh_bgzf_pieces(&job) : gh_gzip_pieces(&job);
	if (!bgzf)
		sscanf(job.summary, "%llu regions, %llu started at a guessed block, %llu decoded again",
		       &tasks, &guessed, &redone);
	gh_views_into(&views, &into);
	if (b->ops->finish(b, input, &into))
		disagree(b->error);
	if (res == GH_PIECES_DONE &&
	    gh_views_end(&views, &(struct gh_view_end){ .totals = got }))
		disagree("the tasks' chunks do not join up at their offsets");
	gh_views_close(&views);
	if (res == GH_PIECES_FAILED)
		disagree("the backend failed");
	if (want_ret < 0 && res == GH_PIECES_DONE)
		disagree("the parallel decoder took a stream zlib rejects");
	if (want_ret == 0 && res != GH_PIECES_DONE && !bgzf)
		disagree("the parallel decoder gave up on a stream zlib takes");
	if (res == GH_PIECES_DONE && memcmp(got, want, sizeof(got)))
		disagree("the totals differ");
	if (guessed + redone >= tasks && tasks > 0)
		disagree("more regions started than there are after the first");
	if (!bgzf) {
		struct gh_pieces_job mj = { .sink = { .b = b }, .fd = fd,
					    .size = len, .threads = threads };

		mj.sink.input = b->ops->begin(b, threads, false);
		if (mj.sink.input < 0)
			disagree(b->error);
		res = gh_members_pieces(&mj);
		if (b->ops->finish(b, mj.sink.input,
				   &(struct gh_counted){ .totals = got,
							 .part = &part }))
			disagree(b->error);
		if (res == GH_PIECES_FAILED)
			disagree("the backend failed (members)");
		if (want_ret < 0 && res == GH_PIECES_DONE)
			disagree("the members' decoder took a stream zlib rejects");
		if (res == GH_PIECES_DONE && memcmp(got, want, sizeof(got)))
			disagree("the members' totals differ");
	}
	close(fd);
	b->ops->destroy(b);
	return 0;
}
