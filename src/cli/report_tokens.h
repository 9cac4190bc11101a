/* report_tokens.h - printing the tokens view's blocks, in every format */
#ifndef GH_REPORT_TOKENS_H
#define GH_REPORT_TOKENS_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuhist.h"
#include "report.h"

/* The rows' columns after the input: "token" (or a key of several
 * fields' "field1", "field9"; the per view's "interval"), after
 * "interval" where --per groups another view, then "count", into cols
 * (GPUHIST_FIELDS_MAX + 2); how many. */
int gh_report_tokens_columns(struct gh_report *rep, const char **cols);

/* One block of an input (or the total) in rep's format; 0, or -1 when its
 * rows cannot be had (out of memory, a sort that spilled and failed:
 * said, naming it), or 1 when so but json's entry is printed, with its
 * "error".  with_header: the table names the input. */
int gh_report_tokens(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, const struct gpuhist_tokens *tk,
		     int with_header);

/* The total's json entry, name and bytes_read given, from the one
 * input's rows kept as they were printed (rep->replay, closed here); 0,
 * or -1 when they cannot be read back (said). */
int gh_report_tokens_replay(struct gh_report *rep, const char *name,
			    uint64_t bytes_read);

/* Keeps an input's tokens for the total; 0, or -1 when they cannot be
 * (out of memory, a spill failed, a count past 2^64-1: said, and kept in
 * rep->total_error). */
int gh_report_tokens_keep(struct gh_report *rep,
			  const struct gpuhist_tokens *tk);

/* Merges what was kept into the total, unless print_it is false: its
 * tokens, or NULL when they cannot be had (rep->total_error says why,
 * said once).  Before anything of the total is printed, so that a total
 * that fails is an entry with its error, not half a block. */
const struct gpuhist_tokens *gh_report_tokens_total(struct gh_report *rep,
						     bool print_it);

/* Lets the total's tokens go. */
void gh_report_tokens_total_free(struct gh_report *rep);

#endif
