/* api-check.c - TAP test of libgpuhist through its public header alone
 *
 * Usage: api-check TEXT TEXT.gz BAD.gz DIR
 *	TEXT: any file; TEXT.gz: its gzip; BAD.gz: a corrupt gzip file; DIR:
 *	a directory.  (t/t0010-library.t makes them.)
 *
 * Every total is checked against the file's bytes counted one at a time
 * here.  Files, descriptors (a file and a pipe), memory (plain and gzip),
 * several inputs at once, two counters in two threads at once, every
 * error path (a code and a message), on the CPU, and on the GPU where one
 * is usable (where none is, the GPU backend's refusal is checked instead).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuhist.h"

static int test_no, failures;

static void ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
}

static void skip(const char *what, const char *why)
{
	printf("ok %d # SKIP %s (%s)\n", ++test_no, why, what);
}

/* The whole of a file, or exits. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f) {
		perror(path);
		exit(99);
	}
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				exit(99);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

static void count_simply(const unsigned char *p, size_t n, uint64_t t[256])
{
	memset(t, 0, 256 * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++)
		t[p[i]]++;
}

static int same(const uint64_t a[256], const uint64_t b[256])
{
	return !memcmp(a, b, 256 * sizeof(uint64_t));
}

static const char *text_path, *gz_path, *bad_path, *dir_path;
static unsigned char *text, *gz;
static size_t text_len, gz_len;
static uint64_t want[256], zeros[256];

static gpuhist_counter *open_counter(enum gpuhist_backend backend, int threads)
{
	struct gpuhist_options opts;
	gpuhist_counter *c;
	char why[256];

	gpuhist_options_init(&opts);
	opts.backend = backend;
	opts.threads = threads;
	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK) {
		printf("# gpuhist_open: %s\n", why);
		return NULL;
	}
	return c;
}

/* Writes len bytes of p into a pipe from a thread of its own. */
struct writer {
	int fd;
	const unsigned char *p;
	size_t len;
};

