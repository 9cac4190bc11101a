/* columns.c - --columns: what tsv and csv rows add after the count
 *
 * The tidy rows (input, bin, count) stay as they are; --columns appends,
 * in the order named, the bin's label as the table shows it, its share of
 * what the view counted (a fraction, six decimals), and the input's own
 * figures repeated on each of its rows as tidy data does (bytes read,
 * counted, entropy: json's fields of the same names), so that a
 * spreadsheet, pandas or R has them without a second file.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "block.h"
#include "columns.h"
#include "fields.h"

static const char *const names[GH_COLUMNS_MAX] = {
	[GH_COL_LABEL] = "label",
	[GH_COL_SHARE] = "share",
	[GH_COL_BYTES_READ] = "bytes_read",
	[GH_COL_COUNTED] = "counted",
	[GH_COL_ENTROPY] = "entropy",
};

int gh_columns_parse(const char *list, struct gh_columns *cols, char *bad,
		     size_t bad_len)
{
	const char *at = list;

	cols->n = 0;
	for (;;) {
		size_t len = strcspn(at, ",");
		int found = -1;

		for (int k = 0; k < GH_COLUMNS_MAX; k++)
			if (strlen(names[k]) == len && !strncmp(at, names[k], len))
				found = k;
		for (int i = 0; found >= 0 && i < cols->n; i++)
			if (cols->col[i] == (enum gh_column)found)
				found = -1;     /* named twice */
		if (found < 0) {
			snprintf(bad, bad_len, "%.*s", (int)len, at);
			return -1;
		}
		cols->col[cols->n++] = (enum gh_column)found;
		if (!at[len])
			return 0;
		at += len + 1;
	}
}

int gh_columns_names(const struct gh_columns *cols, const char **out)
{
	for (int i = 0; i < cols->n; i++)
		out[i] = names[cols->col[i]];
	return cols->n;
}

int gh_columns_cells(const struct gh_columns *cols,
		     const struct gh_row_facts *row, struct gh_cell *cells)
{
	for (int i = 0; i < cols->n; i++) {
		const char *key = names[cols->col[i]];

		switch (cols->col[i]) {
		case GH_COL_LABEL:
			cells[i] = gh_cell_str(key, row->label ? row->label
							       : "");
			break;
		case GH_COL_SHARE:
			cells[i] = gh_cell_fix(key, "%.6f", row->counted
				? (double)row->count / (double)row->counted
				: 0.0);
			break;
		case GH_COL_BYTES_READ:
			cells[i] = gh_cell_u64(key, row->bytes_read);
			break;
		case GH_COL_COUNTED:
			cells[i] = gh_cell_u64(key, row->counted);
			break;
		case GH_COL_ENTROPY:
			cells[i] = gh_cell_fix(key, "%.6f", row->entropy);
			break;
		}
	}
	return cols->n;
}
