/* view_chars.c - the code-point view (-m): seams.c keeps each chunk's
 * edges, the backend counts the positions between them, and the edges are
 * counted once the input ends */
#include "config.h"

#include <stdlib.h>

#include "seams.h"
#include "view.h"

struct chars_view {
	struct gpuhist_chars chars;     /* the backend's and the edges' */
	struct gh_seams *seams;
};

static bool chars_wanted(const struct gpuhist_options *opts)
{
	return opts->chars;
}

static void chars_free(void *state)
{
	struct chars_view *v = state;

	if (!v)
		return;
	gh_seams_free(v->seams);
	gpuhist_chars_free(&v->chars);
	free(v);
}

static void *chars_new(const struct gpuhist_options *opts)
{
	struct chars_view *v = calloc(1, sizeof(*v));

	(void)opts;
	if (v && !(v->seams = gh_seams_new(&v->chars))) {
		free(v);
		return NULL;
	}
	return v;
}

static void chars_reset(void *state)
{
	struct chars_view *v = state;

	gh_seams_reset(v->seams);
	gpuhist_chars_free(&v->chars);
}

static void chars_before(void *state, const unsigned char *bytes, int n)
{
	gh_seams_before(((struct chars_view *)state)->seams, bytes, n);
}

static int chars_cut(void *state, struct gh_chunk *c, const struct gh_cut *x,
		     bool *backend)
{
	struct chars_view *v = state;

	/* An empty chunk that ends no piece has no edges. */
	if (!x->len && !x->at.last) {
		*backend = false;
		return 0;
	}
	if (gh_seams_cut_ends(v->seams, c, x->first, x->end, x->len,
			      x->at.major, x->at.start, x->at.last))
		return -1;
	*backend = c->from < c->to;
	return 0;
}

static int chars_end_piece(void *state, uint64_t major, uint64_t len)
{
	return gh_seams_end_piece(((struct chars_view *)state)->seams, major,
				  len) ? -1 : 0;
}

static int chars_end_cut(void *state, const unsigned char *after, int n)
{
	return gh_seams_end(((struct chars_view *)state)->seams, after, n);
}

static void chars_into(void *state, struct gh_counted *counted)
{
	counted->chars = &((struct chars_view *)state)->chars;
}

/* The input's byte totals are its code points' bytes. */
static const char *chars_end(void *state, const struct gh_view_end *e)
{
	struct chars_view *v = state;

	if (gpuhist_chars_bytes(&v->chars, e->totals))
		return "more bytes than 64 bits count";
	return NULL;
}

static void chars_publish(const void *state, struct gpuhist_result *r)
{
	r->chars = &((const struct chars_view *)state)->chars;
}

const struct gh_view_ops gh_view_chars = {
	.name = "chars",
	.wanted = chars_wanted,
	.replaces_bytes = true,
	.new = chars_new,
	.free = chars_free,
	.reset = chars_reset,
	.before = chars_before,
	.cut = chars_cut,
	.end_piece = chars_end_piece,
	.end_cut = chars_end_cut,
	.into = chars_into,
	.end = chars_end,
	.publish = chars_publish,
};
