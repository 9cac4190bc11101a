/* push-check.c - TAP test of libgpuhist's push API and gpuhist_cancel()
 *
 * Usage: push-check TEXT TEXT.gz UTF8 [TEXT.zst]
 *	TEXT: any file; TEXT.gz and TEXT.zst (optional): it compressed;
 *	UTF8: UTF-8 text with characters of 2, 3 and 4 bytes.  (t/t0017-push.t
 *	makes them.)
 *
 * What is pushed, in writes of 1, 7 and 4096 bytes and whole, must count
 * as the same bytes counted as a file: bytes (against a plain loop here),
 * gzip split inside its header, zstd, code points split inside characters
 * and ent's sums split inside their 6-byte groups (against the library
 * counting the file).  Corrupt gzip fails with its reason; a cancel stops
 * a count of many files from the progress callback, a pipe's count from
 * the callback while it is being written, and a push from the writer;
 * the counter counts again afterwards.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	printf("\n");
	if (!cond)
		failures++;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f) {
		perror(path);
		exit(99);
	}
	do {
		if (*len == cap && !(p = realloc(p, cap = cap * 2 + 65536)))
			exit(99);
		n = fread(p + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return p;
}

static gpuhist_counter *open_tokens(int chars, int stats, int threads,
				   int tokens)
{
	struct gpuhist_options opts;
	gpuhist_counter *c;
	char why[256];

	gpuhist_options_init(&opts);
	opts.backend = GPUHIST_BACKEND_CPU;
	opts.chars = chars;
	opts.stats = stats;
	opts.tokens = tokens;
	opts.threads = threads;
	opts.chunk_bytes = 65536;   /* many chunks, so edges fall anywhere */
	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK) {
		printf("Bail out! gpuhist_open: %s\n", why);
		exit(1);
	}
	return c;
}

static gpuhist_counter *open_counter(int chars, int stats, int threads)
{
	return open_tokens(chars, stats, threads, GPUHIST_TOKENS_NONE);
}

/* What a result carried, copied (its tokens as "COUNT BYTES" lines,
 * sorted, in one string). */
struct seen {
	int status, calls;
	uint64_t totals[256];
	struct gpuhist_chars chars;
	struct gpuhist_stream stream;
	char messages[512];
	char *tokens;
	uint64_t distinct, total;
};

static int by_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A result's tokens as sorted lines, in a string the caller frees. */
static char *tokens_text(const struct gpuhist_tokens *tk)
{
	char **line = calloc(tk->distinct + 1, sizeof(*line));
	size_t len = 1;
	char *all, *at;

	for (size_t i = 0; i < tk->distinct; i++) {
		const struct gpuhist_token *t = &tk->token[i];

		line[i] = malloc(t->len + 32);
		at = line[i] + sprintf(line[i], "%llu ",
				       (unsigned long long)t->count);
		memcpy(at, t->bytes, t->len);
		at[t->len] = '\0';    /* the test's tokens hold no NUL */
		len += strlen(line[i]) + 1;
	}
	qsort(line, tk->distinct, sizeof(*line), by_line);
	all = at = malloc(len);
	*at = '\0';
	for (size_t i = 0; i < tk->distinct; i++) {
		at += sprintf(at, "%s\n", line[i]);
		free(line[i]);
	}
	free(line);
	return all;
}

static void keep(void *ctx, const struct gpuhist_result *r)
{
	struct seen *s = ctx;

	s->calls++;
	s->status = r->status;
	snprintf(s->messages, sizeof(s->messages), "%s", r->messages);
	if (r->totals)
		memcpy(s->totals, r->totals, sizeof(s->totals));
	if (r->chars)
		gpuhist_chars_merge(&s->chars, r->chars);
	if (r->stream)
		s->stream = *r->stream;
	if (r->tokens) {
		free(s->tokens);
		s->tokens = tokens_text(r->tokens);
		s->distinct = r->tokens->distinct;
		s->total = r->tokens->total;
	}
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->status = -1;
	gpuhist_chars_init(&s->chars);
}

