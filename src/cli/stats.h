/* stats.h - ent's figures (gpuhist_ent_of) as ent prints them */
#ifndef GH_STATS_H
#define GH_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuhist.h"

struct gh_cell;          /* block.h */

/* ent -t's columns after the input's name. */
#define GH_STATS_COLUMNS 6
extern const char *const gh_stats_columns[GH_STATS_COLUMNS];

/* ent's report, line for line, after a blank line: text the caller
 * frees, or NULL when out of memory. */
char *gh_stats_report(const struct gpuhist_ent *st);
/* ent -t's row as cells (block.h), in cells[GH_STATS_COLUMNS]. */
void gh_stats_cells(const struct gpuhist_ent *st, struct gh_cell *cells);
/* json's "stats": the figures, and the sums they come from when known;
 * its members in cells[10]. */
struct gh_cell gh_stats_object(const struct gpuhist_ent *st,
			       struct gh_cell *cells);

#endif
