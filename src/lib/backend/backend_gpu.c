/* backend_gpu.c - counting on CUDA devices: pinned ring, streams, events
 *
 * One or more devices (--devices; a device may be listed twice, and then
 * gets two of everything), each with its own streams, its own device
 * buffers and its own 64-bit totals.  The ring holds two chunks per stream
 * per device plus one per reader thread, each a pinned host buffer with a
 * device buffer of its own on a stream of its own; chunks are dealt to the
 * devices in turn, so consecutive chunks, and so the byte ranges of a file
 * and the chunks of every stream or gzip input, are spread over them.
 * submit() queues on the chunk's stream the copy to the device, the kernel
 * and an event, and puts the chunk at the back of the free queue;
 * acquire() takes the oldest chunk from the front and waits for its event,
 * so a chunk is refilled only once it has been counted.  While readers
 * fill some chunks, others are being copied and counted, on different
 * streams and devices.  The kernels of one input add into that input's
 * 256 totals on each device (and, counting statistics, its two stream
 * sums beside them), which come back once, in finish(), are summed
 * exactly on the host, and are then zeroed.
 *
 * CUDA keeps a current device per thread, and a kernel must be launched
 * from a thread whose current device owns the stream, so every call that
 * touches one device first makes it current (gh_gpu_use_device()).
 *
 * Every CUDA call is checked; a failure is written into b->error (the
 * first one wins) and returned, never printed or exited on here.
 */
#include "config.h"

#ifdef __linux__
#include <dirent.h>
#endif

#include <stdarg.h>
#include <stdio.h>

#include "backends.h"
#include "clock.h"
#include "run_each.h"

#ifdef HAVE_CUDA
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gh_kernel.h"
#include "gpu_private.h"

/* Every chunk is counted by one launch, whose counters are 32-bit. */
_Static_assert(GPUHIST_CHUNK_MAX <= GH_KERNEL_MAX_LEN,
	       "the largest chunk must fit the kernel's limit");

static int wait_chunk(struct gpu_backend *gb, struct gpu_chunk *c)
{
	if (!c->in_flight)
		return 0;
	c->in_flight = 0;
	CHECK(&gb->base, cudaEventSynchronize(c->counted));
	return 0;
}

static void release(struct gpu_backend *gb, struct gpu_chunk *c)
{
	pthread_mutex_lock(&gb->lock);
	gb->free_queue[(gb->q_head + gb->q_len) % gb->n_chunks] = c->chunk.slot;
	gb->q_len++;
	pthread_cond_signal(&gb->chunk_free);
	pthread_mutex_unlock(&gb->lock);
}

static int gpu_begin(struct gh_backend *b, int readers, bool own)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	int id = -1;

	(void)readers;          /* the ring is sized for the most readers */
	(void)own;
	pthread_mutex_lock(&gb->lock);
	for (int i = 0; i < GH_INPUTS_MAX && id < 0; i++)
		if (!gb->input_open[i])
			id = i;
	if (id >= 0)
		gb->input_open[id] = 1;     /* its totals are zero already */
	else
		snprintf(b->error, sizeof(b->error), "more than %d inputs open",
			 GH_INPUTS_MAX);
	pthread_mutex_unlock(&gb->lock);
	return id;
}

static struct gh_chunk *gpu_acquire(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c;

	pthread_mutex_lock(&gb->lock);
	while (!gb->q_len)
		pthread_cond_wait(&gb->chunk_free, &gb->lock);
	c = &gb->chunks[gb->free_queue[gb->q_head]];
	gb->q_head = (gb->q_head + 1) % gb->n_chunks;
	gb->q_len--;
	pthread_mutex_unlock(&gb->lock);

	if (wait_chunk(gb, c)) {
		release(gb, c);
		return NULL;
	}
	return &c->chunk;
}

