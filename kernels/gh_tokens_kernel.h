/* gh_tokens_kernel.h - the C interface to the kernels that count tokens
 * (words, lines, or a field of each line) on the device, in a table that
 * lasts for a whole input
 *
 * One insert launch takes the inside of a chunk: data[from, to), which
 * begins just after a boundary (lines) or at one (words) and ends with
 * one, so that every unit in it is whole (the host keeps the chunk's two
 * ends).  Each unit is hashed with the host's hash (src/lib/tokens/
 * table.c) and counted in the table, keyed by hash, then bytes; a unit
 * met for the first time claims a slot and writes a record of itself
 * (hash, length, bytes) into the table's arena, so that the chunk's
 * buffer may be refilled at once.  The host keeps the table from filling
 * (each launch adds at most gh_tok_distinct_max(n) slots and
 * gh_tok_arena_bytes_max(n) arena bytes); when it would, or when the
 * input ends, a stamp launch writes each slot's count into its record and
 * empties the table, and the host reads the arena's records in order.
 */
#ifndef GH_TOKENS_KERNEL_H
#define GH_TOKENS_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What both the host and the kernels call. */
#ifdef __CUDACC__
#define GH_TOK_BOTH __host__ __device__
#else
#define GH_TOK_BOTH
#endif

/* The views, as gpuhist.h's GPUHIST_TOKENS_* (checked where both are
 * seen). */
#define GH_TOK_WORDS 1
#define GH_TOK_LINES 2
#define GH_TOK_FIELD 3

/* A slot of the table: a distinct unit, its record at keys[8 * at] (a
 * place in 8-byte words: arenas up to 32 GiB). */
struct gh_tok_entry {
	uint64_t hash;
	uint64_t count;
	uint32_t at, len;
	uint32_t state;                 /* in the table: 0 free, 1 being
					 * written, 2 ready */
	uint32_t unused;
};

/* A unit's record in the arena: this, then its len bytes, zero-filled to
 * a multiple of 8; count is written by the stamp launch. */
struct gh_tok_record {
	uint64_t hash;
	uint64_t count;
	uint32_t len;
	uint32_t unused;
};

/* A record's bytes for a unit of len bytes. */
GH_TOK_BOTH static inline uint64_t gh_tok_record_bytes(uint64_t len)
{
	return sizeof(struct gh_tok_record) + ((len + 7) & ~(uint64_t)7);
}

/* A table on the device: n_slots (a power of two) entries, an arena of
 * key_bytes (at most 2^35) for the records, and two counters, slots
 * claimed and arena bytes used, in used[0] and used[1]. */
struct gh_tok_table {
	struct gh_tok_entry *slots;
	uint64_t n_slots;
	unsigned char *keys;
	uint64_t key_bytes;
	unsigned long long *used;
};

/* The most distinct units a range of n bytes holds: each ends with a
 * boundary byte, so besides the empty one each takes 2 bytes or more; and
 * besides the 256 of one byte and the 65536 of two, 4 bytes or more.
 * Their bytes together are fewer than n: units do not overlap. */
static inline uint64_t gh_tok_distinct_max(uint64_t n)
{
	uint64_t shortest = 1 + n / 2, longer = 1 + 256 + 65536 + n / 4;

	return shortest < longer ? shortest : longer;
}

/* The most arena bytes a range of n bytes adds: a record a unit, each
 * at most 31 bytes more than the unit and its boundary byte. */
static inline uint64_t gh_tok_arena_bytes_max(uint64_t n)
{
	return n + 30 * gh_tok_distinct_max(n);
}

/* The fewest slots for a range of n bytes: a power of two, at least
 * twice the most distinct units (so at most half full). */
static inline uint64_t gh_tok_table_slots(uint64_t n)
{
	uint64_t slots = 1024;

	while (slots < 2 * gh_tok_distinct_max(n))
		slots *= 2;
	return slots;
}

/*
 * Counts the units of data[from, to) (device memory; to - from < 2^31) of
 * view (field: 1, 2, ...; separator: its byte, or -1 for runs of blanks)
 * into table t, whose counters the caller knows to leave room: used[0] +
 * gh_tok_distinct_max(to - from) <= n_slots / 2 and used[1] +
 * gh_tok_arena_bytes_max(to - from) <= key_bytes.  Queued on stream; the launch's error.
 */
cudaError_t gh_kernel_tokens_insert(const unsigned char *data, uint64_t from,
				    uint64_t to, int view, int field,
				    int separator,
				    const struct gh_tok_table *t,
				    cudaStream_t stream);

/*
 * Places each of from's slots (none being written) in to's (zeroed, more
 * of them): a table grown, its records where they were.  Queued on
 * stream; the launch's error.
 */
cudaError_t gh_kernel_tokens_rehash(const struct gh_tok_table *from,
				    const struct gh_tok_table *to,
				    cudaStream_t stream);

/* The arena's windows that a stamp may index: 2^GH_TOK_WINDOW_BITS bytes
 * each. */
#define GH_TOK_WINDOW_BITS 20

