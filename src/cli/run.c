/* run.c - the one run layer: operands counted by libgpuhist and reported
 *
 * gh_run() is the whole of an ordinary run: open a counter, start its
 * backend, count the operands (several at once, results in operand
 * order), report each, then the total.  The MPI mode (mpi_run.c) plans
 * and reduces around the same pieces: gh_run_open(), gh_run_start(),
 * gh_run_count() on its share, gh_run_close().
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "merge.h"
#include "msg.h"
#include "run.h"

int gh_run_open(struct gh_run *run, struct gh_options *opts)
{
	char why[256];

	run->opts = opts;
	gh_progress_init(&run->progress, opts);
	gh_view_init(&run->view, opts);
	opts->lib.progress = gh_progress_update;
	opts->lib.progress_ctx = &run->progress;
	if (gpuhist_open(&run->counter, &opts->lib, why, sizeof(why))) {
		gh_msg("%s", why);
		return -1;
	}
	return 0;
}

int gh_run_start(struct gh_run *run, const struct gpuhist_input *list, int n)
{
	if (gpuhist_start(run->counter, list, n)) {
		gh_msg("%s", gpuhist_message(run->counter));
		return -1;
	}
	return 0;
}

/* What one gh_run_count() hands on. */
struct count {
	struct gh_run *run;
	gh_sink_fn sink;
	void *ctx;
	int failed;
};

static void said_and_sunk(void *ctx, const struct gpuhist_result *r)
{
	struct count *cn = ctx;

	gh_msg_lines(r->messages);
	if (r->totals)
		gh_progress_clear(&cn->run->progress);
	else
		cn->failed++;
	cn->sink(cn->ctx, r);
}

int gh_run_count(struct gh_run *run, const struct gpuhist_input *list, int n,
		 gh_sink_fn sink, void *ctx)
{
	struct count cn = { run, sink, ctx, 0 };
	int status = gpuhist_count(run->counter, list, n, said_and_sunk, &cn);

	if (status != GPUHIST_OK && status != GPUHIST_ERR_INPUT) {
		gh_msg("%s", gpuhist_message(run->counter));
		return n;
	}
	return cn.failed;
}

int gh_run_merge(struct gh_run *run)
{
	int failed = 0;

	for (int i = 0; i < run->opts->n_operands; i++) {
		const char *name = run->opts->operands[i];
		uint64_t totals[256];
		char messages[1024];

		/* Kept, as a counted input's are, for json's "error". */
		gh_msg_capture(messages, sizeof(messages));
		int ret = gh_merge_read(name, run->report.total, totals);

		gh_msg_capture(NULL, 0);
		gh_msg_print(messages);
		if (ret) {
			failed++;
			gh_report_failed(&run->report, name, messages);
		} else {
			gh_report_input(&run->report, name, totals);
		}
	}
	return failed;
}

int gh_run_close(struct gh_run *run, const char *who, bool wait)
{
	struct gpuhist_summary s;

	gh_progress_clear(&run->progress);
	if (!run->counter)
		return 0;
	gpuhist_summarize(run->counter, &s);
	if (run->opts->verbose && s.backend[0]) {    /* it counted */
		double after = s.seconds - s.startup;

		/* The start-up is the backend's as a whole, so it goes with
		 * the figures, not after a detail that may end in "no GPU was
		 * started". */
		gh_msg("%s%s", who, s.backend);
		if (s.gzip)
			gh_msg("%sgzip decoded with %s", who, s.gzip);
		gh_msg("%s%llu bytes in %.3f s, %.2f GB/s; backend start-up %.3f s; after start-up %.3f s, %.2f GB/s",
		       who, (unsigned long long)s.bytes, s.seconds,
		       s.seconds > 0 ? (double)s.bytes / s.seconds / 1e9 : 0.0,
		       s.startup, after,
		       after > 0 ? (double)s.bytes / after / 1e9 : 0.0);
	}
	if (wait)
		gpuhist_wait(run->counter);
	int left_running = gpuhist_free(run->counter);

	run->counter = NULL;
	return left_running;
}

/* Reports a counted input, or one that failed. */
static void report_result(void *ctx, const struct gpuhist_result *r)
{
	struct gh_report *report = ctx;

	if (r->totals)
		gh_report_input(report, r->name, r->totals);
	else                        /* a failed input adds nothing */
		gh_report_failed(report, r->name, r->messages);
}

int gh_run(struct gh_options *opts)
{
	struct gh_run run = { 0 };
	struct gpuhist_input *list = NULL;
	int failed, status = EXIT_SUCCESS;

	if (gh_run_open(&run, opts))
		return EXIT_FAILURE;
	if (!opts->merge) {
		list = calloc((size_t)opts->n_operands, sizeof(*list));
		if (!list) {
			gh_msg("out of memory");
			gh_run_close(&run, "", false);
			return EXIT_FAILURE;
		}
		for (int i = 0; i < opts->n_operands; i++) {
			list[i].type = GPUHIST_INPUT_PATH;
			list[i].name = opts->operands[i];
		}
		if (gh_run_start(&run, list, opts->n_operands)) {
			free(list);
			gh_run_close(&run, "", false);
			return EXIT_FAILURE;
		}
	}
	gh_report_begin(&run.report, stdout, opts, &run.view);
	failed = opts->merge ? gh_run_merge(&run)
			     : gh_run_count(&run, list, opts->n_operands,
					    report_result, &run.report);
	if (failed)
		status = EXIT_FAILURE;
	gh_progress_clear(&run.progress);
	gh_report_end(&run.report);

	int leave_now = gh_run_close(&run, "", false);

	free(list);
	if (gh_close_stdout())
		status = EXIT_FAILURE;
	if (leave_now)          /* a GPU still starting, not needed after all */
		_exit(status);
	return status;
}
