/* fuzz-merge.c - libFuzzer harness of the readers of results
 * (gh_merge_read, under gpuhist_merge_json: src/lib/merge/, every reader
 * on json_read.c), which
 * are fed files nobody checked: any bytes, read as a result with and
 * without -m's code points, as one of the lines and the words views'
 * tokens, and as the values view's numbers, must be taken or refused with
 * a message, never crash, hang, leak or read out of bounds; a result taken
 * has totals whose sum of bytes fits 64 bits (merge_bytes.c's own checks,
 * here asserted once more from outside), or tokens that add up to what
 * its total says. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpuhist.h"
#include "merge/readers.h"

/* The options gpuhist_options_init() makes (api.c is not linked in:
 * gpuhist_merge_json() checks them, then calls gh_merge_read()). */
static void options_init(struct gpuhist_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->struct_size = sizeof(*opts);
	opts->separator = -1;
}

/* Reads data as a result once, with or without code points. */
static void read_once(const char *path, int chars_too)
{
	static struct gpuhist_merge m;
	struct gpuhist_options opts;
	struct gpuhist_chars chars;

	options_init(&opts);
	gpuhist_chars_init(&chars);
	memset(&m, 0, sizeof(m));
	m.struct_size = sizeof(m);
	m.chars = chars_too ? &chars : NULL;
	if (gh_merge_read(&opts, path, &m) == GPUHIST_OK) {
		uint64_t all = 0;

		for (int v = 0; v < 256; v++) {
			if (all + m.totals[v] < all)
				abort();        /* the reader promised no
						 * overflow */
			all += m.totals[v];
		}
	} else if (!m.message[0]) {
		abort();                /* refused without a word */
	}
	gpuhist_chars_free(&chars);
}

static int add_up(void *ctx, const struct gpuhist_tokens *part)
{
	uint64_t *total = ctx;

	for (size_t i = 0; i < part->distinct; i++)
		*total += part->token[i].count;
	return 0;
}

/* Reads data as a tokens view's result once. */
static void read_tokens(const char *path, int view)
{
	static struct gpuhist_merge m;
	struct gpuhist_options opts;
	uint64_t total = 0;

	options_init(&opts);
	opts.tokens = view;
	memset(&m, 0, sizeof(m));
	m.struct_size = sizeof(m);
	m.tokens = gpuhist_token_sum_new(0, NULL);
	if (!m.tokens)
		return;
	if (gh_merge_read(&opts, path, &m) == GPUHIST_OK) {
		const struct gpuhist_tokens *tk = gpuhist_token_sum_end(m.tokens);

		if (!tk || gpuhist_tokens_each(tk, add_up, &total) ||
		    total != tk->total)
			abort();
	} else if (!m.message[0]) {
		abort();                /* refused without a word */
	}
	gpuhist_token_sum_free(m.tokens);
}

/* Reads data as the values view's result (field 10) once. */
static void read_values(const char *path)
{
	static struct gpuhist_merge m;
	struct gpuhist_options opts;
	struct gpuhist_values_summary s;

	options_init(&opts);
	opts.tokens = GPUHIST_TOKENS_FIELD;
	opts.field = 10;
	memset(&m, 0, sizeof(m));
	m.struct_size = sizeof(m);
	m.values = gpuhist_values_new(0);
	if (!m.values)
		return;
	if (gh_merge_read(&opts, path, &m) == GPUHIST_OK) {
		gpuhist_values_summary(m.values, &s);
		if (s.empty > s.not_numbers)
			abort();        /* the reader promised */
	} else if (!m.message[0]) {
		abort();                /* refused without a word */
	}
	gpuhist_values_free(m.values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("merge", 0);

	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_once(path, 0);
	read_once(path, 1);
	read_tokens(path, GPUHIST_TOKENS_LINES);
	read_tokens(path, GPUHIST_TOKENS_WORDS);
	read_values(path);
	close(fd);
	return 0;
}
