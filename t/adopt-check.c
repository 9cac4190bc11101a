/* adopt-check.c - TAP test: an input's counts take a device's list of
 * distinct tokens whole (tokens/adopted.c, counts.c), without a GPU: the
 * list's records and its windows' index are made here as kernels/
 * tokens.cu's stamp leaves them (records in the order units were met,
 * the index from each record's place).  However the tokens are split
 * between the host's tables and the list, the result equals a plain sum
 * of both, made here by sorting; spilled past a memory limit, listed
 * twice, across windows, torn and overflowing too; and the host's units
 * listed for a device that picks the commonest, and such a pick adopted. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokens/adopted.h"
#include "tokens/bigmem.h"
#include "tokens/counts.h"
#include "tokens/table.h"

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A token and its count. */
struct tc {
	unsigned char *p;
	uint64_t len, count;
};

/* Token i: "t<i>" padded with dots to a length of up to 40, i == 0
 * the empty one. */
static struct tc token(uint64_t i, uint64_t count)
{
	char buf[64];
	int n = i ? snprintf(buf, sizeof(buf), "t%" PRIu64, i) : 0;
	uint64_t len = i ? (uint64_t)n + i % 29 : 0;
	struct tc t = { malloc(len + 1), len, count };

	for (uint64_t k = 0; k < len; k++)
		t.p[k] = k < (uint64_t)n ? (unsigned char)buf[k] : '.';
	return t;
}

/* The list a device would hand over of tokens tc[0, n), records in a
 * shuffled order. */
static struct gh_adopted list_of(const struct tc *tc, uint64_t n)
{
	struct gh_adopted a = { 0 };
	uint64_t *order = malloc((n ? n : 1) * sizeof(*order)), at = 0;

	for (uint64_t i = 0; i < n; i++) {
		order[i] = i;
		a.bytes += gh_adopted_record_bytes(tc[i].len);
	}
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = next() % i, x = order[i - 1];

		order[i - 1] = order[j];
		order[j] = x;
	}
	a.data = gh_big_alloc(a.bytes, false);
	a.windows = gh_adopted_windows(a.bytes);
	a.first = malloc(a.windows * sizeof(*a.first));
	a.n = calloc(a.windows, sizeof(*a.n));
	a.distinct = n;
	memset(a.first, 0xff, a.windows * sizeof(*a.first));
	for (uint64_t k = 0; k < n; k++) {
		const struct tc *t = &tc[order[k]];
		struct gh_adopted_record *r = (void *)(a.data + at);
		uint64_t w = at >> GH_ADOPTED_WINDOW_BITS;

		*r = (struct gh_adopted_record){
			gh_token_hash(t->p, t->len), t->count,
			(uint32_t)t->len, 0 };
		memcpy(r + 1, t->p, t->len);
		if (at >> 3 < a.first[w])
			a.first[w] = (uint32_t)(at >> 3);
		a.n[w]++;
		at += gh_adopted_record_bytes(t->len);
	}
	free(order);
	return a;
}

/* Adds tokens tc[0, n) to c as the host's own units; 0 or -1. */
static int add_host(struct gh_counts *c, const struct tc *tc, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		struct gh_unit u = { tc[i].p, tc[i].len, 0, tc[i].count };

		if (gh_counts_add(c, &u, 1))
			return -1;
	}
	return 0;
}

static int by_bytes(const void *x, const void *y)
{
	const struct tc *a = x, *b = y;
	uint64_t n = a->len < b->len ? a->len : b->len;
	int d = n ? memcmp(a->p, b->p, n) : 0;

	return d ? d : a->len < b->len ? -1 : a->len > b->len;
}

/* Sorted, equal tokens summed: the distinct left. */
static uint64_t summed(struct tc *t, uint64_t n)
{
	uint64_t m = 0;

	qsort(t, n, sizeof(*t), by_bytes);
	for (uint64_t i = 0; i < n; i++) {
		if (m && !by_bytes(&t[m - 1], &t[i]))
			t[m - 1].count += t[i].count;
		else
			t[m++] = t[i];
	}
	return m;
}

/* What the result holds, gathered over its parts. */
struct got {
	struct tc *t;
	uint64_t n, cap, total;
};

