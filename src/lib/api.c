/* api.c - libgpuhist's public functions (gpuhist.h): counters, their
 * options and errors, around the pipeline
 *
 * A counter (counter.h) holds a copy of its options (threads resolved),
 * the backend once the first count has started it, and the message of
 * its last failure.  Nothing here is global: two counters share nothing.
 * Pushing is push.c's, over gpuhist_count().
 */
#define _GNU_SOURCE             /* sched_getaffinity, CPU_COUNT */
#include "config.h"

#ifdef __linux__
#include <sched.h>
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/choose.h"
#include "clock.h"
#include "counter.h"
#include "merge/readers.h"
#include "tokens/json_key.h"

const char *gpuhist_version(void)
{
	return PACKAGE_VERSION;
}

const char *gpuhist_strerror(int status)
{
	switch (status) {
	case GPUHIST_OK:
		return "success";
	case GPUHIST_ERR_ARGUMENT:
		return "invalid argument";
	case GPUHIST_ERR_NOMEM:
		return "out of memory";
	case GPUHIST_ERR_BACKEND:
		return "backend unusable";
	case GPUHIST_ERR_INPUT:
		return "input failed";
	case GPUHIST_ERR_CANCELLED:
		return "cancelled";
	}
	return "unknown status";
}

/* The structures' sizes in 0.2, the first with struct_size: no program
 * has smaller ones.  A later version that adds fields keeps these. */
#define OPTIONS_SIZE_0_2 (offsetof(struct gpuhist_options, \
				    temporary_directory) + sizeof(const char *))
#define INPUT_SIZE_0_2 sizeof(struct gpuhist_input)
/* Where the fields this library knows end: a newer program's next field
 * may sit in what is trailing padding here. */
#define OPTIONS_KNOWN (offsetof(struct gpuhist_options, tokens_top) + \
		       sizeof(uint64_t))
/* Where the time's fields end (a program built before tokens_top). */
#define OPTIONS_TIME (offsetof(struct gpuhist_options, time_format) + \
		      sizeof(const char *))
/* Where the per view's fields end (a program of 0.2.x's first per). */
#define OPTIONS_PER (offsetof(struct gpuhist_options, year) + sizeof(int))
/* Where the key view's field ends. */
#define OPTIONS_KEY (offsetof(struct gpuhist_options, key) + \
		     sizeof(const char *))
#define INPUT_KNOWN (offsetof(struct gpuhist_input, length) + sizeof(uint64_t))

void gpuhist_options_init_size(struct gpuhist_options *opts,
			       size_t struct_size)
{
	if (!opts)
		return;
	if (struct_size < OPTIONS_SIZE_0_2) {
		/* Not a struct of this library's: gpuhist_open() refuses it. */
		if (struct_size >= sizeof(opts->struct_size))
			opts->struct_size = struct_size;
		return;
	}
	memset(opts, 0, struct_size);
	opts->struct_size = struct_size;
	opts->backend = GPUHIST_BACKEND_AUTO;
	opts->separator = -1;
}

/* Whether the bytes [from, to) of p are all zero: fields of a newer
 * program's structure that it left unset. */
static bool zero_beyond(const void *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (((const unsigned char *)p)[i])
			return false;
	return true;
}

/* The cores this process may run on (its affinity, as nproc counts them:
 * taskset and container limits), else the online ones. */
static int online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set);
#endif

	return n < 1 ? 1 : n > GPUHIST_THREADS_MAX ? GPUHIST_THREADS_MAX
						    : (int)n;
}

/* Why a key of several fields cannot be counted, or NULL. */
static const char *invalid_fields(const struct gpuhist_options *opts)
{
	if (opts->n_fields < 0 || opts->n_fields > GPUHIST_FIELDS_MAX)
		return "n_fields out of range (0..GPUHIST_FIELDS_MAX)";
	if (opts->n_fields < 2)
		return NULL;
	if (opts->tokens != GPUHIST_TOKENS_FIELD)
		return "n_fields set without the field view";
	for (int i = 0; i < opts->n_fields; i++)
		if (opts->fields[i] < 1)
			return "fields out of range (from 1)";
	if (opts->fields[0] != opts->field)
		return "field is not fields[0]";
	return NULL;
}

