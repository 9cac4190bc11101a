/* seams.c - one input's chunks joined at their edges, for code points
 *
 * Each chunk of len bytes leaves records: a chunk of at least EDGE * 2
 * bytes its first EDGE bytes (the first REACH of them to count, the rest
 * context) and its last EDGE (the last REACH to count), the backend
 * counting the middle; a smaller chunk all its bytes, every one to count.
 * Records are taken in input order (a heap holds those that came early)
 * and decoded as one stream, keeping the last EDGE bytes from one record
 * to the next; between a chunk's first and last edge there is a gap, which
 * no position counted here needs to see across.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gh_utf8.h"
#include "seams.h"

#define REACH GH_UTF8_REACH
#define EDGE (2 * REACH)
_Static_assert(2 * EDGE <= GH_ENDS_BYTES, "a chunk's ends hold its edges");

struct record {
	uint64_t major, start;  /* where it lies */
	uint64_t next;          /* start of what follows it in the piece */
	bool last;              /* the piece ends with it */
	bool gap;               /* what follows is not next to it */
	unsigned char n, from, to;      /* its bytes; [from, to) to count */
	unsigned char bytes[2 * EDGE];
};

struct gh_seams {
	pthread_mutex_t lock;
	struct gpuhist_chars *out;
	int failed;                     /* out of memory once */
	struct record *heap;            /* records not yet in order */
	size_t n_heap, cap_heap;
	uint64_t major, start;          /* where the next record lies */
	unsigned char kept[EDGE];       /* the stream's last bytes */
	bool kept_count[EDGE];          /* of those, still to count */
	int n_kept;
};

static bool before(const struct record *a, const struct record *b)
{
	return a->major != b->major ? a->major < b->major : a->start < b->start;
}

static int heap_push(struct gh_seams *s, const struct record *r)
{
	size_t i;

	if (s->n_heap == s->cap_heap) {
		size_t cap = s->cap_heap ? 2 * s->cap_heap : 64;
		struct record *h = realloc(s->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		s->heap = h;
		s->cap_heap = cap;
	}
	for (i = s->n_heap++; i > 0 && before(r, &s->heap[(i - 1) / 2]);
	     i = (i - 1) / 2)
		s->heap[i] = s->heap[(i - 1) / 2];
	s->heap[i] = *r;
	return 0;
}

static struct record heap_pop(struct gh_seams *s)
{
	struct record top = s->heap[0], last = s->heap[--s->n_heap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->n_heap)
			break;
		if (c + 1 < s->n_heap && before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!before(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->n_heap)
		s->heap[i] = last;
	return top;
}

struct gh_seams *gh_seams_new(struct gpuhist_chars *out)
{
	struct gh_seams *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	s->out = out;
	return s;
}

void gh_seams_free(struct gh_seams *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	free(s->heap);
	free(s);
}

void gh_seams_reset(struct gh_seams *s)
{
	s->n_heap = 0;
	s->major = s->start = 0;
	s->n_kept = 0;
	s->failed = 0;
}

/*
 * Appends bytes[0..n) (those in [from, to) to count) to the stream kept so
 * far and counts every position whose context is all there, or all of
 * them when the stream stops after these bytes (a gap, or the end).
 */
static void feed(struct gh_seams *s, const unsigned char *bytes, int n,
		 int from, int to, bool stops)
{
	unsigned char buf[EDGE + 2 * EDGE];
	bool count[EDGE + 2 * EDGE];
	int len = s->n_kept;

	memcpy(buf, s->kept, (size_t)len);
	memcpy(count, s->kept_count, (size_t)len);
	for (int i = 0; i < n; i++) {
		buf[len] = bytes[i];
		count[len++] = i >= from && i < to;
	}
	for (int p = 0; p < len; p++) {
		if (!count[p] || (!stops && p + REACH >= len))
			continue;
		uint64_t q = gh_utf8_resume(buf, (uint64_t)len, (uint64_t)p);

		count[p] = false;
		if (q == (uint64_t)p &&
		    gpuhist_chars_add(s->out,
				      gh_utf8_next(buf, (uint64_t)len, &q), 1))
			s->failed = 1;
	}
	s->n_kept = stops ? 0 : len < EDGE ? len : EDGE;
	memcpy(s->kept, buf + len - s->n_kept, (size_t)s->n_kept);
	memcpy(s->kept_count, count + len - s->n_kept, (size_t)s->n_kept);
}

static void take(struct gh_seams *s, const struct record *r)
{
	feed(s, r->bytes, r->n, r->from, r->to, r->gap);
	s->major = r->last ? r->major + 1 : r->major;
	s->start = r->last ? 0 : r->next;
}

/* Takes r, and then every kept record that now comes next. */
static int arrive(struct gh_seams *s, const struct record *r)
{
	if (r->major != s->major || r->start != s->start)
		return heap_push(s, r);
	take(s, r);
	while (s->n_heap && s->heap[0].major == s->major &&
	       s->heap[0].start == s->start) {
		struct record next = heap_pop(s);

		take(s, &next);
	}
	return 0;
}

void gh_seams_before(struct gh_seams *s, const unsigned char *bytes, int n)
{
	pthread_mutex_lock(&s->lock);
	feed(s, bytes, n, 0, 0, false);
	pthread_mutex_unlock(&s->lock);
}

int gh_seams_cut(struct gh_seams *s, struct gh_chunk *c, uint64_t len,
		 uint64_t major, uint64_t start, bool last)
{
	return gh_seams_cut_ends(s, c, c->data, c->data + len, len, major,
				 start, last);
}

int gh_seams_cut_ends(struct gh_seams *s, struct gh_chunk *c,
		      const unsigned char *first, const unsigned char *end,
		      uint64_t len, uint64_t major, uint64_t start, bool last)
{
	struct record head = { .major = major, .start = start, .last = last };
	struct record tail;
	int ret = 0;

	if (len < 2 * EDGE) {
		head.n = (unsigned char)len;
		head.to = (unsigned char)len;
		head.next = start + len;
		memcpy(head.bytes, first, len);
		c->from = c->to = 0;
	} else {
		head.n = EDGE;
		head.to = REACH;
		head.last = false;
		head.gap = true;
		head.next = start + len - EDGE;
		memcpy(head.bytes, first, EDGE);
		tail = (struct record){ .major = major, .start = head.next,
					.next = start + len, .last = last,
					.n = EDGE, .from = REACH, .to = EDGE };
		memcpy(tail.bytes, end - EDGE, EDGE);
		c->from = REACH;
		c->to = len - REACH;
	}
	pthread_mutex_lock(&s->lock);
	if (arrive(s, &head) || (len >= 2 * EDGE && arrive(s, &tail)))
		ret = s->failed = -1;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int gh_seams_end_piece(struct gh_seams *s, uint64_t major, uint64_t start)
{
	struct record mark = { .major = major, .start = start, .next = start,
			       .last = true };
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	if (arrive(s, &mark))
		ret = s->failed = -1;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int gh_seams_end(struct gh_seams *s, const unsigned char *after, int n)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	/* Pieces whose last chunk was not marked, in order all the same. */
	while (s->n_heap) {
		struct record r = heap_pop(s);

		take(s, &r);
	}
	feed(s, after, n, 0, 0, true);
	ret = s->failed ? -1 : 0;
	pthread_mutex_unlock(&s->lock);
	return ret;
}
