/* report_tokens.c - the tokens view's blocks: rows and figures (block.h)
 *
 * Tokens are byte strings, shown escaped in the table, tsv and csv and
 * exactly in json (block.c's top says how).
 *
 * The library gives each input's tokens in no order: they are shown most
 * frequent first (equal counts in byte order), or with --sort=bin in byte
 * order; --top=N keeps the N commonest (found without sorting the rest)
 * and sums the rest in a row (other).  Tokens that outgrew --memory come
 * in parts: --top's commonest are kept across them, and every row is
 * shown by sorting each part into a run on disk and merging the runs
 * (token_runs.c).  The total adds every input's tokens into a
 * gpuhist_token_sum, which spills as an input's counts do; but json of
 * one input keeps that input's rows as it prints them, in an unlinked
 * file in the spill directory, and prints them again as the total's, so
 * that they are neither held nor sorted twice.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "block.h"
#include "fields.h"
#include "group_sort.h"
#include "msg.h"
#include "report_tokens.h"
#include "report_bytes_per.h"
#include "report_chars_per.h"
#include "report_values_per.h"
#include "token_order.h"
#include "token_runs.h"

/* An interval's label, "2026-11-27T10:00:00Z" (--per); and the most
 * intervals without lines shown (with 0) between two with lines. */
#define GH_PER_LABEL 20
#define GH_PER_GAP_MAX 100000

/* Widest label column of a table; a longer token is shown on a line of
 * its own, its counts below it. */
#define LABEL_MAX 40

/* The order rows are merged in when they did not fit in memory. */
static int by_count(const struct gpuhist_token *a, const struct gpuhist_token *b)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return gh_by_bytes(a, b);
}

static int by_bytes_order(const struct gpuhist_token *a,
			  const struct gpuhist_token *b)
{
	return gh_by_bytes(a, b);
}

static int by_group(const struct gpuhist_token *a,
		    const struct gpuhist_token *b)
{
	struct gpuhist_token x = { a->bytes, gh_group_len(a), 0 };
	struct gpuhist_token y = { b->bytes, gh_group_len(b), 0 };

	return gh_by_bytes(&x, &y);
}

/* Interval by interval (in time order: labels sort as their times do),
 * each interval's tokens most frequent first. */
static int by_group_count(const struct gpuhist_token *a,
			  const struct gpuhist_token *b)
{
	int c = by_group(a, b);

	return c ? c : by_count(a, b);
}

/* Whether t is of the interval in group (its bytes, no tab). */
static bool of_group(const struct gpuhist_token *t,
		     const struct gpuhist_token *group)
{
	return t->len > group->len && t->bytes[group->len] == '\t' &&
	       !memcmp(t->bytes, group->bytes, group->len);
}

/* A row's interval copied into group (whose bytes hold GROUP_MAX: a
 * label is 20), as a token of its own. */
#define GROUP_MAX 32

static void keep_group(const struct gpuhist_token *t,
		       struct gpuhist_token *group)
{
	size_t n = gh_group_len(t);

	group->len = n < GROUP_MAX ? n : GROUP_MAX;
	if (group->len)
		memcpy((unsigned char *)group->bytes, t->bytes, group->len);
}


/* Whether the tokens are another view's grouped by interval (--per
 * beside -t, --lines, --field or --key). */
static bool grouped(const struct gh_report *rep)
{
	return rep->opts->lib.per &&
	       rep->opts->lib.tokens != GPUHIST_TOKENS_PER;
}

/* The rows of a block: an array in memory, or runs merged from disk. */
struct rows {
	const struct gpuhist_token *array;
	size_t n, i;
	struct gh_token_runs *runs;
};

static int rows_start(struct rows *r)
{
	r->i = 0;
	return r->runs ? gh_token_runs_start(r->runs) : 0;
}

/* How many rows ahead of the one written rows_next prefetches. */
#define ROWS_AHEAD 8

/* 1 with the next row in *t, 0 after the last, -1 (said). */
static int rows_next(struct rows *r, struct gpuhist_token *t)
{
	int got;

	if (!r->runs) {
		if (r->i == r->n)
			return 0;
		/* The rows' bytes lie anywhere, and each is read once to be
		 * written: read ahead. */
		if (r->i + ROWS_AHEAD < r->n)
			__builtin_prefetch(r->array[r->i + ROWS_AHEAD].bytes);
		*t = r->array[r->i++];
		return 1;
	}
	got = gh_token_runs_next(r->runs, t);
	if (got < 0)
		gh_msg("%s", gh_token_runs_error(r->runs));
	return got;
}


/* The --top commonest, kept across parts (their bytes copied). */
struct best {
	size_t top;
	int threads;                /* --threads, for picking the top */
	struct gpuhist_token *t;
	size_t n;
};

static void free_best(struct best *b)
{
	for (size_t i = 0; i < b->n; i++)
		free((void *)b->t[i].bytes);
	free(b->t);
	b->t = NULL;
	b->n = 0;
}

/* Keeps the commonest of b's and those of a part. */
static int keep_best(void *ctx, const struct gpuhist_tokens *part)
{
	struct best *b = ctx;
	size_t n = part->distinct < b->top ? part->distinct : b->top;
	struct gh_sort_key *keys = gh_best_keys(part->token, part->distinct, n,
						 b->threads);
	struct gpuhist_token *t = realloc(b->t, (b->n + n + 1) * sizeof(*t));

	if (!keys || !t) {
		free(keys);
		if (t)
			b->t = t;
		return -1;
	}
	b->t = t;
	for (size_t i = 0; i < n; i++) {
		unsigned char *copy = malloc(keys[i].t->len ? keys[i].t->len : 1);

		if (!copy) {
			free(keys);
			return -1;
		}
		if (keys[i].t->len)
			memcpy(copy, keys[i].t->bytes, keys[i].t->len);
		b->t[b->n++] = (struct gpuhist_token){ copy, keys[i].t->len,
						       keys[i].t->count };
	}
	free(keys);
	if (b->n <= b->top)
		return 0;
	/* Down to top again: the rest let go. */
	keys = gh_keys_of(b->t, b->n);
	t = malloc(b->top * sizeof(*t));
	if (!keys || !t) {
		free(keys);
		free(t);
		return -1;
	}
	gh_select_first(keys, b->n, b->top);
	for (size_t i = 0; i < b->n; i++)
		if (i >= b->top)
			free((void *)keys[i].t->bytes);
	for (size_t i = 0; i < b->top; i++)
		t[i] = *keys[i].t;
	free(keys);
	free(b->t);
	b->t = t;
	b->n = b->top;
	return 0;
}

/* Keeps why a block's rows cannot be had (the first reason), which
 * gh_report_tokens says naming the block. */
__attribute__((format(printf, 2, 3)))
static void rows_failed(struct gh_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->block_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rep->block_error, sizeof(rep->block_error), fmt, ap);
	va_end(ap);
}

