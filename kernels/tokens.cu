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
// every probe ends and every record fits.  A long unit (past SHORT bytes:
// most lines, a JSON line's or a CSV row's long words) is left by its lane
// to the whole warp, which finds its end, hashes, writes and compares it 8
// bytes a lane.
// rehash_slots: a grown table's slots placed again in a larger array.
// stamp_counts: writes each ready slot's count into its record and zeroes
// the slot, so the arena alone is the list of distinct units and the
// table is ready for more without a memset; where asked, it also notes
// each window's first record and how many begin there (atomicMin and
// atomicAdd a slot).
// add_records, count_bins, pick_records: an input that asks only for its
// commonest units has the host's units added with their counts, its
// counts binned (64 bins below 64, then 32 a power of two), and the
// records at or above the bin where the commonest end written out.
// tie_heads, head_digits: where that bin is one count shared by most
// units, the ties among which the commonest end are narrowed by their
// leading bytes (a radix select, a byte a launch) before the pick.
#include "gh_tokens_kernel.h"

#define SEGMENT 32
#define BLOCK 256
// A unit is long past SHORT bytes: its warp counts it together.
#define SHORT 64
#define FULL_WARP 0xffffffffu

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

// Whether c ends a unit of view (words: a separator; lines: a newline).
__device__ static bool unit_end(unsigned char c, int view)
{
	return view == GH_TOK_WORDS ? word_sep(c) : c == '\n';
}

// The length of the unit at data[at], found by the whole warp, 256 bytes
// a step (8 a lane); bytes from to on count as its end (the unit ends
// before to: the range ends with a boundary).  Every lane calls it with
// the same at.
__device__ static uint32_t warp_length(const unsigned char *data, uint32_t at,
				       uint32_t to, int view, uint32_t lane)
{
	for (uint32_t base = at;; base += 8 * 32) {
		uint32_t p = base + 8 * lane, found = 8;

		for (uint32_t b = 0; b < 8; b++)
			if (p + b >= to || unit_end(data[p + b], view)) {
				found = b;
				break;
			}
		unsigned ends = __ballot_sync(FULL_WARP, found < 8);

		if (ends) {
			uint32_t first = __ffs(ends) - 1;

			return base + 8 * first +
			       __shfl_sync(FULL_WARP, found, first) - at;
		}
	}
}

// token_hash of data[at, at + len), by the whole warp: each lane loads a
// word of 8 bytes, and every lane runs the hash's chain over them in order,
// taking each from its lane (the hash is a chain: each word's step needs
// the last).  Every lane returns it.
__device__ static uint64_t warp_hash(const unsigned char *data, uint32_t at,
				     uint32_t len, uint32_t lane)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (len * 0xc2b2ae3d27d4eb4full);
	uint32_t words = (len + 7) / 8;

	for (uint32_t w0 = 0; w0 < words; w0 += 32) {
		uint32_t i = w0 + lane, k = words - w0 < 32 ? words - w0 : 32;
		uint64_t mine = 0;

		if (i < words)
			mine = load_le(data + at + 8 * i,
				       len - 8 * i < 8 ? len - 8 * i : 8);
		for (uint32_t j = 0; j < k; j++) {
			uint64_t w = __shfl_sync(FULL_WARP, mine, j);

			if (8 * (w0 + j) + 8 <= len) {
				h = (h ^ w) * 0xff51afd7ed558ccdull;
				h ^= h >> 32;
			} else {
				h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
			}
		}
	}
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

// Whether the key at key (8-byte words) is data[0, len), by the whole
// warp, a word a lane.
__device__ static bool warp_same_key(const uint64_t *key,
				     const unsigned char *data, uint32_t len,
				     uint32_t lane)
{
	bool same = true;

	for (uint32_t i = 8 * lane; i < len; i += 8 * 32)
		if (key[i / 8] != load_le(data + i, len - i < 8 ? len - i : 8))
			same = false;
	return __all_sync(FULL_WARP, same);
}

