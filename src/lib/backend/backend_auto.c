/* backend_auto.c - --backend=auto: the CPU counts, and the GPU too when it pays
 *
 * Starting a GPU takes 0.25-0.45 s (loading the driver, the context, the
 * pinned ring: bench/NOTES.md), in which the CPU counts gigabytes.  So
 * this backend opens the CPU backend at once and the GPU backend in a
 * thread of its own: at once for large files, and for streams only once
 * the CPU falls behind (readers block waiting for its chunks), as the CPU
 * keeps up with most pipes and decoders.  Until the GPU is ready,
 * acquire() hands out the CPU's chunks, and after that the GPU's.  Each
 * chunk says which backend owns it (gh_chunk.backend), and submit()
 * passes it there.  An input is counted by both: its id is the CPU
 * backend's, and it gets an id on the GPU with its first GPU chunk;
 * finish() adds the two sets of totals, both exact.  When the GPU cannot
 * start, everything is counted on the CPU; when it fails later, the
 * inputs it had counted part of fail, and the CPU counts the rest.
 *
 * Words or lines that the GPU is to count alone (gpu_alone) take no CPU
 * chunk while it starts: decoders fill the stage's (stage.c) meanwhile,
 * up to the stage_bytes choose.c gives, and once the GPU is up the
 * starter, and each reader as it asks for a chunk, copies one held into
 * a GPU chunk and submits it (into a CPU chunk where the GPU did not
 * start or counts tokens on the host); finish() waits for that.
 *
 * --backend=gpu is this backend with the GPU required: started at once
 * for streams and large files, and for other files once the run has gone
 * on GH_GPU_LATE_START_SECS if it has GH_GPU_WORTH_SECS left by its files'
 * sizes and what is read of them (or the CPU falls behind), the CPU counting
 * while it starts (a compressed input's decoders then never wait for the
 * driver).  A run over sooner never starts it: a process cannot end while
 * one of its threads is inside the driver, so a start under way at the
 * end would add up to 0.13 s to it (bench/NOTES.md).  Where the driver
 * does not list the devices, the start begins at once, to find out
 * whether there is one.  The run is unusable (unusable())
 * when the start finds no CUDA device, which it says first: the caller
 * waits for that (not for the whole start) before its first result,
 * unless the driver lists the devices (gh_backend_gpu_listed()), and
 * reports nothing but the reason.  A start that fails after finding a
 * device fails the inputs that begin or ask for a chunk after it; where
 * the CPU has counted everything before the GPU is up, the start is left
 * to the end of the process, as under auto.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends.h"
#include "clock.h"
#include "stage.h"

/* A CPU acquire() this slow had no free chunk: it waited for counting. */
#define BLOCKED_SECS 100e-6

struct auto_backend {
	struct gh_backend base;        /* first: the caller sees only this */
	struct gh_backend *cpu;
	struct gh_backend *_Atomic gpu;    /* set once it is ready */
	_Atomic int gpu_broken;        /* it failed: the CPU counts on */
	bool gpu_required;             /* --backend=gpu */
	bool gpu_alone;                /* no CPU chunk while it starts */
	struct gh_stage *stage;        /* gpu_alone: its chunks meanwhile */
	/* An input a chunk held for was not counted (till its finish). */
	_Atomic int stage_failed[GH_INPUTS_MAX];
	_Atomic int found;             /* the start found a device (1), or
					* none (-1); 0: not yet known */
	char unusable_why[300];        /* "GPU backend unusable: ..." */
	const struct gpuhist_options *opts;
	pthread_t starter;
	_Atomic int start_asked;       /* the GPU is wanted */
	_Atomic int starter_running;   /* started and not yet joined */
	_Atomic int start_ended;       /* the starter has nothing left to do */
	double opened, asked, gpu_ready;   /* gh_now() at each */
	_Atomic double start_at;       /* gh_now() to start it at; 0: never */
	char why[256];                 /* why the GPU did not start */
	pthread_mutex_t lock;          /* guards the rest */
	double window_start, window_waited;    /* readers blocked, by second */
	int readers[GH_INPUTS_MAX];
	_Atomic int gpu_input[GH_INPUTS_MAX];  /* its GPU id; -1: none yet */
	_Atomic uint64_t cpu_bytes, gpu_bytes;
};

