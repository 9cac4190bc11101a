/* token_runs.h - tokens too many to sort in memory: each part sorted
 * into a run of one temporary file, then the runs merged in order */
#ifndef GH_TOKEN_RUNS_H
#define GH_TOKEN_RUNS_H

#include <stddef.h>

#include "gpuhist.h"

struct gh_token_runs;

typedef int (*gh_token_order)(const struct gpuhist_token *a,
			      const struct gpuhist_token *b);

/* Runs in dir (NULL: $TMPDIR, else /tmp), merged in `order`; NULL when
 * out of memory. */
struct gh_token_runs *gh_token_runs_new(const char *dir, gh_token_order order);

/* An unlinked file "STEM.XXXXXX" in dir (NULL or "": $TMPDIR, else
 * /tmp): its descriptor, or -1 with errno set. */
int gh_unlinked_file(const char *dir, const char *stem);
void gh_token_runs_free(struct gh_token_runs *r);

/* The merge's read buffers, all runs' together, at most bytes (but 4 KiB
 * a run, and a token's length where one is longer); 0 (the default): 64
 * KiB a run. */
void gh_token_runs_budget(struct gh_token_runs *r, size_t bytes);

/* Writes n tokens, sorted in the order, as a run; 0, or -1
 * (gh_token_runs_error). */
int gh_token_runs_add(struct gh_token_runs *r,
		      const struct gpuhist_token *sorted, size_t n);

/* (Re)starts the merge; 0 or -1. */
int gh_token_runs_start(struct gh_token_runs *r);

/* The next token in order, its bytes living until the next call: 1, 0
 * after the last, or -1. */
int gh_token_runs_next(struct gh_token_runs *r, struct gpuhist_token *t);

/* Why the last -1, naming the directory. */
const char *gh_token_runs_error(const struct gh_token_runs *r);

#endif
