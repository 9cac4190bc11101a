/* main.c - gpuhist: character frequencies of text and gzip streams
 *
 * Design.  Data flows one way:
 *
 *	input source -> chunks -> backend (GPU or CPU) -> 256 totals
 *		-> view -> report
 *
 * Input sources (source.c) read files or stdin in order, decoding gzip
 * (gunzip.c) when the first two bytes say so.  They write straight into
 * chunks that the backend owns: pinned host memory for the GPU backend,
 * plain memory for the CPU one.  A chunk is handed back with submit() and
 * counted asynchronously while the reader fills the next one; the backend
 * keeps a ring of them (two per CPU thread; two per CUDA stream), so memory
 * is that ring and a decoder's buffers, never the input's size.
 *
 * Counters.  Every input is counted into 256 unsigned 64-bit totals (on
 * the device, for the GPU backend), fetched once when the input ends.
 * Kernels and CPU loops count into 32-bit private tables over pieces small
 * enough never to wrap (--chunk-size is at most 2 GiB for that reason), and
 * add them into the 64-bit totals.  Views (view.c) fold the 256 totals into
 * printed bins; --merge reads 256 totals back from earlier json results.
 *
 * Failure.  An input that fails (open, read, decode, or the backend) is
 * named on stderr, its partial totals are dropped, and the run goes on; the
 * exit status is then 1.  --backend=auto falls back to the CPU when no GPU
 * is usable; an explicit --backend=gpu does not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend.h"
#include "merge.h"
#include "msg.h"
#include "options.h"
#include "progress.h"
#include "report.h"
#include "source.h"
#include "view.h"

/* Inputs at least this large (or of unknown size) repay starting a GPU. */
#define GH_AUTO_GPU_MIN_BYTES ((uint64_t)64 << 20)

/* The state of one run, in one place. */
struct gh_run {
	const struct gh_options *opts;
	struct gh_backend *backend;
	struct gh_progress progress;
	uint64_t bytes_done;        /* all inputs so far, for -v and the meter */
};

/* Counts one input into totals; -1 (message printed) when it failed. */
static int count_input(struct gh_run *run, const char *name,
		       uint64_t totals[256])
{
	struct gh_backend *b = run->backend;
	struct gh_source *src;
	int ret = 0;

	src = gh_source_open(name, run->opts->raw);
	if (!src)
		return -1;
	for (;;) {
		unsigned char *chunk = b->acquire(b);
		int64_t got;

		if (!chunk) {
			gh_msg("%s: %s", name, b->error);
			ret = -1;
			break;
		}
		got = gh_source_fill(src, chunk, b->chunk_bytes);
		if (b->submit(b, got > 0 ? (uint64_t)got : 0)) {
			gh_msg("%s: %s", name, b->error);
			ret = -1;
			break;
		}
		if (got <= 0) {
			ret = (int)(got < 0 ? -1 : 0);
			break;
		}
		run->bytes_done += (uint64_t)got;
		gh_progress_update(&run->progress, name, run->bytes_done,
				   gh_source_consumed(src),
				   gh_source_size(src));
	}
	if (b->finish(b, totals)) {
		gh_msg("%s: %s", name, b->error);
		ret = -1;
	}
	if (gh_source_close(src))
		ret = -1;
	return ret;
}

/* Whether the operands are worth a GPU: unknown sizes count as large. */
static int large_input(const struct gh_options *opts)
{
	uint64_t bytes = 0;
	struct stat st;

	for (int i = 0; i < opts->n_operands; i++) {
		const char *name = opts->operands[i];

		if (!strcmp(name, "-"))
			return 1;
		if (stat(name, &st) == 0 && S_ISREG(st.st_mode))
			bytes += (uint64_t)st.st_size;
		else if (stat(name, &st) == 0 && !S_ISDIR(st.st_mode))
			return 1;           /* a FIFO or a device */
	}
	return bytes >= GH_AUTO_GPU_MIN_BYTES;
}

/* Flushes and closes stdout; a closed pipe ends quietly, other errors not. */
static int close_stdout(void)
{
	int failed = fflush(stdout) != 0 || ferror(stdout);
	int saved_errno = errno;

	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved_errno = errno;
	}
	if (!failed)
		return 0;
	if (saved_errno != EPIPE) {
		errno = saved_errno;
		gh_msg_errno("write error");
	}
	return -1;
}

static void print_verbose_summary(const struct gh_run *run)
{
	double secs = gh_now() - run->progress.start;

	if (run->backend)
		gh_msg("%s", run->backend->detail);
	gh_msg("%llu bytes in %.3f s, %.2f GB/s",
	       (unsigned long long)run->bytes_done, secs,
	       secs > 0 ? (double)run->bytes_done / secs / 1e9 : 0.0);
}

int main(int argc, char **argv)
{
	struct gh_options opts;
	struct gh_run run = { 0 };
	struct gh_report report;
	struct gh_view view;
	int status = EXIT_SUCCESS;

	switch (gh_options_parse(argc, argv, &opts)) {
	case GH_PARSE_EXIT_OK:
		return close_stdout() ? EXIT_FAILURE : EXIT_SUCCESS;
	case GH_PARSE_USAGE:
		return 2;
	case GH_PARSE_RUN:
		break;
	}
	run.opts = &opts;
	gh_progress_init(&run.progress, &opts);
	gh_view_init(&view, &opts);

	if (!opts.merge) {
		run.backend = gh_backend_choose(&opts, large_input(&opts));
		if (!run.backend)
			return EXIT_FAILURE;
	}

	gh_report_begin(&report, stdout, &opts, &view);
	for (int i = 0; i < opts.n_operands; i++) {
		const char *name = opts.operands[i];
		uint64_t totals[256];
		int ret;

		if (opts.merge)
			ret = gh_merge_read(name, totals);
		else
			ret = count_input(&run, name, totals);
		if (ret) {
			status = EXIT_FAILURE;
			continue;
		}
		gh_progress_clear(&run.progress);
		gh_report_input(&report, name, totals);
	}
	gh_progress_clear(&run.progress);
	gh_report_end(&report);

	if (opts.verbose && !opts.merge)
		print_verbose_summary(&run);
	if (run.backend)
		run.backend->destroy(run.backend);
	if (close_stdout())
		status = EXIT_FAILURE;
	return status;
}
