/* adopted.c - an input's distinct tokens counted elsewhere, listed into
 * its counts' result (adopted.h)
 *
 * The records are read window by window on several threads, each writing
 * its own run of places.  Where the host's tables hold anything, a filter
 * of their hashes (a bit each) sends only the few records that may be
 * there to a probe; a token found there is counted there.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adopted.h"
#include "bigmem.h"
#include "run_each.h"

#define TABLES_MAX GH_ADOPTED_TABLES_MAX
/* Records from which they are listed on several threads, and the most. */
#define PARALLEL ((uint64_t)1 << 16)
#define THREADS 16

/* The filter's bit of a hash: bits the tables' choice and slots use
 * least (the top 6 name the table, the low ones the slot). */
static inline uint64_t filter_bit(uint64_t hash, uint64_t mask)
{
	return (hash >> 20) & mask;
}

struct filter {
	uint64_t *bits;                 /* NULL: the tables are empty */
	uint64_t mask;
};

static bool filter_new(struct filter *f, struct gh_token_table **tables,
		       int n_tables)
{
	uint64_t used = 0, size = (uint64_t)1 << 12;

	f->bits = NULL;
	for (int k = 0; k < n_tables; k++)
		used += tables[k]->used;
	if (!used)
		return true;
	while (size < 16 * used && size < (uint64_t)1 << 34)
		size *= 2;
	f->mask = size - 1;
	f->bits = calloc(size / 64, sizeof(uint64_t));
	if (!f->bits)
		return false;
	for (int k = 0; k < n_tables; k++) {
		const struct gh_token_table *t = tables[k];

		for (uint64_t i = 0; t->used && i < t->cap; i++)
			if (t->slot[i].count) {
				uint64_t b = filter_bit(t->slot[i].hash,
							f->mask);

				f->bits[b >> 6] |= (uint64_t)1 << (b & 63);
			}
	}
	return true;
}

static inline bool filter_has(const struct filter *f, uint64_t hash)
{
	uint64_t b = filter_bit(hash, f->mask);

	return f->bits && (f->bits[b >> 6] >> (b & 63) & 1);
}

/* A count found to belong to a host table's entry, added after the
 * threads are done (other threads read the entries as they probe). */
struct move {
	struct gh_token_entry *e;
	uint64_t n;
	unsigned k;             /* its table */
};

/* One thread's windows [from, to), listed from to[at] on. */
struct lister {
	struct gh_adopted *a;
	struct gh_token_table **tables;
	int table_bits;
	const struct filter *f;
	struct gpuhist_token *to;
	uint64_t from, to_w, at;
	uint64_t total;                 /* counts listed */
	struct move *move;              /* one a hole */
	uint64_t *hole, n_holes, cap_holes;     /* places left, ascending */
	enum gh_adopted_fault fault;
};

/* Leaves a hole at `at`, with the move that made it (e NULL: none). */
static bool add_hole(struct lister *l, uint64_t at, struct move m)
{
	if (l->n_holes == l->cap_holes) {
		uint64_t cap = l->cap_holes ? 2 * l->cap_holes : 256;
		uint64_t *h = realloc(l->hole, cap * sizeof(*h));
		struct move *mv = h ? realloc(l->move, cap * sizeof(*mv)) : NULL;

		if (h)
			l->hole = h;
		if (!mv)
			return false;
		l->move = mv;
		l->cap_holes = cap;
	}
	l->move[l->n_holes] = m;
	l->hole[l->n_holes++] = at;
	return true;
}

/* The host table's entry of record r's token, where one holds it. */
static struct gh_token_entry *entry_of(struct lister *l,
				       const struct gh_adopted_record *r,
				       const unsigned char *key)
{
	unsigned k = (unsigned)(r->hash >> (64 - l->table_bits));

	if (!filter_has(l->f, r->hash))
		return NULL;
	return gh_token_table_find(l->tables[k], key, r->len, r->hash);
}

static void *list_windows(void *arg)
{
	struct lister *l = arg;
	struct gh_adopted *a = l->a;
	uint64_t at = l->at;

	for (uint64_t w = l->from; w < l->to_w && !l->fault; w++) {
		uint64_t end = (w + 1) << GH_ADOPTED_WINDOW_BITS;
		uint64_t off = (uint64_t)a->first[w] << 3, seen = 0;

		if (a->first[w] == UINT32_MAX) {
			if (a->n[w])
				l->fault = GH_ADOPTED_TORN;
			continue;
		}
		if (end > a->bytes)
			end = a->bytes;
		while (off < end && !l->fault) {
			struct gh_adopted_record *r = (void *)(a->data + off);
			const unsigned char *key = (const void *)(r + 1);
			uint64_t size;

			if (a->bytes - off < sizeof(*r) ||
			    (size = gh_adopted_record_bytes(r->len)) >
			    a->bytes - off || seen == a->n[w]) {
				l->fault = GH_ADOPTED_TORN;
				break;
			}
			struct gh_token_entry *e = r->count
						   ? entry_of(l, r, key) : NULL;

			if (!r->count || e) {
				struct move m = { e, r->count,
					(unsigned)(r->hash >>
						   (64 - l->table_bits)) };

				l->to[at] = (struct gpuhist_token){ NULL, 0, 0 };
				if (!add_hole(l, at, m))
					l->fault = GH_ADOPTED_MEMORY;
				r->count = 0;
			} else if (l->total > UINT64_MAX - r->count) {
				l->fault = GH_ADOPTED_OVERFLOW;
			} else {
				l->to[at] = (struct gpuhist_token){ key, r->len,
								    r->count };
				l->total += r->count;
			}
			at++;
			off += size;
			seen++;
		}
		if (!l->fault && seen != a->n[w])
			l->fault = GH_ADOPTED_TORN;
	}
	return NULL;
}