static int gpu_submit(struct gh_backend *b, int input, struct gh_chunk *chunk,
		      uint64_t len)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	struct gpu_chunk *c = &gb->chunks[chunk->slot];
	struct gpu_device *d = c->device;
	cudaError_t err = cudaSuccess;
	const char *what = NULL;
	int tokens_failed = 0;

	if (len && (err = gh_gpu_use_device(d->id)) != cudaSuccess) {
		what = "cudaSetDevice";
	} else if (len) {
		err = cudaMemcpyAsync(c->dev, chunk->data, len,
				      cudaMemcpyHostToDevice, c->stream);
		if (err != cudaSuccess) {
			what = "cudaMemcpyAsync";
		} else {
			const char *launch_what;
			cudaError_t launch = gh_gpu_count(b, d, input, c->dev,
				len, chunk->from, chunk->to, chunk->phase,
				c->stream, &launch_what);

			/* Its failure is recorded already. */
			if (launch == cudaSuccess && chunk->tokens)
				tokens_failed = gh_gpu_tokens_count(gb, c,
								    input);

			/* The event goes in even when the launch failed: the
			 * copy is queued, and the chunk must not be refilled
			 * before it is done. */
			err = cudaEventRecord(c->counted, c->stream);
			if (launch != cudaSuccess) {
				err = launch;
				what = launch_what;
			} else if (err != cudaSuccess) {
				what = "cudaEventRecord";
			}
		}
		c->in_flight = 1;
	}
	release(gb, c);
	return what ? gh_gpu_failed(b, what, err) : tokens_failed;
}

/* Adds an input's totals on device d into totals, and zeroes them there
 * for the next input in that slot. */
static int fetch_totals(struct gpu_backend *gb, struct gpu_device *d,
			int input, uint64_t totals[256],
			struct gh_stream_part *sums)
{
	struct gh_backend *b = &gb->base;
	unsigned long long *dt = d->d_totals + SLOT * input;
	uint64_t part[SLOT];

	CHECK(b, gh_gpu_use_device(d->id));
	/* Every chunk this input submitted is queued on the streams before
	 * this call, so waiting for the streams waits for all of them (and
	 * perhaps for other inputs' chunks too, which costs only time). */
	for (int i = 0; i < gb->n_streams; i++)
		CHECK(b, cudaStreamSynchronize(d->streams[i]));
	/* Fetch and zero on a stream of their own, then wait for both: a later
	 * input's kernels (on non-blocking streams) must not start before the
	 * zeroing is done, and the legacy stream would not order them. */
	CHECK(b, cudaMemcpyAsync(part, dt, sizeof(part),
				 cudaMemcpyDeviceToHost, d->totals_stream));
	CHECK(b, cudaMemsetAsync(dt, 0, sizeof(part), d->totals_stream));
	CHECK(b, cudaStreamSynchronize(d->totals_stream));
	for (int v = 0; v < 256; v++)
		totals[v] += part[v];
	if (sums) {
		sums->pairs += part[256];
		sums->hits += part[257];
	}
	return 0;
}

/* Adds an input's code points on device d into chars, and zeroes them
 * there; fetch_totals has waited for its kernels. */
static int fetch_chars(struct gpu_backend *gb, struct gpu_device *d,
		       int input, struct gpuhist_chars *chars)
{
	struct gh_backend *b = &gb->base;
	size_t bytes = (size_t)GPUHIST_CHAR_BINS * sizeof(uint64_t);
	unsigned long long *dc = d->d_chars + (size_t)GPUHIST_CHAR_BINS * input;
	uint64_t *part = malloc(bytes);
	cudaError_t err;
	int ret = 0;

	if (!part) {
		snprintf(b->error, sizeof(b->error),
			 "out of memory for code-point totals");
		return -1;
	}
	if ((err = cudaMemcpyAsync(part, dc, bytes, cudaMemcpyDeviceToHost,
				   d->totals_stream)) != cudaSuccess ||
	    (err = cudaMemsetAsync(dc, 0, bytes, d->totals_stream)) !=
	    cudaSuccess ||
	    (err = cudaStreamSynchronize(d->totals_stream)) != cudaSuccess)
		ret = gh_gpu_failed(b, "fetching code points", err);
	for (uint32_t bin = 0; !ret && bin < GPUHIST_CHAR_BINS; bin++)
		if (part[bin] && gpuhist_chars_add(chars, bin, part[bin])) {
			snprintf(b->error, sizeof(b->error),
				 "out of memory for code-point totals");
			ret = -1;
		}
	free(part);
	return ret;
}

/* After any CUDA failure every later input fails too (gb->failed), so an
 * input slot left unzeroed by a failed fetch is never read again. */
