/* report_chars.h - printing the -m view's blocks, in every format */
#ifndef GH_REPORT_CHARS_H
#define GH_REPORT_CHARS_H

#include <stdint.h>

#include "charview.h"
#include "gpuhist.h"
#include "report.h"

/* Keeps the --top commonest of rows[0..*n) (ties in code-point order),
 * shown in the order --sort asks; other gets what --top left out,
 * *has_other whether there is such a row. */
void gh_chars_arrange(const struct gh_report *rep, struct gh_char_row *rows,
		      size_t *n, uint64_t *other, int *has_other);

/* One block of an input (or the total) in rep's format; 0, or -1 when out
 * of memory (nothing printed).  with_header: the table names the input. */
int gh_report_chars(struct gh_report *rep, const char *name,
		    const struct gpuhist_stream *stream,
		    const uint64_t totals[256],
		    const struct gpuhist_chars *chars, int with_header);

#endif
