/* merge_values.c - the values view's reader of results (readers.c's
 * row): a field's numbers read back from a -f json result of the values
 * view (--merge with --values), whole or per interval (--per)
 *
 * The document is read by json_read.c's strict reader, which streams.
 * Its "total" entry's buckets, extremes and sum are what is merged (into
 * a gpuhist_values of the merging command's precision); every entry is
 * checked:
 *   - name, view, field, bytes_read, numbers, not_numbers, empty,
 *     sub_buckets and buckets are there, each once, view (with field and
 *     separator) is the merging command's and sub_buckets its precision's;
 *     min, max, sum and sum_exact are there when numbers is not 0;
 *   - buckets holds {"low": ..., "high": ..., "count": ...} objects whose
 *     counts add up to numbers (the total's bounds must be the library's
 *     own buckets);
 *   - no "error" (a failed input), no top-level "error";
 *   - the total's bytes_read, numbers, not_numbers and empty are the
 *     inputs' added up.
 * Per interval (the merging command's per), an entry has name, view,
 * per (with its time field, key or format: the command's), bytes_read,
 * fields, sub_buckets and "intervals": rows in time order, each an
 * interval once, that hold what a whole entry holds of its numbers
 * (numbers, not_numbers, empty, min, max, sum, sum_exact, buckets),
 * checked alike, its "interval" first; fields is the rows' numbers and
 * not_numbers added up.  The total's rows become tokens of its interval,
 * a tab and a unit (gpuhist_values_add_merged reads them back): a unit a
 * bucket, with its count, and one of the row's summary; its buckets'
 * bounds are checked in m->values.  The total's bytes_read and fields are
 * the inputs' added up, and so is its fingerprint (merge_tokens.c's, over
 * its buckets and each interval's not_numbers and empty).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "merge_values.h"

enum {
	KEY_NAME = 1, KEY_VIEW = 2, KEY_FIELD = 4, KEY_SEPARATOR = 8,
	KEY_BYTES_READ = 16, KEY_NUMBERS = 32, KEY_NOT_NUMBERS = 64,
	KEY_EMPTY = 128, KEY_MIN = 256, KEY_MAX = 512, KEY_SUM = 1024,
	KEY_SUM_EXACT = 2048, KEY_SUB_BUCKETS = 4096, KEY_BUCKETS = 8192,
	KEY_ERROR = 16384, KEY_KEY = 32768, KEY_PER = 65536,
	KEY_TIME_FIELD = 131072, KEY_TIME_KEY = 262144,
	KEY_TIME_FORMAT = 524288, KEY_FIELDS = 1048576,
	KEY_INTERVALS = 2097152, KEY_INTERVAL = 4194304,
	KEY_NEEDED = KEY_NAME | KEY_VIEW | KEY_BYTES_READ |
		     KEY_NUMBERS | KEY_NOT_NUMBERS | KEY_EMPTY |
		     KEY_SUB_BUCKETS | KEY_BUCKETS,
	KEY_NEEDED_PER = KEY_NAME | KEY_VIEW | KEY_BYTES_READ | KEY_PER |
			 KEY_FIELDS | KEY_SUB_BUCKETS | KEY_INTERVALS,
	KEY_NEEDED_ROW = KEY_INTERVAL | KEY_NUMBERS | KEY_NOT_NUMBERS |
			 KEY_EMPTY,
	KEY_OF_NUMBERS = KEY_MIN | KEY_MAX | KEY_SUM | KEY_SUM_EXACT,
};

static const struct gh_json_key entry_keys[] = {
	{ "name", KEY_NAME }, { "view", KEY_VIEW }, { "field", KEY_FIELD },
	{ "separator", KEY_SEPARATOR }, { "bytes_read", KEY_BYTES_READ },
	{ "numbers", KEY_NUMBERS }, { "not_numbers", KEY_NOT_NUMBERS },
	{ "empty", KEY_EMPTY }, { "min", KEY_MIN }, { "max", KEY_MAX },
	{ "sum", KEY_SUM }, { "sum_exact", KEY_SUM_EXACT },
	{ "sub_buckets", KEY_SUB_BUCKETS }, { "buckets", KEY_BUCKETS },
	{ "error", KEY_ERROR }, { "key", KEY_KEY }, { "per", KEY_PER },
	{ "time_field", KEY_TIME_FIELD }, { "time_key", KEY_TIME_KEY },
	{ "time_format", KEY_TIME_FORMAT }, { "fields", KEY_FIELDS },
	{ "intervals", KEY_INTERVALS }, { "interval", KEY_INTERVAL },
};

/* The numbers of a whole entry, or of one interval's row. */
struct numbers {
	unsigned seen;              /* KEY_* */
	uint64_t numbers, not_numbers, empty, counts_sum;
	char min[GH_JSON_NUMBER], max[GH_JSON_NUMBER], sum[GH_JSON_NUMBER];
	bool sum_exact;
};

