/* stats.h - ent's figures (gpuhist_ent_of) as ent prints them */
#ifndef GH_STATS_H
#define GH_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuhist.h"

#include "block.h"

/* ent -t's columns after the input's name. */
#define GH_STATS_COLUMNS 6
extern const char *const gh_stats_columns[GH_STATS_COLUMNS];

/* --stats in a view's block (block.h), held while the block is written:
 * ent's figures of the input's totals and stream sums. */
struct gh_stats_figures {
	struct gpuhist_ent st;
	struct gh_cell cells[10];       /* json's "stats" */
	char *report;                   /* ent's report, for the table */
};

/* 0, or -1 when out of memory; gh_stats_figures_free() after the block
 * is written, either way. */
int gh_stats_figures_of(struct gh_stats_figures *s, const uint64_t totals[256],
			const struct gpuhist_stream *stream);
void gh_stats_figures_free(struct gh_stats_figures *s);
/* The table's figure: ent's report, line for line, after a blank line. */
void gh_stats_report_figure(struct gh_stats_figures *s, struct gh_block *b);
/* json's "stats", after the rows: the figures, and the sums they come
 * from when known. */
void gh_stats_json_figure(struct gh_stats_figures *s, struct gh_block *b);
/* tsv and csv: the block's one row, ent -t's (after the input's name,
 * gh_stats_columns); returns 1. */
int gh_stats_row(const struct gh_stats_figures *s, struct gh_row *row);

#endif
