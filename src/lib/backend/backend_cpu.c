/* backend_cpu.c - counting on the CPU: a ring of chunks and a pool of threads
 *
 * Who counts depends on how an input is read:
 *  - one reader (pipes, gzip): the reader queues each filled chunk and an
 *    idle worker of the pool counts it, while the reader reads on;
 *  - several readers (a regular file, a gzip file's regions), or one where
 *    every core has an input of its own (begin()'s `own`: 16 gzip files on
 *    16 cores): each reader counts the chunk it has just filled, in its own
 *    thread, while the bytes are still in its cache.
 * The pool starts with one worker; another starts when a chunk is queued
 * and none is waiting for work, up to --threads (a small input, or one
 * whose readers count their own chunks, starts no more threads than it
 * uses: 16 cost about 2 ms, most of a 1 MiB .gz's run), and a chunk's
 * memory is taken when it is first acquired.
 * A chunk is counted into a table of the counting thread's own, which is
 * then added into its input's 64-bit totals under the lock: 256 additions
 * a chunk, and no counter is ever shared while counting.  Several inputs
 * may be open at once (each with its own totals).  The ring holds two
 * chunks per worker plus one per reader.
 *
 * Counting code points, a chunk is decoded into a tally of the chunk's own
 * (count_chars.c, made at its first use), which is then emptied into its
 * input's code-point totals under the lock.  Counting statistics, the
 * chunk's stream sums (count_stats.c) are added the same way.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "chars.h"
#include "backend/cpu/count.h"
#include "backend/cpu/count_chars.h"
#include "backend/cpu/count_stats.h"
#include "tokens/tokens.h"

#define GH_CPU_CHUNK_DEFAULT ((uint64_t)1 << 20)

struct cpu_chunk {
	struct gh_chunk chunk;          /* what readers see */
	uint64_t len;
	int input;
	struct gh_char_tally *tally;    /* code points: made when first used */
};

struct cpu_input {
	int open;
	int count_in_reader;            /* several readers count their own */
	int busy;                       /* chunks queued or being counted */
	int failed;                     /* out of memory counting it */
	uint64_t totals[256];
	struct gpuhist_chars chars;
	struct gh_stream_part part;     /* statistics: its chunks' sums */
};

struct cpu_backend {
	struct gh_backend base;         /* first: the caller sees only this */
	bool tokens_only;               /* no byte totals beside the tokens */
	pthread_mutex_t lock;
	pthread_cond_t work_ready;      /* a chunk was queued, or stop */
	pthread_cond_t counted;         /* a chunk was counted or given back */
	int n_slots;
	struct cpu_chunk *slots;
	int *free_list, n_free;         /* slots readers may fill */
	int *queue, q_head, q_len;      /* filled slots, in order */
	struct cpu_input inputs[GH_INPUTS_MAX];
	int stop;
	int n_workers, max_workers;
	int idle;                       /* workers waiting for a chunk */
	pthread_t *workers;
};

/* Counts a chunk, adds it to its input, and puts the chunk back. */
static void count_chunk(struct cpu_backend *cb, struct cpu_chunk *c,
			int was_queued)
{
	uint64_t counts[256] = { 0 };
	struct gh_stream_part part = { 0, 0 };
	struct cpu_input *in = &cb->inputs[c->input];
	bool chars = cb->base.chars;

	if (chars && !c->tally)
		c->tally = gh_char_tally_new();
	if (chars && c->tally)
		gh_count_chars(c->tally, c->chunk.data, c->len, c->chunk.from,
			       c->chunk.to);
	else if (!chars && !(cb->tokens_only && c->chunk.tokens))
		gh_count_bytes(c->chunk.data, c->len, counts);
	else if (!chars)
		counts[0] = c->len;     /* the bytes read, all the view shows */
	if (cb->base.stats)
		gh_count_stats(c->chunk.data, c->len, c->chunk.phase, &part);
	/* A failure is the tokens' own: gh_tokens_end reports it. */
	if (c->chunk.tokens)
		gh_tokens_count_inside(c->chunk.tokens, c->chunk.data,
				       c->chunk.tok_from, c->chunk.tok_to);
	pthread_mutex_lock(&cb->lock);
	in->part.pairs += part.pairs;
	in->part.hits += part.hits;
	if (!chars)
		for (int v = 0; v < 256; v++)
			in->totals[v] += counts[v];
	else if (!c->tally || gh_char_tally_flush(c->tally, &in->chars))
		in->failed = 1;
	in->busy -= was_queued;
	cb->free_list[cb->n_free++] = c->chunk.slot;
	pthread_cond_broadcast(&cb->counted);
	pthread_mutex_unlock(&cb->lock);
}