static int failed(struct auto_backend *ab, const struct gh_backend *part);
static int auto_submit(struct gh_backend *b, int input, struct gh_chunk *c,
		       uint64_t len);

/* One held chunk into a chunk of `to` (NULL: none to be had), submitted
 * there as the input's: 0, or -1 where it could not be. */
static int unstage(struct auto_backend *ab, struct gh_backend *to,
		   const struct gh_chunk *held, int input, uint64_t len)
{
	struct gh_chunk *c = len <= to->chunk_bytes ? to->ops->acquire(to)
						    : NULL;

	if (!c)
		return -1;
	memcpy(c->data, held->data, len);
	c->from = held->from;
	c->to = held->to;
	c->phase = held->phase;
	c->tokens = held->tokens;
	c->tok_from = held->tok_from;
	c->tok_to = held->tok_to;
	return auto_submit(&ab->base, input, c, len);
}

/* Once the stage is closed (the GPU's start has ended), takes a chunk it
 * holds (with wait, each one, till none will come) and sends it to the
 * GPU, where it counts the tokens itself, else to the CPU (which counts
 * tokens inside a chunk too); after a cancel, nowhere.  The starter and
 * its helpers, readers as they ask for chunks, and finish(). */
static void empty_stage(struct auto_backend *ab, bool wait)
{
	struct gh_chunk *held;
	int input;
	uint64_t len;

	while ((held = gh_stage_take(ab->stage, wait, &input, &len))) {
		struct gh_backend *gpu = atomic_load(&ab->gpu);
		struct gh_backend *to = gpu && gpu->tokens &&
					!atomic_load(&ab->gpu_broken)
					? gpu : ab->cpu;

		if (ab->base.cancel && atomic_load(ab->base.cancel))
			to = NULL;
		else if (to == ab->cpu || unstage(ab, to, held, input, len)) {
			if (to != ab->cpu && !atomic_load(&ab->gpu_broken))
				failed(ab, to);
			if (unstage(ab, ab->cpu, held, input, len)) {
				failed(ab, ab->cpu);
				atomic_store(&ab->stage_failed[input], 1);
			}
		}
		gh_stage_copied(ab->stage);
		if (!wait)
			return;
	}
}

static void *empty_stage_thread(void *arg)
{
	empty_stage(arg, true);
	return NULL;
}

/* The stage closed as the start ends, and emptied by the starter with up
 * to a helper a counting thread: once the decoders are done, only these
 * take what it holds, and the CPU counts a chunk where it is handed over
 * (count_in_reader), so one thread alone would count it all where the
 * GPU did not start. */
static void close_stage(struct auto_backend *ab)
{
	pthread_t helpers[GH_READERS_MAX];
	int n = 0;

	gh_stage_close(ab->stage);
	while (n < ab->opts->threads - 1 && n < GH_READERS_MAX &&
	       gh_stage_state(ab->stage).waiting > n + 1 &&
	       !pthread_create(&helpers[n], NULL, empty_stage_thread, ab))
		n++;
	empty_stage(ab, true);
	while (n > 0)
		pthread_join(helpers[--n], NULL);
}

static void *start_gpu(void *arg)
{
	struct auto_backend *ab = arg;
	struct gh_backend *gpu = NULL;
	const char *delay = getenv("GPUHIST_GPU_START_DELAY");

#ifdef HAVE_CUDA
	/* Tests: a start this many milliseconds slower, as a GPU's is, so
	 * that the stage fills where no GPU is (t2310). */
	if (delay) {
		long ms = atol(delay);
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

		nanosleep(&ts, NULL);
	}
#else
	(void)delay;
#endif

	/* Whether there is a device at all is known well before the rest
	 * of the start (a context, streams, pinned memory). */
	if (gh_backend_gpu_found(ab->opts, ab->why, sizeof(ab->why)) > 0) {
		atomic_store(&ab->found, 1);
		gpu = gh_backend_gpu_open(ab->opts, ab->why, sizeof(ab->why));
	} else {
		atomic_store(&ab->found, -1);
	}

	ab->gpu_ready = gh_now();
	atomic_store(&ab->gpu, gpu);
	atomic_store(&ab->start_ended, 1);
	if (ab->stage)
		close_stage(ab);
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
	if (err) {
		snprintf(ab->why, sizeof(ab->why),
			 "cannot start a thread: %s", strerror(err));
		atomic_store(&ab->start_ended, 1);
		/* Readers and finish() empty it, into the CPU. */
		if (ab->stage)
			gh_stage_close(ab->stage);
	} else {
		atomic_store(&ab->starter_running, 1);
	}
#else
	(void)err;
	start_gpu(ab);          /* says at once that there is no CUDA here */
#endif
}