/* Sorts a part as its rows are shown and writes it as a run. */
static int sort_part(void *ctx, const struct gpuhist_tokens *part)
{
	struct gh_report *rep = ctx;
	struct gh_sort_key *keys = gh_keys_of(part->token, part->distinct);
	struct gpuhist_token *t = malloc((part->distinct ? part->distinct : 1) *
					 sizeof(*t));
	int ret = -1;

	if (keys && t) {
		if (grouped(rep) && rep->sort != GH_SORT_BIN) {
			memcpy(t, part->token, part->distinct * sizeof(*t));
		} else {
			gh_sort_keys(keys, part->distinct,
				     rep->sort != GH_SORT_BIN,
				     rep->opts->lib.threads);
			for (size_t i = 0; i < part->distinct; i++)
				t[i] = *keys[i].t;
		}
		if (rep->sort != GH_SORT_BIN && grouped(rep) &&
		    gh_group_sort(t, part->distinct, GH_GROUP_COUNT)) {
			rows_failed(rep, "out of memory for the rows of the tokens");
			free(keys);
			free(t);
			return -1;
		}
		ret = gh_token_runs_add(rep->runs, t, part->distinct);
		if (ret)
			rows_failed(rep, "%s", gh_token_runs_error(rep->runs));
	} else {
		rows_failed(rep, "out of memory for the rows of the tokens");
	}
	free(keys);
	free(t);
	return ret;
}

/* The rows shown (*owned: an array the caller frees, with its bytes when
 * *copied), with --top's remainder in *other; -1 when out of memory or
 * the tokens could not be read back or sorted (said). */
static int arrange(struct gh_report *rep, const struct gpuhist_tokens *tk,
		   struct rows *rows, struct best *owned, uint64_t *other,
		   int *has_other)
{
	uint64_t shown = 0;
	size_t n;

	/* Intervals: every row sorted, --top applied to each interval's as
	 * they are shown (tokens_next). */
	size_t top = grouped(rep) ? 0 : (size_t)rep->top;

	*rows = (struct rows){ 0 };
	*owned = (struct best){ .top = top,
				.threads = rep->opts->lib.threads };
	*has_other = top && top < tk->distinct;
	*other = 0;
	if (!tk->token && !top) {
		/* Every row, more than memory holds: sorted on disk. */
		gh_token_runs_free(rep->runs);
		rep->runs = gh_token_runs_new(rep->opts->lib.temporary_directory,
					      rep->sort == GH_SORT_BIN
					      ? by_bytes_order
					      : grouped(rep) ? by_group_count
					      : by_count);
		if (!rep->runs) {
			rows_failed(rep, "out of memory for the rows of the tokens");
			return -1;
		}
		/* Within --memory while merging, as while counting. */
		gh_token_runs_budget(rep->runs, rep->opts->lib.memory / 2);
		int ret = gpuhist_tokens_each(tk, sort_part, rep);

		if (ret > 0)
			rows_failed(rep, "%s", gpuhist_tokens_message(tk));
		if (ret)
			return -1;
		rows->runs = rep->runs;
		return 0;
	}
	if (tk->token && grouped(rep)) {
		/* Intervals: every row, sorted once interval by interval
		 * (--values per interval: in no order within each). */
		owned->t = malloc((tk->distinct ? tk->distinct : 1) *
				  sizeof(*owned->t));
		if (!owned->t) {
			rows_failed(rep, "out of memory for the rows of the tokens");
			return -1;
		}
		memcpy(owned->t, tk->token, tk->distinct * sizeof(*owned->t));
		owned->top = 0;         /* the bytes are the result's */
		owned->n = tk->distinct;
		bool by_group = rep->values_per || rep->bytes_per ||
				rep->chars_per;

		if (rep->sort == GH_SORT_BIN && !by_group)
			qsort(owned->t, owned->n, sizeof(*owned->t), gh_by_bytes);
		else if (gh_group_sort(owned->t, owned->n, by_group
				       ? GH_GROUP_ONLY : GH_GROUP_COUNT)) {
			free(owned->t);
			owned->t = NULL;
			rows_failed(rep, "out of memory for the rows of the tokens");
			return -1;
		}
		rows->array = owned->t;
		rows->n = owned->n;
		return 0;
	}
	struct gh_sort_key *keys;

	if (!tk->token) {
		/* The --top commonest of each part, then of those. */
		int ret = gpuhist_tokens_each(tk, keep_best, owned);

		if (ret > 0)
			rows_failed(rep, "%s", gpuhist_tokens_message(tk));
		else if (ret)
			rows_failed(rep, "out of memory for the rows of the tokens");
		if (ret) {
			free_best(owned);
			return -1;
		}
		n = owned->n;
		keys = gh_keys_of(owned->t, n);
	} else {
		/* A pick of the commonest (a device's or the host's):
		 * tk->listed of them. */
		size_t have = tk->listed ? tk->listed : tk->distinct;

		n = *has_other ? (size_t)rep->top : have;
		if (n > have)
			n = have;
		keys = gh_best_keys(tk->token, have, n,
				    rep->opts->lib.threads);
		owned->top = 0;         /* the bytes are the result's */
	}
	if (!keys) {
		rows_failed(rep, "out of memory for the rows of the tokens");
		return -1;
	}
	/* Only what is shown is sorted, in the order shown: --sort=bin's
	 * is the bytes'. */
	gh_sort_keys(keys, n, rep->sort != GH_SORT_BIN,
		     rep->opts->lib.threads);
	struct gpuhist_token *sorted = malloc((n ? n : 1) * sizeof(*sorted));

	if (!sorted) {
		free(keys);
		rows_failed(rep, "out of memory for the rows of the tokens");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		sorted[i] = *keys[i].t;
		shown += sorted[i].count;
	}
	free(keys);
	free(owned->t);
	owned->t = sorted;
	owned->n = n;
	*other = tk->total - shown;
	rows->array = sorted;
	rows->n = n;
	return 0;
}

/* --per beside another view with --top: what the rows past each
 * interval's top add up to, read through once; 0, or -1 (the rows could
 * not be read back). */
static int group_cut(struct gh_report *rep, struct rows *rows,
		     uint64_t *other, int *has_other)
{
	unsigned char label[GROUP_MAX];
	struct gpuhist_token t, group = { label, 0, 0 };
	uint64_t rank = 0;
	int got;

	*other = 0;
	*has_other = 0;
	if (rows_start(rows))
		return -1;
	while ((got = rows_next(rows, &t)) > 0) {
		if (!rank || !of_group(&t, &group)) {
			rank = 0;
			keep_group(&t, &group);
		}
		if (++rank > (uint64_t)rep->top) {
			*other += t.count;
			*has_other = 1;
		}
	}
	return got;
}

/* The tokens view's block, for block.c: its rows, then --top's other
 * row (the table's and tsv's; json's is a figure). */
