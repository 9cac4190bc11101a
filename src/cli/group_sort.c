/* group_sort.c - tokens grouped by interval, sorted interval by interval
 * (group_sort.h)
 *
 * Each token's interval (at most 24 bytes: a label is 20, "(no time)" 9)
 * is packed once into three big-endian words, zero-padded, and so is the
 * head of what follows it, so that most comparisons are of integers, not
 * bytes: a minute's tokens of a day's log are millions of rows.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "group_sort.h"

#define GROUP_WORDS 3

struct group_key {
	uint64_t group[GROUP_WORDS];
	uint64_t count;
	uint64_t head[2];               /* the token after the tab */
	const struct gpuhist_token *t;
};

size_t gh_group_len(const struct gpuhist_token *t)
{
	/* A label's tab is at 20 ("(no time)": 9, and no label starts with
	 * '('), seen without a search. */
	if (t->len > 9 && !memcmp(t->bytes, "(no time)\t", 10))
		return 9;
	if (t->len > 20 && t->bytes[0] != '(' && t->bytes[20] == '\t' &&
	    t->bytes[19] == 'Z')
		return 20;

	const unsigned char *tab = t->len ? memchr(t->bytes, '\t', t->len)
					  : NULL;

	return tab ? (size_t)(tab - t->bytes) : t->len;
}

/* len bytes at p (at most 8 * words taken), big-endian, zero-padded. */
static void pack(const unsigned char *p, size_t len, uint64_t *w, int words)
{
	unsigned char b[8 * GROUP_WORDS] = { 0 };

	if (len > (size_t)(8 * words))
		len = (size_t)(8 * words);
	if (len)
		memcpy(b, p, len);
	for (int i = 0; i < words; i++) {
		w[i] = 0;
		for (int j = 0; j < 8; j++)
			w[i] = w[i] << 8 | b[8 * i + j];
	}
}

static void key_of(const struct gpuhist_token *t, struct group_key *k)
{
	size_t g = gh_group_len(t), rest = g < t->len ? g + 1 : g;

	pack(t->bytes, g, k->group, GROUP_WORDS);
	pack(t->bytes + rest, t->len - rest, k->head, 2);
	k->count = t->count;
	k->t = t;
}

static int by_group(const struct group_key *x, const struct group_key *y)
{
	for (int i = 0; i < GROUP_WORDS; i++)
		if (x->group[i] != y->group[i])
			return x->group[i] < y->group[i] ? -1 : 1;
	return 0;
}

static int by_group_only(const void *a, const void *b)
{
	return by_group(a, b);
}

static int by_group_count(const void *a, const void *b)
{
	const struct group_key *x = a, *y = b;
	int c = by_group(x, y);

	if (c)
		return c;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	for (int i = 0; i < 2; i++)
		if (x->head[i] != y->head[i])
			return x->head[i] < y->head[i] ? -1 : 1;
	/* The same interval and 16 bytes after it: the whole tokens. */
	size_t n = x->t->len < y->t->len ? x->t->len : y->t->len;
	int m = n ? memcmp(x->t->bytes, y->t->bytes, n) : 0;

	return m ? m : x->t->len < y->t->len ? -1 : x->t->len > y->t->len;
}

/* GH_GROUP_ONLY: the intervals (few: a day's minutes) found in a hash
 * table, sorted, then every token put after those of the intervals
 * before its own (a counting sort: no comparison of tokens). */
struct interval {
	uint64_t group[GROUP_WORDS];
	size_t count, at;               /* its tokens; where they start */
	bool used;
};

static uint64_t hash_of(const uint64_t *g)
{
	uint64_t h = g[0] * 0x9e3779b97f4a7c15ull ^ g[1];

	h = (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull ^ g[2];
	return h ^ h >> 32;
}

static int by_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	for (int i = 0; i < GROUP_WORDS; i++)
		if (x->group[i] != y->group[i])
			return x->group[i] < y->group[i] ? -1 : 1;
	return 0;
}