/* The most summaries of one interval gpuhist_values_add_merged takes at
 * once (each a result's): more is no unit the readers made. */
#define SUMMARIES_MAX ((uint64_t)1 << 24)

/* A unit of a row read back: an interval (20 bytes at most), a tab, a
 * summary's five figures. */
#define UNIT_MAX (64 + 5 * GH_JSON_NUMBER)

/* What one entry (an input's or the total) holds. */
struct entry {
	char where[48];             /* "inputs[3]", "total", with a row's
				     * "intervals[9]" */
	unsigned seen;              /* KEY_* */
	char name[GH_JSON_TEXT], error[GH_JSON_TEXT], view[16];
	char key[GH_JSON_TEXT];     /* the numbers of a key of JSON lines */
	char time_key[GH_JSON_TEXT], time_format[GH_JSON_TEXT];   /* per's */
	uint64_t field, separator, bytes_read, sub_buckets;
	uint64_t per, time_field, fields;
	int sub_buckets_ours;       /* the merging command's */
	struct numbers n;           /* whole, or the row being read */
	gpuhist_values *into;       /* the total's buckets go here, else NULL */
	/* per interval */
	const struct gpuhist_options *opts;
	gpuhist_token_sum *tokens;  /* the total's rows go here, else NULL */
	uint64_t rows, fields_sum, fingerprint;
	char interval[GH_JSON_KEY + 1], last[GH_JSON_KEY + 1];
	unsigned char unit[UNIT_MAX];
	/* the bucket being read */
	char low[GH_JSON_NUMBER], high[GH_JSON_NUMBER];
	uint64_t count;
	unsigned bucket_seen;       /* 1 low, 2 high, 4 count */
};

/* The whole document. */
struct doc {
	const struct gpuhist_options *opts;
	int sub_buckets;            /* the merging command's */
	struct entry e;
	uint64_t inputs[4], total[4];       /* bytes_read, numbers,
					     * not_numbers, empty; per
					     * interval: bytes_read, fields,
					     * the fingerprint */
	gpuhist_values *values;
	gpuhist_token_sum *tokens;
};

/* " (give --precision=P)" for a result of sub_buckets, where a precision
 * makes them (a power of two from 2 to 2^16), else "". */
static const char *precision_hint(uint64_t sub_buckets)
{
	static _Thread_local char hint[48];

	if (sub_buckets < 2 || sub_buckets > 65536 ||
	    (sub_buckets & (sub_buckets - 1)))
		return "";
	snprintf(hint, sizeof(hint), " (give --precision=%.6g)",
		 100.0 / (double)sub_buckets);
	return hint;
}

/* A unit of the interval being read (e->interval), after its tab:
 * [p, p + len); its count into the total's tokens (token), and into the
 * fingerprint (print: a bucket's, or the parts of a summary that add up);
 * 0, or -1 (refused). */
