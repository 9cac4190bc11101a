/* submit.c - the one way chunks reach a backend: cut at their edges first */
#include "config.h"

#include "submit.h"
#include "tokens/tokens.h"

/* The backend's reason after a failed call of its own. */
static const char *backend_why(struct gh_backend *b, int ret)
{
	return ret ? b->error : NULL;
}

#define NOMEM "out of memory for the edges of chunks"

/* Cuts chunk c, len bytes whose first ones are at first and last ones
 * just before end, at its edges for j: NULL, or NOMEM.  *left: the bytes
 * left for the backend to count (0: none). */
static const char *cut(const struct gh_joins *j, struct gh_chunk *c,
		       const unsigned char *first, const unsigned char *end,
		       uint64_t len, struct gh_place at, uint64_t *left)
{
	struct gh_seams *seams = j ? j->seams : NULL;
	struct gh_edges *edges = j ? j->edges : NULL;

	*left = len;
	if (edges && gh_edges_cut_ends(edges, c, first, end, len, at.offset))
		return NOMEM;
	if (!seams || (!len && !at.last))
		return NULL;
	if (gh_seams_cut_ends(seams, c, first, end, len, at.major, at.start,
			      at.last))
		return NOMEM;
	/* Statistics count every byte, even where seams.c took them all. */
	if (c->from >= c->to && !edges)
		*left = 0;
	return NULL;
}

/* Counts the tokens of chunk c (len bytes from offset on), or, where its
 * backend counts them itself, keeps only its ends and leaves it the
 * inside: NULL, or why not. */
static const char *cut_tokens(const struct gh_joins *j, struct gh_chunk *c,
			      uint64_t len, uint64_t offset)
{
	struct gh_tokens *t = j ? j->tokens : NULL;
	int ret;

	c->tokens = NULL;
	if (!t)
		return NULL;
	/* With code points (a library's choice) seams.c may leave the
	 * backend nothing to count: then the host counts the tokens too. */
	if (!c->backend->tokens || j->seams)
		ret = gh_tokens_cut(t, c->data, len, offset);
	else if (!(ret = gh_tokens_cut_ends(t, c->data, len, offset,
					    &c->tok_from, &c->tok_to)) &&
		 c->tok_from < c->tok_to)
		c->tokens = t;
	return ret ? gh_tokens_error(t) : NULL;
}

const char *gh_submit(const struct gh_joins *j, struct gh_backend *b,
		      int input, struct gh_chunk *c, uint64_t len,
		      struct gh_place at)
{
	uint64_t left;
	const char *why;

	if (b->cancel && atomic_load(b->cancel)) {
		/* Handed back empty: the reader stops with this reason. */
		b->ops->submit(b, input, c, 0);
		return GH_CANCELLED;
	}
	why = cut_tokens(j, c, len, at.offset);
	if (!why)
		why = cut(j, c, c->data, c->data + len, len, at, &left);
	if (why) {
		b->ops->submit(b, input, c, 0);
		return why;
	}
	return backend_why(b, b->ops->submit(b, input, c, left));
}

const char *gh_submit_members(const struct gh_joins *j, struct gh_backend *b,
			      int input, struct gh_members *m,
			      struct gh_place at)
{
	struct gh_chunk *c = &m->cut;
	uint64_t left;
	const char *why;

	if (b->cancel && atomic_load(b->cancel))
		return GH_CANCELLED;
	/* The members' bytes are on the device: a view that needs them all
	 * (tokens) never has its members decoded there. */
	if (j && j->tokens)
		return "tokens need the decoded bytes";
	c->from = 0;
	c->to = m->out;
	c->phase = 0;
	why = cut(j, c, m->head,
		  m->tail + (m->out < GH_ENDS_BYTES ? m->out : GH_ENDS_BYTES),
		  m->out, at, &left);
	if (why || !left)
		return why;
	return backend_why(b, b->ops->members_count(b, input, m));
}
