/* report_values.h - printing the values view's blocks, in every format */
#ifndef GH_REPORT_VALUES_H
#define GH_REPORT_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "gpuhist.h"
#include "report.h"

/* One block of an input (or the total) in rep's format; 0, or -1 when out
 * of memory.  with_header: the table names the input. */
int gh_report_values(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, gpuhist_values *v, int with_header);

/* An input's values, read from its field's tokens (none: empty), at the
 * command's precision; NULL when they cannot be had (said, naming it, and
 * the line said kept in why, when not NULL). */
gpuhist_values *gh_report_values_of(const struct gh_report *rep,
				    const char *name,
				    const struct gpuhist_tokens *tokens,
				    char *why, size_t why_len);

/* A quantile as the table shows it: no more digits than the precision
 * vouches for (3 at 1 percent), an integer's whole; "-" for NaN. */
void gh_values_figure_text(char *out, size_t len, double d,
			   const struct gpuhist_values_summary *s);

#endif