// insert(), by the whole warp: lane 0 claims and reads the slots, every
// lane writes and compares a word of the key in 8.  Every lane calls it
// with the same unit.
__device__ static void warp_insert(const struct gh_tok_table t,
				   const unsigned char *data, uint32_t at,
				   uint32_t len, uint64_t hash, uint32_t lane)
{
	uint32_t mask = (uint32_t)(t.n_slots - 1);

	for (uint32_t k = (uint32_t)hash & mask;; k = (k + 1) & mask) {
		struct gh_tok_entry *e = &t.slots[k];
		volatile struct gh_tok_entry *v = e;
		uint32_t state = 0, e_len = 0;
		unsigned long long e_hash = 0, place = 0;

		if (lane == 0) {
			state = v->state;
			if (state == 0)
				state = atomicCAS(&e->state, 0u, 1u);
			if (state == 0) {
				place = atomicAdd(&t.used[1],
					(unsigned long long)gh_tok_record_bytes(len));
				atomicAdd(&t.used[0], 1ull);
			} else {
				while (state != 2)
					state = v->state;
				// As insert(): past any L1.
				__threadfence();
				e_hash = v->hash;
				e_len = v->len;
				place = (unsigned long long)v->at << 3;
			}
		}
		state = __shfl_sync(FULL_WARP, state, 0);
		place = __shfl_sync(FULL_WARP, place, 0);
		struct gh_tok_record *r =
			(struct gh_tok_record *)(t.keys + place);
		uint64_t *key = (uint64_t *)(r + 1);

		if (state == 0) {
			// The last word zero-filled.
			for (uint32_t i = 8 * lane; i < len; i += 8 * 32)
				key[i / 8] = load_le(data + at + i,
						     len - i < 8 ? len - i : 8);
			// Each lane's words before the slot is published.
			__threadfence();
			__syncwarp();
			if (lane == 0) {
				r->hash = hash;
				r->len = len;
				e->hash = hash;
				e->at = (uint32_t)(place >> 3);
				e->len = len;
				e->count = 1;
				__threadfence();
				atomicExch(&e->state, 2u);
			}
			return;
		}
		__threadfence();
		e_hash = __shfl_sync(FULL_WARP, e_hash, 0);
		e_len = __shfl_sync(FULL_WARP, e_len, 0);
		if (e_hash == hash && e_len == len &&
		    warp_same_key(key, data + at, len, lane)) {
			if (lane == 0)
				atomicAdd((unsigned long long *)&e->count, 1ull);
			return;
		}
	}
}

// Whether the unit at data[at] is long, judged by one lane: its end not
// within SHORT bytes (*len: its length where it is short).
__device__ static bool is_long(const unsigned char *data, uint32_t at,
			       uint32_t to, int view, uint32_t *len)
{
	for (uint32_t n = 0; n < SHORT; n++)
		if (at + n >= to || unit_end(data[at + n], view)) {
			*len = n;
			return false;
		}
	return true;
}

