/* progress.h - the progress meter on stderr */
#ifndef GH_PROGRESS_H
#define GH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"
#include "options.h"

struct gh_progress {
	bool on;                /* meter wanted at all */
	bool tty;               /* redrawn in place on a terminal; else lines */
	bool several;           /* several inputs: a total beside the input */
	bool shown;             /* a terminal line is up and must be cleared */
	double start, last;     /* seconds, the library's (since the counter
				 * was opened) */
	double delay;           /* seconds before the first line */
	double interval;        /* seconds between lines at least */
	const char *in_name;    /* the input being read, when the meter */
	double in_start;        /* first heard of it, and how much of it */
	uint64_t in_read;       /* had been read then: its pace is measured
				 * from there, not from before */
};

void gh_progress_init(struct gh_progress *p, const struct gh_options *opts);
/* Draws the meter, at most once an interval; called by one thread, as
 * the library's progress callback (p is its ctx). */
void gh_progress_update(void *p, const struct gpuhist_progress *at);
/* Clears the meter's line, before other messages or at the end. */
void gh_progress_clear(struct gh_progress *p);

#endif
