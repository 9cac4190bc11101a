/* report.c - printing results: table, tsv, csv, json or ndjson, one block an input
 *
 * Machine formats name bins by their view names (byte bins by decimal
 * value) and always carry exact integers; json adds the 256-value
 * histogram so that results can be merged exactly later, and marks an
 * input that failed with an entry of its name and error alone, so that a
 * merge can tell a partial result from a whole one.  Nothing here
 * depends on the locale: the program never calls setlocale().
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "charview.h"
#include "fields.h"
#include "msg.h"
#include "report.h"
#include "report_chars.h"
#include "report_tokens.h"
#include "report_values.h"
#include "report_values_per.h"
#include "stats.h"

double gh_entropy(const uint64_t totals[256])
{
	uint64_t n = 0;
	double h = 0.0;

	for (int c = 0; c < 256; c++)
		n += totals[c];
	if (!n)
		return 0.0;
	for (int c = 0; c < 256; c++) {
		if (!totals[c])
			continue;
		double p = (double)totals[c] / (double)n;
		h -= p * log2(p);
	}
	return h;
}

/* *to += v, or true (and nothing added) where that would pass 2^64-1. */
static bool add_past_64(uint64_t *to, uint64_t v)
{
	if (*to > UINT64_MAX - v)
		return true;
	*to += v;
	return false;
}

static uint64_t sum256(const uint64_t totals[256])
{
	uint64_t n = 0;

	for (int c = 0; c < 256; c++)
		n += totals[c];
	return n;
}

void gh_bin_rows_arrange(const struct gh_report *rep, const uint64_t bins[],
			 struct gh_bin_rows *r)
{
	int n = rep->view->n_bins;

	bool by_count = rep->sort == GH_SORT_COUNT;

	/* Most frequent first, ties in bin order (a stable insertion): --top
	 * keeps the commonest whatever the order they are shown in. */
	for (int i = 0; i < n; i++) {
		int j = i;

		if (by_count || rep->top)
			for (; j > 0 && bins[r->bin[j - 1]] < bins[i]; j--)
				r->bin[j] = r->bin[j - 1];
		r->bin[j] = i;
	}
	r->n = rep->top && rep->top < n ? rep->top : n;
	r->other = r->n < n;
	r->count[r->n] = 0;
	for (int i = r->n; i < n; i++)
		r->count[r->n] += bins[r->bin[i]];
	if (!by_count)                  /* the kept ones in bin order */
		for (int i = 1; i < r->n; i++) {
			int b = r->bin[i], j = i;

			for (; j > 0 && r->bin[j - 1] > b; j--)
				r->bin[j] = r->bin[j - 1];
			r->bin[j] = b;
		}
	for (int i = 0; i < r->n; i++)
		r->count[i] = bins[r->bin[i]];
}

const char *gh_bin_rows_label(const struct gh_report *rep,
			      const struct gh_bin_rows *r, int i)
{
	return i < r->n ? rep->view->label[r->bin[i]] : GH_OTHER;
}

const char *gh_bin_rows_name(const struct gh_report *rep,
			     const struct gh_bin_rows *r, int i)
{
	return i < r->n ? rep->view->name[r->bin[i]] : GH_OTHER;
}

/* The bytes view's block (report.c's rows of a gh_view's bins), for
 * block.c. */
struct bytes_block {
	const struct gh_report *rep;
	struct gh_bin_rows r;
	int i;
	struct gh_row_facts facts;      /* --columns */
	const struct gh_stats_figures *st;      /* --stats: ent's row in
						 * tsv, csv */
};

static int bytes_start(void *ctx, enum gh_rows_of which)
{
	((struct bytes_block *)ctx)->i = 0;
	(void)which;
	return 0;
}

