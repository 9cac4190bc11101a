/* main.c - gpuhist: character frequencies of text and gzip streams
 *
 * Design.  Data flows one way:
 *
 *	input source -> chunks -> backend (GPU or CPU) -> 256 totals
 *		-> view -> report
 *
 * Input sources (source.c) open files or stdin and recognise gzip (gunzip.c)
 * by its first two bytes.  The pipeline (pipeline.c) counts several operands
 * at once and reports them in operand order, moving each input into chunks
 * that the backend owns: pinned host memory for the GPU
 * backend, plain memory for the CPU one, so readers write straight into
 * them.  A plain regular file is read by --threads readers at once (pread
 * at chunk offsets; order does not matter to a histogram); pipes and gzip
 * are read in order by one.  A chunk handed back with submit() is counted
 * asynchronously while readers fill the next ones: on the GPU, copy and
 * kernel on one of several CUDA streams; on the CPU, by a worker pool or by
 * the readers themselves.  The ring of chunks is allocated once, so memory
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
#include "pipeline.h"
#include "progress.h"
#include "report.h"
#include "view.h"

/* Inputs at least this large (or of unknown size) repay starting a GPU. */
#define GH_AUTO_GPU_MIN_BYTES ((uint64_t)64 << 20)

static void report_input(void *report, const char *name,
			 const uint64_t totals[256])
{
	gh_report_input(report, name, totals);
}

/* --merge: reports the totals of earlier json results; how many failed. */
static int merge_results(struct gh_report *report,
			 const struct gh_options *opts)
{
	int failed = 0;

	for (int i = 0; i < opts->n_operands; i++) {
		uint64_t totals[256];

		if (gh_merge_read(opts->operands[i], totals))
			failed++;
		else
			gh_report_input(report, opts->operands[i], totals);
	}
	return failed;
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
		if (stat(name, &st) != 0 || S_ISDIR(st.st_mode))
			continue;           /* it will fail, and cost nothing */
		if (!S_ISREG(st.st_mode))
			return 1;           /* a FIFO or a device */
		bytes += (uint64_t)st.st_size;
	}
	return bytes >= GH_AUTO_GPU_MIN_BYTES;
}

/* Flushes and closes stdout; a closed pipe ends quietly, other errors not. */
static int close_stdout(void)
{
	/* errno still holds the failed write's reason when ferror() is set
	 * by a write that failed before this flush. */
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

/* What ran, and how fast: overall, and once the backend had started. */
static void print_verbose_summary(const struct gh_run *run)
{
	double now = gh_now();
	double secs = now - run->progress.start;
	double streaming = now - run->backend_ready;

	gh_msg("%s, started in %.3f s", run->backend->detail,
	       run->backend_ready - run->progress.start);
	const char *engine = atomic_load(&run->gzip_engine);

	if (engine)
		gh_msg("gzip decoded with %s", engine);
	uint64_t bytes = atomic_load(&run->bytes_done);

	gh_msg("%llu bytes in %.3f s, %.2f GB/s; after start-up %.3f s, %.2f GB/s",
	       (unsigned long long)bytes, secs,
	       secs > 0 ? (double)bytes / secs / 1e9 : 0.0, streaming,
	       streaming > 0 ? (double)bytes / streaming / 1e9 : 0.0);
}

int main(int argc, char **argv)
{
	struct gh_options opts;
	struct gh_run run = { .backend = NULL };
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
		run.backend_ready = gh_now();
	}

	gh_report_begin(&report, stdout, &opts, &view);
	if (opts.merge ? merge_results(&report, &opts)
		       : gh_count_inputs(&run, report_input, &report))
		status = EXIT_FAILURE;
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