static int add_unit(struct gh_json *r, struct entry *e, const char *p,
		    size_t len, uint64_t count, bool token, bool print)
{
	size_t n = strlen(e->interval);

	memcpy(e->unit, e->interval, n);
	e->unit[n] = '\t';
	memcpy(e->unit + n + 1, p, len);
	len += n + 1;
	if (print)
		e->fingerprint += gh_token_hash(e->unit, len) * count;
	if (token && e->tokens &&
	    gpuhist_token_sum_add(e->tokens, e->unit, len, count)) {
		r->ours = 1;    /* a disk or memory error, not the document */
		return gh_json_refuse(r, "%s",
				      gpuhist_token_sum_message(e->tokens));
	}
	return 0;
}

static int bucket_member(struct gh_json *r, int depth, const char *key,
			 void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = !strcmp(key, "low") ? 1 : !strcmp(key, "high") ? 2
		       : !strcmp(key, "count") ? 4 : 0;

	(void)depth;
	if (!bit)
		return gh_json_refuse(r, "%s: a bucket has a key \"%s\"",
				      e->where, key);
	if (bit & e->bucket_seen)
		return gh_json_refuse(r, "%s: a bucket's \"%s\" is there twice",
				      e->where, key);
	e->bucket_seen |= bit;
	if (bit == 4)
		return gh_json_read_count(r, e->where, "a bucket's count",
					  &e->count);
	return gh_json_read_number_text(r, e->where, key,
					bit == 1 ? e->low : e->high);
}

static int bucket_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;

	(void)i;
	e->bucket_seen = 0;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s: a bucket is not an object",
				      e->where);
	if (gh_json_read_object(r, depth, bucket_member, e))
		return -1;
	if (e->bucket_seen != 7)
		return gh_json_refuse(r, "%s: a bucket without its low, high and count",
				      e->where);
	if (gh_add_u64(&e->n.counts_sum, e->count))
		return gh_json_refuse(r, "%s: its buckets' counts add up to more than 2^64-1",
				      e->where);
	if (e->into && gpuhist_values_add_bucket(e->into,
						 strtod(e->low, NULL),
						 strtod(e->high, NULL),
						 e->count))
		return gh_json_refuse(r, "%s: %s", e->where,
				      gpuhist_values_message(e->into));
	if (e->opts->per && e->count) {
		/* "\0b" low "\0" high */
		char unit[2 * GH_JSON_NUMBER + 4];
		int len = snprintf(unit, sizeof(unit), "%cb%s%c%s", 0,
				   e->low, 0, e->high);

		return add_unit(r, e, unit, (size_t)len, e->count, true, true);
	}
	return 0;
}

/* true or false. */
static int read_bool(struct gh_json *r, const char *where, const char *what,
		     bool *v)
{
	gh_json_skip_ws(r);
	int c = gh_json_peek(r);

	if (c != 't' && c != 'f')
		return gh_json_refuse(r, "%s: %s is not true or false", where,
				      what);
	*v = c == 't';
	return gh_json_skip_value(r, 1);
}

/* A member of an entry's numbers (or of a row's); 1 where key is none of
 * them. */
static int numbers_member(struct gh_json *r, int depth, unsigned bit,
			  unsigned *seen, struct entry *e)
{
	struct numbers *n = &e->n;

	/* An interval without numbers has min, max and sum null: as if
	 * they were not there (check_numbers wants them where there are
	 * numbers). */
	if (bit == KEY_MIN || bit == KEY_MAX || bit == KEY_SUM) {
		gh_json_skip_ws(r);
		if (gh_json_peek(r) == 'n') {
			*seen &= ~bit;
			return gh_json_skip_value(r, depth);
		}
	}
	switch (bit) {
	case KEY_NUMBERS:
		return gh_json_read_count(r, e->where, "numbers", &n->numbers);
	case KEY_NOT_NUMBERS:
		return gh_json_read_count(r, e->where, "not_numbers",
					  &n->not_numbers);
	case KEY_EMPTY:
		return gh_json_read_count(r, e->where, "empty", &n->empty);
	case KEY_MIN:
		return gh_json_read_number_text(r, e->where, "min", n->min);
	case KEY_MAX:
		return gh_json_read_number_text(r, e->where, "max", n->max);
	case KEY_SUM:
		return gh_json_read_number_text(r, e->where, "sum", n->sum);
	case KEY_SUM_EXACT:
		return read_bool(r, e->where, "sum_exact", &n->sum_exact);
	case KEY_BUCKETS:
		return gh_json_read_array(r, depth, bucket_item, e);
	default:
		return 1;
	}
}

