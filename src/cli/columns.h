/* columns.h - --columns: what tsv and csv rows add after the count */
#ifndef GH_COLUMNS_H
#define GH_COLUMNS_H

#include <stdint.h>
#include <stdio.h>

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

/* The header's names of the columns, each after sep. */
void gh_columns_head(FILE *out, char sep, const struct gh_columns *cols);

/* A row's columns, each after sep; csv quotes and tsv escapes the label
 * as they do names. */
void gh_columns_put(FILE *out, char sep, const struct gh_columns *cols,
		    const struct gh_row_facts *row);

#endif