/* Past its late start: starts the GPU if the run has enough left (or no
 * telling), else looks again in 50 ms. */
static void start_late(struct auto_backend *ab, double now)
{
	double left = ab->base.seconds_left
		      ? ab->base.seconds_left(ab->base.left_ctx) : -1.0;

	if (left < 0 || left >= GH_GPU_WORTH_SECS)
		ask_for_gpu(ab);
	else
		ab->start_at = now + 0.05;
}

/* Notes that a reader waited `secs` for a CPU chunk; asks for the GPU
 * once the waits of one second come to GH_AUTO_BEHIND_SECS. */
static void note_wait(struct auto_backend *ab, double now, double secs)
{
	int behind;

	if (secs < BLOCKED_SECS)
		return;
	pthread_mutex_lock(&ab->lock);
	if (now - ab->window_start > 1.0) {
		ab->window_start = now;
		ab->window_waited = 0;
	}
	ab->window_waited += secs;
	behind = ab->window_waited >= GH_AUTO_BEHIND_SECS;
	pthread_mutex_unlock(&ab->lock);
	if (behind)
		ask_for_gpu(ab);
}

/* Copies a part's reason for failing into the caller's view (the first
 * failure wins); a failed GPU is used no more.  Returns -1. */
static int failed(struct auto_backend *ab, const struct gh_backend *part)
{
	pthread_mutex_lock(&ab->lock);
	if (!ab->base.error[0])
		snprintf(ab->base.error, sizeof(ab->base.error), "%s",
			 part->error);
	pthread_mutex_unlock(&ab->lock);
	if (part != ab->cpu)
		atomic_store(&ab->gpu_broken, 1);
	return -1;
}

/* Whether the GPU is required and known not to start. */
static bool gpu_refused(struct auto_backend *ab)
{
	if (!ab->gpu_required || !atomic_load(&ab->start_ended) ||
	    atomic_load(&ab->gpu))
		return false;
	pthread_mutex_lock(&ab->lock);
	snprintf(ab->base.error, sizeof(ab->base.error),
		 "GPU backend unusable: %.200s", ab->why);
	pthread_mutex_unlock(&ab->lock);
	return true;
}

static int auto_begin(struct gh_backend *b, int readers, bool own)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	int id;

	if (gpu_refused(ab))
		return -1;
	id = ab->cpu->ops->begin(ab->cpu, readers, own);

	if (id < 0)
		return failed(ab, ab->cpu);
	ab->readers[id] = readers;
	atomic_store(&ab->gpu_input[id], -1);
	return id;
}

/* Waits for the GPU's start to end: the GPU, or NULL where it did not
 * start. */
static struct gh_backend *wait_for_gpu(struct auto_backend *ab)
{
	const struct timespec ms = { 0, 1000000 };
	struct gh_backend *gpu;

	while (!(gpu = atomic_load(&ab->gpu)) &&
	       !atomic_load(&ab->start_ended))
		nanosleep(&ms, NULL);
	return gpu;
}