/* Whether two tallies of code points agree in every bin. */
static int same_chars(const struct gpuhist_chars *a,
		      const struct gpuhist_chars *b)
{
	for (uint32_t bin = 0; bin < GPUHIST_CHAR_BINS; bin++)
		if (gpuhist_chars_get(a, bin) != gpuhist_chars_get(b, bin))
			return 0;
	return 1;
}

/* p[0..len) pushed onto c in writes of `piece` bytes (0: one write); the
 * status of the close, with the result in *s.  *write_failed: a write
 * that did not return GPUHIST_OK. */
static int push(gpuhist_counter *c, const unsigned char *p, size_t len,
		size_t piece, struct seen *s, int *write_failed)
{
	gpuhist_push *h;
	size_t done = 0;

	*write_failed = 0;
	if (gpuhist_push_open(c, "pushed", &h) != GPUHIST_OK)
		return -1;
	while (done < len) {
		size_t n = piece && len - done > piece ? piece : len - done;

		if (gpuhist_push_write(h, p + done, n) != GPUHIST_OK) {
			*write_failed = 1;
			break;
		}
		done += n;
	}
	return gpuhist_push_close(h, keep, s);
}

/* The library's own count of the file at path on c, into *s. */
static void count_file(gpuhist_counter *c, const char *path, struct seen *s)
{
	struct gpuhist_input in = { .type = GPUHIST_INPUT_PATH, .name = path };

	gpuhist_count(c, &in, 1, keep, s);
}

static const size_t pieces[] = { 1, 7, 4096, 0 };

/* Bytes pushed in each size of write against the bytes counted simply. */
static void bytes_of(const char *what, const unsigned char *p, size_t len,
		     const uint64_t want[256])
{
	gpuhist_counter *c = open_counter(0, 0, 2);

	for (size_t k = 0; k < sizeof(pieces) / sizeof(*pieces); k++) {
		struct seen s;
		int wf, status;

		seen_init(&s);
		status = push(c, p, len, pieces[k], &s, &wf);
		ok(status == GPUHIST_OK && !wf && s.calls == 1 &&
		   !memcmp(s.totals, want, sizeof(s.totals)),
		   "%s pushed in writes of %zu bytes: the file's totals",
		   what, pieces[k] ? pieces[k] : len);
		gpuhist_chars_free(&s.chars);
	}
	gpuhist_free(c);
}

/* Code points and ent's sums pushed in pieces against the file's. */
static void views_of(const char *path)
{
	size_t len;
	unsigned char *p = slurp(path, &len);
	gpuhist_counter *c = open_counter(1, 1, 2);
	struct seen file;

	seen_init(&file);
	count_file(c, path, &file);
	for (size_t k = 0; k < 3; k++) {
		struct seen s;
		int wf, status;

		seen_init(&s);
		status = push(c, p, len, pieces[k], &s, &wf);
		ok(status == GPUHIST_OK && file.status == GPUHIST_OK &&
		   same_chars(&s.chars, &file.chars) &&
		   !memcmp(s.totals, file.totals, sizeof(s.totals)) &&
		   s.stream.pairs == file.stream.pairs &&
		   s.stream.groups == file.stream.groups &&
		   s.stream.hits == file.stream.hits,
		   "UTF-8 pushed in writes of %zu bytes (cut inside characters "
		   "and 6-byte groups): the file's code points and ent's sums",
		   pieces[k]);
		gpuhist_chars_free(&s.chars);
	}
	gpuhist_chars_free(&file.chars);
	gpuhist_free(c);
	free(p);
}

/* Words and lines of gzip pushed in pieces (cut inside tokens, and
 * inside the gzip header) against the file's. */