__global__ void insert_units(const unsigned char *data, uint32_t from,
			     uint32_t to, int view, int field, int separator,
			     const struct gh_tok_table t)
{
	uint64_t s = from + ((uint64_t)blockIdx.x * blockDim.x +
			     threadIdx.x) * SEGMENT;
	uint32_t lane = threadIdx.x & 31;
	// The long units that begin in this lane's segment, a bit a byte;
	// a field's place, for the first of them (lines are seldom shorter
	// than a segment, so it is the only one, mostly).
	uint32_t long_units = 0, first_at = 0, first_len = 0;

	if (s < to) {
		uint32_t end = s + SEGMENT < to ? (uint32_t)s + SEGMENT : to;
		// The byte before the segment; the inside begins after a
		// boundary.
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
			if (view == GH_TOK_FIELD) {
				field_of(data, i, field, separator, &at, &len);
				if (len > SHORT) {
					if (!long_units) {
						first_at = at;
						first_len = len;
					}
					long_units |= 1u << (i - (uint32_t)s);
					continue;
				}
			} else if (is_long(data, i, to, view, &len)) {
				long_units |= 1u << (i - (uint32_t)s);
				continue;
			}
			insert(t, data, at, len, token_hash(data + at, len));
		}
	}
	// The warp's long units, one at a time by all its lanes: a lane
	// walking a long line alone left the others idle and read a byte at
	// a time.
	for (;;) {
		unsigned who = __ballot_sync(FULL_WARP, long_units != 0);

		if (!who)
			break;
		uint32_t leader = __ffs(who) - 1, at = 0, len = 0;

		if (lane == leader) {
			at = (uint32_t)s + __ffs(long_units) - 1;
			if (view == GH_TOK_FIELD && first_len) {
				at = first_at;
				len = first_len;
				first_len = 0;
			} else if (view == GH_TOK_FIELD) {
				field_of(data, at, field, separator, &at,
					 &len);
			}
			long_units &= long_units - 1;
		}
		at = __shfl_sync(FULL_WARP, at, leader);
		len = __shfl_sync(FULL_WARP, len, leader);
		if (view != GH_TOK_FIELD)
			len = warp_length(data, at, to, view, lane);
		warp_insert(t, data, at, len, warp_hash(data, at, len, lane),
			    lane);
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

// Blocks for a kernel that walks n_slots slots a thread each in turn:
// one a BLOCK of them, at least one, at most cap.
static unsigned slot_blocks(uint64_t n_slots, unsigned cap)
{
	uint64_t blocks = n_slots / BLOCK;

	return blocks < 1 ? 1 : blocks > cap ? cap : (unsigned)blocks;
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
	unsigned blocks = slot_blocks(t->n_slots, 4096);

	stamp_counts<<<blocks, BLOCK, 0, stream>>>(
		*t, first, n);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_rehash(const struct gh_tok_table *from,
					       const struct gh_tok_table *to,
					       cudaStream_t stream)
{
	unsigned blocks = slot_blocks(from->n_slots, 4096);

	rehash_slots<<<blocks, BLOCK, 0, stream>>>(
		*from, *to);
	return cudaGetLastError();
}

// ---- the commonest picked on the device ----

// A distinct unit (hash, len, its key's words, zero-filled) with its
// count added to t: as insert() but for the count and the key, which is
// read a word at a time.  The units added at once are distinct, so a slot
// another of them is writing (state 1) is another unit's.
__device__ void add_unit(const struct gh_tok_table t, uint64_t hash,
			 uint32_t len, uint64_t count, const uint64_t *key)
{
	uint32_t mask = (uint32_t)(t.n_slots - 1);
	uint32_t words = (len + 7) / 8;

	for (uint32_t k = (uint32_t)hash & mask;; k = (k + 1) & mask) {
		struct gh_tok_entry *e = &t.slots[k];
		volatile struct gh_tok_entry *v = e;
		uint32_t state = v->state;

		if (state == 0)
			state = atomicCAS(&e->state, 0u, 1u);
		if (state == 0) {
			unsigned long long place = atomicAdd(&t.used[1],
				(unsigned long long)gh_tok_record_bytes(len));
			struct gh_tok_record *to =
				(struct gh_tok_record *)(t.keys + place);
			uint64_t *to_key = (uint64_t *)(to + 1);

			atomicAdd(&t.used[0], 1ull);
			to->hash = hash;
			to->len = len;
			for (uint32_t w = 0; w < words; w++)
				to_key[w] = key[w];
			e->hash = hash;
			e->at = (uint32_t)(place >> 3);
			e->len = len;
			e->count = count;
			__threadfence();
			atomicExch(&e->state, 2u);
			return;
		}
		if (state != 2)
			continue;       // another unit's
		__threadfence();
		if (e->hash != hash || e->len != len)
			continue;
		const uint64_t *at = (const uint64_t *)(t.keys +
			((uint64_t)e->at << 3) + sizeof(struct gh_tok_record));
		uint32_t w = 0;

		while (w < words && at[w] == key[w])
			w++;
		if (w == words) {
			atomicAdd((unsigned long long *)&e->count,
				  (unsigned long long)count);
			return;
		}
	}
}

// The host's units, with their counts: a thread a record.
__global__ void add_records(const struct gh_tok_table t,
			    const unsigned char *recs, const uint64_t *offs,
			    uint32_t n)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	const struct gh_tok_record *r =
		(const struct gh_tok_record *)(recs + offs[i]);

	add_unit(t, r->hash, r->len, r->count, (const uint64_t *)(r + 1));
}

// Another table's units (a copy of its slots and arena), with their
// counts: a thread a slot.
__global__ void merge_slots(const struct gh_tok_table t,
			    const struct gh_tok_entry *slots, uint64_t n_slots,
			    const unsigned char *keys)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n_slots; i += stride) {
		struct gh_tok_entry e = slots[i];

		if (e.state != 2)
			continue;
		add_unit(t, e.hash, e.len, e.count,
			 (const uint64_t *)(keys + ((uint64_t)e.at << 3) +
					    sizeof(struct gh_tok_record)));
	}
}