static struct gh_chunk *auto_acquire(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu = atomic_load(&ab->gpu);
	struct gh_chunk *c;
	double t0, now;

	/* Words or lines the GPU counts alone (choose.c): the CPU's only
	 * where it did not start, or counts the tokens on the host. */
	if (ab->gpu_alone) {
		if (!gpu && ab->stage && (c = gh_stage_lend(ab->stage)))
			return c;
		if (!gpu)
			gpu = wait_for_gpu(ab);
		if (ab->stage)
			empty_stage(ab, false);
		if (gpu && !gpu->tokens)
			gpu = NULL;
	}
	if (gpu && !atomic_load(&ab->gpu_broken)) {
		c = gpu->ops->acquire(gpu);
		if (c)
			return c;
		failed(ab, gpu);        /* and take a CPU chunk instead */
	}
	if (gpu_refused(ab))
		return NULL;
	if (atomic_load(&ab->start_asked))
		return ab->cpu->ops->acquire(ab->cpu);
	t0 = gh_now();
	c = ab->cpu->ops->acquire(ab->cpu);
	now = gh_now();
	note_wait(ab, now, now - t0);
	if (ab->start_at > 0 && now >= ab->start_at)
		start_late(ab, now);
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
		id = gpu->ops->begin(gpu, ab->readers[input], false);
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

	if (ab->stage && to == gh_stage_backend(ab->stage)) {
		gh_stage_hold(ab->stage, c, input, len);
		return 0;
	}
	if (!len)                       /* given back unused */
		return to->ops->submit(to, input, c, 0);
	if (to != ab->cpu) {
		id = gpu_input(ab, to, input);
		if (id < 0) {
			to->ops->submit(to, input, c, 0);
			return failed(ab, to);
		}
	}
	if (to->ops->submit(to, id, c, len))
		return failed(ab, to);
	atomic_fetch_add(to == ab->cpu ? &ab->cpu_bytes : &ab->gpu_bytes, len);
	return 0;
}

/* The GPU's part first: once the CPU's finish() returns, the id may be
 * begun again by another input. */
static int auto_finish(struct gh_backend *b, int input,
		       const struct gh_counted *into)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	const struct timespec ms = { 0, 1000000 };
	struct gh_backend *gpu;
	int id;
	uint64_t part[256] = { 0 };
	struct gh_counted gpu_into = *into;
	int ret = 0;

	/* Every reader is done: what the stage holds goes out now, this
	 * thread helping once the stage is closed. */
	if (ab->stage && gh_stage_state(ab->stage).lent) {
		for (;;) {
			empty_stage(ab, true);
			if (gh_stage_state(ab->stage).emptied)
				break;
			nanosleep(&ms, NULL);
		}
	}
	if (ab->stage && atomic_exchange(&ab->stage_failed[input], 0))
		ret = -1;
	gpu = atomic_load(&ab->gpu);
	id = atomic_load(&ab->gpu_input[input]);
	gpu_into.totals = part;
	if (id >= 0 && gpu->ops->finish(gpu, id, &gpu_into))
		ret = failed(ab, gpu);
	atomic_store(&ab->gpu_input[input], -1);
	if (ab->cpu->ops->finish(ab->cpu, input, into) && !ret)
		ret = failed(ab, ab->cpu);
	for (int v = 0; v < 256; v++)
		into->totals[v] += part[v];
	return ret;
}

static void join_starter(struct auto_backend *ab)
{
	if (atomic_exchange(&ab->starter_running, 0))
		pthread_join(ab->starter, NULL);
}

/* Says for -v what counted; with wait, first waits for the GPU's start
 * to end (else a start still under way is left to it). */