struct tokens_block {
	struct rows *rows;
	uint64_t other;
	int has_other;
	bool ended, other_done;
	struct gpuhist_token t;
	/* A key of several fields: its columns' names, and the table's
	 * label (the key with a space for each tab that joins it). */
	const struct gh_report *rep;
	const char *names[GPUHIST_FIELDS_MAX + 1];      /* a key's columns */
	bool not_json;              /* the key view: \xff is a line that is
				     * not JSON */
	int n_key;
	unsigned char *label;
	size_t label_cap;
	/* --per: the intervals between two with lines, shown with 0 but in
	 * json (whose rows --merge adds up) */
	long long per;
	long long expect;           /* the next interval's start */
	bool have_expect, pending;  /* pending: t is yet to be shown */
	char gap[GH_PER_LABEL + 1];
	/* --per beside another view: rows interval by interval, --top of
	 * each (top, 0: all), the rows past it summed (cut) into an other
	 * row at the interval's end */
	bool grouped;
	uint64_t top, rank, cut;
	unsigned char group_bytes[GROUP_MAX];
	struct gpuhist_token group;
	char other_label[GROUP_MAX + 32];
	/* --values per interval: each interval's numbers, read into v */
	bool values_per, in_group;
	gpuhist_values *v;
	struct gh_values_per_text *text;
	/* --per beside a bytes view: each interval's bins, in bp, shown
	 * (showing) before the next interval's rows are read */
	bool bytes_per, showing;
	struct gh_bytes_per bp;
	/* ... beside -m: each interval's characters, in cp */
	bool chars_per;
	struct gh_chars_per cp;
	/* ... and json's "histograms" after the rows: each interval's 256
	 * byte totals, read from the rows again */
	struct gpuhist_token hist_t;
	bool hist_pending, hist_ended, hist_failed;
	uint64_t hist[256];
	char hist_key[GROUP_MAX + 1];
	/* ... and beside -m, "chars": each interval's code points */
	struct gh_chars_per hist_cp;
	struct gh_options raw;      /* -m's names, unfolded */
	char char_key[32];
};

/* A key's columns, "field1", "field9", into cols; how many. */
static int key_columns(struct gh_report *rep, const char **cols)
{
	const struct gpuhist_options *lib = &rep->opts->lib;
	int n = lib->n_fields;

	for (int i = 0; i < n; i++) {
		snprintf(rep->key_names[i], sizeof(rep->key_names[i]),
			 "field%d", lib->fields[i]);
		cols[i] = rep->key_names[i];
	}
	return n;
}

int gh_report_tokens_columns(struct gh_report *rep, const char **cols)
{
	int n = 0;

	if (grouped(rep))
		cols[n++] = "interval";
	if (rep->bytes_per || rep->chars_per)
		cols[n++] = "bin";
	else if (rep->opts->lib.n_fields > 1)
		n += key_columns(rep, cols + n);
	else
		cols[n++] = rep->opts->lib.tokens == GPUHIST_TOKENS_PER
			    ? "interval" : "token";
	cols[n++] = "count";
	return n;
}

/* A key's row: a cell a field, split at the join byte (no field holds
 * it); 1, or -1 when out of memory for the table's label. */
static int key_row(struct tokens_block *tb, struct gh_row *row)
{
	const struct gpuhist_options *lib = &tb->rep->opts->lib;
	unsigned char join = lib->separator < 0 ? '\t'
			     : (unsigned char)lib->separator;
	const unsigned char *p = tb->t.bytes, *end = p + tb->t.len;
	const char *const *names = tb->names;

	for (int i = 0; i < tb->n_key; i++) {
		const unsigned char *at = i < tb->n_key - 1
			? memchr(p, join, (size_t)(end - p)) : NULL;
		const unsigned char *to = at ? at : end;

		row->cell[i] = (struct gh_cell){ .kind = GH_CELL_BYTES,
						 .key = names[i], .bytes = p,
						 .len = (size_t)(to - p) };
		p = at ? at + 1 : end;
	}
	row->cell[tb->n_key] = gh_cell_u64("count", tb->t.count);
	row->n_cells = tb->n_key + 1;
	if (join == '\t') {
		if (tb->t.len > tb->label_cap) {
			unsigned char *l = realloc(tb->label, tb->t.len);

			if (!l)
				return -1;
			tb->label = l;
			tb->label_cap = tb->t.len;
		}
		for (size_t i = 0; i < tb->t.len; i++)
			tb->label[i] = tb->t.bytes[i] == '\t'
				       ? ' ' : tb->t.bytes[i];
		row->label.bytes = tb->label;
	}
	return 1;
}

/* An interval's label ("2026-11-27T10:00:00Z") as its start, in seconds
 * since 1970; false for any other token ("(no time)"). */
static bool per_start(const unsigned char *p, size_t len, long long *t)
{
	char text[GH_PER_LABEL + 1], z;
	struct tm tm = { 0 };
	int n = 0;

	if (len != GH_PER_LABEL)
		return false;
	memcpy(text, p, len);
	text[len] = '\0';
	if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year,
		   &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		   &tm.tm_sec, &z, &n) != 7 || n != GH_PER_LABEL || z != 'Z')
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*t = (long long)timegm(&tm);
	return true;
}

/* The label of the interval that starts at t. */
static void per_label(long long t, char out[GH_PER_LABEL + 1])
{
	time_t tt = (time_t)t;
	struct tm tm;

	/* The year in four digits, as the library writes it (0999). */
	if (!gmtime_r(&tt, &tm) || tm.tm_year + 1900 < 0 ||
	    tm.tm_year + 1900 > 9999)
		snprintf(out, GH_PER_LABEL + 1, "(no time)");
	else {
		char text[64];

		snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02dZ",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
		memcpy(out, text, GH_PER_LABEL);        /* 20 in years 0-9999 */
		out[GH_PER_LABEL] = '\0';
	}
}

/* --per: before the row in tb->t, an interval with no lines (1), or
 * none (0, and the row is shown next). */
static int gap_row(struct tokens_block *tb, struct gh_row *row)
{
	long long t;

	if (!per_start(tb->t.bytes, tb->grouped ? gh_group_len(&tb->t)
						: tb->t.len, &t))
		return 0;
	/* A gap of more intervals than that is not filled (a stray
	 * timestamp years away would make millions of rows). */
	if (tb->have_expect && t > tb->expect &&
	    (t - tb->expect) / tb->per <= GH_PER_GAP_MAX) {
		per_label(tb->expect, tb->gap);
		tb->expect += tb->per;
		row->label = gh_cell_str("interval", tb->gap);
		row->count = 0;
		row->unscaled = false;
		row->cell[0] = row->label;
		row->cell[1] = gh_cell_u64("count", 0);
		if (tb->values_per)
			gh_values_per_row(tb->rep->opts,
					  (const unsigned char *)tb->gap,
					  strlen(tb->gap), NULL, GH_ROWS_TABLE,
					  tb->text, row);
		else if (tb->grouped) {
			/* An interval without tokens: its columns empty. */
			int n = tb->n_key ? tb->n_key : 1;

			for (int i = 0; i < n; i++)
				row->cell[1 + i] = gh_cell_str(
					tb->n_key ? tb->names[i]
					: tb->bytes_per || tb->chars_per
					? "bin" : "token",
					"");
			row->cell[1 + n] = gh_cell_u64("count", 0);
			row->n_cells = n + 2;
		}
		return 1;
	}
	tb->expect = t + tb->per;
	tb->have_expect = true;
	return 0;
}

