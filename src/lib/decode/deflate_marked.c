/* deflate_marked.c - gzip members decoded into 16-bit symbols, window unknown
 *
 * A table-driven deflate decoder (RFC 1951) inside a gzip member walker
 * (RFC 1952).  Its verdicts are zlib's (inflate.c, inftrees.c): the same
 * header checks, the same rules for incomplete and over-subscribed Huffman
 * codes (an incomplete code only where it is one code of one bit), the
 * same "distance too far back" per member.  The messages are its own; the
 * serial decoder gives the message the user sees (gzip_parallel.c).
 *
 * Tables: a primary table indexed by the next LIT_BITS (DIST_BITS) input
 * bits, with second-level tables for longer codes.  An entry packs the
 * code's length, a kind, extra bits and a value.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "deflate_marked.h"

enum kind { K_LIT, K_LEN, K_EOB, K_SUB, K_BAD, K_DIST };

#define ENTRY(val, extra, kind, len) \
	((uint32_t)(val) << 16 | (uint32_t)(extra) << 8 | (uint32_t)(kind) << 4 | (uint32_t)(len))
#define E_LEN(e) ((e) & 15)
#define E_KIND(e) ((e) >> 4 & 15)
#define E_EXTRA(e) ((e) >> 8 & 255)
#define E_VAL(e) ((e) >> 16)

#define LIT_BITS 11
#define DIST_BITS 8
#define PRE_BITS 7
/* Second-level entries: a symbol of a complete code longer than the primary
 * bits fills at most half of its subtable (16 of 32 entries, 64 of 128). */
#define LIT_SIZE ((1 << LIT_BITS) + 288 * 16)
#define DIST_SIZE ((1 << DIST_BITS) + 32 * 64)

struct gh_dm_table {
	uint32_t lit[LIT_SIZE], dist[DIST_SIZE], pre[1 << PRE_BITS];
	uint32_t fixed_lit[LIT_SIZE], fixed_dist[DIST_SIZE];
	const uint32_t *cur_lit, *cur_dist;
};

enum state { ST_MEMBER, ST_BLOCK, ST_STORED, ST_HUFF, ST_TRAILER, ST_AFTER };

enum code_type { T_CODES, T_LENS, T_DISTS };

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51,
	59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
	5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
	513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
	24577 };
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10,
	10, 11, 11, 12, 12, 13, 13 };
