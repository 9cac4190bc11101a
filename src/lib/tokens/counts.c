/* counts.c - exact counts of byte strings, held in memory up to a limit
 * and spilled past it (counts.h) */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adopted.h"
#include "bigmem.h"
#include "counts.h"
#include "run_each.h"
#include "spill.h"
#include "table.h"

/* Tables, each with its own lock (a power of two); a partition's next
 * split uses the hash's next SHARD_BITS bits, LEVELS times at most. */
#define SHARD_BITS GH_COUNTS_TABLE_BITS
#define SHARDS (1 << SHARD_BITS)
#define LEVELS (64 / SHARD_BITS)
/* The fewest bytes a partition is added up in (the fuzzer's is less, to
 * split partitions again). */
#ifndef GH_COUNTS_MIN_LIMIT
#define GH_COUNTS_MIN_LIMIT (64 * 1024)
#endif
#define MIN_LIMIT GH_COUNTS_MIN_LIMIT
/* The most bytes a table may hold and be cleared for the next input, not
 * let go. */
#define CLEAR_MOST ((uint64_t)1 << 20)
/* Distinct tokens from which the end lists them on several threads. */
#define LIST_PARALLEL ((uint64_t)1 << 18)

struct shard {
	pthread_mutex_t lock;
	struct gh_token_table table;
	struct gh_segments spilled;     /* its partition's records on disk */
};

/* A part of the result, on disk: distinct tokens, each once. */
struct part {
	struct gh_segments segs;
	uint64_t distinct, total, bytes;
};

struct gh_counts {
	uint64_t memory;                /* 0: no limit */
	char *dir;
	struct gh_spill *spill;         /* NULL until the first spill */
	struct shard shard[SHARDS];
	pthread_mutex_t lock;           /* spill, failed, overflow */
	bool failed;
	bool overflow;                  /* a count passed 2^64-1 */
	struct part *parts;
	uint64_t n_parts, cap_parts;
	/* distinct tokens counted elsewhere, listed at the end */
	struct gh_adopted adopted;
	const char *why;                /* a failure's reason, where not
					 * the spill's or memory */
	/* the tokens held in memory, and the result */
	struct gpuhist_token *listed;   /* in listed_bytes (bigmem.h) */
	size_t listed_bytes;
	uint64_t n_listed, listed_total;
	struct gpuhist_tokens result;
	bool picked_on_device;          /* result.listed: a device's pick */
};

struct gh_counts *gh_counts_of(const struct gpuhist_tokens *tk)
{
	return (struct gh_counts *)((char *)tk -
				    offsetof(struct gh_counts, result));
}

const char *gh_counts_picked_on(const struct gh_counts *c)
{
	if (!c->result.listed)
		return NULL;
	return c->picked_on_device ? "device" : "host";
}

const char *gh_counts_error(const struct gh_counts *c)
{
	if (c->overflow)
		return "a token's count, or all tokens' count, passes 2^64-1";
	if (c->why)
		return c->why;
	return c->spill ? gh_spill_error(c->spill) : "out of memory";
}

/* Notes that a count passed 2^64-1: the reason of the failure. */
static void note_overflow(struct gh_counts *c)
{
	pthread_mutex_lock(&c->lock);
	c->overflow = true;
	pthread_mutex_unlock(&c->lock);
}

/* gh_token_table_add, a count past 2^64-1 noted as this failure's
 * reason: 0, 1 (full) or -1. */
static int table_add(struct gh_counts *c, struct gh_token_table *t,
		     const unsigned char *p, uint64_t len, uint64_t hash,
		     uint64_t n, uint64_t limit)
{
	int ret = gh_token_table_add(t, p, len, hash, n, limit);

	if (ret == GH_TOKEN_OVERFLOW) {
		note_overflow(c);
		ret = -1;
	}
	return ret;
}

static int fail(struct gh_counts *c)
{
	pthread_mutex_lock(&c->lock);
	c->failed = true;
	pthread_mutex_unlock(&c->lock);
	return -1;
}

static struct gh_spill *spill_of(struct gh_counts *c)
{
	pthread_mutex_lock(&c->lock);
	if (!c->spill)
		c->spill = gh_spill_new(c->dir);
	pthread_mutex_unlock(&c->lock);
	return c->spill;
}

/* Writes a table's tokens to `to` and empties it; 0 or -1. */
static int write_table(struct gh_counts *c, struct gh_token_table *t,
		       struct gh_segments *to)
{
	struct gh_spill *s = spill_of(c);
	struct gh_spill_writer w;
	int ret = 0;

	if (!s || gh_spill_writer_init(&w, s, to))
		return -1;
	for (uint64_t i = 0; i < t->cap && !ret; i++) {
		const struct gh_token_entry *e = &t->slot[i];

		if (e->count)
			ret = gh_spill_put(&w, e->hash, e->count,
					   t->arena + e->at, e->len);
	}
	if (gh_spill_writer_end(&w))
		ret = -1;
	gh_token_table_clear(t);
	/* An arena a long unit grew past the limit goes, not to let the
	 * table hold that much again before its next spill. */
	if (c->memory && t->arena_cap > c->memory / SHARDS) {
		gh_big_free(t->arena, t->arena_cap);
		t->arena = NULL;
		t->arena_cap = 0;
	}
	return ret;
}

