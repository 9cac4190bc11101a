/* report_bytes_per.c - the bytes views per interval (--per beside -b, -c
 * or -w).  The library counts each interval's bytes as tokens of one byte
 * after the interval's label and a tab (gpuhist.h's GPUHIST_TOKENS_BYTES);
 * report_tokens.c reads them interval by interval, and here an interval's
 * are folded into the view's bins and shown as the view shows an input's:
 * --top and --sort within each interval, the bytes view's empty bins not
 * in the table.  A row is the interval, the bin and its count: in the
 * table the interval and the bin's label side by side, a column each in
 * tsv and csv, members in json.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "report_bytes_per.h"

void gh_bytes_per_add(struct gh_bytes_per *bp, const unsigned char *unit,
		      size_t len, uint64_t count)
{
	if (len == 1)
		bp->totals[unit[0]] += count;
}

uint64_t gh_bytes_per_counted(const struct gh_report *rep,
			      const unsigned char *unit, size_t len,
			      uint64_t count)
{
	return len == 1 && rep->view->bin_of[unit[0]] >= 0 ? count : 0;
}

void gh_bytes_per_arrange(struct gh_bytes_per *bp)
{
	uint64_t bins[GH_VIEW_MAX_BINS];

	gh_view_fold(bp->rep->view, bp->totals, bins);
	gh_bin_rows_arrange(bp->rep, bins, &bp->r);
	memset(bp->totals, 0, sizeof(bp->totals));
	bp->i = 0;
}

int gh_bytes_per_row(struct gh_bytes_per *bp, const unsigned char *interval,
		     size_t len, enum gh_rows_of which, struct gh_row *row)
{
	const struct gh_report *rep = bp->rep;
	const struct gh_bin_rows *r = &bp->r;
	int i = bp->i;
	bool bytes = rep->view->kind == GH_VIEW_BYTES;

	if (i >= r->n + r->other)
		return 0;
	bp->i++;
	row->count = r->count[i];
	row->hidden = bytes && !r->count[i] && i < r->n;
	row->unscaled = i >= r->n;
	row->cell[0] = (struct gh_cell){ .kind = GH_CELL_BYTES,
					 .key = "interval",
					 .bytes = interval, .len = len };
	row->cell[1] = which == GH_ROWS_JSON && bytes && i < r->n
		       ? gh_cell_lit("bin", gh_bin_rows_name(rep, r, i))
		       : gh_cell_name("bin", gh_bin_rows_name(rep, r, i));
	row->cell[2] = gh_cell_u64("count", r->count[i]);
	row->n_cells = 3;
	snprintf(bp->label, sizeof(bp->label), "%-20.*s %s",
		 (int)(len < 32 ? len : 32), (const char *)interval,
		 gh_bin_rows_label(rep, r, i));
	row->label = gh_cell_str("bin", bp->label);
	return 1;
}

void gh_bytes_per_figures(struct gh_report *rep, struct gh_block *b,
			  uint64_t bytes_read, uint64_t counted)
{
	snprintf(rep->per_title, sizeof(rep->per_title), "%-20s %s",
		 "interval", "bin");
	b->title = rep->per_title;
	b->label_max = (int)sizeof(((struct gh_bytes_per *)0)->label);
	b->share_of = counted;
	b->figure_width = 15;
	b->rows_key = "bins";
	b->rows_break = true;
	gh_block_figure(b, "bytes read", NULL, gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, "bytes counted", NULL, gh_cell_u64(NULL, counted));
	gh_block_figure(b, NULL, "view",
			gh_cell_name(NULL, rep->view->kind == GH_VIEW_BYTES
					   ? "bytes"
					   : rep->view->kind == GH_VIEW_CLASSES
					   ? "classes" : "letters"));
	gh_block_figure(b, NULL, "per",
			gh_cell_u64(NULL, (uint64_t)rep->opts->lib.per));
	gh_block_figure(b, NULL, "bytes_read", gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, NULL, "counted", gh_cell_u64(NULL, counted));
}
