/* submit.c - the one way chunks reach a backend: cut at their edges first */
#include "config.h"

#include "submit.h"

/* The backend's reason after a failed call of its own. */
static const char *backend_why(struct gh_backend *b, int ret)
{
	return ret ? b->error : NULL;
}

const char *gh_submit(const struct gh_views *v, struct gh_backend *b,
		      int input, struct gh_chunk *c, uint64_t len,
		      struct gh_place at)
{
	struct gh_cut x = { .first = c->data, .end = c->data + len,
			    .len = len, .at = at };
	uint64_t left;
	const char *why;

	if (b->cancel && atomic_load(b->cancel)) {
		/* Handed back empty: the reader stops with this reason. */
		b->ops->submit(b, input, c, 0);
		return GH_CANCELLED;
	}
	why = gh_views_cut(v, c, &x, &left);
	if (why) {
		b->ops->submit(b, input, c, 0);
		return why;
	}
	return backend_why(b, b->ops->submit(b, input, c, left));
}

const char *gh_submit_members(const struct gh_views *v, struct gh_backend *b,
			      int input, struct gh_members *m,
			      struct gh_place at)
{
	struct gh_cut x = {
		.first = m->head,
		.end = m->tail + (m->out < GH_ENDS_BYTES ? m->out
							 : GH_ENDS_BYTES),
		.len = m->out, .at = at, .on_device = true,
	};
	uint64_t left;
	const char *why;

	if (b->cancel && atomic_load(b->cancel))
		return GH_CANCELLED;
	/* The members' bytes are on the device: an input with a view that
	 * needs them all (tokens) never has its members decoded there. */
	if (gh_views_host_bytes(v))
		return "a view needs the decoded bytes on the host";
	why = gh_views_cut(v, &m->cut, &x, &left);
	if (why || !left)
		return why;
	return backend_why(b, b->ops->members_count(b, input, m));
}
