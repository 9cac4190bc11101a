/* block.h - a view's block (one input's, or the total's) as rows and
 * figures, and the one writer per format that prints any view's block
 *
 * A view says what it shows: rows (a label and a count for the table,
 * cells for tsv, csv and json, which may be other rows: the values view's
 * table merges its buckets) and figures (a title for the table, a key for
 * json, or both); it never writes a format.  block.c writes the table,
 * tsv, csv and json (ndjson is json's entry on one line: report.c), so a
 * new view is its rows and figures, and a new format is one writer.
 */
#ifndef GH_BLOCK_H
#define GH_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/* How a value is written in each format. */
enum gh_cell_kind {
	GH_CELL_NONE,   /* not known: an empty field; json's null */
	GH_CELL_U64,
	GH_CELL_LIT,    /* text written as it is in every format (a number
			 * formatted by the view) */
	GH_CELL_NAME,   /* a bin's name: as it is, but a json string */
	GH_CELL_STR,    /* text: tsv escaped, csv quoted, a json string */
	GH_CELL_BYTES,  /* a token's bytes: escaped for a terminal in the
			 * table, tsv and csv, exactly in json
			 * (report_tokens.c's top says how) */
	GH_CELL_NUM,    /* a double written exactly (values' numbers), or
			 * null */
	GH_CELL_FIX,    /* a double in a printf format; json's null where
			 * not finite */
	GH_CELL_ARRAY,  /* json only: [u64s] */
	GH_CELL_OBJECT, /* json only: {key: cell, ...} */
	GH_CELL_LIST,   /* json only: [cell, ...], each from member (its
			 * key unused) */
};

struct gh_cell {
	enum gh_cell_kind kind;
	const char *key;            /* json's member, a tsv column's name */
	uint64_t u;
	double d;
	const char *s;              /* LIT, NAME, STR; FIX's format */
	const unsigned char *bytes; /* BYTES */
	size_t len;                 /* BYTES' length; ARRAY's and OBJECT's
				     * items */
	int cols;                   /* the table's columns for s (0: its
				     * length) */
	const uint64_t *array;      /* ARRAY */
	const struct gh_cell *cells;    /* OBJECT's len members, or NULL for
					 * (and LIST's items from): */
	int (*member)(const void *ctx, size_t *i, struct gh_cell *out);
	const void *ctx;            /* ... the first member at *i or after
				     * (1, *i moved to it), or none (0) */
};

/* Which rows a writer asks a view for. */
enum gh_rows_of { GH_ROWS_TABLE, GH_ROWS_MACHINE, GH_ROWS_JSON };

/* A key's fields, an interval and a count; or --values per interval's
 * (report_values_per.h) */
#define GH_ROW_CELLS 48

struct gh_row {
	/* The table's */
	struct gh_cell label;       /* STR (cols: its width), or BYTES */
	uint64_t count;
	bool hidden;                /* fits the columns but is not shown
				     * (the bytes view's empty bins) */
	bool unscaled;              /* no bar's scale (the other row) */
	/* tsv and csv after the input's name; json's members */
	int n_cells;
	struct gh_cell cell[GH_ROW_CELLS];
};

/* A view's rows: from the first again (0, or -1), and the next (1; 0 at
 * the end; -1 when it cannot be had). */
struct gh_rows_ops {
	int (*start)(void *ctx, enum gh_rows_of which);
	int (*next)(void *ctx, enum gh_rows_of which, struct gh_row *row);
};

struct gh_figure {
	const char *title;          /* the table's, or NULL: json only */
	struct gh_cell v;           /* key NULL: the table only; title NULL
				     * and key NULL: text (v.s) the table
				     * prints as it is */
	bool json_break;            /* json: on a line of its own */
	bool after_rows;            /* json: after the rows */
};

/* The values view has the most: 8 and 32 quantiles in the table, 13 in
 * json. */
#define GH_BLOCK_FIGURES 64

struct gh_block {
	const char *name;           /* the input's, or "total" */
	bool named;                 /* the table names it */
	/* the table */
	const char *title;          /* the label column's: "bin", "token" */
	int label_max;              /* a wider label on a line of its own
				     * (0: none) */
	uint64_t share_of;
	int figure_width;           /* the figures' titles padded to it (a
				     * space after a longer one) */
	/* json */
	const char *rows_key;       /* the rows' member ("bins") */
	bool rows_break;            /* ... on a line of its own */
	FILE *rows_copy;            /* the rows also written there as json
				     * writes them (NULL: not) */
	FILE *rows_from;            /* json's rows are these bytes, not
				     * the view's (rewound, read to the end) */
	bool rows_started;          /* json: the view started its rows (to
				     * know they can be had before the copy
				     * is made); else the writer starts them
				     * before it writes anything */
	const struct gh_rows_ops *ops;
	void *ctx;
	int n_figures;
	struct gh_figure figure[GH_BLOCK_FIGURES];
};

/* Adds a figure to b; the figure, to set more of. */
struct gh_figure *gh_block_figure(struct gh_block *b, const char *title,
				  const char *key, struct gh_cell v);

/* Cells */
struct gh_cell gh_cell_u64(const char *key, uint64_t u);
struct gh_cell gh_cell_lit(const char *key, const char *s);
struct gh_cell gh_cell_name(const char *key, const char *s);
struct gh_cell gh_cell_str(const char *key, const char *s);
struct gh_cell gh_cell_fix(const char *key, const char *format, double d);
struct gh_cell gh_cell_num(const char *key, double d);
struct gh_cell gh_cell_none(const char *key);

/* tsv's and csv's first line: input, then the columns. */
void gh_block_head(FILE *out, enum gh_format format, const char *const *cols,
		   int n);

/* b in the format: the table (after: a blank line first), tsv, csv or
 * json's entry; 0, or -1 when a row cannot be had or a token's label is
 * out of memory (what was written stays). */
int gh_block_write(FILE *out, enum gh_format format, bool after,
		   const struct gh_block *b);

#endif
