/* table.c - one open-addressing table of token counts (table.h) */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "table.h"

uint64_t gh_token_table_bytes(const struct gh_token_table *t)
{
	return t->cap * sizeof(*t->slot) + t->arena_cap;
}

static struct gh_token_entry *slots_new(uint64_t cap)
{
	/* Written at random: without huge pages, faulted in at once (one
	 * page at a time was most of the system time: bench/NOTES.md,
	 * "Tokens on the GPU"). */
	return gh_big_alloc(cap * sizeof(struct gh_token_entry), true);
}

static void slots_free(struct gh_token_entry *slot, uint64_t cap)
{
	gh_big_free(slot, cap * sizeof(*slot));
}

/* The slots and their count, stored whole: another thread, holding no
 * lock of this table, reads both to fetch a slot ahead (counts.c), and
 * may find either one old (a fetch of the wrong line, no more). */
static void publish_slots(struct gh_token_table *t,
			  struct gh_token_entry *slot, uint64_t cap)
{
	__atomic_store_n(&t->slot, slot, __ATOMIC_RELAXED);
	__atomic_store_n(&t->cap, cap, __ATOMIC_RELAXED);
}

/* Entries ahead whose new slots are fetched while one is placed. */
#define REHASH_AHEAD 16

/* e into the new slots, at the first free one from its hash's. */
static void place(struct gh_token_entry *slot, uint64_t cap,
		  const struct gh_token_entry *e)
{
	uint64_t k = e->hash & (cap - 1);

	while (slot[k].count)
		k = (k + 1) & (cap - 1);
	slot[k] = *e;
}

/* The old slots' entries, in their order (the new layout is the same as
 * one at a time), into the new: each lands at random, a cache miss, so
 * an entry's slot is fetched REHASH_AHEAD entries before it is placed,
 * and the growth, done under the table's lock, ends sooner. */
static void rehash(struct gh_token_entry *slot, uint64_t cap,
		   const struct gh_token_entry *old, uint64_t old_cap)
{
	const struct gh_token_entry *ring[REHASH_AHEAD];
	uint64_t n = 0;

	for (uint64_t i = 0; i < old_cap; i++) {
		const struct gh_token_entry *e = &old[i];

		if (!e->count)
			continue;
		__builtin_prefetch(&slot[e->hash & (cap - 1)], 1);
		if (n >= REHASH_AHEAD)
			place(slot, cap, ring[n % REHASH_AHEAD]);
		ring[n++ % REHASH_AHEAD] = e;
	}
	for (uint64_t j = n > REHASH_AHEAD ? n - REHASH_AHEAD : 0; j < n; j++)
		place(slot, cap, ring[j % REHASH_AHEAD]);
}

static int grow_slots(struct gh_token_table *t, uint64_t cap)
{
	struct gh_token_entry *slot = slots_new(cap);

	if (!slot)
		return -1;
	rehash(slot, cap, t->slot, t->cap);
	slots_free(t->slot, t->cap);
	publish_slots(t, slot, cap);
	return 0;
}

static int grow_arena(struct gh_token_table *t, uint64_t cap)
{
	unsigned char *a = gh_big_grow(t->arena, t->arena_cap, cap,
				       t->arena_len);

	if (!a)
		return -1;
	t->arena = a;
	t->arena_cap = cap;
	return 0;
}

int gh_token_table_add(struct gh_token_table *t, const unsigned char *p,
		       uint64_t len, uint64_t hash, uint64_t n,
		       uint64_t limit)
{
	uint64_t k = 0;

	if (t->cap) {
		for (k = hash & (t->cap - 1);; k = (k + 1) & (t->cap - 1)) {
			struct gh_token_entry *e = &t->slot[k];

			if (!e->count)
				break;
			if (e->hash == hash && e->len == len &&
			    gh_same_bytes(t->arena + e->at, p, len)) {
				if (e->count > UINT64_MAX - n ||
				    t->total > UINT64_MAX - n)
					return GH_TOKEN_OVERFLOW;
				e->count += n;
				t->total += n;
				return 0;
			}
		}
	}
	if (t->total > UINT64_MAX - n)
		return GH_TOKEN_OVERFLOW;
	/* A new key: room for it, in the slots and in the arena. */
	uint64_t cap = t->cap, arena_cap = t->arena_cap;

	if ((t->used + 1) * 10 > cap * 7)
		cap = cap ? 2 * cap : 16;     /* small inputs: 64 small tables */
	if (!t->arena || t->arena_len + len > arena_cap) {     /* never NULL
								 * with a key */
		arena_cap = arena_cap ? 2 * arena_cap : 4096;
		while (arena_cap < t->arena_len + len)
			arena_cap *= 2;
	}
	if (cap == t->cap && arena_cap == t->arena_cap) {
		/* k is the free slot the search ended at */
	} else {
		if (limit && t->used &&
		    cap * sizeof(*t->slot) + arena_cap > limit)
			return 1;
		if ((cap != t->cap && grow_slots(t, cap)) ||
		    (arena_cap != t->arena_cap && grow_arena(t, arena_cap)))
			return -1;
		for (k = hash & (t->cap - 1); t->slot[k].count;
		     k = (k + 1) & (t->cap - 1))
			;
	}
	if (len)
		memcpy(t->arena + t->arena_len, p, len);
	t->slot[k] = (struct gh_token_entry){ hash, n, t->arena_len, len };
	t->arena_len += len;
	t->used++;
	t->total += n;
	return 0;
}

struct gh_token_entry *gh_token_table_find(const struct gh_token_table *t,
					   const unsigned char *p,
					   uint64_t len, uint64_t hash)
{
	if (!t->cap)
		return NULL;
	for (uint64_t k = hash & (t->cap - 1); t->slot[k].count;
	     k = (k + 1) & (t->cap - 1)) {
		struct gh_token_entry *e = &t->slot[k];

		if (e->hash == hash && e->len == len &&
		    gh_same_bytes(t->arena + e->at, p, len))
			return e;
	}
	return NULL;
}

int gh_token_table_reserve(struct gh_token_table *t, uint64_t units,
			   uint64_t bytes, uint64_t limit)
{
	uint64_t cap = t->cap ? t->cap : 16;
	uint64_t arena_cap = t->arena_cap ? t->arena_cap : 4096;

	while ((t->used + units + 1) * 10 > cap * 7)
		cap *= 2;
	while (arena_cap < t->arena_len + bytes)
		arena_cap *= 2;
	if (limit && cap * sizeof(*t->slot) + arena_cap > limit)
		return 0;
	if ((cap != t->cap && grow_slots(t, cap)) ||
	    (arena_cap != t->arena_cap && grow_arena(t, arena_cap)))
		return -1;
	return 0;
}

void gh_token_table_clear(struct gh_token_table *t)
{
	if (t->slot)
		memset(t->slot, 0, t->cap * sizeof(*t->slot));
	t->used = 0;
	t->total = 0;
	t->arena_len = 0;
}

void gh_token_table_free(struct gh_token_table *t)
{
	slots_free(t->slot, t->cap);
	gh_big_free(t->arena, t->arena_cap);
	publish_slots(t, NULL, 0);
	t->used = t->total = 0;
	t->arena = NULL;
	t->arena_len = t->arena_cap = 0;
}
