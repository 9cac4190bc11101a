/* report_values.c - the values view's blocks: rows and figures (block.h)
 *
 * The table gives the summary (numbers, min, max, sum, mean, quantiles)
 * under about 20 rows of the library's buckets merged in value order: on
 * a log scale where the numbers are positive and span two decades or
 * more, else on a linear one.  tsv and csv give every non-empty bucket
 * with its bounds, json the summary and every bucket, exactly enough for
 * --merge to add results up (src/lib/merge/merge_values.c reads it back).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "fields.h"
#include "msg.h"
#include "report_values.h"

#define TABLE_ROWS 20
#define NOT_A_NUMBER "(not a number)"

/* A row of the table: buckets first..last merged. */
struct row {
	double low, high;           /* the first's low, the last's high */
	int low_open;               /* the first bucket's low is excluded (a
				     * negative bucket's) */
	int high_open;              /* the last's high is excluded */
	uint64_t count;
};

/* Where a bucket stands on the table's scale: its bound nearest zero,
 * kept between min and max. */
static double place_of(const struct gpuhist_value_bucket *b, double min,
		       double max)
{
	double x = b->low < 0 ? b->high : b->low;

	return x < min ? min : x > max ? max : x;
}

/* The table's scale: linear, or where the magnitudes span two decades
 * or more a log's on each side of zero: sign(x) (1 + ln(|x| / least)),
 * least the smallest magnitude above zero, and zero at 0. */
struct scale {
	int log;
	double least;
};

static double scaled(const struct scale *sc, double x)
{
	if (!sc->log)
		return x;
	if (x == 0)
		return 0;
	double y = 1 + log(fabs(x)) - log(sc->least);

	return x < 0 ? -y : y;
}

/* The table's rows: every bucket when there are few, else buckets merged
 * into TABLE_ROWS spans of the scale; the number of rows, or -1. */
static int make_rows(gpuhist_values *v, const struct gpuhist_values_summary *s,
		     struct row rows[TABLE_ROWS])
{
	size_t n = gpuhist_values_buckets(v);
	struct gpuhist_value_bucket b;
	struct scale sc = { 0, 0 };
	double biggest = fmax(fabs(s->min), fabs(s->max));
	int n_rows = 0, last = -1;

	for (size_t i = 0; i < n; i++) {
		if (gpuhist_values_bucket(v, i, &b))
			return -1;
		double near = b.low < 0 ? -b.high : b.low;

		if (near > 0 && (sc.least == 0 || near < sc.least))
			sc.least = near;
	}
	sc.log = sc.least > 0 && log10(biggest) - log10(sc.least) >= 2;
	double lo = scaled(&sc, s->min), span = scaled(&sc, s->max) - lo;

	for (size_t i = 0; i < n; i++) {
		if (gpuhist_values_bucket(v, i, &b))
			return -1;
		int r = (int)i;

		if (n > TABLE_ROWS) {
			double at = (scaled(&sc, place_of(&b, s->min, s->max)) -
				     lo) / span;

			r = (int)(at * TABLE_ROWS);
			r = r < 0 ? 0 : r >= TABLE_ROWS ? TABLE_ROWS - 1 : r;
		}
		if (r != last) {
			rows[n_rows].low = b.low;
			rows[n_rows].low_open = b.low < 0;
			rows[n_rows].count = 0;
			n_rows++;
			last = r;
		}
		rows[n_rows - 1].high = b.high;
		rows[n_rows - 1].high_open = b.low >= 0 && b.high > 0;
		rows[n_rows - 1].count += b.count;
	}
	return n_rows;
}

/* A row's label: "low .. high" of the numbers it may hold, between min
 * and max; of integers only (every number was one: an exact sum), the
 * first and last integer it may hold, or the one. */
static void row_label(const struct row *r,
		      const struct gpuhist_values_summary *s, char *out,
		      size_t len)
{
	double lo = r->low, hi = r->high;

	if (s->sum_exact) {
		lo = r->low_open ? floor(lo) + 1 : ceil(lo);
		hi = r->high_open ? ceil(hi) - 1 : floor(hi);
	}
	lo = lo < s->min ? s->min : lo;
	hi = hi > s->max ? s->max : hi;
	const char *fmt = s->sum_exact ? "%.0f" : "%.4g";
	char a[32], b[32];

	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	if (!strcmp(a, b))
		snprintf(out, len, "%s", a);
	else
		snprintf(out, len, "%s .. %s", a, b);
}