/* Whether the numbers agree: min, max, sum and sum_exact where there are
 * numbers, the buckets' counts adding up to them. */
static int check_numbers(struct gh_json *r, const struct entry *e)
{
	const struct numbers *n = &e->n;

	if (n->numbers && (n->seen & KEY_OF_NUMBERS) != KEY_OF_NUMBERS)
		return gh_json_refuse(r, "%s: numbers without their min, max, sum and sum_exact",
				      e->where);
	if (n->counts_sum != n->numbers)
		return gh_json_refuse(r, "%s: numbers is %llu, but its buckets hold %llu",
				      e->where, (unsigned long long)n->numbers,
				      (unsigned long long)n->counts_sum);
	if (n->empty > n->not_numbers)
		return gh_json_refuse(r, "%s: more empty fields than fields that are not numbers",
				      e->where);
	return 0;
}

static int row_member(struct gh_json *r, int depth, const char *key,
		      void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = gh_json_key_bit(entry_keys, GH_JSON_KEYS(entry_keys),
				       key);
	size_t len;
	int ret;

	if (gh_json_member_once(r, e->where, key, bit, &e->n.seen,
				bit == KEY_INTERVAL ? '"'
				: bit == KEY_BUCKETS ? '[' : 0))
		return -1;
	if (bit == KEY_INTERVAL) {
		if (e->n.seen != KEY_INTERVAL)
			return gh_json_refuse(r, "%s: \"interval\" is not the row's first member",
					      e->where);
		if (gh_json_read_string(r, e->interval, GH_JSON_KEY, &len))
			return -1;
		if (len > GH_JSON_KEY ||
		    !gh_interval_label((unsigned char *)e->interval, len))
			return gh_json_refuse(r, "%s: the interval is neither \"(no time)\" nor a start such as 2026-11-27T10:00:00Z",
					      e->where);
		e->interval[len] = '\0';
		if (e->rows && strcmp(e->last, e->interval) >= 0)
			return gh_json_refuse(r, "%s: the interval %s comes after %s (rows are in time order, each interval once)",
					      e->where, e->interval, e->last);
		return 0;
	}
	if (bit == KEY_BUCKETS && !(e->n.seen & KEY_INTERVAL))
		return gh_json_refuse(r, "%s: \"interval\" is not the row's first member",
				      e->where);
	ret = numbers_member(r, depth, bit, &e->n.seen, e);
	return ret == 1 ? gh_json_skip_value(r, depth) : ret;
}

/* A row of intervals: checked as an entry's numbers, its summary a unit
 * ("\0s" min "\0" max "\0" sum "\0" 1 or 0 "\0" not_numbers "\0" empty,
 * each empty without numbers). */
