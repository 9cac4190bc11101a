/* gpu_tokens.c - the GPU backend's tokens: each chunk's inside counted by
 * kernels/tokens.cu into tables on the device that last for the input,
 * their distinct units added to the input's counts when a table is full
 * (by a thread of its own, while the other table fills) and at its end
 *
 * submit.c keeps a chunk's two ends on the host and hands the backend its
 * inside; after the chunk's copy and byte count, its stream counts the
 * inside's units into its device's active table (every stream of the
 * device adds to it at once), which writes a record (hash, length,
 * bytes) of each unit it meets for the first time into its arena, so the
 * chunk may be refilled as soon as its work is done.  A table belongs to
 * one input at a time (its owner).  The host bounds what each launch may
 * add (gh_tok_distinct_max slots, gh_tok_arena_bytes_max arena bytes),
 * and reads the table's own counters, after waiting for the device's
 * streams, only when that bound passes the table's limit.  A table past
 * its limit, or holding another input's units, is retired: the other
 * becomes active (once its own emptying is done), and a thread empties
 * it - waits for the launches on it (an event a stream), stamps each
 * slot's count into its record, copies the arena's records back in
 * windows through pinned buffers (the next window's copy under the adding
 * of this one's), and adds them to the owner's counts (tokens.c,
 * counts.c, which spill past --memory) on several threads, each taking
 * the units of its own share of the counts' tables.  At an input's end
 * its active table is emptied the same way, in the finishing thread.
 * Where units seldom repeat (fewer than two a distinct one, at the last
 * emptying) a table's limit is an eighth of its size (four chunks' bound
 * at least), so that emptying keeps pace with the stream and little is
 * left for the end; where they repeat, the whole of it, so that a repeat
 * is added once.
 *
 * The tables are kept whole for the input instead (GPUHIST_GPU_TOKEN_KEEP=0
 * turns it off, to compare): a
 * full one grows (its slots placed again in twice as many, its records
 * copied into an arena twice as large, up to 128 Mi slots and 8 GiB) where
 * the device has room, and is emptied only past that; and at an input's
 * end its table is handed over, not added: its records are copied back
 * once, with an index of where they lie, and the counts adopt them as the
 * input's distinct tokens (tokens/adopted.c), so the host hashes only the
 * units it counted itself (the chunks' joined ends, chunks the CPU took
 * under auto) and those of tables emptied mid-input (and where the counts
 * would not take them, past half of --memory, they are added as above).
 * With several devices, each keeps a table of the chunks it counted; at
 * the input's end the others' slots and records are copied to the first
 * one's device (peer to peer where the devices can; where it has no room
 * for the copies, back through the host) and added, with their counts,
 * to its table (grown for them; where it cannot be, they are added to the
 * counts), which is then handed over as one device's is, or its commonest
 * picked.
 */
#include "config.h"

#ifdef HAVE_CUDA
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gpu_private.h"
#include "run_each.h"
#include "tokens/adopted.h"
#include "tokens/bigmem.h"
#include "tokens/tokens.h"

_Static_assert(GH_TOK_WORDS == GPUHIST_TOKENS_WORDS &&
	       GH_TOK_LINES == GPUHIST_TOKENS_LINES &&
	       GH_TOK_FIELD == GPUHIST_TOKENS_FIELD,
	       "the kernels' views are gpuhist.h's");
_Static_assert(sizeof(struct gh_tok_record) ==
	       sizeof(struct gh_adopted_record) &&
	       offsetof(struct gh_tok_record, count) ==
	       offsetof(struct gh_adopted_record, count) &&
	       offsetof(struct gh_tok_record, len) ==
	       offsetof(struct gh_adopted_record, len) &&
	       GH_TOK_WINDOW_BITS == GH_ADOPTED_WINDOW_BITS,
	       "the kernels' records are those the counts adopt");

/* Chunks larger than this count their tokens on the host: a 16 MiB
 * chunk needs tables of 16 Mi slots and 144 MiB of arena. */
#define TOK_CHUNK_MAX ((uint64_t)16 << 20)

/* A table's size where the device has room: 16 Mi slots of 32 bytes and
 * an arena of 256 MiB (768 MiB in all, two a device), so that a log's
 * distinct tokens of an input's first hundreds of MiB stay on the device,
 * and the host asks the table how full it is every seventh 4 MiB chunk,
 * not every third.  The tables take at most a quarter of the device's
 * free memory; they shrink by halves to the fewest a chunk needs. */
#define TOK_SLOTS ((uint64_t)16 << 20)
#define TOK_ARENA ((uint64_t)256 << 20)
/* Kept whole for an input, a table grows up to 128 Mi slots (4 GiB) and
 * 8 GiB of records, where a quarter of the device's free memory holds
 * them: a GiB of log of a distinct token a line takes 36 Mi slots and
 * 1.3 GB of records (csv's 18 M tokens). */
#define TOK_KEEP_SLOTS ((uint64_t)128 << 20)
#define TOK_KEEP_ARENA ((uint64_t)8 << 30)
/* The most: the kernels' places are 32-bit (in 8-byte words). */
#define TOK_SLOTS_MAX ((uint64_t)1 << 30)
#define TOK_ARENA_MAX ((uint64_t)1 << 35)
/* The arena comes back in windows of this much (or of the largest
 * record, where more), two pinned buffers a table, pinned with the
 * tables at the start: pinned at an input's end they cost a run of
 * few distinct units a sixth of its time on the GPU (bench/NOTES.md). */
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
	/* For the tests: the fewest, emptied often (min) or grown often
	 * (min-grown). */
	if (env && (!strcmp(env, "min") || !strcmp(env, "min-grown"))) {
		*slots = min_slots;
		*keys = min_keys;
	}
	if (*slots > TOK_SLOTS_MAX || *keys > TOK_ARENA_MAX ||
	    cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
		return -1;
	while (2 * table_bytes(*slots, *keys) > free_bytes / 4 &&
	       (*slots > min_slots || *keys > min_keys)) {
		*slots = *slots / 2 > min_slots ? *slots / 2 : min_slots;
		*keys = *keys / 2 > min_keys ? *keys / 2 : min_keys;
	}
	return 2 * table_bytes(*slots, *keys) > free_bytes / 2 ? -1 : 0;
}