static int bytes_next(void *ctx, enum gh_rows_of which, struct gh_row *row)
{
	struct bytes_block *bb = ctx;
	const struct gh_report *rep = bb->rep;
	const struct gh_bin_rows *r = &bb->r;
	int i = bb->i;

	if (which == GH_ROWS_MACHINE && bb->st)     /* ent -t's row */
		return bb->i++ ? 0 : gh_stats_row(bb->st, row);
	if (i >= r->n + r->other)
		return 0;
	bb->i++;
	row->label = gh_cell_str(NULL, gh_bin_rows_label(rep, r, i));
	row->count = r->count[i];
	/* 256 mostly empty rows would hide the shape: skip zero bytes. */
	row->hidden = rep->view->kind == GH_VIEW_BYTES && !r->count[i] &&
		      i < r->n;
	row->unscaled = i >= r->n;      /* bars: the bins shown */
	row->cell[0] = which == GH_ROWS_JSON &&
		       rep->view->kind == GH_VIEW_BYTES && i < r->n
		       ? gh_cell_lit("bin", gh_bin_rows_name(rep, r, i))
		       : gh_cell_name("bin", gh_bin_rows_name(rep, r, i));
	row->cell[1] = gh_cell_u64("count", r->count[i]);
	row->n_cells = 2;
	if (which == GH_ROWS_MACHINE) {
		bb->facts.count = r->count[i];
		bb->facts.label = gh_bin_rows_label(rep, r, i);
		row->n_cells += gh_columns_cells(&rep->opts->columns,
						 &bb->facts, row->cell + 2);
	}
	return 1;
}

static const struct gh_rows_ops bytes_rows = { bytes_start, bytes_next };

/* One input's (or the total's) block of the bytes view; 0, or -1 when
 * out of memory (nothing written). */
static int bytes_block(struct gh_report *rep, const char *name,
		       const uint64_t totals[256],
		       const struct gpuhist_stream *stream, bool named)
{
	uint64_t bins[GH_VIEW_MAX_BINS];
	struct bytes_block bb = { .rep = rep };
	struct gh_block b = {
		.name = name, .named = named, .title = "bin",
		.figure_width = 15, .rows_key = "bins", .rows_break = true,
		.ops = &bytes_rows, .ctx = &bb,
	};
	struct gh_stats_figures st = { .report = NULL };
	uint64_t counted = gh_view_fold(rep->view, totals, bins);
	int ret;

	gh_bin_rows_arrange(rep, bins, &bb.r);
	bb.facts.counted = b.share_of = counted;
	bb.facts.bytes_read = sum256(totals);
	bb.facts.entropy = gh_entropy(totals);
	if (rep->stats) {
		bb.st = &st;
		if (gh_stats_figures_of(&st, totals, stream)) {
			gh_stats_figures_free(&st);
			return -1;
		}
	}
	gh_block_figure(&b, "bytes read", NULL, gh_cell_u64(NULL,
							     bb.facts.bytes_read));
	gh_block_figure(&b, "bytes counted", NULL, gh_cell_u64(NULL, counted));
	gh_block_figure(&b, "entropy", NULL,
			gh_cell_fix(NULL, "%.6f bits per byte",
				    bb.facts.entropy));
	if (rep->stats)
		gh_stats_report_figure(&st, &b);
	gh_block_figure(&b, NULL, "bytes_read",
			gh_cell_u64(NULL, bb.facts.bytes_read));
	gh_block_figure(&b, NULL, "counted", gh_cell_u64(NULL, counted));
	gh_block_figure(&b, NULL, "entropy",
			gh_cell_fix(NULL, "%.6f", bb.facts.entropy));
	struct gh_figure *f = gh_block_figure(&b, NULL, "histogram",
		(struct gh_cell){ .kind = GH_CELL_ARRAY, .array = totals,
				  .len = 256 });

	f->json_break = f->after_rows = true;
	if (rep->stats)
		gh_stats_json_figure(&st, &b);
	ret = gh_block_write(rep->out, rep->format, rep->n_printed > 0, &b);
	gh_stats_figures_free(&st);
	return ret;
}