static void *write_all(void *arg)
{
	struct writer *w = arg;
	size_t done = 0;

	while (done < w->len) {
		ssize_t n = write(w->fd, w->p + done, w->len - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(w->fd);
	return NULL;
}

/* Files, descriptors and memory on one counter; `what` names its backend. */
static void inputs_on(gpuhist_counter *c, const char *what)
{
	uint64_t got[256];
	int fd, status;

	memset(got, 0xff, sizeof(got));
	status = gpuhist_count_file(c, text_path, got);
	ok(status == GPUHIST_OK && same(got, want), "%s: a file", what);
	status = gpuhist_count_file(c, gz_path, got);
	ok(status == GPUHIST_OK && same(got, want),
	   "%s: a gzip file gives its decoded bytes' totals", what);

	fd = open(text_path, O_RDONLY);
	status = gpuhist_count_fd(c, fd, "text", got);
	ok(status == GPUHIST_OK && same(got, want) &&
	   fcntl(fd, F_GETFD) >= 0 &&
	   lseek(fd, 0, SEEK_CUR) == (off_t)text_len,
	   "%s: a descriptor: counted, left open, read to its end", what);
	close(fd);

	int fds[2];
	pthread_t thread;
	struct writer w = { .p = gz, .len = gz_len };

	if (pipe(fds) == 0) {
		w.fd = fds[1];
		pthread_create(&thread, NULL, write_all, &w);
		status = gpuhist_count_fd(c, fds[0], "pipe", got);
		pthread_join(thread, NULL);
		close(fds[0]);
		ok(status == GPUHIST_OK && same(got, want),
		   "%s: gzip through a pipe", what);
	} else {
		ok(0, "%s: a pipe: %s", what, strerror(errno));
	}

	status = gpuhist_count_buffer(c, text, text_len, got);
	ok(status == GPUHIST_OK && same(got, want), "%s: memory", what);
	status = gpuhist_count_buffer(c, gz, gz_len, got);
	ok(status == GPUHIST_OK && same(got, want),
	   "%s: gzip in memory is decoded", what);
	status = gpuhist_count_buffer(c, NULL, 0, got);
	ok(status == GPUHIST_OK && same(got, zeros),
	   "%s: empty memory: all totals 0", what);
	status = gpuhist_count_buffer(c, gz, gz_len / 2, got);
	ok(status == GPUHIST_ERR_INPUT &&
	   strstr(gpuhist_message(c), "(buffer): ") ==
	   gpuhist_message(c),
	   "%s: half a gzip in memory fails, naming it: %s", what,
	   gpuhist_message(c));
}

/* What gpuhist_count() handed over, in order. */
struct seen {
	int n, order_ok;
	int status[8];
	uint64_t totals[8][256];
	char messages[8][512];
	int ended;
};

static void keep(void *ctx, const struct gpuhist_result *r)
{
	struct seen *s = ctx;

	if (r->index != s->n || s->n >= 8) {
		s->order_ok = 0;
		return;
	}
	s->status[s->n] = r->status;
	if (r->totals)
		memcpy(s->totals[s->n], r->totals, sizeof(s->totals[0]));
	snprintf(s->messages[s->n], sizeof(s->messages[0]), "%s", r->messages);
	s->messages[s->n][strcspn(s->messages[s->n], "\n")] = '\0';
	s->n++;
}

static void count_ended(void *ctx, const struct gpuhist_progress *at)
{
	struct seen *s = ctx;

	s->ended += at->ended;
}

/* Several inputs at once through gpuhist_count(), a failed one among
 * them, with the progress callback. */
static void several(void)
{
	struct gpuhist_options opts;
	struct seen s = { .order_ok = 1 };
	gpuhist_counter *c;
	int fd = open(text_path, O_RDONLY);
	struct gpuhist_input in[5] = {
		{ .type = GPUHIST_INPUT_PATH, .name = gz_path },
		{ .type = GPUHIST_INPUT_PATH, .name = "no/such/file" },
		{ .type = GPUHIST_INPUT_MEMORY, .name = "memory", .data = text,
		  .size = text_len },
		{ .type = GPUHIST_INPUT_FD, .name = "descriptor", .fd = fd },
		{ .type = GPUHIST_INPUT_PATH, .name = bad_path },
	};
	struct gpuhist_summary sum;

	gpuhist_options_init(&opts);
	opts.backend = GPUHIST_BACKEND_CPU;
	opts.threads = 3;
	opts.progress = count_ended;
	opts.progress_ctx = &s;
	if (gpuhist_open(&c, &opts, NULL, 0) != GPUHIST_OK) {
		ok(0, "several inputs: open");
		return;
	}
	int status = gpuhist_count(c, in, 5, keep, &s);

	ok(status == GPUHIST_ERR_INPUT && s.n == 5 && s.order_ok,
	   "several inputs: five results in order, ERR_INPUT for the failed");
	ok(s.status[0] == GPUHIST_OK && same(s.totals[0], want) &&
	   s.status[2] == GPUHIST_OK && same(s.totals[2], want) &&
	   s.status[3] == GPUHIST_OK && same(s.totals[3], want),
	   "several inputs: the good ones counted whole");
	ok(s.status[1] == GPUHIST_ERR_INPUT &&
	   !strcmp(s.messages[1], "no/such/file: No such file or directory"),
	   "several inputs: a missing file: its message, not printed: %s",
	   s.messages[1]);
	ok(s.status[4] == GPUHIST_ERR_INPUT &&
	   !strncmp(s.messages[4], bad_path, strlen(bad_path)),
	   "several inputs: a corrupt gzip: its message names it: %s",
	   s.messages[4]);
	ok(s.ended == 3, "several inputs: progress told of each good end (%d)",
	   s.ended);
	gpuhist_summarize(c, &sum);
	ok(sum.bytes == 3 * (uint64_t)text_len && sum.backend[0] &&
	   sum.seconds >= sum.startup,
	   "summary: %llu bytes, backend \"%s\"",
	   (unsigned long long)sum.bytes, sum.backend);
	ok(gpuhist_free(c) == 0, "gpuhist_free: nothing left running");
	close(fd);
}

/* Every error path: a status and a message. */
static void errors(void)
{
	struct gpuhist_options opts;
	gpuhist_counter *c;
	uint64_t got[256];
	char why[256];
	static const char *const bad[] = {
		"threads -1", "threads above the most",
		"chunk_bytes above the most", "streams 65",
		"an unknown backend", "17 devices", "a negative device",
	};

	for (int i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		gpuhist_options_init(&opts);
		switch (i) {
		case 0: opts.threads = -1; break;
		case 1: opts.threads = GPUHIST_THREADS_MAX + 1; break;
		case 2: opts.chunk_bytes = GPUHIST_CHUNK_MAX + 1; break;
		case 3: opts.streams = 65; break;
		case 4: opts.backend = (enum gpuhist_backend)7; break;
		case 5: opts.n_devices = GPUHIST_DEVICES_MAX + 1; break;
		case 6: opts.n_devices = 1; opts.devices[0] = -2; break;
		}
		why[0] = '\0';
		c = (gpuhist_counter *)&opts;   /* must be set to NULL */
		ok(gpuhist_open(&c, &opts, why, sizeof(why)) ==
		   GPUHIST_ERR_ARGUMENT && !c && why[0],
		   "open refuses %s: %s", bad[i], why);
	}
	ok(gpuhist_open(&c, NULL, why, sizeof(why)) == GPUHIST_ERR_ARGUMENT,
	   "open refuses no options: %s", why);

	c = open_counter(GPUHIST_BACKEND_CPU, 2);
	if (!c) {
		ok(0, "a CPU counter opens");
		return;
	}
	ok(gpuhist_count_file(c, "no/such/file", got) == GPUHIST_ERR_INPUT &&
	   !strcmp(gpuhist_message(c), "no/such/file: No such file or directory"),
	   "a missing file: ERR_INPUT, \"%s\"", gpuhist_message(c));
	ok(gpuhist_count_file(c, dir_path, got) == GPUHIST_ERR_INPUT &&
	   strstr(gpuhist_message(c), ": Is a directory"),
	   "a directory: ERR_INPUT, \"%s\"", gpuhist_message(c));
	ok(gpuhist_count_file(c, bad_path, got) == GPUHIST_ERR_INPUT &&
	   strstr(gpuhist_message(c), "gzip"),
	   "a corrupt gzip file: ERR_INPUT, \"%s\"", gpuhist_message(c));
	ok(gpuhist_count_fd(c, -1, "nothing", got) == GPUHIST_ERR_ARGUMENT &&
	   gpuhist_message(c)[0],
	   "descriptor -1: ERR_ARGUMENT, \"%s\"", gpuhist_message(c));
	ok(gpuhist_count_file(c, text_path, NULL) == GPUHIST_ERR_ARGUMENT,
	   "no totals: ERR_ARGUMENT, \"%s\"", gpuhist_message(c));
	ok(gpuhist_count(c, NULL, 1, keep, NULL) == GPUHIST_ERR_ARGUMENT,
	   "no inputs: ERR_ARGUMENT, \"%s\"", gpuhist_message(c));

	/* Byte ranges: one whose offset does not fit a file offset (it once
	 * counted other bytes), and one past the end of the file. */
	struct gpuhist_input far = { .type = GPUHIST_INPUT_PATH,
				     .name = text_path,
				     .offset = 1ull << 63, .length = 3 };
	struct gpuhist_input past = { .type = GPUHIST_INPUT_PATH,
				      .name = text_path,
				      .offset = text_len - 2, .length = 5 };

	ok(gpuhist_count(c, &far, 1, keep, NULL) == GPUHIST_ERR_ARGUMENT &&
	   strstr(gpuhist_message(c), "2^63"),
	   "a range at 2^63: ERR_ARGUMENT, \"%s\"", gpuhist_message(c));
	struct seen past_seen;

	memset(&past_seen, 0, sizeof(past_seen));
	ok(gpuhist_count(c, &past, 1, keep, &past_seen) == GPUHIST_ERR_INPUT &&
	   past_seen.status[0] == GPUHIST_ERR_INPUT &&
	   strstr(past_seen.messages[0], "past its end"),
	   "a range past the end of the file: ERR_INPUT, \"%s\"",
	   past_seen.messages[0]);
	/* No counter: refused, as gpuhist_open refuses no options. */
	ok(gpuhist_count_file(NULL, text_path, got) == GPUHIST_ERR_ARGUMENT &&
	   gpuhist_count(NULL, &past, 1, keep, NULL) == GPUHIST_ERR_ARGUMENT &&
	   gpuhist_start(NULL, &past, 1) == GPUHIST_ERR_ARGUMENT,
	   "no counter: the counting functions return ERR_ARGUMENT");
	ok(gpuhist_message(NULL) && gpuhist_message(NULL)[0],
	   "gpuhist_message(NULL): \"%s\"", gpuhist_message(NULL));
	ok(gpuhist_count_file(c, text_path, got) == GPUHIST_OK &&
	   same(got, want) && !gpuhist_message(c)[0],
	   "after errors, the counter counts on, its message cleared");
	gpuhist_free(c);

	int codes[] = { GPUHIST_OK, GPUHIST_ERR_ARGUMENT, GPUHIST_ERR_NOMEM,
			GPUHIST_ERR_BACKEND, GPUHIST_ERR_INPUT };
	int distinct = 1;

	for (int i = 0; i < 5; i++)
		for (int j = 0; j < i; j++)
			distinct &= !!strcmp(gpuhist_strerror(codes[i]),
					     gpuhist_strerror(codes[j]));
	ok(distinct, "gpuhist_strerror: a different text for each status");
	ok(gpuhist_free(NULL) == 0, "gpuhist_free(NULL) does nothing");
}

/* Keeps a code-point result: its total of U+00E9, of the invalid byte
 * 0xc3, of all bins, and whether its bytes are the totals'. */
struct chars_seen {
	int status;
	uint64_t e_acute, invalid_c3, all;
	int bytes_match;
};

static void keep_chars(void *ctx, const struct gpuhist_result *r)
{
	struct chars_seen *s = ctx;
	uint64_t bytes[256];

	s->status = r->status;
	if (!r->chars)
		return;
	s->e_acute = gpuhist_chars_get(r->chars, 0xe9);
	s->invalid_c3 = gpuhist_chars_get(r->chars,
					  GPUHIST_CHAR_INVALID + 0xc3 - 0x80);
	for (uint32_t b = 0; b < GPUHIST_CHAR_BINS; b++)
		s->all += gpuhist_chars_get(r->chars, b);
	s->bytes_match = !gpuhist_chars_bytes(r->chars, bytes) &&
			 same(bytes, r->totals);
}

/* The chars option on each backend (the GPU's where there is one), and
 * the functions on code-point totals. */
static void chars(enum gpuhist_backend backend, const char *what)
{
	/* "é" three times, split by chunks of 5 bytes; a lone 0xc3 at the
	 * end; 8 characters in 11 bytes. */
	static const char data[] = "a\xc3\xa9" "b\xc3\xa9" "c\xc3\xa9" "d\xc3";
	struct gpuhist_input in = { .type = GPUHIST_INPUT_MEMORY,
				    .name = "utf-8", .data = data,
				    .size = sizeof(data) - 1 };
	struct gpuhist_options opts;
	struct chars_seen seen = { .status = -1 };
	struct gpuhist_chars a, b;
	gpuhist_counter *c;
	char why[256];

	gpuhist_options_init(&opts);
	opts.backend = backend;
	opts.chars = 1;
	opts.chunk_bytes = 5;
	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK) {
		ok(0, "%s: a counter of code points opens: %s", what, why);
		return;
	}
	gpuhist_count(c, &in, 1, keep_chars, &seen);
	ok(seen.status == GPUHIST_OK && seen.e_acute == 3 &&
	   seen.invalid_c3 == 1 && seen.all == 8 && seen.bytes_match,
	   "%s: code points across 5-byte chunks: U+00E9 x3, 0xc3 x1, 8 in "
	   "all, the bytes they came from", what);
	gpuhist_free(c);
	if (backend != GPUHIST_BACKEND_CPU)
		return;
	gpuhist_chars_init(&a);
	gpuhist_chars_init(&b);
	ok(gpuhist_chars_add(&a, 0x10ffff, UINT64_MAX) == GPUHIST_OK &&
	   gpuhist_chars_add(&a, 0x10ffff, 1) == GPUHIST_ERR_ARGUMENT &&
	   gpuhist_chars_add(&a, GPUHIST_CHAR_BINS, 1) == GPUHIST_ERR_ARGUMENT &&
	   gpuhist_chars_get(&a, 0x10ffff) == UINT64_MAX,
	   "gpuhist_chars_add: refuses to wrap and bins past the last");
	gpuhist_chars_add(&b, 'x', 2);
	gpuhist_chars_add(&b, 0x10ffff, 0);
	ok(gpuhist_chars_merge(&b, &a) == GPUHIST_OK &&
	   gpuhist_chars_get(&b, 'x') == 2 &&
	   gpuhist_chars_get(&b, 0x10ffff) == UINT64_MAX &&
	   gpuhist_chars_merge(&b, &a) == GPUHIST_ERR_ARGUMENT,
	   "gpuhist_chars_merge: adds, and refuses to wrap");
	gpuhist_chars_free(&a);
	gpuhist_chars_free(&b);
}

/* What a stats result carried. */
struct stream_seen {
	int status;
	int has_stream;
	struct gpuhist_stream s;
};

static void keep_stream(void *ctx, const struct gpuhist_result *r)
{
	struct stream_seen *seen = ctx;

	seen->status = r->status;
	seen->has_stream = r->stream != NULL;
	if (r->stream)
		seen->s = *r->stream;
}

/* The stats option on each backend: the test text in 7-byte chunks (every
 * group and many pairs across an edge), its sums against plain loops. */
static void stats(enum gpuhist_backend backend, const char *what)
{
	struct gpuhist_input in = { .type = GPUHIST_INPUT_PATH,
				    .name = text_path };
	struct gpuhist_options opts;
	struct stream_seen seen = { .status = -1 }, plain = { .status = -1 };
	uint64_t pairs = 0, hits = 0;
	gpuhist_counter *c;
	char why[256];

	for (size_t i = 0; i < text_len; i++)
		pairs += (uint64_t)text[i] * text[(i + 1) % text_len];
	for (size_t g = 0; g + 6 <= text_len; g += 6) {
		uint64_t x = (uint64_t)text[g] << 16 | text[g + 1] << 8 | text[g + 2];
		uint64_t y = (uint64_t)text[g + 3] << 16 | text[g + 4] << 8 |
			     text[g + 5];

		hits += x * x + y * y <= (uint64_t)0xffffff * 0xffffff;
	}
	gpuhist_options_init(&opts);
	opts.backend = backend;
	opts.chunk_bytes = 7;
	if (gpuhist_open(&c, &opts, why, sizeof(why)) == GPUHIST_OK) {
		gpuhist_count(c, &in, 1, keep_stream, &plain);
		gpuhist_free(c);
	}
	opts.stats = 1;
	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK) {
		ok(0, "%s: a counter with stats opens: %s", what, why);
		return;
	}
	gpuhist_count(c, &in, 1, keep_stream, &seen);
	gpuhist_free(c);
	ok(plain.status == GPUHIST_OK && !plain.has_stream &&
	   seen.status == GPUHIST_OK && seen.has_stream &&
	   seen.s.pairs == pairs && seen.s.groups == text_len / 6 &&
	   seen.s.hits == hits,
	   "%s: stats in 7-byte chunks: pairs %" PRIu64 ", groups %" PRIu64
	   ", hits %" PRIu64 ", as plain loops count them (none without the "
	   "option)", what, seen.s.pairs, seen.s.groups, seen.s.hits);
}