static int gpu_finish(struct gh_backend *b, int input,
		      const struct gh_counted *into)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;
	uint64_t *totals = into->totals;
	int ret = 0;

	memset(totals, 0, 256 * sizeof(uint64_t));
	/* Its tokens first: every chunk of it is queued before finish(). */
	if (b->tokens && gh_gpu_tokens_finish(gb, input))
		ret = -1;
	for (int i = 0; i < gb->n_devices && !ret; i++) {
		ret = fetch_totals(gb, &gb->devices[i], input, totals,
				   into->part);
		if (!ret && b->chars)
			ret = fetch_chars(gb, &gb->devices[i], input,
					  into->chars);
	}
	if (b->chars)           /* the statistics' kernel counted bytes too */
		memset(totals, 0, 256 * sizeof(uint64_t));
	pthread_mutex_lock(&gb->lock);
	gb->input_open[input] = 0;
	if (gb->failed)
		ret = -1;
	pthread_mutex_unlock(&gb->lock);
	return ret;
}

static int gpu_destroy(struct gh_backend *b)
{
	struct gpu_backend *gb = (struct gpu_backend *)b;

	/* Best effort: a failed device has already been reported. */
	gh_gpu_members_free(gb);
	for (int i = 0; gb->chunks && i < gb->n_chunks; i++) {
		struct gpu_chunk *c = &gb->chunks[i];

		if (!c->device)
			continue;
		gh_gpu_use_device(c->device->id);
		if (c->in_flight)
			cudaEventSynchronize(c->counted);
		if (c->counted)
			cudaEventDestroy(c->counted);
		cudaFreeHost(c->chunk.data);
		cudaFree(c->dev);
	}
	/* Once no chunk is in flight. */
	gh_gpu_tokens_free(gb);
	for (int i = 0; gb->devices && i < gb->n_devices; i++) {
		struct gpu_device *d = &gb->devices[i];

		gh_gpu_use_device(d->id);
		for (int s = 0; d->streams && s < gb->n_streams; s++)
			if (d->streams[s])
				cudaStreamDestroy(d->streams[s]);
		if (d->totals_stream)
			cudaStreamDestroy(d->totals_stream);
		cudaFree(d->d_totals);
		cudaFree(d->d_chars);
		free(d->streams);
	}
	free(gb->devices);
	free(gb->chunks);
	free(gb->free_queue);
	pthread_mutex_destroy(&gb->lock);
	pthread_mutex_destroy(&gb->members_lock);
	pthread_cond_destroy(&gb->chunk_free);
	free(gb);
	return 0;
}

/* Looks a device up and makes its streams and totals; -1 with why set. */
static int device_setup(struct gpu_backend *gb, struct gpu_device *d,
			char *why, size_t why_len)
{
	size_t chars_bytes = gb->base.chars ? (size_t)GH_INPUTS_MAX *
			     GPUHIST_CHAR_BINS * sizeof(uint64_t) : 0;
	struct cudaDeviceProp prop;
	size_t totals_bytes = GH_INPUTS_MAX * SLOT * sizeof(uint64_t);
	int per_sm = 0;
	cudaError_t err;

	if ((err = gh_gpu_use_device(d->id)) != cudaSuccess ||
	    (err = cudaGetDeviceProperties(&prop, d->id)) != cudaSuccess ||
	    (err = gh_kernel_blocks_per_sm(&per_sm)) != cudaSuccess) {
		snprintf(why, why_len, "device %d: %s", d->id,
			 cudaGetErrorString(err));
		return -1;
	}
	d->sms = prop.multiProcessorCount;
	d->max_blocks = d->sms * (per_sm > 0 ? per_sm : 1);
	snprintf(d->name, sizeof(d->name), "%.63s", prop.name);
	d->streams = calloc((size_t)gb->n_streams, sizeof(*d->streams));
	if (!d->streams) {
		snprintf(why, why_len, "out of host memory");
		return -1;
	}
	if ((err = cudaStreamCreateWithFlags(&d->totals_stream,
					     cudaStreamNonBlocking)) ||
	    (err = cudaMalloc((void **)&d->d_totals, totals_bytes)) ||
	    (err = cudaMemsetAsync(d->d_totals, 0, totals_bytes,
				   d->totals_stream)) ||
	    (err = cudaStreamSynchronize(d->totals_stream))) {
		snprintf(why, why_len, "device %d: %s", d->id,
			 cudaGetErrorString(err));
		return -1;
	}
	if (chars_bytes &&
	    ((err = gh_kernel_chars_setup()) ||
	     (err = cudaMalloc((void **)&d->d_chars, chars_bytes)) ||
	     (err = cudaMemsetAsync(d->d_chars, 0, chars_bytes,
				    d->totals_stream)) ||
	     (err = cudaStreamSynchronize(d->totals_stream)))) {
		snprintf(why, why_len, "device %d: %s", d->id,
			 cudaGetErrorString(err));
		return -1;
	}
	for (int s = 0; s < gb->n_streams; s++)
		if ((err = cudaStreamCreateWithFlags(&d->streams[s],
						     cudaStreamNonBlocking))) {
			snprintf(why, why_len, "device %d: %s", d->id,
				 cudaGetErrorString(err));
			return -1;
		}
	return 0;
}