void gh_report_begin(struct gh_report *rep, FILE *out,
		     const struct gh_options *opts, const struct gh_view *view)
{
	memset(rep, 0, sizeof(*rep));
	rep->out = out;
	rep->format = opts->format;
	rep->view = view;
	rep->several = opts->n_operands > 1 || opts->files0_from;
	rep->total_mode = opts->total;
	rep->sort = opts->sort;
	rep->top = opts->top;
	rep->opts = opts;
	rep->chars = opts->chars && !opts->chars_per;
	/* --values per interval: rows of the tokens, read as numbers. */
	rep->values_per = opts->values && opts->lib.per;
	rep->values = opts->values && !rep->values_per;
	rep->bytes_per = opts->bytes_per;
	rep->chars_per = opts->chars_per;
	rep->tokens = opts->lib.tokens != GPUHIST_TOKENS_NONE && !rep->values;
	if (rep->values_per)
		rep->top = 0;
	/* (--per beside a bytes view or -m writes its histograms or chars
	 * from the rows after them: its total is printed from its tokens
	 * kept) */
	rep->replay_wanted = rep->tokens && rep->format == GH_FMT_JSON &&
			     !rep->several && !rep->bytes_per &&
			     !rep->chars_per;
	gpuhist_chars_init(&rep->total_chars);
	rep->stats = opts->stats;
	rep->total_stream_known = true;
	rep->ndjson = opts->ndjson;
}

/* ndjson: an entry is written to memory, then as one line (json's
 * entries break lines only between tokens, never inside a string).
 * Without memory for it, it is written as it is. */
static void line_begin(struct gh_report *rep)
{
	FILE *m;

	if (!rep->ndjson)
		return;
	rep->line = NULL;
	m = open_memstream(&rep->line, &rep->line_len);
	if (!m)
		return;
	rep->line_out = rep->out;
	rep->out = m;
}

/* Writes the entry as a line, `first` (if any) put after its '{'. */
static void line_end(struct gh_report *rep, const char *first)
{
	if (!rep->ndjson)
		return;
	if (rep->line_out) {
		fclose(rep->out);
		rep->out = rep->line_out;
		rep->line_out = NULL;
		for (size_t i = 0; rep->line && i < rep->line_len; i++) {
			if (rep->line[i] == '\n') {     /* and its indent */
				while (i + 1 < rep->line_len &&
				       rep->line[i + 1] == ' ')
					i++;
				fputc(' ', rep->out);
				continue;
			}
			fputc(rep->line[i], rep->out);
			if (!i && first)
				fputs(first, rep->out);
		}
		free(rep->line);
		rep->line = NULL;
	}
	fputc('\n', rep->out);
}

/* json: the separator before an entry of "inputs" (none in ndjson). */
static void entry_sep(struct gh_report *rep)
{
	if (!rep->ndjson)
		fputs(rep->n_printed ? ",\n  " : "\n  ", rep->out);
}

/* The head of the output, with the first input reported (or at the end):
 * a run that cannot count at all after it began (--backend=gpu whose GPU
 * did not start) then prints nothing. */
static void head(struct gh_report *rep)
{
	static const char *const values[] = { "low", "high", "count" };
	const char *cols[GH_ROW_CELLS + GH_COLUMNS_MAX] = { "bin", "count" };

	if (rep->headed)
		return;
	rep->headed = true;
	if (rep->format == GH_FMT_JSON && !rep->ndjson)
		fputs("{\"inputs\": [", rep->out);
	if (rep->format != GH_FMT_TSV && rep->format != GH_FMT_CSV)
		return;
	if (rep->values)
		gh_block_head(rep->out, rep->format, values, 3);
	else if (rep->values_per)
		gh_block_head(rep->out, rep->format, cols,
			      gh_values_per_columns(rep->opts, cols));
	else if (rep->tokens)
		gh_block_head(rep->out, rep->format, cols,
			      gh_report_tokens_columns(rep, cols));
	else if (rep->stats)
		gh_block_head(rep->out, rep->format, gh_stats_columns,
			      GH_STATS_COLUMNS);
	else
		gh_block_head(rep->out, rep->format, cols,
			      2 + gh_columns_names(&rep->opts->columns,
						   cols + 2));
}