// Each block's bins in shared memory, added to the global ones at its end.
__global__ void count_bins(const struct gh_tok_table t,
			   unsigned long long *units,
			   unsigned long long *bytes,
			   unsigned long long *total)
{
	__shared__ unsigned int s_units[GH_TOK_BINS];
	__shared__ unsigned long long s_bytes[GH_TOK_BINS];
	__shared__ unsigned long long s_total;
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint32_t b = threadIdx.x; b < GH_TOK_BINS; b += blockDim.x) {
		s_units[b] = 0;
		s_bytes[b] = 0;
	}
	if (threadIdx.x == 0)
		s_total = 0;
	__syncthreads();
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < t.n_slots; i += stride) {
		struct gh_tok_entry e = t.slots[i];

		if (!e.state)
			continue;
		uint32_t b = gh_tok_bin(e.count);

		atomicAdd(&s_units[b], 1u);
		atomicAdd(&s_bytes[b],
			  (unsigned long long)gh_tok_record_bytes(e.len));
		atomicAdd(&s_total, (unsigned long long)e.count);
	}
	__syncthreads();
	for (uint32_t b = threadIdx.x; b < GH_TOK_BINS; b += blockDim.x)
		if (s_units[b]) {
			atomicAdd(&units[b], (unsigned long long)s_units[b]);
			atomicAdd(&bytes[b], s_bytes[b]);
		}
	if (threadIdx.x == 0 && s_total)
		atomicAdd(total, s_total);
}

// A unit's byte i, 0 past its end.
__device__ static unsigned char key_byte(const unsigned char *key,
					 uint32_t len, uint32_t i)
{
	return i < len ? key[i] : 0;
}

// The unit's first ties.depth bytes against ties.b's: <0, 0, >0.
__device__ static int ties_cmp(const struct gh_tok_ties &ties,
			       const unsigned char *key, uint32_t len)
{
	for (uint32_t i = 0; i < ties.depth; i++) {
		unsigned char c = key_byte(key, len, i);

		if (c != ties.b[i])
			return c < ties.b[i] ? -1 : 1;
	}
	return 0;
}

// Slot e's record in the table's arena.
__device__ static const unsigned char *record_of(const struct gh_tok_table &t,
						 const struct gh_tok_entry &e)
{
	return t.keys + ((uint64_t)e.at << 3);
}

// A place for this lane's item among its warp's that take one: one
// atomic add a warp.
__device__ static unsigned long long warp_place(bool take,
						unsigned long long *n)
{
	unsigned active = __activemask();
	unsigned want = __ballot_sync(active, take);
	unsigned lane = threadIdx.x & 31;
	int leader = __ffs(want) - 1;
	unsigned long long base = 0;

	if (!want)
		return 0;
	if ((int)lane == leader)
		base = atomicAdd(n, (unsigned long long)__popc(want));
	base = __shfl_sync(active, base, leader);
	return base + __popc(want & ((1u << lane) - 1));
}

__global__ void pick_records(const struct gh_tok_table t, uint64_t low,
			     const struct gh_tok_ties ties,
			     unsigned char *out, unsigned long long *used)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < t.n_slots; i += stride) {
		struct gh_tok_entry e = t.slots[i];
		const unsigned char *rec = record_of(t, e);

		if (!e.state || !(e.count >= low ||
				  (ties.count && e.count == ties.count &&
				   ties_cmp(ties, rec + sizeof(struct gh_tok_record),
					    e.len) <= 0)))
			continue;
		uint64_t bytes = gh_tok_record_bytes(e.len);
		unsigned long long place = atomicAdd(used,
						     (unsigned long long)bytes);

		if (!out)
			continue;
		const uint64_t *from = (const uint64_t *)rec;
		uint64_t *to = (uint64_t *)(out + place);

		for (uint64_t w = 0; w < bytes / 8; w++)
			to[w] = from[w];
		((struct gh_tok_record *)to)->count = e.count;
	}
}

