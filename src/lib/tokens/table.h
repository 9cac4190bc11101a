/* table.h - one open-addressing table of token counts, keyed by the
 * tokens' bytes (a 64-bit hash, then the bytes compared), the keys in an
 * arena; no lock (its owner holds one) */
#ifndef GH_TOKEN_TABLE_H
#define GH_TOKEN_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct gh_token_entry {
	uint64_t hash;
	uint64_t count;                 /* 0: the slot is free */
	uint64_t at, len;               /* the key, in the arena */
};

struct gh_token_table {
	/* NULL until its first token; slot and cap are stored atomically
	 * (table.c's publish_slots), read by the table's lock holder */
	struct gh_token_entry *slot;
	uint64_t cap, used, total;
	unsigned char *arena;
	uint64_t arena_len, arena_cap;
};

/* The bytes at p, read little-endian: 8, 4 or 1 of them. */
static inline uint64_t gh_load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t gh_load32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The token's hash: 8 bytes a step, the last 1-7 zero-padded (read with
 * overlapping loads inside the token, never past it).  kernels/tokens.cu
 * computes the same, bit for bit. */
static inline uint64_t gh_token_hash(const unsigned char *p, uint64_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xc2b2ae3d27d4eb4full);

	for (; n >= 8; p += 8, n -= 8) {
		h = (h ^ gh_load64(p)) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (n) {
		uint64_t v;

		if (n >= 4)
			v = gh_load32(p) |
			    ((uint64_t)gh_load32(p + n - 4) >> (8 * (8 - n)))
				    << 32;
		else
			v = p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) |
			    (uint64_t)p[n - 1] << (8 * (n - 1));
		h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

/* Whether len bytes at a and b are the same: short keys compared with
 * overlapping loads inside them, long ones by memcmp. */
static inline bool gh_same_bytes(const unsigned char *a,
				 const unsigned char *b, uint64_t len)
{
	if (len >= 8 && len <= 16)
		return gh_load64(a) == gh_load64(b) &&
		       gh_load64(a + len - 8) == gh_load64(b + len - 8);
	if (len >= 4 && len < 8)
		return gh_load32(a) == gh_load32(b) &&
		       gh_load32(a + len - 4) == gh_load32(b + len - 4);
	if (len < 4)
		return !len || (a[0] == b[0] && a[len >> 1] == b[len >> 1] &&
				a[len - 1] == b[len - 1]);
	return !memcmp(a, b, len);
}

/* Adds n to the count of the len bytes at p (their hash given).  0; 1 when
 * the table holds something and would have to grow past limit bytes
 * (nothing is added then: the owner spills it and adds again); -1 when out
 * of memory; GH_TOKEN_OVERFLOW when the count or the table's total would
 * pass 2^64-1 (nothing is added).  limit 0: none. */
#define GH_TOKEN_OVERFLOW (-2)
int gh_token_table_add(struct gh_token_table *t, const unsigned char *p,
		       uint64_t len, uint64_t hash, uint64_t n,
		       uint64_t limit);

/* The entry of the len bytes at p (their hash given), or NULL where the
 * table holds none; it changes nothing. */
struct gh_token_entry *gh_token_table_find(const struct gh_token_table *t,
					   const unsigned char *p,
					   uint64_t len, uint64_t hash);

/* The memory it holds, in bytes. */
uint64_t gh_token_table_bytes(const struct gh_token_table *t);

/* Makes room at once for `units` more keys of `bytes` bytes in all, where
 * the table would then hold no more than limit bytes (0: no limit), so
 * that adding them grows nothing; 0, or -1 when out of memory. */
int gh_token_table_reserve(struct gh_token_table *t, uint64_t units,
			   uint64_t bytes, uint64_t limit);

/* Empties it, keeping its memory. */
void gh_token_table_clear(struct gh_token_table *t);

/* Empties it and lets its memory go. */
void gh_token_table_free(struct gh_token_table *t);

#endif
