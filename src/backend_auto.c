/* backend_auto.c - --backend=auto: the CPU counts, and the GPU too when it pays
 *
 * Starting a GPU takes 0.25-0.45 s (loading the driver, the context, the
 * pinned ring: bench/NOTES.md), in which the CPU counts gigabytes.  So
 * this backend opens the CPU backend at once and the GPU backend in a
 * thread of its own: at once for large files, and for streams only once
 * the CPU falls behind (readers wait for its chunks), as the CPU keeps up
 * with most pipes and decoders.  Until the GPU is ready, acquire() hands
 * out the CPU's chunks, and after that the GPU's.  Each chunk says which
 * backend owns it (gh_chunk.backend), and submit() passes it there.  An
 * input is counted by both: its id is the CPU backend's, and it gets an id
 * on the GPU with its first GPU chunk; finish() adds the two sets of
 * totals, both exact.  When the GPU cannot start, everything is counted on
 * the CPU, and -v says why.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "config.h"
#include "options.h"
#include "progress.h"

struct auto_backend {
	struct gh_backend base;        /* first: the caller sees only this */
	struct gh_backend *cpu;
	struct gh_backend *_Atomic gpu;    /* set once it is ready */
	const struct gh_options *opts;
	pthread_t starter;
	_Atomic int start_asked;       /* the GPU is wanted */
	_Atomic int starter_running;   /* started and not yet joined */
	_Atomic int start_ended;       /* the starter has nothing left to do */
	_Atomic uint64_t waited_ns;    /* readers' waits for a CPU chunk */
	double opened, asked, gpu_ready;   /* gh_now() at each */
	char why[256];                 /* why the GPU did not start */
	pthread_mutex_t lock;          /* guards GPU ids' opening, and error */
	int readers[GH_INPUTS_MAX];
	_Atomic int gpu_input[GH_INPUTS_MAX];  /* its GPU id; -1: none yet */
	_Atomic uint64_t cpu_bytes, gpu_bytes;
};

static void *start_gpu(void *arg)
{
	struct auto_backend *ab = arg;
	struct gh_backend *gpu = gh_backend_gpu_open(ab->opts, ab->why,
						      sizeof(ab->why));

	ab->gpu_ready = gh_now();
	atomic_store(&ab->gpu, gpu);
	atomic_store(&ab->start_ended, 1);
	return NULL;
}

/* Starts the GPU in a thread of its own, once. */
static void ask_for_gpu(struct auto_backend *ab)
{
	int err;

	if (atomic_exchange(&ab->start_asked, 1))
		return;
	ab->asked = gh_now();
#ifdef HAVE_CUDA
	err = pthread_create(&ab->starter, NULL, start_gpu, ab);
	if (err)
		snprintf(ab->why, sizeof(ab->why),
			 "cannot start a thread: %s", strerror(err));
	else
		atomic_store(&ab->starter_running, 1);
#else
	(void)err;
	start_gpu(ab);          /* says at once that there is no CUDA here */
#endif
}

/* Copies a part's reason for failing into the caller's view (the first
 * failure wins, as on the GPU, where every later call fails the same way);
 * returns -1. */
static int failed(struct auto_backend *ab, const struct gh_backend *part)
{
	pthread_mutex_lock(&ab->lock);
	if (!ab->base.error[0])
		snprintf(ab->base.error, sizeof(ab->base.error), "%s",
			 part->error);
	pthread_mutex_unlock(&ab->lock);
	return -1;
}

static int auto_begin(struct gh_backend *b, int readers)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	int id = ab->cpu->begin(ab->cpu, readers);

	if (id < 0)
		return failed(ab, ab->cpu);
	ab->readers[id] = readers;
	atomic_store(&ab->gpu_input[id], -1);
	return id;
}

static struct gh_chunk *auto_acquire(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu = atomic_load(&ab->gpu);
	struct gh_chunk *c;
	double t0;

	if (gpu) {
		c = gpu->acquire(gpu);
		if (!c)
			failed(ab, gpu);
		return c;
	}
	if (atomic_load(&ab->start_asked))
		return ab->cpu->acquire(ab->cpu);
	t0 = gh_now();
	c = ab->cpu->acquire(ab->cpu);
	if (atomic_fetch_add(&ab->waited_ns, (uint64_t)((gh_now() - t0) * 1e9)) >=
	    (uint64_t)(GH_AUTO_BEHIND_SECS * 1e9))
		ask_for_gpu(ab);
	return c;
}

/* The GPU's id for input, opened with the input's first GPU chunk. */
static int gpu_input(struct auto_backend *ab, struct gh_backend *gpu,
		     int input)
{
	int id = atomic_load(&ab->gpu_input[input]);

	if (id >= 0)
		return id;
	pthread_mutex_lock(&ab->lock);
	id = atomic_load(&ab->gpu_input[input]);
	if (id < 0) {
		id = gpu->begin(gpu, ab->readers[input]);
		atomic_store(&ab->gpu_input[input], id);
	}
	pthread_mutex_unlock(&ab->lock);
	return id;
}