/* Writes one unit to `to` as a segment of its own; 0 or -1. */
static int write_unit(struct gh_counts *c, const struct gh_unit *u,
		      struct gh_segments *to)
{
	struct gh_spill *s = spill_of(c);
	struct gh_spill_writer w;
	int ret;

	if (!s || gh_spill_writer_init(&w, s, to))
		return -1;
	ret = gh_spill_put(&w, u->hash, u->n, u->p, u->len);
	if (gh_spill_writer_end(&w))
		ret = -1;
	return ret;
}

/* Splits a table's tokens among 64 partitions by the hash's bits at
 * `level` and empties it; 0 or -1. */
static int split_table(struct gh_counts *c, struct gh_token_table *t,
		       struct gh_segments *sub, int level)
{
	int shift = 64 - SHARD_BITS * (level + 1);
	uint64_t start[SHARDS + 1] = { 0 }, at[SHARDS];
	uint64_t *order = malloc((t->used ? t->used : 1) * sizeof(*order));
	struct gh_spill *s = spill_of(c);
	int ret = 0;

	if (!order || !s) {
		free(order);
		return -1;
	}
	for (uint64_t i = 0; i < t->cap; i++)
		if (t->slot[i].count)
			start[((t->slot[i].hash >> shift) & (SHARDS - 1)) + 1]++;
	for (int k = 0; k < SHARDS; k++)
		start[k + 1] += start[k];
	memcpy(at, start, sizeof(at));
	for (uint64_t i = 0; i < t->cap; i++)
		if (t->slot[i].count)
			order[at[(t->slot[i].hash >> shift) & (SHARDS - 1)]++] = i;
	for (int k = 0; k < SHARDS && !ret; k++) {
		struct gh_spill_writer w;

		if (start[k] == start[k + 1])
			continue;
		if (gh_spill_writer_init(&w, s, &sub[k])) {
			ret = -1;
			break;
		}
		for (uint64_t i = start[k]; i < start[k + 1] && !ret; i++) {
			const struct gh_token_entry *e = &t->slot[order[i]];

			ret = gh_spill_put(&w, e->hash, e->count,
					   t->arena + e->at, e->len);
		}
		if (gh_spill_writer_end(&w))
			ret = -1;
	}
	free(order);
	gh_token_table_clear(t);
	return ret;
}

int gh_counts_add(struct gh_counts *c, struct gh_unit *units, int n)
{
	for (int i = 0; i < n; i++)
		units[i].hash = gh_token_hash(units[i].p, units[i].len);
	return gh_counts_add_hashed(c, units, n);
}

/* Where a unit's probe in its table begins, fetched ahead (a stale
 * table's place, where another thread grows it, costs only the fetch). */
static void prefetch_slot(struct gh_counts *c, const struct gh_unit *u)
{
	struct gh_token_table *t =
		&c->shard[gh_counts_table_of(u->hash)].table;
	struct gh_token_entry *slot = __atomic_load_n(&t->slot,
						      __ATOMIC_RELAXED);
	uint64_t cap = __atomic_load_n(&t->cap, __ATOMIC_RELAXED);

	if (slot && cap)
		__builtin_prefetch(&slot[u->hash & (cap - 1)], 1);
}

/* Units ahead whose slots are fetched while one is added. */
#define AHEAD 8

/* Adds n units to table k, whose lock the caller holds, and lets it go;
 * 0 or -1.  after[0..n_after) are the batch's units after these (of any
 * table), whose slots are fetched ahead too. */