/* Makes chunk i's buffers, on device i mod n_devices and on the streams of
 * that device in turn; -1 with b->error set. */
static int chunk_setup(struct gpu_backend *gb, int i)
{
	struct gh_backend *b = &gb->base;
	struct gpu_chunk *c = &gb->chunks[i];
	struct gpu_device *d = &gb->devices[i % gb->n_devices];

	c->chunk.slot = i;
	c->chunk.backend = b;
	c->device = d;
	c->stream_index = i / gb->n_devices % gb->n_streams;
	c->stream = d->streams[c->stream_index];
	CHECK(b, gh_gpu_use_device(d->id));
	CHECK(b, cudaMallocHost((void **)&c->chunk.data, b->chunk_bytes));
	CHECK(b, cudaMalloc((void **)&c->dev, b->chunk_bytes));
	CHECK(b, cudaEventCreateWithFlags(&c->counted, cudaEventDisableTiming));
	return 0;
}

/* One device's start: its context, streams and totals, then its share
 * of the ring's chunks (chunk i lives on device i mod n_devices). */
struct device_start {
	struct gpu_backend *gb;
	int index;
	int ret;
	char why[256];
};

static void *start_device(void *arg)
{
	struct device_start *s = arg;
	struct gpu_backend *gb = s->gb;
	struct gpu_device *d = &gb->devices[s->index];
	double t0 = gh_now();

	s->ret = device_setup(gb, d, s->why, sizeof(s->why));
	for (int i = s->index; !s->ret && i < gb->n_chunks;
	     i += gb->n_devices)
		if (chunk_setup(gb, i)) {
			snprintf(s->why, sizeof(s->why), "device %d: %.200s",
				 d->id, gb->base.error);
			s->ret = -1;
		}
	d->start_secs = gh_now() - t0;
	return NULL;
}

/* Starts every device and allocates the ring, every chunk free; -1 with
 * why set.  Each device starts on a thread of its own: a CUDA context
 * and its pinned chunks take a quarter of a second or more a device, and
 * one after another they made four GPUs start in 2.5 times one's time. */
static int devices_setup(struct gpu_backend *gb, char *why, size_t why_len)
{
	int n = gb->n_devices, ret = 0;
	struct device_start *s = calloc((size_t)n, sizeof(*s));

	gb->chunks = calloc((size_t)gb->n_chunks, sizeof(*gb->chunks));
	gb->free_queue = calloc((size_t)gb->n_chunks, sizeof(*gb->free_queue));
	if (!s || !gb->chunks || !gb->free_queue) {
		snprintf(why, why_len, "out of host memory");
		ret = -1;
		goto out;
	}
	for (int k = 0; k < n; k++)
		s[k] = (struct device_start){ .gb = gb, .index = k };
	gh_run_each(n, start_device, s, sizeof(*s));
	for (int k = 0; k < n && !ret; k++)
		if (s[k].ret) {
			snprintf(why, why_len, "%s", s[k].why);
			ret = -1;
		}
	for (int i = 0; !ret && i < gb->n_chunks; i++)
		gb->free_queue[gb->q_len++] = i;
out:
	free(s);
	return ret;
}

int gh_backend_gpu_found(const struct gpuhist_options *opts, char *why,
			 size_t why_len)
{
	int n_found = gpuhist_gpu_count(why, why_len);
	int n = opts->n_devices ? opts->n_devices : 1;

	if (!n_found || opts->all_devices)
		return n_found;
	for (int i = 0; i < n && i < GPUHIST_DEVICES_MAX; i++) {
		int id = opts->n_devices ? opts->devices[i] : 0;

		if (id >= n_found) {
			snprintf(why, why_len, "no CUDA device %d (%d found)",
				 id, n_found);
			return 0;
		}
	}
	return n_found;
}