/* Why counts per interval cannot be made, or NULL. */
static const char *invalid_per(const struct gpuhist_options *opts)
{
	bool per = opts->tokens == GPUHIST_TOKENS_PER;

	if (per && opts->per < 1)
		return "per out of range (seconds, from 1)";
	if (opts->per < 0)
		return "per out of range (0, or seconds from 1)";
	/* Beside another tokens view, per groups its units by interval. */
	if (!opts->per && (opts->time_field || opts->year))
		return "time_field or year set without per";
	if (opts->per && opts->tokens == GPUHIST_TOKENS_NONE)
		return "per set without a tokens view";
	if (opts->per > (long long)1 << 40)
		return "per out of range (at most 2^40 seconds)";
	if (opts->time_field < 0)
		return "time_field out of range (0, or from 1)";
	if (opts->year < 0 || opts->year > 9999)
		return "year out of range (0, or 1..9999)";
	return NULL;
}

/* Why per's time_key and time_format cannot be used, or NULL. */
static const char *invalid_time(const struct gpuhist_options *opts)
{
	if ((opts->time_key || opts->time_format) && !opts->per)
		return "time_key or time_format set without per";
	if (opts->time_key && opts->time_field)
		return "time_key and time_field both set";
	if (opts->time_format &&
	    (!*opts->time_format || strlen(opts->time_format) > 255))
		return "time_format empty or longer than 255 bytes";
	return NULL;
}

/* Why opts cannot be used, or NULL when they can. */
static const char *invalid(const struct gpuhist_options *opts)
{
	if (opts->backend != GPUHIST_BACKEND_AUTO &&
	    opts->backend != GPUHIST_BACKEND_CPU &&
	    opts->backend != GPUHIST_BACKEND_GPU)
		return "unknown backend";
	if (opts->n_devices < 0 || opts->n_devices > GPUHIST_DEVICES_MAX)
		return "n_devices out of range";
	for (int i = 0; i < opts->n_devices; i++)
		if (opts->devices[i] < 0)
			return "a negative device number";
	if (opts->chunk_bytes > GPUHIST_CHUNK_MAX)
		return "chunk_bytes above GPUHIST_CHUNK_MAX";
	if (opts->streams < 0 || opts->streams > 64)
		return "streams out of range (0..64)";
	if (opts->threads < 0 || opts->threads > GPUHIST_THREADS_MAX)
		return "threads out of range";
	if (opts->tokens < GPUHIST_TOKENS_NONE ||
	    opts->tokens > GPUHIST_TOKENS_CHARS ||
	    (opts->tokens == GPUHIST_TOKENS_KEY &&
	     opts->struct_size < OPTIONS_KEY) ||
	    (opts->tokens >= GPUHIST_TOKENS_PER &&
	     opts->struct_size < OPTIONS_PER))
		return "unknown tokens view";
	if (opts->tokens == GPUHIST_TOKENS_KEY && !opts->key)
		return "the key view without a key";
	if (opts->tokens == GPUHIST_TOKENS_FIELD && opts->field < 1)
		return "field out of range (from 1)";
	if (opts->separator < -1 || opts->separator > 255)
		return "separator out of range (-1, or a byte 0..255)";
	/* A field past what an older program's structure holds is not read. */
	if (opts->struct_size >= offsetof(struct gpuhist_options, match_field) +
				 sizeof(int) && opts->match_field < 0)
		return "match_field out of range (0, or from 1)";
	if (opts->struct_size >= OPTIONS_PER && invalid_per(opts))
		return invalid_per(opts);
	if (opts->struct_size >= OPTIONS_TIME && invalid_time(opts))
		return invalid_time(opts);
	if (opts->struct_size >= OPTIONS_KEY)
		return invalid_fields(opts);
	return NULL;
}

/* Where the key view's path is not one (said in why), false. */
static bool key_ok(const struct gpuhist_options *opts, char *why,
		   size_t why_len)
{
	struct gh_json_path *path;

	if (opts->struct_size >= OPTIONS_TIME && opts->time_key) {
		path = gh_json_path_new(opts->time_key, why, why_len);
		gh_json_path_free(path);
		if (!path)
			return false;
	}
	if (opts->tokens != GPUHIST_TOKENS_KEY)
		return true;
	path = gh_json_path_new(opts->key, why, why_len);
	gh_json_path_free(path);
	return path != NULL;
}

/* Whether opts can be used (0), or why not (in why, -1): a structure of
 * gpuhist_options_init()'s, nothing set that this library does not
 * know, each field in its range, the key view's path a path. */
