/* stats.c - ent's figures (the library's gpuhist_ent_of) as ent prints
 * them: its report, its -t row, and json's (as cells, block.h)
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "block.h"
#include "stats.h"

static void put_report(FILE *out, const struct gpuhist_ent *st)
{
	fprintf(out, "\nEntropy = %f bits per byte.\n", st->entropy);
	fprintf(out, "\nOptimum compression would reduce the size\n");
	fprintf(out, "of this %" PRIu64 " byte file by %d percent.\n\n",
		st->bytes, st->compression);
	fprintf(out, "Chi square distribution for %" PRIu64
		" samples is %1.2f, and randomly\n", st->bytes, st->chi_square);
	if (st->chi_square_p < 0.0001)
		fprintf(out, "would exceed this value less than 0.01 percent of the times.\n\n");
	else if (st->chi_square_p > 0.9999)
		/* sic: ent's words */
		fprintf(out, "would exceed this value more than than 99.99 percent of the times.\n\n");
	else
		fprintf(out, "would exceed this value %1.2f percent of the times.\n\n",
			st->chi_square_p * 100);
	fprintf(out, "Arithmetic mean value of data bytes is %1.4f (127.5 = random).\n",
		st->mean);
	if (!st->stream) {
		fprintf(out, "Monte Carlo value for Pi is not known (no stream sums in the merged results).\n");
		fprintf(out, "Serial correlation coefficient is not known (no stream sums in the merged results).\n");
		return;
	}
	fprintf(out, "Monte Carlo value for Pi is %1.9f (error %1.2f percent).\n",
		st->pi, st->pi_error);
	if (st->serial_defined)
		fprintf(out, "Serial correlation coefficient is %1.6f (totally uncorrelated = 0.0).\n",
			st->serial);
	else
		fprintf(out, "Serial correlation coefficient is undefined (all values equal!).\n");
}

static char *report_text(const struct gpuhist_ent *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	put_report(f, st);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

const char *const gh_stats_columns[GH_STATS_COLUMNS] = {
	"File-bytes", "Entropy", "Chi-square", "Mean", "Monte-Carlo-Pi",
	"Serial-Correlation",
};

static void row_cells(const struct gpuhist_ent *st, struct gh_cell *cells)
{
	cells[0] = gh_cell_u64(NULL, st->bytes);
	cells[1] = gh_cell_fix(NULL, "%f", st->entropy);
	cells[2] = gh_cell_fix(NULL, "%f", st->chi_square);
	cells[3] = gh_cell_fix(NULL, "%f", st->mean);
	/* Not known: an empty field.  ent -t's own sentinel otherwise. */
	cells[4] = st->stream ? gh_cell_fix(NULL, "%f", st->pi)
			      : gh_cell_none(NULL);
	cells[5] = !st->stream ? gh_cell_none(NULL)
		   : gh_cell_fix(NULL, "%f", st->serial_defined ? st->serial
								: -100000.0);
}

static struct gh_cell json_object(const struct gpuhist_ent *st,
				  struct gh_cell *cells)
{
	size_t n = 0;

	/* A figure that is not a number is null (GH_CELL_FIX). */
	cells[n++] = gh_cell_fix("entropy", "%.6f", st->entropy);
	cells[n++] = gh_cell_fix("chi_square", "%.6f", st->chi_square);
	cells[n++] = gh_cell_fix("chi_square_p", "%.6f",
				 st->chi_square_p * 100);
	cells[n++] = gh_cell_fix("mean", "%.6f", st->mean);
	if (st->stream) {
		cells[n++] = gh_cell_fix("pi", "%.9f", st->pi);
		cells[n++] = gh_cell_fix("pi_error", "%.6f", st->pi_error);
		cells[n++] = gh_cell_fix("serial_correlation", "%.6f",
					 st->serial_defined ? st->serial : NAN);
		cells[n++] = gh_cell_u64("pairs", st->sums.pairs);
		cells[n++] = gh_cell_u64("groups", st->sums.groups);
		cells[n++] = gh_cell_u64("hits", st->sums.hits);
	} else {
		cells[n++] = gh_cell_none("pi");
		cells[n++] = gh_cell_none("pi_error");
		cells[n++] = gh_cell_none("serial_correlation");
	}
	return (struct gh_cell){ .kind = GH_CELL_OBJECT, .key = "stats",
				 .cells = cells, .len = n };
}

int gh_stats_figures_of(struct gh_stats_figures *s, const uint64_t totals[256],
			const struct gpuhist_stream *stream)
{
	gpuhist_ent_of(totals, stream, &s->st);
	s->report = report_text(&s->st);
	return s->report ? 0 : -1;
}

void gh_stats_figures_free(struct gh_stats_figures *s)
{
	free(s->report);
	s->report = NULL;
}

void gh_stats_report_figure(struct gh_stats_figures *s, struct gh_block *b)
{
	gh_block_figure(b, NULL, NULL, gh_cell_lit(NULL, s->report));
}

void gh_stats_json_figure(struct gh_stats_figures *s, struct gh_block *b)
{
	struct gh_figure *f = gh_block_figure(b, NULL, "stats",
					      json_object(&s->st, s->cells));

	f->json_break = f->after_rows = true;
}

int gh_stats_row(const struct gh_stats_figures *s, struct gh_row *row)
{
	row->n_cells = GH_STATS_COLUMNS;
	row_cells(&s->st, row->cell);
	return 1;
}
