/* fuzz-tokens.c - libFuzzer harness: the tokens views against a one-pass
 * reference
 *
 * Arbitrary bytes are cut into chunks of arbitrary sizes, in pieces of
 * whole chunks (a parallel decoder's frames or members, some empty),
 * which are handed to tokens.c in an arbitrary order (as readers and
 * parallel decoders hand them over: out of order, each with its piece and
 * its start there), each piece's end told at an arbitrary point after its
 * chunks are cut (gh_tokens_end_piece), and the counts
 * must equal those of a reference that walks the whole buffer once, with
 * code of its own written from the rules (the man page's TOKENS): words
 * are maximal runs of bytes other than space, tab, CR and LF; lines are
 * split at newlines, a last piece counted only when not empty; a field is
 * the Nth run of non-blanks (space, tab) of a line, or the Nth piece
 * between separator bytes, or "" where there are fewer.  A disagreement
 * aborts.
 *
 * Half the chunks, chosen by the seed, are cut as the GPU backend cuts
 * them (gh_tokens_cut_ends: the ends kept, the inside left to the device)
 * and their inside counted by the reference itself standing in for the
 * device, each distinct unit added once with its count and hash
 * (gh_tokens_add), as gpu_tokens.c adds a chunk's list.
 *
 * The first byte chooses: bits 0-1 the view (words, lines, a field of
 * blanks, a field between separators), bits 2-4 the field (1..8), bits
 * 5-7 the largest chunk (1 .. 128 bytes); the second byte the separator;
 * the third seeds the chunk sizes and their order; the rest is the input.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhist.h"
#include "tokens/counts.h"
#include "tokens/table.h"
#include "tokens/tokens.h"

struct tok {
	const unsigned char *p;
	size_t len;
	uint64_t count;
};

struct ref {
	struct tok *t;
	size_t n, cap;
};

static void ref_add(struct ref *r, const unsigned char *p, size_t len)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->t = realloc(r->t, r->cap * sizeof(*r->t));
		if (!r->t)
			abort();
	}
	r->t[r->n++] = (struct tok){ p, len, 1 };
}

static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* The reference: one walk over the whole input. */
static void reference(const unsigned char *d, size_t n, int view, int field,
		      int sep, struct ref *r)
{
	if (view == GPUHIST_TOKENS_WORDS) {
		size_t i = 0;

		while (i < n) {
			while (i < n && strchr(" \t\r\n", d[i]) && d[i])
				i++;
			size_t from = i;

			while (i < n && !(strchr(" \t\r\n", d[i]) && d[i]))
				i++;
			if (i > from)
				ref_add(r, d + from, i - from);
		}
		return;
	}
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && d[i] != '\n')
			continue;
		if (i == n && start == n)
			break;          /* no last line without a newline */
		const unsigned char *line = d + start;
		size_t len = i - start;

		start = i + 1;
		if (view == GPUHIST_TOKENS_LINES) {
			ref_add(r, line, len);
			continue;
		}
		/* The field'th field, or "". */
		const unsigned char *f = line;
		size_t flen = 0;
		int k = 0;
		size_t j = 0;

		if (sep < 0) {
			while (j < len) {
				while (j < len && blank(line[j]))
					j++;
				size_t from = j;

				while (j < len && !blank(line[j]))
					j++;
				if (j > from && ++k == field) {
					f = line + from;
					flen = j - from;
					break;
				}
			}
		} else {
			size_t from = 0;

			for (j = 0; j <= len; j++) {
				if (j < len && line[j] != sep)
					continue;
				if (++k == field) {
					f = line + from;
					flen = j - from;
					break;
				}
				from = j + 1;
			}
		}
		ref_add(r, k == field ? f : line, k == field ? flen : 0);
	}
}