static int gather(void *ctx, const struct gpuhist_tokens *part)
{
	struct got *g = ctx;

	for (size_t i = 0; i < part->distinct; i++) {
		const struct gpuhist_token *k = &part->token[i];

		if (g->n == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 1024;
			g->t = realloc(g->t, g->cap * sizeof(*g->t));
		}
		g->t[g->n].p = malloc(k->len + 1);
		memcpy(g->t[g->n].p, k->bytes, k->len);
		g->t[g->n].len = k->len;
		g->t[g->n++].count = k->count;
	}
	g->total += part->total;
	return 0;
}

/* Whether c's result (gh_counts_end done) is host[0, nh) and list[0, nl)
 * summed. */
static int same_sum(struct gh_counts *c, const struct gpuhist_tokens *r,
		    const struct tc *host, uint64_t nh, const struct tc *list,
		    uint64_t nl)
{
	struct tc *want = malloc((nh + nl + 1) * sizeof(*want));
	struct got g = { 0 };
	uint64_t m, total = 0;
	int same;

	memcpy(want, host, nh * sizeof(*want));
	memcpy(want + nh, list, nl * sizeof(*want));
	m = summed(want, nh + nl);
	for (uint64_t i = 0; i < m; i++)
		total += want[i].count;
	gh_counts_each(c, gather, &g);
	qsort(g.t, g.n, sizeof(*g.t), by_bytes);
	same = g.n == m && r->distinct == m && r->total == total &&
	       g.total == total;
	for (uint64_t i = 0; same && i < m; i++)
		same = !by_bytes(&g.t[i], &want[i]) &&
		       g.t[i].count == want[i].count;
	if (!same)
		fprintf(stderr, "# distinct %zu / %" PRIu64 " (want %" PRIu64
			"), total %" PRIu64 " (want %" PRIu64 ")\n",
			r->distinct, g.n, m, r->total, total);
	for (uint64_t i = 0; i < g.n; i++)
		free(g.t[i].p);
	free(g.t);
	free(want);
	return same;
}

/* tokens [from, to), counts drawn from 1..max */
static struct tc *tokens(uint64_t from, uint64_t to, uint64_t max)
{
	struct tc *t = malloc((to - from + 1) * sizeof(*t));

	for (uint64_t i = from; i < to; i++)
		t[i - from] = token(i, 1 + next() % max);
	return t;
}

static void free_tokens(struct tc *t, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		free(t[i].p);
	free(t);
}

/* Host tokens [hf, ht) and listed [lf, lt), in a counts of `memory`:
 * whether the result is their sum (listed `ends` times). */
static int split(uint64_t hf, uint64_t ht, uint64_t lf, uint64_t lt,
		 uint64_t memory, int ends)
{
	struct tc *host = tokens(hf, ht, 1000), *list = tokens(lf, lt, 1000);
	struct gh_counts *c = gh_counts_new(memory, NULL);
	struct gh_adopted a = list_of(list, lt - lf);
	const struct gpuhist_tokens *r = NULL;
	int good = c && !add_host(c, host, ht - hf) && !gh_counts_adopt(c, &a);

	for (int k = 0; good && k < ends; k++)
		good = !gh_counts_end(c, 0, &r) &&
		       same_sum(c, r, host, ht - hf, list, lt - lf);
	gh_adopted_free(&a);
	gh_counts_free(c);
	free_tokens(host, ht - hf);
	free_tokens(list, lt - lf);
	return good;
}

/* Tokens [1, n) and one more of dots, so that their records take
 * exactly `bytes` bytes: the last window ends where the records do. */
static struct tc *filling(uint64_t n, uint64_t bytes)
{
	struct tc *t = tokens(1, n, 50);
	uint64_t used = 0;

	for (uint64_t i = 0; i + 1 < n; i++)
		used += gh_adopted_record_bytes(t[i].len);
	t[n - 1].len = bytes - used - sizeof(struct gh_adopted_record);
	t[n - 1].count = 3;
	t[n - 1].p = malloc(t[n - 1].len);
	memset(t[n - 1].p, '.', t[n - 1].len);
	return t;
}