static void tokens_of(const char *path, const unsigned char *gz, size_t len)
{
	static const int views[] = { GPUHIST_TOKENS_WORDS,
				     GPUHIST_TOKENS_LINES };

	for (int v = 0; v < 2; v++) {
		gpuhist_counter *c = open_tokens(0, 0, 2, views[v]);
		struct seen file;

		seen_init(&file);
		count_file(c, path, &file);
		for (size_t k = 1; k < 3; k++) {
			struct seen s;
			int wf, status;

			seen_init(&s);
			status = push(c, gz, len, pieces[k], &s, &wf);
			ok(status == GPUHIST_OK && file.status == GPUHIST_OK &&
			   s.tokens && file.tokens && file.distinct > 1 &&
			   s.distinct == file.distinct &&
			   s.total == file.total &&
			   !strcmp(s.tokens, file.tokens),
			   "%s of gzip pushed in writes of %zu bytes: the file's",
			   v ? "lines" : "words", pieces[k]);
			free(s.tokens);
		}
		free(file.tokens);
		gpuhist_free(c);
	}
}

/* Corrupt gzip pushed: a write or the close fails, with the reason. */
static void corrupt(const unsigned char *gz, size_t len)
{
	gpuhist_counter *c = open_counter(0, 0, 2);
	unsigned char *bad = malloc(len);
	struct seen s;
	int wf, status;

	memcpy(bad, gz, len);
	for (size_t i = len / 3; i < len / 3 + 64 && i < len; i++)
		bad[i] ^= 0x55;
	seen_init(&s);
	status = push(c, bad, len, 4096, &s, &wf);
	ok(status == GPUHIST_ERR_INPUT && s.status == GPUHIST_ERR_INPUT &&
	   !strncmp(s.messages, "pushed: ", 8) &&
	   strstr(s.messages, "corrupt") != NULL,
	   "corrupt gzip pushed: GPUHIST_ERR_INPUT, the message names it: %s",
	   s.messages);
	seen_init(&s);
	status = push(c, (const unsigned char *)"plain", 5, 0, &s, &wf);
	ok(status == GPUHIST_OK && s.totals['p'] == 1,
	   "the counter pushes again after a failed push");
	free(bad);
	gpuhist_free(c);
}

/* Cancels the counter *ctx (a gpuhist_counter *, set once it is open)
 * from the progress callback once the first input has ended. */
static void cancel_at_first_end(void *ctx, const struct gpuhist_progress *at)
{
	if (at->ended)
		gpuhist_cancel(*(gpuhist_counter **)ctx);
}

/* ... or once anything is counted. */
static void cancel_once_counting(void *ctx, const struct gpuhist_progress *at)
{
	if (at->counted)
		gpuhist_cancel(*(gpuhist_counter **)ctx);
}

/* A counter of one thread whose progress callback is fn, told the
 * counter itself. */
static gpuhist_counter *self_cancelling(void (*fn)(void *,
						   const struct gpuhist_progress *),
					gpuhist_counter **self)
{
	struct gpuhist_options opts;
	char why[256];

	gpuhist_options_init(&opts);
	opts.backend = GPUHIST_BACKEND_CPU;
	opts.threads = 1;
	opts.chunk_bytes = 65536;
	opts.progress = fn;
	opts.progress_ctx = self;
	if (gpuhist_open(self, &opts, why, sizeof(why)) != GPUHIST_OK) {
		printf("Bail out! gpuhist_open: %s\n", why);
		exit(1);
	}
	return *self;
}

struct many {
	int ok, cancelled, other, messages_right;
};

static void tally(void *ctx, const struct gpuhist_result *r)
{
	struct many *m = ctx;
	char want[256];

	if (r->status == GPUHIST_OK) {
		m->ok++;
	} else if (r->status == GPUHIST_ERR_CANCELLED && !r->totals) {
		m->cancelled++;
		snprintf(want, sizeof(want), "%s: cancelled\n", r->name);
		m->messages_right += !strcmp(r->messages, want);
	} else {
		m->other++;
	}
}

