/* backend_cpu.c - counting on the CPU: a ring of chunks and a pool of threads
 *
 * Every chunk carries its own 64-bit totals, and whoever holds a chunk is
 * the only one touching them, so no counter is ever shared; finish() adds
 * them up.  Who counts depends on how the input is read:
 *  - one reader (pipes, gzip): the reader queues each filled chunk and an
 *    idle worker of the pool counts it, while the reader reads on;
 *  - several readers (a regular file): each reader counts the chunk it has
 *    just read, in its own thread, while the bytes are still in its cache.
 * The ring holds two chunks per worker plus one per reader.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "count.h"
#include "options.h"

#define GH_CPU_CHUNK_DEFAULT ((uint64_t)1 << 20)

struct cpu_chunk {
	struct gh_chunk chunk;          /* what readers see */
	uint64_t len;
	uint64_t totals[256];           /* of every byte counted in it */
};

struct cpu_backend {
	struct gh_backend base;         /* first: the caller sees only this */
	pthread_mutex_t lock;
	pthread_cond_t work_ready;      /* a chunk was queued, or stop */
	pthread_cond_t slot_free;       /* a chunk was counted */
	int n_slots;
	struct cpu_chunk *slots;
	int *free_list, n_free;         /* slots readers may fill */
	int *queue, q_head, q_len;      /* filled slots, in order */
	int busy;                       /* queued or being counted */
	int stop;
	int count_in_reader;            /* several readers count their own */
	int n_workers;
	pthread_t *workers;
};

static void count_chunk(struct cpu_chunk *c)
{
	gh_count_bytes(c->chunk.data, c->len, c->totals);
}

static void *worker_main(void *arg)
{
	struct cpu_backend *cb = arg;
	int slot;

	pthread_mutex_lock(&cb->lock);
	for (;;) {
		while (!cb->q_len && !cb->stop)
			pthread_cond_wait(&cb->work_ready, &cb->lock);
		if (!cb->q_len)
			break;
		slot = cb->queue[cb->q_head];
		cb->q_head = (cb->q_head + 1) % cb->n_slots;
		cb->q_len--;
		pthread_mutex_unlock(&cb->lock);

		count_chunk(&cb->slots[slot]);

		pthread_mutex_lock(&cb->lock);
		cb->free_list[cb->n_free++] = slot;
		cb->busy--;
		pthread_cond_broadcast(&cb->slot_free);
	}
	pthread_mutex_unlock(&cb->lock);
	return NULL;
}

static void cpu_begin(struct gh_backend *b, int readers)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;

	cb->count_in_reader = readers > 1;
}

static struct gh_chunk *cpu_acquire(struct gh_backend *b)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int slot;

	pthread_mutex_lock(&cb->lock);
	while (!cb->n_free)
		pthread_cond_wait(&cb->slot_free, &cb->lock);
	slot = cb->free_list[--cb->n_free];
	pthread_mutex_unlock(&cb->lock);
	return &cb->slots[slot].chunk;
}

static int cpu_submit(struct gh_backend *b, struct gh_chunk *c, uint64_t len)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int slot = c->slot;

	cb->slots[slot].len = len;
	if (len && cb->count_in_reader) {
		count_chunk(&cb->slots[slot]);
		len = 0;                /* done: straight back to the free list */
	}
	pthread_mutex_lock(&cb->lock);
	if (len == 0) {
		cb->free_list[cb->n_free++] = slot;
		pthread_cond_broadcast(&cb->slot_free);
	} else {
		cb->queue[(cb->q_head + cb->q_len) % cb->n_slots] = slot;
		cb->q_len++;
		cb->busy++;
		pthread_cond_signal(&cb->work_ready);
	}
	pthread_mutex_unlock(&cb->lock);
	return 0;
}

static int cpu_finish(struct gh_backend *b, uint64_t totals[256])
{
	struct cpu_backend *cb = (struct cpu_backend *)b;

	pthread_mutex_lock(&cb->lock);
	while (cb->busy)
		pthread_cond_wait(&cb->slot_free, &cb->lock);
	pthread_mutex_unlock(&cb->lock);

	memset(totals, 0, 256 * sizeof(totals[0]));
	for (int i = 0; i < cb->n_slots; i++) {
		for (int v = 0; v < 256; v++)
			totals[v] += cb->slots[i].totals[v];
		memset(cb->slots[i].totals, 0, sizeof(cb->slots[i].totals));
	}
	return 0;
}

static void cpu_destroy(struct gh_backend *b)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int started = cb->n_workers;

	pthread_mutex_lock(&cb->lock);
	cb->stop = 1;
	pthread_cond_broadcast(&cb->work_ready);
	pthread_mutex_unlock(&cb->lock);
	for (int i = 0; i < started; i++)
		pthread_join(cb->workers[i], NULL);
	for (int i = 0; cb->slots && i < cb->n_slots; i++)
		free(cb->slots[i].chunk.data);
	free(cb->slots);
	free(cb->free_list);
	free(cb->queue);
	free(cb->workers);
	pthread_mutex_destroy(&cb->lock);
	pthread_cond_destroy(&cb->work_ready);
	pthread_cond_destroy(&cb->slot_free);
	free(cb);
}

struct gh_backend *gh_backend_cpu_open(const struct gh_options *opts,
				       char *why, size_t why_len)
{
	struct cpu_backend *cb = calloc(1, sizeof(*cb));
	int threads = opts->threads;
	int err;

	if (!cb)
		goto oom;
	pthread_mutex_init(&cb->lock, NULL);
	pthread_cond_init(&cb->work_ready, NULL);
	pthread_cond_init(&cb->slot_free, NULL);
	cb->base.name = "cpu";
	cb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_CPU_CHUNK_DEFAULT;
	cb->base.begin = cpu_begin;
	cb->base.acquire = cpu_acquire;
	cb->base.submit = cpu_submit;
	cb->base.finish = cpu_finish;
	cb->base.destroy = cpu_destroy;

	cb->n_slots = 2 * threads + gh_options_readers(opts);
	cb->slots = calloc((size_t)cb->n_slots, sizeof(*cb->slots));
	cb->free_list = calloc((size_t)cb->n_slots, sizeof(*cb->free_list));
	cb->queue = calloc((size_t)cb->n_slots, sizeof(*cb->queue));
	cb->workers = calloc((size_t)threads, sizeof(*cb->workers));
	if (!cb->slots || !cb->free_list || !cb->queue || !cb->workers)
		goto oom;
	for (int i = 0; i < cb->n_slots; i++) {
		cb->slots[i].chunk.slot = i;
		cb->slots[i].chunk.data = malloc(cb->base.chunk_bytes);
		if (!cb->slots[i].chunk.data)
			goto oom;
		cb->free_list[cb->n_free++] = i;
	}
	for (int i = 0; i < threads; i++) {
		err = pthread_create(&cb->workers[i], NULL, worker_main, cb);
		if (err) {
			snprintf(why, why_len, "cannot start a thread: %s",
				 strerror(err));
			cpu_destroy(&cb->base);
			return NULL;
		}
		cb->n_workers++;
	}
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