static int add_to_shard(struct gh_counts *c, int k, const struct gh_unit *u,
			int n, const struct gh_unit *after, int n_after)
{
	struct shard *sh = &c->shard[k];
	uint64_t limit = c->memory / SHARDS;
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		/* Most units that reach here are new or rare (local.c added
		 * up the rest): each probe is a cache miss, so the slots of
		 * the next few of the batch, whatever their table (a batch
		 * holds a few units a table), are fetched while this one is
		 * added. */
		if (i + AHEAD < n)
			prefetch_slot(c, &u[i + AHEAD]);
		else if (i + AHEAD - n < n_after)
			prefetch_slot(c, &after[i + AHEAD - n]);
		ret = table_add(c, &sh->table, u[i].p, u[i].len, u[i].hash,
				u[i].n, limit);
		if (ret == 1) {
			/* Full: to disk, then into the empty table; a unit
			 * longer than the table may hold (a line of 600 MB)
			 * straight to disk, not copied into memory again. */
			ret = write_table(c, &sh->table, &sh->spilled);
			if (!ret && u[i].len > limit)
				ret = write_unit(c, &u[i], &sh->spilled);
			else if (!ret)
				ret = table_add(c, &sh->table, u[i].p,
						u[i].len, u[i].hash, u[i].n, 0);
		}
	}
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* gh_counts_add_hashed, or, with left, gh_counts_add_free. */
static int add_hashed(struct gh_counts *c, struct gh_unit *units, int n,
		      int *left)
{
	/* Grouped by table: on the stack for the batches tokens.c and sum.c
	 * add (one unit, or up to 1024), not a malloc a call. */
	struct gh_unit stack[1024];
	struct gh_unit *by_shard = n <= 1024 ? stack
				   : malloc((size_t)n * sizeof(*by_shard));
	int start[SHARDS + 1] = { 0 }, at[SHARDS], ret = 0;
	int busy[SHARDS], n_busy = 0;

	if (!by_shard)
		return fail(c);
	for (int i = 0; i < n; i++)
		start[gh_counts_table_of(units[i].hash) + 1]++;
	for (int k = 0; k < SHARDS; k++)
		start[k + 1] += start[k];
	memcpy(at, start, sizeof(at));
	for (int i = 0; i < n; i++)
		by_shard[at[gh_counts_table_of(units[i].hash)]++] = units[i];
	/* A table another thread holds (growing, or written out) is left
	 * for after the others, so threads do not queue behind it. */
	for (int i = 0; i < AHEAD && i < n; i++)
		prefetch_slot(c, &by_shard[i]);
	for (int k = 0; k < SHARDS && !ret; k++) {
		if (start[k] == start[k + 1])
			continue;
		if (pthread_mutex_trylock(&c->shard[k].lock)) {
			busy[n_busy++] = k;
			continue;
		}
		ret = add_to_shard(c, k, by_shard + start[k],
				   start[k + 1] - start[k],
				   by_shard + start[k + 1], n - start[k + 1]);
	}
	if (left) {
		/* Left for the caller's next call: they come back to the
		 * front of its units. */
		*left = 0;
		for (int i = 0; i < n_busy; i++)
			for (int u = start[busy[i]]; u < start[busy[i] + 1];
			     u++)
				units[(*left)++] = by_shard[u];
		n_busy = 0;
	}
	for (int i = 0; i < n_busy && !ret; i++) {
		pthread_mutex_lock(&c->shard[busy[i]].lock);
		ret = add_to_shard(c, busy[i], by_shard + start[busy[i]],
				   start[busy[i] + 1] - start[busy[i]],
				   NULL, 0);
	}
	if (by_shard != stack)
		free(by_shard);
	return ret ? fail(c) : 0;
}

int gh_counts_add_hashed(struct gh_counts *c, struct gh_unit *units, int n)
{
	return add_hashed(c, units, n, NULL);
}

int gh_counts_add_free(struct gh_counts *c, struct gh_unit *units, int n,
		       int *left)
{
	return add_hashed(c, units, n, left);
}

int gh_counts_reserve(struct gh_counts *c, unsigned k, uint64_t units,
		      uint64_t bytes)
{
	struct shard *sh = &c->shard[k % SHARDS];
	int ret;

	pthread_mutex_lock(&sh->lock);
	ret = gh_token_table_reserve(&sh->table, units, bytes,
				     c->memory / SHARDS);
	pthread_mutex_unlock(&sh->lock);
	return ret ? fail(c) : 0;
}

/* Keeps a table as a part of the result on disk. */
static int keep_part(struct gh_counts *c, struct gh_token_table *t)
{
	struct part p = { .distinct = t->used, .total = t->total,
			  .bytes = t->arena_len };

	if (c->n_parts == c->cap_parts) {
		uint64_t cap = c->cap_parts ? 2 * c->cap_parts : 64;
		struct part *parts = realloc(c->parts, cap * sizeof(*parts));

		if (!parts)
			return -1;
		c->parts = parts;
		c->cap_parts = cap;
	}
	if (write_table(c, t, &p.segs)) {
		gh_segments_free(&p.segs);
		return -1;
	}
	c->parts[c->n_parts++] = p;
	return 0;
}

/* Adds up a partition's records, split again by the hash's bits at
 * `level` where they do not fit in limit bytes; 0 or -1. */
static int add_up(struct gh_counts *c, const struct gh_segments *from,
		  int level, uint64_t limit)
{
	struct gh_token_table t = { 0 };
	struct gh_segments sub[SHARDS];
	struct gh_spill_reader r;
	bool split = false;
	uint64_t hash, count, len;
	const unsigned char *p;
	int got, ret = 0;

	memset(sub, 0, sizeof(sub));
	gh_spill_reader_init(&r, c->spill, from);
	while (!ret && (got = gh_spill_next(&r, &hash, &count, &p, &len)) == 1) {
		ret = table_add(c, &t, p, len, hash, count,
				level < LEVELS ? limit : 0);
		if (ret == 1) {
			split = true;
			ret = split_table(c, &t, sub, level);
			if (!ret)
				ret = table_add(c, &t, p, len, hash, count, 0);
		}
	}
	gh_spill_reader_end(&r);
	if (!ret && got < 0)
		ret = -1;
	gh_spill_release(c->spill, from);       /* read for the last time */
	if (!ret)
		ret = split ? split_table(c, &t, sub, level) : keep_part(c, &t);
	gh_token_table_free(&t);
	for (int k = 0; k < SHARDS; k++) {
		if (!ret && sub[k].n)
			ret = add_up(c, &sub[k], level + 1, limit);
		gh_segments_free(&sub[k]);
	}
	return ret;
}

