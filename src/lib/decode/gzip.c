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

/* A file of four regions or more goes to the parallel decoder where its
 * threads beat one serial inflater (gh_gzip_parallel_threads); with fewer
 * threads to spare (several inputs counted at once share the cores), ISA-L
 * in order is the fastest strict decoder, a core each.  Smaller files
 * start faster with ISA-L. */
static int gzip_pieces_threads(const void *d, uint64_t size, int threads)
{
	if (size < 4 * gh_gzip_region(size, threads))
		return 0;
	return threads >= gh_gzip_parallel_threads(gh_gunzip_engine(d))
	       ? threads : 0;
}

/* BGZF, whose members say where they end, goes member by member; any
 * other gzip file region by region. */
static enum gh_pieces_result gzip_pieces(struct gh_pieces_job *job)
{
	unsigned char head[64];
	ssize_t n;

	do
		n = pread(job->fd, head, sizeof(head), (off_t)job->start);
	while (n < 0 && errno == EINTR);
	if (n > 0 && gh_bgzf_member_length(head, (uint64_t)n))
		return gh_bgzf_pieces(job);
	return gh_gzip_pieces(job);
}

const struct gh_decoder gh_gzip_decoder = {
	.open = gzip_open,
	.read = gzip_read,
	.consumed = gzip_consumed,
	.decoding = gzip_decoding,
	.free = gzip_free,
#ifdef HAVE_ISAL
	.engines = "ISA-L, zlib",
#else
	.engines = "zlib",
#endif
	.pieces_threads = gzip_pieces_threads,
	.pieces = gzip_pieces,
};
