/* report_chars.c - printing the -m view's blocks, in every format
 *
 * Rows come from charview.c, sorted as --sort says (most frequent first,
 * ties in code-point order, for a table unless --sort=bin) and cut at
 * --top with a GH_OTHER row.  json carries, besides the rows, the 256
 * byte totals and every code point's exact total in "chars", so that
 * --merge -m adds results exactly whatever -i or -c showed.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "charview.h"
#include "fields.h"
#include "report_chars.h"
#include "stats.h"

static int by_count(const void *a, const void *b)
{
	const struct gh_char_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->bin < y->bin ? -1 : x->bin > y->bin;
}

static int by_bin(const void *a, const void *b)
{
	const struct gh_char_row *x = a, *y = b;

	return x->bin < y->bin ? -1 : x->bin > y->bin;
}

/* Keeps the --top commonest of rows[0..*n) (ties in code-point order),
 * shown in the order --sort asks; other gets what --top left out,
 * *has_other whether there is such a row. */
static void arrange(const struct gh_report *rep, struct gh_char_row *rows,
		    size_t *n, uint64_t *other, int *has_other)
{
	if (rep->sort == GH_SORT_COUNT || rep->top)
		qsort(rows, *n, sizeof(*rows), by_count);
	*other = 0;
	*has_other = rep->top && (size_t)rep->top < *n;
	if (*has_other) {
		for (size_t i = (size_t)rep->top; i < *n; i++)
			*other += rows[i].count;
		*n = (size_t)rep->top;
	}
	if (rep->sort != GH_SORT_COUNT && rep->top)
		qsort(rows, *n, sizeof(*rows), by_bin);
}

static uint64_t sum256(const uint64_t totals[256])
{
	uint64_t n = 0;

	for (int c = 0; c < 256; c++)
		n += totals[c];
	return n;
}

static void print_table(struct gh_report *rep, const char *name,
			const uint64_t totals[256],
			const struct gpuhist_chars *chars,
			const struct gh_char_row *rows, size_t n,
			uint64_t other, int has_other, uint64_t counted,
			int with_header)
{
	char label[64];
	int label_width = 3, count_width = 5, w;
	uint64_t max = 0;               /* bars: the bins shown */

	for (size_t i = 0; i < n; i++) {
		gh_charview_label(rep->opts, rows[i].bin, label, sizeof(label),
				  &w);
		gh_table_fit(&label_width, &count_width, w, rows[i].count);
		if (rows[i].count > max)
			max = rows[i].count;
	}
	if (has_other)
		gh_table_fit(&label_width, &count_width,
			     (int)strlen(GH_OTHER), other);
	gh_put_table_head(rep->out, rep->n_printed > 0,
			  with_header ? name : NULL, label_width, count_width);
	for (size_t i = 0; i < n + (size_t)has_other; i++) {
		if (i < n)
			gh_charview_label(rep->opts, rows[i].bin, label,
					  sizeof(label), &w);
		else
			w = snprintf(label, sizeof(label), GH_OTHER);
		gh_put_table_row(rep->out, label, label_width - w, count_width,
				 i < n ? rows[i].count : other, counted, max);
	}
	fprintf(rep->out, "bytes read     %" PRIu64 "\n", sum256(totals));
	fprintf(rep->out, "chars counted  %" PRIu64 "\n", counted);
	fprintf(rep->out, "entropy        %.6f bits per character\n",
		gh_charview_entropy(chars));
}

static void print_rows(struct gh_report *rep, const char *name,
		       const uint64_t totals[256],
		       const struct gpuhist_chars *chars,
		       const struct gh_char_row *rows, size_t n,
		       uint64_t other, int has_other, uint64_t counted)
{
	char sep = rep->format == GH_FMT_CSV ? ',' : '\t', bin[32], label[64];
	const struct gh_columns *cols = &rep->opts->columns;
	struct gh_row_facts facts = { .label = label, .counted = counted };
	int w;

	if (cols->n) {
		facts.bytes_read = sum256(totals);
		facts.entropy = gh_charview_entropy(chars);
	}
	for (size_t i = 0; i < n + (size_t)has_other; i++) {
		if (rep->format == GH_FMT_CSV)
			gh_put_csv(rep->out, name);
		else
			gh_put_tsv(rep->out, name);
		if (i < n) {
			gh_charview_name(rep->opts, rows[i].bin, bin,
					 sizeof(bin));
			gh_charview_label(rep->opts, rows[i].bin, label,
					  sizeof(label), &w);
		} else {
			snprintf(bin, sizeof(bin), GH_OTHER);
			snprintf(label, sizeof(label), GH_OTHER);
		}
		facts.count = i < n ? rows[i].count : other;
		fprintf(rep->out, "%c%s%c%" PRIu64, sep, bin, sep, facts.count);
		gh_columns_put(rep->out, sep, cols, &facts);
		fputc('\n', rep->out);
	}
}