void gh_values_figure_text(char *out, size_t len, double d,
			   const struct gpuhist_values_summary *s)
{
	int digits = (int)ceil(log10(100.0 / s->precision));

	if (isnan(d))
		snprintf(out, len, "-");
	else if (s->sum_exact && fabs(d) < 1e15)
		snprintf(out, len, "%.0f", d);
	else
		snprintf(out, len, "%.*g", digits < 3 ? 3 : digits, d);
}

/* The values view's block, for block.c: the table's merged rows, or
 * every bucket (tsv, csv, json), then the fields that are not numbers
 * (not in json's buckets: a figure of its own). */
struct values_block {
	gpuhist_values *v;
	const struct gpuhist_values_summary *s;
	struct row rows[TABLE_ROWS];
	char label[TABLE_ROWS][72];
	int n_rows;
	size_t n, i;
};

static int values_start(void *ctx, enum gh_rows_of which)
{
	((struct values_block *)ctx)->i = 0;
	(void)which;
	return 0;
}

static int values_next(void *ctx, enum gh_rows_of which, struct gh_row *row)
{
	struct values_block *vb = ctx;
	size_t n = which == GH_ROWS_TABLE ? (size_t)vb->n_rows : vb->n;
	size_t i = vb->i;
	struct gpuhist_value_bucket b;

	row->hidden = row->unscaled = false;
	if (i < n) {
		vb->i++;
		if (which == GH_ROWS_TABLE) {
			row->label = gh_cell_str(NULL, vb->label[i]);
			row->count = vb->rows[i].count;
			return 1;
		}
		if (gpuhist_values_bucket(vb->v, i, &b))
			return -1;
		row->n_cells = 3;
		row->cell[0] = gh_cell_num("low", b.low);
		row->cell[1] = gh_cell_num("high", b.high);
		row->cell[2] = gh_cell_u64("count", b.count);
		return 1;
	}
	if (i > n || !vb->s->not_numbers || which == GH_ROWS_JSON)
		return 0;
	vb->i++;
	row->label = gh_cell_str(NULL, NOT_A_NUMBER);
	row->count = vb->s->not_numbers;
	row->n_cells = 3;
	row->cell[0] = gh_cell_lit("low", NOT_A_NUMBER);
	row->cell[1] = gh_cell_none("high");
	row->cell[2] = gh_cell_u64("count", vb->s->not_numbers);
	return 1;
}

static const struct gh_rows_ops values_rows = { values_start, values_next };