static void *worker_main(void *arg)
{
	struct cpu_backend *cb = arg;
	int slot;

	pthread_mutex_lock(&cb->lock);
	for (;;) {
		while (!cb->q_len && !cb->stop) {
			cb->idle++;
			pthread_cond_wait(&cb->work_ready, &cb->lock);
			cb->idle--;
		}
		if (!cb->q_len)
			break;
		slot = cb->queue[cb->q_head];
		cb->q_head = (cb->q_head + 1) % cb->n_slots;
		cb->q_len--;
		pthread_mutex_unlock(&cb->lock);
		count_chunk(cb, &cb->slots[slot], 1);
		pthread_mutex_lock(&cb->lock);
	}
	pthread_mutex_unlock(&cb->lock);
	return NULL;
}

static int cpu_begin(struct gh_backend *b, int readers, bool own)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int id = -1;

	pthread_mutex_lock(&cb->lock);
	for (int i = 0; i < GH_INPUTS_MAX && id < 0; i++)
		if (!cb->inputs[i].open)
			id = i;
	if (id >= 0) {
		/* Only code points have pages to free (a scan of 4353
		 * pointers an input, 8 % of -t over 6000 small files). */
		if (b->chars)
			gpuhist_chars_free(&cb->inputs[id].chars);
		memset(&cb->inputs[id], 0, sizeof(cb->inputs[id]));
		cb->inputs[id].open = 1;
		cb->inputs[id].count_in_reader = readers > 1 || own;
	} else {
		snprintf(b->error, sizeof(b->error), "more than %d inputs open",
			 GH_INPUTS_MAX);
	}
	pthread_mutex_unlock(&cb->lock);
	return id;
}

static struct gh_chunk *cpu_acquire(struct gh_backend *b)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int slot;

	pthread_mutex_lock(&cb->lock);
	while (!cb->n_free)
		pthread_cond_wait(&cb->counted, &cb->lock);
	slot = cb->free_list[--cb->n_free];
	pthread_mutex_unlock(&cb->lock);
	/* A chunk's memory is taken at its first use. */
	struct gh_chunk *c = &cb->slots[slot].chunk;

	if (!c->data && !(c->data = malloc(b->chunk_bytes))) {
		pthread_mutex_lock(&cb->lock);
		cb->free_list[cb->n_free++] = slot;
		pthread_cond_broadcast(&cb->counted);
		pthread_mutex_unlock(&cb->lock);
		snprintf(b->error, sizeof(b->error),
			 "out of memory for chunks of %llu bytes",
			 (unsigned long long)b->chunk_bytes);
		return NULL;
	}
	return c;
}

static int cpu_submit(struct gh_backend *b, int input, struct gh_chunk *chunk,
		      uint64_t len)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	struct cpu_chunk *c = &cb->slots[chunk->slot];

	c->len = len;
	c->input = input;
	/* Marked before it is queued: a device's pick of the commonest
	 * must not begin while this chunk's units are still to come. */
	if (len && chunk->tokens && chunk->tok_from < chunk->tok_to)
		gh_tokens_inside_on_host(chunk->tokens);
	if (len && cb->inputs[input].count_in_reader) {
		count_chunk(cb, c, 0);
		return 0;
	}
	pthread_mutex_lock(&cb->lock);
	if (len == 0) {
		cb->free_list[cb->n_free++] = chunk->slot;
		pthread_cond_broadcast(&cb->counted);
	} else {
		cb->queue[(cb->q_head + cb->q_len) % cb->n_slots] = chunk->slot;
		cb->q_len++;
		cb->inputs[input].busy++;
		/* More queued than waiting workers: one more, if it may (if
		 * it cannot start, those running count the chunk). */
		if (cb->q_len > cb->idle && cb->n_workers < cb->max_workers &&
		    !pthread_create(&cb->workers[cb->n_workers], NULL,
				    worker_main, cb))
			cb->n_workers++;
		pthread_cond_signal(&cb->work_ready);
	}
	pthread_mutex_unlock(&cb->lock);
	return 0;
}

