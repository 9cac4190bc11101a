/* progress.h - the progress meter on stderr and the run's clock */
#ifndef GH_PROGRESS_H
#define GH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"

struct gh_progress {
	bool on;                /* meter wanted at all */
	bool tty;               /* redrawn in place on a terminal; else lines */
	bool several;           /* several inputs: a total beside the input */
	bool shown;             /* a terminal line is up and must be cleared */
	double start, last;     /* seconds, monotonic */
	double delay;           /* seconds before the first line */
	double interval;        /* seconds between lines at least */
	const char *in_name;    /* the input being read, and since when */
	double in_start;
};

/* Where the run is, as the meter shows it. */
struct gh_progress_at {
	const char *name;       /* the input being read */
	uint64_t counted;       /* its bytes counted so far (decoded) */
	uint64_t read, size;    /* how far it is read, of its size (0: unknown;
				 * for gzip both are compressed bytes) */
	uint64_t all_counted;   /* every input's bytes counted so far */
	bool ended;             /* the input is finished: show it whatever
				 * the rate, so each input's figure is seen */
};

double gh_now(void);

void gh_progress_init(struct gh_progress *p, const struct gh_options *opts);
/* Draws the meter, at most once an interval; called by one thread. */
void gh_progress_update(struct gh_progress *p, const struct gh_progress_at *at);
/* Clears the meter's line, before other messages or at the end. */
void gh_progress_clear(struct gh_progress *p);

#endif