static int table_setup(struct gpu_backend *gb, struct gpu_device *d,
		       struct gpu_tok_table *t, uint64_t slots, uint64_t keys)
{
	t->gb = gb;
	t->device = d;
	t->dev.n_slots = slots;
	t->dev.key_bytes = keys;
	t->slots_limit = slots / 2;
	t->bytes_limit = keys;
	t->retired = calloc((size_t)gb->n_streams, sizeof(*t->retired));
	if (!t->retired ||
	    cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking))
		return -1;
	for (int s = 0; s < gb->n_streams; s++)
		if (cudaEventCreateWithFlags(&t->retired[s],
					     cudaEventDisableTiming))
			return -1;
	if (cudaMalloc((void **)&t->dev.slots, slots *
		       sizeof(struct gh_tok_entry)) ||
	    cudaMemset(t->dev.slots, 0, slots * sizeof(struct gh_tok_entry)) ||
	    cudaMalloc((void **)&t->dev.keys, keys) ||
	    cudaMalloc((void **)&t->dev.used, 2 * sizeof(*t->dev.used)) ||
	    (gb->tok_keep &&
	     (cudaMalloc((void **)&t->d_first,
			 gh_adopted_windows(TOK_ARENA_MAX) *
			 sizeof(*t->d_first)) ||
	      cudaMalloc((void **)&t->d_n, gh_adopted_windows(TOK_ARENA_MAX) *
			 sizeof(*t->d_n)))) ||
	    cudaMemset(t->dev.used, 0, 2 * sizeof(*t->dev.used)) ||
	    cudaMallocHost((void **)&t->h_used, 2 * sizeof(*t->h_used)))
		return -1;
	t->h_used[0] = t->h_used[1] = 0;
	return 0;
}

