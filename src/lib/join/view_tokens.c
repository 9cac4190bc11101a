/* view_tokens.c - the tokens views (-t, --lines, --field): tokens.c cuts
 * each chunk into units and counts them, or, where the backend counts a
 * chunk's inside itself (the GPU's kernels, the CPU's pool), keeps only
 * its ends; the ends are joined in order, piece by piece (a parallel
 * decoder's frames, members, regions or blocks, each told when it ends),
 * so no decoder needs to know a piece's place in the output beforehand */
#include "config.h"

#include <stdlib.h>

#include "tokens/tokens.h"
#include "view.h"

struct tokens_view {
	struct gh_tokens *tokens;
	const struct gpuhist_tokens *result;    /* once ended */
};

static bool tokens_wanted(const struct gpuhist_options *opts)
{
	return opts->tokens;
}

static void tokens_free(void *state)
{
	struct tokens_view *v = state;

	if (!v)
		return;
	gh_tokens_free(v->tokens);
	free(v);
}

static void *tokens_new(const struct gpuhist_options *opts)
{
	struct tokens_view *v = calloc(1, sizeof(*v));

	if (v && !(v->tokens = gh_tokens_new(opts))) {
		free(v);
		return NULL;
	}
	return v;
}

static void tokens_reset(void *state)
{
	struct tokens_view *v = state;

	gh_tokens_reset(v->tokens);
	v->result = NULL;
}

/* With code points (a library's choice) the backend may be left nothing
 * of a chunk to count: then the host counts its tokens too. */
static int tokens_cut(void *state, struct gh_chunk *c, const struct gh_cut *x,
		      bool *backend)
{
	struct tokens_view *v = state;

	*backend = false;
	if (!c->backend->tokens || c->backend->chars)
		return gh_tokens_cut(v->tokens, c->data, x->len,
				     x->at.major, x->at.start);
	if (gh_tokens_cut_ends(v->tokens, c->data, x->len, x->at.major,
			       x->at.start, &c->tok_from, &c->tok_to))
		return -1;
	if (c->tok_from < c->tok_to) {
		c->tokens = v->tokens;
		*backend = true;
	}
	return 0;
}

static int tokens_end_piece(void *state, uint64_t major, uint64_t len)
{
	return gh_tokens_end_piece(((struct tokens_view *)state)->tokens,
				   major, len);
}

static const char *tokens_end(void *state, const struct gh_view_end *e)
{
	struct tokens_view *v = state;
	uint64_t bytes = 0;

	for (int b = 0; b < 256; b++)
		bytes += e->totals[b];
	if (gh_tokens_end(v->tokens, bytes, &v->result))
		return gh_tokens_error(v->tokens);
	return NULL;
}

static void tokens_publish(const void *state, struct gpuhist_result *r)
{
	r->tokens = ((const struct tokens_view *)state)->result;
}

static const char *tokens_message(const void *state)
{
	return gh_tokens_error(((const struct tokens_view *)state)->tokens);
}

const struct gh_view_ops gh_view_tokens = {
	.name = "tokens",
	.wanted = tokens_wanted,
	.no_ranges = "tokens are not counted in ranges (mpirun) yet",
	.host_bytes = true,
	.new = tokens_new,
	.free = tokens_free,
	.reset = tokens_reset,
	.cut = tokens_cut,
	.end_piece = tokens_end_piece,
	.end = tokens_end,
	.publish = tokens_publish,
	.message = tokens_message,
};