/* Room for the table's label of len bytes; false when out of memory. */
static bool label_room(struct tokens_block *tb, size_t len)
{
	if (len > tb->label_cap) {
		unsigned char *l = realloc(tb->label, len);

		if (!l)
			return false;
		tb->label = l;
		tb->label_cap = len;
	}
	return true;
}

/* --per beside another view: the row of tb->t, its interval, then its
 * token or key's fields; 1, or -1 when out of memory for the label. */
static int grouped_row(struct tokens_block *tb, enum gh_rows_of which,
		       struct gh_row *row)
{
	const struct gpuhist_options *lib = &tb->rep->opts->lib;
	unsigned char join = lib->separator < 0 ? '\t'
			     : (unsigned char)lib->separator;
	size_t glen = gh_group_len(&tb->t);
	const unsigned char *p = tb->t.bytes + glen, *end = tb->t.bytes +
							 tb->t.len;
	int n = tb->n_key ? tb->n_key : 1;
	bool not_json;

	if (p < end)
		p++;                    /* the tab after the interval */
	not_json = tb->not_json && end - p == 1 && *p == 0xff;
	row->cell[0] = (struct gh_cell){ .kind = GH_CELL_BYTES,
					 .key = "interval",
					 .bytes = tb->t.bytes, .len = glen };
	for (int i = 0; i < n; i++) {
		const unsigned char *at = i < n - 1
			? memchr(p, join, (size_t)(end - p)) : NULL;
		const unsigned char *to = at ? at : end;

		row->cell[1 + i] = (struct gh_cell){
			.kind = GH_CELL_BYTES,
			.key = tb->n_key ? tb->names[i] : "token",
			.bytes = p, .len = (size_t)(to - p) };
		p = at ? at + 1 : end;
	}
	row->cell[1 + n] = gh_cell_u64("count", tb->t.count);
	row->n_cells = n + 2;
	row->count = tb->t.count;
	row->unscaled = false;
	/* The table's label: the interval, a space, the token (the tabs
	 * that join a key shown as spaces). */
	if (which != GH_ROWS_TABLE)
		return 1;
	if (not_json || (!tb->n_key && row->cell[1].len == 0)) {
		/* The table's words for a line not JSON, and an empty
		 * token (as the view's own table shows them). */
		snprintf(tb->other_label, sizeof(tb->other_label), "%.*s %s",
			 (int)(glen < GROUP_MAX ? glen : GROUP_MAX),
			 (const char *)tb->t.bytes,
			 not_json ? "(not JSON)" : "\"\"");
		row->label = gh_cell_str("token", tb->other_label);
		return 1;
	}
	if (!label_room(tb, tb->t.len))
		return -1;
	for (size_t i = 0; i < tb->t.len; i++)
		tb->label[i] = tb->t.bytes[i] == '\t' ? ' ' : tb->t.bytes[i];
	row->label = (struct gh_cell){ .kind = GH_CELL_BYTES, .key = "token",
				       .bytes = tb->label,
				       .len = tb->t.len };
	return 1;
}

/* The other row of the interval in tb->group: what its rows past --top
 * add up to. */
static int group_other_row(struct tokens_block *tb, struct gh_row *row)
{
	int n = tb->n_key ? tb->n_key : 1;

	snprintf(tb->other_label, sizeof(tb->other_label), "%.*s %s",
		 (int)tb->group.len, (const char *)tb->group.bytes, GH_OTHER);
	row->label = gh_cell_str("token", tb->other_label);
	row->count = tb->cut;
	row->unscaled = true;
	row->cell[0] = (struct gh_cell){ .kind = GH_CELL_BYTES,
					 .key = "interval",
					 .bytes = tb->group.bytes,
					 .len = tb->group.len };
	for (int i = 0; i < n; i++)
		row->cell[1 + i] = gh_cell_str(tb->n_key ? tb->names[i]
							 : "token",
					       i ? "" : GH_OTHER);
	row->cell[1 + n] = gh_cell_u64("count", tb->cut);
	row->n_cells = n + 2;
	tb->cut = 0;
	return 1;
}

/* --per beside another view: the next row, interval by interval, each
 * interval's past --top summed into its other row (not json's: its
 * "other" figure sums them all), the intervals without tokens between
 * shown (but in json). */
static int grouped_next(struct tokens_block *tb, enum gh_rows_of which,
			struct gh_row *row)
{
	for (;;) {
		int got = tb->ended ? 0 : tb->pending ? 1
			  : rows_next(tb->rows, &tb->t);

		if (got < 0)
			return -1;
		tb->pending = false;
		row->hidden = row->unscaled = false;
		if (!got) {
			tb->ended = true;
			if (tb->cut && which != GH_ROWS_JSON)
				return group_other_row(tb, row);
			return 0;
		}
		if (!tb->rank || !of_group(&tb->t, &tb->group)) {
			tb->pending = true;     /* tb->t comes after these */
			if (tb->cut && which != GH_ROWS_JSON)
				return group_other_row(tb, row);
			tb->cut = 0;
			if (which != GH_ROWS_JSON && gap_row(tb, row))
				return 1;
			tb->pending = false;
			keep_group(&tb->t, &tb->group);
			tb->rank = 0;
		}
		if (tb->top && tb->rank >= tb->top) {
			tb->cut += tb->t.count;
			continue;
		}
		tb->rank++;
		return grouped_row(tb, which, row);
	}
}

/* --values per interval: the row of the interval in tb->group, whose
 * numbers tb->v holds. */
static int interval_values_row(struct tokens_block *tb,
			       enum gh_rows_of which, struct gh_row *row)
{
	gh_values_per_row(tb->rep->opts, tb->group.bytes, tb->group.len,
			  tb->v, which, tb->text, row);
	tb->in_group = false;
	return 1;
}

/* --values per interval: the next interval's row, its numbers read from
 * its rows (the interval's field tokens), the intervals without lines
 * between shown (but in json); -1 when out of memory (said). */
static int values_per_next(struct tokens_block *tb, enum gh_rows_of which,
			   struct gh_row *row)
{
	for (;;) {
		int got = tb->ended ? 0 : tb->pending ? 1
			  : rows_next(tb->rows, &tb->t);

		if (got < 0)
			return -1;
		if (!got) {
			tb->ended = true;
			return tb->in_group
			       ? interval_values_row(tb, which, row) : 0;
		}
		if (tb->in_group && !of_group(&tb->t, &tb->group)) {
			tb->pending = true;     /* the next interval's */
			return interval_values_row(tb, which, row);
		}
		if (!tb->in_group) {
			tb->pending = true;
			if (which != GH_ROWS_JSON && gap_row(tb, row))
				return 1;
			keep_group(&tb->t, &tb->group);
			gpuhist_values_free(tb->v);
			tb->v = gpuhist_values_new(tb->rep->opts->precision);
			if (!tb->v) {
				gh_msg("out of memory for an interval's values");
				return -1;
			}
			tb->in_group = true;
		}
		tb->pending = false;
		size_t glen = gh_group_len(&tb->t);
		size_t skip = glen < tb->t.len ? glen + 1 : glen;

		/* --merge: the units gpuhist_merge_json made of the
		 * results' buckets and summaries; else fields' texts. */
		int added = tb->rep->opts->merge
			    ? gpuhist_values_add_merged(tb->v,
							tb->t.bytes + skip,
							tb->t.len - skip,
							tb->t.count, NULL)
			    : gpuhist_values_add(tb->v, tb->t.bytes + skip,
						 tb->t.len - skip,
						 tb->t.count);

		if (added == -2) {
			gh_msg("an interval's numbers read back are not the library's units");
			return -1;
		}
		if (added < 0) {
			gh_msg("%s", gpuhist_values_message(tb->v));
			return -1;
		}
	}
}