static int auto_submit(struct gh_backend *b, int input, struct gh_chunk *c,
		       uint64_t len)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *to = c->backend;
	int id = input;

	if (!len)                       /* given back unused */
		return to->submit(to, input, c, 0);
	if (to == ab->cpu) {
		atomic_fetch_add(&ab->cpu_bytes, len);
	} else {
		atomic_fetch_add(&ab->gpu_bytes, len);
		id = gpu_input(ab, to, input);
		if (id < 0) {
			to->submit(to, 0, c, 0);    /* give it back unused */
			return failed(ab, to);
		}
	}
	return to->submit(to, id, c, len) ? failed(ab, to) : 0;
}

/* The GPU's part first: once the CPU's finish() returns, the id may be
 * begun again by another input. */
static int auto_finish(struct gh_backend *b, int input, uint64_t totals[256])
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu = atomic_load(&ab->gpu);
	int id = atomic_load(&ab->gpu_input[input]);
	uint64_t part[256] = { 0 };
	int ret = 0;

	if (id >= 0 && gpu->finish(gpu, id, part))
		ret = failed(ab, gpu);
	atomic_store(&ab->gpu_input[input], -1);
	if (ab->cpu->finish(ab->cpu, input, totals) && !ret)
		ret = failed(ab, ab->cpu);
	for (int v = 0; v < 256; v++)
		totals[v] += part[v];
	return ret;
}

static void join_starter(struct auto_backend *ab)
{
	if (atomic_exchange(&ab->starter_running, 0))
		pthread_join(ab->starter, NULL);
}

/* Waits for the GPU's start to end, then says for -v what counted. */
static void auto_settle(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu;

	join_starter(ab);
	gpu = atomic_load(&ab->gpu);
	if (!atomic_load(&ab->start_asked)) {
		snprintf(b->detail, sizeof(b->detail),
			 "%.250s; the CPU kept up, so no GPU was started",
			 ab->cpu->detail);
		return;
	}
	if (!gpu) {
		snprintf(b->detail, sizeof(b->detail),
			 "GPU backend unusable (%.200s); counting on the CPU: %.250s",
			 ab->why, ab->cpu->detail);
		return;
	}
	snprintf(b->detail, sizeof(b->detail),
		 "%.150s; %llu bytes counted there, %llu on the GPU (asked for after %.3f s, ready %.3f s later): %.250s",
		 ab->cpu->detail,
		 (unsigned long long)atomic_load(&ab->cpu_bytes),
		 (unsigned long long)atomic_load(&ab->gpu_bytes),
		 ab->asked - ab->opened, ab->gpu_ready - ab->asked,
		 gpu->detail);
}

/* When the CPU has counted everything before the GPU is up, waiting for
 * the GPU (and then for its driver to close it) would only add its start
 * to the run: the starter is left to the end of the process instead,
 * with what it uses. */
static int auto_destroy(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu;

	ab->cpu->destroy(ab->cpu);
	if (atomic_load(&ab->starter_running) &&
	    !atomic_load(&ab->start_ended))
		return 1;
	join_starter(ab);
	gpu = atomic_load(&ab->gpu);
	if (gpu)
		gpu->destroy(gpu);
	pthread_mutex_destroy(&ab->lock);
	free(ab);
	return 0;
}

struct gh_backend *gh_backend_auto_open(const struct gh_options *opts,
					bool start_now, char *why,
					size_t why_len)
{
	struct auto_backend *ab = calloc(1, sizeof(*ab));

	if (!ab) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	ab->cpu = gh_backend_cpu_open(opts, why, why_len);
	if (!ab->cpu) {
		free(ab);
		return NULL;
	}
	ab->opts = opts;
	ab->opened = gh_now();
	pthread_mutex_init(&ab->lock, NULL);
	ab->base.name = "auto";
	ab->base.chunk_bytes = ab->cpu->chunk_bytes;
	/* Pipes are filled as the GPU backend fills them, for the chunks
	 * that go there. */
	ab->base.stream_bytes = opts->chunk_bytes ? 0 : GH_GPU_STREAM_FILL;
	ab->base.begin = auto_begin;
	ab->base.acquire = auto_acquire;
	ab->base.submit = auto_submit;
	ab->base.finish = auto_finish;
	ab->base.settle = auto_settle;
	ab->base.destroy = auto_destroy;
	snprintf(ab->base.detail, sizeof(ab->base.detail), "%s",
		 ab->cpu->detail);
	if (start_now)
		ask_for_gpu(ab);
	return &ab->base;
}