/* One input's values: added into the total, and its block printed. */
static int values_block(struct gh_report *rep, const char *name,
			uint64_t bytes_read, gpuhist_values *v)
{
	rep->n_inputs++;
	if (!rep->total_error[0]) {
		if (!rep->values_total)
			rep->values_total =
				gpuhist_values_new(rep->opts->precision);
		if (!rep->values_total ||
		    gpuhist_values_merge(rep->values_total, v)) {
			snprintf(rep->total_error, sizeof(rep->total_error),
				 "the total's values: %s", rep->values_total
				 ? gpuhist_values_message(rep->values_total)
				 : "out of memory");
			gh_msg("%s", rep->total_error);
			rep->failed = true;
		}
	}
	if (rep->total_mode == GH_TOTAL_ONLY && rep->format != GH_FMT_JSON)
		return 0;
	if (rep->format == GH_FMT_JSON) {
		entry_sep(rep);
		line_begin(rep);
	}
	int failed = gh_report_values(rep, name, bytes_read, v, rep->several);

	if (rep->format == GH_FMT_JSON)
		line_end(rep, NULL);
	if (failed) {
		gh_msg("out of memory for the rows of %s", name);
		rep->failed = true;
		return -1;
	}
	rep->n_printed++;
	fflush(rep->out);
	return 0;
}

int gh_report_values_input(struct gh_report *rep, const char *name,
			   uint64_t bytes_read, gpuhist_values *values)
{
	head(rep);
	if (add_past_64(&rep->total[0], bytes_read)) {
		gh_msg("the inputs' bytes read add up to more than 2^64-1");
		rep->failed = true;
		return -1;
	}
	return values_block(rep, name, bytes_read, values);
}

int gh_report_input(struct gh_report *rep, const char *name,
		    const uint64_t totals[256],
		    const struct gpuhist_chars *chars,
		    const struct gpuhist_stream *stream,
		    const struct gpuhist_tokens *tokens)
{
	if (rep->values) {
		/* Its field's numbers: reported as --merge reports them. */
		char why[600];
		gpuhist_values *v = gh_report_values_of(rep, name, tokens, why,
							sizeof(why));
		int ret = v ? gh_report_values_input(rep, name, sum256(totals),
						     v)
			    : -1;

		if (!v) {       /* said; json's entry says why */
			gh_report_failed(rep, name, why);
			rep->failed = true;
		}
		gpuhist_values_free(v);
		return ret;
	}
	head(rep);
	/* A tokens result read back (--merge) brings its bytes read alone,
	 * unchecked against the results before it. */
	if (rep->tokens && sum256(rep->total) > UINT64_MAX - sum256(totals)) {
		static const char why[] =
			"the inputs' bytes read add up to more than 2^64-1";
		char line[GH_MSG_LINE];

		gh_msg("%s: %s", name, why);
		snprintf(line, sizeof(line), "%s: %s\n", name, why);
		gh_report_failed(rep, name, line);
		rep->failed = true;
		return -1;
	}
	for (int c = 0; c < 256; c++)
		rep->total[c] += totals[c];
	if (!stream) {
		rep->total_stream_known = false;
	} else if (rep->total_stream_known &&
		   (add_past_64(&rep->total_stream.pairs, stream->pairs) ||
		    add_past_64(&rep->total_stream.groups, stream->groups) ||
		    add_past_64(&rep->total_stream.hits, stream->hits))) {
		gh_msg("the inputs' --stats sums add up to more than 2^64-1: the total's pi and serial correlation are not known");
		rep->total_stream_known = false;
	}
	if (rep->chars && gpuhist_chars_merge(&rep->total_chars, chars)) {
		gh_msg("out of memory for the total's code points");
		return -1;
	}
	rep->n_inputs++;
	/* A total that cannot be added up fails the run (said), but this
	 * input is counted, and reported. */
	if (rep->tokens && gh_report_tokens_keep(rep, tokens))
		rep->failed = true;
	/* json keeps every entry: --merge checks the total against them. */
	if (rep->total_mode == GH_TOTAL_ONLY && rep->format != GH_FMT_JSON)
		return 0;
	if (rep->format == GH_FMT_JSON) {
		entry_sep(rep);
		line_begin(rep);
	}
	int failed = rep->tokens
		     ? gh_report_tokens(rep, name, sum256(totals), tokens,
					rep->several)
		     : rep->chars
		     ? gh_report_chars(rep, name, stream, totals, chars,
				       rep->several)
		     : bytes_block(rep, name, totals, stream, rep->several);

	if (rep->format == GH_FMT_JSON)
		line_end(rep, NULL);
	if (failed) {
		if (!rep->tokens)       /* report_tokens.c says why */
			gh_msg("out of memory for the rows of %s", name);
		rep->failed = true;
		if (failed > 0)         /* json's entry says why */
			rep->n_printed++;
		return -1;
	}
	rep->n_printed++;
	fflush(rep->out);
	return 0;
}