/* --per beside a bytes view or -m: the next row, interval by interval,
 * each interval's bins added up from its rows (a byte or a character
 * each), then shown; the intervals without lines between shown (but not
 * in json). */
static int folded_per_next(struct tokens_block *tb, enum gh_rows_of which,
			   struct gh_row *row)
{
	for (;;) {
		if (tb->showing) {
			if (tb->chars_per
			    ? gh_chars_per_row(&tb->cp, tb->group.bytes,
					       tb->group.len, which, row)
			    : gh_bytes_per_row(&tb->bp, tb->group.bytes,
					       tb->group.len, which, row))
				return 1;
			tb->showing = false;
		}
		int got = tb->ended ? 0 : tb->pending ? 1
			  : rows_next(tb->rows, &tb->t);

		if (got < 0)
			return -1;
		row->hidden = row->unscaled = false;
		if (!got || (tb->in_group && !of_group(&tb->t, &tb->group))) {
			tb->ended = !got;
			tb->pending = got;      /* the next interval's */
			if (!tb->in_group)
				return 0;
			if (!tb->chars_per)
				gh_bytes_per_arrange(&tb->bp);
			else if (gh_chars_per_arrange(&tb->cp))
				return -1;
			tb->in_group = false;
			tb->showing = true;
			continue;
		}
		if (!tb->in_group) {
			tb->pending = true;
			if (which != GH_ROWS_JSON && gap_row(tb, row))
				return 1;
			keep_group(&tb->t, &tb->group);
			tb->in_group = true;
		}
		tb->pending = false;
		size_t glen = gh_group_len(&tb->t);
		size_t skip = glen < tb->t.len ? glen + 1 : glen;

		if (!tb->chars_per)
			gh_bytes_per_add(&tb->bp, tb->t.bytes + skip,
					 tb->t.len - skip, tb->t.count);
		else if (gh_chars_per_add(&tb->cp, tb->t.bytes + skip,
					  tb->t.len - skip, tb->t.count))
			return -1;
	}
}

/* json's "chars" of an interval beside -m: its code point at *i or
 * after, as -m's json names it ("U+0041", "0xc3"), pages of none skipped
 * whole. */
static int interval_char(const void *ctx, size_t *i, struct gh_cell *out)
{
	struct tokens_block *tb = (struct tokens_block *)ctx;
	const struct gpuhist_chars *chars = &tb->hist_cp.chars;

	for (; *i < GPUHIST_CHAR_BINS; (*i)++) {
		const uint64_t *page = chars->page[*i / GPUHIST_CHAR_PAGE];

		if (!page) {
			*i = (*i / GPUHIST_CHAR_PAGE + 1) * GPUHIST_CHAR_PAGE - 1;
			continue;
		}
		if (!page[*i % GPUHIST_CHAR_PAGE])
			continue;
		gh_charview_name(&tb->raw, (uint32_t)*i, tb->char_key,
				 sizeof(tb->char_key));
		*out = gh_cell_u64(tb->char_key, page[*i % GPUHIST_CHAR_PAGE]);
		return 1;
	}
	return 0;
}

/* json's "histograms" of --per beside a bytes view: the member at *i,
 * the next interval's 256 byte totals keyed by its label (block.c asks
 * for them in order, from 0, after the rows); 0 after the last, or when
 * the rows cannot be read again (hist_failed, said).  Whatever view the
 * bins were folded into, these let --merge add results up exactly.
 * Beside -m, its "chars": the interval's code points, an object of them
 * (interval_char), whatever -i or -c folded. */
static int histogram_member(const void *ctx, size_t *i, struct gh_cell *out)
{
	struct tokens_block *tb = (struct tokens_block *)ctx;
	bool any = false;

	if (*i == 0) {
		tb->hist_pending = tb->hist_ended = false;
		if (rows_start(tb->rows)) {
			gh_msg("%s", gh_token_runs_error(tb->rows->runs));
			tb->hist_failed = true;
		}
	}
	if (tb->hist_failed || tb->hist_ended)
		return 0;
	memset(tb->hist, 0, sizeof(tb->hist));
	gpuhist_chars_free(&tb->hist_cp.chars);
	for (;;) {
		int got = tb->hist_pending ? 1
			  : rows_next(tb->rows, &tb->hist_t);
		size_t glen;

		if (got < 0)
			tb->hist_failed = true;
		if (got <= 0) {
			tb->hist_ended = true;
			break;
		}
		glen = gh_group_len(&tb->hist_t);
		if (any && (glen != strlen(tb->hist_key) ||
			    memcmp(tb->hist_t.bytes, tb->hist_key, glen))) {
			tb->hist_pending = true;        /* the next one's */
			break;
		}
		tb->hist_pending = false;
		if (!any) {
			size_t n = glen < GROUP_MAX ? glen : GROUP_MAX;

			memcpy(tb->hist_key, tb->hist_t.bytes, n);
			tb->hist_key[n] = '\0';
			any = true;
		}
		size_t skip = glen < tb->hist_t.len ? glen + 1 : glen;

		if (tb->chars_per) {
			if (gh_chars_per_add(&tb->hist_cp,
					     tb->hist_t.bytes + skip,
					     tb->hist_t.len - skip,
					     tb->hist_t.count))
				tb->hist_failed = true;         /* said */
		} else if (tb->hist_t.len == glen + 2) {
			tb->hist[tb->hist_t.bytes[glen + 1]] +=
				tb->hist_t.count;
		}
	}
	if (!any || tb->hist_failed)
		return 0;
	if (tb->chars_per)
		*out = (struct gh_cell){ .kind = GH_CELL_OBJECT,
					 .key = tb->hist_key,
					 .member = interval_char, .ctx = tb };
	else
		*out = (struct gh_cell){ .kind = GH_CELL_ARRAY,
					 .key = tb->hist_key,
					 .array = tb->hist, .len = 256 };
	return 1;
}

static int tokens_start(void *ctx, enum gh_rows_of which)
{
	struct tokens_block *tb = ctx;

	tb->ended = tb->other_done = false;
	tb->have_expect = tb->pending = false;
	tb->rank = tb->cut = 0;
	tb->in_group = tb->showing = false;
	memset(tb->bp.totals, 0, sizeof(tb->bp.totals));
	gh_chars_per_free(&tb->cp);
	(void)which;
	if (!rows_start(tb->rows))
		return 0;
	gh_msg("%s", gh_token_runs_error(tb->rows->runs));      /* as next */
	return -1;
}

