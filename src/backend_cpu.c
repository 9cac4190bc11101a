/* backend_cpu.c - counting on the CPU: a ring of chunks and a pool of threads
 *
 * The reader fills a free chunk and queues it; any idle worker counts it
 * into its own 64-bit totals, so workers never share a counter.  finish()
 * waits until every queued chunk is counted, then adds the workers' totals.
 * The ring holds two chunks per worker, so the reader can fill while all
 * workers count.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "count.h"
#include "options.h"

#define GH_CPU_CHUNK_DEFAULT ((uint64_t)1 << 20)

struct cpu_worker {
	struct cpu_backend *cb;
	pthread_t thread;
	uint64_t totals[256];
};

struct cpu_backend {
	struct gh_backend base;         /* first: the caller sees only this */
	pthread_mutex_t lock;
	pthread_cond_t work_ready;      /* a chunk was queued, or stop */
	pthread_cond_t slot_free;       /* a chunk was counted */
	int n_slots;
	unsigned char **slots;
	uint64_t *slot_len;
	int *free_list, n_free;         /* slots the reader may fill */
	int *queue, q_head, q_len;      /* filled slots, in order */
	int acquired;                   /* slot handed to the reader, or -1 */
	int busy;                       /* queued or being counted */
	int stop;
	int n_workers;
	struct cpu_worker *workers;
};

static void *worker_main(void *arg)
{
	struct cpu_worker *w = arg;
	struct cpu_backend *cb = w->cb;
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

		gh_count_bytes(cb->slots[slot], cb->slot_len[slot], w->totals);

		pthread_mutex_lock(&cb->lock);
		cb->free_list[cb->n_free++] = slot;
		cb->busy--;
		pthread_cond_broadcast(&cb->slot_free);
	}
	pthread_mutex_unlock(&cb->lock);
	return NULL;
}

static unsigned char *cpu_acquire(struct gh_backend *b)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int slot;

	pthread_mutex_lock(&cb->lock);
	while (!cb->n_free)
		pthread_cond_wait(&cb->slot_free, &cb->lock);
	slot = cb->free_list[--cb->n_free];
	cb->acquired = slot;
	pthread_mutex_unlock(&cb->lock);
	return cb->slots[slot];
}

static int cpu_submit(struct gh_backend *b, uint64_t len)
{
	struct cpu_backend *cb = (struct cpu_backend *)b;
	int slot = cb->acquired;

	pthread_mutex_lock(&cb->lock);
	cb->acquired = -1;
	if (len == 0) {
		cb->free_list[cb->n_free++] = slot;
	} else {
		cb->slot_len[slot] = len;
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
	for (int i = 0; i < cb->n_workers; i++) {
		for (int v = 0; v < 256; v++)
			totals[v] += cb->workers[i].totals[v];
		memset(cb->workers[i].totals, 0, sizeof(cb->workers[i].totals));
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
		pthread_join(cb->workers[i].thread, NULL);
	for (int i = 0; cb->slots && i < cb->n_slots; i++)
		free(cb->slots[i]);
	free(cb->slots);
	free(cb->slot_len);
	free(cb->free_list);
	free(cb->queue);
	free(cb->workers);
	pthread_mutex_destroy(&cb->lock);
	pthread_cond_destroy(&cb->work_ready);
	pthread_cond_destroy(&cb->slot_free);
	free(cb);
}

static int online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

struct gh_backend *gh_backend_cpu_open(const struct gh_options *opts,
				       char *why, size_t why_len)
{
	struct cpu_backend *cb = calloc(1, sizeof(*cb));
	int threads = opts->threads ? opts->threads : online_cores();
	int err;

	if (!cb)
		goto oom;
	pthread_mutex_init(&cb->lock, NULL);
	pthread_cond_init(&cb->work_ready, NULL);
	pthread_cond_init(&cb->slot_free, NULL);
	cb->base.name = "cpu";
	cb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_CPU_CHUNK_DEFAULT;
	cb->base.acquire = cpu_acquire;
	cb->base.submit = cpu_submit;
	cb->base.finish = cpu_finish;
	cb->base.destroy = cpu_destroy;
	cb->acquired = -1;

	cb->n_slots = 2 * threads;
	cb->slots = calloc((size_t)cb->n_slots, sizeof(*cb->slots));
	cb->slot_len = calloc((size_t)cb->n_slots, sizeof(*cb->slot_len));
	cb->free_list = calloc((size_t)cb->n_slots, sizeof(*cb->free_list));
	cb->queue = calloc((size_t)cb->n_slots, sizeof(*cb->queue));
	cb->workers = calloc((size_t)threads, sizeof(*cb->workers));
	if (!cb->slots || !cb->slot_len || !cb->free_list || !cb->queue ||
	    !cb->workers)
		goto oom;
	for (int i = 0; i < cb->n_slots; i++) {
		cb->slots[i] = malloc(cb->base.chunk_bytes);
		if (!cb->slots[i])
			goto oom;
		cb->free_list[cb->n_free++] = i;
	}
	for (int i = 0; i < threads; i++) {
		cb->workers[i].cb = cb;
		err = pthread_create(&cb->workers[i].thread, NULL, worker_main,
				     &cb->workers[i]);
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
	snprintf(why, why_len, "out of memory for %d chunks of %llu bytes",
		 2 * threads, (unsigned long long)(opts->chunk_bytes ?
			opts->chunk_bytes : GH_CPU_CHUNK_DEFAULT));
	if (cb)
		cpu_destroy(&cb->base);
	return NULL;
}