int gh_report_values(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, gpuhist_values *v, int with_header)
{
	const struct gpuhist_options *lib = &rep->opts->lib;
	const struct gh_quantiles *qs = &rep->opts->quantiles;
	struct gpuhist_values_summary s;
	struct values_block vb = { .v = v, .s = &s };
	struct gh_block b = {
		.name = name, .named = with_header, .title = "value",
		.figure_width = 17, .rows_key = "buckets",
		.ops = &values_rows, .ctx = &vb,
	};
	char not_numbers[64], mean[32], precision[32];
	char quantile[GH_QUANTILES_MAX][32];
	struct gh_cell q[GH_QUANTILES_MAX];
	struct gh_figure *f;

	gpuhist_values_summary(v, &s);
	vb.n = gpuhist_values_buckets(v);
	b.share_of = s.numbers + s.not_numbers;
	vb.n_rows = make_rows(v, &s, vb.rows);
	if (vb.n_rows < 0)
		return -1;
	for (int i = 0; i < vb.n_rows; i++)
		row_label(&vb.rows[i], &s, vb.label[i], sizeof(vb.label[i]));
	/* The table's */
	gh_block_figure(&b, "bytes read", NULL, gh_cell_u64(NULL, bytes_read));
	gh_block_figure(&b, "numbers", NULL, gh_cell_u64(NULL, s.numbers));
	if (s.empty)
		snprintf(not_numbers, sizeof(not_numbers),
			 "%" PRIu64 " (%" PRIu64 " empty)", s.not_numbers,
			 s.empty);
	else
		snprintf(not_numbers, sizeof(not_numbers), "%" PRIu64,
			 s.not_numbers);
	gh_block_figure(&b, "not numbers", NULL, gh_cell_lit(NULL,
							     not_numbers));
	if (s.numbers) {
		gh_block_figure(&b, "min", NULL, gh_cell_lit(NULL, s.min_text));
		gh_block_figure(&b, "max", NULL, gh_cell_lit(NULL, s.max_text));
		gh_block_figure(&b, "sum", NULL, gh_cell_lit(NULL, s.sum_text));
		snprintf(mean, sizeof(mean), "%.6g", s.mean);
		gh_block_figure(&b, "mean", NULL, gh_cell_lit(NULL, mean));
		for (int i = 0; i < qs->n; i++) {
			gh_values_figure_text(quantile[i],
					      sizeof(quantile[i]),
					      gpuhist_values_quantile(v,
								      qs->q[i]),
					      &s);
			gh_block_figure(&b, qs->name[i], NULL,
					gh_cell_lit(NULL, quantile[i]));
		}
		snprintf(precision, sizeof(precision), "%.4g%%", s.precision);
		gh_block_figure(&b, "precision", NULL,
				gh_cell_lit(NULL, precision));
	}
	/* json's */
	gh_block_figure(&b, NULL, "view", gh_cell_name(NULL, "values"));
	if (lib->tokens == GPUHIST_TOKENS_KEY)
		gh_block_figure(&b, NULL, "key", gh_cell_str(NULL, lib->key));
	else
		gh_block_figure(&b, NULL, "field",
				gh_cell_u64(NULL, (uint64_t)lib->field));
	if (lib->separator >= 0)
		gh_block_figure(&b, NULL, "separator",
				gh_cell_u64(NULL, (uint64_t)lib->separator));
	gh_block_figure(&b, NULL, "bytes_read", gh_cell_u64(NULL, bytes_read));
	gh_block_figure(&b, NULL, "numbers", gh_cell_u64(NULL, s.numbers));
	gh_block_figure(&b, NULL, "not_numbers",
			gh_cell_u64(NULL, s.not_numbers));
	gh_block_figure(&b, NULL, "empty", gh_cell_u64(NULL, s.empty));
	if (s.numbers) {
		gh_block_figure(&b, NULL, "min", gh_cell_lit(NULL, s.min_text))
			->json_break = true;
		gh_block_figure(&b, NULL, "max", gh_cell_lit(NULL, s.max_text));
		gh_block_figure(&b, NULL, "sum", gh_cell_lit(NULL, s.sum_text));
		gh_block_figure(&b, NULL, "sum_exact",
				gh_cell_lit(NULL, s.sum_exact ? "true"
							      : "false"));
		gh_block_figure(&b, NULL, "mean", gh_cell_num(NULL, s.mean));
		for (int i = 0; i < qs->n; i++)
			q[i] = gh_cell_num(qs->name[i],
					   gpuhist_values_quantile(v, qs->q[i]));
		gh_block_figure(&b, NULL, "quantiles",
				(struct gh_cell){ .kind = GH_CELL_OBJECT,
						  .cells = q,
						  .len = (size_t)qs->n });
	}
	f = gh_block_figure(&b, NULL, "sub_buckets",
			    gh_cell_u64(NULL, (uint64_t)s.sub_buckets));
	f->json_break = true;
	return gh_block_write(rep->out, rep->format, rep->n_printed > 0, &b);
}

gpuhist_values *gh_report_values_of(const struct gh_report *rep,
				    const char *name,
				    const struct gpuhist_tokens *tokens,
				    char *why, size_t why_len)
{
	gpuhist_values *v = gpuhist_values_new(rep->opts->precision);
	char line[600];

	if (!v)
		snprintf(line, sizeof(line), "%s: out of memory for its values",
			 name);
	else if (tokens && gpuhist_values_add_tokens(v, tokens))
		snprintf(line, sizeof(line), "%s: its values: %s", name,
			 gpuhist_values_message(v));
	else
		return v;
	gpuhist_values_free(v);
	gh_msg("%s", line);
	if (why)
		snprintf(why, why_len, "%s\n", line);
	return NULL;
}
