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
 * exit status is then 1.  --backend=gpu fails when no GPU is usable.
 *
 * Choosing.  --backend=auto (backend_auto.c) counts on the CPU and starts
 * a GPU beside it, in a thread of its own, only where that pays: at once
 * for regular files of 512 MiB a thread, and for streams once the CPU falls
 * behind.  Chunks go to the GPU once it is ready, and an input's totals
 * are the sum of both parts.  No GPU, or one that fails, leaves the CPU
 * counting.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend.h"
#include "merge.h"
#include "mpi_run.h"
#include "msg.h"
#include "options.h"
#include "pipeline.h"
#include "progress.h"
#include "report.h"
#include "view.h"

/*
 * Descriptors 0, 1 and 2 that were closed when the program started get
 * /dev/null, opened the wrong way round (as gnulib's stdopen does), so that
 * no file opened later takes their place: reading a closed stdin (operand
 * "-") still fails with EBADF, and so does writing a closed stdout.  -1 if
 * one could not be filled.
 */
static int fill_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		/* The lowest free descriptor: fd itself. */
		if (open("/dev/null", fd == STDIN_FILENO ? O_WRONLY
							 : O_RDONLY) != fd)
			return -1;
	}
	return 0;
}

static void report_input(void *report, int index, const char *name,
			 const uint64_t *totals, const char *messages)
{
	(void)index;
	if (totals)
		gh_report_input(report, name, totals);
	else                        /* a failed input adds nothing */
		gh_report_failed(report, name, messages);
}

/* --merge: reports the totals of earlier json results; how many failed. */
static int merge_results(struct gh_report *report,
			 const struct gh_options *opts)
{
	int failed = 0;

	for (int i = 0; i < opts->n_operands; i++) {
		const char *name = opts->operands[i];
		uint64_t totals[256];
		char messages[1024];

		/* Kept, as the pipeline keeps an input's, for json's "error". */
		gh_msg_capture(messages, sizeof(messages));
		int ret = gh_merge_read(name, report->total, totals);

		gh_msg_capture(NULL, 0);
		gh_msg_print(messages);
		if (ret) {
			failed++;
			gh_report_failed(report, name, messages);
		} else {
			gh_report_input(report, name, totals);
		}
	}
	return failed;
}

/* The operands, each to be counted whole; NULL (message printed) when
 * out of memory. */
static struct gh_input *whole_operands(const struct gh_options *opts)
{
	struct gh_input *list = calloc((size_t)opts->n_operands, sizeof(*list));

	if (!list)
		gh_msg("out of memory");
	for (int i = 0; list && i < opts->n_operands; i++)
		list[i].name = opts->operands[i];
	return list;
}

int main(int argc, char **argv)
{
	struct gh_options opts;
	struct gh_run run = { .backend = NULL };
	struct gh_input *list = NULL;
	struct gh_report report;
	struct gh_view view;
	int status = EXIT_SUCCESS;

	if (fill_std_fds()) {
		gh_msg_errno("/dev/null");
		return EXIT_FAILURE;
	}
	switch (gh_mpi_parse_options(argc, argv, &opts)) {
	case GH_PARSE_EXIT_OK:
		return gh_close_stdout() ? EXIT_FAILURE : EXIT_SUCCESS;
	case GH_PARSE_USAGE:
		return 2;
	case GH_PARSE_RUN:
		break;
	}
	if (gh_mpi_launched())
		return gh_mpi_main(&opts);
	run.opts = &opts;
	gh_progress_init(&run.progress, &opts);
	gh_view_init(&view, &opts);

	if (!opts.merge) {
		list = whole_operands(&opts);
		if (!list)
			return EXIT_FAILURE;
		bool streams;
		uint64_t bytes = gh_inputs_bytes(list, opts.n_operands,
						 &streams);

		run.backend = gh_backend_choose(&opts, bytes, streams);
		if (!run.backend)
			return EXIT_FAILURE;
		run.backend_ready = gh_now();
	}

	gh_report_begin(&report, stdout, &opts, &view);
	if (opts.merge ? merge_results(&report, &opts)
		       : gh_count_inputs(&run, list, opts.n_operands,
					 report_input, &report))
		status = EXIT_FAILURE;
	gh_progress_clear(&run.progress);
	gh_report_end(&report);

	if (opts.verbose && !opts.merge)
		gh_run_summary(&run, "");
	int leave_now = run.backend && run.backend->destroy(run.backend);

	free(list);
	if (gh_close_stdout())
		status = EXIT_FAILURE;
	if (leave_now)          /* a GPU still starting, not needed after all */
		_exit(status);
	return status;
}