static void auto_settle(struct gh_backend *b, bool wait)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu;
	char stage_said[96] = "";
	size_t n;

	if (wait || atomic_load(&ab->start_ended))
		join_starter(ab);
	if (ab->stage) {
		struct gh_stage_state st = gh_stage_state(ab->stage);

		if (st.emptied && st.bytes)
			snprintf(stage_said, sizeof(stage_said),
				 "; %llu bytes in %d chunks held meanwhile",
				 (unsigned long long)st.bytes, st.chunks);
	}
	n = (size_t)snprintf(b->detail, sizeof(b->detail), "%.250s",
			     ab->cpu->detail);
	if (!atomic_load(&ab->start_asked) && ab->start_at > 0) {
		/* Past the late start, the run had too little left each
		 * time it was asked (start_late()). */
		if (ab->start_at > ab->opened + GH_GPU_LATE_START_SECS)
			snprintf(b->detail + n, sizeof(b->detail) - n,
				 "; it counted everything; the GPU was not started, since after %.1f s the run never had the %.1f s left that a GPU needs to repay its start",
				 GH_GPU_LATE_START_SECS, GH_GPU_WORTH_SECS);
		else
			snprintf(b->detail + n, sizeof(b->detail) - n,
				 "; it counted everything in less than the %.1f s after which the GPU is started",
				 GH_GPU_LATE_START_SECS);
		return;
	}
	if (!atomic_load(&ab->start_asked)) {
		snprintf(b->detail + n, sizeof(b->detail) - n,
			 "; the CPU kept up, so no GPU was started");
		return;
	}
	if (!atomic_load(&ab->start_ended)) {
		snprintf(b->detail + n, sizeof(b->detail) - n,
			 "; it counted everything while a GPU was starting");
		return;
	}
	gpu = atomic_load(&ab->gpu);
	if (!gpu && ab->gpu_required) {
		/* The run failed for want of it: nothing to tell. */
		b->detail[0] = '\0';
		return;
	}
	if (!gpu) {
		snprintf(b->detail, sizeof(b->detail),
			 "GPU backend unusable (%.200s); counting on the CPU%s: %.200s",
			 ab->why, stage_said, ab->cpu->detail);
		return;
	}
	snprintf(b->detail + n, sizeof(b->detail) - n,
		 "; %llu bytes counted there, %llu on the GPU (asked for after %.3f s, ready %.3f s later%s%s): %.150s",
		 (unsigned long long)atomic_load(&ab->cpu_bytes),
		 (unsigned long long)atomic_load(&ab->gpu_bytes),
		 ab->asked - ab->opened, ab->gpu_ready - ab->asked,
		 atomic_load(&ab->gpu_broken) ? ", then failed" : "",
		 stage_said, gpu->detail);
}

static const char *auto_unusable(struct gh_backend *b, bool whole)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	const struct timespec ms = { 0, 1000000 };

	if (!ab->gpu_required)
		return NULL;
	if (whole) {
		ask_for_gpu(ab);
		join_starter(ab);
	}
	/* The driver lists the devices: the start will find them, so the
	 * first result need not wait for CUDA to say so (nor the start be
	 * asked for before it pays). */
	if (!whole && !atomic_load(&ab->start_ended) &&
	    gh_backend_gpu_listed(ab->opts) > 0)
		return NULL;
	ask_for_gpu(ab);
	while (!atomic_load(&ab->found) && !atomic_load(&ab->start_ended))
		nanosleep(&ms, NULL);
	if (atomic_load(&ab->gpu) ||
	    (atomic_load(&ab->found) > 0 && !atomic_load(&ab->start_ended)))
		return NULL;
	join_starter(ab);
	snprintf(ab->unusable_why, sizeof(ab->unusable_why),
		 "GPU backend unusable: %.250s", ab->why);
	return ab->unusable_why;
}

/* When the CPU has counted everything before the GPU is up, waiting for
 * the GPU (and then for its driver to close it) would only add its start
 * to the run: the starter is left to the end of the process instead,
 * with what it uses. */
static int auto_destroy(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu;

	ab->cpu->ops->destroy(ab->cpu);
	if (atomic_load(&ab->starter_running) &&
	    !atomic_load(&ab->start_ended))
		return 1;
	join_starter(ab);
	gh_stage_free(ab->stage);
	gpu = atomic_load(&ab->gpu);
	if (gpu)
		gpu->ops->destroy(gpu);
	pthread_mutex_destroy(&ab->lock);
	free(ab);
	return 0;
}

/* Batches of gzip members go to the GPU once it is up (NULL before). */
static struct gh_members *auto_members_acquire(struct gh_backend *b)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *gpu = atomic_load(&ab->gpu);
	struct gh_members *m;

	if (!gpu || atomic_load(&ab->gpu_broken) ||
	    !gpu->ops->members_acquire)
		return NULL;
	m = gpu->ops->members_acquire(gpu);
	if (!m && gpu->error[0])
		failed(ab, gpu);
	return m;
}

