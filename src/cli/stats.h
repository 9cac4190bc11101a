/* stats.h - ent's figures (gpuhist_ent_of) as ent prints them */
#ifndef GH_STATS_H
#define GH_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuhist.h"

/* ent's report, line for line, after a blank line. */
void gh_stats_put_table(FILE *out, const struct gpuhist_ent *st);
/* One tsv or csv row of ent -t's fields, name first: sep ',' or '\t'. */
void gh_stats_put_head(FILE *out, char sep);
void gh_stats_put_row(FILE *out, char sep, const char *name,
		      const struct gpuhist_ent *st);
/* ",\n   \"stats\": {...}" for a json entry: the figures, and the sums
 * they come from when known. */
void gh_stats_put_json(FILE *out, const struct gpuhist_ent *st);

#endif
