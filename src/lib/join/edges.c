/* edges.c - one input's chunks joined at their edges, for ent's statistics
 *
 * Records (a chunk's offset, length, first and last five bytes) are taken
 * in input order, a heap holding those that came early, and followed as
 * one stream that keeps only what crosses a join: the last byte so far
 * (times the next chunk's first: the pair at the join) and the bytes of
 * the group begun but not ended (at most five, completed from the next
 * chunk's first bytes).  A chunk shorter than a group may leave a group
 * open across several joins.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "edges.h"
#include "gh_stats.h"

#define KEEP (GH_PI_GROUP - 1)
_Static_assert(KEEP <= GH_ENDS_BYTES, "a chunk's ends hold its edges");

struct record {
	uint64_t offset, len;
	unsigned char head[KEEP], tail[KEEP];   /* the first and last bytes */
};

struct gh_edges {
	pthread_mutex_t lock;
	int failed;
	struct record *heap;            /* records not yet in order */
	size_t n_heap, cap_heap;
	uint64_t at;                    /* where the next record begins */
	unsigned char first, last;      /* the input's first byte, the last so far */
	unsigned char open[KEEP];       /* bytes of the group begun, at % 6 */
	uint64_t pairs, hits;
};

static int heap_push(struct gh_edges *e, const struct record *r)
{
	size_t i;

	if (e->n_heap == e->cap_heap) {
		size_t cap = e->cap_heap ? 2 * e->cap_heap : 64;
		struct record *h = realloc(e->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		e->heap = h;
		e->cap_heap = cap;
	}
	for (i = e->n_heap++; i > 0 && r->offset < e->heap[(i - 1) / 2].offset;
	     i = (i - 1) / 2)
		e->heap[i] = e->heap[(i - 1) / 2];
	e->heap[i] = *r;
	return 0;
}

static struct record heap_pop(struct gh_edges *e)
{
	struct record top = e->heap[0], last = e->heap[--e->n_heap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= e->n_heap)
			break;
		if (c + 1 < e->n_heap &&
		    e->heap[c + 1].offset < e->heap[c].offset)
			c++;
		if (e->heap[c].offset >= last.offset)
			break;
		e->heap[i] = e->heap[c];
		i = c;
	}
	if (e->n_heap)
		e->heap[i] = last;
	return top;
}

struct gh_edges *gh_edges_new(void)
{
	struct gh_edges *e = calloc(1, sizeof(*e));

	if (e)
		pthread_mutex_init(&e->lock, NULL);
	return e;
}

void gh_edges_free(struct gh_edges *e)
{
	if (!e)
		return;
	pthread_mutex_destroy(&e->lock);
	free(e->heap);
	free(e);
}

void gh_edges_reset(struct gh_edges *e)
{
	e->failed = 0;
	e->n_heap = 0;
	e->at = 0;
	e->pairs = e->hits = 0;
}

/* Follows the stream on by the record r, which begins at e->at. */
static void take(struct gh_edges *e, const struct record *r)
{
	unsigned kept = r->len < KEEP ? (unsigned)r->len : KEEP;
	unsigned begun = (unsigned)(e->at % GH_PI_GROUP);
	uint64_t end = e->at + r->len;

	if (e->at == 0)
		e->first = r->head[0];
	else
		e->pairs += (uint64_t)e->last * r->head[0];
	e->last = r->tail[kept - 1];
	if (begun) {
		unsigned need = GH_PI_GROUP - begun;
		unsigned char g[GH_PI_GROUP];

		if (r->len < need) {    /* the group stays open */
			memcpy(e->open + begun, r->head, (size_t)r->len);
			e->at = end;
			return;
		}
		memcpy(g, e->open, begun);
		memcpy(g + begun, r->head, need);
		e->hits += (uint64_t)gh_pi_hit(g);
	}
	/* The group the chunk leaves open began inside it (it is at most
	 * five bytes, so the tail holds it). */
	unsigned left = (unsigned)(end % GH_PI_GROUP);

	memcpy(e->open, r->tail + kept - left, left);
	e->at = end;
}

int gh_edges_cut(struct gh_edges *e, struct gh_chunk *c, uint64_t len,
		 uint64_t offset)
{
	return gh_edges_cut_ends(e, c, c->data, c->data + len, len, offset);
}

int gh_edges_cut_ends(struct gh_edges *e, struct gh_chunk *c,
		      const unsigned char *first, const unsigned char *end,
		      uint64_t len, uint64_t offset)
{
	struct record r = { .offset = offset, .len = len };
	unsigned kept = len < KEEP ? (unsigned)len : KEEP;
	int ret = 0;

	c->phase = (unsigned char)gh_pi_phase(offset);
	if (!len)
		return 0;
	memcpy(r.head, first, kept);
	memcpy(r.tail, end - kept, kept);
	pthread_mutex_lock(&e->lock);
	if (offset != e->at) {
		if (heap_push(e, &r))
			ret = e->failed = -1;
	} else {
		take(e, &r);
		while (e->n_heap && e->heap[0].offset == e->at) {
			struct record next = heap_pop(e);

			take(e, &next);
		}
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int gh_edges_end(struct gh_edges *e, uint64_t bytes,
		 struct gpuhist_stream *out)
{
	int ret;

	pthread_mutex_lock(&e->lock);
	ret = e->failed || e->n_heap || e->at != bytes ? -1 : 0;
	if (!ret) {
		if (bytes)      /* the last byte wraps round to the first */
			e->pairs += (uint64_t)e->last * e->first;
		out->pairs += e->pairs;
		out->hits += e->hits;
		out->groups = bytes / GH_PI_GROUP;
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}
