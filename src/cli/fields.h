/* fields.h - the pieces of every format: bars, tsv, csv and json fields */
#ifndef GH_FIELDS_H
#define GH_FIELDS_H

#include <stdint.h>
#include <stdio.h>

/* The row that sums what --top leaves out: a name no bin of any view has
 * (the code-point categories have an "other"). */
#define GH_OTHER "(other)"

/* count's share of the bar's 40 columns, rounded; max draws them all, and
 * so does more (the remainder row, which bars do not scale to). */
int gh_bar_length(uint64_t count, uint64_t max);

/* A table block's head: a blank line after an earlier block (after), the
 * input's name (when not NULL), and the column titles, the label's
 * `title` ("bin", "token"). */
void gh_put_table_head_of(FILE *out, int after, const char *name,
			  const char *title, int label_width, int count_width);

/* Widens a table's columns to fit a row: its label, label_cols columns
 * wide, and its count. */
void gh_table_fit(int *label_width, int *count_width, int label_cols,
		  uint64_t count);

/* One row of a table: label, then pad spaces (the label's column is
 * padded by the columns it takes, not its bytes), its count in
 * count_width, its share of counted, and its bar (max: the largest row). */
void gh_put_table_row(FILE *out, const char *label, int pad, int count_width,
		      uint64_t count, uint64_t counted, uint64_t max);

/* A name inside a tsv field: tabs, newlines and backslashes escaped. */
void gh_put_tsv(FILE *out, const char *s);

/* A csv field, quoted as RFC 4180 says when it must be. */
void gh_put_csv(FILE *out, const char *s);

/* A JSON string; bytes that are not valid UTF-8 become U+FFFD. */
void gh_put_json_string(FILE *out, const char *s);

#endif