static int check_options(const struct gpuhist_options *opts, char *why,
			 size_t why_len)
{
	const char *bad;

	if (opts->struct_size < OPTIONS_SIZE_0_2) {
		if (why)
			snprintf(why, why_len,
				 "options not set up by gpuhist_options_init() (struct_size %zu)",
				 opts->struct_size);
		return -1;
	}
	if (!zero_beyond(opts, OPTIONS_KNOWN, opts->struct_size)) {
		if (why)
			snprintf(why, why_len,
				 "options this libgpuhist (%s) does not know are set: the program was built for a newer one",
				 PACKAGE_VERSION);
		return -1;
	}
	bad = invalid(opts);
	if (bad) {
		if (why)
			snprintf(why, why_len, "%s", bad);
		return -1;
	}
	return key_ok(opts, why, why_len) ? 0 : -1;
}

/* Where a struct gpuhist_merge's fields end. */
#define MERGE_KNOWN (offsetof(struct gpuhist_merge, message) + \
		     GPUHIST_MERGE_MESSAGE)

int gpuhist_merge_json(const struct gpuhist_options *opts, const char *path,
		       struct gpuhist_merge *m)
{
	struct gpuhist_options known;

	if (!m || m->struct_size < MERGE_KNOWN)
		return GPUHIST_ERR_ARGUMENT;    /* no room for a message */
	m->message[0] = '\0';
	if (!opts || !path) {
		snprintf(m->message, sizeof(m->message), "%s\n",
			 !opts ? "no options given" : "no path given");
		return GPUHIST_ERR_ARGUMENT;
	}
	if (check_options(opts, m->message, sizeof(m->message) - 1)) {
		strcat(m->message, "\n");
		return GPUHIST_ERR_ARGUMENT;
	}
	/* The fields this library knows, whatever the program's size. */
	memset(&known, 0, sizeof(known));
	memcpy(&known, opts, opts->struct_size < OPTIONS_KNOWN
			     ? opts->struct_size : OPTIONS_KNOWN);
	known.struct_size = sizeof(known);
	return gh_merge_read(&known, path, m);
}

int gpuhist_open(gpuhist_counter **counter,
		 const struct gpuhist_options *opts, char *why, size_t why_len)
{
	struct gpuhist_counter *c;

	if (!counter) {
		if (why)
			snprintf(why, why_len, "no place for the counter");
		return GPUHIST_ERR_ARGUMENT;
	}
	*counter = NULL;
	if (!opts) {
		if (why)
			snprintf(why, why_len, "no options given");
		return GPUHIST_ERR_ARGUMENT;
	}
	if (check_options(opts, why, why_len))
		return GPUHIST_ERR_ARGUMENT;
	c = calloc(1, sizeof(*c));
	if (!c) {
		if (why)
			snprintf(why, why_len, "out of memory");
		return GPUHIST_ERR_NOMEM;
	}
	/* The fields this library knows; a newer program's rest is zero. */
	memcpy(&c->opts, opts, opts->struct_size < OPTIONS_KNOWN
			       ? opts->struct_size : OPTIONS_KNOWN);
	c->opts.struct_size = sizeof(c->opts);
	if (opts->temporary_directory &&
	    !(c->temporary_directory = strdup(opts->temporary_directory))) {
		free(c);
		if (why)
			snprintf(why, why_len, "out of memory");
		return GPUHIST_ERR_NOMEM;
	}
	c->opts.temporary_directory = c->temporary_directory;
	if (c->opts.tokens == GPUHIST_TOKENS_KEY &&
	    !(c->key = strdup(opts->key))) {
		free(c->temporary_directory);
		free(c);
		if (why)
			snprintf(why, why_len, "out of memory");
		return GPUHIST_ERR_NOMEM;
	}
	c->opts.key = c->key;
	if ((c->opts.time_key &&
	     !(c->time_key = strdup(c->opts.time_key))) ||
	    (c->opts.time_format &&
	     !(c->time_format = strdup(c->opts.time_format)))) {
		free(c->time_key);
		free(c->temporary_directory);
		free(c->key);
		free(c);
		if (why)
			snprintf(why, why_len, "out of memory");
		return GPUHIST_ERR_NOMEM;
	}
	c->opts.time_key = c->time_key;
	c->opts.time_format = c->time_format;
	/* The patterns, compiled: the program's strings are not kept. */
	c->run.match = gh_match_new(&c->opts, c->message, sizeof(c->message));
	c->opts.match = c->opts.exclude = NULL;
	if (c->message[0]) {
		if (why)
			snprintf(why, why_len, "%s", c->message);
		free(c->temporary_directory);
		free(c->key);
		free(c->time_key);
		free(c->time_format);
		free(c);
		return GPUHIST_ERR_ARGUMENT;
	}
	if (!c->opts.threads)
		c->opts.threads = online_cores();
	c->run.opts = &c->opts;
	c->run.opened = gh_now();
	atomic_init(&c->run.bytes_done, 0);
	atomic_init(&c->run.decoding, NULL);
	atomic_init(&c->run.counting, 0);
	atomic_init(&c->run.cancel, 0);
	pthread_mutex_init(&c->run.cancel_lock, NULL);
	*counter = c;
	return GPUHIST_OK;
}