/* The reason of an input's failure: what its message says after
 * "NAME: " (or "gpuhist: NAME: "), from the lines said of it. */
static void failure_reason(const char *name, const char *lines, char *out,
			   size_t len)
{
	const char *prog = GH_PROGNAME ": ", *pick = NULL;
	size_t name_len = strlen(name);

	for (const char *l = lines, *end; l && *l; l = end ? end + 1 : NULL) {
		end = strchr(l, '\n');
		if (!strncmp(l, prog, strlen(prog)))
			l += strlen(prog);
		if (!strncmp(l, name, name_len) &&
		    !strncmp(l + name_len, ": ", 2)) {
			pick = l + name_len + 2;
			break;
		}
		if (!pick)
			pick = l;       /* no line names it: the first */
	}
	if (!pick || !*pick || *pick == '\n')
		pick = "failed";
	snprintf(out, len, "%.*s", (int)strcspn(pick, "\n"), pick);
}

void gh_report_failed(struct gh_report *rep, const char *name,
		      const char *lines)
{
	char reason[1024];

	head(rep);
	rep->n_inputs++;
	if (rep->format != GH_FMT_JSON)
		return;
	failure_reason(name, lines, reason, sizeof(reason));
	entry_sep(rep);
	fputs("{\"name\": ", rep->out);
	gh_put_json_string(rep->out, name);
	fputs(", \"error\": ", rep->out);
	gh_put_json_string(rep->out, reason);
	fputs("}", rep->out);
	if (rep->ndjson)
		fputc('\n', rep->out);
	rep->n_printed++;
	fflush(rep->out);
}

void gh_report_run_failed(struct gh_report *rep, const char *why)
{
	if (!rep->run_error[0])
		snprintf(rep->run_error, sizeof(rep->run_error), "%s",
			 why && *why ? why : "failed");
}

/* Ends json's document: the run's error, if any, then the brace; in
 * ndjson, the error is a line of its own. */
static void json_close(struct gh_report *rep)
{
	if (rep->ndjson) {
		if (rep->run_error[0]) {
			fputs("{\"error\": ", rep->out);
			gh_put_json_string(rep->out, rep->run_error);
			fputs("}\n", rep->out);
		}
		return;
	}
	if (rep->run_error[0]) {
		fputs(",\n \"error\": ", rep->out);
		gh_put_json_string(rep->out, rep->run_error);
	}
	fputs("}\n", rep->out);
}