enum gh_adopted_fault gh_adopted_list(struct gh_adopted *a,
				      struct gh_token_table **tables,
				      int table_bits,
				      struct gpuhist_token *to,
				      uint64_t *total, uint64_t **holes,
				      uint64_t *n_holes)
{
	struct lister l[THREADS];
	struct filter f;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int n = a->distinct < PARALLEL ? 1 : cores > THREADS ? THREADS
		: cores > 1 ? (int)cores : 1;
	enum gh_adopted_fault fault = GH_ADOPTED_OK;
	uint64_t w = 0, at = 0, sum = 0;
	int n_tables = 1 << table_bits;

	*total = 0;
	*holes = NULL;
	*n_holes = 0;
	if (a->windows != gh_adopted_windows(a->bytes))
		return GH_ADOPTED_TORN;
	for (uint64_t i = 0; i < a->windows; i++)
		sum += a->n[i];
	if (sum != a->distinct)
		return GH_ADOPTED_TORN;
	if (table_bits < 1 || n_tables > TABLES_MAX)
		return GH_ADOPTED_MEMORY;       /* never: the counts' 64 */
	if (!filter_new(&f, tables, n_tables))
		return GH_ADOPTED_MEMORY;
	/* Windows split so that each thread lists about distinct / n. */
	for (int j = 0; j < n; j++) {
		uint64_t want = a->distinct / n * (uint64_t)(j + 1), mine = at;

		l[j] = (struct lister){ .a = a, .tables = tables,
					.table_bits = table_bits, .f = &f,
					.to = to, .from = w, .to_w = w,
					.at = at };
		while (l[j].to_w < a->windows && (j == n - 1 || mine < want))
			mine += a->n[l[j].to_w++];
		w = l[j].to_w;
		at = mine;
	}
	gh_run_each(n, list_windows, l, sizeof(l[0]));
	for (int j = 0; j < n && !fault; j++) {
		fault = l[j].fault;
		if (!fault && *total > UINT64_MAX - l[j].total)
			fault = GH_ADOPTED_OVERFLOW;
		if (!fault)
			*total += l[j].total;
		/* The counts found in the host's tables, added there. */
		for (uint64_t i = 0; i < l[j].n_holes && !fault; i++) {
			const struct move *m = &l[j].move[i];

			if (!m->e)
				continue;
			if (m->e->count > UINT64_MAX - m->n ||
			    tables[m->k]->total > UINT64_MAX - m->n) {
				fault = GH_ADOPTED_OVERFLOW;
				break;
			}
			m->e->count += m->n;
			tables[m->k]->total += m->n;
		}
		*n_holes += l[j].n_holes;
	}
	/* The places left, ascending: each thread's after the one before. */
	if (!fault && *n_holes &&
	    !(*holes = malloc(*n_holes * sizeof(**holes))))
		fault = GH_ADOPTED_MEMORY;
	for (uint64_t j = 0, k = 0; !fault && j < (uint64_t)n; j++) {
		if (l[j].n_holes)
			memcpy(*holes + k, l[j].hole,
			       l[j].n_holes * sizeof(**holes));
		k += l[j].n_holes;
	}
	for (int j = 0; j < n; j++) {
		free(l[j].hole);
		free(l[j].move);
	}
	free(f.bits);
	return fault;
}

uint64_t gh_adopted_close_holes(struct gpuhist_token *tok, uint64_t n,
				const uint64_t *hole, uint64_t n_holes)
{
	uint64_t j = n_holes;

	for (uint64_t k = 0; k < j; k++) {
		/* The last place, if a hole, is dropped; then the last
		 * token fills the first hole left. */
		while (j > k && hole[j - 1] == n - 1) {
			j--;
			n--;
		}
		if (k >= j)
			break;
		tok[hole[k]] = tok[--n];
	}
	return n;
}

void gh_adopted_free(struct gh_adopted *a)
{
	gh_big_free(a->data, a->bytes);
	free(a->first);
	free(a->n);
	memset(a, 0, sizeof(*a));
}
