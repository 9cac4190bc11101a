/* tokens.c - one input's tokens counted exactly, as byte strings
 *
 * A unit is what the view counts: a word (a maximal run of bytes that are
 * not space, tab, CR or LF), a line (without its newline; a last line
 * without one counts too), or a line's Nth field (fields are runs of
 * bytes that are not space or tab, leading ones skipped, as awk's default;
 * or, with a separator byte, what lies between separators, as cut -d and
 * awk -F; a line with fewer fields counts the empty string, as awk's $N
 * does).
 *
 * The counts are open-addressing tables keyed by the bytes (a 64-bit hash,
 * then the bytes compared), the keys in an arena: SHARDS of them, each
 * with its own lock, a unit going to the shard its hash's top bits name.
 * Chunks are cut in batches: the units are found and hashed outside any
 * lock, grouped by shard, and each group added under its shard's lock, so
 * that threads cutting chunks of one input seldom wait for each other.
 * Each chunk's two ends are kept (a chunk with no boundary at all is kept
 * whole) until the chunks before it have come, then joined with them in
 * offset order, so that what is held is the chunks that came early and
 * the unit being joined, however long the input.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tokens.h"

/* Units found and hashed before a lock is taken. */
#define BATCH 1024
/* Tables of an input, each with its own lock (a power of two). */
#define SHARD_BITS 6
#define SHARDS (1 << SHARD_BITS)

struct entry {
	uint64_t hash;
	uint64_t count;                 /* 0: the slot is free */
	uint64_t at, len;               /* the key, in the arena */
};

/* What a chunk leaves at its ends. */
struct chunk_ends {
	uint64_t offset, len;
	bool boundless;                 /* no boundary: all of it in `lead` */
	unsigned char *lead, *trail;    /* before the first boundary, after
					 * the last one */
	uint64_t lead_len, trail_len;
};

/* One table of counts. */
struct shard {
	pthread_mutex_t lock;
	struct entry *slot;             /* NULL until its first unit */
	uint64_t cap, used, total;
	unsigned char *arena;
	uint64_t arena_len, arena_cap;
};

struct gh_tokens {
	int view;                       /* GPUHIST_TOKENS_* */
	int field;                      /* GPUHIST_TOKENS_FIELD: 1, 2, ... */
	int separator;                  /* its byte, or -1: runs of blanks */
	struct shard shard[SHARDS];
	pthread_mutex_t lock;           /* the ends, and `failed` */
	struct chunk_ends *ends;        /* come before their turn */
	uint64_t n_ends, cap_ends;
	uint64_t joined_at;             /* the input's bytes joined so far */
	unsigned char *carry;           /* the unit being joined */
	uint64_t carry_len, carry_cap;
	bool failed;                    /* out of memory while cutting */
	/* the result */
	struct gpuhist_token *listed;   /* the result's, in no order */
	struct gpuhist_tokens result;
};

/* A unit found in a chunk, hashed. */
struct unit {
	const unsigned char *p;
	uint64_t len, hash;
};

