/* gpu_tokens.c - the GPU backend's tokens: each chunk's inside counted by
 * kernels/tokens.cu into a table on the device that lasts for the input,
 * its distinct units added to the input's counts once, at its end
 *
 * submit.c keeps a chunk's two ends on the host and hands the backend its
 * inside; after the chunk's copy and byte count, its stream counts the
 * inside's units into its device's table (one a device, which every
 * stream of it adds to at once), which writes a record (hash,
 * length, bytes) of each unit it meets for the first time into its arena,
 * so the chunk may be refilled as soon as its work is done.  A table
 * belongs to one input at a time (its owner).  It is emptied - each
 * slot's count stamped into its record, the arena's records copied back
 * in windows through pinned buffers (the next window's copy under the
 * adding of this one's), and added to the owner's counts (tokens.c,
 * counts.c, which spill past --memory) by several threads, each taking
 * the units of its own share of the counts' tables - when the owner's
 * input ends, when a chunk of another input comes to its stream, and when
 * the next chunk might not fit: the host bounds what each launch may add
 * (gh_tok_distinct_max slots, gh_tok_arena_bytes_max arena bytes), and
 * reads the table's own counters, after waiting for the device's streams,
 * only when that bound says it might be full.  So the host hashes nothing and adds
 * each distinct unit once an input where the table holds them, not once
 * a chunk.  Readers submit from many threads: a table's launches, bounds
 * and owner are kept under its lock.
 */
#include "config.h"

#ifdef HAVE_CUDA
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_private.h"
#include "run_each.h"
#include "tokens.h"

_Static_assert(GH_TOK_WORDS == GPUHIST_TOKENS_WORDS &&
	       GH_TOK_LINES == GPUHIST_TOKENS_LINES &&
	       GH_TOK_FIELD == GPUHIST_TOKENS_FIELD,
	       "the kernels' views are gpuhist.h's");

/* Chunks larger than this count their tokens on the host: a 16 MiB
 * chunk needs tables of 16 Mi slots and 144 MiB of arena. */
#define TOK_CHUNK_MAX ((uint64_t)16 << 20)

/* A table's size where the device has room: 16 Mi slots of 32 bytes and
 * an arena of 512 MiB (1 GiB in all), so that a log's distinct tokens of
 * an input's first hundreds of MiB stay on the device.  A table takes at
 * most a quarter of the device's free memory; it shrinks by halves to
 * the fewest a chunk needs. */
#define TOK_SLOTS ((uint64_t)16 << 20)
#define TOK_ARENA ((uint64_t)512 << 20)
/* The most: the kernels' places are 32-bit. */
#define TOK_SLOTS_MAX ((uint64_t)1 << 30)
#define TOK_ARENA_MAX ((uint64_t)1 << 31)
/* The arena comes back in windows of this much (or of the largest
 * record, where more), two pinned buffers a table. */
#define TOK_WINDOW ((uint64_t)16 << 20)

/* Units handed to the counts at once; units a thread adds at least. */
#define BATCH 1024
#define PER_WORKER 16384

static uint64_t table_bytes(uint64_t slots, uint64_t keys)
{
	return slots * sizeof(struct gh_tok_entry) + keys;
}

/* The table's slots and arena bytes for chunks of `chunk` bytes on the
 * current device; 0, or -1 where not even the fewest fit. */