/* A total that cannot be had (said): json's total is an entry with its
 * error. */
static void total_error_entry(struct gh_report *rep)
{
	rep->failed = true;
	if (rep->format != GH_FMT_JSON)
		return;
	fputs("{\"name\": \"total\", ", rep->out);
	if (rep->ndjson)
		fputs("\"total\": true, ", rep->out);
	fputs("\"error\": ", rep->out);
	gh_put_json_string(rep->out, rep->total_error);
	fputs(rep->ndjson ? "}\n" : "}", rep->out);
}

/* The values view's total block, as gh_report_end's for tokens. */
static void values_end(struct gh_report *rep, bool total)
{
	bool json = rep->format == GH_FMT_JSON;

	if (json && !rep->ndjson)
		fputs("],\n \"total\": ", rep->out);
	if (!rep->total_error[0] && !rep->values_total)     /* no inputs */
		rep->values_total = gh_report_values_of(rep, "total", NULL,
							NULL, 0);
	if (!rep->values_total && !rep->total_error[0])
		snprintf(rep->total_error, sizeof(rep->total_error),
			 "the total's values: out of memory");
	if (rep->total_error[0]) {
		total_error_entry(rep);
	} else if (total || json) {
		if (json)
			line_begin(rep);
		if (gh_report_values(rep, "total", sum256(rep->total),
				     rep->values_total, 1)) {
			gh_msg("out of memory for the rows of the total");
			rep->failed = true;
		}
		if (json)
			line_end(rep, "\"total\": true, ");
	}
	gpuhist_values_free(rep->values_total);
	rep->values_total = NULL;
	if (json)
		json_close(rep);
}

void gh_report_end(struct gh_report *rep)
{
	const struct gpuhist_stream *stream =
		rep->total_stream_known ? &rep->total_stream : NULL;
	bool total = rep->total_mode == GH_TOTAL_ALWAYS ||
		     rep->total_mode == GH_TOTAL_ONLY ||
		     (rep->total_mode == GH_TOTAL_AUTO && rep->n_inputs > 1);

	head(rep);
	if (rep->snapshot) {
		gpuhist_values_free(rep->values_total);
		rep->values_total = NULL;
		gh_report_tokens_total_free(rep);
		gpuhist_chars_free(&rep->total_chars);
		return;
	}
	if (rep->values) {
		values_end(rep, total);
		return;
	}
	if (rep->tokens) {
		bool json = rep->format == GH_FMT_JSON;
		const struct gpuhist_tokens *tk =
			gh_report_tokens_total(rep, total || json);

		if (json && !rep->ndjson)
			fputs("],\n \"total\": ", rep->out);
		if (rep->total_error[0]) {
			total_error_entry(rep);
		} else if (tk) {
			if (json)
				line_begin(rep);
			rep->in_total = true;
			if (rep->replay ? gh_report_tokens_replay(rep, "total",
							sum256(rep->total))
			    : gh_report_tokens(rep, "total", sum256(rep->total),
					       tk, 1))
				rep->failed = true;     /* said */
			rep->in_total = false;
			if (json)
				line_end(rep, "\"total\": true, ");
		}
		gh_report_tokens_total_free(rep);
		if (json)
			json_close(rep);
		return;
	}
	/* The bytes view, or -m's */
	bool json = rep->format == GH_FMT_JSON;
	int failed = 0;

	if (json && !rep->ndjson)
		fputs("],\n \"total\": ", rep->out);
	if (json)
		line_begin(rep);
	if (total || json)
		failed = rep->chars
			 ? gh_report_chars(rep, "total", stream, rep->total,
					   &rep->total_chars, 1)
			 : bytes_block(rep, "total", rep->total, stream, true);
	if (json)
		line_end(rep, "\"total\": true, ");
	if (failed)
		gh_msg("out of memory for the rows of the total");
	if (json)
		json_close(rep);
	gpuhist_chars_free(&rep->total_chars);
}
