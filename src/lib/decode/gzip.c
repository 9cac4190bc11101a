/* gzip.c - gzip: members decoded in order (gunzip.c), or a big file's
 * members (BGZF: bgzf_parallel.c) or regions (gzip_parallel.c) on several
 * threads */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bgzf_parallel.h"
#include "decoder.h"
#include "gunzip.h"
#include "gzip_parallel.h"
#include "inflate.h"
#include "members_parallel.h"

static const struct gh_decoding by_isal = { "gzip", "isa-l" };
static const struct gh_decoding by_zlib = { "gzip", "zlib" };

static void *gzip_open(const struct gh_packed_from *from, const char **why)
{
	struct gh_gunzip *g = from->fd >= 0
		? gh_gunzip_new(from->fd, from->primed, from->primed_len,
				from->strict)
		: gh_gunzip_new_mem(from->mem, from->mem_len, from->strict);

	*why = "cannot start the gzip decoder";
	return g;
}

static int64_t gzip_read(void *d, unsigned char *out, uint64_t cap,
			 const char **why, const char **warning)
{
	(void)warning;
	return gh_gunzip_read(d, out, cap, why);
}

static uint64_t gzip_consumed(const void *d)
{
	return gh_gunzip_consumed(d);
}

static const struct gh_decoding *gzip_decoding(const void *d)
{
	return strcmp(gh_gunzip_engine(d), "zlib") ? &by_isal : &by_zlib;
}

static void gzip_free(void *d)
{
	gh_gunzip_free(d);
}

/* Whether the file begins with a BGZF member. */
static bool is_bgzf(const struct gh_file_span *file)
{
	unsigned char head[64];
	ssize_t n;

	do
		n = pread(file->fd, head, sizeof(head), (off_t)file->start);
	while (n < 0 && errno == EINTR);
	return n > 0 && gh_bgzf_member_length(head, (uint64_t)n);
}

/* A file of four regions or more goes to a parallel decoder where its
 * threads beat one serial inflater: BGZF's members, or segments of whole
 * members where the file has several (each decoded by the serial
 * inflater, a core each), from two threads; one member, whose regions
 * the marked decoder guesses, where gh_gzip_parallel_threads() says.
 * With fewer threads to spare (several inputs counted at once share the
 * cores), ISA-L in order is the fastest strict decoder, a core each.
 * Smaller files start faster with ISA-L. */
static int gzip_pieces_threads(const void *d, const struct gh_file_span *file,
			       int threads)
{
	if (file->size < 4 * gh_gzip_region(file->size, threads) || threads < 2)
		return 0;
	if (threads >= gh_gzip_parallel_threads(gh_gunzip_engine(d)) ||
	    is_bgzf(file))
		return threads;
	return gh_members_threads(file, threads);
}

/* The serial path's inflater: "isa-l", or "zlib" (GPUHIST_INFLATE). */
static const char *serial_engine(void)
{
	struct gh_inflater *inf = gh_inflater_new();
	const char *name = inf ? inf->name : NULL;

	if (inf)
		inf->free(inf);
	return name;
}

/* BGZF, whose members say where they end, goes member by member; a file
 * of several members segment by segment; one member region by region,
 * with the threads for it (else in order), and so does a file whose
 * segments did not join (then asked for again: job->attempt 1). */
static enum gh_pieces_result gzip_pieces(struct gh_pieces_job *job)
{
	const struct gh_file_span file = { job->fd, job->start, job->size };
	enum gh_pieces_result res;

	bool speculative = job->threads >= gh_gzip_parallel_threads(serial_engine());

	if (is_bgzf(&file))
		return gh_bgzf_pieces(job);
	if (job->attempt == 0 && gh_members_threads(&file, job->threads)) {
		res = gh_members_pieces(job);
		/* A cut inside a member (its data holds a gzip file) spoils
		 * the members' way, not the speculative decoder's. */
		if (res == GH_PIECES_SERIAL && speculative)
			job->again = true;
		if (res != GH_PIECES_IN_ORDER)
			return res;
	}
	if (!speculative)
		return GH_PIECES_IN_ORDER;
	return gh_gzip_pieces(job);
}

const struct gh_decoder gh_gzip_decoder = {
	.open = gzip_open,
	.read = gzip_read,
	.consumed = gzip_consumed,
	.decoding = gzip_decoding,
	.free = gzip_free,
#if defined(HAVE_ISAL) && defined(HAVE_NVCOMP)
	.engines = "ISA-L, zlib; BGZF members on the GPU by nvCOMP",
#elif defined(HAVE_NVCOMP)
	.engines = "zlib; BGZF members on the GPU by nvCOMP",
#elif defined(HAVE_ISAL)
	.engines = "ISA-L, zlib",
#else
	.engines = "zlib",
#endif
	.pieces_threads = gzip_pieces_threads,
	.pieces = gzip_pieces,
};
