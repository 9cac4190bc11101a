/* local.c - a chunk's units added up before the shared tables (local.h) */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "local.h"
#include "table.h"

/* Chunks smaller than this go direct: a table cleared for a few units
 * costs more than it saves. */
#define LOCAL_MIN_BYTES ((uint64_t)16 << 10)

#define BATCH ((int)(sizeof(((struct gh_local *)0)->batch) / \
		     sizeof(struct gh_unit)))

/* A full batch goes to the shared tables, but not to one another thread
 * holds (growing, mostly): those units stay in the batch for the next,
 * and the thread cuts more meanwhile, where it had waited (on 16 threads
 * the waits were a third of their time: bench/NOTES.md, "Session 19");
 * past half a batch of them it waits. */
static int put(struct gh_local *l, const unsigned char *p, uint64_t len,
	       uint64_t hash, uint64_t n)
{
	int left;

	l->batch[l->n++] = (struct gh_unit){ p, len, hash, n };
	if (l->n < BATCH)
		return 0;
	if (gh_counts_add_free(l->counts, l->batch, BATCH, &left)) {
		/* The counts have failed: nothing is kept for later (a flush
		 * at the end would put past the batch). */
		l->n = 0;
		return -1;
	}
	l->n = left;
	if (left <= BATCH / 2)
		return 0;
	l->n = 0;
	return gh_counts_add_hashed(l->counts, l->batch, left);
}

/* Sends the table's units on and empties it; direct from here on where
 * they hardly repeated. */
static int flush(struct gh_local *l)
{
	for (uint64_t k = 0; k < GH_LOCAL_SLOTS; k++) {
		struct gh_local_slot *s = &l->slot[k];

		if (s->n && put(l, s->p, s->len, s->hash, s->n))
			return -1;
	}
	if (l->used * 10 >= l->added * 9) {
		free(l->slot);
		l->slot = NULL;
	} else {
		memset(l->slot, 0, GH_LOCAL_SLOTS * sizeof(*l->slot));
	}
	l->used = 0;
	l->added = 0;
	return 0;
}

int gh_local_begin(struct gh_local *l, struct gh_counts *c, uint64_t bytes)
{
	l->counts = c;
	l->used = l->added = 0;
	l->n = 0;
	l->slot = NULL;
	if (bytes >= LOCAL_MIN_BYTES) {
		l->slot = calloc(GH_LOCAL_SLOTS, sizeof(*l->slot));
		if (!l->slot)
			return -1;
	}
	return 0;
}

int gh_local_add(struct gh_local *l, const unsigned char *p, uint64_t len)
{
	return gh_local_add_n(l, p, len, 1);
}

int gh_local_add_n(struct gh_local *l, const unsigned char *p, uint64_t len,
		   uint64_t n)
{
	uint64_t hash = gh_token_hash(p, len);

	if (!l->slot)
		return put(l, p, len, hash, n);
	l->added++;
	for (uint64_t k = hash & (GH_LOCAL_SLOTS - 1);;
	     k = (k + 1) & (GH_LOCAL_SLOTS - 1)) {
		struct gh_local_slot *s = &l->slot[k];

		if (!s->n) {
			*s = (struct gh_local_slot){ hash, p, len, n };
			if (++l->used * 4 >= GH_LOCAL_SLOTS * 3)
				return flush(l);
			return 0;
		}
		if (s->hash == hash && s->len == len &&
		    gh_same_bytes(s->p, p, len)) {
			s->n += n;
			return 0;
		}
	}
}

int gh_local_end(struct gh_local *l)
{
	int ret = l->slot ? flush(l) : 0;

	free(l->slot);
	l->slot = NULL;
	if (!ret && l->n)
		ret = gh_counts_add_hashed(l->counts, l->batch, l->n);
	l->n = 0;
	return ret;
}
