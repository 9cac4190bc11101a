/* progress.h - the progress meter on stderr and the run's clock */
#ifndef GH_PROGRESS_H
#define GH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"

struct gh_progress {
	bool on;                /* meter wanted at all */
	bool shown;             /* a line is on screen and must be cleared */
	double start, last;     /* seconds, monotonic */
	double delay;           /* seconds before the first line */
	const char *in_name;    /* the input being read, and since when */
	double in_start;
};

double gh_now(void);

void gh_progress_init(struct gh_progress *p, const struct gh_options *opts);
/* done: bytes counted so far in the run; in_done/in_size: how far the
 * current input is read (in_size 0 when unknown). */
void gh_progress_update(struct gh_progress *p, const char *name,
			uint64_t done, uint64_t in_done, uint64_t in_size);
/* Clears the meter's line, before other messages or at the end. */
void gh_progress_clear(struct gh_progress *p);

#endif
