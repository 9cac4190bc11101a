/* report_chars.c - the -m view's blocks: rows and figures (block.h)
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

#include "block.h"
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

void gh_chars_arrange(const struct gh_report *rep, struct gh_char_row *rows,
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

/* The -m view's block, for block.c. */
struct chars_block {
	const struct gh_report *rep;
	const struct gh_char_row *rows;
	size_t n, i;
	uint64_t other;
	int has_other;
	char name[32], label[64];       /* the row's */
	struct gh_row_facts facts;      /* --columns */
	const struct gh_stats_figures *st;      /* --stats: ent's row in
						 * tsv, csv */
	/* json's "chars": every code point as counted, whatever the view
	 * folds */
	struct gh_options raw;
	const struct gpuhist_chars *chars;
	char key[32];
};

static int chars_start(void *ctx, enum gh_rows_of which)
{
	((struct chars_block *)ctx)->i = 0;
	(void)which;
	return 0;
}

static int chars_next(void *ctx, enum gh_rows_of which, struct gh_row *row)
{
	struct chars_block *cb = ctx;
	const struct gh_options *opts = cb->rep->opts;
	size_t i = cb->i;
	int w;

	if (which == GH_ROWS_MACHINE && cb->st)     /* ent -t's row */
		return cb->i++ ? 0 : gh_stats_row(cb->st, row);
	if (i >= cb->n + (size_t)cb->has_other)
		return 0;
	cb->i++;
	if (i < cb->n) {
		gh_charview_name(opts, cb->rows[i].bin, cb->name,
				 sizeof(cb->name));
		gh_charview_label(opts, cb->rows[i].bin, cb->label,
				  sizeof(cb->label), &w);
	} else {
		w = snprintf(cb->name, sizeof(cb->name), GH_OTHER);
		snprintf(cb->label, sizeof(cb->label), GH_OTHER);
	}
	row->count = i < cb->n ? cb->rows[i].count : cb->other;
	row->label = gh_cell_str(NULL, cb->label);
	row->label.cols = w;
	row->hidden = false;
	row->unscaled = i >= cb->n;     /* bars: the bins shown */
	row->cell[0] = gh_cell_name("bin", cb->name);
	row->cell[1] = gh_cell_u64("count", row->count);
	row->n_cells = 2;
	if (which == GH_ROWS_MACHINE) {
		cb->facts.count = row->count;
		cb->facts.label = cb->label;
		row->n_cells += gh_columns_cells(&opts->columns, &cb->facts,
						 row->cell + 2);
	}
	return 1;
}

static const struct gh_rows_ops chars_rows = { chars_start, chars_next };

/* json's "chars": the first code point counted at *i or after, its
 * pages of none skipped whole. */
static int chars_member(const void *ctx, size_t *i, struct gh_cell *out)
{
	struct chars_block *cb = (struct chars_block *)ctx;

	for (; *i < GPUHIST_CHAR_BINS; (*i)++) {
		const uint64_t *page = cb->chars->page[*i / GPUHIST_CHAR_PAGE];

		if (!page) {
			*i = (*i / GPUHIST_CHAR_PAGE + 1) * GPUHIST_CHAR_PAGE - 1;
			continue;
		}
		if (!page[*i % GPUHIST_CHAR_PAGE])
			continue;
		gh_charview_name(&cb->raw, (uint32_t)*i, cb->key,
				 sizeof(cb->key));
		*out = gh_cell_u64(cb->key, page[*i % GPUHIST_CHAR_PAGE]);
		return 1;
	}
	return 0;
}

int gh_report_chars(struct gh_report *rep, const char *name,
		    const struct gpuhist_stream *stream,
		    const uint64_t totals[256],
		    const struct gpuhist_chars *chars, int with_header)
{
	struct chars_block cb = { .rep = rep, .raw = *rep->opts,
				  .chars = chars };
	struct gh_block b = {
		.name = name, .named = with_header, .title = "bin",
		.figure_width = 15, .rows_key = "bins", .rows_break = true,
		.ops = &chars_rows, .ctx = &cb,
	};
	struct gh_char_row *rows = gh_charview_rows(rep->opts, chars, &cb.n,
						    &b.share_of);
	struct gh_stats_figures st = { .report = NULL };
	struct gh_figure *f;
	int ret;

	if (!rows)
		return -1;
	gh_chars_arrange(rep, rows, &cb.n, &cb.other, &cb.has_other);
	cb.rows = rows;
	cb.raw.view = GH_VIEW_BYTES;
	cb.facts.counted = b.share_of;
	cb.facts.bytes_read = sum256(totals);
	cb.facts.entropy = gh_charview_entropy(chars);
	if (rep->stats) {
		cb.st = &st;
		if (gh_stats_figures_of(&st, totals, stream)) {
			gh_stats_figures_free(&st);
			free(rows);
			return -1;
		}
	}
	gh_block_figure(&b, "bytes read", NULL,
			gh_cell_u64(NULL, cb.facts.bytes_read));
	gh_block_figure(&b, "chars counted", NULL,
			gh_cell_u64(NULL, b.share_of));
	gh_block_figure(&b, "entropy", NULL,
			gh_cell_fix(NULL, "%.6f bits per character",
				    cb.facts.entropy));
	if (rep->stats)
		gh_stats_report_figure(&st, &b);
	gh_block_figure(&b, NULL, "bytes_read",
			gh_cell_u64(NULL, cb.facts.bytes_read));
	gh_block_figure(&b, NULL, "counted", gh_cell_u64(NULL, b.share_of));
	gh_block_figure(&b, NULL, "entropy",
			gh_cell_fix(NULL, "%.6f", cb.facts.entropy));
	f = gh_block_figure(&b, NULL, "histogram",
		(struct gh_cell){ .kind = GH_CELL_ARRAY, .array = totals,
				  .len = 256 });
	f->json_break = f->after_rows = true;
	f = gh_block_figure(&b, NULL, "chars",
		(struct gh_cell){ .kind = GH_CELL_OBJECT,
				  .member = chars_member, .ctx = &cb });
	f->json_break = f->after_rows = true;
	if (rep->stats)
		gh_stats_json_figure(&st, &b);
	ret = gh_block_write(rep->out, rep->format, rep->n_printed > 0, &b);
	gh_stats_figures_free(&st);
	free(rows);
	return ret;
}
