/* views.c - the rows of views, and what the pipeline, submit.c and the
 * sink do with the views one input is counted by (view.h) */
#include "config.h"

#include "view.h"

extern const struct gh_view_ops gh_view_chars, gh_view_stats, gh_view_tokens;

/* In the order their ends are taken: code points set the byte totals that
 * the others read. */
const struct gh_view_ops *const gh_view_rows[] = {
	&gh_view_chars,
	&gh_view_stats,
	&gh_view_tokens,
	NULL,
};

int gh_views_open(struct gh_views *v, const struct gpuhist_options *opts)
{
	v->n = 0;
	for (int i = 0; gh_view_rows[i]; i++) {
		const struct gh_view_ops *ops = gh_view_rows[i];

		if (!ops->wanted(opts))
			continue;
		v->ops[v->n] = ops;
		if (v->n == GH_VIEWS_MAX ||
		    !(v->state[v->n] = ops->new(opts))) {
			gh_views_close(v);
			return -1;
		}
		v->n++;
	}
	return 0;
}

void gh_views_close(struct gh_views *v)
{
	for (int i = 0; i < v->n; i++)
		v->ops[i]->free(v->state[i]);
	v->n = 0;
}

void gh_views_reset(struct gh_views *v)
{
	for (int i = 0; i < v->n; i++)
		v->ops[i]->reset(v->state[i]);
}

const char *gh_views_no_ranges(const struct gpuhist_options *opts)
{
	for (int i = 0; gh_view_rows[i]; i++)
		if (gh_view_rows[i]->no_ranges &&
		    gh_view_rows[i]->wanted(opts))
			return gh_view_rows[i]->no_ranges;
	return NULL;
}

bool gh_views_by_offset(const struct gh_views *v)
{
	for (int i = 0; v && i < v->n; i++)
		if (v->ops[i]->by_offset)
			return true;
	return false;
}

bool gh_views_host_bytes(const struct gh_views *v)
{
	for (int i = 0; v && i < v->n; i++)
		if (v->ops[i]->host_bytes)
			return true;
	return false;
}

bool gh_views_context(const struct gh_views *v)
{
	for (int i = 0; v && i < v->n; i++)
		if (v->ops[i]->before)
			return true;
	return false;
}

const char *gh_views_offsets_user(const struct gh_views *v)
{
	const char *who = "the views need";

	for (int i = 0; v && i < v->n; i++)
		if (v->ops[i]->by_offset)
			who = v->ops[i]->offsets_user;
	return who;
}

void gh_views_before(struct gh_views *v, const unsigned char *bytes, int n)
{
	for (int i = 0; i < v->n; i++)
		if (v->ops[i]->before)
			v->ops[i]->before(v->state[i], bytes, n);
}

#define NOMEM "out of memory for the edges of chunks"

/* Why view i's last call failed. */
static const char *why(const struct gh_views *v, int i)
{
	const char *m = v->ops[i]->message
			? v->ops[i]->message(v->state[i]) : NULL;

	return m ? m : NOMEM;
}

const char *gh_views_cut(const struct gh_views *v, struct gh_chunk *c,
			 const struct gh_cut *x, uint64_t *left)
{
	bool replaced = false, needed = false;

	gh_chunk_uncut(c, x->len);
	*left = x->len;
	for (int i = 0; v && i < v->n; i++) {
		bool backend = true;

		if (v->ops[i]->cut(v->state[i], c, x, &backend))
			return why(v, i);
		replaced |= v->ops[i]->replaces_bytes;
		needed |= backend;
	}
	if (replaced && !needed)
		*left = 0;
	return NULL;
}

int gh_views_end_piece(const struct gh_views *v, uint64_t major,
		       uint64_t len)
{
	for (int i = 0; v && i < v->n; i++)
		if (v->ops[i]->end_piece &&
		    v->ops[i]->end_piece(v->state[i], major, len))
			return -1;
	return 0;
}

int gh_views_end_cut(struct gh_views *v, const unsigned char *after, int n)
{
	for (int i = 0; i < v->n; i++)
		if (v->ops[i]->end_cut &&
		    v->ops[i]->end_cut(v->state[i], after, n))
			return -1;
	return 0;
}

void gh_views_into(struct gh_views *v, struct gh_counted *counted)
{
	for (int i = 0; i < v->n; i++)
		if (v->ops[i]->into)
			v->ops[i]->into(v->state[i], counted);
}

const char *gh_views_end(struct gh_views *v, const struct gh_view_end *e)
{
	const char *m;

	for (int i = 0; i < v->n; i++)
		if ((m = v->ops[i]->end(v->state[i], e)))
			return m;
	return NULL;
}

void gh_views_publish(const struct gh_views *v, struct gpuhist_result *r)
{
	for (int i = 0; i < v->n; i++)
		v->ops[i]->publish(v->state[i], r);
}