int gpuhist_free(gpuhist_counter *c)
{
	int left_running = 0;

	if (!c)
		return 0;
	if (c->run.backend)
		left_running = c->run.backend->ops->destroy(c->run.backend);
	/* A GPU still starting reads the counter's options: they stay, with
	 * the counter, until the process ends. */
	if (!left_running) {
		pthread_mutex_destroy(&c->run.cancel_lock);
		gh_match_free(c->run.match);
		free(c->temporary_directory);
		free(c->key);
		free(c->time_key);
		free(c->time_format);
		free(c);
	}
	return left_running;
}

/*
 * The program's inputs as this library's structures: its own array where
 * its struct_size is 0 or this library's, else (a program built for a
 * newer libgpuhist) a copy in *copy, which the caller frees; NULL, with
 * the reason in c->message, where they cannot be read.
 */
static const struct gpuhist_input *as_inputs(struct gpuhist_counter *c,
					     const struct gpuhist_input *inputs,
					     int n, struct gpuhist_input **copy)
{
	const unsigned char *at = (const unsigned char *)inputs;
	size_t first, size, each;

	*copy = NULL;
	if (n <= 0 || !inputs)
		return inputs;
	first = inputs[0].struct_size;
	size = first ? first : INPUT_SIZE_0_2;
	if (size < INPUT_SIZE_0_2) {
		snprintf(c->message, sizeof(c->message),
			 "input 0: struct_size %zu is neither 0 nor sizeof(struct gpuhist_input)",
			 first);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		memcpy(&each, at + (size_t)i * size, sizeof(each));
		if (each != first) {
			snprintf(c->message, sizeof(c->message),
				 "input %d: struct_size %zu where input 0 has %zu",
				 i, each, first);
			return NULL;
		}
		if (!zero_beyond(at + (size_t)i * size, INPUT_KNOWN, size)) {
			snprintf(c->message, sizeof(c->message),
				 "input %d: fields this libgpuhist (%s) does not know are set: the program was built for a newer one",
				 i, PACKAGE_VERSION);
			return NULL;
		}
	}
	if (size == sizeof(*inputs))
		return inputs;
	*copy = malloc((size_t)n * sizeof(**copy));
	if (!*copy) {
		snprintf(c->message, sizeof(c->message), "out of memory");
		return NULL;
	}
	memset(*copy, 0, (size_t)n * sizeof(**copy));
	for (int i = 0; i < n; i++) {
		memcpy(&(*copy)[i], at + (size_t)i * size, INPUT_KNOWN);
		(*copy)[i].struct_size = sizeof(**copy);
	}
	return *copy;
}

/* Whether inputs[0..n) can be counted; else the reason in c->message. */
static bool valid_inputs(struct gpuhist_counter *c,
			 const struct gpuhist_input *inputs, int n)
{
	if (n < 0 || (n && !inputs)) {
		snprintf(c->message, sizeof(c->message), "no inputs");
		return false;
	}
	for (int i = 0; i < n; i++) {
		const struct gpuhist_input *in = &inputs[i];

		if (!in->name || (in->type == GPUHIST_INPUT_MEMORY &&
				  !in->data && in->size) ||
		    (in->type == GPUHIST_INPUT_FD && in->fd < 0) ||
		    in->type < GPUHIST_INPUT_PATH ||
		    in->type > GPUHIST_INPUT_MEMORY) {
			snprintf(c->message, sizeof(c->message),
				 "input %d: no name, data or descriptor", i);
			return false;
		}
		/* A file's offsets are off_t: a range must end below 2^63. */
		if (in->type == GPUHIST_INPUT_PATH && in->length &&
		    (in->offset > INT64_MAX ||
		     in->length > (uint64_t)INT64_MAX - in->offset)) {
			snprintf(c->message, sizeof(c->message),
				 "input %d: byte range past 2^63", i);
			return false;
		}
	}
	return true;
}