static int tokens_next(void *ctx, enum gh_rows_of which, struct gh_row *row)
{
	struct tokens_block *tb = ctx;

	if (tb->values_per)
		return values_per_next(tb, which, row);
	if (tb->bytes_per || tb->chars_per)
		return folded_per_next(tb, which, row);
	if (tb->grouped)
		return grouped_next(tb, which, row);

	int got = tb->ended ? 0 : tb->pending ? 1
		  : rows_next(tb->rows, &tb->t);

	if (got < 0)
		return -1;
	row->hidden = false;
	row->n_cells = 2;
	tb->pending = false;
	if (got && tb->per && which != GH_ROWS_JSON && gap_row(tb, row)) {
		tb->pending = true;     /* tb->t comes after the gap */
		return 1;
	}
	if (got) {
		row->label = (struct gh_cell){ .kind = GH_CELL_BYTES,
					       .key = which != GH_ROWS_JSON &&
						      tb->rep->opts->lib.tokens ==
						      GPUHIST_TOKENS_PER
						      ? "interval" : "token",
					       .bytes = tb->t.bytes,
					       .len = tb->t.len };
		row->count = tb->t.count;
		row->unscaled = false;
		row->cell[0] = row->label;
		row->cell[1] = gh_cell_u64("count", tb->t.count);
		/* The table says what \xff of the key view stands for. */
		if (which == GH_ROWS_TABLE && tb->not_json &&
		    tb->t.len == 1 && tb->t.bytes[0] == 0xff)
			row->label = gh_cell_str("token", "(not JSON)");
		return tb->n_key ? key_row(tb, row) : 1;
	}
	tb->ended = true;
	if (!tb->has_other || tb->other_done || which == GH_ROWS_JSON)
		return 0;
	tb->other_done = true;
	row->label = gh_cell_str("token", GH_OTHER);
	row->count = tb->other;
	row->unscaled = true;
	row->cell[0] = row->label;
	row->cell[1] = gh_cell_u64("count", tb->other);
	if (tb->n_key) {
		/* The other row: its columns empty but the first. */
		for (int i = 1; i < tb->n_key; i++)
			row->cell[i] = gh_cell_str(NULL, "");
		row->cell[tb->n_key] = gh_cell_u64("count", tb->other);
		row->n_cells = tb->n_key + 1;
	}
	return 1;
}

static const struct gh_rows_ops tokens_rows = { tokens_start, tokens_next };

/* --per: where the time was read, for json (--merge adds up only
 * results whose times were read alike). */
static void time_figures(struct gh_block *b, const struct gpuhist_options *lib)
{
	if (lib->time_field)
		gh_block_figure(b, NULL, "time_field",
				gh_cell_u64(NULL, (uint64_t)lib->time_field));
	if (lib->time_key)
		gh_block_figure(b, NULL, "time_key",
				gh_cell_str(NULL, lib->time_key));
	if (lib->time_format)
		gh_block_figure(b, NULL, "time_format",
				gh_cell_str(NULL, lib->time_format));
}

/* --values per interval: the block's figures. */
static void values_per_figures(struct gh_report *rep, struct gh_block *b,
			       uint64_t bytes_read, uint64_t fields)
{
	const struct gpuhist_options *lib = &rep->opts->lib;

	gh_values_per_title(rep->opts, rep->per_title,
			    sizeof(rep->per_title));
	b->title = rep->per_title;
	b->label_max = (int)sizeof(rep->per_title);
	b->share_of = fields;
	b->figure_width = 17;
	b->rows_key = "intervals";
	b->rows_break = true;
	gh_block_figure(b, "bytes read", NULL, gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, "fields read", NULL, gh_cell_u64(NULL, fields));
	gh_block_figure(b, NULL, "view", gh_cell_name(NULL, "values"));
	if (lib->tokens == GPUHIST_TOKENS_KEY)
		gh_block_figure(b, NULL, "key", gh_cell_str(NULL, lib->key));
	else
		gh_block_figure(b, NULL, "field",
				gh_cell_u64(NULL, (uint64_t)lib->field));
	if (lib->separator >= 0)
		gh_block_figure(b, NULL, "separator",
				gh_cell_u64(NULL, (uint64_t)lib->separator));
	gh_block_figure(b, NULL, "per", gh_cell_u64(NULL, (uint64_t)lib->per));
	time_figures(b, lib);
	gh_block_figure(b, NULL, "bytes_read", gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, NULL, "fields", gh_cell_u64(NULL, fields));
	/* The buckets' precision, which --merge must read them at. */
	gpuhist_values *v = gpuhist_values_new(rep->opts->precision);
	struct gpuhist_values_summary s = { 0 };

	if (v)
		gpuhist_values_summary(v, &s);
	gpuhist_values_free(v);
	gh_block_figure(b, NULL, "sub_buckets",
			gh_cell_u64(NULL, (uint64_t)s.sub_buckets));
}

