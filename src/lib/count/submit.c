/* submit.c - the one way chunks reach a backend: cut at their edges first */
#include "config.h"

#include "submit.h"

/* The backend's reason after a failed call of its own. */
static const char *backend_why(struct gh_backend *b, int ret)
{
	return ret ? b->error : NULL;
}

const char *gh_submit(const struct gh_joins *j, struct gh_backend *b,
		      int input, struct gh_chunk *c, uint64_t len,
		      struct gh_place at)
{
	struct gh_seams *seams = j ? j->seams : NULL;
	struct gh_edges *edges = j ? j->edges : NULL;

	if (b->cancel && atomic_load(b->cancel)) {
		/* Handed back empty: the reader stops with this reason. */
		b->ops->submit(b, input, c, 0);
		return GH_CANCELLED;
	}
	if (edges && gh_edges_cut(edges, c, len, at.offset))
		goto nomem;
	if (!seams || (!len && !at.last))
		return backend_why(b, b->ops->submit(b, input, c, len));
	if (gh_seams_cut(seams, c, len, at.major, at.start, at.last))
		goto nomem;
	/* Statistics count every byte, even where seams.c took them all. */
	return backend_why(b, b->ops->submit(b, input, c,
					     c->from < c->to || edges ? len : 0));
nomem:
	b->ops->submit(b, input, c, 0);
	return "out of memory for the edges of chunks";
}

const char *gh_submit_members(const struct gh_joins *j, struct gh_backend *b,
			      int input, struct gh_members *m,
			      struct gh_place at)
{
	struct gh_seams *seams = j ? j->seams : NULL;
	struct gh_edges *edges = j ? j->edges : NULL;
	struct gh_chunk *c = &m->cut;
	const unsigned char *end = m->tail +
		(m->out < GH_ENDS_BYTES ? m->out : GH_ENDS_BYTES);

	c->from = 0;
	c->to = m->out;
	c->phase = 0;
	if (b->cancel && atomic_load(b->cancel))
		return GH_CANCELLED;
	if ((edges && gh_edges_cut_ends(edges, c, m->head, end, m->out,
					at.offset)) ||
	    (seams && gh_seams_cut_ends(seams, c, m->head, end, m->out,
					at.major, at.start, at.last)))
		return "out of memory for the edges of chunks";
	if (!m->out || (seams && !edges && c->from >= c->to))
		return NULL;
	return backend_why(b, b->ops->members_count(b, input, m));
}
