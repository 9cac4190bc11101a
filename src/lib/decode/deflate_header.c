/* deflate_header.c - zlib's verdict on one deflate block header
 *
 * The same checks in the same order as zlib's inflate() (TYPE, STORED,
 * TABLE, LENLENS, CODELENS) and inflate_table(): too many symbols, an
 * over-subscribed or incomplete code (incomplete is taken only for a
 * literal/length or distance code whose longest code is one bit, and a
 * code-length code of no codes at all reads every length as 0 from one
 * bit, as zlib's table of invalid entries does), bad repeats, a missing
 * end-of-block code.  Only the verdict is needed: no decoding tables are
 * built except the small one the code lengths are read with.
 */
#include "config.h"

#include <string.h>

#include "deflate_header.h"

static const uint8_t lens_order[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

struct bits {
	const unsigned char *data;
	size_t len;
	uint64_t pos;           /* bits taken */
};

/* Takes n <= 16 bits; -1 when the data ends first. */
static int take(struct bits *b, unsigned n, unsigned *v)
{
	unsigned got = 0;

	if (b->pos + n > (uint64_t)b->len * 8)
		return -1;
	for (unsigned i = 0; i < n; i++, b->pos++)
		got |= (unsigned)(b->data[b->pos / 8] >> (b->pos % 8) & 1) << i;
	*v = got;
	return 0;
}

/* zlib's verdict on a code's lengths: 0, or -1 where inflate_table()
 * refuses it; *partial when it is taken though not complete. */
static int judge_code(const uint8_t *lens, unsigned n, int codes,
		      unsigned *partial)
{
	unsigned count[16] = { 0 }, max;
	int left = 1;

	for (unsigned i = 0; i < n; i++)
		count[lens[i]]++;
	for (max = 15; max >= 1 && !count[max]; max--)
		;
	*partial = 1;
	if (max == 0)
		return 0;
	for (unsigned len = 1; len <= 15; len++) {
		left = (left << 1) - (int)count[len];
		if (left < 0)
			return -1;
	}
	if (left > 0 && (codes || max != 1))
		return -1;
	*partial = left > 0;
	return 0;
}

/* The code-length code as a table of the next 7 bits: symbol << 4 | its
 * length; all entries 0 << 4 | 1 when it has no codes (zlib's reading). */
static void length_table(const uint8_t *lens, uint8_t *sym, uint8_t *len)
{
	unsigned count[8] = { 0 }, next[8], code;

	for (unsigned i = 0; i < 19; i++)
		count[lens[i]]++;
	count[0] = 0;
	next[1] = 0;
	for (unsigned l = 1; l < 7; l++)
		next[l + 1] = (next[l] + count[l]) << 1;
	for (unsigned i = 0; i < 128; i++) {
		sym[i] = 0;
		len[i] = 1;
	}
	for (unsigned s = 0; s < 19; s++) {
		unsigned l = lens[s], rev = 0;

		if (!l)
			continue;
		code = next[l]++;
		for (unsigned k = 0; k < l; k++)
			rev |= (code >> k & 1) << (l - 1 - k);
		for (unsigned k = rev; k < 128; k += 1u << l) {
			sym[k] = (uint8_t)s;
			len[k] = (uint8_t)l;
		}
	}
}

/* The next code length symbol; -1 when the data ends first. */
static int length_symbol(struct bits *b, const uint8_t *sym,
			 const uint8_t *len, unsigned *s)
{
	uint64_t left = (uint64_t)b->len * 8 - b->pos;
	unsigned have = left < 7 ? (unsigned)left : 7, peek = 0;

	for (unsigned i = 0; i < have; i++)
		peek |= (unsigned)(b->data[(b->pos + i) / 8] >> ((b->pos + i) % 8) & 1) << i;
	if (len[peek] > have)
		return -1;
	*s = sym[peek];
	b->pos += len[peek];
	return 0;
}

static enum gh_dh_result bad(struct gh_dh_block *block, const char *why)
{
	block->why = why;
	return GH_DH_BAD;
}

static enum gh_dh_result dynamic(struct bits *b, struct gh_dh_block *block)
{
	uint8_t pre[19] = { 0 }, lens[286 + 30], sym[128], len[128];
	unsigned nlen, ndist, ncode, have = 0, v, unused;

	if (take(b, 5, &nlen) || take(b, 5, &ndist) || take(b, 4, &ncode))
		return GH_DH_MORE;
	nlen += 257;
	ndist += 1;
	ncode += 4;
	if (nlen > 286 || ndist > 30)
		return bad(block, "too many length or distance symbols");
	for (unsigned i = 0; i < ncode; i++) {
		if (take(b, 3, &v))
			return GH_DH_MORE;
		pre[lens_order[i]] = (uint8_t)v;
	}
	if (judge_code(pre, 19, 1, &unused))
		return bad(block, "invalid code lengths set");
	length_table(pre, sym, len);
	while (have < nlen + ndist) {
		unsigned s, rep, fill;

		if (length_symbol(b, sym, len, &s))
			return GH_DH_MORE;
		if (s < 16) {
			lens[have++] = (uint8_t)s;
			continue;
		}
		if (s == 16) {
			if (have == 0)
				return bad(block, "invalid bit length repeat");
			fill = lens[have - 1];
			if (take(b, 2, &v))
				return GH_DH_MORE;
			rep = 3 + v;
		} else {
			fill = 0;
			if (take(b, s == 17 ? 3 : 7, &v))
				return GH_DH_MORE;
			rep = (s == 17 ? 3 : 11) + v;
		}
		if (have + rep > nlen + ndist)
			return bad(block, "invalid bit length repeat");
		memset(lens + have, (int)fill, rep);
		have += rep;
	}
	if (lens[256] == 0)
		return bad(block, "invalid code -- missing end-of-block");
	if (judge_code(lens, nlen, 0, &block->lit_partial))
		return bad(block, "invalid literal/lengths set");
	if (judge_code(lens + nlen, ndist, 0, &block->dist_partial))
		return bad(block, "invalid distances set");
	return GH_DH_OK;
}

enum gh_dh_result gh_dh_judge(const unsigned char *data, size_t len,
			      unsigned skip, struct gh_dh_block *block)
{
	struct bits b = { data, len, skip };
	unsigned v[4];

	memset(block, 0, sizeof(*block));
	if (take(&b, 1, &block->last) || take(&b, 2, &block->type))
		return GH_DH_MORE;
	switch (block->type) {
	case 0:
		b.pos = (b.pos + 7) / 8 * 8;
		for (int i = 0; i < 4; i++)
			if (take(&b, 8, &v[i]))
				return GH_DH_MORE;
		if ((v[0] | v[1] << 8) != (~(v[2] | v[3] << 8) & 0xffff))
			return bad(block, "invalid stored block lengths");
		return GH_DH_OK;
	case 1:
		block->lit_partial = block->dist_partial = 1;
		return GH_DH_OK;
	case 2:
		return dynamic(&b, block);
	default:
		return bad(block, "invalid block type");
	}
}