static void print_json(struct gh_report *rep, const char *name,
		       const uint64_t totals[256],
		       const struct gpuhist_chars *chars,
		       const struct gh_char_row *rows, size_t n,
		       uint64_t other, int has_other, uint64_t counted)
{
	struct gh_options raw = *rep->opts;
	FILE *out = rep->out;
	char bin[32];
	int first = 1;

	fputs("{\"name\": ", out);
	gh_put_json_string(out, name);
	fprintf(out, ", \"bytes_read\": %" PRIu64 ", \"counted\": %" PRIu64
		", \"entropy\": %.6f,\n   \"bins\": [", sum256(totals), counted,
		gh_charview_entropy(chars));
	for (size_t i = 0; i < n + (size_t)has_other; i++) {
		if (i < n)
			gh_charview_name(rep->opts, rows[i].bin, bin,
					 sizeof(bin));
		else
			snprintf(bin, sizeof(bin), GH_OTHER);
		fprintf(out, "%s{\"bin\": \"%s\", \"count\": %" PRIu64 "}",
			i ? ", " : "", bin, i < n ? rows[i].count : other);
	}
	fputs("],\n   \"histogram\": [", out);
	for (int c = 0; c < 256; c++)
		fprintf(out, c ? ", %" PRIu64 : "%" PRIu64, totals[c]);
	fputs("],\n   \"chars\": {", out);
	/* Every code point as counted, whatever the view folds. */
	raw.view = GH_VIEW_BYTES;
	for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++) {
		if (!chars->page[p])
			continue;
		for (uint32_t i = 0; i < GPUHIST_CHAR_PAGE; i++) {
			uint32_t b = p * GPUHIST_CHAR_PAGE + i;

			if (b >= GPUHIST_CHAR_BINS || !chars->page[p][i])
				continue;
			gh_charview_name(&raw, b, bin, sizeof(bin));
			fprintf(out, "%s\"%s\": %" PRIu64, first ? "" : ", ",
				bin, chars->page[p][i]);
			first = 0;
		}
	}
	fputs("}", out);        /* the entry's brace: the caller's */
}

int gh_report_chars(struct gh_report *rep, const char *name,
		    const struct gpuhist_stream *stream,
		    const uint64_t totals[256],
		    const struct gpuhist_chars *chars, int with_header)
{
	uint64_t counted, other;
	int has_other;
	size_t n;
	struct gh_char_row *rows = gh_charview_rows(rep->opts, chars, &n,
						    &counted);

	if (!rows)
		return -1;
	arrange(rep, rows, &n, &other, &has_other);
	struct gpuhist_ent st;

	if (rep->stats)
		gpuhist_ent_of(totals, stream, &st);
	switch (rep->format) {
	case GH_FMT_TABLE:
		print_table(rep, name, totals, chars, rows, n, other,
			    has_other, counted, with_header);
		if (rep->stats)
			gh_stats_put_table(rep->out, &st);
		break;
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		if (rep->stats)
			gh_stats_put_row(rep->out, rep->format == GH_FMT_CSV
					 ? ',' : '\t', name, &st);
		else
			print_rows(rep, name, totals, chars, rows, n, other,
				   has_other, counted);
		break;
	case GH_FMT_JSON:
		print_json(rep, name, totals, chars, rows, n, other,
			   has_other, counted);
		if (rep->stats)
			gh_stats_put_json(rep->out, &st);
		fputs("}", rep->out);
		break;
	}
	free(rows);
	return 0;
}