/* A block of the view with its figures (the rows: the caller's). */
static void tokens_figures(struct gh_report *rep, struct gh_block *b,
			   uint64_t bytes_read, uint64_t tokens,
			   uint64_t distinct, uint64_t other, int has_other)
{
	const struct gpuhist_options *lib = &rep->opts->lib;

	if (rep->values_per) {
		values_per_figures(rep, b, bytes_read, rep->opts->merge
						       ? rep->per_counted : tokens);
		return;
	}
	if (rep->bytes_per || rep->chars_per) {
		if (rep->bytes_per)
			gh_bytes_per_figures(rep, b, bytes_read,
					     rep->per_counted);
		else            /* each token a character */
			gh_chars_per_figures(rep, b, bytes_read, tokens);
		time_figures(b, lib);
		if (lib->separator >= 0)
			gh_block_figure(b, NULL, "separator",
					gh_cell_u64(NULL,
						    (uint64_t)lib->separator));
		return;
	}
	b->title = "token";
	b->label_max = LABEL_MAX;
	b->share_of = tokens;
	b->figure_width = 17;
	b->rows_key = "counts";
	b->rows_break = true;
	gh_block_figure(b, "bytes read", NULL, gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, "tokens counted", NULL, gh_cell_u64(NULL, tokens));
	gh_block_figure(b, "distinct tokens", NULL,
			gh_cell_u64(NULL, distinct));
	/* The view, so that --merge adds up only tokens of the same one. */
	gh_block_figure(b, NULL, "view",
			gh_cell_name(NULL, gpuhist_view_name(lib)));
	if (lib->n_fields > 1) {
		int len = snprintf(rep->fields_json, sizeof(rep->fields_json),
				   "[%d", lib->fields[0]);

		for (int i = 1; i < lib->n_fields; i++)
			len += snprintf(rep->fields_json + len,
					sizeof(rep->fields_json) - (size_t)len,
					", %d", lib->fields[i]);
		snprintf(rep->fields_json + len,
			 sizeof(rep->fields_json) - (size_t)len, "]");
		b->title = "key";
		gh_block_figure(b, NULL, "fields",
				gh_cell_lit(NULL, rep->fields_json));
		if (lib->separator >= 0)
			gh_block_figure(b, NULL, "separator",
					gh_cell_u64(NULL,
						    (uint64_t)lib->separator));
	} else if (lib->tokens == GPUHIST_TOKENS_PER) {
		b->title = "interval";
		gh_block_figure(b, NULL, "per",
				gh_cell_u64(NULL, (uint64_t)lib->per));
		time_figures(b, lib);
		if (lib->separator >= 0)
			gh_block_figure(b, NULL, "separator",
					gh_cell_u64(NULL,
						    (uint64_t)lib->separator));
	} else if (lib->tokens == GPUHIST_TOKENS_KEY) {
		b->title = lib->key;
		gh_block_figure(b, NULL, "key", gh_cell_str(NULL, lib->key));
	} else if (lib->tokens == GPUHIST_TOKENS_FIELD) {
		gh_block_figure(b, NULL, "field",
				gh_cell_u64(NULL, (uint64_t)lib->field));
		if (lib->separator >= 0)
			gh_block_figure(b, NULL, "separator",
					gh_cell_u64(NULL,
						    (uint64_t)lib->separator));
	}
	if (grouped(rep)) {
		/* The label column: the interval, then the token. */
		snprintf(rep->per_title, sizeof(rep->per_title), "%-*s %s",
			 GH_PER_LABEL, "interval", b->title);
		b->title = rep->per_title;
		b->label_max = GH_PER_LABEL + 1 + LABEL_MAX;
		gh_block_figure(b, NULL, "per",
				gh_cell_u64(NULL, (uint64_t)lib->per));
		time_figures(b, lib);
		if (lib->separator >= 0 &&
		    lib->tokens != GPUHIST_TOKENS_FIELD)
			gh_block_figure(b, NULL, "separator",
					gh_cell_u64(NULL,
						    (uint64_t)lib->separator));
	}
	gh_block_figure(b, NULL, "bytes_read", gh_cell_u64(NULL, bytes_read));
	gh_block_figure(b, NULL, "tokens", gh_cell_u64(NULL, tokens));
	gh_block_figure(b, NULL, "distinct", gh_cell_u64(NULL, distinct));
	if (has_other)
		gh_block_figure(b, NULL, "other",
				gh_cell_u64(NULL, other))->after_rows = true;
}

/* An unlinked file in the spill directory for the one input's rows, or
 * NULL. */