/*
 * Writes each of t's slots' counts into its record and leaves the slots
 * zero: the arena, used[1] bytes of it, is then a list of the distinct
 * units, record after record.  Its counters are the caller's to read and
 * zero.  With first and n (device memory, NULL for none; a word for each
 * window of the used bytes, set to all ones and zeros before), each
 * window's first record's place (in 8-byte words) and how many records
 * begin in it, so that threads may read the list from many places at
 * once.  Queued on stream; the launch's error.
 */
cudaError_t gh_kernel_tokens_stamp(const struct gh_tok_table *t,
				   uint32_t *first, uint32_t *n,
				   cudaStream_t stream);

/*
 * The commonest units picked on the device (an input that asks only for
 * its commonest, gpu_tokens.c): first the host's own units added, then
 * the counts' bins, then every unit at or above a bin's low bound.
 */

/* Adds n records (hash, count, len, bytes zero-filled to 8: the arena's
 * form) at recs + offs[i] (device memory), distinct units each, with
 * their counts, to t (room left for them: used[0] + n <= n_slots / 2,
 * used[1] + their bytes <= key_bytes).  Queued on stream; the launch's
 * error. */
cudaError_t gh_kernel_tokens_add(const struct gh_tok_table *t,
				 const unsigned char *recs,
				 const uint64_t *offs, uint32_t n,
				 cudaStream_t stream);

/* Adds the units of another table's n_slots slots (a copy of them, in
 * device memory, with keys a copy of its arena: its records where the
 * slots say; its slots' counts, not its records'), distinct units each,
 * to t (room left for them: used[0] + their number <= n_slots / 2,
 * used[1] + their records' bytes <= key_bytes): several devices' tables
 * added into one.  Queued on stream; the launch's error. */
cudaError_t gh_kernel_tokens_merge(const struct gh_tok_table *t,
				   const struct gh_tok_entry *slots,
				   uint64_t n_slots, const unsigned char *keys,
				   cudaStream_t stream);

/* A count's bin: below 64 its own; above, 32 bins each power of two
 * (the leading bit and the next five).  Bins rise with counts. */
#define GH_TOK_BINS 1920
GH_TOK_BOTH static inline uint32_t gh_tok_bin(uint64_t count)
{
	uint32_t bits;

	if (count < 64)
		return (uint32_t)count;
#ifdef __CUDA_ARCH__
	bits = 64 - (uint32_t)__clzll((long long)count);
#else
	bits = 64 - (uint32_t)__builtin_clzll(count);
#endif
	return 64 + (bits - 7) * 32 + (uint32_t)((count >> (bits - 6)) & 31);
}

/* The lowest count of bin b. */
GH_TOK_BOTH static inline uint64_t gh_tok_bin_low(uint32_t b)
{
	if (b < 64)
		return b;
	return (uint64_t)(32 + (b - 64) % 32) << (1 + (b - 64) / 32);
}

/* For each bin, the ready slots of t whose count falls in it (units[b])
 * and their records' bytes (bytes[b]); and every count's sum (*total).
 * The three zeroed first, by the caller.  Queued on stream; the launch's
 * error. */
cudaError_t gh_kernel_tokens_bins(const struct gh_tok_table *t,
				  unsigned long long *units,
				  unsigned long long *bytes,
				  unsigned long long *total,
				  cudaStream_t stream);

/* Among the units of one count (ties at the top's bound), those whose
 * first depth bytes, zero-filled past the unit's end, are at most b's (or
 * equal to them): bytes compared in order, as the rows are sorted. */
#define GH_TOK_TIE_BYTES 64
struct gh_tok_ties {
	uint64_t count;                 /* 0: no ties taken */
	uint32_t depth;
	unsigned char b[GH_TOK_TIE_BYTES];
};

/* Writes the record of each ready slot of t whose count is low or more,
 * or is ties.count with its first ties.depth bytes at most ties.b's, its
 * count in it, into out at a place taken from *used (zeroed by the
 * caller; out as large as the bins said, or NULL to add up the bytes
 * alone).  Queued on stream; the launch's error. */
cudaError_t gh_kernel_tokens_pick(const struct gh_tok_table *t, uint64_t low,
				  const struct gh_tok_ties *ties,
				  unsigned char *out,
				  unsigned long long *used,
				  cudaStream_t stream);

/* The ties' next 8 bytes: for each ready slot of t whose count is
 * ties.count and whose first ties.depth bytes equal ties.b's, its bytes
 * [depth, depth + 8) zero-filled past its end, as a big-endian number,
 * written to heads[cap] at a place taken from *n (zeroed by the caller;
 * *n may pass cap, the heads past it unwritten).  Queued on stream; the
 * launch's error. */
cudaError_t gh_kernel_tokens_heads(const struct gh_tok_table *t,
				   const struct gh_tok_ties *ties,
				   uint64_t *heads, uint64_t cap,
				   unsigned long long *n,
				   cudaStream_t stream);

/* Of the n heads whose bits above shift + 8 are prefix's, how many have
 * each value of bits [shift, shift + 8): hist[256], zeroed by the
 * caller.  Queued on stream; the launch's error. */
cudaError_t gh_kernel_tokens_digits(const uint64_t *heads, uint64_t n,
				    unsigned shift, uint64_t prefix,
				    unsigned long long *hist,
				    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