/* Listing the tables' tokens: shards [from, to) into list from index
 * at on. */
struct lister {
	struct gh_counts *c;
	struct gpuhist_token *list;
	int from, to;
	uint64_t at;
};

static void *list_shards(void *arg)
{
	const struct lister *l = arg;
	struct gpuhist_token *to = l->list + l->at;

	for (int k = l->from; k < l->to; k++) {
		const struct gh_token_table *t = &l->c->shard[k].table;

		for (uint64_t i = 0; t->used && i < t->cap; i++)
			if (t->slot[i].count)
				*to++ = (struct gpuhist_token){
					t->arena + t->slot[i].at,
					t->slot[i].len, t->slot[i].count };
	}
	return NULL;
}

/* Lists the `used` tokens the tables hold into list.  Millions of
 * distinct tokens (an id on every line) made this a serial second at the
 * end of a run, most of it faulting in the new list's pages: threads list
 * a share of the shards each, into their own part of it. */
/* The most threads the end runs over the tables. */
#define END_THREADS 16

/* How many threads the end runs over tables holding `used` tokens: one,
 * or every core up to END_THREADS where there are many. */
static int end_threads(uint64_t used)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	return used < LIST_PARALLEL ? 1 : cores > END_THREADS ? END_THREADS
	       : cores > 1 ? (int)cores : 1;
}

static void list_tables(struct gh_counts *c, struct gpuhist_token *list,
			uint64_t used)
{
	struct lister l[END_THREADS];
	int n = end_threads(used);
	uint64_t at = 0;
	int k = 0;

	for (int j = 0; j < n; j++) {
		/* Shards split so that each thread lists about used/n. */
		uint64_t want = used / n * (uint64_t)(j + 1), mine = at;

		l[j] = (struct lister){ c, list, k, k, at };
		while (l[j].to < SHARDS &&
		       (j == n - 1 || mine < want))
			mine += c->shard[l[j].to++].table.used;
		k = l[j].to;
		at = mine;
	}
	gh_run_each(n, list_shards, l, sizeof(l[0]));
}

/* ---- only the commonest listed ----
 *
 * A caller that reads only the top commonest of millions of distinct
 * tokens (the command's table of 20) had every one listed, 24 bytes
 * each written to new pages, and then passed over them all to pick 20.
 * Picked here instead: each table's top largest counts, the top-th
 * largest of those the bound, and only the tokens above the bound's
 * count listed, with each table's top first in byte order of those of
 * the bound's count (a token's order among equal counts is its bytes',
 * as the caller sorts them: gh_by_bytes).  Of the top commonest, fewer
 * than top are above the bound, and the rest are the first of the
 * bound's count in byte order, each among its table's first top.  Where
 * most tokens come once (an id or a time on every line), the bound is 1
 * and would have listed them all. */

/* The largest top that the end picks for (a heap of top counts a table). */
#define PICK_MOST 4096

struct pick {
	struct gh_counts *c;
	atomic_int next;                /* the next table to take */
	int pass;                       /* PICK_TOP, PICK_COUNT, PICK_LIST */
	uint64_t top, bound;
	uint64_t *best;                 /* table k's largest at k * top */
	uint64_t n_best[SHARDS];
	uint64_t n_listed[SHARDS];      /* tokens listed from table k */
	uint64_t at[SHARDS];            /* where table k's are listed */
	uint64_t *ties;                 /* table k's first of the bound's
					 * count, slots, at k * top: a heap,
					 * the last in byte order on top */
	uint64_t n_ties[SHARDS];
	struct gpuhist_token *list;
};

enum { PICK_TOP, PICK_COUNT, PICK_LIST };

/* Moves h[i] down to its place in a min-heap of n counts. */
static void heap_down(uint64_t *h, uint64_t n, uint64_t i)
{
	for (;;) {
		uint64_t least = i, l = 2 * i + 1, r = l + 1, v;

		if (l < n && h[l] < h[least])
			least = l;
		if (r < n && h[r] < h[least])
			least = r;
		if (least == i)
			return;
		v = h[i];
		h[i] = h[least];
		h[least] = v;
		i = least;
	}
}

/* A key's first 8 bytes as a number that orders as they do (zeros past
 * its end). */
static uint64_t head_of(const unsigned char *p, uint64_t len)
{
	uint64_t h = 0;

	if (len >= 8) {
		memcpy(&h, p, 8);
		return __builtin_bswap64(h);
	}
	for (uint64_t i = 0; i < 8; i++)
		h = h << 8 | (i < len ? p[i] : 0);
	return h;
}

