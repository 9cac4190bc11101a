/* table.h - one open-addressing table of token counts, keyed by the
 * tokens' bytes (a 64-bit hash, then the bytes compared), the keys in an
 * arena; no lock (its owner holds one) */
#ifndef GH_TOKEN_TABLE_H
#define GH_TOKEN_TABLE_H

#include <stdint.h>

struct gh_token_entry {
	uint64_t hash;
	uint64_t count;                 /* 0: the slot is free */
	uint64_t at, len;               /* the key, in the arena */
};

struct gh_token_table {
	struct gh_token_entry *slot;    /* NULL until its first token */
	uint64_t cap, used, total;
	unsigned char *arena;
	uint64_t arena_len, arena_cap;
};

uint64_t gh_token_hash(const unsigned char *p, uint64_t len);

/* Adds n to the count of the len bytes at p (their hash given).  0; 1 when
 * the table holds something and would have to grow past limit bytes
 * (nothing is added then: the owner spills it and adds again); -1 when out
 * of memory.  limit 0: none. */
int gh_token_table_add(struct gh_token_table *t, const unsigned char *p,
		       uint64_t len, uint64_t hash, uint64_t n,
		       uint64_t limit);

/* The memory it holds, in bytes. */
uint64_t gh_token_table_bytes(const struct gh_token_table *t);

/* Empties it, keeping its memory. */
void gh_token_table_clear(struct gh_token_table *t);

/* Empties it and lets its memory go. */
void gh_token_table_free(struct gh_token_table *t);

#endif