static int row_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;
	struct numbers *n = &e->n;
	char where[32], unit[5 * GH_JSON_NUMBER + 16];
	int len;

	memcpy(where, e->where, sizeof(where));
	snprintf(e->where + strlen(where), sizeof(e->where) - strlen(where),
		 ": intervals[%llu]", (unsigned long long)i);
	memset(n, 0, sizeof(*n));
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s is not an object", e->where);
	if (gh_json_read_object(r, depth, row_member, e))
		return -1;
	if ((n->seen & KEY_NEEDED_ROW) != KEY_NEEDED_ROW)
		return gh_json_refuse(r, "%s: no \"%s\"", e->where,
				      !(n->seen & KEY_INTERVAL) ? "interval"
				      : !(n->seen & KEY_NUMBERS) ? "numbers"
				      : !(n->seen & KEY_NOT_NUMBERS)
				      ? "not_numbers" : "empty");
	if (check_numbers(r, e))
		return -1;
	if (gh_add_u64(&e->fields_sum, n->numbers) ||
	    gh_add_u64(&e->fields_sum, n->not_numbers))
		return gh_json_refuse(r, "%s: its fields add up to more than 2^64-1",
				      e->where);
	len = snprintf(unit, sizeof(unit), "%cs%s%c%s%c%s%c%d%c%llu%c%llu",
		       0, n->numbers ? n->min : "", 0,
		       n->numbers ? n->max : "", 0, n->numbers ? n->sum : "",
		       0, n->numbers && n->sum_exact, 0,
		       (unsigned long long)n->not_numbers, 0,
		       (unsigned long long)n->empty);
	/* The total's summary read as the report will read it: refused
	 * here, naming the result, where it cannot be. */
	if (e->into && gpuhist_values_add_summary(e->into,
						  n->numbers ? n->min : NULL,
						  n->numbers ? n->max : NULL,
						  n->numbers ? n->sum : NULL,
						  n->sum_exact, n->not_numbers,
						  n->empty))
		return gh_json_refuse(r, "%s: %s", e->where,
				      gpuhist_values_message(e->into));
	memcpy(e->where, where, sizeof(where));
	memcpy(e->last, e->interval, sizeof(e->last));
	e->rows++;
	/* The summary's extremes and sum are not the inputs' added up:
	 * its fields that are not numbers, and empty, are. */
	return add_unit(r, e, unit, (size_t)len, 1, true, false) ||
	       add_unit(r, e, "\0n", 2, n->not_numbers, false, true) ||
	       add_unit(r, e, "\0e", 2, n->empty, false, true) ? -1 : 0;
}

static int entry_member(struct gh_json *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = gh_json_key_bit(entry_keys, GH_JSON_KEYS(entry_keys),
				       key);
	char want = bit == KEY_NAME || bit == KEY_ERROR || bit == KEY_VIEW ||
		    bit == KEY_KEY || bit == KEY_TIME_KEY ||
		    bit == KEY_TIME_FORMAT ? '"'
		    : bit == KEY_BUCKETS || bit == KEY_INTERVALS ? '[' : 0;
	size_t len;
	int ret;

	if (gh_json_member_once(r, e->where, key, bit, &e->seen, want))
		return -1;
	switch (bit) {
	case KEY_NAME:
		return gh_json_read_text(r, e->name);
	case KEY_ERROR:
		return gh_json_read_text(r, e->error);
	case KEY_KEY:
		return gh_json_read_text(r, e->key);
	case KEY_TIME_KEY:
		return gh_json_read_text(r, e->time_key);
	case KEY_TIME_FORMAT:
		return gh_json_read_text(r, e->time_format);
	case KEY_VIEW:
		if (gh_json_read_string(r, e->view, sizeof(e->view) - 1, &len))
			return -1;
		e->view[len < sizeof(e->view) ? len : sizeof(e->view) - 1] =
			'\0';
		return 0;
	case KEY_FIELD:
		return gh_json_read_count(r, e->where, "field", &e->field);
	case KEY_SEPARATOR:
		return gh_json_read_count(r, e->where, "separator",
					  &e->separator);
	case KEY_BYTES_READ:
		return gh_json_read_count(r, e->where, "bytes_read",
					  &e->bytes_read);
	case KEY_SUB_BUCKETS:
		return gh_json_read_count(r, e->where, "sub_buckets",
					  &e->sub_buckets);
	case KEY_PER:
		return gh_json_read_count(r, e->where, "per", &e->per);
	case KEY_TIME_FIELD:
		return gh_json_read_count(r, e->where, "time_field",
					  &e->time_field);
	case KEY_FIELDS:
		return gh_json_read_count(r, e->where, "fields", &e->fields);
	case KEY_INTERVALS:
		if (!e->opts->per)
			return gh_json_skip_value(r, depth);
		/* (buckets of another precision: said as that) */
		if ((e->seen & KEY_SUB_BUCKETS) &&
		    e->sub_buckets != (uint64_t)e->sub_buckets_ours)
			return gh_json_refuse(r, "%s: %llu buckets a power of two, but this merge's precision makes %d%s",
					      e->where,
					      (unsigned long long)e->sub_buckets,
					      e->sub_buckets_ours,
					      precision_hint(e->sub_buckets));
		return gh_json_read_array(r, depth, row_item, e);
	case KEY_BUCKETS:
		if (e->opts->per)       /* not a row's: another view */
			return gh_json_skip_value(r, depth);
		/* fall through */
	default:                    /* mean, quantiles: figures of these */
		ret = e->opts->per ? 1 : numbers_member(r, depth, bit,
							 &e->seen, e);
		return ret == 1 ? gh_json_skip_value(r, depth) : ret;
	}
}

