/* pipeline.h - inputs through the chunks into the backend, several at once */
#ifndef GH_PIPELINE_H
#define GH_PIPELINE_H

#include <stdatomic.h>
#include <stdint.h>

#include "backend.h"
#include "options.h"
#include "progress.h"

/* The state of one run, in one place. */
struct gh_run {
	const struct gh_options *opts;
	struct gh_backend *backend;
	struct gh_progress progress;
	atomic_uint_least64_t bytes_done;   /* all inputs so far */
	double backend_ready;               /* when the backend had started */
	_Atomic(const char *) gzip_engine;  /* inflater of a gzip input, if any */
};

/* Receives one input's 256 totals, in operand order. */
typedef void (*gh_report_fn)(void *ctx, const char *name,
			     const uint64_t totals[256]);

/* Counts every operand, reporting each one counted; returns how many
 * failed (each with its message printed). */
int gh_count_inputs(struct gh_run *run, gh_report_fn report, void *ctx);

#endif
