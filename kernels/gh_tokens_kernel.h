/* gh_tokens_kernel.h - the C interface to the kernels that count a chunk's
 * tokens (words, lines, or a field of each line) on the device
 *
 * One launch takes the inside of a chunk: data[from, to), which begins
 * just after a boundary (lines) or at one (words) and ends with one, so
 * that every unit in it is whole (the host keeps the chunk's two ends).
 * Each unit is hashed with the host's hash (src/lib/tokens/table.c) and
 * counted in a table of the chunk's distinct units, keyed by hash, then
 * bytes; the table is then packed into a list of (hash, place, length,
 * count), which the host adds to the input's counts by the bytes of its
 * own copy of the chunk.
 */
#ifndef GH_TOKENS_KERNEL_H
#define GH_TOKENS_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The views, as gpuhist.h's GPUHIST_TOKENS_* (checked where both are
 * seen). */
#define GH_TOK_WORDS 1
#define GH_TOK_LINES 2
#define GH_TOK_FIELD 3

/* One distinct unit of a chunk: its first byte at data[at]. */
struct gh_tok_entry {
	uint64_t hash;
	uint32_t at, len, count;
	uint32_t state;                 /* in the table: 0 free, 1 being
					 * written, 2 ready */
};

/* The most distinct units a range of n bytes holds: each ends with a
 * boundary byte, so besides the empty one each takes 2 bytes or more; and
 * besides the 256 of one byte and the 65536 of two, 4 bytes or more. */
static inline uint64_t gh_tok_distinct_max(uint64_t n)
{
	uint64_t shortest = 1 + n / 2, longer = 1 + 256 + 65536 + n / 4;

	return shortest < longer ? shortest : longer;
}

/* The table's slots for a range of n bytes: a power of two, at least
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
 * into table (gh_tok_table_slots(to - from) slots or more, all zero) and
 * lists them in out (gh_tok_distinct_max(to - from) entries), their number
 * in *n_out; leaves the table zero again.  Queued on stream; the launch's
 * error.
 */
cudaError_t gh_kernel_tokens(const unsigned char *data, uint64_t from,
			     uint64_t to, int view, int field, int separator,
			     struct gh_tok_entry *table,
			     struct gh_tok_entry *out, uint32_t *n_out,
			     cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