static const uint8_t precode_order[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

/* What a table entry for `sym` says, less its length. */
static uint32_t payload(enum code_type type, unsigned sym)
{
	switch (type) {
	case T_CODES:
		return ENTRY(sym, 0, K_LIT, 0);
	case T_LENS:
		if (sym < 256)          /* one literal (pair_literals) */
			return ENTRY(sym, 1, K_LIT, 0);
		if (sym == 256)
			return ENTRY(0, 0, K_EOB, 0);
		if (sym < 286)
			return ENTRY(len_base[sym - 257], len_extra[sym - 257],
				     K_LEN, 0);
		return ENTRY(0, 0, K_BAD, 0);
	case T_DISTS:
		if (sym < 30)
			return ENTRY(dist_base[sym], dist_extra[sym], K_DIST, 0);
		return ENTRY(0, 0, K_BAD, 0);
	}
	return ENTRY(0, 0, K_BAD, 0);
}

/* The low `len` bits of code (len 1..15), reversed: deflate sends codes
 * from their first bit, so a table index reads them backwards. */
static unsigned reverse(unsigned code, unsigned len)
{
	unsigned r = code;

	r = (r & 0x5555) << 1 | (r >> 1 & 0x5555);
	r = (r & 0x3333) << 2 | (r >> 2 & 0x3333);
	r = (r & 0x0f0f) << 4 | (r >> 4 & 0x0f0f);
	r = (r & 0x00ff) << 8 | (r >> 8 & 0x00ff);
	return r >> (16 - len);
}

/*
 * Builds the decoding table of a canonical code from n code lengths; -1
 * where zlib's inflate_table() refuses the code: over-subscribed, or
 * incomplete unless it is a single code of one bit (not for the code
 * lengths' code).  No codes at all gives a table of invalid entries.
 */
static int build(uint32_t *tab, unsigned pbits, const uint8_t *lens,
		 unsigned n, enum code_type type)
{
	unsigned count[16] = { 0 }, next[16], max, sym;
	uint8_t sub_bits[1 << LIT_BITS];
	uint16_t subs[1 << LIT_BITS];   /* prefixes with a subtable */
	unsigned size = 1u << pbits, free_at = size, n_subs = 0;
	int left = 1;

	for (sym = 0; sym < n; sym++)
		count[lens[sym]]++;
	for (max = 15; max >= 1 && !count[max]; max--)
		;
	if (max == 0) {
		for (unsigned i = 0; i < size; i++)
			tab[i] = ENTRY(0, 0, K_BAD, 1);
		return 0;
	}
	for (unsigned len = 1; len <= 15; len++) {
		left = (left << 1) - (int)count[len];
		if (left < 0)
			return -1;
	}
	if (left > 0 && (type == T_CODES || max != 1))
		return -1;
	/* A complete code writes every entry below (blocks of a log are a
	 * table each, 20 KiB of output apart in csv-like text: the tables'
	 * cost is a tenth of the decoding there, so no entry is written
	 * twice).  The one incomplete code allowed, a single code of one
	 * bit, leaves half of the primary table (and has no subtables). */
	if (left > 0)
		for (unsigned i = 0; i < size; i++)
			tab[i] = ENTRY(0, 0, K_BAD, 1);
	next[1] = 0;
	for (unsigned len = 1; len < 15; len++)
		next[len + 1] = (next[len] + count[len]) << 1;

	if (max > pbits) {
		unsigned code[16];

		memset(sub_bits, 0, size);
		memcpy(code, next, sizeof(code));
		for (sym = 0; sym < n; sym++) {
			unsigned len = lens[sym];

			if (len <= pbits)
				continue;
			unsigned prefix = reverse(code[len]++, len) & (size - 1);

			if (!sub_bits[prefix])
				subs[n_subs++] = (uint16_t)prefix;
			if (len - pbits > sub_bits[prefix])
				sub_bits[prefix] = (uint8_t)(len - pbits);
		}
		for (unsigned j = 0; j < n_subs; j++) {
			unsigned p = subs[j];

			tab[p] = ENTRY(free_at, sub_bits[p], K_SUB, pbits);
			free_at += 1u << sub_bits[p];
		}
	}
	for (sym = 0; sym < n; sym++) {
		unsigned len = lens[sym];

		if (!len)
			continue;
		unsigned rev = reverse(next[len]++, len);
		uint32_t what = payload(type, sym);

		if (len <= pbits) {
			for (unsigned k = rev; k < size; k += 1u << len)
				tab[k] = what | len;
		} else {
			uint32_t p = tab[rev & (size - 1)];
			unsigned sb = E_EXTRA(p), rest = len - pbits;

			for (unsigned k = rev >> pbits; k < 1u << sb;
			     k += 1u << rest)
				tab[E_VAL(p) + k] = what | rest;
		}
	}
	return 0;
}

/*
 * Two literals in one entry: where a primary entry's literal leaves room,
 * in the LIT_BITS looked up, for the whole code of a second literal, the
 * entry gives both (E_VAL the first | the second << 8, E_EXTRA 2) and
 * their lengths summed.  A csv-like log under gzip -6 (3.6:1) is three
 * symbols in five literals, and 77 % of them come two at a time so (31 M
 * literals and 22 M matches in 256 MiB).  Entries are rewritten from the
 * top down: entry i reads i >> len, below it (or itself, for i = 0), still
 * single.
 */
static void pair_literals(uint32_t *tab)
{
	for (unsigned i = 1u << LIT_BITS; i-- > 0;) {
		uint32_t e = tab[i], e2;

		if (E_KIND(e) != K_LIT)
			continue;
		e2 = tab[i >> E_LEN(e)];
		if (E_KIND(e2) != K_LIT || E_LEN(e) + E_LEN(e2) > LIT_BITS)
			continue;
		tab[i] = ENTRY(E_VAL(e) | E_VAL(e2) << 8, 2, K_LIT,
			       E_LEN(e) + E_LEN(e2));
	}
}

static void build_fixed(struct gh_dm_table *t)
{
	uint8_t lens[288];
	unsigned i;

	for (i = 0; i < 144; i++)
		lens[i] = 8;
	for (; i < 256; i++)
		lens[i] = 9;
	for (; i < 280; i++)
		lens[i] = 7;
	for (; i < 288; i++)
		lens[i] = 8;
	build(t->fixed_lit, LIT_BITS, lens, 288, T_LENS);
	memset(lens, 5, 32);
	build(t->fixed_dist, DIST_BITS, lens, 32, T_DISTS);
}

/* ---- the bit reader ---- */

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

uint64_t gh_dm_bit(const struct gh_dm *dm)
{
	return (dm->in->base + dm->next + dm->overrun) * 8 - dm->bitcnt;
}

/* Whether the bits taken so far run past the end of the file. */
static bool past_end(const struct gh_dm *dm)
{
	return dm->in->at_eof &&
	       gh_dm_bit(dm) > (dm->in->base + dm->in->len) * 8;
}

/* Asks for more input once all of in->data is taken; more() may drop what
 * was taken (advancing in->base), so the position is kept as a file byte. */
static int more_input(struct gh_dm *dm)
{
	struct gh_dm_input *in = dm->in;
	uint64_t at = in->base + dm->next;

	if (in->more(in->ctx, in)) {
		dm->why = "read error";
		return -1;
	}
	dm->next = at - in->base;
	return 0;
}

/* Loads bytes until more than 56 bits are held (zeros past the end of the
 * file); -1 with dm->why on a read error or input taken past the end. */
static int refill_slow(struct gh_dm *dm)
{
	struct gh_dm_input *in = dm->in;

	if (past_end(dm)) {
		dm->why = "unexpected end of file";
		return -1;
	}
	while (dm->bitcnt <= 56) {
		if (dm->next < in->len) {
			dm->bitbuf |= (uint64_t)in->data[dm->next++] << dm->bitcnt;
		} else if (!in->at_eof) {
			if (more_input(dm))
				return -1;
			continue;
		} else {
			dm->overrun++;
		}
		dm->bitcnt += 8;
	}
	return 0;
}

/* Takes n <= 32 bits; -1 as refill_slow(). */
static int take(struct gh_dm *dm, unsigned n, unsigned *v)
{
	if (dm->bitcnt < n && refill_slow(dm))
		return -1;
	*v = (unsigned)(dm->bitbuf & ((1ull << n) - 1));
	dm->bitbuf >>= n;
	dm->bitcnt -= n;
	return 0;
}

static void align_byte(struct gh_dm *dm)
{
	unsigned drop = dm->bitcnt & 7;

	dm->bitbuf >>= drop;
	dm->bitcnt -= drop;
}

/* Real bits left in the file after the position, or INT64_MAX when the
 * end is not in sight (after a refill). */
static int64_t bits_left(const struct gh_dm *dm)
{
	if (!dm->in->at_eof)
		return INT64_MAX;
	return (int64_t)((dm->in->base + dm->in->len) * 8) - (int64_t)gh_dm_bit(dm);
}

/* ---- headers ---- */

#define FHCRC 0x02
#define FEXTRA 0x04
#define FNAME 0x08
#define FCOMMENT 0x10
#define FRESERVED 0xe0

/* A CRC-32 of the header bytes for FHCRC, computed bitwise (headers are
 * a few bytes; zlib's table is not needed here). */
static uint32_t crc_byte(uint32_t crc, unsigned b)
{
	crc ^= b;
	for (int k = 0; k < 8; k++)
		crc = crc >> 1 ^ (0xedb88320u & (0u - (crc & 1)));
	return crc;
}

static int header_byte(struct gh_dm *dm, uint32_t *crc, unsigned *b)
{
	if (take(dm, 8, b))
		return -1;
	*crc = crc_byte(*crc, *b);
	return 0;
}

/* A gzip member header, at a byte boundary; -1 with dm->why. */
static int read_member_header(struct gh_dm *dm)
{
	uint32_t crc = 0xffffffffu;
	unsigned b[10], flags, x;

	align_byte(dm);
	for (int i = 0; i < 10; i++)
		if (header_byte(dm, &crc, &b[i]))
			return -1;
	if (b[0] != 0x1f || b[1] != 0x8b) {
		dm->why = "incorrect header check";
		return -1;
	}
	if (b[2] != 8) {
		dm->why = "unknown compression method";
		return -1;
	}
	flags = b[3];
	if (flags & FRESERVED) {
		dm->why = "unknown header flags set";
		return -1;
	}
	if (flags & FEXTRA) {
		unsigned lo, hi;

		if (header_byte(dm, &crc, &lo) || header_byte(dm, &crc, &hi))
			return -1;
		for (unsigned n = lo | hi << 8; n; n--)
			if (header_byte(dm, &crc, &x))
				return -1;
	}
	for (unsigned f = FNAME; f <= FCOMMENT; f <<= 1) {
		if (!(flags & f))
			continue;
		do
			if (header_byte(dm, &crc, &x))
				return -1;
		while (x);
	}
	if (flags & FHCRC) {
		unsigned lo, hi;

		if (take(dm, 8, &lo) || take(dm, 8, &hi))
			return -1;
		if ((lo | hi << 8) != (~crc & 0xffff)) {
			dm->why = "header crc mismatch";
			return -1;
		}
	}
	return past_end(dm) ? (dm->why = "unexpected end of file", -1) : 0;
}

/* A dynamic block's code lengths and its tables; -1 with dm->why. */
static int read_dynamic(struct gh_dm *dm, struct gh_dm_table *t)
{
	uint8_t lens[286 + 30];
	uint8_t pre[19] = { 0 };
	unsigned hlit, hdist, hclen, have = 0;

	if (take(dm, 5, &hlit) || take(dm, 5, &hdist) || take(dm, 4, &hclen))
		return -1;
	hlit += 257;
	hdist += 1;
	hclen += 4;
	if (hlit > 286 || hdist > 30) {
		dm->why = "too many length or distance symbols";
		return -1;
	}
	for (unsigned i = 0; i < hclen; i++) {
		unsigned v;

		if (take(dm, 3, &v))
			return -1;
		pre[precode_order[i]] = (uint8_t)v;
	}
	if (build(t->pre, PRE_BITS, pre, 19, T_CODES)) {
		dm->why = "invalid code lengths set";
		return -1;
	}
	while (have < hlit + hdist) {
		uint32_t e;
		unsigned rep, val, extra;

		if (dm->bitcnt < 16 && refill_slow(dm))
			return -1;
		e = t->pre[dm->bitbuf & ((1u << PRE_BITS) - 1)];
		if (E_KIND(e) == K_BAD) {
			/* zlib reads on and fails at the missing end-of-block */
			dm->why = "invalid code lengths set";
			return -1;
		}
		dm->bitbuf >>= E_LEN(e);
		dm->bitcnt -= E_LEN(e);
		val = E_VAL(e);
		if (val < 16) {
			lens[have++] = (uint8_t)val;
			continue;
		}
		if (val == 16) {
			if (have == 0) {
				dm->why = "invalid bit length repeat";
				return -1;
			}
			if (take(dm, 2, &extra))
				return -1;
			rep = 3 + extra;
			val = lens[have - 1];
		} else {
			if (take(dm, val == 17 ? 3 : 7, &extra))
				return -1;
			rep = (val == 17 ? 3 : 11) + extra;
			val = 0;
		}
		if (have + rep > hlit + hdist) {
			dm->why = "invalid bit length repeat";
			return -1;
		}
		memset(lens + have, (int)val, rep);
		have += rep;
	}
	if (lens[256] == 0) {
		dm->why = "invalid code -- missing end-of-block";
		return -1;
	}
	if (build(t->lit, LIT_BITS, lens, hlit, T_LENS)) {
		dm->why = "invalid literal/lengths set";
		return -1;
	}
	pair_literals(t->lit);
	if (build(t->dist, DIST_BITS, lens + hlit, hdist, T_DISTS)) {
		dm->why = "invalid distances set";
		return -1;
	}
	t->cur_lit = t->lit;
	t->cur_dist = t->dist;
	return 0;
}

/* A block header at the position: its tables, or stored length. */
static int read_block_header(struct gh_dm *dm)
{
	unsigned last, type;

	if (take(dm, 1, &last) || take(dm, 2, &type))
		return -1;
	dm->last_block = last;
	switch (type) {
	case 0: {
		unsigned b[4];

		align_byte(dm);
		for (int i = 0; i < 4; i++)
			if (take(dm, 8, &b[i]))
				return -1;
		unsigned len = b[0] | b[1] << 8, nlen = b[2] | b[3] << 8;

		if (len != (~nlen & 0xffff)) {
			dm->why = "invalid stored block lengths";
			return -1;
		}
		dm->stored_left = len;
		dm->state = ST_STORED;
		return 0;
	}
	case 1:
		dm->t->cur_lit = dm->t->fixed_lit;
		dm->t->cur_dist = dm->t->fixed_dist;
		dm->state = ST_HUFF;
		return 0;
	case 2:
		if (read_dynamic(dm, dm->t))
			return -1;
		dm->state = ST_HUFF;
		return 0;
	default:
		dm->why = "invalid block type";
		return -1;
	}
}

/* ---- decoding ---- */

int gh_dm_start(struct gh_dm *dm, struct gh_dm_input *in, uint64_t bit,
		enum gh_dm_at at, uint16_t *out, uint64_t cap, uint64_t lim,
		uint64_t stop_bit)
{
	struct gh_dm_table *t = dm->t;
	struct gh_dm_member_end *ends = dm->ends;
	int cap_ends = dm->cap_ends;

	if (!t) {
		t = malloc(sizeof(*t));
		if (!t)
			return -1;
		build_fixed(t);
	}
	memset(dm, 0, sizeof(*dm));
	dm->t = t;
	dm->ends = ends;
	dm->cap_ends = cap_ends;
	dm->in = in;
	dm->next = bit / 8 - in->base;
	dm->out = out;
	dm->pos = GH_WINDOW;
	dm->cap = cap;
	dm->lim = lim;
	dm->member_at = -1;
	dm->stop_bit = stop_bit;
	dm->state = at == GH_DM_AT_MEMBER ? ST_MEMBER : ST_BLOCK;
	if (bit % 8) {
		unsigned skip;

		if (take(dm, (unsigned)(bit % 8), &skip))
			return 0;       /* gh_dm_run() reports it */
	}
	return 0;
}

uint64_t gh_dm_total(const struct gh_dm *dm)
{
	return dm->flushed + dm->pos - GH_WINDOW;
}

/* Copies a stored block's bytes, as many as there is room for. */
static inline __attribute__((always_inline)) int
stored_walk(struct gh_dm *dm)
{
	struct gh_dm_input *in = dm->in;

	while (dm->stored_left && dm->pos < dm->cap) {
		if (dm->bitcnt >= 8) {          /* bytes already loaded */
			dm->out[dm->pos] = dm->bitbuf & 255;
			dm->pos++;
			dm->bitbuf >>= 8;
			dm->bitcnt -= 8;
			dm->stored_left--;
			continue;
		}
		/* The rest straight from the input.  The bit buffer is empty
		 * now, but a refill of eight bytes at once (the Huffman
		 * decoder's) may have left the low bits of the byte at next
		 * above its count: harmless while that byte is loaded next,
		 * wrong once it is copied here instead, as the next refill
		 * would add them to whatever byte it loads. */
		dm->bitbuf = 0;
		if (dm->next >= in->len) {
			if (in->at_eof) {
				dm->why = "unexpected end of file";
				return -1;
			}
			if (more_input(dm))
				return -1;
			continue;
		}
		uint64_t n = in->len - dm->next;

		if (n > dm->stored_left)
			n = dm->stored_left;
		if (n > dm->cap - dm->pos)
			n = dm->cap - dm->pos;
		for (uint64_t k = 0; k < n; k++)
			dm->out[dm->pos + k] = in->data[dm->next + k];
		dm->pos += n;
		dm->next += n;
		dm->stored_left -= (uint32_t)n;
	}
	if (dm->stored_left)
		return 0;
	dm->state = dm->last_block ? ST_TRAILER : ST_BLOCK;
	return 0;
}

/* The one or two literals of entry e (pair_literals) at dst; a single
 * one writes a second symbol past it, which the next step overwrites. */
static inline void put_literals(uint16_t *dst, uint32_t e)
{
	dst[0] = (uint16_t)(E_VAL(e) & 255);
	dst[1] = (uint16_t)(E_VAL(e) >> 8);
}

/* Copies len symbols from dist back; the source is valid (checked). */
static inline void copy_back(uint16_t *dst, unsigned dist, unsigned len)
{
	const uint16_t *src = dst - dist;

	if (dist >= 32 && len <= 32) {  /* most matches: no loop at all */
		memcpy(dst, src, 32);
		memcpy(dst + 16, src + 16, 32);
	} else if (dist >= 16) {        /* 32-byte steps, may write past len */
		uint16_t *end = dst + len;

		do {
			memcpy(dst, src, 32);
			dst += 16;
			src += 16;
		} while (dst < end);
	} else if (dist >= 8) {         /* 16-byte steps */
		uint16_t *end = dst + len;

		do {
			memcpy(dst, src, 16);
			dst += 8;
			src += 8;
		} while (dst < end);
	} else if (dist == 1) {
		uint16_t v = *src;

		for (unsigned k = 0; k < len; k++)
			dst[k] = v;
	} else {
		for (unsigned k = 0; k < len; k++)
			dst[k] = src[k];
	}
}

/* The symbols of a Huffman block until its end, a full buffer or an
 * error.  The hot loop: bit buffer and positions in locals. */
static inline __attribute__((always_inline)) int
huffman_walk(struct gh_dm *dm)
{
	const uint32_t *lit = dm->t->cur_lit, *dist = dm->t->cur_dist;
	const unsigned char *data = dm->in->data;
	uint64_t len = dm->in->len, next = dm->next, bitbuf = dm->bitbuf;
	unsigned bitcnt = dm->bitcnt;
	uint16_t *out = dm->out;
	uint64_t pos = dm->pos;
	const uint64_t cap = dm->cap, lim = dm->lim;
	int ret = 0;
	uint32_t e;

/* At least 56 bits in bitbuf: enough for a length and a distance with
 * their extra bits (48). */
#define REFILL()							\
	do {								\
		if (next + 8 <= len) {					\
			bitbuf |= load64(data + next) << bitcnt;	\
			next += (63 - bitcnt) >> 3;			\
			bitcnt |= 56;					\
		} else {						\
			dm->next = next;				\
			dm->bitbuf = bitbuf;				\
			dm->bitcnt = bitcnt;				\
			if (refill_slow(dm)) {				\
				ret = -1;				\
				goto out;				\
			}						\
			data = dm->in->data;				\
			len = dm->in->len;				\
			next = dm->next;				\
			bitbuf = dm->bitbuf;				\
			bitcnt = dm->bitcnt;				\
		}							\
	} while (0)

	/* The next symbol's entry is looked up ahead, so that its load
	 * overlaps the work (a copy) of the symbol before it. */
	REFILL();
	e = lit[bitbuf & ((1u << LIT_BITS) - 1)];
	for (;;) {
		if (pos >= cap)
			break;          /* e is looked up again on return */
		if (E_KIND(e) == K_SUB) {
			bitbuf >>= LIT_BITS;
			bitcnt -= LIT_BITS;
			e = lit[E_VAL(e) + (bitbuf & ((1u << E_EXTRA(e)) - 1))];
		}
		bitbuf >>= E_LEN(e);
		bitcnt -= E_LEN(e);
		if (E_KIND(e) == K_LIT) {
			put_literals(out + pos, e);
			pos += E_EXTRA(e);
			/* Three more entries of literals without a refill: a
			 * primary entry is at most LIT_BITS, and
			 * 56 - 15 >= 3 * 11. */
			for (int k = 0; k < 3; k++) {
				e = lit[bitbuf & ((1u << LIT_BITS) - 1)];
				if (E_KIND(e) != K_LIT)
					break;
				bitbuf >>= E_LEN(e);
				bitcnt -= E_LEN(e);
				put_literals(out + pos, e);
				pos += E_EXTRA(e);
			}
			REFILL();
			e = lit[bitbuf & ((1u << LIT_BITS) - 1)];
			continue;
		}
		if (E_KIND(e) == K_LEN) {
			unsigned length = E_VAL(e) +
				(unsigned)(bitbuf & ((1u << E_EXTRA(e)) - 1));

			bitbuf >>= E_EXTRA(e);
			bitcnt -= E_EXTRA(e);
			e = dist[bitbuf & ((1u << DIST_BITS) - 1)];
			if (E_KIND(e) == K_SUB) {
				bitbuf >>= DIST_BITS;
				bitcnt -= DIST_BITS;
				e = dist[E_VAL(e) +
					 (bitbuf & ((1u << E_EXTRA(e)) - 1))];
			}
			bitbuf >>= E_LEN(e);
			bitcnt -= E_LEN(e);
			if (E_KIND(e) != K_DIST) {
				dm->why = "invalid distance code";
				ret = -1;
				break;
			}
			unsigned d = E_VAL(e) +
				(unsigned)(bitbuf & ((1u << E_EXTRA(e)) - 1));

			bitbuf >>= E_EXTRA(e);
			bitcnt -= E_EXTRA(e);
			if (d > pos - lim) {
				dm->why = "invalid distance too far back";
				ret = -1;
				break;
			}
			REFILL();
			e = lit[bitbuf & ((1u << LIT_BITS) - 1)];
			copy_back(out + pos, d, length);
			pos += length;
			continue;
		}
		if (E_KIND(e) == K_EOB) {
			dm->state = dm->last_block ? ST_TRAILER : ST_BLOCK;
			break;
		}
		dm->why = "invalid literal/length code";
		ret = -1;
		break;
	}
#undef REFILL
out:
	dm->next = next;
	dm->bitbuf = bitbuf;
	dm->bitcnt = bitcnt;
	dm->pos = pos;
	return ret;
}

/* The trailer after a member's last block. */
static int trailer(struct gh_dm *dm)
{
	unsigned b[8];
	struct gh_dm_member_end *end;

	if (dm->n_ends == dm->cap_ends) {
		int cap = dm->cap_ends ? 2 * dm->cap_ends : 64;
		struct gh_dm_member_end *e = realloc(dm->ends,
						     (size_t)cap * sizeof(*e));

		if (!e) {
			dm->why = "out of memory";
			return -1;
		}
		dm->ends = e;
		dm->cap_ends = cap;
	}
	end = &dm->ends[dm->n_ends];
	align_byte(dm);
	for (int i = 0; i < 8; i++)
		if (take(dm, 8, &b[i]))
			return -1;
	if (past_end(dm)) {
		dm->why = "unexpected end of file";
		return -1;
	}
	end->out_end = dm->pos;
	end->want_crc = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	end->want_size = b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24;
	dm->n_ends++;
	dm->state = ST_AFTER;
	return 0;
}

/* After a member: another member (1), the clean end after zero padding
 * (0), or trailing garbage (-1), as gunzip.c decides. */
static int after_member(struct gh_dm *dm)
{
	if (refill_slow(dm))
		return -1;
	int64_t left = bits_left(dm);

	if (left >= 16 && (dm->bitbuf & 0xffff) == 0x8b1f)
		return 1;
	while (left > 0) {
		unsigned b;

		if (take(dm, 8, &b))
			return -1;
		if (b) {
			dm->why = "trailing garbage after gzip data";
			return -1;
		}
		left = bits_left(dm);
		if (left == INT64_MAX && refill_slow(dm))
			return -1;
		left = bits_left(dm);
	}
	return 0;
}

/* Whether the block at the position is one gh_dm_find_start() could
 * propose (dynamic or stored, not the last): a decoder stops only at
 * those, so that the next task's guess can be confirmed.  Fixed blocks
 * (pigz writes an empty one before each flush) and last blocks are
 * decoded on. */
static bool startable(struct gh_dm *dm)
{
	if (dm->bitcnt < 3 && refill_slow(dm))
		return true;    /* gh_dm_run() will fail at the same place */
	unsigned head = dm->bitbuf & 7;

	return head == 0 || head == 4;
}

enum gh_dm_status gh_dm_run(struct gh_dm *dm)
{
	for (;;) {
		if (past_end(dm)) {
			dm->why = "unexpected end of file";
			return GH_DM_ERROR;
		}
		switch (dm->state) {
		case ST_MEMBER:
			if (read_member_header(dm))
				return GH_DM_ERROR;
			dm->member_at = (int64_t)gh_dm_total(dm);
			dm->lim = dm->pos;
			dm->state = ST_BLOCK;
			break;
		case ST_BLOCK:
			if (gh_dm_bit(dm) >= dm->stop_bit &&
			    startable(dm))
				return GH_DM_STOP;
			if (dm->pos >= dm->cap)
				return GH_DM_FULL;
			if (read_block_header(dm))
				return GH_DM_ERROR;
			break;
		case ST_STORED:
			if (dm->pos >= dm->cap)
				return GH_DM_FULL;
			if (stored_walk(dm))
				return GH_DM_ERROR;
			break;
		case ST_HUFF:
			if (dm->pos >= dm->cap)
				return GH_DM_FULL;
			if (huffman_walk(dm))
				return GH_DM_ERROR;
			break;
		case ST_TRAILER:
			if (trailer(dm))
				return GH_DM_ERROR;
			break;
		case ST_AFTER: {
			int more = after_member(dm);

			if (more < 0)
				return GH_DM_ERROR;
			if (!more)
				return GH_DM_END;
			if (gh_dm_bit(dm) >= dm->stop_bit)
				return GH_DM_STOP;
			dm->state = ST_MEMBER;
			break;
		}
		}
	}
}

enum gh_dm_at gh_dm_where(const struct gh_dm *dm)
{
	return dm->state == ST_AFTER ? GH_DM_AT_MEMBER : GH_DM_AT_BLOCK;
}

void gh_dm_flushed(struct gh_dm *dm)
{
	uint64_t shift = dm->pos - GH_WINDOW;

	memmove(dm->out, dm->out + shift, GH_WINDOW * sizeof(*dm->out));
	dm->flushed += shift;
	dm->pos = GH_WINDOW;
	dm->lim = dm->lim > shift ? dm->lim - shift : 0;
	dm->n_ends = 0;
}

void gh_dm_end(struct gh_dm *dm)
{
	free(dm->t);
	free(dm->ends);
	dm->t = NULL;
	dm->ends = NULL;
	dm->cap_ends = 0;
}

/* The portable resolve: narrowing vectorised by the compiler, table
 * look-ups one symbol at a time. */
static void resolve_c(const uint16_t *restrict sym, uint64_t n,
		      const unsigned char *restrict map,
		      unsigned char *restrict dst)
{
	uint64_t i = 0;

	for (; i + 64 <= n; i += 64) {
		uint16_t any = 0;

		for (int k = 0; k < 64; k++)
			any |= sym[i + k];
		if (any < 256)
			for (int k = 0; k < 64; k++)
				dst[i + k] = (unsigned char)sym[i + k];
		else
			for (int k = 0; k < 64; k++)
				dst[i + k] = map[sym[i + k]];
	}
	for (; i < n; i++)
		dst[i] = map[sym[i]];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* Sixteen symbols at a time: narrowed where none is a mark (most runs of
 * a region that started at a member), else gathered from the map (log
 * text keeps copying strings first seen in the unknown window: four
 * symbols in five of a region can be marks). */
__attribute__((target("avx2")))
static void resolve_avx2(const uint16_t *restrict sym, uint64_t n,
			 const unsigned char *restrict map,
			 unsigned char *restrict dst)
{
	const __m256i high = _mm256_set1_epi16((short)0xff00);
	const __m256i low_byte = _mm256_set1_epi32(0xff);
	uint64_t i = 0;

	for (; i + 16 <= n; i += 16) {
		__m256i s = _mm256_loadu_si256((const __m256i *)(sym + i));
		__m128i bytes;

		if (_mm256_testz_si256(s, high)) {
			bytes = _mm_packus_epi16(_mm256_castsi256_si128(s),
						 _mm256_extracti128_si256(s, 1));
		} else {
			__m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(s));
			__m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(s, 1));
			__m256i glo = _mm256_and_si256(low_byte,
				_mm256_i32gather_epi32((const int *)map, lo, 1));
			__m256i ghi = _mm256_and_si256(low_byte,
				_mm256_i32gather_epi32((const int *)map, hi, 1));
			__m256i w = _mm256_permute4x64_epi64(
				_mm256_packus_epi32(glo, ghi), 0xd8);

			bytes = _mm_packus_epi16(_mm256_castsi256_si128(w),
						 _mm256_extracti128_si256(w, 1));
		}
		_mm_storeu_si128((__m128i *)(dst + i), bytes);
	}
	resolve_c(sym + i, n - i, map, dst + i);
}
#endif

