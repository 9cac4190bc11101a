/* columns.h - --columns: what tsv and csv rows add after the count */
#ifndef GH_COLUMNS_H
#define GH_COLUMNS_H

#include <stdint.h>
#include <stdio.h>

struct gh_cell;          /* block.h */

enum gh_column {
	GH_COL_LABEL,           /* the bin as the table shows it ("a", "' '") */
	GH_COL_SHARE,           /* count / counted, a fraction */
	GH_COL_BYTES_READ,      /* the input's bytes (decoded) */
	GH_COL_COUNTED,         /* what the view counted of them */
	GH_COL_ENTROPY,         /* the input's entropy, as the table's */
};
#define GH_COLUMNS_MAX 5

struct gh_columns {
	int n;
	enum gh_column col[GH_COLUMNS_MAX];
};

/* One row's facts: its bin's count and label, and its input's figures. */
struct gh_row_facts {
	const char *label;
	uint64_t count, bytes_read, counted;
	double entropy;
};

/* Parses "label,share,...": 0, or -1 with the offending name in
 * bad[bad_len] (unknown, or named twice). */
int gh_columns_parse(const char *list, struct gh_columns *cols, char *bad,
		     size_t bad_len);

/* The columns' names, for tsv's and csv's head: how many, in names. */
int gh_columns_names(const struct gh_columns *cols, const char **names);

/* A row's columns as cells (block.h), in cells: how many.  The label is
 * text (tsv escapes and csv quotes it as they do names). */
int gh_columns_cells(const struct gh_columns *cols,
		     const struct gh_row_facts *row, struct gh_cell *cells);

#endif
