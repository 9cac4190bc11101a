/* gpu_private.h - what the GPU backend's files share: its devices, its
 * ring of chunks, its error, and how a stretch of device memory is counted
 *
 * backend_gpu.c counts chunks copied from the pinned ring; gpu_members.c
 * (with nvCOMP) counts batches of gzip members it decodes on the device;
 * gpu_count.c holds what both call (so neither calls the other back).
 */
#ifndef GH_GPU_PRIVATE_H
#define GH_GPU_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "backend.h"
#include "gh_tokens_kernel.h"

#define GH_GPU_STREAMS_DEFAULT 2
#define GH_GPU_STREAM_FILL ((uint64_t)256 << 10)
/* An input's counters on a device: 256 byte totals, then its chunks'
 * stream sums (pairs, hits). */
#define SLOT (256 + 2)

/* One of a device's two tables of tokens (gpu_tokens.c): the input it
 * counts for, the slots and arena bytes it may have used and may use
 * before it is emptied, the stream and pinned windows it is emptied
 * through (by a thread of its own, while the other table fills). */
struct gpu_tok_table {
	struct gh_tok_table dev;
	struct gpu_backend *gb;
	struct gpu_device *device;
	cudaStream_t stream;        /* its stamp and copies back */
	cudaEvent_t *retired;       /* a device stream's launches on it, done */
	unsigned long long *h_used; /* pinned: its counters, when read */
	uint64_t slots_bound, bytes_bound;  /* at most this many used */
	uint64_t slots_limit, bytes_limit;  /* ... before it is emptied (or
					     * grown); atomic */
	struct gh_tokens *owner;    /* NULL: empty */
	int owner_input;
	unsigned char *window[2];
	uint32_t *d_first, *d_n;    /* the arena's windows, when handed over */
	pthread_t drainer;
	bool draining;              /* drainer runs: the table is not filled */
};

/* One entry of --devices: a CUDA device and what this run made on it. */
struct gpu_device {
	int id;                     /* CUDA's number for it */
	int max_blocks;             /* multiprocessors x resident blocks */
	int sms;
	char name[64];
	cudaStream_t *streams;      /* n_streams of them */
	cudaStream_t totals_stream; /* fetches and zeroes the totals */
	unsigned long long *d_totals;   /* SLOT for each input that may be open */
	unsigned long long *d_chars;    /* counting code points:
					 * GPUHIST_CHAR_BINS for each */
	/* Counting tokens (gpu_tokens.c): two tables, one filled while
	 * the other is emptied; the lock keeps launches, bounds, sizes and
	 * owners. */
	struct gpu_tok_table *tok_tables;
	int tok_active;
	pthread_mutex_t tok_lock;
	double start_secs;          /* its context, streams and chunks made
				     * (for -v) */
};

struct gpu_chunk {
	struct gh_chunk chunk;      /* what readers see: the pinned buffer */
	unsigned char *dev;
	struct gpu_device *device;  /* where dev lives */
	cudaStream_t stream;        /* borrowed from its device's streams */
	int stream_index;           /* which of them */
	cudaEvent_t counted;        /* recorded after the chunk's kernel */
	int in_flight;
};

struct gpu_backend {
	struct gh_backend base;     /* first: the caller sees only this */
	int n_devices;
	struct gpu_device *devices;
	int n_streams;              /* per device */
	int n_chunks;
	struct gpu_chunk *chunks;
	pthread_mutex_t lock;       /* guards the free queue and error */
	pthread_cond_t chunk_free;
	int *free_queue;            /* chunk indices, oldest use first */
	int q_head, q_len;
	int failed;
	int input_open[GH_INPUTS_MAX];
	int tok_view, tok_field, tok_separator;    /* counting tokens */
	int tok_workers;            /* threads that add a table's units */
	const char *tok_why;        /* why tokens are counted on the host */
	uint64_t tok_window;        /* bytes of each of its windows */
	bool tok_keep;              /* an input's last table handed to its
				     * counts whole (gpu_tokens.c) */
	bool tok_grow;              /* a full table grown, not emptied */
	uint64_t tok_top;           /* an input's commonest this many are
				     * picked on the device (tokens_top) */
	const uint64_t *tok_top_now;        /* the options' tokens_top, which
					     * a count of several inputs
					     * zeroes (atomic) */
	uint64_t tok_picked;        /* inputs so picked (atomic) */
	/* Batches of gzip members it decodes (gpu_members.c), made with
	 * the first one asked for, under members_lock. */
	pthread_mutex_t members_lock;
	struct gpu_members_pool *members;
};

_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t),
	       "device totals are 64-bit");

/* Records why a CUDA call failed (the first failure of any thread wins);
 * returns -1 for the caller to pass up. */
int gh_gpu_failed(struct gh_backend *b, const char *what, cudaError_t err);

/* Makes device id this thread's current one; cheap when it already is. */
cudaError_t gh_gpu_use_device(int id);

/* Queues on stream the kernels that count len bytes of device memory at
 * data into input's totals on device d: positions [from, to) for code
 * points, groups from phase for statistics (as a chunk's).  The launch's
 * error, with *what naming it. */
cudaError_t gh_gpu_count(struct gh_backend *b, struct gpu_device *d,
			 int input, const unsigned char *data, uint64_t len,
			 uint64_t from, uint64_t to, unsigned phase,
			 cudaStream_t stream, const char **what);

/* Tokens counted on the device (gpu_tokens.c), in two tables a device
 * that last for an input.  Setup makes them for opts' view, or returns -1
 * (too little device memory: the host then counts them). */
int gh_gpu_tokens_setup(struct gpu_backend *gb,
			const struct gpuhist_options *opts);
/* Queues the count of chunk c's inside (its gh_chunk's tokens, tok_from,
 * tok_to), of input, after its copy; 0, or -1 with the error recorded. */
int gh_gpu_tokens_count(struct gpu_backend *gb, struct gpu_chunk *c,
			int input);
/* Adds what the tables hold for input to its tokens and empties them;
 * 0, or -1 with the error recorded. */
int gh_gpu_tokens_finish(struct gpu_backend *gb, int input);
/* For -v: the tables' size. */
void gh_gpu_tokens_describe(struct gpu_backend *gb, char *buf, size_t len);
void gh_gpu_tokens_free(struct gpu_backend *gb);

#ifdef HAVE_NVCOMP
/* The batches of gzip members (gpu_members.c): backend.h's members_*. */
struct gh_members *gh_gpu_members_acquire(struct gh_backend *b);
int gh_gpu_members_decode(struct gh_backend *b, struct gh_members *m);
int gh_gpu_members_count(struct gh_backend *b, int input,
			 struct gh_members *m);
void gh_gpu_members_release(struct gh_backend *b, struct gh_members *m);
/* Waits for the batches' work and frees them. */
void gh_gpu_members_free(struct gpu_backend *gb);
#else
static inline void gh_gpu_members_free(struct gpu_backend *gb)
{
	(void)gb;
}
#endif

#define CHECK(b, call) do {                                           \
		cudaError_t err_ = (call);                            \
		if (err_ != cudaSuccess)                              \
			return gh_gpu_failed((b), #call, err_);         \
	} while (0)


#endif