/* The byte order of table t's slots a and b (gh_by_bytes'): < 0, 0, > 0.
 * Most ties differ in their first 8 bytes: compared as one number. */
static int slot_order(const struct gh_token_table *t, uint64_t a, uint64_t b)
{
	const struct gh_token_entry *x = &t->slot[a], *y = &t->slot[b];
	uint64_t hx = head_of(t->arena + x->at, x->len);
	uint64_t hy = head_of(t->arena + y->at, y->len);
	uint64_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	c = n > 8 ? memcmp(t->arena + x->at + 8, t->arena + y->at + 8, n - 8)
		  : 0;
	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

/* Moves h[i] down to its place in a heap of n slots of t, the last in
 * byte order on top. */
static void ties_down(const struct gh_token_table *t, uint64_t *h,
		      uint64_t n, uint64_t i)
{
	for (;;) {
		uint64_t last = i, l = 2 * i + 1, r = l + 1, v;

		if (l < n && slot_order(t, h[l], h[last]) > 0)
			last = l;
		if (r < n && slot_order(t, h[r], h[last]) > 0)
			last = r;
		if (last == i)
			return;
		v = h[i];
		h[i] = h[last];
		h[last] = v;
		i = last;
	}
}

/* Slot i of t, of the bound's count, into the heap h of the n first in
 * byte order so far (top at most). */
static void keep_tie(const struct gh_token_table *t, uint64_t *h,
		     uint64_t *n, uint64_t top, uint64_t i)
{
	if (*n < top) {
		uint64_t j = (*n)++;

		/* up to its place */
		while (j > 0 && slot_order(t, h[(j - 1) / 2], i) < 0) {
			h[j] = h[(j - 1) / 2];
			j = (j - 1) / 2;
		}
		h[j] = i;
	} else if (slot_order(t, i, h[0]) < 0) {
		h[0] = i;
		ties_down(t, h, *n, 0);
	}
}

/* Slots ahead whose bytes a tie's comparison fetches early. */
#define TIE_AHEAD 8

/* One pass of p over table k. */
static void pick_table(struct pick *p, int k)
{
	const struct gh_token_table *t = &p->c->shard[k].table;
	uint64_t *h = p->best + (uint64_t)k * p->top, n = 0;
	uint64_t *ties = p->ties + (uint64_t)k * p->top;
	struct gpuhist_token *to = p->pass == PICK_LIST ? p->list + p->at[k]
							: NULL;

	for (uint64_t i = 0; t->used && i < t->cap; i++) {
		const struct gh_token_entry *e = &t->slot[i];

		if (!e->count)
			continue;
		if (p->pass == PICK_TOP) {
			if (n < p->top) {
				h[n++] = e->count;
				if (n == p->top)
					for (uint64_t j = n / 2; j-- > 0;)
						heap_down(h, n, j);
			} else if (e->count > h[0]) {
				h[0] = e->count;
				heap_down(h, n, 0);
			}
		} else if (e->count > p->bound) {
			if (p->pass == PICK_LIST)
				*to++ = (struct gpuhist_token){
					t->arena + e->at, e->len, e->count };
			n++;
		} else if (e->count == p->bound && p->pass == PICK_COUNT) {
			/* The bytes of ties a few slots on, meanwhile. */
			if (i + TIE_AHEAD < t->cap)
				__builtin_prefetch(t->arena +
						   t->slot[i + TIE_AHEAD].at);
			keep_tie(t, ties, &p->n_ties[k], p->top, i);
		}
	}
	if (p->pass == PICK_TOP) {
		p->n_best[k] = n;
	} else if (p->pass == PICK_COUNT) {
		p->n_listed[k] = n + p->n_ties[k];
	} else {
		for (uint64_t j = 0; j < p->n_ties[k]; j++) {
			const struct gh_token_entry *e = &t->slot[ties[j]];

			*to++ = (struct gpuhist_token){
				t->arena + e->at, e->len, e->count };
		}
	}
}

static void *pick_tables(void *arg)
{
	struct pick *p = *(struct pick **)arg;
	int k;

	while ((k = atomic_fetch_add(&p->next, 1)) < SHARDS)
		pick_table(p, k);
	return NULL;
}

/* Runs a pass of p over every table, on several threads where there are
 * many tokens. */
static void pick_pass(struct pick *p, int pass, uint64_t used)
{
	struct pick *arg[END_THREADS];
	int n = end_threads(used);

	for (int i = 0; i < n; i++)
		arg[i] = p;
	p->pass = pass;
	atomic_store(&p->next, 0);
	gh_run_each(n, pick_tables, arg, sizeof(arg[0]));
}

static int by_count_down(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Lists into c->listed the tables' tokens whose count is above the
 * top-th largest, and each table's top first of that count in byte
 * order, where they are fewer than the `used` the tables hold:
 * how many (c->listed then theirs), or 0 where every token would be
 * (or memory ran out: then every token is listed, as without top). */
static uint64_t list_commonest(struct gh_counts *c, uint64_t top,
			       uint64_t used)
{
	struct pick *p;
	uint64_t n = 0, listed = 0;

	if (!top || top > PICK_MOST || used <= top)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->best = malloc(SHARDS * top * sizeof(*p->best))) ||
	    !(p->ties = malloc(SHARDS * top * sizeof(*p->ties)))) {
		if (p)
			free(p->best);
		free(p);
		return 0;
	}
	p->c = c;
	p->top = top;
	pick_pass(p, PICK_TOP, used);
	/* The bound: the top-th largest of every table's top largest. */
	for (int k = 0; k < SHARDS; k++) {
		memmove(p->best + n, p->best + (uint64_t)k * top,
			p->n_best[k] * sizeof(*p->best));
		n += p->n_best[k];
	}
	qsort(p->best, n, sizeof(*p->best), by_count_down);
	p->bound = p->best[top - 1];
	pick_pass(p, PICK_COUNT, used);
	for (int k = 0; k < SHARDS; k++) {
		p->at[k] = listed;
		listed += p->n_listed[k];
	}
	if (listed < used) {
		gh_big_free(c->listed, c->listed_bytes);
		c->listed_bytes = listed * sizeof(*c->listed);
		c->listed = gh_big_alloc(c->listed_bytes, false);
		if (c->listed) {
			p->list = c->listed;
			pick_pass(p, PICK_LIST, used);
		} else {
			c->listed_bytes = 0;
			listed = 0;
		}
	} else {
		listed = 0;
	}
	free(p->best);
	free(p->ties);
	free(p);
	return listed;
}

