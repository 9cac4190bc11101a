/* sink.c - where a parallel decoder's chunks go: sink.h's calls, each a
 * few lines over the backend's interface and submit.c */
#include "config.h"

#include "backend/backend.h"
#include "sink.h"
#include "submit.h"

struct gh_chunk *gh_sink_acquire(const struct gh_sink *s, const char **why)
{
	struct gh_chunk *c = s->b->ops->acquire(s->b);

	if (!c)
		*why = s->b->error;
	return c;
}

uint64_t gh_sink_room(const struct gh_chunk *c)
{
	return c->backend->chunk_bytes;
}

const char *gh_sink_submit(const struct gh_sink *s, struct gh_chunk *c,
			   uint64_t len, struct gh_place at, bool bad)
{
	return gh_submit(bad ? NULL : s->views, s->b, s->input, c,
			 bad ? 0 : len, at);
}

void gh_sink_give_back(const struct gh_sink *s, struct gh_chunk *c)
{
	s->b->ops->submit(s->b, s->input, c, 0);
}

bool gh_sink_joins(const struct gh_sink *s)
{
	return s->views && s->views->n > 0;
}

bool gh_sink_by_offset(const struct gh_sink *s)
{
	return gh_views_by_offset(s->views);
}

bool gh_sink_host_bytes(const struct gh_sink *s)
{
	return gh_views_host_bytes(s->views);
}

const char *gh_sink_offsets_user(const struct gh_sink *s)
{
	return gh_views_offsets_user(s->views);
}

int gh_sink_end_piece(const struct gh_sink *s, uint64_t major, uint64_t len)
{
	return gh_views_end_piece(s->views, major, len);
}

struct gh_members *gh_sink_members_acquire(const struct gh_sink *s)
{
	return s->b->ops->members_acquire ? s->b->ops->members_acquire(s->b)
					  : NULL;
}

int gh_sink_members_decode(const struct gh_sink *s, struct gh_members *m,
			   const char **why)
{
	int ret = s->b->ops->members_decode(s->b, m);

	if (ret < 0)
		*why = s->b->error;
	return ret;
}

const char *gh_sink_submit_members(const struct gh_sink *s,
				   struct gh_members *m, struct gh_place at)
{
	return gh_submit_members(s->views, s->b, s->input, m, at);
}

void gh_sink_members_release(const struct gh_sink *s, struct gh_members *m)
{
	s->b->ops->members_release(s->b, m);
}