void gh_dm_resolve(const uint16_t *restrict sym, uint64_t n,
		   const unsigned char *restrict map, unsigned char *restrict dst)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2")) {
		resolve_avx2(sym, n, map, dst);
		return;
	}
#endif
	resolve_c(sym, n, map, dst);
}

/* ---- finding a place to start ---- */

/* Bits [bit, bit + 57) of the input, from data that covers them. */
static inline uint64_t peek_bits(const struct gh_dm_input *in, uint64_t bit)
{
	uint64_t at = bit / 8 - in->base;

	if (at + 8 <= in->len)
		return load64(in->data + at) >> (bit % 8);
	uint64_t v = 0;

	for (uint64_t k = 0; k < 8 && at + k < in->len; k++)
		v |= (uint64_t)in->data[at + k] << (8 * k);
	return v >> (bit % 8);
}

/* Kraft sums of four 3-bit code lengths (in 1/128ths): 64 for a length
 * of one, 1 for seven, 0 for an unused symbol. */
static uint16_t kraft4[1 << 12];

static void kraft4_init(void)
{
	for (unsigned v = 0; v < 1u << 12; v++) {
		unsigned sum = 0;

		for (unsigned k = 0; k < 4; k++) {
			unsigned len = v >> (3 * k) & 7;

			sum += len ? 128u >> len : 0;
		}
		kraft4[v] = (uint16_t)sum;
	}
}

