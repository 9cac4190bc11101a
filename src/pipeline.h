/* pipeline.h - one input through the chunks into the backend */
#ifndef GH_PIPELINE_H
#define GH_PIPELINE_H

#include <stdint.h>

#include "backend.h"
#include "options.h"
#include "progress.h"

/* The state of one run, in one place. */
struct gh_run {
	const struct gh_options *opts;
	struct gh_backend *backend;
	struct gh_progress progress;
	uint64_t bytes_done;        /* all inputs so far, for -v and the meter */
	double backend_ready;       /* when the backend had started (gh_now) */
	const char *gzip_engine;    /* the inflater of the last gzip input */
};

/* Counts input NAME into totals; -1 (message printed, totals meaningless)
 * when it failed. */
int gh_count_input(struct gh_run *run, const char *name, uint64_t totals[256]);

#endif
