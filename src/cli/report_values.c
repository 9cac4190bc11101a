/* report_values.c - printing the values view's blocks, in every format
 *
 * The table gives the summary (numbers, min, max, sum, mean, quantiles)
 * under about 20 rows of the library's buckets merged in value order: on
 * a log scale where the numbers are positive and span two decades or
 * more, else on a linear one.  tsv and csv give every non-empty bucket
 * with its bounds, json the summary and every bucket, exactly enough for
 * --merge to add results up (merge_values.c reads it back).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A number as json and tsv write it: exactly, or null when unknown. */
static void put_number(FILE *out, double d)
{
	char text[48];

	if (isnan(d)) {
		fputs("null", out);
		return;
	}
	gpuhist_values_text(d, text, sizeof(text));
	fputs(text, out);
}

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

/* A quantile or the mean as the table shows it: no more digits than the
 * precision vouches for (3 at 1 percent), an integer's whole. */
static void put_figure(FILE *out, const char *title, double d,
		       const struct gpuhist_values_summary *s)
{
	int digits = (int)ceil(log10(100.0 / s->precision));

	if (isnan(d))
		fprintf(out, "%-16s -\n", title);
	else if (s->sum_exact && fabs(d) < 1e15)
		fprintf(out, "%-16s %.0f\n", title, d);
	else
		fprintf(out, "%-16s %.*g\n", title, digits < 3 ? 3 : digits,
			d);
}

static int print_table(struct gh_report *rep, const char *name,
		       uint64_t bytes_read, gpuhist_values *v,
		       int with_header)
{
	struct gpuhist_values_summary s;
	struct row rows[TABLE_ROWS];
	char label[TABLE_ROWS][72];
	int label_width = 5, count_width = 5, n_rows;
	uint64_t max = 0, fields;
	FILE *out = rep->out;

	gpuhist_values_summary(v, &s);
	fields = s.numbers + s.not_numbers;
	n_rows = make_rows(v, &s, rows);
	if (n_rows < 0)
		return -1;
	for (int i = 0; i < n_rows; i++) {
		row_label(&rows[i], &s, label[i], sizeof(label[i]));
		gh_table_fit(&label_width, &count_width, (int)strlen(label[i]),
			     rows[i].count);
		max = rows[i].count > max ? rows[i].count : max;
	}
	if (s.not_numbers) {
		gh_table_fit(&label_width, &count_width,
			     (int)strlen(NOT_A_NUMBER), s.not_numbers);
		max = s.not_numbers > max ? s.not_numbers : max;
	}
	gh_put_table_head_of(out, rep->n_printed > 0,
			     with_header ? name : NULL, "value", label_width,
			     count_width);
	for (int i = 0; i < n_rows; i++)
		gh_put_table_row(out, label[i],
				 label_width - (int)strlen(label[i]),
				 count_width, rows[i].count, fields, max);
	if (s.not_numbers)
		gh_put_table_row(out, NOT_A_NUMBER,
				 label_width - (int)strlen(NOT_A_NUMBER),
				 count_width, s.not_numbers, fields, max);
	fprintf(out, "bytes read       %" PRIu64 "\n", bytes_read);
	fprintf(out, "numbers          %" PRIu64 "\n", s.numbers);
	fprintf(out, "not numbers      %" PRIu64, s.not_numbers);
	if (s.empty)
		fprintf(out, " (%" PRIu64 " empty)", s.empty);
	fputc('\n', out);
	if (!s.numbers)
		return 0;
	fprintf(out, "min              %s\n", s.min_text);
	fprintf(out, "max              %s\n", s.max_text);
	fprintf(out, "sum              %s\n", s.sum_text);
	fprintf(out, "mean             %.6g\n", s.mean);
	for (int i = 0; i < rep->opts->quantiles.n; i++)
		put_figure(out, rep->opts->quantiles.name[i],
			   gpuhist_values_quantile(v, rep->opts->quantiles.q[i]),
			   &s);
	fprintf(out, "precision        %.4g%%\n", s.precision);
	return 0;
}

static int print_rows(struct gh_report *rep, const char *name,
		      gpuhist_values *v)
{
	char sep = rep->format == GH_FMT_CSV ? ',' : '\t';
	size_t n = gpuhist_values_buckets(v);
	struct gpuhist_values_summary s;
	struct gpuhist_value_bucket b;
	FILE *out = rep->out;

	gpuhist_values_summary(v, &s);
	for (size_t i = 0; i < n; i++) {
		if (gpuhist_values_bucket(v, i, &b))
			return -1;
		(sep == ',' ? gh_put_csv : gh_put_tsv)(out, name);
		fputc(sep, out);
		put_number(out, b.low);
		fputc(sep, out);
		put_number(out, b.high);
		fprintf(out, "%c%" PRIu64 "\n", sep, b.count);
	}
	if (s.not_numbers) {
		(sep == ',' ? gh_put_csv : gh_put_tsv)(out, name);
		fprintf(out, "%c%s%c%c%" PRIu64 "\n", sep, NOT_A_NUMBER, sep,
			sep, s.not_numbers);
	}
	return 0;
}

static int print_json(struct gh_report *rep, const char *name,
		      uint64_t bytes_read, gpuhist_values *v)
{
	const struct gpuhist_options *lib = &rep->opts->lib;
	size_t n = gpuhist_values_buckets(v);
	struct gpuhist_values_summary s;
	struct gpuhist_value_bucket b;
	FILE *out = rep->out;

	gpuhist_values_summary(v, &s);
	fputs("{\"name\": ", out);
	gh_put_json_string(out, name);
	fprintf(out, ", \"view\": \"values\", \"field\": %d", lib->field);
	if (lib->separator >= 0)
		fprintf(out, ", \"separator\": %d", lib->separator);
	fprintf(out, ", \"bytes_read\": %" PRIu64 ", \"numbers\": %" PRIu64
		", \"not_numbers\": %" PRIu64 ", \"empty\": %" PRIu64,
		bytes_read, s.numbers, s.not_numbers, s.empty);
	if (s.numbers) {
		fprintf(out, ",\n   \"min\": %s, \"max\": %s, \"sum\": %s, "
			"\"sum_exact\": %s, \"mean\": ", s.min_text, s.max_text,
			s.sum_text, s.sum_exact ? "true" : "false");
		put_number(out, s.mean);
		fputs(", \"quantiles\": {", out);
		for (int i = 0; i < rep->opts->quantiles.n; i++) {
			fprintf(out, "%s\"%s\": ", i ? ", " : "",
				rep->opts->quantiles.name[i]);
			put_number(out, gpuhist_values_quantile(v,
					rep->opts->quantiles.q[i]));
		}
		fputs("}", out);
	}
	fprintf(out, ",\n   \"sub_buckets\": %d, \"buckets\": [",
		s.sub_buckets);
	for (size_t i = 0; i < n; i++) {
		if (gpuhist_values_bucket(v, i, &b))
			return -1;
		fputs(i ? ", {\"low\": " : "{\"low\": ", out);
		put_number(out, b.low);
		fputs(", \"high\": ", out);
		put_number(out, b.high);
		fprintf(out, ", \"count\": %" PRIu64 "}", b.count);
	}
	fputs("]}", out);
	return 0;
}

int gh_report_values(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, gpuhist_values *v, int with_header)
{
	switch (rep->format) {
	case GH_FMT_TABLE:
		return print_table(rep, name, bytes_read, v, with_header);
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		return print_rows(rep, name, v);
	case GH_FMT_JSON:
		return print_json(rep, name, bytes_read, v);
	}
	return 0;
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