static uint64_t hash_bytes(const unsigned char *p, uint64_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xc2b2ae3d27d4eb4full);

	while (n >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = 0;

		memcpy(&v, p, n);
		h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static bool is_word_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* ---- a table (called with its lock held) ---- */

static struct shard *shard_of(struct gh_tokens *t, uint64_t hash)
{
	return &t->shard[hash >> (64 - SHARD_BITS)];
}

static int grow_table(struct shard *t)
{
	uint64_t cap = t->cap ? 2 * t->cap : 256;
	struct entry *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (uint64_t i = 0; i < t->cap; i++) {
		const struct entry *e = &t->slot[i];
		uint64_t k = e->hash & (cap - 1);

		if (!e->count)
			continue;
		while (slot[k].count)
			k = (k + 1) & (cap - 1);
		slot[k] = *e;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

/* Adds n to the unit's count; 0, or -1 when out of memory. */
static int add(struct shard *t, const unsigned char *p, uint64_t len,
	       uint64_t hash, uint64_t n)
{
	if ((t->used + 1) * 10 > t->cap * 7 && grow_table(t))
		return -1;
	uint64_t k = hash & (t->cap - 1);

	for (;; k = (k + 1) & (t->cap - 1)) {
		struct entry *e = &t->slot[k];

		if (!e->count)
			break;
		if (e->hash == hash && e->len == len &&
		    (!len || !memcmp(t->arena + e->at, p, len))) {
			e->count += n;
			t->total += n;
			return 0;
		}
	}
	if (!t->arena || t->arena_len + len > t->arena_cap) {
		uint64_t cap = t->arena_cap ? 2 * t->arena_cap : 4096;

		while (cap < t->arena_len + len)
			cap *= 2;
		unsigned char *a = realloc(t->arena, cap);

		if (!a)
			return -1;
		t->arena = a;
		t->arena_cap = cap;
	}
	if (len)
		memcpy(t->arena + t->arena_len, p, len);
	t->slot[k] = (struct entry){ hash, n, t->arena_len, len };
	t->arena_len += len;
	t->used++;
	t->total += n;
	return 0;
}

/* ---- units ---- */

/* The unit a whole line makes: itself, or its field. */
static void line_unit(const struct gh_tokens *t, const unsigned char *p,
		      uint64_t len, struct unit *u)
{
	u->p = p;
	u->len = len;
	if (t->view != GPUHIST_TOKENS_FIELD)
		return;
	const unsigned char *end = p + len, *q = p;
	int k = 1;

	if (t->separator < 0) {
		for (;;) {
			while (q < end && is_blank(*q))
				q++;
			const unsigned char *from = q;

			while (q < end && !is_blank(*q))
				q++;
			if (q == from)
				break;          /* no more fields */
			if (k++ == t->field) {
				u->p = from;
				u->len = (uint64_t)(q - from);
				return;
			}
		}
	} else {
		for (;;) {
			const unsigned char *s = memchr(q, t->separator,
							(size_t)(end - q));
			const unsigned char *to = s ? s : end;

			if (k++ == t->field) {
				u->p = q;
				u->len = (uint64_t)(to - q);
				return;
			}
			if (!s)
				break;
			q = s + 1;
		}
	}
	u->p = p;
	u->len = 0;                     /* no such field: "" */
}

/* Adds the batch to the tables, a shard's units under its lock at once;
 * 0 or -1. */
static int flush(struct gh_tokens *t, struct unit *batch, int n)
{
	struct unit by_shard[BATCH];
	int start[SHARDS + 1] = { 0 }, ret = 0;

	for (int i = 0; i < n; i++) {
		batch[i].hash = hash_bytes(batch[i].p, batch[i].len);
		start[(batch[i].hash >> (64 - SHARD_BITS)) + 1]++;
	}
	for (int k = 0; k < SHARDS; k++)
		start[k + 1] += start[k];
	int at[SHARDS];

	memcpy(at, start, sizeof(at));
	for (int i = 0; i < n; i++)
		by_shard[at[batch[i].hash >> (64 - SHARD_BITS)]++] = batch[i];
	for (int k = 0; k < SHARDS && !ret; k++) {
		struct shard *sh = &t->shard[k];

		if (start[k] == start[k + 1])
			continue;
		pthread_mutex_lock(&sh->lock);
		for (int i = start[k]; i < start[k + 1] && !ret; i++)
			ret = add(sh, by_shard[i].p, by_shard[i].len,
				  by_shard[i].hash, 1);
		pthread_mutex_unlock(&sh->lock);
	}
	return ret;
}

/* Counts the units wholly inside [p, end), which begins just after a
 * boundary and ends with one. */
static int count_inside(struct gh_tokens *t, const unsigned char *p,
			const unsigned char *end)
{
	struct unit batch[BATCH];
	int n = 0;

	if (t->view == GPUHIST_TOKENS_WORDS) {
		while (p < end) {
			while (p < end && is_word_sep(*p))
				p++;
			const unsigned char *from = p;

			while (p < end && !is_word_sep(*p))
				p++;
			if (p == from)
				break;
			batch[n++] = (struct unit){ from, (uint64_t)(p - from), 0 };
			if (n == BATCH) {
				if (flush(t, batch, n))
					return -1;
				n = 0;
			}
		}
	} else {
		while (p < end) {
			const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));

			line_unit(t, p, (uint64_t)(nl - p), &batch[n++]);
			p = nl + 1;
			if (n == BATCH) {
				if (flush(t, batch, n))
					return -1;
				n = 0;
			}
		}
	}
	return n ? flush(t, batch, n) : 0;
}

static bool is_boundary(const struct gh_tokens *t, unsigned char c)
{
	return t->view == GPUHIST_TOKENS_WORDS ? is_word_sep(c) : c == '\n';
}

static unsigned char *copy_of(const unsigned char *p, uint64_t len)
{
	unsigned char *c = malloc(len ? len : 1);

	if (c)
		memcpy(c, p, len);
	return c;
}

/* ---- joining the ends, in order ---- */

/* Counts a unit made of joined ends. */
static int count_joined(struct gh_tokens *t, const unsigned char *p,
			uint64_t len, bool last)
{
	struct unit u;
	uint64_t hash;

	if (!p)
		p = (const unsigned char *)"";  /* nothing was joined */
	if (t->view == GPUHIST_TOKENS_WORDS) {
		if (!len)
			return 0;
		u = (struct unit){ p, len, 0 };
	} else {
		if (last && !len)
			return 0;       /* the input ended with a newline */
		line_unit(t, p, len, &u);
	}
	hash = hash_bytes(u.p, u.len);
	struct shard *sh = shard_of(t, hash);

	pthread_mutex_lock(&sh->lock);
	int ret = add(sh, u.p, u.len, hash, 1);

	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* Appends len bytes to the unit being joined. */
static int append(unsigned char **buf, uint64_t *have, uint64_t *cap,
		  const unsigned char *p, uint64_t len)
{
	if (!len)
		return 0;
	if (*have + len > *cap) {
		uint64_t c = *cap ? 2 * *cap : 4096;

		while (c < *have + len)
			c *= 2;
		unsigned char *b = realloc(*buf, c);

		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *have, p, len);
	*have += len;
	return 0;
}

/* Joins, with t->lock held, every chunk whose turn has come; 0, or -1
 * when out of memory. */
static int join_ready(struct gh_tokens *t)
{
	for (;;) {
		uint64_t i = 0;

		while (i < t->n_ends && t->ends[i].offset != t->joined_at)
			i++;
		if (i == t->n_ends)
			return 0;
		struct chunk_ends e = t->ends[i];
		int ret;

		t->ends[i] = t->ends[--t->n_ends];
		t->joined_at += e.len;
		ret = append(&t->carry, &t->carry_len, &t->carry_cap, e.lead,
			     e.lead_len);
		if (!ret && !e.boundless) {
			ret = count_joined(t, t->carry, t->carry_len, false);
			t->carry_len = 0;
			if (!ret)
				ret = append(&t->carry, &t->carry_len,
					     &t->carry_cap, e.trail,
					     e.trail_len);
		}
		free(e.lead);
		free(e.trail);
		if (ret)
			return -1;
	}
}

int gh_tokens_cut(struct gh_tokens *t, const unsigned char *p, uint64_t len,
		  uint64_t offset)
{
	struct chunk_ends e = { .offset = offset, .len = len };
	uint64_t first = 0, last = len;

	if (!len)
		return 0;
	while (first < len && !is_boundary(t, p[first]))
		first++;
	if (first == len) {
		e.boundless = true;
		e.lead_len = len;
	} else {
		while (!is_boundary(t, p[last - 1]))
			last--;
		e.lead_len = first;
		e.trail_len = len - last;
		/* Words: the inside starts at the first separator; lines,
		 * after the first newline. */
		if (count_inside(t, p + first + (t->view != GPUHIST_TOKENS_WORDS),
				 p + last))
			goto nomem;
	}
	e.lead = copy_of(p, e.lead_len);
	e.trail = copy_of(p + len - e.trail_len, e.trail_len);
	if (!e.lead || !e.trail)
		goto nomem;
	pthread_mutex_lock(&t->lock);
	if (t->n_ends == t->cap_ends) {
		uint64_t cap = t->cap_ends ? 2 * t->cap_ends : 64;
		struct chunk_ends *ends = realloc(t->ends, cap * sizeof(*ends));

		if (!ends) {
			pthread_mutex_unlock(&t->lock);
			goto nomem;
		}
		t->ends = ends;
		t->cap_ends = cap;
	}
	t->ends[t->n_ends++] = e;
	if (join_ready(t))
		t->failed = true;
	pthread_mutex_unlock(&t->lock);
	return t->failed ? -1 : 0;
nomem:
	free(e.lead);
	free(e.trail);
	pthread_mutex_lock(&t->lock);
	t->failed = true;
	pthread_mutex_unlock(&t->lock);
	return -1;
}

int gh_tokens_end(struct gh_tokens *t, uint64_t bytes,
		  const struct gpuhist_tokens **out)
{
	/* Every chunk joined (none left waiting for a gap), to the end. */
	if (t->failed || join_ready(t) || t->n_ends ||
	    t->joined_at != bytes ||
	    count_joined(t, t->carry, t->carry_len, true))
		return -1;
	uint64_t used = 0, total = 0, n = 0;

	for (int k = 0; k < SHARDS; k++) {
		used += t->shard[k].used;
		total += t->shard[k].total;
	}
	free(t->listed);
	t->listed = malloc((used ? used : 1) * sizeof(*t->listed));
	if (!t->listed)
		return -1;
	/* In the tables' order: a reader sorts what it shows. */
	for (int k = 0; k < SHARDS; k++) {
		const struct shard *sh = &t->shard[k];

		for (uint64_t i = 0; i < sh->cap; i++)
			if (sh->slot[i].count)
				t->listed[n++] = (struct gpuhist_token){
					sh->arena + sh->slot[i].at,
					sh->slot[i].len, sh->slot[i].count };
	}
	t->result = (struct gpuhist_tokens){ .distinct = n, .total = total,
					     .token = t->listed };
	*out = &t->result;
	return 0;
}

/* ---- life ---- */

struct gh_tokens *gh_tokens_new(const struct gpuhist_options *opts)
{
	struct gh_tokens *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->view = opts->tokens;
	t->field = opts->field;
	t->separator = opts->separator;
	pthread_mutex_init(&t->lock, NULL);
	for (int k = 0; k < SHARDS; k++)
		pthread_mutex_init(&t->shard[k].lock, NULL);
	return t;
}

void gh_tokens_reset(struct gh_tokens *t)
{
	for (uint64_t i = 0; i < t->n_ends; i++) {
		free(t->ends[i].lead);
		free(t->ends[i].trail);
	}
	t->n_ends = 0;
	t->joined_at = 0;
	t->carry_len = 0;
	for (int k = 0; k < SHARDS; k++) {
		struct shard *sh = &t->shard[k];

		if (sh->slot)
			memset(sh->slot, 0, sh->cap * sizeof(*sh->slot));
		sh->used = 0;
		sh->total = 0;
		sh->arena_len = 0;
	}
	t->failed = false;
}

void gh_tokens_free(struct gh_tokens *t)
{
	if (!t)
		return;
	gh_tokens_reset(t);
	pthread_mutex_destroy(&t->lock);
	for (int k = 0; k < SHARDS; k++) {
		pthread_mutex_destroy(&t->shard[k].lock);
		free(t->shard[k].slot);
		free(t->shard[k].arena);
	}
	free(t->ends);
	free(t->carry);
	free(t->listed);
	free(t);
}
