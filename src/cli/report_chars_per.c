/* report_chars_per.c - -m per interval (--per beside -m).  The library
 * counts each line's characters, its newline with it, as tokens after the
 * interval's label and a tab (gpuhist.h's GPUHIST_TOKENS_CHARS: a
 * well-formed sequence's bytes, or one byte: ASCII, or a byte of an
 * ill-formed sequence); report_tokens.c reads them interval by interval,
 * and here an interval's are added into code-point totals and shown as -m
 * shows an input's: -i folds them, -c gives their categories, --top and
 * --sort apply within each interval.  A row is the interval, the bin and
 * its count: in the table the interval and the bin's label side by side,
 * a column each in tsv and csv, members in json.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "msg.h"
#include "report_chars.h"
#include "report_chars_per.h"

/* A unit's bin: the code point of a well-formed sequence (the library
 * cut only those), or an invalid byte's; -1 for none. */
static int64_t bin_of(const unsigned char *u, size_t len)
{
	switch (len) {
	case 1:
		return u[0] < 0x80 ? u[0]
				   : GPUHIST_CHAR_INVALID + (u[0] - 0x80);
	case 2:
		return (u[0] & 0x1f) << 6 | (u[1] & 0x3f);
	case 3:
		return (u[0] & 0x0f) << 12 | (u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	case 4:
		return (int64_t)(u[0] & 0x07) << 18 | (u[1] & 0x3f) << 12 |
		       (u[2] & 0x3f) << 6 | (u[3] & 0x3f);
	default:
		return -1;
	}
}

int gh_chars_per_add(struct gh_chars_per *cp, const unsigned char *unit,
		     size_t len, uint64_t count)
{
	int64_t bin = bin_of(unit, len);
	int got;

	if (bin < 0) {
		gh_msg("a unit of %zu bytes is no character", len);
		return -1;
	}
	got = gpuhist_chars_add(&cp->chars, (uint32_t)bin, count);
	if (got == GPUHIST_ERR_NOMEM)
		gh_msg("out of memory for an interval's characters");
	else if (got)
		gh_msg("an interval's characters add up past 2^64-1");
	return got ? -1 : 0;
}

int gh_chars_per_arrange(struct gh_chars_per *cp)
{
	uint64_t counted;

	free(cp->rows);
	cp->rows = gh_charview_rows(cp->rep->opts, &cp->chars, &cp->n,
				    &counted);
	gpuhist_chars_free(&cp->chars);
	cp->i = 0;
	if (!cp->rows) {
		cp->n = 0;
		gh_msg("out of memory for an interval's characters");
		return -1;
	}
	gh_chars_arrange(cp->rep, cp->rows, &cp->n, &cp->other,
			 &cp->has_other);
	return 0;
}

int gh_chars_per_row(struct gh_chars_per *cp, const unsigned char *interval,
		     size_t len, enum gh_rows_of which, struct gh_row *row)
{
	const struct gh_options *opts = cp->rep->opts;
	size_t i = cp->i;
	char label[64];
	int w;

	(void)which;
	if (!cp->rows || i >= cp->n + (size_t)cp->has_other)
		return 0;
	cp->i++;
	if (i < cp->n) {
		gh_charview_name(opts, cp->rows[i].bin, cp->name,
				 sizeof(cp->name));
		gh_charview_label(opts, cp->rows[i].bin, label,
				  sizeof(label), &w);
	} else {
		snprintf(cp->name, sizeof(cp->name), GH_OTHER);
		w = snprintf(label, sizeof(label), GH_OTHER);
	}
	row->count = i < cp->n ? cp->rows[i].count : cp->other;
	row->hidden = false;
	row->unscaled = i >= cp->n;
	row->cell[0] = (struct gh_cell){ .kind = GH_CELL_BYTES,
					 .key = "interval",
					 .bytes = interval, .len = len };
	row->cell[1] = gh_cell_name("bin", cp->name);
	row->cell[2] = gh_cell_u64("count", row->count);
	row->n_cells = 3;
	snprintf(cp->label, sizeof(cp->label), "%-20.*s %s",
		 (int)(len < 32 ? len : 32), (const char *)interval, label);
	row->label = gh_cell_str("bin", cp->label);
	row->label.cols = 21 + w;
	return 1;
}

void gh_chars_per_free(struct gh_chars_per *cp)
{
	free(cp->rows);
	cp->rows = NULL;
	cp->n = cp->i = 0;
	gpuhist_chars_free(&cp->chars);
}

void gh_chars_per_figures(struct gh_report *rep, struct gh_block *b,
			  uint64_t bytes_read, uint64_t counted)
{
	snprintf(rep->per_title, sizeof(rep->per_title), "%-20s %s",
		 "interval", "bin");
	b->title = rep->per_title;
	b->label_max = (int)sizeof(((struct gh_chars_per *)0)->label);
	b->share_of = counted;
	b->figure_width = 15;
	b->rows_key = "bins";
	b->rows_break = true;
	gh_block_figure(b, "bytes read", NULL, gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, "chars counted", NULL, gh_cell_u64(NULL, counted));
	gh_block_figure(b, NULL, "view", gh_cell_name(NULL, "chars"));
	gh_block_figure(b, NULL, "per",
			gh_cell_u64(NULL, (uint64_t)rep->opts->lib.per));
	gh_block_figure(b, NULL, "bytes_read", gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, NULL, "counted", gh_cell_u64(NULL, counted));
}