static FILE *replay_file(struct gh_report *rep)
{
	int fd = gh_unlinked_file(rep->opts->lib.temporary_directory,
				  "gpuhist-rows");
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* Closes the copy of the one input's rows, and frees its bytes where it
 * was in memory. */
static void replay_close(struct gh_report *rep)
{
	if (rep->replay)
		fclose(rep->replay);
	rep->replay = NULL;
	free(rep->replay_mem);
	rep->replay_mem = NULL;
	rep->replay_mem_len = 0;
}

/* The one input's rows go to the total the usual way after all: added
 * into the sum now. */
static void replay_given_up(struct gh_report *rep,
			    const struct gpuhist_tokens *tk)
{
	replay_close(rep);
	rep->replay_wanted = false;
	gh_report_tokens_keep(rep, tk);         /* said, if it fails */
}

/* What the rows stand for, every interval's, in *counted (the figure
 * and the table's shares come before the rows): --per beside a bytes
 * view, the bytes its bins count; --values per interval read back
 * (--merge), the fields.  0, or -1 when the rows cannot be read (said). */
static int per_counted(const struct gh_report *rep, struct rows *rows,
		       uint64_t *counted)
{
	struct gpuhist_token t;
	int got;

	*counted = 0;
	if (rows_start(rows)) {
		gh_msg("%s", gh_token_runs_error(rows->runs));
		return -1;
	}
	while ((got = rows_next(rows, &t)) > 0) {
		size_t glen = gh_group_len(&t);
		size_t skip = glen < t.len ? glen + 1 : glen;
		uint64_t fields = 0;

		if (rep->bytes_per) {
			*counted += gh_bytes_per_counted(rep, t.bytes + skip,
							 t.len - skip,
							 t.count);
			continue;
		}
		if (gpuhist_values_add_merged(NULL, t.bytes + skip,
					      t.len - skip, t.count,
					      &fields)) {
			gh_msg("an interval's numbers read back are not the library's units");
			return -1;
		}
		*counted += fields;
	}
	if (got < 0)
		return -1;      /* said */
	if (rows_start(rows)) {
		gh_msg("%s", gh_token_runs_error(rows->runs));
		return -1;
	}
	return 0;
}

static int print_block(struct gh_report *rep, const char *name,
		       uint64_t bytes_read, const struct gpuhist_tokens *tk,
		       struct rows *rows, uint64_t other, int has_other,
		       int with_header)
{
	struct tokens_block tb = { .rows = rows, .other = other,
				   .has_other = has_other, .rep = rep,
				   .not_json = rep->opts->lib.tokens ==
					       GPUHIST_TOKENS_KEY,
				   .n_key = rep->opts->lib.n_fields > 1
					    ? rep->opts->lib.n_fields : 0,
				   .per = grouped(rep) ||
					  (rep->opts->lib.tokens ==
					   GPUHIST_TOKENS_PER &&
					   rep->sort == GH_SORT_BIN &&
					   !rep->opts->top)
					  ? rep->opts->lib.per : 0,
				   .grouped = grouped(rep),
				   .values_per = rep->values_per,
				   .bytes_per = rep->bytes_per,
				   .chars_per = rep->chars_per,
				   .top = grouped(rep) ? (uint64_t)rep->top
						       : 0 };
	struct gh_block b = { .name = name, .named = with_header,
			      .ops = &tokens_rows, .ctx = &tb };
	FILE *copy = NULL;
	int ret;

	struct gh_values_per_text text;

	tb.group.bytes = tb.group_bytes;
	tb.text = &text;
	tb.bp.rep = rep;
	tb.cp.rep = rep;
	tb.hist_cp.rep = rep;
	if (rep->chars_per) {
		tb.raw = *rep->opts;
		tb.raw.view = GH_VIEW_BYTES;    /* code points, unfolded */
	}
	if ((rep->bytes_per || (rep->values_per && rep->opts->merge)) &&
	    per_counted(rep, rows, &rep->per_counted))
		return -1;
	if (tb.n_key)
		key_columns(rep, tb.names);
	tokens_figures(rep, &b, bytes_read, tk->total, tk->distinct, other,
		       has_other);
	if (rep->bytes_per || rep->chars_per) {
		struct gh_figure *f = gh_block_figure(&b, NULL, rep->chars_per
						      ? "chars" : "histograms",
			(struct gh_cell){ .kind = GH_CELL_OBJECT,
					  .member = histogram_member,
					  .ctx = &tb });

		f->json_break = f->after_rows = true;
	}
	/* json's rows were started before the copy (gh_report_tokens). */
	b.rows_started = rep->format == GH_FMT_JSON;
	/* The one input of a json result: its rows kept as printed, for the
	 * total's. */
	if (rep->format == GH_FMT_JSON && rep->replay_wanted &&
	    !rep->in_total) {
		copy = replay_file(rep);
		/* Only the commonest were kept (tokens_top): they cannot
		 * be added into a total, but they are --top's few rows, so
		 * their copy is kept in memory. */
		if (!copy && tk->listed)
			copy = open_memstream(&rep->replay_mem,
					      &rep->replay_mem_len);
		if (!copy)
			replay_given_up(rep, tk);
	}
	b.rows_copy = copy;
	ret = gh_block_write(rep->out, rep->format, rep->n_printed > 0, &b);
	if (tb.hist_failed)
		ret = -1;       /* said */
	gh_chars_per_free(&tb.cp);
	gh_chars_per_free(&tb.hist_cp);
	free(tb.label);
	gpuhist_values_free(tb.v);
	if (copy) {
		if (ret || fflush(copy) || ferror(copy)) {
			fclose(copy);
			copy = NULL;
		} else if (rep->replay_mem) {
			/* In memory: read back from its bytes. */
			fclose(copy);
			copy = rep->replay_mem_len
			       ? fmemopen(rep->replay_mem, rep->replay_mem_len,
					  "r")
			       : NULL;
		}
		if (!copy) {
			replay_given_up(rep, tk);
		} else {
			rep->replay = copy;
			rep->replay_tokens = tk->total;
			rep->replay_distinct = tk->distinct;
			rep->replay_other = other;
			rep->replay_has_other = has_other;
		}
	}
	return ret;
}

int gh_report_tokens_replay(struct gh_report *rep, const char *name,
			    uint64_t bytes_read)
{
	struct gh_block b = { .name = name, .rows_from = rep->replay };
	int ret;

	tokens_figures(rep, &b, bytes_read, rep->replay_tokens,
		       rep->replay_distinct, rep->replay_other,
		       rep->replay_has_other);
	ret = gh_block_write(rep->out, GH_FMT_JSON, false, &b);
	if (ret)
		gh_msg("the total's rows: cannot read them back: %s",
		       strerror(errno));
	replay_close(rep);
	return ret;
}

int gh_report_tokens(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, const struct gpuhist_tokens *tk,
		     int with_header)
{
	uint64_t other;
	int has_other, ret = 0;
	struct rows rows;
	struct best owned;

	rep->block_error[0] = '\0';
	if (rep->opts->verbose && tk->listed && !rep->in_total) {
		const char *on = gpuhist_tokens_picked_on(tk);

		gh_msg("%s: the commonest tokens picked on the %s: %zu of %zu distinct %s",
		       name, on ? on : "device", tk->listed, tk->distinct,
		       on && !strcmp(on, "host") ? "listed" : "handed back");
	}
	int bad = arrange(rep, tk, &rows, &owned, &other, &has_other);

	if (!bad && grouped(rep) && rep->top && !rep->bytes_per &&
	    !rep->chars_per &&
	    group_cut(rep, &rows, &other, &has_other)) {
		rows_failed(rep, "%s", gh_token_runs_error(rep->runs));
		if (owned.top)
			free_best(&owned);
		else
			free(owned.t);
		bad = -1;
	}

	/* json: rows that cannot be read back are known before anything of
	 * the entry is written, or the copy for the total made. */
	if (!bad && rep->format == GH_FMT_JSON && rows_start(&rows)) {
		rows_failed(rep, "%s", gh_token_runs_error(rep->runs));
		if (owned.top)
			free_best(&owned);
		else
			free(owned.t);
		bad = -1;
	}
	if (bad) {
		if (rep->replay_wanted && !rep->in_total)
			replay_given_up(rep, tk);
		gh_token_runs_free(rep->runs);
		rep->runs = NULL;
		if (rep->in_total)
			gh_msg("the total's rows: %s", rep->block_error);
		else
			gh_msg("%s: %s", name, rep->block_error);
		if (rep->format != GH_FMT_JSON)
			return -1;
		/* Nothing of it printed yet: json's entry says why. */
		fputs("{\"name\": ", rep->out);
		gh_put_json_string(rep->out, name);
		fputs(", \"error\": ", rep->out);
		gh_put_json_string(rep->out, rep->block_error);
		fputs("}", rep->out);
		return 1;
	}
	ret = print_block(rep, name, bytes_read, tk, &rows, other, has_other,
			  with_header);
	if (owned.top)
		free_best(&owned);      /* the bytes were copied */
	else
		free(owned.t);
	gh_token_runs_free(rep->runs);
	rep->runs = NULL;
	return ret;
}

/* Whether the total's block will be printed (json always has one). */
static bool total_wanted(const struct gh_report *rep)
{
	if (rep->snapshot)
		return false;
	return rep->format == GH_FMT_JSON ||
	       rep->total_mode == GH_TOTAL_ALWAYS ||
	       rep->total_mode == GH_TOTAL_ONLY ||
	       (rep->total_mode == GH_TOTAL_AUTO && rep->several);
}

/* Notes why the total cannot be had, and says it, the first time. */
static void total_failed(struct gh_report *rep, const char *why)
{
	if (rep->total_error[0])
		return;
	snprintf(rep->total_error, sizeof(rep->total_error),
		 "the total's tokens: %s", why);
	gh_msg("%s", rep->total_error);
}

/* The total's sum, made at its first use; NULL when out of memory
 * (said). */
static gpuhist_token_sum *total_sum(struct gh_report *rep)
{
	if (!rep->sum)
		rep->sum = gpuhist_token_sum_new(rep->opts->lib.memory,
						 rep->opts->lib.temporary_directory);
	if (!rep->sum)
		total_failed(rep, "out of memory");
	return rep->sum;
}

int gh_report_tokens_keep(struct gh_report *rep,
			  const struct gpuhist_tokens *tk)
{
	/* json of one input: its printed rows are the total's. */
	if (rep->replay_wanted)
		return 0;
	if (!total_wanted(rep) || rep->total_error[0])
		return rep->total_error[0] ? -1 : 0;
	if (!total_sum(rep))
		return -1;
	if (gpuhist_token_sum_add_tokens(rep->sum, tk)) {
		total_failed(rep, gpuhist_token_sum_message(rep->sum));
		return -1;
	}
	return 0;
}

const struct gpuhist_tokens *gh_report_tokens_total(struct gh_report *rep,
						     bool print_it)
{
	const struct gpuhist_tokens *total;

	if (!print_it || rep->total_error[0] || !total_sum(rep))
		return NULL;
	total = gpuhist_token_sum_end(rep->sum);
	if (!total)
		total_failed(rep, gpuhist_token_sum_message(rep->sum));
	return total;
}

void gh_report_tokens_total_free(struct gh_report *rep)
{
	replay_close(rep);
	gpuhist_token_sum_free(rep->sum);
	rep->sum = NULL;
}