/* The view an entry names, as "values, field 9, separator 58" (or
 * "values, key .ms"), and per interval ", per 60 s". */
static void view_text(char *out, size_t len, const char *view, uint64_t field,
		      long long separator, const char *key, uint64_t per)
{
	int n;

	if (key)
		n = snprintf(out, len, "%s, key %.50s", view, key);
	else if (separator >= 0)
		n = snprintf(out, len, "%s, field %llu, separator %lld", view,
			     (unsigned long long)field, separator);
	else
		n = snprintf(out, len, "%s, field %llu", view,
			     (unsigned long long)field);
	if (per && n > 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, ", per %llu s",
			 (unsigned long long)per);
}

/* Whether the entry's time was read as lib reads it (field, key,
 * format). */
static bool same_time(const struct entry *e, const struct gpuhist_options *lib)
{
	if (e->time_field != (uint64_t)lib->time_field ||
	    !(e->seen & KEY_TIME_KEY) != !lib->time_key ||
	    !(e->seen & KEY_TIME_FORMAT) != !lib->time_format)
		return false;
	return (!lib->time_key || !strcmp(e->time_key, lib->time_key)) &&
	       (!lib->time_format ||
		!strcmp(e->time_format, lib->time_format));
}

static int check_entry(struct gh_json *r, struct doc *d, struct entry *e)
{
	const struct gpuhist_options *lib = d->opts;
	long long sep = e->seen & KEY_SEPARATOR ? (long long)e->separator : -1;

	bool key = lib->tokens == GPUHIST_TOKENS_KEY;
	bool same = key ? (e->seen & KEY_KEY) && !(e->seen & KEY_FIELD) &&
			  !strcmp(e->key, lib->key)
			: (e->seen & KEY_FIELD) && !(e->seen & KEY_KEY) &&
			  e->field == (uint64_t)lib->field;
	uint64_t per = e->seen & KEY_PER ? e->per : 0;

	if (strcmp(e->view, "values") || !same || sep != lib->separator ||
	    per != (uint64_t)lib->per || (per && !same_time(e, lib))) {
		char view[128], ours[128];

		view_text(view, sizeof(view), e->view, e->field, sep,
			  e->seen & KEY_KEY ? e->key : NULL, per);
		view_text(ours, sizeof(ours), "values", (uint64_t)lib->field,
			  lib->separator, key ? lib->key : NULL,
			  (uint64_t)lib->per);
		bool time = !strcmp(e->view, "values") && same &&
			    sep == lib->separator &&
			    per == (uint64_t)lib->per;

		return gh_json_refuse(r, "%s: a result of the view %s%s, but this merge's is %s%s (results of different views do not add up)",
				      e->where, view,
				      time ? " (its time read elsewhere)" : "",
				      ours, time ? " (its time read here)" : "");
	}
	if (e->sub_buckets != (uint64_t)d->sub_buckets)
		return gh_json_refuse(r, "%s: %llu buckets a power of two, but this merge's precision makes %d%s",
				      e->where,
				      (unsigned long long)e->sub_buckets,
				      d->sub_buckets,
				      precision_hint(e->sub_buckets));
	if (lib->per) {
		if (e->fields != e->fields_sum)
			return gh_json_refuse(r, "%s: fields is %llu, but its intervals' numbers and not_numbers add up to %llu",
					      e->where,
					      (unsigned long long)e->fields,
					      (unsigned long long)e->fields_sum);
		return 0;
	}
	e->n.seen = e->seen;
	return check_numbers(r, e);
}