/* Twelve files on one thread, cancelled as the first ends. */
static void cancel_files(const char *path, const uint64_t want[256])
{
	static gpuhist_counter *self;
	gpuhist_counter *c = self_cancelling(cancel_at_first_end, &self);
	struct gpuhist_input in[12];
	struct many m = { 0 };
	uint64_t again[256];
	int status;

	for (int i = 0; i < 12; i++)
		in[i] = (struct gpuhist_input){ .type = GPUHIST_INPUT_PATH,
						.name = path };
	status = gpuhist_count(c, in, 12, tally, &m);
	ok(status == GPUHIST_ERR_CANCELLED && m.ok >= 1 && m.ok <= 3 &&
	   m.cancelled == 12 - m.ok && m.messages_right == m.cancelled &&
	   !m.other,
	   "12 files, cancelled from the callback as the first ends: "
	   "GPUHIST_ERR_CANCELLED, %d counted, %d \"NAME: cancelled\"",
	   m.ok, m.cancelled);
	/* The next count is not cancelled (its callback cancels only once an
	 * input ends, and the one input ends last). */
	status = gpuhist_count_file(c, path, again);
	ok(status == GPUHIST_OK && !memcmp(again, want, sizeof(again)),
	   "the counter counts again after a cancel");
	gpuhist_free(c);
}

/* Writes into a pipe, 64 KiB every 10 ms, until told to stop or the pipe
 * closes; how much it wrote. */
struct slow_writer {
	int fd;
	size_t limit, written;
};

static void *write_slowly(void *arg)
{
	struct slow_writer *w = arg;
	static unsigned char block[65536];

	memset(block, 'x', sizeof(block));
	while (w->written < w->limit) {
		ssize_t n = write(w->fd, block, sizeof(block));

		if (n <= 0)
			break;          /* EPIPE: the count closed its end */
		w->written += (size_t)n;
		usleep(10000);
	}
	close(w->fd);
	return NULL;
}

/* A pipe's count, cancelled from the callback while it is being written:
 * it ends long before the writer would. */
static void cancel_pipe(void)
{
	static gpuhist_counter *self;
	gpuhist_counter *c = self_cancelling(cancel_once_counting, &self);
	struct slow_writer w = { .limit = (size_t)64 << 20 };
	struct gpuhist_input in = { .type = GPUHIST_INPUT_FD,
				    .name = "pipe" };
	struct many m = { 0 };
	pthread_t t;
	int fds[2], status;

	if (pipe(fds)) {
		printf("Bail out! pipe: %s\n", strerror(errno));
		exit(1);
	}
	w.fd = fds[1];
	in.fd = fds[0];
	pthread_create(&t, NULL, write_slowly, &w);
	status = gpuhist_count(c, &in, 1, tally, &m);
	close(fds[0]);
	pthread_join(t, NULL);
	ok(status == GPUHIST_ERR_CANCELLED && m.cancelled == 1 &&
	   m.messages_right == 1 && w.written < w.limit,
	   "a pipe cancelled from the callback as it is written: "
	   "\"pipe: cancelled\", %zu of %zu bytes written", w.written,
	   w.limit);
	gpuhist_free(c);
}

/* A push cancelled by its writer: a later write or the close says so. */
static void cancel_push(const unsigned char *p, size_t len)
{
	gpuhist_counter *c = open_counter(0, 0, 2);
	gpuhist_push *h;
	struct seen s;
	int status, write_status = GPUHIST_OK;
	size_t done = 0;

	seen_init(&s);
	gpuhist_push_open(c, "pushed", &h);
	gpuhist_push_write(h, p, len / 2);
	gpuhist_cancel(c);
	/* Writes go on until the count has seen the cancel. */
	for (int i = 0; i < 64 && write_status == GPUHIST_OK; i++) {
		write_status = gpuhist_push_write(h, p, len);
		done += len;
	}
	status = gpuhist_push_close(h, keep, &s);
	ok(status == GPUHIST_ERR_CANCELLED && s.status == GPUHIST_ERR_CANCELLED &&
	   write_status == GPUHIST_ERR_CANCELLED &&
	   !strcmp(s.messages, "pushed: cancelled\n"),
	   "a push cancelled mid-way: its writes then fail, and the close, "
	   "with \"pushed: cancelled\" (%zu more bytes written first)", done);
	seen_init(&s);
	status = push(c, p, len, 0, &s, &status);
	ok(status == GPUHIST_OK, "the counter pushes again after a cancel");
	gpuhist_free(c);
}