static void probes(void)
{
	uint64_t size;

	ok(gpuhist_probe(text_path, 0, &size) == GPUHIST_KIND_FILE &&
	   size == text_len, "probe: a plain file and its size");
	ok(gpuhist_probe(gz_path, 0, &size) == GPUHIST_KIND_COMPRESSED &&
	   size == gz_len, "probe: a gzip file is compressed");
	ok(gpuhist_probe(gz_path, 1, &size) == GPUHIST_KIND_FILE,
	   "probe: raw, it is a plain file");
	ok(gpuhist_probe("-", 0, &size) == GPUHIST_KIND_STREAM,
	   "probe: - is a stream");
	ok(gpuhist_probe(dir_path, 0, &size) == GPUHIST_KIND_DIRECTORY,
	   "probe: a directory");
	ok(gpuhist_probe("no/such/file", 0, &size) == GPUHIST_KIND_UNREADABLE,
	   "probe: a missing file");
}

/* Two counters, two threads, at once: nothing shared. */
struct worker {
	enum gpuhist_backend backend;
	int good;
};

static void *count_many(void *arg)
{
	struct worker *w = arg;
	gpuhist_counter *c = open_counter(w->backend, 2);
	uint64_t got[256];

	w->good = c != NULL;
	for (int i = 0; c && i < 20; i++) {
		w->good &= gpuhist_count_buffer(c, text, text_len, got) ==
			   GPUHIST_OK && same(got, want);
		w->good &= gpuhist_count_file(c, gz_path, got) == GPUHIST_OK &&
			   same(got, want);
	}
	gpuhist_free(c);
	return NULL;
}