static int by_interval_p(const void *a, const void *b)
{
	return by_interval(*(struct interval *const *)a,
			   *(struct interval *const *)b);
}

/* Sorts by interval alone; -1 when out of memory. */
static int group_only(struct gpuhist_token *t, size_t n)
{
	size_t cap = 64, used = 0, fresh_from = 0;
	struct interval *table = calloc(cap, sizeof(*table));
	struct gpuhist_token *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	struct interval **of = malloc((n ? n : 1) * sizeof(*of));
	int ret = -1;

	if (!table || !sorted || !of)
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint64_t g[GROUP_WORDS];
		size_t h;

		pack(t[i].bytes, gh_group_len(&t[i]), g, GROUP_WORDS);
		if (2 * (used + 1) > cap) {
			/* Twice as big, every interval hashed again. */
			struct interval *bigger = calloc(2 * cap,
							 sizeof(*bigger));

			if (!bigger)
				goto out;
			for (size_t k = 0; k < cap; k++) {
				if (!table[k].used)
					continue;
				size_t j = hash_of(table[k].group) &
					   (2 * cap - 1);

				while (bigger[j].used)
					j = (j + 1) & (2 * cap - 1);
				bigger[j] = table[k];
			}
			free(table);
			table = bigger;
			cap *= 2;
			fresh_from = i; /* those before point at the old */
		}
		h = hash_of(g) & (cap - 1);
		while (table[h].used && memcmp(table[h].group, g, sizeof(g)))
			h = (h + 1) & (cap - 1);
		if (!table[h].used) {
			memcpy(table[h].group, g, sizeof(g));
			table[h].used = true;
			used++;
		}
		table[h].count++;
		of[i] = &table[h];      /* until the table grows */
	}
	/* The interval of each token before the table's last growth found
	 * again (the table grows while its first intervals come). */
	for (size_t i = 0; i < fresh_from; i++) {
		uint64_t g[GROUP_WORDS];
		size_t h;

		pack(t[i].bytes, gh_group_len(&t[i]), g, GROUP_WORDS);
		h = hash_of(g) & (cap - 1);
		while (memcmp(table[h].group, g, sizeof(g)))
			h = (h + 1) & (cap - 1);
		of[i] = &table[h];
	}
	/* The intervals in time order (sorted as a list of pointers, the
	 * table left in place), then where each one's tokens start. */
	struct interval **order = malloc((used ? used : 1) * sizeof(*order));

	if (!order)
		goto out;
	for (size_t i = 0, k = 0; i < cap; i++)
		if (table[i].used)
			order[k++] = &table[i];
	qsort(order, used, sizeof(*order), by_interval_p);
	for (size_t i = 0, at = 0; i < used; i++) {
		order[i]->at = at;
		at += order[i]->count;
	}
	free(order);
	for (size_t i = 0; i < n; i++)
		sorted[of[i]->at++] = t[i];
	memcpy(t, sorted, n * sizeof(*t));
	ret = 0;
out:
	free(table);
	free(sorted);
	free(of);
	return ret;
}

int gh_group_sort(struct gpuhist_token *t, size_t n,
		  enum gh_group_order order)
{
	if (order == GH_GROUP_ONLY)
		return group_only(t, n);

	struct group_key *keys = malloc((n ? n : 1) * sizeof(*keys));
	struct gpuhist_token *sorted = malloc((n ? n : 1) * sizeof(*sorted));

	if (!keys || !sorted) {
		free(keys);
		free(sorted);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		key_of(&t[i], &keys[i]);
	qsort(keys, n, sizeof(*keys),
	      order == GH_GROUP_ONLY ? by_group_only : by_group_count);
	for (size_t i = 0; i < n; i++)
		sorted[i] = *keys[i].t;
	memcpy(t, sorted, n * sizeof(*t));
	free(keys);
	free(sorted);
	return 0;
}