/* Opens the backend the first count needs, unless open; a GPU that
 * --backend=gpu requires may still be starting when it returns. */
static int open_backend(gpuhist_counter *c, const struct gpuhist_input *inputs,
			int n)
{
	bool unsized;
	uint64_t bytes, disk;

	/* Only the commonest of one input: from a count of several on,
	 * every token (the backend reads it as each input ends). */
	if (n != 1)
		__atomic_store_n(&c->opts.tokens_top, 0, __ATOMIC_RELAXED);
	if (c->run.backend)
		return GPUHIST_OK;
	c->message[0] = '\0';
	if (!valid_inputs(c, inputs, n))
		return GPUHIST_ERR_ARGUMENT;
	bytes = gh_inputs_bytes(inputs, n, c->opts.raw, &unsized, &disk);
	c->run.backend = gh_backend_choose(&c->opts, bytes, disk, unsized, n,
					   c->message, sizeof(c->message));
	if (!c->run.backend)
		return GPUHIST_ERR_BACKEND;
	/* The first count's inputs tell how long the run has left. */
	c->run.disk_bytes = unsized ? 0 : disk;
	c->run.backend->seconds_left = gh_run_seconds_left;
	c->run.backend->left_ctx = &c->run;
	c->run.backend->cancel = &c->run.cancel;
	c->ready = gh_now();
	return GPUHIST_OK;
}

static int start_inputs(gpuhist_counter *c,
			const struct gpuhist_input *inputs, int n)
{
	struct gh_backend *b;
	const char *why;
	int status;

	if (!c)
		return GPUHIST_ERR_ARGUMENT;
	status = open_backend(c, inputs, n);
	if (status)
		return status;
	b = c->run.backend;
	if (!b->ops->unusable || !(why = b->ops->unusable(b, true)))
		return GPUHIST_OK;
	snprintf(c->message, sizeof(c->message), "%s", why);
	b->ops->destroy(b);
	c->run.backend = NULL;
	return GPUHIST_ERR_BACKEND;
}

void gpuhist_wait(gpuhist_counter *c)
{
	struct gh_backend *b = c ? c->run.backend : NULL;

	if (b && b->ops->settle)
		b->ops->settle(b, true);
}

static int count_inputs(gpuhist_counter *c,
			const struct gpuhist_input *inputs, int n,
			gpuhist_result_fn fn, void *ctx)
{
	int status, failed;

	if (!c)
		return GPUHIST_ERR_ARGUMENT;
	c->message[0] = '\0';
	if (n && !fn) {
		snprintf(c->message, sizeof(c->message), "no result function");
		return GPUHIST_ERR_ARGUMENT;
	}
	if (!valid_inputs(c, inputs, n))
		return GPUHIST_ERR_ARGUMENT;
	if (!n)
		return GPUHIST_OK;
	/* Begun before the backend opens (a GPU may take a while), so that
	 * a cancel meanwhile is kept. */
	bool began = gh_counter_begin(c);

	status = open_backend(c, inputs, n);
	if (status) {
		if (began)
			gh_counter_end(c);
		return status;
	}
	failed = gh_count_inputs(&c->run, inputs, n, fn, ctx, c->message,
				 sizeof(c->message));
	bool cancelled = atomic_load(&c->run.cancel);

	if (began)
		gh_counter_end(c);
	if (failed == -2)
		return GPUHIST_ERR_BACKEND;
	if (failed < 0)
		return GPUHIST_ERR_NOMEM;
	return !failed ? GPUHIST_OK
	       : cancelled ? GPUHIST_ERR_CANCELLED : GPUHIST_ERR_INPUT;
}

/* counting and cancel change under cancel_lock, so that a cancel never
 * lands between a count's end and the next one's start. */
bool gh_counter_begin(struct gpuhist_counter *c)
{
	bool began = false;

	pthread_mutex_lock(&c->run.cancel_lock);
	if (!atomic_load(&c->run.counting)) {
		atomic_store(&c->run.counting, 1);
		atomic_store(&c->run.cancel, 0);
		began = true;
	}
	pthread_mutex_unlock(&c->run.cancel_lock);
	return began;
}

void gh_counter_end(struct gpuhist_counter *c)
{
	pthread_mutex_lock(&c->run.cancel_lock);
	atomic_store(&c->run.counting, 0);
	atomic_store(&c->run.cancel, 0);
	pthread_mutex_unlock(&c->run.cancel_lock);
}

