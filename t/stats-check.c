/* stats-check.c - TAP test: ent's stream sums counted chunk by chunk, the
 * edges joined by edges.c whatever order the chunks come in (and from
 * several threads at once), equal one loop over the whole stream; and
 * the fast CPU count (count_stats.c) equal to a loop over every pair and
 * group at every length, offset and phase.  Streams are random bytes,
 * text, and groups on either side of ent's circle; chunks are cut at
 * random lengths (1 byte up) and submitted shuffled. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "circle.h"
#include "backend/cpu/count_stats.h"
#include "join/edges.h"
#include "gh_stats.h"
#include "gpuhist.h"

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Shape 0: random bytes; 1: text; 2: groups just inside and just outside
 * the circle (y the largest inside for x, or one more). */
static void make_stream(unsigned char *p, size_t n, int shape, uint32_t seed)
{
	static const char text[] = "Mar 24 03:01:00 host sshd[411]: Accepted key\n";
	uint32_t x = seed;

	for (size_t i = 0; i < n; i++) {
		if (shape == 0)
			p[i] = (unsigned char)rnd(&x);
		else if (shape == 1)
			p[i] = (unsigned char)text[i % (sizeof(text) - 1)];
		else if (i % 6 == 0) {
			unsigned char g[6];
			uint64_t gx = rnd(&x) % 0x1000000;

			circle_group(gx, (int)(rnd(&x) & 1), g);
			memcpy(p + i, g, n - i < 6 ? n - i : 6);
		}
	}
}

/* The whole stream's sums, one pair and one group at a time. */
static struct gpuhist_stream reference(const unsigned char *p, uint64_t n)
{
	struct gpuhist_stream s = { 0, n / 6, 0 };

	for (uint64_t i = 0; i < n; i++)
		s.pairs += (uint64_t)p[i] * p[(i + 1) % n];
	for (uint64_t g = 0; g + 6 <= n; g += 6) {
		uint64_t x = (uint64_t)p[g] << 16 | p[g + 1] << 8 | p[g + 2];
		uint64_t y = (uint64_t)p[g + 3] << 16 | p[g + 4] << 8 | p[g + 5];

		s.hits += x * x + y * y <= (uint64_t)0xffffff * 0xffffff;
	}
	return s;
}

struct cut {
	uint64_t offset, len;
};

struct job {
	const unsigned char *p;
	struct gh_edges *e;
	const struct cut *cuts;
	size_t from, to;
	struct gh_stream_part part;
	int failed;
};

/* Cuts [from, to) of the shuffled list, each counted on its own. */
static void *submit_cuts(void *arg)
{
	struct job *j = arg;

	for (size_t i = j->from; i < j->to; i++) {
		struct gh_chunk c = { .data = (unsigned char *)j->p +
					      j->cuts[i].offset };

		if (gh_edges_cut(j->e, &c, j->cuts[i].len, j->cuts[i].offset))
			j->failed = 1;
		if (c.phase != gh_pi_phase(j->cuts[i].offset))
			j->failed = 1;
		gh_count_stats(c.data, j->cuts[i].len, c.phase, &j->part);
	}
	return NULL;
}

/* Cuts the stream into chunks of 1..max_len bytes, submits them shuffled
 * from `threads` threads; whether the sums equal the reference's. */