static int read_entry(struct gh_json *r, int depth, struct doc *d,
		      const char *where, bool total)
{
	struct entry *e = &d->e;
	unsigned missing, needed = d->opts->per ? KEY_NEEDED_PER
						: KEY_NEEDED;

	memset(e, 0, sizeof(*e));
	snprintf(e->where, sizeof(e->where), "%s", where);
	e->opts = d->opts;
	e->sub_buckets_ours = d->sub_buckets;
	e->into = total ? d->values : NULL;
	e->tokens = total ? d->tokens : NULL;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s is not an object", e->where);
	if (gh_json_read_object(r, depth, entry_member, e))
		return -1;
	if (e->seen & KEY_ERROR) {
		r->failed_input = 1;
		return gh_json_refuse(r, "failed input %s: %s",
				      e->seen & KEY_NAME ? e->name : e->where,
				      e->error);
	}
	/* Another view's result is named as such, not by a key it lacks;
	 * so is a result per interval, or not, where this merge is not. */
	if ((e->seen & KEY_VIEW) &&
	    (strcmp(e->view, "values") ||
	     !(e->seen & KEY_PER) != !d->opts->per))
		return check_entry(r, d, e);
	missing = needed & ~e->seen;
	for (size_t i = 0; missing && i < sizeof(entry_keys) /
	     sizeof(entry_keys[0]); i++)
		if (missing & entry_keys[i].bit)
			return gh_json_refuse(r, "%s: no \"%s\"%s", e->where,
					      entry_keys[i].name,
					      entry_keys[i].bit == KEY_VIEW
					      ? " (not a result of --values)"
					      : "");
	if (check_entry(r, d, e))
		return -1;
	if (!d->opts->per && e->into &&
	    gpuhist_values_add_summary(e->into,
				       e->n.numbers ? e->n.min : NULL,
				       e->n.numbers ? e->n.max : NULL,
				       e->n.numbers ? e->n.sum : NULL,
				       e->n.sum_exact, e->n.not_numbers,
				       e->n.empty))
		return gh_json_refuse(r, "%s: %s", e->where,
				      gpuhist_values_message(e->into));
	return 0;
}

/* An entry's four sums, in doc's order. */
static void sums_of(const struct doc *d, const struct entry *e,
		    uint64_t out[4])
{
	out[0] = e->bytes_read;
	if (d->opts->per) {
		out[1] = e->fields;
		out[2] = e->fingerprint;
		out[3] = 0;
	} else {
		out[1] = e->n.numbers;
		out[2] = e->n.not_numbers;
		out[3] = e->n.empty;
	}
}

static int input_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct doc *d = ctx;
	char where[32];
	uint64_t sums[4];

	snprintf(where, sizeof(where), "inputs[%llu]", (unsigned long long)i);
	if (read_entry(r, depth, d, where, false))
		return -1;
	sums_of(d, &d->e, sums);
	for (int k = 0; k < 4; k++) {
		if (d->opts->per && k == 2)
			d->inputs[k] += sums[k];        /* mod 2^64 */
		else if (gh_add_u64(&d->inputs[k], sums[k]))
			return gh_json_refuse(r, "the inputs' counts add up to more than 2^64-1");
	}
	return 0;
}