/* The devices --devices names (all of them for "all"; device 0 when none
 * is named); 0, or -1 with why set. */
static int list_devices(struct gpu_backend *gb, const struct gpuhist_options *opts,
			char *why, size_t why_len)
{
	int n_found = gh_backend_gpu_found(opts, why, why_len), n;

	if (!n_found)
		return -1;
	n = opts->all_devices ? n_found : opts->n_devices ? opts->n_devices : 1;
	if (n > GPUHIST_DEVICES_MAX)
		n = GPUHIST_DEVICES_MAX;
	gb->devices = calloc((size_t)n, sizeof(*gb->devices));
	if (!gb->devices) {
		snprintf(why, why_len, "out of host memory");
		return -1;
	}
	gb->n_devices = n;
	for (int i = 0; i < n; i++) {
		int id = opts->all_devices ? i
			 : opts->n_devices ? opts->devices[i] : 0;

		gb->devices[i].id = id;
	}
	return 0;
}

/* What runs, for -v: the devices, then the ring and streams. */
static void describe(struct gpu_backend *gb, const struct gpuhist_options *opts)
{
	char *p = gb->base.detail;
	size_t left = sizeof(gb->base.detail);
	int n;

	n = snprintf(p, left, "gpu backend, device%s ",
		     gb->n_devices == 1 ? "" : "s");
	for (int i = 0; i < gb->n_devices && n >= 0 && (size_t)n < left; i++) {
		struct gpu_device *d = &gb->devices[i];

		p += n;
		left -= (size_t)n;
		n = snprintf(p, left, "%s%d (%.40s, %d SMs)", i ? ", " : "",
			     d->id, d->name, d->sms);
	}
	if (n < 0 || (size_t)n >= left)
		return;
	p += n;
	left -= (size_t)n;
	n = snprintf(p, left, ", %d stream%s%s, %d readers, %d chunks of %llu bytes, grid %d x %d%s",
		 gb->n_streams, gb->n_streams == 1 ? "" : "s",
		 gb->n_devices == 1 ? "" : " each", gh_readers(opts),
		 gb->n_chunks, (unsigned long long)gb->base.chunk_bytes,
		 gb->devices[0].max_blocks, GH_KERNEL_BLOCK_THREADS,
		 !opts->tokens || gb->base.tokens ? ""
		 : ", tokens counted on the host");
	if (opts->tokens && !gb->base.tokens && gb->tok_why && n >= 0 &&
	    (size_t)n < left)
		snprintf(p + n, left - (size_t)n, " (%s)", gb->tok_why);
	if (gb->base.tokens && n >= 0 && (size_t)n < left)
		gh_gpu_tokens_describe(gb, p + n, left - (size_t)n);
	/* Several devices start at once: how long each took. */
	for (int i = 0; gb->n_devices > 1 && i < gb->n_devices; i++) {
		size_t used = strlen(gb->base.detail);

		snprintf(gb->base.detail + used, sizeof(gb->base.detail) - used,
			 "%s%d %.3f s", i ? ", " : "; started at once, device ",
			 gb->devices[i].id, gb->devices[i].start_secs);
	}
}

static const struct gh_backend_ops gpu_ops = {
	.begin = gpu_begin,
	.acquire = gpu_acquire,
	.submit = gpu_submit,
	.finish = gpu_finish,
	.destroy = gpu_destroy,
#ifdef HAVE_NVCOMP
	.members_acquire = gh_gpu_members_acquire,
	.members_decode = gh_gpu_members_decode,
	.members_count = gh_gpu_members_count,
	.members_release = gh_gpu_members_release,
#endif
};

