/* fuzz-merge.c - libFuzzer harness of --merge's JSON readers (merge.c,
 * merge_tokens.c, both on json_read.c), which are fed files nobody
 * checked: any bytes, read as a result with and without -m's code points,
 * and as one of the lines and the words views' tokens, must be taken or
 * refused with a message, never crash, hang, leak or read out of bounds;
 * a result taken has totals whose sum of bytes fits 64 bits (merge.c's
 * own checks, here asserted once more from outside), or tokens that add
 * up to what its total says. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpuhist.h"
#include "merge.h"
#include "merge_tokens.h"
#include "msg.h"

/* Reads data as a result once, with or without code points. */
static void read_once(const char *path, int chars_too)
{
	static const uint64_t none[256];
	uint64_t totals[256];
	struct gpuhist_chars chars;
	struct gpuhist_stream stream;
	bool known = false;
	char said[8192];

	gpuhist_chars_init(&chars);
	gh_msg_capture(said, sizeof(said));     /* messages are not the point */
	int ret = gh_merge_read(path, none, totals, chars_too ? &chars : NULL,
				&stream, &known);
	gh_msg_capture(NULL, 0);
	if (!ret) {
		uint64_t all = 0;

		for (int v = 0; v < 256; v++) {
			if (all + totals[v] < all)
				abort();        /* merge.c promised no overflow */
			all += totals[v];
		}
	} else if (!said[0]) {
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
	struct gpuhist_options opts = { .tokens = view, .separator = -1 };
	gpuhist_token_sum *sum = gpuhist_token_sum_new(0, NULL);
	uint64_t bytes = 0, total = 0;
	char said[8192];

	if (!sum)
		return;
	gh_msg_capture(said, sizeof(said));
	int ret = gh_merge_tokens_read(path, &opts, sum, &bytes);

	gh_msg_capture(NULL, 0);
	if (!ret) {
		const struct gpuhist_tokens *tk = gpuhist_token_sum_end(sum);

		if (!tk || gpuhist_tokens_each(tk, add_up, &total) ||
		    total != tk->total)
			abort();
	} else if (!said[0]) {
		abort();                /* refused without a word */
	}
	gpuhist_token_sum_free(sum);
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
	close(fd);
	return 0;
}
