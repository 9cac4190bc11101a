/* chars-check.c - TAP test: code points counted chunk by chunk, the edges
 * joined by seams.c whatever order the chunks come in, equal those counted
 * one position at a time over the whole stream; and the fast CPU count
 * equal to the one-position loop at every length and offset.  The stream
 * is text with every kind of UTF-8 sequence and ill-formed bytes; chunks
 * are cut at random lengths (1 byte up), grouped into pieces as the
 * parallel decoders make them, and submitted shuffled. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cpu/count_chars.h"
#include "gpuhist.h"
#include "join/seams.h"

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Bytes of text: ASCII, 2-, 3- and 4-byte characters, and ill-formed
 * bytes (lone continuations, truncations, overlongs, surrogates). */
static void make_text(unsigned char *p, size_t n, uint32_t seed)
{
	static const char *const pieces[] = {
		"a", "bc", " ", "\n", "\xc3\xa9", "\xd0\xb6", "\xe6\x97\xa5",
		"\xe3\x81\xae", "\xf0\x9f\x98\x80", "\x80", "\xbf", "\xc3",
		"\xe6\x97", "\xf0\x9f\x98", "\xc0\x80", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xff", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",
	};
	uint32_t x = seed;
	size_t i = 0;

	while (i < n) {
		const char *s = pieces[rnd(&x) % 20];

		for (size_t k = 0; s[k] && i < n; k++)
			p[i++] = (unsigned char)s[k];
	}
}

static int same_chars(const struct gpuhist_chars *a,
		      const struct gpuhist_chars *b)
{
	for (uint32_t bin = 0; bin < GPUHIST_CHAR_BINS; bin++)
		if (gpuhist_chars_get(a, bin) != gpuhist_chars_get(b, bin))
			return 0;
	return 1;
}

struct cut {
	size_t at, len;
	uint64_t major, start;
	int last;
};

/* Cuts p[0..n) into chunks of 1..max bytes, in pieces of 1..pieces_max
 * chunks, submits them shuffled through seams (the last of each piece
 * marked, or left for gh_seams_end_piece), counts each chunk's middle
 * with the fast count, and compares with the count over the whole. */
static int joined(const unsigned char *p, size_t n, size_t max,
		  int pieces_max, uint32_t seed)
{
	struct gpuhist_chars want, got;
	struct gh_char_tally *t = gh_char_tally_new();
	struct cut *cuts = calloc(n + 1, sizeof(*cuts));
	struct gh_seams *s;
	uint32_t x = seed;
	size_t n_cuts = 0;
	uint64_t major = 0, start = 0;
	int in_piece = 0, piece_len = 1 + (int)(rnd(&x) % pieces_max), good;

	gpuhist_chars_init(&want);
	gpuhist_chars_init(&got);
	gh_count_chars_simple(p, n, 0, n, &want);
	s = gh_seams_new(&got);
	for (size_t at = 0; at < n;) {
		size_t len = 1 + rnd(&x) % max;

		if (len > n - at)
			len = n - at;
		cuts[n_cuts++] = (struct cut){ at, len, major, start, 0 };
		at += len;
		start += len;
		if (++in_piece == piece_len || at == n) {
			/* Half the pieces mark their last chunk, half end
			 * with gh_seams_end_piece. */
			cuts[n_cuts - 1].last = (rnd(&x) & 1) ? 1 : 2;
			major++;
			start = 0;
			in_piece = 0;
			piece_len = 1 + (int)(rnd(&x) % pieces_max);
		}
	}
	for (size_t i = n_cuts; i > 1; i--) {
		size_t j = rnd(&x) % i;
		struct cut c = cuts[i - 1];

		cuts[i - 1] = cuts[j];
		cuts[j] = c;
	}
	for (size_t i = 0; i < n_cuts; i++) {
		struct gh_chunk c = { .data = (unsigned char *)p + cuts[i].at };

		gh_seams_cut(s, &c, cuts[i].len, cuts[i].major, cuts[i].start,
			     cuts[i].last == 1);
		gh_count_chars(t, c.data, cuts[i].len, c.from, c.to);
		if (cuts[i].last == 2)
			gh_seams_end_piece(s, cuts[i].major,
					   cuts[i].start + cuts[i].len);
	}
	gh_char_tally_flush(t, &got);
	gh_seams_end(s, NULL, 0);
	good = same_chars(&want, &got);
	gh_seams_free(s);
	gh_char_tally_free(t);
	gpuhist_chars_free(&want);
	gpuhist_chars_free(&got);
	free(cuts);
	return good;
}

int main(void)
{
	enum { LEN = 1 << 16 };
	unsigned char *p = malloc(LEN);
	struct gpuhist_chars a, b;
	struct gh_char_tally *t = gh_char_tally_new();
	int all = 1;

	if (!p || !t)
		return 1;
	printf("1..6\n");
	make_text(p, LEN, 7);

	/* The fast count against the one-position loop, every length and
	 * start up to 100, with the bytes around as context. */
	for (size_t from = 0; from < 40 && all; from++)
		for (size_t len = 0; len < 100 && all; len++) {
			gpuhist_chars_init(&a);
			gpuhist_chars_init(&b);
			gh_count_chars(t, p, LEN, 1000 + from, 1000 + from + len);
			gh_char_tally_flush(t, &a);
			gh_count_chars_simple(p, LEN, 1000 + from,
					      1000 + from + len, &b);
			all = same_chars(&a, &b);
			gpuhist_chars_free(&a);
			gpuhist_chars_free(&b);
		}
	ok(all, "the fast count equals the one-position loop at every "
	   "start and length");

	all = 1;
	for (uint32_t seed = 1; seed <= 20 && all; seed++)
		all = joined(p, 20000, 13, 1, seed);
	ok(all, "chunks of 1..13 bytes in one piece, shuffled: exact");
	all = 1;
	for (uint32_t seed = 1; seed <= 20 && all; seed++)
		all = joined(p, 20000, 5, 7, seed);
	ok(all, "chunks of 1..5 bytes in pieces of 1..7, shuffled: exact");
	all = 1;
	for (uint32_t seed = 1; seed <= 10 && all; seed++)
		all = joined(p, LEN, 4096, 3, seed);
	ok(all, "chunks of up to 4 KiB in pieces of 1..3, shuffled: exact");
	ok(joined(p, 1, 1, 1, 3) && joined(p, 0, 1, 1, 3),
	   "one byte, and nothing at all");

	/* The bytes the characters came from are the stream's. */
	uint64_t from_chars[256], bytes[256] = { 0 };

	gpuhist_chars_init(&a);
	gh_count_chars_simple(p, LEN, 0, LEN, &a);
	for (size_t i = 0; i < LEN; i++)
		bytes[p[i]]++;
	ok(!gpuhist_chars_bytes(&a, from_chars) &&
	   !memcmp(from_chars, bytes, sizeof(bytes)),
	   "gpuhist_chars_bytes gives back the stream's byte totals");
	gpuhist_chars_free(&a);
	gh_char_tally_free(t);
	free(p);
	return 0;
}