static int cpu_finish(struct gh_backend *b, int input,
		      const struct gh_counted *into)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	struct cpu_input *in = &cb->inputs[input];
	int ret = 0;

	pthread_mutex_lock(&cb->lock);
	while (in->busy)
		pthread_cond_wait(&cb->counted, &cb->lock);
	memcpy(into->totals, in->totals, sizeof(in->totals));
	if (into->part) {
		into->part->pairs += in->part.pairs;
		into->part->hits += in->part.hits;
	}
	if (b->chars &&
	    (in->failed || gh_chars_absorb(into->chars, &in->chars)))
		ret = -1;
	if (ret)
		snprintf(b->error, sizeof(b->error),
			 "out of memory for code-point totals");
	if (b->chars)
		gpuhist_chars_free(&in->chars);
	in->open = 0;
	pthread_mutex_unlock(&cb->lock);
	return ret;
}

static int cpu_destroy(struct gh_backend *b)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;

	pthread_mutex_lock(&cb->lock);
	cb->stop = 1;
	pthread_cond_broadcast(&cb->work_ready);
	pthread_mutex_unlock(&cb->lock);
	for (int i = 0; i < cb->n_workers; i++)
		pthread_join(cb->workers[i], NULL);
	for (int i = 0; cb->slots && i < cb->n_slots; i++) {
		free(cb->slots[i].chunk.data);
		gh_char_tally_free(cb->slots[i].tally);
	}
	for (int i = 0; i < GH_INPUTS_MAX; i++)
		gpuhist_chars_free(&cb->inputs[i].chars);
	free(cb->slots);
	free(cb->free_list);
	free(cb->queue);
	free(cb->workers);
	pthread_mutex_destroy(&cb->lock);
	pthread_cond_destroy(&cb->work_ready);
	pthread_cond_destroy(&cb->counted);
	free(cb);
	return 0;
}

static const struct gh_backend_ops cpu_ops = {
	.begin = cpu_begin,
	.acquire = cpu_acquire,
	.submit = cpu_submit,
	.finish = cpu_finish,
	.destroy = cpu_destroy,
};

struct gh_backend *gh_backend_cpu_open(const struct gpuhist_options *opts,
				       char *why, size_t why_len)
{
	struct cpu_backend *cb = calloc(1, sizeof(*cb));
	int threads = opts->threads;
	int err;

	if (!cb)
		goto oom;
	pthread_mutex_init(&cb->lock, NULL);
	pthread_cond_init(&cb->work_ready, NULL);
	pthread_cond_init(&cb->counted, NULL);
	cb->base.ops = &cpu_ops;
	cb->base.name = "cpu";
	cb->base.chars = opts->chars;
	cb->base.stats = opts->stats;
	/* Tokens inside a chunk are counted by the thread that counts its
	 * bytes: a reader that decodes in order (one gzip member, a pipe)
	 * then only cuts its chunks' ends, and the pool counts the rest. */
	cb->base.tokens = opts->tokens != 0;
	cb->tokens_only = opts->tokens && opts->tokens_only;
	cb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_CPU_CHUNK_DEFAULT;

	cb->n_slots = 2 * threads + gh_readers(opts);
	cb->slots = calloc((size_t)cb->n_slots, sizeof(*cb->slots));
	cb->free_list = calloc((size_t)cb->n_slots, sizeof(*cb->free_list));
	cb->queue = calloc((size_t)cb->n_slots, sizeof(*cb->queue));
	cb->workers = calloc((size_t)threads, sizeof(*cb->workers));
	if (!cb->slots || !cb->free_list || !cb->queue || !cb->workers)
		goto oom;
	for (int i = 0; i < cb->n_slots; i++) {
		cb->slots[i].chunk.slot = i;
		cb->slots[i].chunk.backend = &cb->base;
		cb->free_list[cb->n_free++] = i;
	}
	cb->max_workers = threads;
	err = pthread_create(&cb->workers[0], NULL, worker_main, cb);
	if (err) {
		snprintf(why, why_len, "cannot start a thread: %s",
			 strerror(err));
		cpu_destroy(&cb->base);
		return NULL;
	}
	cb->n_workers = 1;
	snprintf(cb->base.detail, sizeof(cb->base.detail),
		 "cpu backend, %d thread%s, chunk %llu bytes, %d chunks",
		 threads, threads == 1 ? "" : "s",
		 (unsigned long long)cb->base.chunk_bytes, cb->n_slots);
	return &cb->base;
oom:
	snprintf(why, why_len, "out of memory for chunks of %llu bytes",
		 (unsigned long long)(opts->chunk_bytes ? opts->chunk_bytes
							: GH_CPU_CHUNK_DEFAULT));
	if (cb)
		cpu_destroy(&cb->base);
	return NULL;
}
