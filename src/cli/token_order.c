/* token_order.c - the order tokens are shown in (token_order.h) */
#define _GNU_SOURCE             /* sched_getaffinity, CPU_COUNT */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "token_order.h"

int gh_by_bytes(const void *a, const void *b)
{
	const struct gpuhist_token *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = n ? memcmp(x->bytes, y->bytes, n) : 0;

	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

static void key_of(const struct gpuhist_token *t, struct gh_sort_key *k)
{
	unsigned char b[16] = { 0 };

	if (t->len)
		memcpy(b, t->bytes, t->len < 16 ? t->len : 16);
	k->count = t->count;
	for (int i = 0; i < 2; i++) {
		k->head[i] = 0;
		for (int j = 0; j < 8; j++)
			k->head[i] = k->head[i] << 8 | b[8 * i + j];
	}
	k->t = t;
}

int gh_by_key(const void *a, const void *b)
{
	const struct gh_sort_key *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	for (int i = 0; i < 2; i++)
		if (x->head[i] != y->head[i])
			return x->head[i] < y->head[i] ? -1 : 1;
	if (x->t->len <= 16 || y->t->len <= 16)
		return x->t->len < y->t->len ? -1 : x->t->len > y->t->len;
	return gh_by_bytes(x->t, y->t);
}

static void swap_keys(struct gh_sort_key *a, struct gh_sort_key *b)
{
	struct gh_sort_key t = *a;

	*a = *b;
	*b = t;
}

/* threads, or where it is 0 or less (--threads' default) the cores this
 * process may run on, as nproc counts them. */
static int threads_or_cores(int threads)
{
	if (threads > 0)
		return threads;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		online = CPU_COUNT(&set);
#endif
	return online > 0 ? (int)online : 1;
}

/* The multikey quicksort (Bentley and Sedgewick, "Fast algorithms for
 * sorting and searching strings", SODA 1997) on 8-byte words: level 0
 * is the count (most first), level L >= 1 the bytes [8 (L - 1), 8 L),
 * big-endian and zero-padded: head[0] and head[1] for the first two
 * levels, then words read from the bytes into head[1], which the keys of
 * a range of level 3 or more no longer need (they are all equal). */

/* Ranges this small are sorted by insertion. */
#define SORT_SMALL 16
/* How far ahead the pass that reads a level's words prefetches. */
#define WORD_AHEAD 8

/* The key's word at level (level 3 and more: as read_words read it). */
static uint64_t word_of(const struct gh_sort_key *k, unsigned level)
{
	return level == 0 ? ~k->count : level == 1 ? k->head[0] : k->head[1];
}

/* The bytes [off, off + 8) of t as a big-endian word, zero-padded. */
static uint64_t bytes_word(const struct gpuhist_token *t, size_t off)
{
	unsigned char b[8] = { 0 };
	size_t n = t->len - off < 8 ? t->len - off : 8;
	uint64_t w = 0;

	memcpy(b, t->bytes + off, n);
	for (int j = 0; j < 8; j++)
		w = w << 8 | b[j];
	return w;
}

/* Reads level's words (3 or more) into head[1]: the keys' tokens are
 * longer than 8 (level - 1) bytes.  The tokens lie anywhere, so each is
 * prefetched well before it is read. */
static void read_words(struct gh_sort_key *k, size_t len, unsigned level)
{
	size_t off = 8 * ((size_t)level - 1);

	for (size_t i = 0; i < len; i++) {
		if (i + 2 * WORD_AHEAD < len)
			__builtin_prefetch(k[i + 2 * WORD_AHEAD].t);
		if (i + WORD_AHEAD < len)
			__builtin_prefetch(k[i + WORD_AHEAD].t->bytes + off);
		k[i].head[1] = bytes_word(k[i].t, off);
	}
}

/* Two keys of a range at level, in the sort's order: they are equal
 * before the level. */
static int by_key_from(const struct gh_sort_key *x, const struct gh_sort_key *y,
		       unsigned level)
{
	if (level == 0)
		return gh_by_key(x, y);
	/* Both tokens are longer than off bytes (or off is 0), and the
	 * same before it. */
	size_t off = 8 * ((size_t)level - 1);
	size_t n = x->t->len < y->t->len ? x->t->len : y->t->len;
	int c = n > off ? memcmp(x->t->bytes + off, y->t->bytes + off, n - off)
			: 0;

	return c ? c : x->t->len < y->t->len ? -1 : x->t->len > y->t->len;
}

static void insertion_sort(struct gh_sort_key *k, size_t len, unsigned level)
{
	for (size_t i = 1; i < len; i++) {
		struct gh_sort_key v = k[i];
		size_t j = i;

		for (; j > 0 && by_key_from(&v, &k[j - 1], level) < 0; j--)
			k[j] = k[j - 1];
		k[j] = v;
	}
}

/* Two keys (for qsort) by their tokens' lengths, shorter first. */
static int by_len(const void *a, const void *b)
{
	const struct gh_sort_key *x = a, *y = b;

	return x->t->len < y->t->len ? -1 : x->t->len > y->t->len;
}

/* Of a range whose words at level are all equal, moves the keys whose
 * tokens end within the level first, sorted (each is a prefix of the
 * next: by length); returns how many. */
static size_t ended_first(struct gh_sort_key *k, size_t len, unsigned level)
{
	size_t end = 8 * (size_t)level, n = 0;

	if (level == 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (k[i].t->len <= end)
			swap_keys(&k[i], &k[n++]);
	qsort(k, n, sizeof(*k), by_len);
	return n;
}

/* Parts of at least this many keys may be sorted on a thread of their
 * own; one call of sort_from starts SPAWN_MOST such threads at most. */
#define SORT_PARALLEL ((size_t)1 << 15)
#define SPAWN_MOST 16

/* A part of a range, to be sorted (on a thread of its own, or not): its
 * keys, their level and whether its words are read; left: how many more
 * threads the sort may start, shared by all of them. */
struct sort_job {
	struct gh_sort_key *k;
	size_t len;
	unsigned level;
	bool loaded;
	atomic_int *left;
};

static void sort_from(struct gh_sort_key *k, size_t len, unsigned level,
		      bool loaded, atomic_int *left);

static void *sort_job_run(void *arg)
{
	struct sort_job *j = arg;

	sort_from(j->k, j->len, j->level, j->loaded, j->left);
	atomic_fetch_add(j->left, 1);   /* done: another may start */
	return NULL;
}

/* One of the threads left, if any. */
static bool take_thread(atomic_int *left)
{
	int n = atomic_load(left);

	while (n > 0)
		if (atomic_compare_exchange_weak(left, &n, n - 1))
			return true;
	return false;
}

/* Sorts k[0, len), whose keys are equal before level (and whose words at
 * level are read when loaded).  Of the three parts of a partition, the
 * two smaller are sorted by recursion (or on threads of their own, while
 * any are left) and the largest by the loop, so the recursion is at most
 * log2(len) deep however long the tokens. */
static void sort_from(struct gh_sort_key *k, size_t len, unsigned level,
		      bool loaded, atomic_int *left)
{
	struct sort_job job[SPAWN_MOST];
	pthread_t tid[SPAWN_MOST];
	int spawned = 0;

	while (len > SORT_SMALL) {
		if (level >= 3 && !loaded)
			read_words(k, len, level);
		loaded = true;
		uint64_t a = word_of(&k[0], level);
		uint64_t b = word_of(&k[len / 2], level);
		uint64_t c = word_of(&k[len - 1], level);
		uint64_t pivot = a < b ? (b < c ? b : a < c ? c : a)
				       : (a < c ? a : b < c ? c : b);
		size_t lt = 0, i = 0, gt = len;

		/* [0, lt) below, [lt, i) equal, [gt, len) above. */
		while (i < gt) {
			uint64_t w = word_of(&k[i], level);

			if (w < pivot)
				swap_keys(&k[lt++], &k[i++]);
			else if (w > pivot)
				swap_keys(&k[i], &k[--gt]);
			else
				i++;
		}
		size_t ended = ended_first(k + lt, gt - lt, level);
		struct sort_job part[3] = {
			{ k, lt, level, true, left },
			{ k + lt + ended, gt - lt - ended, level + 1, false,
			  left },
			{ k + gt, len - gt, level, true, left },
		};
		int most = 0;

		for (int p = 1; p < 3; p++)
			if (part[p].len > part[most].len)
				most = p;
		for (int p = 0; p < 3; p++) {
			if (p == most || part[p].len < 2)
				continue;
			if (part[p].len >= SORT_PARALLEL &&
			    spawned < SPAWN_MOST && take_thread(left)) {
				job[spawned] = part[p];
				if (!pthread_create(&tid[spawned], NULL,
						    sort_job_run,
						    &job[spawned])) {
					spawned++;
					continue;
				}
				atomic_fetch_add(left, 1);
			}
			sort_from(part[p].k, part[p].len, part[p].level,
				  part[p].loaded, left);
		}
		k = part[most].k;
		len = part[most].len;
		level = part[most].level;
		loaded = part[most].loaded;
	}
	if (len > 1)
		insertion_sort(k, len, level);
	for (int i = 0; i < spawned; i++)
		pthread_join(tid[i], NULL);
}

void gh_sort_keys(struct gh_sort_key *k, size_t len, bool by_count,
		  int threads)
{
	atomic_int left = threads_or_cores(threads) - 1;

	sort_from(k, len, by_count ? 0 : 1, true, &left);
}

/* Puts the n most frequent keys (gh_by_key's order) first, in no order:
 * quickselect, the pivot a middle one of three. */
void gh_select_first(struct gh_sort_key *k, size_t len, size_t n)
{
	size_t lo = 0, hi = len;        /* the n-th lies in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, last = hi - 1;

		if (gh_by_key(&k[mid], &k[lo]) < 0)
			swap_keys(&k[mid], &k[lo]);
		if (gh_by_key(&k[last], &k[lo]) < 0)
			swap_keys(&k[last], &k[lo]);
		if (gh_by_key(&k[last], &k[mid]) < 0)
			swap_keys(&k[last], &k[mid]);
		swap_keys(&k[mid], &k[last]);   /* the pivot, at the end */
		size_t store = lo;

		for (size_t i = lo; i < last; i++)
			if (gh_by_key(&k[i], &k[last]) < 0)
				swap_keys(&k[i], &k[store++]);
		swap_keys(&k[store], &k[last]);
		if (store == n)
			return;
		if (store < n)
			lo = store + 1;
		else
			hi = store;
	}
}

struct gh_sort_key *gh_keys_of(const struct gpuhist_token *t, size_t len)
{
	struct gh_sort_key *keys = malloc((len ? len : 1) * sizeof(*keys));

	if (keys)
		for (size_t i = 0; i < len; i++) {
			/* The bytes lie anywhere: read ahead. */
			if (i + WORD_AHEAD < len)
				__builtin_prefetch(t[i + WORD_AHEAD].bytes);
			key_of(&t[i], &keys[i]);
		}
	return keys;
}

/* Moves heap[i] down to its place in a heap of n whose root is the last
 * in gh_by_key's order. */
static void sift_down(struct gh_sort_key *heap, size_t n, size_t i)
{
	for (;;) {
		size_t last = i, l = 2 * i + 1, r = l + 1;

		if (l < n && gh_by_key(&heap[l], &heap[last]) > 0)
			last = l;
		if (r < n && gh_by_key(&heap[r], &heap[last]) > 0)
			last = r;
		if (last == i)
			return;
		swap_keys(&heap[i], &heap[last]);
		i = last;
	}
}

/* The heap pass: the keys of the n first of t[0, len) (n < len) in
 * gh_by_key's order, into heap (n of them), in no order. */
static void keep_first(const struct gpuhist_token *t, size_t len, size_t n,
		       struct gh_sort_key *heap)
{
	for (size_t i = 0; i < n; i++)
		key_of(&t[i], &heap[i]);
	for (size_t i = n / 2; i-- > 0;)
		sift_down(heap, n, i);
	for (size_t i = n; i < len; i++) {
		struct gh_sort_key k;

		/* Behind the last kept, at a glance (gh_by_key's ties are
		 * gh_by_bytes' order). */
		if (t[i].count < heap[0].count ||
		    (t[i].count == heap[0].count &&
		     gh_by_bytes(&t[i], heap[0].t) > 0))
			continue;
		key_of(&t[i], &k);
		if (gh_by_key(&k, &heap[0]) < 0) {
			heap[0] = k;
			sift_down(heap, n, 0);
		}
	}
}

/* A thread's share of the tokens: its n first, into keys. */
struct share {
	const struct gpuhist_token *t;
	size_t len, n;
	struct gh_sort_key *keys;
};

static void *first_of_share(void *arg)
{
	const struct share *s = arg;

	keep_first(s->t, s->len, s->n, s->keys);
	return NULL;
}

/* Shares of at least this many tokens, and of four times n. */
#define SHARE_LEAST ((size_t)1 << 18)
#define SHARES_MOST 64

/* How many threads pick from len tokens: threads (0: every processor), as
 * many as shares of SHARE_LEAST tokens and of 4 n go, SHARES_MOST at
 * most. */
static int shares_for(size_t len, size_t n, int threads)
{
	size_t least = 4 * n > SHARE_LEAST ? 4 * n : SHARE_LEAST;
	size_t most = len / least;

	threads = threads_or_cores(threads);
	if (most > SHARES_MOST)
		most = SHARES_MOST;
	return (size_t)threads < most ? threads : (int)(most ? most : 1);
}

/* The keys of the n first of len tokens in gh_by_key's order, in no order (a
 * copy the caller frees; NULL when out of memory).  Fewer than all: one
 * pass keeping the best in a heap, so that picking the 20 commonest of
 * millions of tokens neither sorts nor copies them all; the pass over
 * millions is split among threads (each share's n first, then the n first
 * of those: the order is total, so the same n), since one thread took a
 * third of a GiB of CSV's whole time on the GPU (bench/NOTES.md). */
struct gh_sort_key *gh_best_keys(const struct gpuhist_token *t, size_t len,
				 size_t n, int threads)
{
	struct gh_sort_key *heap, *keys;
	struct share shares[SHARES_MOST];
	pthread_t tid[SHARES_MOST];
	bool started[SHARES_MOST] = { false };
	int k = shares_for(len, n, threads);

	if (n >= len)
		return gh_keys_of(t, len);
	heap = malloc((n ? n : 1) * sizeof(*heap));
	if (!heap || !n)
		return heap;
	if (k < 2 || !(keys = malloc((size_t)k * n * sizeof(*keys)))) {
		keep_first(t, len, n, heap);
		return heap;
	}
	for (int i = 0; i < k; i++) {
		size_t from = len / (size_t)k * (size_t)i;
		size_t to = i == k - 1 ? len : len / (size_t)k * (size_t)(i + 1);

		shares[i] = (struct share){ t + from, to - from, n,
					    keys + (size_t)i * n };
	}
	/* Each share holds 4 n at least: n keys each. */
	for (int i = 1; i < k; i++)
		started[i] = !pthread_create(&tid[i], NULL, first_of_share,
					     &shares[i]);
	first_of_share(&shares[0]);
	for (int i = 1; i < k; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			first_of_share(&shares[i]);
	}
	gh_select_first(keys, (size_t)k * n, n);
	memcpy(heap, keys, n * sizeof(*heap));
	free(keys);
	return heap;
}