void gpuhist_cancel(gpuhist_counter *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->run.cancel_lock);
	if (atomic_load(&c->run.counting))
		atomic_store(&c->run.cancel, 1);
	pthread_mutex_unlock(&c->run.cancel_lock);
}

/* The public entry points' common start: the counter's message cleared
 * and the program's inputs as this library's (as_inputs()); a status. */
static int take_inputs(gpuhist_counter *c, const struct gpuhist_input *inputs,
		       int n, const struct gpuhist_input **list,
		       struct gpuhist_input **copy)
{
	*copy = NULL;
	if (!c)
		return GPUHIST_ERR_ARGUMENT;
	c->message[0] = '\0';
	*list = as_inputs(c, inputs, n, copy);
	return n > 0 && inputs && !*list ? GPUHIST_ERR_ARGUMENT : GPUHIST_OK;
}

int gpuhist_start(gpuhist_counter *c, const struct gpuhist_input *inputs,
		  int n)
{
	struct gpuhist_input *copy;
	const struct gpuhist_input *list;
	int status = take_inputs(c, inputs, n, &list, &copy);

	if (!status)
		status = start_inputs(c, list, n);
	free(copy);
	return status;
}

int gpuhist_count(gpuhist_counter *c, const struct gpuhist_input *inputs,
		  int n, gpuhist_result_fn fn, void *ctx)
{
	struct gpuhist_input *copy;
	const struct gpuhist_input *list;
	int status = take_inputs(c, inputs, n, &list, &copy);

	if (!status)
		status = count_inputs(c, list, n, fn, ctx);
	free(copy);
	return status;
}

/* What one input's count leaves for gpuhist_count_file() and the like. */
struct one_result {
	uint64_t *totals;
	char *message;
	size_t message_len;
};

static void keep_one(void *ctx, const struct gpuhist_result *r)
{
	struct one_result *one = ctx;
	size_t len;

	if (r->totals) {
		memcpy(one->totals, r->totals, 256 * sizeof(uint64_t));
		return;
	}
	/* The message without its last newline. */
	snprintf(one->message, one->message_len, "%s", r->messages);
	len = strlen(one->message);
	if (len && one->message[len - 1] == '\n')
		one->message[len - 1] = '\0';
	if (!one->message[0])
		snprintf(one->message, one->message_len, "%s: failed", r->name);
}

static int count_one(gpuhist_counter *c, const struct gpuhist_input *in,
		     uint64_t totals[256])
{
	struct one_result one;

	if (!c)
		return GPUHIST_ERR_ARGUMENT;
	one = (struct one_result){ totals, c->message, sizeof(c->message) };
	if (!totals) {
		snprintf(c->message, sizeof(c->message), "no totals given");
		return GPUHIST_ERR_ARGUMENT;
	}
	return gpuhist_count(c, in, 1, keep_one, &one);
}

int gpuhist_count_file(gpuhist_counter *c, const char *path,
		       uint64_t totals[256])
{
	struct gpuhist_input in = { .type = GPUHIST_INPUT_PATH, .name = path };

	return count_one(c, &in, totals);
}

int gpuhist_count_fd(gpuhist_counter *c, int fd, const char *name,
		     uint64_t totals[256])
{
	struct gpuhist_input in = { .type = GPUHIST_INPUT_FD, .fd = fd,
				    .name = name ? name : "(descriptor)" };

	return count_one(c, &in, totals);
}

int gpuhist_count_buffer(gpuhist_counter *c, const void *data, size_t size,
			 uint64_t totals[256])
{
	struct gpuhist_input in = { .type = GPUHIST_INPUT_MEMORY,
				    .name = "(buffer)", .data = data,
				    .size = size };

	return count_one(c, &in, totals);
}

const char *gpuhist_message(const gpuhist_counter *c)
{
	return c ? c->message : "no counter";
}

void gpuhist_summarize(gpuhist_counter *c, struct gpuhist_summary *s)
{
	double now = gh_now();
	struct gh_backend *b = c ? c->run.backend : NULL;

	if (!c) {
		*s = (struct gpuhist_summary){ .backend = "" };
		return;
	}
	if (b && b->ops->settle)
		b->ops->settle(b, false);
	s->backend = b ? b->detail : "";
	const struct gh_decoding *d = atomic_load(&c->run.decoding);

	s->format = d ? d->format : NULL;
	s->decoder = d ? d->decoder : NULL;
	s->bytes = atomic_load(&c->run.bytes_done);
	s->seconds = now - c->run.opened;
	s->startup = b ? c->ready - c->run.opened : s->seconds;
}
