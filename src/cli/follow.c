/* follow.c - --follow: a growing file counted as it grows (follow.h)
 *
 * As tail -F: the file is read to its end, then again as it grows; when
 * its name comes to stand for another file (rotated: renamed away and
 * made anew) the old one is read to its end and the new one from its
 * start; when it shrinks (truncated in place) it is read again from its
 * start.  Standard input ("-", a pipe) is read until it ends.
 *
 * What was read is counted in segments of whole lines: each period's new
 * lines are pushed to the library as an input of their own (a line's
 * last bytes wait for its newline), and the segment's result is added to
 * the totals so far, which are printed (one block, as the file's) every
 * --interval when something came, and at the end.  Every view's counts
 * add up over segments cut at newlines (bytes, code points, words,
 * lines, fields, keys, values); ent's sums would not, so -s is refused.
 * A file's last line without a newline is counted when the file is left
 * (rotated, truncated, or at the end), as counting the file whole counts
 * it.
 */
#define _GNU_SOURCE 1    /* memrchr */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "follow.h"
#include "msg.h"
#include "report.h"

#define READ_BYTES ((size_t)1 << 20)
#define NAP_MS 100

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
	(void)sig;
	stopped = 1;
}

struct follow {
	struct gh_run *run;
	const char *path;               /* "-": standard input */
	int fd;
	bool regular;
	dev_t dev;
	ino_t ino;
	uint64_t at;                    /* bytes read of the file open */
	unsigned char *line;            /* a line's first bytes, read */
	size_t line_len, line_cap;
	gpuhist_push *push;             /* the period's segment, or NULL */
	bool changed;                   /* counted since the last print */
	bool counted;                   /* ... or ever */
	/* the totals so far */
	uint64_t totals[256];
	struct gpuhist_chars chars;
	gpuhist_token_sum *sum;         /* owns tokens */
	const struct gpuhist_tokens *tokens;
	bool failed;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A segment's result, added into the totals. */
static void add_segment(void *ctx, const struct gpuhist_result *r)
{
	struct follow *f = ctx;
	const struct gpuhist_options *lib = &f->run->opts->lib;
	gpuhist_token_sum *sum;

	if (r->messages && *r->messages)
		fputs(r->messages, stderr);
	if (r->status != GPUHIST_OK) {
		f->failed = true;
		return;
	}
	for (int c = 0; c < 256; c++)
		f->totals[c] += r->totals[c];
	if (r->chars && gpuhist_chars_merge(&f->chars, r->chars)) {
		gh_msg("%s: out of memory for the code points", f->path);
		f->failed = true;
	}
	if (!r->tokens)
		return;
	/* Tokens: the sum so far and the segment's, into a new sum. */
	const struct gpuhist_tokens *so_far = NULL;

	sum = gpuhist_token_sum_new(lib->memory, lib->temporary_directory);
	if (!sum || (f->tokens && gpuhist_token_sum_add_tokens(sum, f->tokens)) ||
	    gpuhist_token_sum_add_tokens(sum, r->tokens) ||
	    !(so_far = gpuhist_token_sum_end(sum))) {
		gh_msg("%s: the tokens so far: %s", f->path,
		       sum ? gpuhist_token_sum_message(sum) : "out of memory");
		gpuhist_token_sum_free(sum);
		f->failed = true;
		return;
	}
	gpuhist_token_sum_free(f->sum);
	f->sum = sum;
	f->tokens = so_far;
}

/* Hands bytes to the period's segment, opening it first. */
static int push(struct follow *f, const unsigned char *p, size_t n)
{
	if (!n)
		return 0;
	if (!f->push && gpuhist_push_open(f->run->counter, f->path,
					  &f->push) != GPUHIST_OK) {
		gh_msg("%s: %s", f->path,
		       gpuhist_message(f->run->counter));
		f->push = NULL;
		return -1;
	}
	f->changed = f->counted = true;
	/* A failed write says why at the segment's close. */
	gpuhist_push_write(f->push, p, n);
	return 0;
}

/* Ends the period's segment, its counts added into the totals. */
static void end_segment(struct follow *f)
{
	if (!f->push)
		return;
	gpuhist_push_close(f->push, add_segment, f);
	f->push = NULL;
}

/* Whether p[0..n) begins as a compressed stream does (gzip, zstd, xz,
 * bzip2, lz4), which segments cut at newlines cannot be decoded from. */
static bool compressed(const unsigned char *p, size_t n)
{
	static const struct { const char *magic; size_t len; } formats[] = {
		{ "\x1f\x8b", 2 }, { "\x28\xb5\x2f\xfd", 4 },
		{ "\xfd" "7zXZ", 5 }, { "BZh", 3 }, { "\x04\x22\x4d\x18", 4 },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (n >= formats[i].len &&
		    !memcmp(p, formats[i].magic, formats[i].len) &&
		    (formats[i].len > 3 || p[0] != 'B' ||
		     (n > 3 && p[3] >= '1' && p[3] <= '9')))
			return true;
	return false;
}

/* Bytes read: the whole lines to the segment, the rest kept. */
static int take(struct follow *f, const unsigned char *p, size_t n)
{
	const unsigned char *nl = n ? memrchr(p, '\n', n) : NULL;

	if (nl) {
		size_t whole = (size_t)(nl - p) + 1;

		if (push(f, f->line, f->line_len) || push(f, p, whole))
			return -1;
		f->line_len = 0;
		p += whole;
		n -= whole;
	}
	if (f->line_len + n > f->line_cap) {
		size_t cap = (f->line_len + n) * 2;
		unsigned char *l = realloc(f->line, cap);

		if (!l) {
			gh_msg("%s: out of memory for a line", f->path);
			return -1;
		}
		f->line = l;
		f->line_cap = cap;
	}
	if (n)
		memcpy(f->line + f->line_len, p, n);
	f->line_len += n;
	return 0;
}

/* The file is left: its last line, without a newline, counts, as the
 * segment's last (the next file's first bytes begin a line of their
 * own). */
static int leave_file(struct follow *f)
{
	int ret = push(f, f->line, f->line_len);

	if (f->line_len)
		end_segment(f);
	f->line_len = 0;
	return ret;
}

static int open_file(struct follow *f)
{
	struct stat st;

	if (!strcmp(f->path, "-")) {
		f->fd = STDIN_FILENO;
	} else {
		f->fd = open(f->path, O_RDONLY);
		if (f->fd < 0)
			return -1;
	}
	if (fstat(f->fd, &st)) {
		if (f->fd != STDIN_FILENO)
			close(f->fd);
		f->fd = -1;
		return -1;
	}
	f->regular = S_ISREG(st.st_mode);
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->at = 0;
	return 0;
}

/* At the file's end for now: whether its name stands for another file
 * (then it is opened) or it shrank (then it is read again from its
 * start).  0, or -1 (said). */
static int check_file(struct follow *f, unsigned char *buf)
{
	struct stat st;
	ssize_t n;

	if (!strcmp(f->path, "-") || stat(f->path, &st))
		return 0;       /* standard input; or renamed away, none
				 * made anew yet */
	if (st.st_dev != f->dev || st.st_ino != f->ino) {
		int fd = f->fd;

		/* What the old file gained since it was last read. */
		while ((n = read(fd, buf, READ_BYTES)) > 0) {
			f->at += (uint64_t)n;
			if (take(f, buf, (size_t)n))
				return -1;
		}
		if (leave_file(f))
			return -1;
		if (open_file(f)) {
			f->fd = fd;     /* made and gone again: keep reading */
			return 0;
		}
		close(fd);
		return 0;
	}
	if ((uint64_t)st.st_size < f->at) {
		if (leave_file(f) || lseek(f->fd, 0, SEEK_SET) < 0)
			return -1;
		f->at = 0;
	}
	return 0;
}

/* Prints the totals so far as the file's one block. */
static void print_totals(struct follow *f, bool last)
{
	struct gh_run *run = f->run;
	struct gh_report rep;
	gpuhist_token_sum *empty = NULL;
	const struct gpuhist_tokens *tokens = f->tokens;

	if (run->opts->lib.tokens && !tokens) {
		empty = gpuhist_token_sum_new(0, NULL);
		tokens = empty ? gpuhist_token_sum_end(empty) : NULL;
		if (!tokens) {
			gh_msg("out of memory");
			gpuhist_token_sum_free(empty);
			return;
		}
	}
	/* A table on a terminal is drawn again in place. */
	if (run->opts->format == GH_FMT_TABLE && isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	gh_report_begin(&rep, stdout, run->opts, &run->view);
	rep.snapshot = true;
	rep.replay_wanted = false;
	gh_report_input(&rep, f->path, f->totals,
			run->opts->chars ? &f->chars : NULL, NULL, tokens);
	gh_report_end(&rep);
	if (run->opts->format == GH_FMT_TABLE && !last &&
	    !isatty(STDOUT_FILENO))
		putchar('\n');
	fflush(stdout);
	if (rep.failed)
		f->failed = true;
	gpuhist_token_sum_free(empty);
}

int gh_follow(struct gh_run *run)
{
	struct follow f = { .run = run, .path = run->opts->operands[0],
			    .fd = -1 };
	/* A second signal ends the process as it would have. */
	struct sigaction sa = { .sa_handler = on_stop,
				.sa_flags = SA_RESETHAND };
	double next;
	unsigned char *buf = malloc(READ_BYTES);
	int ret = 0;

	if (!buf) {
		gh_msg("out of memory");
		return -1;
	}
	gpuhist_chars_init(&f.chars);
	if (open_file(&f)) {
		gh_msg("%s: %s", f.path, strerror(errno));
		free(buf);
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	next = now() + run->opts->interval;
	while (!stopped && !f.failed) {
		double left = next - now();
		ssize_t n = 0;

		if (left <= 0) {
			end_segment(&f);
			if (f.changed)
				print_totals(&f, false);
			f.changed = false;
			next = now() + run->opts->interval;
			continue;
		}
		if (!f.regular) {
			struct pollfd p = { .fd = f.fd, .events = POLLIN };
			int ms = (int)(left * 1000) + 1;

			if (poll(&p, 1, ms) <= 0)
				continue;       /* the time, or a signal */
		}
		n = read(f.fd, buf, READ_BYTES);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			gh_msg("%s: %s", f.path, strerror(errno));
			ret = 1;
			break;
		}
		if (n > 0 && f.at == 0 && !f.line_len &&
		    compressed(buf, (size_t)n)) {
			gh_msg("%s: compressed: --follow reads text (decode it into a pipe: zcat -f FILE | gpuhist --follow)",
			       f.path);
			ret = 1;
			break;
		}
		if (n > 0) {
			f.at += (uint64_t)n;
			if (take(&f, buf, (size_t)n))
				f.failed = true;
			continue;
		}
		if (!f.regular)
			break;          /* a pipe's end: the input ended */
		if (check_file(&f, buf)) {
			f.failed = true;
			break;
		}
		struct timespec nap = { 0, NAP_MS * 1000000L };

		nanosleep(&nap, NULL);
	}
	/* The end: what a file held when it came (not what it gains while
	 * being read), its last line too. */
	struct stat st;
	uint64_t end = f.regular && !fstat(f.fd, &st) ? (uint64_t)st.st_size
						      : 0;

	while (!f.failed && ret == 0 && f.at < end) {
		ssize_t n = read(f.fd, buf, end - f.at < READ_BYTES
					    ? (size_t)(end - f.at)
					    : READ_BYTES);

		if (n <= 0)
			break;
		f.at += (uint64_t)n;
		if (take(&f, buf, (size_t)n))
			f.failed = true;
	}
	if (leave_file(&f))
		f.failed = true;
	end_segment(&f);
	/* A file that failed before anything was counted has no totals. */
	if (!ret || f.counted)
		print_totals(&f, true);
	if (f.fd > STDIN_FILENO)
		close(f.fd);
	free(buf);
	free(f.line);
	gpuhist_token_sum_free(f.sum);
	gpuhist_chars_free(&f.chars);
	return f.failed || ret ? 1 : 0;
}