static int table_size(uint64_t chunk, uint64_t *slots, uint64_t *keys)
{
	uint64_t min_slots = gh_tok_table_slots(chunk);
	uint64_t min_keys = gh_tok_arena_bytes_max(chunk);
	const char *env = getenv("GPUHIST_GPU_TOKEN_TABLE");
	size_t free_bytes = 0, total = 0;

	*slots = TOK_SLOTS > min_slots ? TOK_SLOTS : min_slots;
	*keys = TOK_ARENA > min_keys ? TOK_ARENA : min_keys;
	/* For the tests: the fewest, emptied often. */
	if (env && !strcmp(env, "min")) {
		*slots = min_slots;
		*keys = min_keys;
	}
	if (*slots > TOK_SLOTS_MAX || *keys > TOK_ARENA_MAX ||
	    cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
		return -1;
	while (table_bytes(*slots, *keys) > free_bytes / 4 &&
	       (*slots > min_slots || *keys > min_keys)) {
		*slots = *slots / 2 > min_slots ? *slots / 2 : min_slots;
		*keys = *keys / 2 > min_keys ? *keys / 2 : min_keys;
	}
	return table_bytes(*slots, *keys) > free_bytes / 2 ? -1 : 0;
}

static int table_setup(struct gpu_backend *gb, struct gpu_tok_table *t,
		       uint64_t slots, uint64_t keys)
{
	pthread_mutex_init(&t->lock, NULL);
	t->dev.n_slots = slots;
	t->dev.key_bytes = keys;
	if (cudaMalloc((void **)&t->dev.slots, slots *
		       sizeof(struct gh_tok_entry)) ||
	    cudaMemset(t->dev.slots, 0, slots * sizeof(struct gh_tok_entry)) ||
	    cudaMalloc((void **)&t->dev.keys, keys) ||
	    cudaMalloc((void **)&t->dev.used, 2 * sizeof(*t->dev.used)) ||
	    cudaMemset(t->dev.used, 0, 2 * sizeof(*t->dev.used)) ||
	    cudaMallocHost((void **)&t->h_used, 2 * sizeof(*t->h_used)) ||
	    cudaMallocHost((void **)&t->window[0], gb->tok_window) ||
	    cudaMallocHost((void **)&t->window[1], gb->tok_window))
		return -1;
	t->h_used[0] = t->h_used[1] = 0;
	return 0;
}

int gh_gpu_tokens_setup(struct gpu_backend *gb,
			const struct gpuhist_options *opts)
{
	uint64_t chunk = gb->base.chunk_bytes, slots, keys;

	if (chunk > TOK_CHUNK_MAX)
		return -1;
	gb->tok_workers = gh_readers(opts);
	gb->tok_window = gh_tok_record_bytes(chunk) > TOK_WINDOW
			 ? gh_tok_record_bytes(chunk) : TOK_WINDOW;
	gb->tok_view = opts->tokens;
	gb->tok_field = opts->field;
	gb->tok_separator = opts->separator;
	for (int i = 0; i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		if (gh_gpu_use_device(d->id) != cudaSuccess ||
		    table_size(chunk, &slots, &keys))
			goto out_of_memory;
		d->tok_table = calloc(1, sizeof(*d->tok_table));
		if (!d->tok_table)
			return -1;
		if (table_setup(gb, d->tok_table, slots, keys))
			goto out_of_memory;
	}
	/* The tables' zeroes in place before any chunk's stream (which
	 * does not wait for the legacy one) counts on them. */
	for (int i = 0; i < gb->n_devices; i++)
		if (gh_gpu_use_device(gb->devices[i].id) ||
		    cudaDeviceSynchronize())
			goto out_of_memory;
	return 0;
out_of_memory:
	cudaGetLastError();     /* not a sticky error: clear it */
	return -1;
}

/* One thread's share of a window's units: those of the counts' tables
 * k with k mod workers == w, so that no two threads meet at a table. */
struct add_task {
	struct gh_tokens *owner;
	const struct gh_unit *units;
	uint64_t n;
	int w, workers;
	uint64_t reserve_units, reserve_bytes;  /* a table's share of the
						 * drain (first window) */
};

/* The counts say why they failed, at their end. */
static void *add_share(void *arg)
{
	const struct add_task *k = arg;
	struct gh_unit batch[BATCH];
	int m = 0;

	/* Tables grown once, not doubled again and again under the adds. */
	for (unsigned table = (unsigned)k->w;
	     k->reserve_units && table < 1u << GH_COUNTS_TABLE_BITS;
	     table += (unsigned)k->workers)
		if (gh_tokens_reserve(k->owner, table, k->reserve_units,
				      k->reserve_bytes))
			return NULL;
	for (uint64_t i = 0; i < k->n; i++) {
		if ((int)(gh_counts_table_of(k->units[i].hash) %
			  (unsigned)k->workers) != k->w)
			continue;
		batch[m++] = k->units[i];
		if (m == BATCH) {
			if (gh_tokens_add(k->owner, batch, m))
				return NULL;
			m = 0;
		}
	}
	if (m)
		gh_tokens_add(k->owner, batch, m);
	return NULL;
}

/* The whole records at the start of window[0, len), as units; how many,
 * and in *used the bytes they take. */
static uint64_t records(const unsigned char *window, uint64_t len,
			struct gh_unit *units, uint64_t *used)
{
	uint64_t p = 0, k = 0;

	while (p + sizeof(struct gh_tok_record) <= len) {
		const struct gh_tok_record *r = (const void *)(window + p);
		uint64_t size = gh_tok_record_bytes(r->len);

		if (p + size > len)
			break;
		units[k++] = (struct gh_unit){ window + p + sizeof(*r), r->len,
					       r->hash, r->count };
		p += size;
	}
	*used = p;
	return k;
}

/* Queues the copy of t's arena from `from` (of total bytes) into window
 * w; 0, or -1 with the error recorded. */
static int copy_window(struct gpu_backend *gb, struct gpu_tok_table *t,
		       int w, uint64_t from, uint64_t total,
		       cudaStream_t stream)
{
	uint64_t len = total - from < gb->tok_window ? total - from
						     : gb->tok_window;
	cudaError_t err = cudaMemcpyAsync(t->window[w], t->dev.keys + from,
					  len, cudaMemcpyDeviceToHost, stream);

	return err ? gh_gpu_failed(&gb->base, "copying tokens back", err) : 0;
}

static int out_of_memory(struct gpu_backend *gb)
{
	snprintf(gb->base.error, sizeof(gb->base.error),
		 "out of host memory for the device's tokens");
	pthread_mutex_lock(&gb->lock);
	gb->failed = 1;
	pthread_mutex_unlock(&gb->lock);
	return -1;
}

/* Waits for every stream of device d (current), whose chunks count into
 * its table t (its lock held: no launch comes between), then reads the
 * table's counters into t->h_used; 0, or -1 with the error recorded. */
static int wait_table(struct gpu_backend *gb, struct gpu_device *d,
		      struct gpu_tok_table *t)
{
	cudaStream_t stream = d->streams[0];
	cudaError_t err = cudaSuccess;

	for (int s = 0; s < gb->n_streams && !err; s++)
		err = cudaStreamSynchronize(d->streams[s]);
	if (!err)
		err = cudaMemcpyAsync(t->h_used, t->dev.used,
				      2 * sizeof(*t->h_used),
				      cudaMemcpyDeviceToHost, stream);
	if (!err)
		err = cudaStreamSynchronize(stream);
	return err ? gh_gpu_failed(&gb->base, "waiting for tokens", err) : 0;
}

/* Empties device d's table t (its lock held, d current) into its owner's
 * counts; 0, or -1 with the error recorded. */
static int drain(struct gpu_backend *gb, struct gpu_device *d,
		 struct gpu_tok_table *t)
{
	cudaStream_t stream = d->streams[0];
	struct add_task tasks[64];
	struct gh_unit *units = NULL;
	uint64_t total, distinct, at = 0;
	int cur = 0, ret = 0;
	cudaError_t err;

	t->slots_bound = t->bytes_bound = 0;
	if (!t->owner)
		return 0;
	/* Every stream's launches on it done. */
	if (wait_table(gb, d, t))
		return -1;
	if ((err = gh_kernel_tokens_stamp(&t->dev, stream)) ||
	    (err = cudaMemcpyAsync(t->h_used, t->dev.used,
				   2 * sizeof(*t->h_used),
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaMemsetAsync(t->dev.used, 0, 2 * sizeof(*t->h_used),
				   stream)) ||
	    (err = cudaStreamSynchronize(stream)))
		return gh_gpu_failed(&gb->base, "stamping tokens", err);
	distinct = t->h_used[0];
	total = t->h_used[1];
	t->h_used[0] = t->h_used[1] = 0;
	if (total && !(units = malloc(gb->tok_window /
				      sizeof(struct gh_tok_record) *
				      sizeof(*units))))
		ret = out_of_memory(gb);
	if (!ret && total &&
	    !(ret = copy_window(gb, t, cur, 0, total, stream)) &&
	    (err = cudaStreamSynchronize(stream)))
		ret = gh_gpu_failed(&gb->base, "copying tokens back", err);
	while (!ret && at < total) {
		uint64_t len = total - at < gb->tok_window ? total - at
							   : gb->tok_window;
		uint64_t used, n = records(t->window[cur], len, units, &used);
		int workers = gb->tok_workers;

		if (!used) {            /* a record past its window: never */
			snprintf(gb->base.error, sizeof(gb->base.error),
				 "the device's tokens are not whole");
			ret = -1;
			break;
		}
		/* The next window comes while this one's are added. */
		if (at + used < total &&
		    (ret = copy_window(gb, t, !cur, at + used, total, stream)))
			break;
		if ((uint64_t)workers > n / PER_WORKER + 1)
			workers = (int)(n / PER_WORKER + 1);
		if (workers > 64)
			workers = 64;
		/* Each table's share of the whole drain, a tenth more for
		 * the hash's unevenness. */
		for (int w = 0; w < workers; w++)
			tasks[w] = (struct add_task){
				t->owner, units, n, w, workers,
				at ? 0 : distinct / 58 + 16,
				at ? 0 : (total - distinct *
					  sizeof(struct gh_tok_record)) / 58 +
					 64 };
		gh_run_each(workers, add_share, tasks, sizeof(tasks[0]));
		at += used;
		cur = !cur;
		if (at < total && (err = cudaStreamSynchronize(stream)))
			ret = gh_gpu_failed(&gb->base, "copying tokens back",
					    err);
	}
	free(units);
	t->owner = NULL;
	return ret;
}

int gh_gpu_tokens_count(struct gpu_backend *gb, struct gpu_chunk *c,
			int input)
{
	const struct gh_chunk *ch = &c->chunk;
	struct gpu_device *d = c->device;
	struct gpu_tok_table *t = d->tok_table;
	uint64_t n = ch->tok_to - ch->tok_from;
	uint64_t slots = gh_tok_distinct_max(n), bytes = gh_tok_arena_bytes_max(n);
	cudaError_t err;
	int ret = 0;

	if (ch->tok_to <= ch->tok_from)
		return 0;
	pthread_mutex_lock(&t->lock);
	/* Another input's units go to it first. */
	if (t->owner && (t->owner != ch->tokens || t->owner_input != input))
		ret = drain(gb, d, t);
	/* Might this chunk not fit?  Then ask the table, and empty it if
	 * it may not. */
	if (!ret && (t->slots_bound + slots > t->dev.n_slots / 2 ||
		     t->bytes_bound + bytes > t->dev.key_bytes) &&
	    !(ret = wait_table(gb, d, t))) {
		t->slots_bound = t->h_used[0];
		t->bytes_bound = t->h_used[1];
		if (t->slots_bound + slots > t->dev.n_slots / 2 ||
		    t->bytes_bound + bytes > t->dev.key_bytes)
			ret = drain(gb, d, t);
	}
	if (!ret) {
		t->owner = ch->tokens;
		t->owner_input = input;
		t->slots_bound += slots;
		t->bytes_bound += bytes;
		if ((err = gh_kernel_tokens_insert(c->dev, ch->tok_from,
						   ch->tok_to, gb->tok_view,
						   gb->tok_field,
						   gb->tok_separator, &t->dev,
						   c->stream)))
			ret = gh_gpu_failed(&gb->base,
					    "the tokens kernel's launch", err);
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int gh_gpu_tokens_finish(struct gpu_backend *gb, int input)
{
	int ret = 0;

	for (int i = 0; i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];
		struct gpu_tok_table *t = d->tok_table;
		cudaError_t err;

		pthread_mutex_lock(&t->lock);
		if (t->owner && t->owner_input == input) {
			if ((err = gh_gpu_use_device(d->id)) != cudaSuccess)
				ret = gh_gpu_failed(&gb->base, "cudaSetDevice",
						    err);
			else if (drain(gb, d, t))
				ret = -1;
		}
		pthread_mutex_unlock(&t->lock);
	}
	return ret;
}

void gh_gpu_tokens_describe(struct gpu_backend *gb, char *buf, size_t len)
{
	const struct gh_tok_table *t = &gb->devices[0].tok_table->dev;

	snprintf(buf, len, ", tokens counted on the device in a table of %llu slots and %llu MiB of records",
		 (unsigned long long)t->n_slots,
		 (unsigned long long)(t->key_bytes >> 20));
}

void gh_gpu_tokens_free(struct gpu_backend *gb)
{
	for (int i = 0; gb->devices && i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];
		struct gpu_tok_table *t = d->tok_table;

		if (!t)
			continue;
		gh_gpu_use_device(d->id);
		cudaFree(t->dev.slots);
		cudaFree(t->dev.keys);
		cudaFree(t->dev.used);
		cudaFreeHost(t->h_used);
		cudaFreeHost(t->window[0]);
		cudaFreeHost(t->window[1]);
		pthread_mutex_destroy(&t->lock);
		free(t);
		d->tok_table = NULL;
	}
}
#endif