/* Whether the code lengths' code of a dynamic header at `bit` (its 17
 * fixed bits already checked) is complete, as zlib demands. */
static inline bool precode_complete(const struct gh_dm_input *in,
				    uint64_t bit, unsigned hclen)
{
	uint64_t v = peek_bits(in, bit + 17) & ((1ull << (3 * hclen)) - 1);

	return kraft4[v & 0xfff] + kraft4[v >> 12 & 0xfff] +
	       kraft4[v >> 24 & 0xfff] + kraft4[v >> 36 & 0xfff] +
	       kraft4[v >> 48 & 0xfff] == 128;
}

/* Decodes the header at `bit` as a decoder would: 0 when well-formed. */
static int try_header(struct gh_dm_input *in, struct gh_dm *dm,
		      uint64_t bit, enum gh_dm_at at)
{
	if (gh_dm_start(dm, in, bit, at, NULL, 0, 0, UINT64_MAX))
		return -1;
	if (at == GH_DM_AT_MEMBER && read_member_header(dm))
		return -1;
	return read_block_header(dm);
}

/* The first gzip member header (1f 8b 08, no reserved flag) at a byte of
 * [from, to) bits, as a bit position; UINT64_MAX when there is none. */
static uint64_t next_member(const struct gh_dm_input *in, uint64_t from,
			    uint64_t to)
{
	uint64_t at = (from + 7) / 8, end = (to + 7) / 8;

	while (at < end) {
		const unsigned char *d = in->data + (at - in->base);
		const unsigned char *hit = memchr(d, 0x1f, end - at);

		if (!hit)
			break;
		at += (uint64_t)(hit - d);
		uint64_t v = peek_bits(in, at * 8);

		if ((v & 0xffffff) == 0x088b1f && !((v >> 24) & FRESERVED))
			return at * 8;
		at++;
	}
	return UINT64_MAX;
}

