/* report_values_per.c - --values per interval (--per beside --values):
 * each interval's row is its numbers' count, extremes, sum, mean and
 * quantiles, as the values view's figures give them for a whole input.
 * report_tokens.c reads the interval's numbers (the grouped field tokens,
 * interval by interval) into one gpuhist_values at a time, so that the
 * memory is one interval's buckets however many intervals there are.
 *
 * The table's label holds the figures in columns of fixed width (the bar
 * is the interval's numbers); tsv and csv have a column each; json a row
 * of members, its quantiles an object, as the values view's figures, and
 * its buckets and whether its sum is exact, which --merge adds up.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report_values.h"
#include "report_values_per.h"

/* The table's columns: the interval's width, then each figure's. */
#define INTERVAL_COLS 20
#define FIGURE_COLS 9

int gh_values_per_columns(const struct gh_options *opts, const char **cols)
{
	static const char *const first[] = { "interval", "numbers",
					     "not_numbers", "min", "max",
					     "sum", "mean" };
	int n = 0;

	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		cols[n++] = first[i];
	for (int i = 0; i < opts->quantiles.n; i++)
		cols[n++] = opts->quantiles.name[i];
	return n;
}

void gh_values_per_title(const struct gh_options *opts, char *out,
			 size_t len)
{
	size_t at = (size_t)snprintf(out, len, "%-*s %*s", INTERVAL_COLS,
				     "interval", FIGURE_COLS, "min");

	for (int i = 0; i < opts->quantiles.n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, " %*s",
				       FIGURE_COLS, opts->quantiles.name[i]);
	if (at < len)
		snprintf(out + at, len - at, " %*s", FIGURE_COLS, "max");
}

/* json's bucket *i of the interval's numbers, as the values view writes
 * one: {"low": .., "high": .., "count": ..}; 0 past the last. */
static int bucket_item(const void *ctx, size_t *i, struct gh_cell *out)
{
	struct gh_values_per_text *text = (struct gh_values_per_text *)ctx;
	struct gpuhist_value_bucket b;

	if (gpuhist_values_bucket(text->v, *i, &b))
		return 0;
	text->bucket[0] = gh_cell_num("low", b.low);
	text->bucket[1] = gh_cell_num("high", b.high);
	text->bucket[2] = gh_cell_u64("count", b.count);
	*out = (struct gh_cell){ .kind = GH_CELL_OBJECT, .cells = text->bucket,
				 .len = 3 };
	return 1;
}

void gh_values_per_row(const struct gh_options *opts,
		       const unsigned char *interval, size_t len,
		       gpuhist_values *v, enum gh_rows_of which,
		       struct gh_values_per_text *text, struct gh_row *row)
{
	const struct gh_quantiles *qs = &opts->quantiles;
	struct gpuhist_values_summary s = { 0 };
	bool any;
	int n = 0;

	if (v)
		gpuhist_values_summary(v, &s);
	any = s.numbers > 0;
	row->hidden = row->unscaled = false;
	row->count = s.numbers;
	row->cell[n++] = (struct gh_cell){ .kind = GH_CELL_BYTES,
					   .key = "interval",
					   .bytes = interval, .len = len };
	row->cell[n++] = gh_cell_u64("numbers", s.numbers);
	row->cell[n++] = gh_cell_u64("not_numbers", s.not_numbers);
	if (which == GH_ROWS_JSON)
		row->cell[n++] = gh_cell_u64("empty", s.empty);
	snprintf(text->min, sizeof(text->min), "%s", s.min_text);
	snprintf(text->max, sizeof(text->max), "%s", s.max_text);
	snprintf(text->sum, sizeof(text->sum), "%s", s.sum_text);
	row->cell[n++] = any ? gh_cell_lit("min", text->min)
			     : gh_cell_none("min");
	row->cell[n++] = any ? gh_cell_lit("max", text->max)
			     : gh_cell_none("max");
	row->cell[n++] = any ? gh_cell_lit("sum", text->sum)
			     : gh_cell_none("sum");
	snprintf(text->mean, sizeof(text->mean), "%.6g", s.mean);
	row->cell[n++] = any ? (which == GH_ROWS_JSON
				? gh_cell_num("mean", s.mean)
				: gh_cell_lit("mean", text->mean))
			     : gh_cell_none("mean");
	for (int i = 0; i < qs->n; i++) {
		double q = any ? gpuhist_values_quantile(v, qs->q[i]) : 0;

		if (any)
			gh_values_figure_text(text->q[i], sizeof(text->q[i]),
					      q, &s);
		/* json: the exact bound, as the values view's quantiles */
		text->quantiles[i] = any ? gh_cell_num(qs->name[i], q)
					 : gh_cell_none(qs->name[i]);
		if (which != GH_ROWS_JSON)
			row->cell[n++] = any ? gh_cell_lit(qs->name[i],
							   text->q[i])
					     : gh_cell_none(qs->name[i]);
	}
	if (which == GH_ROWS_JSON && any)
		row->cell[n++] = (struct gh_cell){ .kind = GH_CELL_OBJECT,
						   .key = "quantiles",
						   .cells = text->quantiles,
						   .len = (size_t)qs->n };
	if (which == GH_ROWS_JSON && any) {
		row->cell[n++] = gh_cell_lit("sum_exact", s.sum_exact
							  ? "true" : "false");
		text->v = v;
		gpuhist_values_buckets(v);      /* the list made */
		row->cell[n++] = (struct gh_cell){ .kind = GH_CELL_LIST,
						   .key = "buckets",
						   .member = bucket_item,
						   .ctx = text };
	}
	row->n_cells = n;
	/* The table: the interval, then min, the quantiles and max in
	 * columns ("-" where it has no numbers). */
	size_t at = (size_t)snprintf(text->label, sizeof(text->label),
				     "%-*.*s %*s", INTERVAL_COLS, (int)len,
				     (const char *)interval, FIGURE_COLS,
				     any ? text->min : "-");

	for (int i = 0; i < qs->n && at < sizeof(text->label); i++)
		at += (size_t)snprintf(text->label + at,
				       sizeof(text->label) - at, " %*s",
				       FIGURE_COLS, any ? text->q[i] : "-");
	if (at < sizeof(text->label))
		snprintf(text->label + at, sizeof(text->label) - at, " %*s",
			 FIGURE_COLS, any ? text->max : "-");
	row->label = gh_cell_str("interval", text->label);
}