/* a += b, false where it would pass 2^64-1 (then the count overflowed). */
static bool add_total(struct gh_counts *c, uint64_t *a, uint64_t b)
{
	if (*a > UINT64_MAX - b) {
		note_overflow(c);
		return false;
	}
	*a += b;
	return true;
}

/* Whether a table has spilled. */
static bool spilled(struct gh_counts *c)
{
	for (int k = 0; k < SHARDS; k++)
		if (c->shard[k].spilled.n)
			return true;
	return false;
}

/* Adds the adopted tokens to the tables, as any others (which then spill
 * as they need), and lets them go: where the tables spilled, a part on
 * disk may hold an adopted token too, and parts must not meet.  0 or -1. */
static int add_adopted(struct gh_counts *c)
{
	struct gh_adopted *a = &c->adopted;
	struct gh_unit batch[1024];
	uint64_t off = 0;
	int m = 0, ret = 0;

	while (!ret && off < a->bytes) {
		struct gh_adopted_record *r = (void *)(a->data + off);

		if (a->bytes - off < sizeof(*r) ||
		    gh_adopted_record_bytes(r->len) > a->bytes - off) {
			c->why = "the device's tokens are not whole";
			return -1;
		}
		if (r->count)
			batch[m++] = (struct gh_unit){
				(const unsigned char *)(r + 1), r->len,
				r->hash, r->count };
		off += gh_adopted_record_bytes(r->len);
		if (m == 1024 || (m && off >= a->bytes)) {
			ret = gh_counts_add_hashed(c, batch, m);
			m = 0;
		}
	}
	gh_adopted_free(a);
	return ret;
}

/* Lists the adopted tokens into list[0, a->distinct) (each the tables
 * hold counted there: a hole); 0, or -1. */
static int list_adopted(struct gh_counts *c, struct gpuhist_token *list,
			uint64_t *total, uint64_t **holes, uint64_t *n_holes)
{
	struct gh_token_table *tables[SHARDS];

	for (int k = 0; k < SHARDS; k++)
		tables[k] = &c->shard[k].table;
	switch (gh_adopted_list(&c->adopted, tables, SHARD_BITS, list, total,
				holes, n_holes)) {
	case GH_ADOPTED_OK:
		return 0;
	case GH_ADOPTED_TORN:
		c->why = "the device's tokens are not whole";
		break;
	case GH_ADOPTED_OVERFLOW:
		note_overflow(c);
		break;
	case GH_ADOPTED_MEMORY:
		break;
	}
	return -1;
}

/* Lists every token, the `adopted` ones first (those the tables hold
 * are counted there before the tables are listed), into c->listed; 0 or
 * -1. */
static int list_every(struct gh_counts *c, uint64_t used, uint64_t adopted,
		      uint64_t *adopted_total)
{
	uint64_t *holes = NULL, n_holes = 0;

	gh_big_free(c->listed, c->listed_bytes);
	c->listed_bytes = (adopted + used ? adopted + used : 1) *
			  sizeof(*c->listed);
	c->listed = gh_big_alloc(c->listed_bytes, false);
	if (!c->listed)
		return -1;
	if (adopted &&
	    list_adopted(c, c->listed, adopted_total, &holes, &n_holes))
		return -1;
	list_tables(c, c->listed + adopted, used);
	c->n_listed = gh_adopted_close_holes(c->listed, adopted + used,
					     holes, n_holes);
	free(holes);
	return 0;
}