__global__ void tie_heads(const struct gh_tok_table t,
			  const struct gh_tok_ties ties, uint64_t *heads,
			  uint64_t cap, unsigned long long *n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < t.n_slots; i += stride) {
		struct gh_tok_entry e = t.slots[i];
		const unsigned char *key = record_of(t, e) +
					   sizeof(struct gh_tok_record);
		bool take = e.state && e.count == ties.count &&
			    ties_cmp(ties, key, e.len) == 0;
		unsigned long long place = warp_place(take, n);

		if (!take || place >= cap)
			continue;
		uint64_t head = 0;

		for (uint32_t k = 0; k < 8; k++)
			head = head << 8 | key_byte(key, e.len, ties.depth + k);
		heads[place] = head;
	}
}

__global__ void head_digits(const uint64_t *heads, uint64_t n, unsigned shift,
			    uint64_t prefix, unsigned long long *hist)
{
	__shared__ unsigned int s_hist[256];
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x)
		s_hist[b] = 0;
	__syncthreads();
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n; i += stride) {
		uint64_t h = heads[i];

		if (shift < 56 && (h ^ prefix) >> (shift + 8))
			continue;
		atomicAdd(&s_hist[(h >> shift) & 255], 1u);
	}
	__syncthreads();
	for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x)
		if (s_hist[b])
			atomicAdd(&hist[b], (unsigned long long)s_hist[b]);
}

extern "C" cudaError_t gh_kernel_tokens_add(const struct gh_tok_table *t,
					    const unsigned char *recs,
					    const uint64_t *offs, uint32_t n,
					    cudaStream_t stream)
{
	if (!n)
		return cudaSuccess;
	add_records<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(*t, recs,
								   offs, n);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_merge(const struct gh_tok_table *t,
					      const struct gh_tok_entry *slots,
					      uint64_t n_slots,
					      const unsigned char *keys,
					      cudaStream_t stream)
{
	uint64_t blocks = (n_slots + BLOCK - 1) / BLOCK;

	if (!n_slots)
		return cudaSuccess;
	merge_slots<<<blocks < 65536 ? (unsigned)blocks : 65536u, BLOCK, 0,
		      stream>>>(*t, slots, n_slots, keys);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_bins(const struct gh_tok_table *t,
					     unsigned long long *units,
					     unsigned long long *bytes,
					     unsigned long long *total,
					     cudaStream_t stream)
{
	unsigned blocks = slot_blocks(t->n_slots, 1024);

	count_bins<<<blocks, BLOCK, 0, stream>>>(
		*t, units, bytes, total);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_pick(const struct gh_tok_table *t,
					     uint64_t low,
					     const struct gh_tok_ties *ties,
					     unsigned char *out,
					     unsigned long long *used,
					     cudaStream_t stream)
{
	unsigned blocks = slot_blocks(t->n_slots, 4096);

	pick_records<<<blocks, BLOCK, 0, stream>>>(
		*t, low, *ties, out, used);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_heads(const struct gh_tok_table *t,
					      const struct gh_tok_ties *ties,
					      uint64_t *heads, uint64_t cap,
					      unsigned long long *n,
					      cudaStream_t stream)
{
	unsigned blocks = slot_blocks(t->n_slots, 4096);

	tie_heads<<<blocks, BLOCK, 0, stream>>>(*t, *ties, heads, cap, n);
	return cudaGetLastError();
}

extern "C" cudaError_t gh_kernel_tokens_digits(const uint64_t *heads,
					       uint64_t n, unsigned shift,
					       uint64_t prefix,
					       unsigned long long *hist,
					       cudaStream_t stream)
{
	unsigned blocks = slot_blocks(n, 1024);

	head_digits<<<blocks, BLOCK, 0, stream>>>(heads, n, shift, prefix,
						   hist);
	return cudaGetLastError();
}