struct gh_backend *gh_backend_gpu_open(const struct gpuhist_options *opts,
				       char *why, size_t why_len)
{
	struct gpu_backend *gb = calloc(1, sizeof(*gb));

	if (!gb) {
		snprintf(why, why_len, "out of host memory");
		return NULL;
	}
	pthread_mutex_init(&gb->lock, NULL);
	pthread_mutex_init(&gb->members_lock, NULL);
	pthread_cond_init(&gb->chunk_free, NULL);
	gb->base.ops = &gpu_ops;
	gb->base.name = "gpu";
	gb->base.chars = opts->chars;
	gb->base.stats = opts->stats;
	gb->base.chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes
						 : GH_GPU_CHUNK_DEFAULT;
	/* A pipe is copied out 256 KiB at a time (bench/NOTES.md: 1.85 s
	 * against 2.19 s for whole 4 MiB chunks, 4 GiB through cat); a chunk
	 * size the user chose is filled whole. */
	if (!opts->chunk_bytes)
		gb->base.stream_bytes = GH_GPU_STREAM_FILL;
	gb->n_streams = opts->streams ? opts->streams : GH_GPU_STREAMS_DEFAULT;
	if (list_devices(gb, opts, why, why_len))
		goto fail;
	gb->n_chunks = 2 * gb->n_streams * gb->n_devices +
		       gh_readers(opts);
	if (devices_setup(gb, why, why_len))
		goto fail;
	/* Tokens on the device where it has room for their tables. */
	if (opts->tokens) {
		gb->base.tokens = !gh_gpu_tokens_setup(gb, opts);
		if (!gb->base.tokens)
			gh_gpu_tokens_free(gb);
	}
	describe(gb, opts);
	return &gb->base;
fail:
	gpu_destroy(&gb->base);
	return NULL;
}

int gpuhist_gpu_count(char *why, size_t why_len)
{
	int n = 0, driver = 0;
	cudaError_t err = cudaGetDeviceCount(&n);

	if (err == cudaSuccess && n > 0)
		return n;
	if (why) {
		/* Without a driver, CUDA's own words ("CUDA driver version is
		 * insufficient for CUDA runtime version") mislead. */
		cudaDriverGetVersion(&driver);
		snprintf(why, why_len, "%s",
			 !driver ? "no CUDA driver is installed"
			 : err != cudaSuccess ? cudaGetErrorString(err)
			 : "no CUDA device is visible");
	}
	return 0;
}

/* Appends to buf[len] what fmt says, as far as it fits. */
static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void gpuhist_gpu_describe(char *buf, size_t len)
{
	int runtime = 0, driver = 0, n = gpuhist_gpu_count(NULL, 0);

	if (!len)
		return;
	buf[0] = '\0';
	cudaRuntimeGetVersion(&runtime);
	cudaDriverGetVersion(&driver);
	append(buf, len, "CUDA runtime %d.%d", runtime / 1000,
	       runtime % 1000 / 10);
	if (driver)
		append(buf, len, ", driver %d.%d", driver / 1000,
		       driver % 1000 / 10);
	append(buf, len, "\n");
	for (int i = 0; i < n; i++) {
		struct cudaDeviceProp prop;

		if (cudaGetDeviceProperties(&prop, i) == cudaSuccess)
			append(buf, len, "device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB\n",
			       i, prop.name, prop.major, prop.minor,
			       prop.multiProcessorCount,
			       (double)prop.totalGlobalMem / (1 << 30));
	}
}
#else /* no CUDA: the GPU backend is never usable */
int gpuhist_gpu_count(char *why, size_t why_len)
{
	if (why)
		snprintf(why, why_len, "this gpuhist was built without CUDA");
	return 0;
}

void gpuhist_gpu_describe(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}

int gh_backend_gpu_found(const struct gpuhist_options *opts, char *why,
			 size_t why_len)
{
	(void)opts;
	return gpuhist_gpu_count(why, why_len);
}

struct gh_backend *gh_backend_gpu_open(const struct gpuhist_options *opts,
				       char *why, size_t why_len)
{
	(void)opts;
	gpuhist_gpu_count(why, why_len);
	return NULL;
}
#endif

int gh_backend_gpu_listed(const struct gpuhist_options *opts)
{
#if defined(HAVE_CUDA) && defined(__linux__)
	DIR *dir;
	struct dirent *e;
	int n = 0, want = opts->n_devices ? opts->n_devices : 1;

	if (getenv("CUDA_VISIBLE_DEVICES"))
		return 0;               /* CUDA's numbering is then another */
	dir = opendir("/proc/driver/nvidia/gpus");
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		n += e->d_name[0] != '.';
	closedir(dir);
	if (opts->all_devices)
		return n;
	for (int i = 0; i < want && i < GPUHIST_DEVICES_MAX; i++)
		if ((opts->n_devices ? opts->devices[i] : 0) >= n)
			return 0;
	return n;
#else
	(void)opts;
	return 0;
#endif
}
