// tokens.cu - counts the units of a chunk's inside on the device
// (gh_tokens_kernel.h): words, lines, or a field of each line, in a table
// that lasts for the whole input
//
// insert_units: a thread a SEGMENT of bytes; each unit that starts in it
// (a word after a separator; a line after a newline) is found, hashed with
// the host's hash, and counted in the table: open addressing on the hash,
// a free slot claimed by compare-and-swap (state 0 -> 1), a record of the
// unit (its hash, length and bytes, on 8 bytes, so that keys are compared
// a word at a time) written at a place in the arena taken by an atomic
// add, and the slot published (state 2) after a fence; a ready slot with
// the same hash, length and bytes takes the count by an atomic add.  The
// host keeps the table at most half full and the arena large enough, so
// every probe ends and every record fits.
// rehash_slots: a grown table's slots placed again in a larger array.
// stamp_counts: writes each ready slot's count into its record and zeroes
// the slot, so the arena alone is the list of distinct units and the
// table is ready for more without a memset; where asked, it also notes
// each window's first record and how many begin there (atomicMin and
// atomicAdd a slot).
#include "gh_tokens_kernel.h"

#define SEGMENT 32
#define BLOCK 256

static_assert(sizeof(struct gh_tok_entry) == 32, "entries are 32 bytes");
static_assert(sizeof(struct gh_tok_record) == 24, "records begin with 24 bytes");
static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "counts are 64-bit");

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

// Whether the key at key (8-byte words) is data[0, len).
__device__ static bool same_key(const uint64_t *key, const unsigned char *data,
				uint32_t len)
{
	for (uint32_t i = 0; i < len; i += 8) {
		uint32_t m = len - i < 8 ? len - i : 8;

		if (key[i / 8] != load_le(data + i, m))
			return false;
	}
	return true;
}

// Adds one to the count of data[at, at + len) in t.
__device__ static void insert(const struct gh_tok_table t,
			      const unsigned char *data, uint32_t at,
			      uint32_t len, uint64_t hash)
{
	uint32_t mask = (uint32_t)(t.n_slots - 1);

	for (uint32_t k = (uint32_t)hash & mask;; k = (k + 1) & mask) {
		struct gh_tok_entry *e = &t.slots[k];
		volatile struct gh_tok_entry *v = e;
		// A slot already taken (a repeat's, mostly) costs no atomic.
		uint32_t state = v->state;

		if (state == 0)
			state = atomicCAS(&e->state, 0u, 1u);
		if (state == 0) {
			unsigned long long place = atomicAdd(&t.used[1],
				(unsigned long long)gh_tok_record_bytes(len));
			struct gh_tok_record *r =
				(struct gh_tok_record *)(t.keys + place);
			uint64_t *key = (uint64_t *)(r + 1);

			atomicAdd(&t.used[0], 1ull);
			r->hash = hash;
			r->len = len;
			// The last word zero-filled.
			for (uint32_t i = 0; i < len; i += 8)
				key[i / 8] = load_le(data + at + i,
						     len - i < 8 ? len - i : 8);
			e->hash = hash;
			e->at = (uint32_t)(place >> 3);
			e->len = len;
			e->count = 1;
			__threadfence();
			atomicExch(&e->state, 2u);
			return;
		}
		while (state != 2)
			state = v->state;
		// The writer's fence before its state, and this one after
		// reading it: what it wrote before is seen, past any L1.
		__threadfence();
		if (e->hash == hash && e->len == len &&
		    same_key((const uint64_t *)(t.keys +
						((uint64_t)e->at << 3) +
						sizeof(struct gh_tok_record)),
			     data + at, len)) {
			atomicAdd((unsigned long long *)&e->count, 1ull);
			return;
		}
	}
}

__global__ void insert_units(const unsigned char *data, uint32_t from,
			     uint32_t to, int view, int field, int separator,
			     const struct gh_tok_table t)
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
		insert(t, data, at, len, token_hash(data + at, len));
	}
}

__global__ void stamp_counts(const struct gh_tok_table t, uint32_t *first,
			     uint32_t *n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < t.n_slots; i += stride) {
		struct gh_tok_entry e = t.slots[i];

		if (!e.state)
			continue;
		((struct gh_tok_record *)(t.keys + ((uint64_t)e.at << 3)))
			->count = e.count;
		if (first) {
			uint32_t w = e.at >> (GH_TOK_WINDOW_BITS - 3);

			atomicMin(&first[w], e.at);
			atomicAdd(&n[w], 1u);
		}
		t.slots[i] = (struct gh_tok_entry){ 0, 0, 0, 0, 0, 0 };
	}
}

__global__ void rehash_slots(const struct gh_tok_table from,
			     const struct gh_tok_table to)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint32_t mask = (uint32_t)(to.n_slots - 1);

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < from.n_slots; i += stride) {
		struct gh_tok_entry e = from.slots[i];

		if (!e.state)
			continue;
		// Units are distinct: the first free slot is the place; no
		// one reads a slot's fields before the kernel ends.
		for (uint32_t k = (uint32_t)e.hash & mask;; k = (k + 1) & mask)
			if (atomicCAS(&to.slots[k].state, 0u, 2u) == 0u) {
				to.slots[k].hash = e.hash;
				to.slots[k].count = e.count;
				to.slots[k].at = e.at;
				to.slots[k].len = e.len;
				break;
			}
	}
}

extern "C" cudaError_t gh_kernel_tokens_insert(const unsigned char *data,
					       uint64_t from, uint64_t to,
					       int view, int field,
					       int separator,
					       const struct gh_tok_table *t,
					       cudaStream_t stream)
{
	uint64_t n = to > from ? to - from : 0;
	uint64_t threads = (n + SEGMENT - 1) / SEGMENT;

	if (!n)
		return cudaSuccess;
	insert_units<<<(unsigned)((threads + BLOCK - 1) / BLOCK), BLOCK, 0,
		       stream>>>(data, (uint32_t)from, (uint32_t)to, view,
				 field, separator, *t);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_stamp(const struct gh_tok_table *t,
					      uint32_t *first, uint32_t *n,
					      cudaStream_t stream)
{
	uint64_t blocks = t->n_slots / BLOCK < 4096 ? t->n_slots / BLOCK
						     : 4096;

	stamp_counts<<<(unsigned)(blocks ? blocks : 1), BLOCK, 0, stream>>>(
		*t, first, n);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_rehash(const struct gh_tok_table *from,
					       const struct gh_tok_table *to,
					       cudaStream_t stream)
{
	uint64_t blocks = from->n_slots / BLOCK < 4096 ? from->n_slots / BLOCK
							: 4096;

	rehash_slots<<<(unsigned)(blocks ? blocks : 1), BLOCK, 0, stream>>>(
		*from, *to);
	return cudaGetLastError();
}