int gh_counts_end(struct gh_counts *c, uint64_t top,
		  const struct gpuhist_tokens **out)
{
	uint64_t used = 0, distinct = 0, total = 0, limit = c->memory / 2;
	uint64_t adopted = 0, adopted_total = 0, picked = 0;

	if (c->failed)
		return -1;
	if (c->adopted.data && spilled(c) && add_adopted(c))
		return fail(c);
	if (limit < MIN_LIMIT)
		limit = MIN_LIMIT;
	/* Each partition that spilled: the rest of it too, then added up. */
	for (int k = 0; k < SHARDS; k++) {
		struct shard *sh = &c->shard[k];

		if (!sh->spilled.n)
			continue;
		if (write_table(c, &sh->table, &sh->spilled))
			return fail(c);
		gh_token_table_free(&sh->table);
		if (add_up(c, &sh->spilled, 1, limit))
			return fail(c);
		gh_segments_free(&sh->spilled);
	}
	for (int k = 0; k < SHARDS; k++)
		used += c->shard[k].table.used;
	/* A device's pick holds the tables' tokens already: none may have
	 * come since. */
	if (c->adopted.commonest && (used || c->n_parts)) {
		c->why = "tokens were counted after the device picked the commonest (an internal error)";
		return fail(c);
	}
	if (c->adopted.data)
		adopted = c->adopted.distinct;
	if (!c->adopted.data && !c->n_parts)
		picked = list_commonest(c, top, used);
	if (picked)
		c->n_listed = picked;
	else if (list_every(c, used, adopted, &adopted_total))
		return fail(c);
	distinct = picked ? used : c->n_listed;
	c->listed_total = adopted_total;
	for (int k = 0; k < SHARDS; k++)
		if (!add_total(c, &c->listed_total, c->shard[k].table.total))
			return fail(c);
	total = c->listed_total;
	for (uint64_t i = 0; i < c->n_parts; i++) {
		distinct += c->parts[i].distinct;
		if (!add_total(c, &total, c->parts[i].total))
			return fail(c);
	}
	c->result = (struct gpuhist_tokens){
		.distinct = distinct, .total = total,
		.token = c->n_parts ? NULL : c->listed };
	if (picked)
		c->result.listed = picked;
	c->picked_on_device = c->adopted.commonest;
	if (c->adopted.commonest) {
		c->result.distinct = c->adopted.all_distinct;
		c->result.total = c->adopted.all_total;
		c->result.listed = c->n_listed;
	}
	*out = &c->result;
	return 0;
}

int gh_counts_held(struct gh_counts *c, uint64_t max_len,
		   unsigned char **recs, uint64_t **offs, uint64_t *n,
		   uint64_t *bytes)
{
	uint64_t units = 0, size = 0, at = 0, i = 0;

	*recs = NULL;
	*offs = NULL;
	*n = *bytes = 0;
	if (c->failed || c->n_parts || c->adopted.data || spilled(c))
		return 1;
	for (int k = 0; k < SHARDS; k++) {
		const struct gh_token_table *t = &c->shard[k].table;

		units += t->used;
		for (uint64_t s = 0; s < t->cap; s++) {
			if (!t->slot[s].count)
				continue;
			if (t->slot[s].len > max_len)
				return 1;       /* a device's records hold less */
			size += gh_adopted_record_bytes(t->slot[s].len);
		}
	}
	*recs = malloc(size ? size : 1);
	*offs = malloc((units ? units : 1) * sizeof(**offs));
	if (!*recs || !*offs) {
		free(*recs);
		free(*offs);
		*recs = NULL;
		*offs = NULL;
		return -1;
	}
	memset(*recs, 0, size ? size : 1);
	for (int k = 0; k < SHARDS; k++) {
		const struct gh_token_table *t = &c->shard[k].table;

		for (uint64_t s = 0; s < t->cap; s++) {
			const struct gh_token_entry *e = &t->slot[s];
			struct gh_adopted_record r = { e->hash, e->count,
						       (uint32_t)e->len, 0 };

			if (!e->count)
				continue;
			memcpy(*recs + at, &r, sizeof(r));
			if (e->len)
				memcpy(*recs + at + sizeof(r),
				       t->arena + e->at, e->len);
			(*offs)[i++] = at;
			at += gh_adopted_record_bytes(e->len);
		}
	}
	*n = i;
	*bytes = at;
	return 0;
}

void gh_counts_drop_held(struct gh_counts *c)
{
	for (int k = 0; k < SHARDS; k++)
		gh_token_table_free(&c->shard[k].table);
}

/* Within half the limit, with their place in the result's list. */
static bool room_to_adopt(const struct gh_counts *c, uint64_t bytes,
			  uint64_t distinct)
{
	return !c->memory ||
	       (bytes <= c->memory / 2 &&
		distinct <= (c->memory / 2 - bytes) /
			    sizeof(struct gpuhist_token));
}

