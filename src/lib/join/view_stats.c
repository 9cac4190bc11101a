/* view_stats.c - ent's statistics view (--stats): the backend sums each
 * chunk on its own from the phase edges.c gives it, and edges.c adds
 * what crosses between chunks once the input ends */
#include "config.h"

#include <stdlib.h>

#include "edges.h"
#include "view.h"

struct stats_view {
	struct gh_edges *edges;
	struct gh_stream_part part;     /* the backend's sums of its chunks */
	struct gpuhist_stream stream;   /* and with their edges, in all */
};

static bool stats_wanted(const struct gpuhist_options *opts)
{
	return opts->stats;
}

static void stats_free(void *state)
{
	struct stats_view *v = state;

	if (!v)
		return;
	gh_edges_free(v->edges);
	free(v);
}

static void *stats_new(const struct gpuhist_options *opts)
{
	struct stats_view *v = calloc(1, sizeof(*v));

	(void)opts;
	if (v && !(v->edges = gh_edges_new())) {
		free(v);
		return NULL;
	}
	return v;
}

static void stats_reset(void *state)
{
	struct stats_view *v = state;

	gh_edges_reset(v->edges);
	v->part = (struct gh_stream_part){ 0, 0 };
	v->stream = (struct gpuhist_stream){ 0, 0, 0 };
}

/* Statistics count every byte, even where another view took them all. */
static int stats_cut(void *state, struct gh_chunk *c, const struct gh_cut *x,
		     bool *backend)
{
	*backend = true;
	return gh_edges_cut_ends(((struct stats_view *)state)->edges, c,
				 x->first, x->end, x->len, x->at.offset);
}

static void stats_into(void *state, struct gh_counted *counted)
{
	counted->part = &((struct stats_view *)state)->part;
}

static const char *stats_end(void *state, const struct gh_view_end *e)
{
	struct stats_view *v = state;
	uint64_t bytes = 0;

	/* The stream's bytes; a range's, with -m, are not its code points'
	 * (a character begun in it may end past it). */
	for (int b = 0; b < 256; b++)
		bytes += e->totals[b];
	if (e->ranged)
		bytes = e->length;
	v->stream.pairs = v->part.pairs;
	v->stream.hits = v->part.hits;
	/* Within 64 bits: pairs add up to 65025 a byte at most. */
	if (bytes > UINT64_MAX / 65025)
		return "more bytes than --stats sums in 64 bits";
	if (gh_edges_end(v->edges, bytes, &v->stream))
		return "its chunks did not join up (out of memory, or an internal error)";
	return NULL;
}

static void stats_publish(const void *state, struct gpuhist_result *r)
{
	r->stream = &((const struct stats_view *)state)->stream;
}

const struct gh_view_ops gh_view_stats = {
	.name = "stats",
	.wanted = stats_wanted,
	.by_offset = true,
	.offsets_user = "-s needs",
	.new = stats_new,
	.free = stats_free,
	.reset = stats_reset,
	.cut = stats_cut,
	.into = stats_into,
	.end = stats_end,
	.publish = stats_publish,
};