static void two_threads(enum gpuhist_backend backend, const char *what)
{
	struct worker w[2] = { { backend, 0 }, { backend, 0 } };
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, count_many, &w[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ok(w[0].good && w[1].good,
	   "%s: two counters in two threads at once, 40 counts each", what);
}

int main(int argc, char **argv)
{
	gpuhist_counter *c;
	char why[256];
	int gpus;

	if (argc != 5) {
		fprintf(stderr, "usage: api-check TEXT TEXT.gz BAD.gz DIR\n");
		return 99;
	}
	text_path = argv[1];
	gz_path = argv[2];
	bad_path = argv[3];
	dir_path = argv[4];
	text = slurp(text_path, &text_len);
	gz = slurp(gz_path, &gz_len);
	count_simply(text, text_len, want);

	printf("1..68\n");
	ok(!strcmp(gpuhist_version(), GPUHIST_VERSION_STRING),
	   "the library's version is the header's: %s", gpuhist_version());

	c = open_counter(GPUHIST_BACKEND_CPU, 4);
	if (c)
		inputs_on(c, "cpu");
	else
		ok(0, "a CPU counter opens");
	gpuhist_free(c);
	c = open_counter(GPUHIST_BACKEND_AUTO, 0);
	if (c)
		inputs_on(c, "auto");
	else
		ok(0, "an auto counter opens");
	gpuhist_free(c);

	several();
	errors();
	probes();
	chars(GPUHIST_BACKEND_CPU, "cpu");
	stats(GPUHIST_BACKEND_CPU, "cpu");
	two_threads(GPUHIST_BACKEND_CPU, "cpu");

	gpus = gpuhist_gpu_count(why, sizeof(why));
	c = open_counter(GPUHIST_BACKEND_GPU, 4);
	if (gpus > 0 && c) {
		inputs_on(c, "gpu");
		gpuhist_free(c);
		two_threads(GPUHIST_BACKEND_GPU, "gpu");
		chars(GPUHIST_BACKEND_GPU, "gpu");
		stats(GPUHIST_BACKEND_GPU, "gpu");
		skip("the GPU backend's refusal", "a GPU is usable");
	} else {
		struct gpuhist_input in = { .type = GPUHIST_INPUT_PATH,
					    .name = text_path };

		for (int i = 0; i < 11; i++)
			skip("gpu: the inputs", "no CUDA device");
		ok(c && gpuhist_start(c, &in, 1) == GPUHIST_ERR_BACKEND &&
		   !strncmp(gpuhist_message(c), "GPU backend unusable: ", 22),
		   "no GPU: the GPU backend refuses to start: \"%s\"",
		   c ? gpuhist_message(c) : "(no counter)");
		gpuhist_free(c);
	}
	free(text);
	free(gz);
	return failures ? 1 : 0;
}
