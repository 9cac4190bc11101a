/* pipeline.h - inputs through the chunks into the backend, several at once */
#ifndef GH_PIPELINE_H
#define GH_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>
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

/* One thing to count: an operand, whole or one byte range of it. */
struct gh_input {
	const char *name;
	bool ranged;                /* only bytes [start, start + len) of a
				     * plain regular file */
	uint64_t start, len;
};

/* Receives input number `index`'s 256 totals, in order; NULL totals: it
 * failed, and messages holds the lines printed for it (already). */
typedef void (*gh_report_fn)(void *ctx, int index, const char *name,
			     const uint64_t *totals, const char *messages);

/* Counts the n inputs of list, reporting each; returns how many failed
 * (each with its message printed). */
int gh_count_inputs(struct gh_run *run, const struct gh_input *list, int n,
		    gh_report_fn report, void *ctx);

/* The bytes of the regular files among the inputs (a gzip file's on disk,
 * a range's length), and in *streams whether any is of unknown size
 * (standard input, a FIFO, a device): what --backend=auto goes by. */
uint64_t gh_inputs_bytes(const struct gh_input *list, int n, bool *streams);

/* -v's closing lines: what ran, and how fast, overall and after start-up;
 * each line begins with `who` ("" or "rank 1 of 3: "). */
void gh_run_summary(const struct gh_run *run, const char *who);

#endif