/* On the GPU, where one is usable: gzip pushed in 4096-byte writes, and
 * a cancel of a push mid-way. */
static void on_gpu(const unsigned char *gz, size_t gz_len,
		   const uint64_t want[256])
{
	struct gpuhist_options opts;
	gpuhist_counter *c;
	gpuhist_push *h;
	struct seen s;
	char why[256];
	int wf, status, write_status = GPUHIST_OK;

	if (gpuhist_gpu_count(why, sizeof(why)) < 1) {
		printf("ok %d # SKIP no CUDA device\n", ++test_no);
		printf("ok %d # SKIP no CUDA device\n", ++test_no);
		return;
	}
	gpuhist_options_init(&opts);
	opts.backend = GPUHIST_BACKEND_GPU;
	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK) {
		printf("Bail out! gpuhist_open: %s\n", why);
		exit(1);
	}
	seen_init(&s);
	status = push(c, gz, gz_len, 4096, &s, &wf);
	ok(status == GPUHIST_OK && !wf && !memcmp(s.totals, want, sizeof(s.totals)),
	   "gpu: gzip pushed in 4096-byte writes: the text's totals");
	seen_init(&s);
	gpuhist_push_open(c, "pushed", &h);
	gpuhist_push_write(h, gz, gz_len / 2);
	gpuhist_cancel(c);
	/* The rest, then more members: valid gzip to the end. */
	write_status = gpuhist_push_write(h, gz + gz_len / 2,
					  gz_len - gz_len / 2);
	for (int i = 0; i < 64 && write_status == GPUHIST_OK; i++)
		write_status = gpuhist_push_write(h, gz, gz_len);
	status = gpuhist_push_close(h, keep, &s);
	ok(status == GPUHIST_ERR_CANCELLED && s.status == GPUHIST_ERR_CANCELLED,
	   "gpu: a push cancelled mid-way ends cancelled: %s",
	   gpuhist_strerror(status));
	gpuhist_free(c);
}

int main(int argc, char **argv)
{
	size_t text_len, gz_len, zst_len = 0;
	unsigned char *text, *gz, *zst = NULL;
	uint64_t want[256] = { 0 };

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: push-check TEXT TEXT.gz UTF8 [TEXT.zst]\n");
		return 99;
	}
	signal(SIGPIPE, SIG_IGN);
	text = slurp(argv[1], &text_len);
	gz = slurp(argv[2], &gz_len);
	if (argc == 5)
		zst = slurp(argv[4], &zst_len);
	for (size_t i = 0; i < text_len; i++)
		want[text[i]]++;

	printf("1..28\n");
	bytes_of("plain text", text, text_len, want);
	bytes_of("gzip (its 10-byte header cut by the 1- and 7-byte writes)",
		 gz, gz_len, want);
	if (zst) {
		bytes_of("zstd", zst, zst_len, want);
	} else {
		for (int i = 0; i < 4; i++)
			printf("ok %d # SKIP zstd: no TEXT.zst\n", ++test_no);
	}
	views_of(argv[3]);
	tokens_of(argv[1], gz, gz_len);
	corrupt(gz, gz_len);
	cancel_files(argv[1], want);
	cancel_pipe();
	cancel_push(text, text_len);
	on_gpu(gz, gz_len, want);
	free(text);
	free(gz);
	free(zst);
	return failures ? 1 : 0;
}
