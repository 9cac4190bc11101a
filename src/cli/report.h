/* report.h - printing results: table, tsv, csv or json, one block an input */
#ifndef GH_REPORT_H
#define GH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuhist.h"
#include "options.h"
#include "token_runs.h"
#include "view.h"

struct gh_report {
	FILE *out;
	bool headed;                    /* the head is printed */
	enum gh_format format;
	const struct gh_view *view;
	int several;                /* maybe more than one operand: each
				     * table block names its input */
	enum gh_sort sort;
	int top;                    /* 0: every bin */
	enum gh_total_mode total_mode;
	uint64_t n_inputs;          /* reported so far, failed ones too */
	int n_printed;
	uint64_t total[256];
	const struct gh_options *opts;
	bool chars;                 /* -m: rows of code points (charview.c) */
	struct gpuhist_chars total_chars;
	bool stats;                 /* --stats: ent's figures (stats.c) */
	struct gpuhist_stream total_stream;     /* the inputs' sums */
	bool tokens;                /* -t, --lines, --field: token rows */
	char key_names[GPUHIST_FIELDS_MAX][24];  /* --field=1,9: its
				     * columns, "field1", "field9" */
	char fields_json[16 * GPUHIST_FIELDS_MAX];     /* "[1, 9]" */
	char per_title[64 + 12 * GH_QUANTILES_MAX];     /* --per beside a
				     * view: the table's "interval  token" */
	bool values_per;            /* --values per interval: the tokens'
				     * rows (a field's, grouped by
				     * interval) read as numbers an interval
				     * at a time (report_values_per.c) */
	bool bytes_per;             /* --per beside -b, -c or -w: the
				     * tokens' rows (bytes, grouped by
				     * interval) folded into the view's bins
				     * an interval at a time
				     * (report_bytes_per.c) */
	bool chars_per;             /* --per beside -m: the tokens' rows
				     * (a character each, grouped by
				     * interval) as -m's code points an
				     * interval at a time
				     * (report_chars_per.c) */
	uint64_t per_counted;       /* ... the bytes their bins count; or
				     * the fields of --values per interval
				     * read back (--merge) */
	bool values;                /* --values: a field's numbers
				     * (report_values.c), not its tokens */
	gpuhist_values *values_total;   /* ... the inputs' added up */
	gpuhist_token_sum *sum;     /* ... and the inputs' added for the
				     * total */
	char total_error[512];      /* why the total's tokens cannot be
				     * added up (said once), or "" */
	struct gh_token_runs *runs; /* a block's rows sorted on disk */
	char block_error[512];      /* why a block's rows cannot be had */
	bool in_total;              /* the total's block is being printed */
	/* json of one input: the total's rows are the input's, kept as
	 * printed in an unlinked file and printed again, not added up into
	 * the sum and sorted a second time (report_tokens.c). */
	bool replay_wanted;
	FILE *replay;
	char *replay_mem;               /* its bytes, where it is in memory */
	size_t replay_mem_len;
	uint64_t replay_tokens, replay_distinct, replay_other;
	int replay_has_other;
	bool total_stream_known;    /* every input's were */
	char run_error[1024];       /* why the run failed as a whole */
	bool failed;                /* a block could not be printed (said) */
	bool ndjson;                /* json's entries, a line each */
	bool snapshot;              /* --follow's: one block of the totals so
				     * far, no total after it */
	FILE *line_out;             /* ndjson: the real output while an entry
				     * is written to line (a memory stream) */
	char *line;
	size_t line_len;
};

void gh_report_begin(struct gh_report *rep, FILE *out,
		     const struct gh_options *opts, const struct gh_view *view);

/* The rows a block of the bytes views shows: the --top commonest bins
 * (ties in bin order), or all of them, in the order --sort asks, and the
 * rest summed into one row named GH_OTHER, a name no bin has. */
struct gh_bin_rows {
	int n;                          /* rows of bins */
	int bin[GH_VIEW_MAX_BINS];      /* each row's bin */
	uint64_t count[GH_VIEW_MAX_BINS + 1];   /* each row's, then other's */
	bool other;                     /* a GH_OTHER row follows them */
};

void gh_bin_rows_arrange(const struct gh_report *rep, const uint64_t bins[],
			 struct gh_bin_rows *r);
/* Row i's table label and machine name. */
const char *gh_bin_rows_label(const struct gh_report *rep,
			      const struct gh_bin_rows *r, int i);
const char *gh_bin_rows_name(const struct gh_report *rep,
			     const struct gh_bin_rows *r, int i);
/* One input's 256 exact totals (and with -m its code points, with
 * --stats its stream sums, NULL when not known, with a tokens view its
 * tokens); also added into the
 * total (with --total=only, that is all, but in json).  0, or -1 when out
 * of memory for the rows (said). */
int gh_report_input(struct gh_report *rep, const char *name,
		    const uint64_t totals[256],
		    const struct gpuhist_chars *chars,
		    const struct gpuhist_stream *stream,
		    const struct gpuhist_tokens *tokens);
/* The values view's input: its numbers (and bytes read), counted or read
 * back by --merge (gh_report_input goes here with --values).  0, or -1
 * (said). */
int gh_report_values_input(struct gh_report *rep, const char *name,
			   uint64_t bytes_read, gpuhist_values *values);
/* An input that failed, with the lines printed for it ("gpuhist: NAME:
 * reason"; NULL when there were none): json gives it an entry with its
 * "error" and no counts; the other formats show nothing of it. */
void gh_report_failed(struct gh_report *rep, const char *name,
		      const char *lines);
/* The run failed as a whole (a list of names that cannot be read, no
 * thread to count with): json's document says why in a top-level
 * "error", which --merge refuses, as it refuses an input's; the first
 * reason is kept. */
void gh_report_run_failed(struct gh_report *rep, const char *why);
/* The total block, as --total says (auto: when there were several
 * inputs); json always has its "total", which --merge reads. */
void gh_report_end(struct gh_report *rep);

/* Shannon entropy of a byte distribution, in bits per byte. */
double gh_entropy(const uint64_t totals[256]);

#endif