/* The "total" entry. */
static int total_entry(struct gh_json *r, int depth, void *ctx)
{
	struct doc *d = ctx;

	if (read_entry(r, depth, d, "total", true))
		return -1;
	sums_of(d, &d->e, d->total);
	return 0;
}

static int read_document(struct gh_json *r, void *ctx)
{
	static const char *const what[2][4] = {
		{ "bytes_read", "numbers", "not_numbers", "empty" },
		{ "bytes_read", "fields", "intervals' numbers", "" },
	};
	struct doc *d = ctx;
	struct gh_json_result res = { input_item, total_entry, d, 0, 0 };

	if (gh_json_read_result(r, &res))
		return -1;
	for (int k = 0; k < 4; k++)
		if (d->total[k] != d->inputs[k])
			return gh_json_refuse(r, "total: %s %s not the sum of the inputs'",
					      what[d->opts->per != 0][k],
					      k == 2 && d->opts->per ? "are"
								     : "is");
	return 0;
}

/* The next part of a unit, up to a NUL or its end, into out (cap bytes,
 * NUL-terminated); where the next begins, or NULL when it does not fit. */
static const char *unit_part(const char *p, const char *end, char *out,
			     size_t cap)
{
	const char *nul = memchr(p, 0, (size_t)(end - p));
	size_t n = (size_t)((nul ? nul : end) - p);

	if (n >= cap)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return nul ? nul + 1 : end;
}

int gpuhist_values_add_merged(gpuhist_values *values, const void *unit,
			      size_t len, uint64_t count, uint64_t *fields)
{
	const char *p = unit, *end = p + len;
	char part[6][GH_JSON_NUMBER];
	uint64_t not_numbers = 0, empty = 0, n = 0;
	int parts = 0;

	if (len < 2 || p[0] || (p[1] != 'b' && p[1] != 's'))
		goto bad;
	for (const char *at = p + 2; at && parts < 6;) {
		at = unit_part(at, end, part[parts], sizeof(part[0]));
		if (!at)
			goto bad;
		parts++;
		if (at == end)
			break;
	}
	if (p[1] == 'b') {
		if (parts != 2)
			goto bad;
		if (fields)
			*fields = count;
		return values ? gpuhist_values_add_bucket(
				values, strtod(part[0], NULL),
				strtod(part[1], NULL), count) : 0;
	}
	if (parts != 6 || sscanf(part[4], "%" SCNu64, &not_numbers) != 1 ||
	    sscanf(part[5], "%" SCNu64, &empty) != 1)
		goto bad;
	/* One summary a result merged: no merge makes more of one
	 * interval than this. */
	if (count > SUMMARIES_MAX)
		goto bad;
	if (fields) {
		*fields = not_numbers * count;
		if (count && *fields / count != not_numbers)
			goto bad;
	}
	for (; values && n < count; n++)
		if (gpuhist_values_add_summary(values,
					       part[0][0] ? part[0] : NULL,
					       part[1][0] ? part[1] : NULL,
					       part[2][0] ? part[2] : NULL,
					       part[3][0] == '1', not_numbers,
					       empty))
			return -1;
	return 0;
bad:
	return -2;
}

int gh_merge_values_read(const char *name, const struct gpuhist_options *opts,
			 struct gpuhist_merge *m, struct gh_notes *notes)
{
	struct doc *d;
	struct gpuhist_values_summary s;
	int ret;

	if (opts->per && !m->tokens) {
		gh_note(notes, "%s: values per interval are read into a token sum (gpuhist_merge's tokens)",
			name);
		return -1;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		gh_note(notes, "%s: out of memory", name);
		return -1;
	}
	gpuhist_values_summary(m->values, &s);
	d->opts = opts;
	d->sub_buckets = s.sub_buckets;
	d->values = m->values;
	d->tokens = opts->per ? m->tokens : NULL;
	ret = gh_json_read_file(name, "a gpuhist json result of --values",
				read_document, d, notes);
	if (!ret)
		m->totals[0] = d->total[0];
	free(d);
	return ret;
}
