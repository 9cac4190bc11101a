/* run.h - the one run layer: operands counted by libgpuhist and reported */
#ifndef GH_RUN_H
#define GH_RUN_H

#include <stdbool.h>

#include "gpuhist.h"
#include "options.h"
#include "progress.h"
#include "report.h"
#include "view.h"

/* One run of the command: its options, its counter, meter and report. */
struct gh_run {
	struct gh_options *opts;
	gpuhist_counter *counter;
	struct gh_progress progress;
	struct gh_view view;
	struct gh_report report;
};

/* Receives each input's result, in order, after its messages were said. */
typedef void (*gh_sink_fn)(void *ctx, const struct gpuhist_result *result);

/* Opens the counter and the meter; 0, or -1 after saying why. */
int gh_run_open(struct gh_run *run, struct gh_options *opts);

/* Starts the backend for list[0..n) before anything is reported; 0, or
 * -1 after saying why. */
int gh_run_start(struct gh_run *run, const struct gpuhist_input *list,
		 int n);

/* Counts list[0..n), saying each input's messages and handing its result
 * to sink; how many failed (n when none could be counted), or -1 after
 * saying why when the backend cannot count at all (nothing was handed on). */
int gh_run_count(struct gh_run *run, const struct gpuhist_input *list, int n,
		 gh_sink_fn sink, void *ctx);

/* --merge: adds up the operands' json results into run->report; how many
 * failed. */
int gh_run_merge(struct gh_run *run);

/* Clears the meter, says -v's summary (each line after `who`: "" or
 * "rank 1 of 3: "), waits for background work when asked, and frees the
 * counter.  1 when work was left running: end with _exit(). */
int gh_run_close(struct gh_run *run, const char *who, bool wait);

/* The whole run in one process: the operands counted (or merged) and
 * reported on stdout.  Returns the exit status. */
int gh_run(struct gh_options *opts);

#endif