static int joined(const unsigned char *p, uint64_t n, uint32_t max_len,
		  int threads, uint32_t seed)
{
	struct cut *cuts = malloc((n + 1) * sizeof(*cuts));
	struct gh_edges *e = gh_edges_new();
	struct job jobs[8];
	pthread_t tids[8];
	struct gpuhist_stream got = { 0, 0, 0 }, want = reference(p, n);
	size_t n_cuts = 0;
	uint32_t x = seed;
	int good = 1;

	for (uint64_t at = 0; at < n;) {
		uint64_t len = 1 + rnd(&x) % max_len;

		if (len > n - at)
			len = n - at;
		cuts[n_cuts++] = (struct cut){ at, len };
		at += len;
		if (rnd(&x) % 8 == 0)   /* an empty chunk now and then */
			cuts[n_cuts++] = (struct cut){ at, 0 };
	}
	for (size_t i = n_cuts; i > 1; i--) {
		size_t k = rnd(&x) % i;
		struct cut t = cuts[i - 1];

		cuts[i - 1] = cuts[k];
		cuts[k] = t;
	}
	for (int t = 0; t < threads; t++) {
		jobs[t] = (struct job){ .p = p, .e = e, .cuts = cuts,
					.from = n_cuts * t / threads,
					.to = n_cuts * (t + 1) / threads };
		pthread_create(&tids[t], NULL, submit_cuts, &jobs[t]);
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(tids[t], NULL);
		got.pairs += jobs[t].part.pairs;
		got.hits += jobs[t].part.hits;
		good &= !jobs[t].failed;
	}
	good &= gh_edges_end(e, n, &got) == 0;
	good &= got.pairs == want.pairs && got.groups == want.groups &&
		got.hits == want.hits;
	if (!good)
		printf("# n %" PRIu64 " max %u: got %" PRIu64 " %" PRIu64 " %" PRIu64
		       ", want %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", n, max_len,
		       got.pairs, got.groups, got.hits, want.pairs, want.groups,
		       want.hits);
	gh_edges_free(e);
	free(cuts);
	return good;
}

/* count_stats over p[off..off + len) from phase, against plain loops. */
static int counts_right(const unsigned char *p, uint64_t len, unsigned phase)
{
	struct gh_stream_part got = { 0, 0 };
	uint64_t pairs = 0, hits = 0;

	gh_count_stats(p, len, phase, &got);
	for (uint64_t i = 0; i + 1 < len; i++)
		pairs += (uint64_t)p[i] * p[i + 1];
	for (uint64_t g = phase; g + 6 <= len; g += 6)
		hits += (uint64_t)gh_pi_hit(p + g);
	return got.pairs == pairs && got.hits == hits;
}

int main(void)
{
	static const char *const shape_name[] = { "random bytes", "text",
						   "groups at ent's circle" };
	size_t n = (size_t)1 << 20;
	unsigned char *p = malloc(n + 64);
	char what[128];

	printf("1..%d\n", 3 * 5 + 2);
	for (int shape = 0; shape < 3; shape++) {
		int all = 1;

		make_stream(p, n, shape, 7 + (uint32_t)shape);
		for (uint64_t len = 0; len < 200; len++)
			for (uint64_t off = 0; off < 17; off++)
				for (unsigned ph = 0; ph < 6; ph++)
					all &= counts_right(p + off, len, ph);
		all &= counts_right(p + 3, n - 5, 4);
		snprintf(what, sizeof(what), "%s: count_stats equals the plain loops (lengths 0..199, 17 offsets, 6 phases, 1 MiB)",
			 shape_name[shape]);
		ok(all, what);

		all = 1;
		for (uint64_t len = 0; len <= 40; len++)
			all &= joined(p, len, 5, 1, (uint32_t)len + 1);
		snprintf(what, sizeof(what), "%s: streams of 0..40 bytes in chunks of 1..5, shuffled",
			 shape_name[shape]);
		ok(all, what);
		snprintf(what, sizeof(what), "%s: 1 MiB in chunks of 1..13, shuffled, 4 threads",
			 shape_name[shape]);
		ok(joined(p, n, 13, 4, 99), what);
		snprintf(what, sizeof(what), "%s: 1 MiB in chunks of 1..70000, shuffled, 8 threads",
			 shape_name[shape]);
		ok(joined(p, n, 70000, 8, 5), what);
		snprintf(what, sizeof(what), "%s: 1 MiB - 1 in chunks of 1..7, in one thread",
			 shape_name[shape]);
		ok(joined(p, n - 1, 7, 1, 3), what);
	}

	/* A chunk missing: the join says so rather than count a gap. */
	struct gh_edges *e = gh_edges_new();
	struct gh_chunk c = { .data = p };
	struct gpuhist_stream s = { 0, 0, 0 };

	gh_edges_cut(e, &c, 10, 0);
	c.data = p + 20;
	gh_edges_cut(e, &c, 10, 20);
	ok(gh_edges_end(e, 30, &s) == -1, "a chunk missing in the middle fails the join");
	gh_edges_reset(e);
	c.data = p;
	gh_edges_cut(e, &c, 10, 0);
	ok(gh_edges_end(e, 10, &s) == 0 && s.groups == 1,
	   "after a reset the input is joined again from its start");
	gh_edges_free(e);
	free(p);
	return 0;
}