static int auto_members_decode(struct gh_backend *b, struct gh_members *m)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *to = m->backend;
	int ret = to->ops->members_decode(to, m);

	return ret < 0 ? failed(ab, to) : ret;
}

static int auto_members_count(struct gh_backend *b, int input,
			      struct gh_members *m)
{
	struct auto_backend *ab = (struct auto_backend *)b;
	struct gh_backend *to = m->backend;
	uint64_t out = m->out;
	int id = gpu_input(ab, to, input);

	if (id < 0 || to->ops->members_count(to, id, m))
		return failed(ab, to);
	atomic_fetch_add(&ab->gpu_bytes, out);
	return 0;
}

static void auto_members_release(struct gh_backend *b, struct gh_members *m)
{
	(void)b;
	m->backend->ops->members_release(m->backend, m);
}

static const struct gh_backend_ops auto_ops = {
	.begin = auto_begin,
	.acquire = auto_acquire,
	.submit = auto_submit,
	.finish = auto_finish,
	.settle = auto_settle,
	.unusable = auto_unusable,
	.destroy = auto_destroy,
	.members_acquire = auto_members_acquire,
	.members_decode = auto_members_decode,
	.members_count = auto_members_count,
	.members_release = auto_members_release,
};

struct gh_backend *gh_backend_auto_open(const struct gpuhist_options *opts,
					bool start_now, bool gpu_required,
					bool gpu_alone, uint64_t stage_bytes,
					char *why, size_t why_len)
{
	struct auto_backend *ab = calloc(1, sizeof(*ab));
	struct gpuhist_options staged;

	if (!ab) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	/* Without room for it, the readers wait for the GPU.  (Tests set a
	 * smaller room, to fill it.) */
	if (stage_bytes && getenv("GPUHIST_STAGE_BYTES"))
		stage_bytes = strtoull(getenv("GPUHIST_STAGE_BYTES"), NULL, 10);
	ab->gpu_alone = gpu_alone && start_now;
	/* With a stage, its chunks and the CPU's are of the GPU's size: each
	 * one held goes whole into a chunk of either, and the GPU is sent
	 * whole chunks (held chunks of the CPU's 1 MiB made BGZF and pzstd
	 * 0.05-0.08 s slower, bench/NOTES.md "Session 29"). */
	staged = *opts;
	if (ab->gpu_alone && stage_bytes >= GH_GPU_CHUNK_DEFAULT &&
	    !staged.chunk_bytes)
		staged.chunk_bytes = GH_GPU_CHUNK_DEFAULT;
	ab->cpu = gh_backend_cpu_open(&staged, why, why_len);
	if (!ab->cpu) {
		free(ab);
		return NULL;
	}
	ab->opts = opts;
	ab->opened = gh_now();
	pthread_mutex_init(&ab->lock, NULL);
	ab->base.ops = &auto_ops;
	ab->base.name = "auto";
	ab->base.chars = opts->chars;
	ab->base.stats = opts->stats;
	ab->base.chunk_bytes = ab->cpu->chunk_bytes;
	snprintf(ab->base.detail, sizeof(ab->base.detail), "%s",
		 ab->cpu->detail);
	ab->gpu_required = gpu_required;
	if (ab->gpu_alone && stage_bytes)
		ab->stage = gh_stage_new(opts, ab->cpu->chunk_bytes,
					 stage_bytes);
	if (start_now || (gpu_required && gh_backend_gpu_listed(opts) <= 0))
		ask_for_gpu(ab);
	else if (gpu_required)
		ab->start_at = ab->opened + GH_GPU_LATE_START_SECS;
	/* Where the start fails at once (no CUDA in this build), say so at
	 * once, as the GPU backend itself would. */
	if (gpu_required && atomic_load(&ab->start_ended) &&
	    !atomic_load(&ab->gpu)) {
		snprintf(why, why_len, "%s", ab->why);
		join_starter(ab);
		auto_destroy(&ab->base);
		return NULL;
	}
	return &ab->base;
}
