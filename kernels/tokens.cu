// tokens.cu - counts the units of a chunk's inside on the device
// (gh_tokens_kernel.h): words, lines, or a field of each line
//
// insert_units: a thread a SEGMENT of bytes; each unit that starts in it
// (a word after a separator; a line after a newline) is found, hashed with
// the host's hash, and counted in the table: open addressing on the hash,
// a free slot claimed by compare-and-swap (state 0 -> 1), filled, and
// published (state 2) after a fence; a ready slot with the same hash,
// length and bytes (compared in data, where both units lie) takes the
// count by an atomic add.  The table is at most half full (gh_tok_table_
// slots), so every probe ends.
// pack_units: reads every slot, lists the ready ones (one atomic add a
// warp for their places in the list) and zeroes the used ones, so the
// table is ready for the next chunk without a memset.
#include "gh_tokens_kernel.h"

#define SEGMENT 32
#define BLOCK 256

static_assert(sizeof(struct gh_tok_entry) == 24, "entries are 24 bytes");

__device__ static bool word_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

__device__ static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

// n bytes (1..8) little-endian, as the host's memcpy into a uint64_t.
__device__ static uint64_t load_le(const unsigned char *p, uint32_t n)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

// table.c's gh_token_hash, bit for bit.
__device__ static uint64_t token_hash(const unsigned char *p, uint64_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xc2b2ae3d27d4eb4full);

	while (n >= 8) {
		h = (h ^ load_le(p, 8)) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	if (n)
		h = (h ^ load_le(p, (uint32_t)n)) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

// The field of the line that begins at data[i] (it ends with a newline),
// as tokens.c's line_unit: *at, *len ("" where the line has fewer).
__device__ static void field_of(const unsigned char *data, uint32_t i,
				int field, int separator, uint32_t *at,
				uint32_t *len)
{
	uint32_t q = i;

	for (int k = 1;; k++) {
		uint32_t f;

		if (separator < 0) {
			while (blank(data[q]))
				q++;
			if (data[q] == '\n')
				break;          // no more fields
			f = q;
			while (!blank(data[q]) && data[q] != '\n')
				q++;
		} else {
			f = q;
			while (data[q] != separator && data[q] != '\n')
				q++;
		}
		if (k == field) {
			*at = f;
			*len = q - f;
			return;
		}
		if (data[q] == '\n')
			break;
		q += separator >= 0;    // past the separator
	}
	*at = i;
	*len = 0;
}

__device__ static bool same_bytes(const unsigned char *a,
				  const unsigned char *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

// Adds one to the count of data[at, at + len).
__device__ static void insert(struct gh_tok_entry *table, uint32_t mask,
			      const unsigned char *data, uint32_t at,
			      uint32_t len, uint64_t hash)
{
	for (uint32_t k = (uint32_t)hash & mask;; k = (k + 1) & mask) {
		struct gh_tok_entry *e = &table[k];
		volatile struct gh_tok_entry *v = e;
		uint32_t state = atomicCAS(&e->state, 0u, 1u);

		if (state == 0) {
			e->hash = hash;
			e->at = at;
			e->len = len;
			e->count = 1;
			__threadfence();
			atomicExch(&e->state, 2u);
			return;
		}
		while (state != 2)
			state = v->state;
		__threadfence();
		// Read past the L1 (volatile): another multiprocessor wrote it.
		if (v->hash == hash && v->len == len &&
		    same_bytes(data + v->at, data + at, len)) {
			atomicAdd(&e->count, 1u);
			return;
		}
	}
}

__global__ void insert_units(const unsigned char *data, uint32_t from,
			     uint32_t to, int view, int field, int separator,
			     struct gh_tok_entry *table, uint32_t mask)
{
	uint64_t s = from + ((uint64_t)blockIdx.x * blockDim.x +
			     threadIdx.x) * SEGMENT;

	if (s >= to)
		return;
	uint32_t end = s + SEGMENT < to ? (uint32_t)s + SEGMENT : to;
	// The byte before the segment; the inside begins after a boundary.
	unsigned char prev = s == from ? '\n' : data[s - 1];

	for (uint32_t i = (uint32_t)s; i < end; i++) {
		unsigned char c = data[i];
		bool start = view == GH_TOK_WORDS ? !word_sep(c) &&
						    word_sep(prev)
						  : prev == '\n';
		uint32_t at = i, len = 0;

		prev = c;
		if (!start)
			continue;
		if (view == GH_TOK_WORDS) {
			while (!word_sep(data[at + len]))
				len++;
		} else if (view == GH_TOK_LINES) {
			while (data[at + len] != '\n')
				len++;
		} else {
			field_of(data, i, field, separator, &at, &len);
		}
		insert(table, mask, data, at, len, token_hash(data + at, len));
	}
}

__global__ void pack_units(struct gh_tok_entry *table, uint32_t slots,
			   struct gh_tok_entry *out, uint32_t *n_out)
{
	uint32_t stride = gridDim.x * blockDim.x;
	uint32_t lane = threadIdx.x & 31;

	// Whole warps go round together (the ballot needs every lane).
	for (uint32_t base = blockIdx.x * blockDim.x; base < slots;
	     base += stride) {
		uint32_t i = base + threadIdx.x;
		struct gh_tok_entry e = { 0, 0, 0, 0, 0 };

		if (i < slots) {
			e = table[i];
			if (e.state)
				table[i] = (struct gh_tok_entry){ 0, 0, 0, 0, 0 };
		}
		bool ready = e.state == 2;
		uint32_t ballot = __ballot_sync(0xffffffffu, ready);
		uint32_t first = 0;

		if (!ballot)
			continue;
		if (lane == 0)
			first = atomicAdd(n_out, (uint32_t)__popc(ballot));
		first = __shfl_sync(0xffffffffu, first, 0);
		if (ready) {
			e.state = 0;
			out[first + __popc(ballot & ((1u << lane) - 1))] = e;
		}
	}
}

extern "C" cudaError_t gh_kernel_tokens(const unsigned char *data,
					uint64_t from, uint64_t to, int view,
					int field, int separator,
					struct gh_tok_entry *table,
					struct gh_tok_entry *out,
					uint32_t *n_out, cudaStream_t stream)
{
	uint64_t n = to > from ? to - from : 0;
	uint64_t slots = gh_tok_table_slots(n);
	uint64_t threads = (n + SEGMENT - 1) / SEGMENT;
	uint64_t pack_blocks = slots / BLOCK < 2048 ? slots / BLOCK : 2048;
	cudaError_t err = cudaMemsetAsync(n_out, 0, sizeof(*n_out), stream);

	if (err != cudaSuccess || !n)
		return err;
	insert_units<<<(unsigned)((threads + BLOCK - 1) / BLOCK), BLOCK, 0,
		       stream>>>(data, (uint32_t)from, (uint32_t)to, view,
				 field, separator, table,
				 (uint32_t)(slots - 1));
	err = cudaGetLastError();
	if (err != cudaSuccess)
		return err;
	pack_units<<<(unsigned)pack_blocks, BLOCK, 0, stream>>>(
		table, (uint32_t)slots, out, n_out);
	return cudaGetLastError();
}
