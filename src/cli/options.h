/* options.h - the command line, parsed once into one struct */
#ifndef GH_OPTIONS_H
#define GH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "columns.h"
#include "gpuhist.h"

enum gh_view_kind { GH_VIEW_LETTERS, GH_VIEW_BYTES, GH_VIEW_CLASSES };
enum gh_format { GH_FMT_TABLE, GH_FMT_TSV, GH_FMT_CSV, GH_FMT_JSON };
enum gh_progress_mode { GH_PROGRESS_AUTO, GH_PROGRESS_ON, GH_PROGRESS_OFF };
/* --sort: the bins in the view's order, or most frequent first. */
enum gh_sort { GH_SORT_BIN, GH_SORT_COUNT };
/* --total, as coreutils wc: a total with several inputs, always, alone,
 * or never. */
enum gh_total_mode { GH_TOTAL_AUTO, GH_TOTAL_ALWAYS, GH_TOTAL_ONLY,
		     GH_TOTAL_NEVER };

/* --quantiles: the percentiles --values reports, as given ("99.9") and as
 * fractions (0.999). */
#define GH_QUANTILES_MAX 32

/* The table's rows an interval of --per beside another view (--top). */
#define GH_PER_TOP 10

/* --include and --exclude-dir: globs of each at most. */
#define GH_GLOBS_MAX 32
struct gh_quantiles {
	int n;
	double q[GH_QUANTILES_MAX];
	char name[GH_QUANTILES_MAX][24];    /* "p99.9" */
};

struct gh_options {
	struct gpuhist_options lib;     /* what the library counts with:
					 * --backend, --device(s),
					 * --chunk-size, --streams, --threads,
					 * --raw, -v */
	enum gh_view_kind view;
	int width;                  /* letters per bucket, 1..26 */
	bool ignore_case;
	bool chars;                 /* -m: code points (with -c: their
				     * categories; with -i: case-folded) */
	bool stats;                 /* -s: ent's figures besides the view */
	bool values;                /* --values: lib's field read as numbers */
	bool bytes_per;             /* --per beside -b, -c or -w: lib's tokens
				     * are each interval's bytes */
	bool chars_per;             /* --per beside -m: lib's tokens are
				     * each interval's characters */
	bool sort_set;              /* --sort was given */
	double precision;           /* --precision, percent (0: 1) */
	struct gh_quantiles quantiles;
	enum gh_format format;
	bool ndjson;                /* -f ndjson: json's entries, a line each */
	bool merge;                 /* operands are -f json results */
	bool follow;                /* --follow: a growing file */
	double interval;            /* --interval, seconds (0: 5) */
	int verbose;
	enum gh_progress_mode progress;
	enum gh_sort sort;          /* -m's table: count unless --sort */
	int top;                    /* --top: bins kept, the rest as "other";
				     * 0: every bin */
	enum gh_total_mode total;
	struct gh_columns columns;  /* --columns: tsv and csv's extra columns */
	const char *files0_from;    /* --files0-from: NUL-separated names */
	/* Reading a directory: --include's globs (files whose base name
	 * matches one; none: every file), --exclude-dir's (directories not
	 * read). */
	const char *include[GH_GLOBS_MAX];
	int n_include;
	const char *exclude_dir[GH_GLOBS_MAX];
	int n_exclude_dir;
	char **operands;            /* never empty: "-" when none given
				     * (and none with files0_from) */
	int n_operands;
};

enum gh_parse_result {
	GH_PARSE_RUN,
	GH_PARSE_HELP,              /* --help: print gh_options_help() */
	GH_PARSE_VERSION,           /* --version: print the version */
	GH_PARSE_USAGE,             /* a usage error, said unless quiet */
};

/* Fills opts from the command line.  A usage error is said on stderr,
 * with a hint, unless quiet (an MPI rank other than the first, which says
 * it for all). */
enum gh_parse_result gh_options_parse(int argc, char **argv,
				      struct gh_options *opts, bool quiet);

/* What a tokens view sets where the command line did not: --sort=count,
 * the table's top 20, --memory's default (a view --merge adopts too). */
void gh_options_tokens_defaults(struct gh_options *opts);

/* The library's tokens_top: --top's where one input's rows are its
 * commonest alone (and nothing sums its tokens), else 0. */
void gh_options_one_top(struct gh_options *opts);

/* --values' defaults where the command line gave none (the quantiles);
 * also for a view --merge adopts from its first result. */
void gh_options_values_defaults(struct gh_options *opts);

/* --help's text, on stdout. */
void gh_options_help(void);

#endif