int gh_counts_adopt(struct gh_counts *c, struct gh_adopted *a)
{
	int ret = 1;

	pthread_mutex_lock(&c->lock);
	if (!c->adopted.data && !c->failed &&
	    room_to_adopt(c, a->bytes, a->distinct)) {
		c->adopted = *a;
		memset(a, 0, sizeof(*a));
		ret = 0;
	}
	pthread_mutex_unlock(&c->lock);
	return ret;
}

bool gh_counts_may_adopt(struct gh_counts *c, uint64_t bytes,
			 uint64_t distinct)
{
	bool may;

	pthread_mutex_lock(&c->lock);
	may = !c->adopted.data && !c->failed &&
	      room_to_adopt(c, bytes, distinct);
	pthread_mutex_unlock(&c->lock);
	return may;
}

/* Reads a part back and hands it to fn: fn's return, or GH_COUNTS_UNREAD. */
static int load_part(struct gh_counts *c, const struct part *p,
		     int (*fn)(void *ctx, const struct gpuhist_tokens *part),
		     void *ctx)
{
	struct gpuhist_token *tok = malloc((p->distinct ? p->distinct : 1) *
					   sizeof(*tok));
	unsigned char *arena = malloc(p->bytes ? p->bytes : 1);
	struct gh_spill_reader r;
	uint64_t hash, count, len, n = 0, at = 0;
	const unsigned char *b;
	int got, ret;

	if (!tok || !arena) {
		free(tok);
		free(arena);
		return GH_COUNTS_UNREAD;
	}
	gh_spill_reader_init(&r, c->spill, &p->segs);
	while ((got = gh_spill_next(&r, &hash, &count, &b, &len)) == 1) {
		if (n == p->distinct || at + len > p->bytes) {
			got = -1;       /* not what was written */
			break;
		}
		if (len)
			memcpy(arena + at, b, len);
		tok[n++] = (struct gpuhist_token){ arena + at, len, count };
		at += len;
	}
	gh_spill_reader_end(&r);
	if (got < 0 || n != p->distinct) {
		ret = GH_COUNTS_UNREAD;
	} else {
		struct gpuhist_tokens part = { .distinct = n,
					       .total = p->total,
					       .token = tok };

		ret = fn(ctx, &part);
	}
	free(tok);
	free(arena);
	return ret;
}

int gh_counts_each(struct gh_counts *c,
		   int (*fn)(void *ctx, const struct gpuhist_tokens *part),
		   void *ctx)
{
	int ret = 0;

	/* Only the commonest were handed back: no part holds the rest. */
	if (c->result.listed) {
		c->why = "only the commonest tokens were kept (tokens_top)";
		return GH_COUNTS_UNREAD;
	}
	if (!c->n_parts)
		return fn(ctx, &c->result);
	if (c->n_listed) {
		struct gpuhist_tokens part = { .distinct = c->n_listed,
					       .total = c->listed_total,
					       .token = c->listed };

		ret = fn(ctx, &part);
	}
	for (uint64_t i = 0; i < c->n_parts && !ret; i++)
		ret = load_part(c, &c->parts[i], fn, ctx);
	return ret;
}

/* ---- life ---- */

struct gh_counts *gh_counts_new(uint64_t memory, const char *dir)
{
	struct gh_counts *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->memory = memory;
	if (dir && !(c->dir = strdup(dir))) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	for (int k = 0; k < SHARDS; k++)
		pthread_mutex_init(&c->shard[k].lock, NULL);
	return c;
}

void gh_counts_reset(struct gh_counts *c)
{
	for (int k = 0; k < SHARDS; k++) {
		struct gh_token_table *t = &c->shard[k].table;

		/* A large table goes rather than being cleared: the next
		 * input may need none of it, and clearing a GiB of slots at
		 * the end of a run (gh_tokens_free resets before it frees)
		 * was a quarter second on one thread (bench/NOTES.md,
		 * "Session 27"). */
		if (gh_token_table_bytes(t) > CLEAR_MOST)
			gh_token_table_free(t);
		else
			gh_token_table_clear(t);
		gh_segments_free(&c->shard[k].spilled);
	}
	for (uint64_t i = 0; i < c->n_parts; i++)
		gh_segments_free(&c->parts[i].segs);
	c->n_parts = 0;
	/* The result's tokens may lie in the adopted records: gone too. */
	gh_adopted_free(&c->adopted);
	c->n_listed = 0;
	c->result = (struct gpuhist_tokens){ 0 };
	c->why = NULL;
	/* A new file: the old one's space goes back at once. */
	gh_spill_free(c->spill);
	c->spill = NULL;
	c->failed = false;
}

void gh_counts_free(struct gh_counts *c)
{
	if (!c)
		return;
	/* The tables go first: the reset then has none to clear. */
	for (int k = 0; k < SHARDS; k++)
		gh_token_table_free(&c->shard[k].table);
	gh_counts_reset(c);
	pthread_mutex_destroy(&c->lock);
	for (int k = 0; k < SHARDS; k++)
		pthread_mutex_destroy(&c->shard[k].lock);
	free(c->parts);
	gh_big_free(c->listed, c->listed_bytes);
	free(c->dir);
	free(c);
}
