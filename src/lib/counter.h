/* counter.h - what a gpuhist_counter holds, for api.c and push.c */
#ifndef GH_COUNTER_H
#define GH_COUNTER_H

#include "gpuhist.h"
#include "notes.h"
#include "pipeline.h"

struct gpuhist_counter {
	struct gpuhist_options opts;
	char *temporary_directory;  /* opts' own copy */
	char *key;                  /* ... and of its key's path */
	char *time_key, *time_format;   /* ... and of per's */
	struct gh_run run;
	double ready;               /* gh_now() when the backend had started */
	char message[GH_NOTE_LINE + 64];
};

/* Marks a count (or a push) as under way on c, so that gpuhist_cancel()
 * reaches it: true where this call began it (the cancel flag then
 * cleared), false where one was under way already (a push's count). */
bool gh_counter_begin(struct gpuhist_counter *c);

/* Marks c's count as over: a later cancel reaches nothing. */
void gh_counter_end(struct gpuhist_counter *c);

#endif