int main(void)
{
	printf("1..16\n");
	ok(split(0, 0, 0, 200000, 0, 1),
	   "200000 listed tokens (threads), no host tokens: the list");
	ok(split(100000, 300000, 0, 200000, 0, 1),
	   "100000 tokens in both the host's tables and the list: summed once");
	ok(split(0, 300, 1, 100000, 0, 1),
	   "a few host tokens (joined ends) among 100000 listed, the empty token the host's");
	ok(split(50000, 60000, 0, 100000, 0, 3),
	   "the result asked for three times: the same each time");
	ok(split(0, 200000, 150000, 160000, 4 << 20, 1),
	   "the host's tables spilled past a memory of 4 MiB: the list added to them, parts disjoint");

	/* A token of 3 MiB: windows in which no record begins. */
	{
		struct tc list[3] = { token(7, 2), { NULL, 3 << 20, 5 },
				      token(9, 1) };
		struct tc host[2] = { token(9, 4), token(11, 1) };
		struct gh_counts *c = gh_counts_new(0, NULL);
		struct gh_adopted a;
		const struct gpuhist_tokens *r;

		list[1].p = malloc(list[1].len);
		memset(list[1].p, 'x', list[1].len);
		a = list_of(list, 3);
		ok(a.windows == 4 && !add_host(c, host, 2) &&
		   !gh_counts_adopt(c, &a) && !gh_counts_end(c, 0, &r) &&
		   same_sum(c, r, host, 2, list, 3),
		   "a token of 3 MiB: windows where no record begins");
		gh_counts_free(c);
		free(list[1].p);
		free(list[0].p);
		free(list[2].p);
		free(host[0].p);
		free(host[1].p);
	}
	/* Records of exactly 2 MiB, some of them the host's too. */
	{
		struct tc *list = filling(40000, 2 << 20);
		struct tc *host = tokens(39000, 39100, 5);
		struct gh_counts *c = gh_counts_new(0, NULL);
		struct gh_adopted a = list_of(list, 40000);
		const struct gpuhist_tokens *r;

		ok(a.bytes == 2 << 20 && a.windows == 3 &&
		   !add_host(c, host, 100) && !gh_counts_adopt(c, &a) &&
		   !gh_counts_end(c, 0, &r) &&
		   same_sum(c, r, host, 100, list, 40000),
		   "records of exactly 2 MiB (a last window where none begins), 100 tokens the host's too");
		gh_counts_free(c);
		free_tokens(list, 40000);
		free_tokens(host, 100);
	}
	/* Counts that failed (a spill to a folder that is not there). */
	{
		struct tc *host = tokens(1, 100000, 5), *list = tokens(1, 10, 5);
		struct gh_counts *c = gh_counts_new(1 << 20, "/nonexistent/gpuhist");
		struct gh_adopted a = list_of(list, 9);

		ok(add_host(c, host, 99999) &&
		   !gh_counts_may_adopt(c, a.bytes, a.distinct) &&
		   gh_counts_adopt(c, &a) == 1 && a.data,
		   "counts that failed (a spill that could not be written): a list refused");
		gh_adopted_free(&a);
		gh_counts_free(c);
		free_tokens(host, 99999);
		free_tokens(list, 9);
	}
	/* An index that does not match its records. */
	{
		struct tc *list = tokens(1, 30000, 10);
		struct gh_counts *c = gh_counts_new(0, NULL);
		struct gh_adopted a = list_of(list, 29999);
		const struct gpuhist_tokens *r;

		a.n[0]--;
		a.n[a.windows - 1]++;
		ok(a.windows > 1 && !gh_counts_adopt(c, &a) &&
		   gh_counts_end(c, 0, &r) &&
		   strstr(gh_counts_error(c), "not whole"),
		   "a torn index: the end fails, saying the device's tokens are not whole");
		gh_counts_free(c);
		free_tokens(list, 29999);
	}
	/* A count that passes 2^64-1 once the host's is added. */
	{
		struct tc list[1] = { token(3, UINT64_MAX - 5) };
		struct tc host[1] = { token(3, 10) };
		struct gh_counts *c = gh_counts_new(0, NULL);
		struct gh_adopted a = list_of(list, 1);
		const struct gpuhist_tokens *r;

		ok(!add_host(c, host, 1) && !gh_counts_adopt(c, &a) &&
		   gh_counts_end(c, 0, &r) &&
		   strstr(gh_counts_error(c), "2^64-1"),
		   "a count past 2^64-1 across the list and the tables: the end fails");
		gh_counts_free(c);
		free(list[0].p);
		free(host[0].p);
	}
	/* Refused: past half the memory limit, or a second list. */
	{
		struct tc *list = tokens(1, 20000, 10);
		struct gh_counts *c = gh_counts_new(1 << 20, NULL);
		struct gh_counts *d = gh_counts_new(0, NULL);
		struct gh_adopted a = list_of(list, 19999);
		struct gh_adopted b = list_of(list, 10);
		unsigned char *data = a.data;

		ok(gh_counts_adopt(c, &a) == 1 && a.data == data &&
		   !gh_counts_may_adopt(c, a.bytes, a.distinct),
		   "a list past half a memory limit of 1 MiB: refused, left as it was");
		ok(!gh_counts_adopt(d, &a) && !a.data &&
		   gh_counts_adopt(d, &b) == 1,
		   "a second list: refused");
		gh_adopted_free(&a);
		gh_adopted_free(&b);
		gh_counts_free(c);
		gh_counts_free(d);
		free_tokens(list, 19999);
	}

	/* The host's units handed to a device that picks the commonest
	 * (gh_counts_held): each once, with its count, as records. */
	{
		struct tc *host = tokens(0, 50000, 7);
		struct gh_counts *c = gh_counts_new(0, NULL);
		unsigned char *recs;
		uint64_t *offs, n, bytes, total = 0, want_total = 0;
		int good;

		good = !add_host(c, host, 50000) && !add_host(c, host, 300) &&
		       !gh_counts_held(c, 1 << 20, &recs, &offs, &n, &bytes) &&
		       n == 50000;
		for (uint64_t i = 0; good && i < n; i++) {
			const struct gh_adopted_record *r =
				(const void *)(recs + offs[i]);
			uint64_t k = r->len ? strtoull((const char *)(r + 1) + 1,
						       NULL, 10) : 0;

			good = k < 50000 && r->len == host[k].len &&
			       r->hash == gh_token_hash(host[k].p, host[k].len) &&
			       r->count == host[k].count * (k < 300 ? 2 : 1) &&
			       !memcmp(r + 1, host[k].p, r->len) &&
			       offs[i] + gh_adopted_record_bytes(r->len) <= bytes;
			total += r->count;
		}
		for (uint64_t k = 0; k < 50000; k++)
			want_total += host[k].count * (k < 300 ? 2 : 1);
		ok(good && total == want_total,
		   "the host's 50000 tokens listed as records for a device: each once, its count summed");
		free(recs);
		free(offs);
		ok(gh_counts_held(c, 30, &recs, &offs, &n, &bytes) == 1 &&
		   !recs && !offs,
		   "a token longer than a device's window: not listed");
		gh_counts_drop_held(c);
		const struct gpuhist_tokens *r;

		ok(!gh_counts_end(c, 0, &r) && r->distinct == 0 && r->total == 0,
		   "dropped: the host's tables hold nothing");
		gh_counts_free(c);
		free_tokens(host, 50000);
	}

	/* A device's pick: the records of the commonest, the input's whole
	 * distinct and total beside them; nothing reads the rest. */
	{
		struct tc *list = tokens(0, 1000, 9);
		struct gh_counts *c = gh_counts_new(0, NULL);
		struct gh_adopted a = list_of(list, 1000);
		const struct gpuhist_tokens *r;
		struct got g = { 0 };

		a.commonest = true;
		a.all_distinct = 123456;
		a.all_total = 9876543;
		ok(!gh_counts_adopt(c, &a) && !gh_counts_end(c, 0, &r) &&
		   r->distinct == 123456 && r->total == 9876543 &&
		   r->listed == 1000 && r->token &&
		   gh_counts_each(c, gather, &g) == GH_COUNTS_UNREAD,
		   "the commonest adopted: 1000 listed of 123456 distinct, parts refused");
		gh_counts_free(c);
		free(g.t);
		free_tokens(list, 1000);
	}
	return 0;
}