/*
 * Candidates are tested 44 bit positions at a time: one 57-bit load holds
 * the 13 header bits of each, and masks pick the positions whose bits say
 * "dynamic block, not the last, at most 286 and 30 codes" (about one in
 * ten) or "stored block, not the last"; only those are looked at further,
 * cheapest test first.
 */
int gh_dm_find_start(struct gh_dm_input *in, uint64_t from, uint64_t to,
		     uint64_t *bit, enum gh_dm_at *at)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct gh_dm dm = { .t = NULL, .ends = NULL };
	int found = 0;

	pthread_once(&once, kraft4_init);
	/* The headers looked at may run some way past `to`. */
	while (!in->at_eof && (in->base + in->len) * 8 < to + 8 * 4096)
		if (in->more(in->ctx, in))
			return -1;
	if ((in->base + in->len) * 8 < to)
		to = (in->base + in->len) * 8;
	uint64_t member = next_member(in, from, to);

	for (uint64_t q0 = from; q0 < to && !found; q0 += 44) {
		uint64_t v = peek_bits(in, q0);
		uint64_t span = to - q0 < 44 ? to - q0 : 44;
		uint64_t live = (1ull << span) - 1;
		uint64_t dyn = ~v & ~(v >> 1) & (v >> 2) &
			       ~((v >> 4) & (v >> 5) & (v >> 6) & (v >> 7)) &
			       ~((v >> 9) & (v >> 10) & (v >> 11) & (v >> 12)) & live;
		uint64_t sto = ~v & ~(v >> 1) & ~(v >> 2) & live;
		uint64_t mem = member >= q0 && member < q0 + span
			       ? 1ull << (member - q0) : 0;

		for (uint64_t m = dyn | sto | mem; m && !found; m &= m - 1) {
			unsigned k = (unsigned)__builtin_ctzll(m);
			uint64_t q = q0 + k;

			if (mem >> k & 1) {
				if (!try_header(in, &dm, q, GH_DM_AT_MEMBER)) {
					*at = GH_DM_AT_MEMBER;
					found = 1;
				} else {
					/* The next candidate member may lie
					 * further on in this same window. */
					member = next_member(in, q + 8, to);
					if (member < q0 + span) {
						mem |= 1ull << (member - q0);
						m |= 1ull << (member - q0);
					}
				}
			} else if (sto >> k & 1) {
				uint64_t w = peek_bits(in, (q + 3 + 7) / 8 * 8);

				if (((w ^ (w >> 16)) & 0xffff) == 0xffff &&
				    !try_header(in, &dm, q, GH_DM_AT_BLOCK)) {
					*at = GH_DM_AT_BLOCK;
					found = 1;
				}
			} else if (precode_complete(in, q, (unsigned)((v >> (k + 13)) & 15) + 4) &&
				   !try_header(in, &dm, q, GH_DM_AT_BLOCK)) {
				*at = GH_DM_AT_BLOCK;
				found = 1;
			}
			if (found)
				*bit = q;
		}
	}
	gh_dm_end(&dm);
	return found;
}

bool gh_dm_same_start(struct gh_dm_input *in, uint64_t bit, enum gh_dm_at at,
		      uint64_t cand, enum gh_dm_at cand_at)
{
	if (at != cand_at)
		return false;
	if (bit == cand)
		return true;
	/* Two stored headers whose length fields are at the same byte. */
	return at == GH_DM_AT_BLOCK &&
	       (peek_bits(in, bit) & 7) == 0 && (peek_bits(in, cand) & 7) == 0 &&
	       (bit + 10) / 8 == (cand + 10) / 8;
}