static int cmp_tok(const void *a, const void *b)
{
	const struct tok *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = n ? memcmp(x->p, y->p, n) : 0;

	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

/* Sorts and adds up equal tokens: the reference's counts. */
static void collapse(struct ref *r)
{
	size_t m = 0;

	if (r->n)
		qsort(r->t, r->n, sizeof(*r->t), cmp_tok);
	for (size_t i = 0; i < r->n; i++) {
		if (m && !cmp_tok(&r->t[m - 1], &r->t[i]))
			r->t[m - 1].count += r->t[i].count;
		else
			r->t[m++] = r->t[i];
	}
	r->n = m;
}

struct chunk {
	size_t at, len;
	uint64_t major, start;          /* its piece, where in it */
};

/* Tells tokens.c that piece k ended (its length in lens[k]); 0 or -1. */
static int end_piece(struct gh_tokens *t, const uint64_t *lens, size_t k)
{
	return gh_tokens_end_piece(t, k, lens[k]);
}

/* What the parts of a result hold, gathered. */
struct gathered {
	struct ref have;
	uint64_t total;
};

static int gather(void *ctx, const struct gpuhist_tokens *part)
{
	struct gathered *g = ctx;

	for (size_t i = 0; i < part->distinct; i++) {
		ref_add(&g->have, part->token[i].bytes, part->token[i].len);
		g->have.t[g->have.n - 1].count = part->token[i].count;
		g->total += part->token[i].count;
	}
	return 0;
}

/* Cuts a chunk as the GPU backend does, the reference counting what the
 * device would; 0 or -1. */
static int device_cut(struct gh_tokens *t, const struct gpuhist_options *o,
		      const unsigned char *p, size_t len, uint64_t major,
		      uint64_t start)
{
	uint64_t from, to;
	struct ref r = { 0 };
	int ret = 0;

	if (gh_tokens_cut_ends(t, p, len, major, start, &from, &to))
		return -1;
	reference(p + from, (size_t)(to - from), o->tokens, o->field,
		  o->separator, &r);
	collapse(&r);
	for (size_t i = 0; i < r.n && !ret; i++) {
		struct gh_unit u = { r.t[i].p, r.t[i].len,
				     gh_token_hash(r.t[i].p, r.t[i].len),
				     r.t[i].count };

		ret = gh_tokens_add(t, &u, 1);
	}
	free(r.t);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	struct gpuhist_options opts;
	int views[4] = { GPUHIST_TOKENS_WORDS, GPUHIST_TOKENS_LINES,
			 GPUHIST_TOKENS_FIELD, GPUHIST_TOKENS_FIELD };
	unsigned seed = data[2];
	const unsigned char *d = data + 3;
	size_t n = size - 3, most = (size_t)1 << (data[0] >> 5);

	memset(&opts, 0, sizeof(opts));        /* tokens.c reads these */
	opts.tokens = views[data[0] & 3];
	opts.field = 1 + (data[0] >> 2 & 7);
	opts.separator = (data[0] & 3) == 3 ? data[1] : -1;
	/* Half the runs spill, every table at a few tokens (64 of them). */
	opts.memory = data[2] & 1 ? 64 * (64 + (data[2] >> 1) * 16) : 0;

	/* Chunks of 1..most bytes, in pieces (a new one before a chunk one
	 * time in four, an empty one between one time in sixteen), handed
	 * over in a shuffled order. */
	struct chunk *c = malloc((n + 1) * sizeof(*c));
	uint64_t *lens = calloc(2 * n + 2, sizeof(*lens));
	size_t nc = 0, pieces = 1;

	if (!c || !lens)
		abort();
	for (size_t at = 0; at < n;) {
		seed = seed * 1103515245u + 12345u;
		size_t len = 1 + (seed >> 16) % most;

		if (nc && (seed >> 20 & 3) == 0) {
			if ((seed >> 22 & 15) == 0)
				pieces++;       /* an empty piece */
			pieces++;
		}
		if (len > n - at)
			len = n - at;
		c[nc++] = (struct chunk){ at, len, pieces - 1,
					  lens[pieces - 1] };
		lens[pieces - 1] += len;
		at += len;
	}
	for (size_t i = nc; i > 1; i--) {
		seed = seed * 1103515245u + 12345u;
		size_t j = (seed >> 16) % i;
		struct chunk t = c[i - 1];

		c[i - 1] = c[j];
		c[j] = t;
	}
	struct gh_tokens *t = gh_tokens_new(&opts);
	const struct gpuhist_tokens *got;

	if (!t)
		abort();
	/* A piece's end is told once its chunks are cut, at a point the
	 * seed picks: pending[] holds the pieces ready to be told. */
	size_t *left = calloc(pieces, sizeof(*left));
	size_t *pending = malloc(pieces * sizeof(*pending)), n_pending = 0;

	if (!left || !pending)
		abort();
	for (size_t i = 0; i < nc; i++)
		left[c[i].major]++;
	for (size_t k = 0; k < pieces; k++)
		if (!left[k])
			pending[n_pending++] = k;
	for (size_t i = 0; i < nc; i++) {
		seed = seed * 1103515245u + 12345u;
		if (seed >> 16 & 1
		    ? device_cut(t, &opts, d + c[i].at, c[i].len, c[i].major,
				 c[i].start)
		    : gh_tokens_cut(t, d + c[i].at, c[i].len, c[i].major,
				    c[i].start))
			abort();
		if (!--left[c[i].major])
			pending[n_pending++] = c[i].major;
		while (n_pending && (seed >> 18 & 1)) {
			seed = seed * 1103515245u + 12345u;
			size_t j = (seed >> 16) % n_pending;

			if (end_piece(t, lens, pending[j]))
				abort();
			pending[j] = pending[--n_pending];
		}
	}
	while (n_pending)
		if (end_piece(t, lens, pending[--n_pending]))
			abort();
	if (gh_tokens_end(t, n, &got))
		abort();

	struct ref want = { 0 };
	struct gathered g = { { 0 }, 0 };

	reference(d, n, opts.tokens, opts.field, opts.separator, &want);
	collapse(&want);
	/* In parts where they spilled (token NULL then). */
	if (gh_counts_each(gh_counts_of(got), gather, &g))
		abort();
	struct ref have = g.have;
	uint64_t total = g.total;

	if (have.n)
		qsort(have.t, have.n, sizeof(*have.t), cmp_tok);
	if (have.n != want.n || total != got->total ||
	    got->distinct != want.n)
		abort();
	for (size_t i = 0; i < want.n; i++)
		if (cmp_tok(&have.t[i], &want.t[i]) ||
		    have.t[i].count != want.t[i].count)
			abort();
	/* A missing chunk must be seen as one. */
	if (nc > 1) {
		gh_tokens_reset(t);
		for (size_t i = 1; i < nc; i++)
			if (gh_tokens_cut(t, d + c[i].at, c[i].len,
					  c[i].major, c[i].start))
				abort();
		for (size_t k = 0; k < pieces; k++)
			if (end_piece(t, lens, k))
				abort();
		if (!gh_tokens_end(t, n, &got))
			abort();
	}
	gh_tokens_free(t);
	free(want.t);
	free(have.t);
	free(c);
	free(lens);
	free(left);
	free(pending);
	return 0;
}
