/* report_values_per.h - --values per interval (--per beside --values): a
 * row of each interval's numbers, summed up (report_values_per.c) */
#ifndef GH_REPORT_VALUES_PER_H
#define GH_REPORT_VALUES_PER_H

#include <stddef.h>

#include "block.h"
#include "gpuhist.h"
#include "options.h"

/* The cells after the interval: numbers, not_numbers, min, max, sum,
 * mean, then a quantile each. */
#define GH_VALUES_PER_CELLS (7 + GH_QUANTILES_MAX)

/* The texts a row's cells point to, until the next row. */
struct gh_values_per_text {
	char label[64 + 12 * GH_QUANTILES_MAX];
	char min[40], max[40], sum[48], mean[32];
	char q[GH_QUANTILES_MAX][32];
	struct gh_cell quantiles[GH_QUANTILES_MAX];
	/* json's buckets (what --merge adds up): one's cells at a time */
	gpuhist_values *v;
	struct gh_cell bucket[3];
};

/* tsv's and csv's columns after the input, into cols
 * (GH_VALUES_PER_CELLS); how many. */
int gh_values_per_columns(const struct gh_options *opts, const char **cols);

/* The table's title of the label column, "interval  min  p50 ... max". */
void gh_values_per_title(const struct gh_options *opts, char *out,
			 size_t len);

/* The row of the interval [interval, + len) whose numbers v holds (NULL:
 * an interval without lines), its texts in text. */
void gh_values_per_row(const struct gh_options *opts,
		       const unsigned char *interval, size_t len,
		       gpuhist_values *v, enum gh_rows_of which,
		       struct gh_values_per_text *text, struct gh_row *row);

#endif