int gh_gpu_tokens_setup(struct gpu_backend *gb,
			const struct gpuhist_options *opts)
{
	uint64_t chunk = gb->base.chunk_bytes, slots, keys;

	gb->tok_why = gh_tokens_gpu_why_not(opts);
	if (gb->tok_why)
		return -1;
	if (chunk > TOK_CHUNK_MAX) {
		gb->tok_why = "chunks over 16 MiB";
		return -1;
	}
	gb->tok_why = "no room on the device";
	gb->tok_workers = gh_readers(opts);
	/* Under a --memory of less than a GiB, windows of a record of a
	 * chunk's length, the least that holds every record. */
	gb->tok_window = gh_tok_record_bytes(chunk);
	if ((!opts->memory || opts->memory >= (uint64_t)1 << 30) &&
	    gb->tok_window < TOK_WINDOW)
		gb->tok_window = TOK_WINDOW;
	gb->tok_view = opts->tokens;
	gb->tok_field = opts->field;
	gb->tok_separator = opts->separator;
	/* Tables kept whole for an input (several devices': added into one
	 * at its end).  GPUHIST_GPU_TOKEN_KEEP=0 turns it off (to
	 * compare). */
	const char *keep = getenv("GPUHIST_GPU_TOKEN_KEEP");

	const char *table = getenv("GPUHIST_GPU_TOKEN_TABLE");

	gb->tok_keep = !(keep && !strcmp(keep, "0"));
	gb->tok_grow = gb->tok_keep && !(table && !strcmp(table, "min"));
	/* An input that asks only for its commonest: picked on the device
	 * (GPUHIST_GPU_TOKEN_PICK=0 turns it off, to compare). */
	const char *pick = getenv("GPUHIST_GPU_TOKEN_PICK");

	gb->tok_top = gb->tok_keep && !(pick && !strcmp(pick, "0"))
		      ? opts->tokens_top : 0;
	gb->tok_top_now = &opts->tokens_top;
	for (int i = 0; i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		if (gh_gpu_use_device(d->id) != cudaSuccess ||
		    table_size(chunk, &slots, &keys))
			goto out_of_memory;
		d->tok_tables = calloc(2, sizeof(*d->tok_tables));
		if (!d->tok_tables)
			return -1;
		pthread_mutex_init(&d->tok_lock, NULL);
		for (int k = 0; k < 2; k++)
			if (table_setup(gb, d, &d->tok_tables[k], slots, keys) ||
			    cudaMallocHost((void **)&d->tok_tables[k].window[0],
					   gb->tok_window) ||
			    cudaMallocHost((void **)&d->tok_tables[k].window[1],
					   gb->tok_window))
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

/* Fails the backend with why (the first failure of any thread wins, as
 * gh_gpu_failed's); -1. */
static int tokens_failed(struct gpu_backend *gb, const char *why)
{
	pthread_mutex_lock(&gb->lock);
	if (!gb->failed)
		snprintf(gb->base.error, sizeof(gb->base.error), "%s", why);
	gb->failed = 1;
	pthread_mutex_unlock(&gb->lock);
	return -1;
}

static bool backend_failed(struct gpu_backend *gb)
{
	bool failed;

	pthread_mutex_lock(&gb->lock);
	failed = gb->failed;
	pthread_mutex_unlock(&gb->lock);
	return failed;
}

/* Waits for every stream of device d (current), whose chunks count into
 * its active table t (d->tok_lock held: no launch comes between), then
 * reads the table's counters into its bounds; 0, or -1 with the error
 * recorded. */
static int wait_table(struct gpu_backend *gb, struct gpu_device *d,
		      struct gpu_tok_table *t)
{
	cudaError_t err = cudaSuccess;

	for (int s = 0; s < gb->n_streams && !err; s++)
		err = cudaStreamSynchronize(d->streams[s]);
	/* On its own stream, idle while it is active. */
	if (!err)
		err = cudaMemcpyAsync(t->h_used, t->dev.used,
				      2 * sizeof(*t->h_used),
				      cudaMemcpyDeviceToHost, t->stream);
	if (!err)
		err = cudaStreamSynchronize(t->stream);
	if (err)
		return gh_gpu_failed(&gb->base, "waiting for tokens", err);
	t->slots_bound = t->h_used[0];
	t->bytes_bound = t->h_used[1];
	return 0;
}

/* Table t's limits, a 2^shift-th of its size, but four chunks' bound at
 * least. */
static void limit_table(struct gpu_tok_table *t, int shift)
{
	uint64_t slots = t->dev.n_slots / 2 >> shift;
	uint64_t bytes = t->dev.key_bytes >> shift;
	uint64_t chunk = t->gb->base.chunk_bytes;
	uint64_t least_slots = 4 * gh_tok_distinct_max(chunk);
	uint64_t least_bytes = 4 * gh_tok_arena_bytes_max(chunk);

	/* Never below four chunks' bound (the words view's is a range's):
	 * else every launch past a table's first waits for the device. */
	if (slots < least_slots)
		slots = least_slots;
	if (bytes < least_bytes)
		bytes = least_bytes;
	/* Nor above the table. */
	if (slots > t->dev.n_slots / 2)
		slots = t->dev.n_slots / 2;
	if (bytes > t->dev.key_bytes)
		bytes = t->dev.key_bytes;
	__atomic_store_n(&t->slots_limit, slots, __ATOMIC_RELAXED);
	__atomic_store_n(&t->bytes_limit, bytes, __ATOMIC_RELAXED);
}

/* The limits of device d's tables after t was emptied of `distinct`
 * units that came `units` times: an eighth of a table where units seldom
 * repeat (with several devices; a table kept whole takes all it has). */
static void set_limits(struct gpu_device *d, const struct gpu_tok_table *t,
		       uint64_t distinct, uint64_t units)
{
	int shift = !t->gb->tok_keep && distinct && units < 2 * distinct ? 3
									  : 0;

	limit_table(&d->tok_tables[0], shift);
	limit_table(&d->tok_tables[1], shift);
}

/* Grows device d's active table t, whose counters wait_table has just
 * read (nothing counts on it), so that `slots` more units and `bytes`
 * more record bytes fit: its slots doubled until they do (placed again)
 * and its arena doubled (the records copied), up to TOK_KEEP_SLOTS and
 * TOK_KEEP_ARENA, where a quarter of the device's free memory holds what
 * it takes.  0 when they fit now; 1 where it cannot grow that far (t as
 * it was: to be emptied); -1 with the error recorded. */
static int grow(struct gpu_backend *gb, struct gpu_tok_table *t,
		uint64_t slots, uint64_t bytes)
{
	struct gh_tok_table to = t->dev;
	size_t free_bytes = 0, total = 0;
	uint64_t more = 0;
	cudaError_t err = cudaSuccess;

	while (t->slots_bound + slots > to.n_slots / 2 &&
	       to.n_slots < TOK_KEEP_SLOTS)
		to.n_slots *= 2;
	while (t->bytes_bound + bytes > to.key_bytes &&
	       2 * to.key_bytes <= TOK_KEEP_ARENA)
		to.key_bytes *= 2;
	if (t->slots_bound + slots > to.n_slots / 2 ||
	    t->bytes_bound + bytes > to.key_bytes)
		return 1;
	if (to.n_slots != t->dev.n_slots)
		more += to.n_slots * sizeof(struct gh_tok_entry);
	if (to.key_bytes != t->dev.key_bytes)
		more += to.key_bytes;
	if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess ||
	    more > free_bytes / 4) {
		cudaGetLastError();
		return 1;
	}
	if (to.n_slots != t->dev.n_slots &&
	    cudaMalloc((void **)&to.slots,
		       to.n_slots * sizeof(struct gh_tok_entry)) != cudaSuccess) {
		cudaGetLastError();
		return 1;
	}
	if (to.key_bytes != t->dev.key_bytes &&
	    cudaMalloc((void **)&to.keys, to.key_bytes) != cudaSuccess) {
		cudaGetLastError();
		if (to.slots != t->dev.slots)
			cudaFree(to.slots);
		return 1;
	}
	if (to.slots != t->dev.slots &&
	    ((err = cudaMemsetAsync(to.slots, 0, to.n_slots *
				    sizeof(struct gh_tok_entry), t->stream)) ||
	     (err = gh_kernel_tokens_rehash(&t->dev, &to, t->stream))))
		return gh_gpu_failed(&gb->base, "growing the tokens' table", err);
	if (to.keys != t->dev.keys && t->bytes_bound &&
	    (err = cudaMemcpyAsync(to.keys, t->dev.keys, t->bytes_bound,
				   cudaMemcpyDeviceToDevice, t->stream)))
		return gh_gpu_failed(&gb->base, "growing the tokens' table", err);
	if ((err = cudaStreamSynchronize(t->stream)))
		return gh_gpu_failed(&gb->base, "growing the tokens' table", err);
	if (to.slots != t->dev.slots)
		cudaFree(t->dev.slots);
	if (to.keys != t->dev.keys)
		cudaFree(t->dev.keys);
	t->dev = to;
	limit_table(t, 0);
	return 0;
}

/* Makes table t's device current and its stream wait for every launch
 * on it (its `retired` events); CUDA's error. */
static cudaError_t after_launches(struct gpu_tok_table *t)
{
	cudaError_t err = gh_gpu_use_device(t->device->id);

	for (int s = 0; s < t->gb->n_streams && !err; s++)
		err = cudaStreamWaitEvent(t->stream, t->retired[s], 0);
	return err;
}

/* Empties table t, whose launches are all queued before its `retired`
 * events (recorded on every stream of its device), into its owner's
 * counts; 0, or -1 with the error recorded. */
static int drain(struct gpu_tok_table *t)
{
	struct gpu_backend *gb = t->gb;
	cudaStream_t stream = t->stream;
	struct add_task tasks[64];
	struct gh_unit *units = NULL;
	uint64_t total, distinct, at = 0, counted = 0;
	int cur = 0, ret = 0;
	cudaError_t err;

	if (!t->owner)          /* empty */
		return 0;
	if ((err = after_launches(t)) ||
	    (err = gh_kernel_tokens_stamp(&t->dev, NULL, NULL, stream)) ||
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
		ret = tokens_failed(gb, "out of host memory for the device's tokens");
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
			ret = tokens_failed(gb, "the device's tokens are not whole");
			break;
		}
		/* The next window comes while this one's are added. */
		if (at + used < total &&
		    (ret = copy_window(gb, t, !cur, at + used, total, stream)))
			break;
		for (uint64_t i = 0; i < n; i++)
			counted += units[i].n;
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
	if (!ret)
		set_limits(t->device, t, distinct, counted);
	return ret;
}

/* A share of a window's bytes, copied out of pinned memory. */
struct copy_task {
	unsigned char *to;
	const unsigned char *from;
	uint64_t len;
};

static void *copy_share(void *arg)
{
	const struct copy_task *k = arg;

	memcpy(k->to, k->from, k->len);
	return NULL;
}

/* Copies table t's arena [0, bytes) into `to` (gh_big_alloc's memory)
 * through its pinned windows, the next window's copy under this one's
 * move into `to` on several threads (the page faults of a fresh GiB were
 * most of a copy straight into it: bench/NOTES.md); 0, or -1 with the
 * error recorded. */
static int copy_back(struct gpu_tok_table *t, unsigned char *to,
		     uint64_t bytes)
{
	struct gpu_backend *gb = t->gb;
	struct copy_task tasks[64];
	uint64_t at = 0;
	cudaError_t err;
	int cur = 0;

	if (bytes && copy_window(gb, t, cur, 0, bytes, t->stream))
		return -1;
	while (at < bytes) {
		uint64_t len = bytes - at < gb->tok_window ? bytes - at
							   : gb->tok_window;
		uint64_t share = (uint64_t)1 << 20;
		int n = (int)((len + share - 1) / share);

		if ((err = cudaStreamSynchronize(t->stream)))
			return gh_gpu_failed(&gb->base, "copying tokens back",
					     err);
		if (at + len < bytes &&
		    copy_window(gb, t, !cur, at + len, bytes, t->stream))
			return -1;
		if (n > gb->tok_workers)
			n = gb->tok_workers;
		if (n > 64)
			n = 64;
		if (n < 1)
			n = 1;
		share = (len + (uint64_t)n - 1) / (uint64_t)n;
		for (int k = 0; k < n; k++) {
			uint64_t from = share * (uint64_t)k;

			tasks[k] = (struct copy_task){
				to + at + from, t->window[cur] + from,
				from < len ? (len - from < share ? len - from
								 : share)
					   : 0 };
		}
		gh_run_each(n, copy_share, tasks, sizeof(tasks[0]));
		at += len;
		cur = !cur;
	}
	if ((err = cudaStreamSynchronize(t->stream)))
		return gh_gpu_failed(&gb->base, "copying tokens back", err);
	return 0;
}

/* Adds the host's units of t's owner (gh_tokens_take_held: the joined
 * ends, tables emptied mid-input) to t with their counts, so that t holds
 * the whole input; 0; 1 where they cannot be (t as it was, but the last
 * unit counted on the host); -1 with the error recorded.  The stream
 * waits for every launch on t already. */
static int add_held(struct gpu_tok_table *t)
{
	struct gpu_backend *gb = t->gb;
	unsigned char *recs = NULL, *d_recs = NULL;
	uint64_t *offs = NULL, *d_offs = NULL, n, bytes;
	cudaError_t err;
	/* No unit a drain's window could not hold, should the table be
	 * emptied into the counts after all. */
	int ret = gh_tokens_take_held(t->owner, gb->tok_window -
				      sizeof(struct gh_tok_record) - 8,
				      &recs, &offs, &n, &bytes);

	if (ret)
		return 1;       /* a failure is the tokens', at their end */
	if (n && (n > UINT32_MAX ||
		  t->h_used[0] + n > t->dev.n_slots / 2 ||
		  t->h_used[1] + bytes > t->dev.key_bytes)) {
		ret = 1;
	} else if (n && (cudaMalloc((void **)&d_recs, bytes) ||
			 cudaMalloc((void **)&d_offs, n * sizeof(*offs)))) {
		cudaGetLastError();     /* no room: handed over whole */
		ret = 1;
	} else if (n) {
		if ((err = cudaMemcpyAsync(d_recs, recs, bytes,
					   cudaMemcpyHostToDevice,
					   t->stream)) ||
		    (err = cudaMemcpyAsync(d_offs, offs, n * sizeof(*offs),
					   cudaMemcpyHostToDevice,
					   t->stream)) ||
		    (err = gh_kernel_tokens_add(&t->dev, d_recs, d_offs,
						(uint32_t)n, t->stream)) ||
		    (err = cudaStreamSynchronize(t->stream)))
			ret = gh_gpu_failed(&gb->base, "adding the host's tokens",
					    err);
		else
			gh_tokens_drop_held(t->owner);
		cudaFree(d_recs);
		cudaFree(d_offs);
	}
	free(recs);
	free(offs);
	return ret;
}

/* Each window's first record and how many begin in it, as the stamp
 * kernel notes them, for a list of records made on the host. */
static int index_windows(struct gh_adopted *a)
{
	a->windows = gh_adopted_windows(a->bytes);
	a->first = malloc(a->windows * sizeof(*a->first));
	a->n = calloc(a->windows, sizeof(*a->n));
	if (!a->first || !a->n)
		return -1;
	memset(a->first, 0xff, a->windows * sizeof(*a->first));
	for (uint64_t at = 0; at + sizeof(struct gh_adopted_record) <= a->bytes;) {
		const struct gh_adopted_record *r = (const void *)(a->data + at);
		uint64_t w = at >> GH_ADOPTED_WINDOW_BITS;

		if (a->first[w] == UINT32_MAX)
			a->first[w] = (uint32_t)(at >> 3);
		a->n[w]++;
		at += gh_adopted_record_bytes(r->len);
	}
	return 0;
}

/* How many more ties than the top needs a pick may take: the ties are
 * narrowed by their leading bytes until so few are left. */
#define TIES_SLACK 1024

/* Narrows t's `tied` units of count ties->count (every launch done) to
 * those the top may need: the first `need` of them in the rows' order
 * (bytes ascending) are among the ones whose leading ties->depth bytes,
 * zero-filled, are at most ties->b's, *taken of them (need + TIES_SLACK
 * at most).  A radix select: the ties' next 8 bytes gathered, then a byte
 * of them a launch.  0; 1 where they do not narrow (alike in their first
 * GH_TOK_TIE_BYTES bytes) or there is no room; -1 with the error
 * recorded. */
static int narrow_ties(struct gpu_tok_table *t, uint64_t tied, uint64_t need,
		       struct gh_tok_ties *ties, uint64_t *taken)
{
	struct gpu_backend *gb = t->gb;
	cudaStream_t stream = t->stream;
	uint64_t *d_heads = NULL, below = 0, equal = tied;
	unsigned long long *d_hist = NULL, h_hist[257];
	cudaError_t err = cudaSuccess;
	int ret = 0;

	if (cudaMalloc((void **)&d_heads, tied * sizeof(*d_heads))) {
		cudaGetLastError();     /* no room: handed over whole */
		d_heads = NULL;
		ret = 1;
		goto out;
	}
	if (cudaMalloc((void **)&d_hist, 257 * sizeof(*d_hist))) {
		cudaGetLastError();
		d_hist = NULL;
		ret = 1;
		goto out;
	}
	while (equal > need + TIES_SLACK) {
		uint64_t prefix = 0;

		if (ties->depth + 8 > GH_TOK_TIE_BYTES) {
			ret = 1;
			goto out;
		}
		/* The heads of the ties still equal, in d_hist[256]. */
		if ((err = cudaMemsetAsync(d_hist + 256, 0, sizeof(*d_hist),
					   stream)) ||
		    (err = gh_kernel_tokens_heads(&t->dev, ties, d_heads,
						  tied, d_hist + 256,
						  stream)) ||
		    (err = cudaMemcpyAsync(h_hist + 256, d_hist + 256,
					   sizeof(*d_hist),
					   cudaMemcpyDeviceToHost, stream)) ||
		    (err = cudaStreamSynchronize(stream)))
			goto out;
		if (h_hist[256] != equal) {
			err = cudaErrorUnknown;
			goto out;
		}
		for (unsigned shift = 56;; shift -= 8) {
			uint64_t before = 0;
			unsigned d = 0;

			if ((err = cudaMemsetAsync(d_hist, 0,
						   256 * sizeof(*d_hist),
						   stream)) ||
			    (err = gh_kernel_tokens_digits(d_heads,
							   h_hist[256], shift,
							   prefix, d_hist,
							   stream)) ||
			    (err = cudaMemcpyAsync(h_hist, d_hist,
						   256 * sizeof(*d_hist),
						   cudaMemcpyDeviceToHost,
						   stream)) ||
			    (err = cudaStreamSynchronize(stream)))
				goto out;
			/* The byte of the need-th: those below it are in. */
			while (d < 255 && before + h_hist[d] < need)
				before += h_hist[d++];
			below += before;
			need -= before;
			equal = h_hist[d];
			prefix |= (uint64_t)d << shift;
			ties->b[ties->depth++] = (unsigned char)d;
			if (equal <= need + TIES_SLACK || !shift)
				break;
		}
	}
	*taken = below + equal;
out:
	if (err)
		ret = gh_gpu_failed(&gb->base, "picking the commonest tokens",
				    err);
	cudaFree(d_hist);
	cudaFree(d_heads);
	return ret;
}

/* For an input that asks only for its commonest top units: t (its
 * counters in t->h_used, every launch done) made the whole input's (the
 * host's units added), its counts binned, and only the records at or
 * above the bin where the top end copied back, for the counts to adopt
 * as the commonest; where that bin is one count that most units share,
 * only those of its ties that the top may need (narrow_ties).  t left
 * empty.  0; 1 where the pick does not pay or cannot be made: then t
 * holds the whole input for the usual hand-over; -1 with the error
 * recorded. */
static int pick_commonest(struct gpu_tok_table *t)
{
	struct gpu_backend *gb = t->gb;
	cudaStream_t stream = t->stream;
	unsigned long long *d_sums = NULL, *h_sums = NULL;
	unsigned char *d_out = NULL;
	struct gh_adopted a = { 0 };
	struct gh_tok_ties ties = { 0 };
	uint64_t want = gb->tok_top, units = 0, bytes = 0, low = 0, distinct;
	uint32_t bound = 0;
	cudaError_t err;
	int ret = add_held(t);

	if (ret)
		return ret;
	/* units, bytes, total, the pick's place and its size alone; the
	 * counters */
	size_t n_sums = 2 * GH_TOK_BINS + 3;
	unsigned long long *d_place = NULL, *d_size = NULL;

	h_sums = malloc((n_sums + 2) * sizeof(*h_sums));
	if (!h_sums)
		return 1;
	if (cudaMalloc((void **)&d_sums, n_sums * sizeof(*d_sums))) {
		cudaGetLastError();     /* no room: handed over whole */
		d_sums = NULL;
		ret = 1;
		goto out;
	}
	d_place = d_sums + 2 * GH_TOK_BINS + 1;
	d_size = d_place + 1;
	if ((err = cudaMemsetAsync(d_sums, 0, n_sums * sizeof(*d_sums),
				   stream)) ||
	    (err = gh_kernel_tokens_bins(&t->dev, d_sums, d_sums + GH_TOK_BINS,
					 d_sums + 2 * GH_TOK_BINS, stream)) ||
	    (err = cudaMemcpyAsync(h_sums, d_sums, n_sums * sizeof(*d_sums),
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaMemcpyAsync(h_sums + n_sums, t->dev.used,
				   2 * sizeof(*h_sums),
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaStreamSynchronize(stream))) {
		ret = gh_gpu_failed(&gb->base, "picking the commonest tokens",
				    err);
		goto out;
	}
	t->h_used[0] = h_sums[n_sums];
	t->h_used[1] = h_sums[n_sums + 1];
	distinct = t->h_used[0];
	a.all_total = h_sums[2 * GH_TOK_BINS];
	/* The top's bound: the bins from the highest down until they hold
	 * `want` units; every unit above the top's last is there. */
	for (uint32_t b = GH_TOK_BINS; b-- > 1;) {
		units += h_sums[b];
		bytes += h_sums[GH_TOK_BINS + b];
		if (units >= want) {
			low = gh_tok_bin_low(b);
			bound = b;
			break;
		}
	}
	/* Many ties at the bound (distinct lines: most of them 1): only the
	 * few the top may need, and their bytes added up first; where even
	 * those would be too many to pay, not narrowed at all. */
	if (low && units > distinct / 4 && bound < 64 &&
	    want + TIES_SLACK <= distinct / 4) {
		uint64_t above = units - h_sums[bound], taken;

		ties.count = low;
		ret = narrow_ties(t, h_sums[bound], want - above, &ties, &taken);
		if (ret)
			goto out;
		units = above + taken;
		low++;
		if ((err = gh_kernel_tokens_pick(&t->dev, low, &ties, NULL,
						 d_size, stream)) ||
		    (err = cudaMemcpyAsync(h_sums, d_size, sizeof(*h_sums),
					   cudaMemcpyDeviceToHost, stream)) ||
		    (err = cudaStreamSynchronize(stream))) {
			ret = gh_gpu_failed(&gb->base,
					    "picking the commonest tokens", err);
			goto out;
		}
		bytes = h_sums[0];
	}
	/* Pays where it copies back a small share of the records. */
	if (!low || units > distinct / 4 ||
	    !gh_tokens_may_adopt(t->owner, bytes, units)) {
		ret = 1;
		goto out;
	}
	a.data = gh_big_alloc(bytes, false);
	a.bytes = bytes;                /* the size gh_adopted_free lets go */
	if (!a.data || cudaMalloc((void **)&d_out, bytes ? bytes : 8)) {
		cudaGetLastError();     /* no room: handed over whole */
		d_out = NULL;
		ret = 1;
		goto out;
	}
	if ((err = gh_kernel_tokens_pick(&t->dev, low, &ties, d_out, d_place,
					 stream)) ||
	    (err = cudaMemcpyAsync(a.data, d_out, bytes,
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaMemcpyAsync(h_sums, d_place, sizeof(*h_sums),
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaMemsetAsync(t->dev.slots, 0, t->dev.n_slots *
				   sizeof(*t->dev.slots), stream)) ||
	    (err = cudaMemsetAsync(t->dev.used, 0, 2 * sizeof(*t->h_used),
				   stream)) ||
	    (err = cudaStreamSynchronize(stream))) {
		ret = gh_gpu_failed(&gb->base, "picking the commonest tokens",
				    err);
		goto out;
	}
	t->h_used[0] = t->h_used[1] = 0;
	if (h_sums[0] != bytes) {
		ret = gh_gpu_failed(&gb->base, "picking the commonest tokens",
				    cudaErrorUnknown);
		goto out;
	}
	a.bytes = bytes;
	a.distinct = units;
	a.commonest = true;
	a.all_distinct = distinct;
	if (index_windows(&a)) {
		ret = gh_gpu_failed(&gb->base, "picking the commonest tokens",
				    cudaErrorMemoryAllocation);
		goto out;
	}
	/* Taken, as may_adopt said, unless the counts failed since. */
	gh_tokens_adopt(t->owner, &a);
	__atomic_fetch_add(&gb->tok_picked, 1, __ATOMIC_RELAXED);
	ret = 0;
out:
	gh_adopted_free(&a);
	cudaFree(d_out);
	cudaFree(d_sums);
	free(h_sums);
	return ret;
}

/* Hands table t, whose launches are all queued before its `retired`
 * events, to its owner whole: its records copied back once, with the
 * index of their windows, for the owner's counts to adopt (no unit added
 * to a host table).  0; 1 where the counts would not take them (t left
 * as it was, for drain()); -1 with the error recorded. */
static int hand_over(struct gpu_tok_table *t)
{
	struct gpu_backend *gb = t->gb;
	cudaStream_t stream = t->stream;
	struct gh_adopted a = { 0 };
	uint64_t distinct, bytes;
	cudaError_t err;

	if (!t->owner)          /* empty */
		return 0;
	if ((err = after_launches(t)) ||
	    (err = cudaMemcpyAsync(t->h_used, t->dev.used,
				   2 * sizeof(*t->h_used),
				   cudaMemcpyDeviceToHost, stream)) ||
	    (err = cudaStreamSynchronize(stream)))
		return gh_gpu_failed(&gb->base, "handing tokens over", err);
	distinct = t->h_used[0];
	bytes = t->h_used[1];
	if (!distinct)          /* launches of no unit: nothing to empty */
		return 0;
	if (gb->tok_top &&
	    __atomic_load_n(gb->tok_top_now, __ATOMIC_RELAXED)) {
		int picked = pick_commonest(t);

		if (picked <= 0)
			return picked;
		/* Not picked: the host's units may be t's now. */
		distinct = t->h_used[0];
		bytes = t->h_used[1];
	}
	/* The host's memory first: without it the table is emptied into
	 * the counts (a window at a time), not lost. */
	if (!gh_tokens_may_adopt(t->owner, bytes, distinct))
		return 1;
	a.windows = gh_adopted_windows(bytes);
	a.data = gh_big_alloc(bytes, false);
	a.bytes = bytes;                /* the size gh_adopted_free lets go */
	a.first = malloc(a.windows * sizeof(*a.first));
	a.n = malloc(a.windows * sizeof(*a.n));
	if (!a.data || !a.first || !a.n) {
		gh_adopted_free(&a);
		return 1;
	}
	if ((err = cudaMemsetAsync(t->d_first, 0xff, a.windows *
				   sizeof(*t->d_first), stream)) ||
	    (err = cudaMemsetAsync(t->d_n, 0, a.windows * sizeof(*t->d_n),
				   stream)) ||
	    (err = gh_kernel_tokens_stamp(&t->dev, t->d_first, t->d_n,
					  stream)) ||
	    (err = cudaMemsetAsync(t->dev.used, 0, 2 * sizeof(*t->h_used),
				   stream))) {
		gh_adopted_free(&a);
		return gh_gpu_failed(&gb->base, "handing tokens over", err);
	}
	t->h_used[0] = t->h_used[1] = 0;
	a.bytes = bytes;
	a.distinct = distinct;
	if ((err = cudaMemcpyAsync(a.first, t->d_first, a.windows *
				   sizeof(*a.first), cudaMemcpyDeviceToHost,
				   stream)) ||
	    (err = cudaMemcpyAsync(a.n, t->d_n, a.windows * sizeof(*a.n),
				   cudaMemcpyDeviceToHost, stream))) {
		gh_adopted_free(&a);
		return gh_gpu_failed(&gb->base, "copying tokens back", err);
	}
	if (copy_back(t, a.data, bytes)) {
		gh_adopted_free(&a);
		return -1;
	}
	/* Taken, as may_adopt said, unless the counts failed since (their
	 * own error is then the input's): the list is dropped. */
	gh_tokens_adopt(t->owner, &a);
	gh_adopted_free(&a);
	return 0;
}

static void *drain_main(void *arg)
{
	struct gpu_tok_table *t = arg;

	drain(t);               /* its error is gb's, seen at finish() */
	t->owner = NULL;
	return NULL;
}

/* Waits for table t's emptying, if under way (d->tok_lock held). */
static void wait_drained(struct gpu_tok_table *t)
{
	if (t->draining) {
		pthread_join(t->drainer, NULL);
		t->draining = false;
	}
}

/* Retires device d's active table (d->tok_lock held, d current): the
 * launches on it marked on every stream, a thread started to empty it
 * (or, where none starts, emptied here), and the other table made active
 * once it is empty; 0, or -1 with the error recorded. */
static int retire(struct gpu_backend *gb, struct gpu_device *d)
{
	struct gpu_tok_table *t = &d->tok_tables[d->tok_active];
	cudaError_t err = cudaSuccess;

	for (int s = 0; s < gb->n_streams && !err; s++)
		err = cudaEventRecord(t->retired[s], d->streams[s]);
	if (err)
		return gh_gpu_failed(&gb->base, "retiring tokens", err);
	t->slots_bound = t->bytes_bound = 0;
	if (pthread_create(&t->drainer, NULL, drain_main, t) == 0) {
		t->draining = true;
	} else {
		drain_main(t);
	}
	d->tok_active = !d->tok_active;
	wait_drained(&d->tok_tables[d->tok_active]);
	return 0;               /* the drainer's failure is seen at finish() */
}

/* The newlines in p[0, n): 16 bytes a step, each byte's matches summed
 * in byte lanes for up to 255 steps, then added across by a sum of
 * absolute differences.  (The 8-byte popcount it replaces was a libgcc
 * call a step: 3.4 GB/s on the dev VM against 26, on the readers that
 * feed the GPU; bench/NOTES.md.) */
static uint64_t newlines(const unsigned char *p, uint64_t n)
{
	uint64_t count = 0, i = 0;
#if defined(__SSE2__)
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (i + 16 <= n) {
		__m128i lanes = zero, sums;

		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16)
			lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(p + i)), nl));
		sums = _mm_sad_epu8(lanes, zero);
		count += (uint64_t)_mm_cvtsi128_si64(sums) +
			 (uint64_t)_mm_cvtsi128_si64(
				 _mm_unpackhi_epi64(sums, sums));
	}
#endif
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

int gh_gpu_tokens_count(struct gpu_backend *gb, struct gpu_chunk *c,
			int input)
{
	const struct gh_chunk *ch = &c->chunk;
	struct gpu_device *d = c->device;
	struct gpu_tok_table *t;
	uint64_t n = ch->tok_to - ch->tok_from;
	uint64_t slots = gh_tok_distinct_max(n), bytes = gh_tok_arena_bytes_max(n);
	uint64_t slots_limit, bytes_limit;
	cudaError_t err;
	int ret = 0;

	if (ch->tok_to <= ch->tok_from)
		return 0;
	/* After a failure a table may not be what its bounds say (a drain
	 * that stopped before emptying it): nothing more goes on it; the
	 * input fails at finish(). */
	if (backend_failed(gb))
		return -1;
	/* Lines and fields: a unit a line at most, each line's record at
	 * most 31 bytes more than the line; a far tighter bound than any
	 * range's (bench/NOTES.md: the waits for the table's counters were
	 * most of --field=1's time on the GPU). */
	if (gb->tok_view != GH_TOK_WORDS) {
		uint64_t lines = newlines(ch->data + ch->tok_from, n) + 1;

		if (lines < slots)
			slots = lines;
		if (n + 31 * lines < bytes)
			bytes = n + 31 * lines;
	}
	pthread_mutex_lock(&d->tok_lock);
	t = &d->tok_tables[d->tok_active];
	/* Another input's units go to it first. */
	if (t->owner && (t->owner != ch->tokens || t->owner_input != input)) {
		ret = retire(gb, d);
		t = &d->tok_tables[d->tok_active];
	}
	slots_limit = __atomic_load_n(&t->slots_limit, __ATOMIC_RELAXED);
	bytes_limit = __atomic_load_n(&t->bytes_limit, __ATOMIC_RELAXED);
	/* Past the limit, by the bound?  Then ask the table, and grow it
	 * (kept whole) or retire it if it is. */
	if (!ret && (t->slots_bound + slots > slots_limit ||
		     t->bytes_bound + bytes > bytes_limit) &&
	    !(ret = wait_table(gb, d, t))) {
		int grown = 1;

		if ((t->slots_bound + slots > slots_limit ||
		     t->bytes_bound + bytes > bytes_limit) &&
		    (!gb->tok_grow || (grown = grow(gb, t, slots, bytes)))) {
			ret = grown < 0 ? -1 : retire(gb, d);
			t = &d->tok_tables[d->tok_active];
		}
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
	pthread_mutex_unlock(&d->tok_lock);
	return ret;
}

/* Reads table t's counters (t's stream waiting for its launches, its
 * device current) into t->h_used; CUDA's error. */
static cudaError_t read_used(struct gpu_tok_table *t)
{
	cudaError_t err = after_launches(t);

	if (!err)
		err = cudaMemcpyAsync(t->h_used, t->dev.used,
				      2 * sizeof(*t->h_used),
				      cudaMemcpyDeviceToHost, t->stream);
	if (!err)
		err = cudaStreamSynchronize(t->stream);
	return err;
}

/* merge_into's way on the devices: table s's slots and arena (whose
 * launches are done) copied to h's device (peer to peer where the devices
 * can; read where they are on one device listed twice), and added there
 * with their counts; s then emptied.  0; 1 where
 * h's device has no room for the copies (nothing moved); -1 with the
 * error recorded. */
static int merge_on_device(struct gpu_tok_table *s, struct gpu_tok_table *h,
			   uint64_t distinct, uint64_t bytes)
{
	struct gpu_backend *gb = s->gb;
	struct gh_tok_entry *d_slots = NULL;
	unsigned char *d_keys = NULL;
	uint64_t n_slots = s->dev.n_slots;
	cudaError_t err;
	int ret = 0;

	/* One device listed twice: s's memory is h's device's already. */
	bool same = s->device->id == h->device->id;

	if ((err = gh_gpu_use_device(h->device->id)))
		return gh_gpu_failed(&gb->base, "cudaSetDevice", err);
	if (!same &&
	    (cudaMalloc((void **)&d_slots, n_slots * sizeof(*d_slots)) !=
	     cudaSuccess ||
	     cudaMalloc((void **)&d_keys, bytes) != cudaSuccess)) {
		cudaGetLastError();
		ret = 1;
		goto out;
	}
	if ((!same &&
	     ((err = cudaMemcpyPeerAsync(d_slots, h->device->id,
					 s->dev.slots, s->device->id,
					 n_slots * sizeof(*d_slots),
					 h->stream)) ||
	      (err = cudaMemcpyPeerAsync(d_keys, h->device->id, s->dev.keys,
					 s->device->id, bytes,
					 h->stream)))) ||
	    (err = gh_kernel_tokens_merge(&h->dev,
					  same ? s->dev.slots : d_slots,
					  n_slots,
					  same ? s->dev.keys : d_keys,
					  h->stream)) ||
	    (err = cudaStreamSynchronize(h->stream))) {
		ret = gh_gpu_failed(&gb->base, "adding a device's tokens", err);
		goto out;
	}
	h->slots_bound += distinct;
	h->bytes_bound += bytes;
	if ((err = gh_gpu_use_device(s->device->id)) ||
	    (err = cudaMemsetAsync(s->dev.slots, 0, n_slots *
				   sizeof(*s->dev.slots), s->stream)) ||
	    (err = cudaMemsetAsync(s->dev.used, 0, 2 * sizeof(*s->h_used),
				   s->stream)) ||
	    (err = cudaStreamSynchronize(s->stream)))
		ret = gh_gpu_failed(&gb->base, "emptying a device's tokens",
				    err);
	s->h_used[0] = s->h_used[1] = 0;
out:
	gh_gpu_use_device(h->device->id);
	cudaFree(d_slots);
	cudaFree(d_keys);
	return ret;
}

/* Several devices: table s (its launches all queued before its `retired`
 * events) added into table h of the same input on another device (the
 * same), h grown for them where it must be: on the devices, or where
 * h's device has no room for a copy of s, through the host (s's records
 * stamped and copied back, then added with their counts on h's device);
 * s is left empty.  0; 1 where h has no room for them (nothing moved: s
 * is for drain()); -1 with the error recorded. */
static int merge_into(struct gpu_tok_table *s, struct gpu_tok_table *h)
{
	struct gpu_backend *gb = s->gb;
	unsigned char *recs = NULL, *d_recs = NULL;
	uint64_t *offs = NULL, *d_offs = NULL, distinct, bytes, at = 0, n = 0;
	cudaError_t err;
	int ret = 0;

	if ((err = read_used(s)))
		return gh_gpu_failed(&gb->base, "adding a device's tokens", err);
	distinct = s->h_used[0];
	bytes = s->h_used[1];
	if (!distinct)
		return 0;
	if ((err = read_used(h)))
		return gh_gpu_failed(&gb->base, "adding a device's tokens", err);
	h->slots_bound = h->h_used[0];
	h->bytes_bound = h->h_used[1];
	/* (Tables that do not grow, GPUHIST_GPU_TOKEN_TABLE=min: s is
	 * emptied into the counts instead.) */
	if ((h->slots_bound + distinct > h->dev.n_slots / 2 ||
	     h->bytes_bound + bytes > h->dev.key_bytes) &&
	    (ret = gb->tok_grow ? grow(gb, h, distinct, bytes) : 1))
		return ret;
	/* GPUHIST_GPU_TOKEN_MERGE=host: through the host (to compare). */
	const char *way = getenv("GPUHIST_GPU_TOKEN_MERGE");

	if (!(way && !strcmp(way, "host"))) {
		ret = merge_on_device(s, h, distinct, bytes);
		if (ret <= 0)
			return ret;
		ret = 0;
	}
	if (distinct > UINT32_MAX)     /* a launch's count */
		return 1;
	recs = malloc(bytes);
	offs = malloc(distinct * sizeof(*offs));
	if (!recs || !offs ||
	    cudaMalloc((void **)&d_recs, bytes) != cudaSuccess ||
	    cudaMalloc((void **)&d_offs, distinct * sizeof(*offs)) !=
	    cudaSuccess) {
		cudaGetLastError();     /* no room: added to the counts */
		ret = 1;
		goto out;
	}
	/* s emptied: its records, counts stamped, come back. */
	if ((err = after_launches(s)) ||
	    (err = gh_kernel_tokens_stamp(&s->dev, NULL, NULL, s->stream)) ||
	    (err = cudaMemsetAsync(s->dev.used, 0, 2 * sizeof(*s->h_used),
				   s->stream))) {
		ret = gh_gpu_failed(&gb->base, "stamping tokens", err);
		goto out;
	}
	s->h_used[0] = s->h_used[1] = 0;
	if (copy_back(s, recs, bytes)) {
		ret = -1;
		goto out;
	}
	while (at + sizeof(struct gh_tok_record) <= bytes && n < distinct) {
		const struct gh_tok_record *r = (const void *)(recs + at);

		offs[n++] = at;
		at += gh_tok_record_bytes(r->len);
	}
	if (n != distinct || at != bytes) {
		ret = tokens_failed(gb, "the device's tokens are not whole");
		goto out;
	}
	if ((err = gh_gpu_use_device(h->device->id)) ||
	    (err = cudaMemcpyAsync(d_recs, recs, bytes,
				   cudaMemcpyHostToDevice, h->stream)) ||
	    (err = cudaMemcpyAsync(d_offs, offs, distinct * sizeof(*offs),
				   cudaMemcpyHostToDevice, h->stream)) ||
	    (err = gh_kernel_tokens_add(&h->dev, d_recs, d_offs,
					(uint32_t)distinct, h->stream)) ||
	    (err = cudaStreamSynchronize(h->stream)))
		ret = gh_gpu_failed(&gb->base, "adding a device's tokens", err);
	h->slots_bound += distinct;
	h->bytes_bound += bytes;
out:
	cudaFree(d_recs);
	cudaFree(d_offs);
	free(recs);
	free(offs);
	return ret;
}

int gh_gpu_tokens_finish(struct gpu_backend *gb, int input)
{
	struct gpu_tok_table *home = NULL;
	int home_at = -1, ret = 0;

	/* The devices in order, each one's lock held while its table is
	 * marked and added to the first one's (whose lock is held to the
	 * end): the only place that holds two, always taken in order. */
	for (int i = 0; i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];
		struct gpu_tok_table *t;
		cudaError_t err = cudaSuccess;

		pthread_mutex_lock(&d->tok_lock);
		/* A table of this input being emptied (or another's: only
		 * time lost). */
		wait_drained(&d->tok_tables[0]);
		wait_drained(&d->tok_tables[1]);
		t = &d->tok_tables[d->tok_active];
		if (!t->owner || t->owner_input != input) {
			pthread_mutex_unlock(&d->tok_lock);
			continue;
		}
		/* Every chunk of it is queued: mark. */
		if (!ret && (err = gh_gpu_use_device(d->id)) != cudaSuccess)
			ret = gh_gpu_failed(&gb->base, "cudaSetDevice", err);
		for (int s = 0; !ret && s < gb->n_streams; s++)
			if ((err = cudaEventRecord(t->retired[s],
						   d->streams[s])))
				ret = gh_gpu_failed(&gb->base,
						    "retiring tokens", err);
		t->slots_bound = t->bytes_bound = 0;
		if (!ret && gb->tok_keep && !home) {
			home = t;       /* kept whole: it takes the others' */
			home_at = i;
			continue;
		}
		/* The others' added to it (or, where it has no room, to the
		 * counts); not kept: emptied into the counts. */
		int merged = !ret && home ? merge_into(t, home) : 1;

		if (!ret && merged > 0 && drain(t))
			ret = -1;
		if (merged < 0)
			ret = -1;
		t->owner = NULL;
		pthread_mutex_unlock(&d->tok_lock);
	}
	if (home && !ret) {
		int kept = hand_over(home);

		if (kept > 0 && drain(home))
			ret = -1;
		if (kept < 0)
			ret = -1;
	}
	if (home) {
		home->owner = NULL;
		pthread_mutex_unlock(&gb->devices[home_at].tok_lock);
	}
	return ret;
}

void gh_gpu_tokens_describe(struct gpu_backend *gb, char *buf, size_t len)
{
	const struct gh_tok_table *t = &gb->devices[0].tok_tables[0].dev;

	snprintf(buf, len, ", tokens counted on the device in two tables of %llu slots and %llu MiB of records%s%s",
		 (unsigned long long)t->n_slots,
		 (unsigned long long)(t->key_bytes >> 20),
		 !gb->tok_keep ? ""
		 : gb->tok_top ? " (grown to 128 Mi slots and 8 GiB at most), each input's handed to its counts whole, or only its commonest where they are few"
		 : " (grown to 128 Mi slots and 8 GiB at most), each input's handed to its counts whole",
		 gb->tok_keep && gb->n_devices > 1
		 ? " (the devices' added into the first one's)" : "");
}

void gh_gpu_tokens_free(struct gpu_backend *gb)
{
	for (int i = 0; gb->devices && i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		if (!d->tok_tables)
			continue;
		gh_gpu_use_device(d->id);
		for (int k = 0; k < 2; k++) {
			struct gpu_tok_table *t = &d->tok_tables[k];

			wait_drained(t);
			cudaFree(t->dev.slots);
			cudaFree(t->dev.keys);
			cudaFree(t->dev.used);
			cudaFree(t->d_first);
			cudaFree(t->d_n);
			cudaFreeHost(t->h_used);
			cudaFreeHost(t->window[0]);
			cudaFreeHost(t->window[1]);
			for (int s = 0; t->retired && s < gb->n_streams; s++)
				if (t->retired[s])
					cudaEventDestroy(t->retired[s]);
			free(t->retired);
			if (t->stream)
				cudaStreamDestroy(t->stream);
		}
		pthread_mutex_destroy(&d->tok_lock);
		free(d->tok_tables);
		d->tok_tables = NULL;
	}
}
#endif
