/* gpu_tokens.c - the GPU backend's tokens: each chunk's inside counted by
 * kernels/tokens.cu, its distinct units added to the input's counts
 *
 * submit.c keeps a chunk's two ends on the host and hands the backend its
 * inside; after the chunk's copy and byte count, its stream counts the
 * inside's units in a table of the stream's (zero between chunks), packs
 * the distinct ones into the chunk's list, and copies back their number
 * and the first few thousand of them.  Readers submit from many threads:
 * a chunk's launches on a table are queued under its lock, so that the
 * stream runs them one chunk after another, never interleaved.  Once the chunk's work is done
 * (when it is next acquired, or when its input finishes), the host adds
 * each distinct unit, hash and count given, to the input's counts
 * (tokens.c, counts.c), its bytes read from the chunk's pinned buffer,
 * which is not refilled before then.  So the host hashes nothing and adds
 * a chunk's repeated units once.
 */
#include "config.h"

#ifdef HAVE_CUDA
#include <stdlib.h>

#include "gpu_private.h"
#include "tokens.h"

_Static_assert(GH_TOK_WORDS == GPUHIST_TOKENS_WORDS &&
	       GH_TOK_LINES == GPUHIST_TOKENS_LINES &&
	       GH_TOK_FIELD == GPUHIST_TOKENS_FIELD,
	       "the kernels' views are gpuhist.h's");

/* Chunks larger than this count their tokens on the host: for a 16 MiB
 * chunk the table is 384 MiB a stream, and each chunk's list 100 MiB. */
#define TOK_CHUNK_MAX ((uint64_t)16 << 20)

/* Units handed to the counts at once. */
#define BATCH 1024

int gh_gpu_tokens_setup(struct gpu_backend *gb,
			const struct gpuhist_options *opts)
{
	uint64_t chunk = gb->base.chunk_bytes;
	size_t table = gh_tok_table_slots(chunk) * sizeof(struct gh_tok_entry);
	size_t units = gh_tok_distinct_max(chunk) * sizeof(struct gh_tok_entry);

	if (chunk > TOK_CHUNK_MAX)
		return -1;
	gb->tok_copy = gh_tok_distinct_max(chunk) < GH_GPU_TOK_COPY
		       ? (uint32_t)gh_tok_distinct_max(chunk) : GH_GPU_TOK_COPY;
	gb->tok_view = opts->tokens;
	gb->tok_field = opts->field;
	gb->tok_separator = opts->separator;
	for (int i = 0; i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		if (gh_gpu_use_device(d->id) != cudaSuccess)
			return -1;
		d->tok_tables = calloc((size_t)gb->n_streams,
				       sizeof(*d->tok_tables));
		d->tok_locks = calloc((size_t)gb->n_streams,
				      sizeof(*d->tok_locks));
		if (!d->tok_tables || !d->tok_locks)
			return -1;
		for (int s = 0; s < gb->n_streams; s++)
			pthread_mutex_init(&d->tok_locks[s], NULL);
		for (int s = 0; s < gb->n_streams; s++)
			if (cudaMalloc((void **)&d->tok_tables[s], table) ||
			    cudaMemset(d->tok_tables[s], 0, table))
				goto out_of_memory;
	}
	for (int i = 0; i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		if (gh_gpu_use_device(c->device->id) ||
		    cudaMalloc((void **)&c->d_units, units) ||
		    /* the first GH_GPU_TOK_COPY go back whatever their
		     * number: never uninitialised */
		    cudaMemset(c->d_units, 0, units) ||
		    cudaMalloc((void **)&c->d_n, sizeof(*c->d_n)) ||
		    cudaMallocHost((void **)&c->h_units, gb->tok_copy *
				   sizeof(*c->h_units)) ||
		    cudaMallocHost((void **)&c->h_n, sizeof(*c->h_n)))
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

cudaError_t gh_gpu_tokens_count(struct gpu_backend *gb, struct gpu_chunk *c)
{
	const struct gh_chunk *ch = &c->chunk;
	pthread_mutex_t *lock = &c->device->tok_locks[c->stream_index];
	cudaError_t err;

	pthread_mutex_lock(lock);
	err = gh_kernel_tokens(c->dev, ch->tok_from, ch->tok_to, gb->tok_view,
			       gb->tok_field, gb->tok_separator,
			       c->device->tok_tables[c->stream_index],
			       c->d_units, c->d_n, c->stream);
	pthread_mutex_unlock(lock);
	if (err == cudaSuccess)
		err = cudaMemcpyAsync(c->h_n, c->d_n, sizeof(*c->h_n),
				      cudaMemcpyDeviceToHost, c->stream);
	if (err == cudaSuccess)
		err = cudaMemcpyAsync(c->h_units, c->d_units, gb->tok_copy *
				      sizeof(*c->h_units),
				      cudaMemcpyDeviceToHost, c->stream);
	return err;
}

void gh_gpu_tokens_take(struct gpu_backend *gb, struct gpu_chunk *c)
{
	struct gh_tokens *t = c->tok_pending;
	const unsigned char *data = c->chunk.data;
	uint32_t n = *c->h_n;
	struct gh_unit batch[BATCH];

	c->tok_pending = NULL;
	for (uint32_t i = 0; i < n;) {
		uint32_t k = n - i < gb->tok_copy ? n - i : gb->tok_copy;
		cudaError_t err;

		/* Past the first ones, copied back with the chunk. */
		if (i && ((err = gh_gpu_use_device(c->device->id)) ||
			  (err = cudaMemcpy(c->h_units, c->d_units + i,
					    k * sizeof(*c->h_units),
					    cudaMemcpyDeviceToHost)))) {
			/* The input then fails in finish() (gb->failed). */
			gh_gpu_failed(&gb->base, "copying tokens back", err);
			return;
		}
		for (uint32_t j = 0; j < k;) {
			int m = 0;

			for (; j < k && m < BATCH; j++, m++) {
				const struct gh_tok_entry *e = &c->h_units[j];

				batch[m] = (struct gh_unit){ data + e->at,
							     e->len, e->hash,
							     e->count };
			}
			if (gh_tokens_add(t, batch, m))
				return;         /* t says why, at its end */
		}
		i += k;
	}
}

void gh_gpu_tokens_free(struct gpu_backend *gb)
{
	for (int i = 0; gb->chunks && i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		if (!c->device)
			continue;
		gh_gpu_use_device(c->device->id);
		cudaFree(c->d_units);
		cudaFree(c->d_n);
		cudaFreeHost(c->h_units);
		cudaFreeHost(c->h_n);
		c->d_units = c->h_units = NULL;
		c->d_n = c->h_n = NULL;
	}
	for (int i = 0; gb->devices && i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		gh_gpu_use_device(d->id);
		for (int s = 0; d->tok_tables && s < gb->n_streams; s++)
			cudaFree(d->tok_tables[s]);
		for (int s = 0; d->tok_locks && s < gb->n_streams; s++)
			pthread_mutex_destroy(&d->tok_locks[s]);
		free(d->tok_tables);
		free(d->tok_locks);
		d->tok_tables = NULL;
		d->tok_locks = NULL;
	}
}
#endif
