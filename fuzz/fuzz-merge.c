/* fuzz-merge.c - libFuzzer harness of --merge's JSON reader (merge.c),
 * which is fed files nobody checked: any bytes, read as a result with and
 * without -m's code points, must be taken or refused with a message, never
 * crash, hang, leak or read out of bounds; a result taken has totals
 * whose sum of bytes fits 64 bits (merge.c's own checks, here asserted
 * once more from outside). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpuhist.h"
#include "merge.h"
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
	close(fd);
	return 0;
}
