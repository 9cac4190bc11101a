/* merge_values.c - the values view's reader of results (readers.c's
 * row): a field's numbers read back from a -f json result of the values
 * view (--merge with --values)
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
 */
#include "config.h"

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
	KEY_ERROR = 16384, KEY_KEY = 32768,
	KEY_NEEDED = KEY_NAME | KEY_VIEW | KEY_BYTES_READ |
		     KEY_NUMBERS | KEY_NOT_NUMBERS | KEY_EMPTY |
		     KEY_SUB_BUCKETS | KEY_BUCKETS,
	KEY_OF_NUMBERS = KEY_MIN | KEY_MAX | KEY_SUM | KEY_SUM_EXACT,
};

static const struct gh_json_key entry_keys[] = {
	{ "name", KEY_NAME }, { "view", KEY_VIEW }, { "field", KEY_FIELD },
	{ "separator", KEY_SEPARATOR }, { "bytes_read", KEY_BYTES_READ },
	{ "numbers", KEY_NUMBERS }, { "not_numbers", KEY_NOT_NUMBERS },
	{ "empty", KEY_EMPTY }, { "min", KEY_MIN }, { "max", KEY_MAX },
	{ "sum", KEY_SUM }, { "sum_exact", KEY_SUM_EXACT },
	{ "sub_buckets", KEY_SUB_BUCKETS }, { "buckets", KEY_BUCKETS },
	{ "error", KEY_ERROR }, { "key", KEY_KEY },
};

/* What one entry (an input's or the total) holds. */
struct entry {
	char where[32];             /* "inputs[3]" or "total" */
	unsigned seen;              /* KEY_* */
	char name[GH_JSON_TEXT], error[GH_JSON_TEXT], view[16];
	char key[GH_JSON_TEXT];     /* the numbers of a key of JSON lines */
	uint64_t field, separator, bytes_read, numbers, not_numbers, empty;
	uint64_t sub_buckets, counts_sum;
	char min[GH_JSON_NUMBER], max[GH_JSON_NUMBER], sum[GH_JSON_NUMBER];
	bool sum_exact;
	gpuhist_values *into;       /* the total's buckets go here, else NULL */
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
					     * not_numbers, empty */
	gpuhist_values *values;
};

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
	if (gh_add_u64(&e->counts_sum, e->count))
		return gh_json_refuse(r, "%s: its buckets' counts add up to more than 2^64-1",
				      e->where);
	if (e->into && gpuhist_values_add_bucket(e->into,
						 strtod(e->low, NULL),
						 strtod(e->high, NULL),
						 e->count))
		return gh_json_refuse(r, "%s: %s", e->where,
				      gpuhist_values_message(e->into));
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

static int entry_member(struct gh_json *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = gh_json_key_bit(entry_keys, GH_JSON_KEYS(entry_keys),
				       key);
	char want = bit == KEY_NAME || bit == KEY_ERROR || bit == KEY_VIEW ||
		    bit == KEY_KEY ? '"' : bit == KEY_BUCKETS ? '[' : 0;
	size_t len;

	if (gh_json_member_once(r, e->where, key, bit, &e->seen, want))
		return -1;
	switch (bit) {
	case KEY_NAME:
		return gh_json_read_text(r, e->name);
	case KEY_ERROR:
		return gh_json_read_text(r, e->error);
	case KEY_KEY:
		return gh_json_read_text(r, e->key);
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
	case KEY_NUMBERS:
		return gh_json_read_count(r, e->where, "numbers", &e->numbers);
	case KEY_NOT_NUMBERS:
		return gh_json_read_count(r, e->where, "not_numbers",
					  &e->not_numbers);
	case KEY_EMPTY:
		return gh_json_read_count(r, e->where, "empty", &e->empty);
	case KEY_SUB_BUCKETS:
		return gh_json_read_count(r, e->where, "sub_buckets",
					  &e->sub_buckets);
	case KEY_MIN:
		return gh_json_read_number_text(r, e->where, "min", e->min);
	case KEY_MAX:
		return gh_json_read_number_text(r, e->where, "max", e->max);
	case KEY_SUM:
		return gh_json_read_number_text(r, e->where, "sum", e->sum);
	case KEY_SUM_EXACT:
		return read_bool(r, e->where, "sum_exact", &e->sum_exact);
	case KEY_BUCKETS:
		return gh_json_read_array(r, depth, bucket_item, e);
	default:                    /* mean, quantiles: figures of these */
		return gh_json_skip_value(r, depth);
	}
}

/* The view an entry names, as "values, field 9, separator 58" (or
 * "values, key .ms"). */
static void view_text(char *out, size_t len, const char *view, uint64_t field,
		      long long separator, const char *key)
{
	if (key)
		snprintf(out, len, "%s, key %.50s", view, key);
	else if (separator >= 0)
		snprintf(out, len, "%s, field %llu, separator %lld", view,
			 (unsigned long long)field, separator);
	else
		snprintf(out, len, "%s, field %llu", view,
			 (unsigned long long)field);
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

	if (strcmp(e->view, "values") || !same || sep != lib->separator) {
		char view[96], ours[96];

		view_text(view, sizeof(view), e->view, e->field, sep,
			  e->seen & KEY_KEY ? e->key : NULL);
		view_text(ours, sizeof(ours), "values", (uint64_t)lib->field,
			  lib->separator, key ? lib->key : NULL);
		return gh_json_refuse(r, "%s: a result of the view %s, but this merge's is %s (results of different views do not add up)",
				      e->where, view, ours);
	}
	if (e->sub_buckets != (uint64_t)d->sub_buckets)
		return gh_json_refuse(r, "%s: %llu buckets a power of two, but this merge's precision makes %d (give --precision=%.6g)",
				      e->where,
				      (unsigned long long)e->sub_buckets,
				      d->sub_buckets, e->sub_buckets
				      ? 100.0 / (double)e->sub_buckets : 0.0);
	if (e->numbers && (e->seen & KEY_OF_NUMBERS) != KEY_OF_NUMBERS)
		return gh_json_refuse(r, "%s: numbers without their min, max, sum and sum_exact",
				      e->where);
	if (e->counts_sum != e->numbers)
		return gh_json_refuse(r, "%s: numbers is %llu, but its buckets hold %llu",
				      e->where, (unsigned long long)e->numbers,
				      (unsigned long long)e->counts_sum);
	if (e->empty > e->not_numbers)
		return gh_json_refuse(r, "%s: more empty fields than fields that are not numbers",
				      e->where);
	return 0;
}

static int read_entry(struct gh_json *r, int depth, struct doc *d,
		      const char *where, gpuhist_values *into)
{
	struct entry *e = &d->e;
	unsigned missing;

	memset(e, 0, sizeof(*e));
	snprintf(e->where, sizeof(e->where), "%s", where);
	e->into = into;
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
	/* Another view's result is named as such, not by a key it lacks. */
	if ((e->seen & KEY_VIEW) && strcmp(e->view, "values"))
		return check_entry(r, d, e);
	missing = KEY_NEEDED & ~e->seen;
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
	if (into && gpuhist_values_add_summary(into,
					       e->numbers ? e->min : NULL,
					       e->numbers ? e->max : NULL,
					       e->numbers ? e->sum : NULL,
					       e->sum_exact, e->not_numbers,
					       e->empty))
		return gh_json_refuse(r, "%s: %s", e->where,
				      gpuhist_values_message(into));
	return 0;
}

/* An entry's four sums, in doc's order. */
static void sums_of(const struct entry *e, uint64_t out[4])
{
	out[0] = e->bytes_read;
	out[1] = e->numbers;
	out[2] = e->not_numbers;
	out[3] = e->empty;
}

static int input_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct doc *d = ctx;
	char where[32];
	uint64_t sums[4];

	snprintf(where, sizeof(where), "inputs[%llu]", (unsigned long long)i);
	if (read_entry(r, depth, d, where, NULL))
		return -1;
	sums_of(&d->e, sums);
	for (int k = 0; k < 4; k++)
		if (gh_add_u64(&d->inputs[k], sums[k]))
			return gh_json_refuse(r, "the inputs' counts add up to more than 2^64-1");
	return 0;
}

/* The "total" entry. */
static int total_entry(struct gh_json *r, int depth, void *ctx)
{
	struct doc *d = ctx;

	if (read_entry(r, depth, d, "total", d->values))
		return -1;
	sums_of(&d->e, d->total);
	return 0;
}

static int read_document(struct gh_json *r, void *ctx)
{
	static const char *const what[4] = {
		"bytes_read", "numbers", "not_numbers", "empty",
	};
	struct doc *d = ctx;
	struct gh_json_result res = { input_item, total_entry, d, 0, 0 };

	if (gh_json_read_result(r, &res))
		return -1;
	for (int k = 0; k < 4; k++)
		if (d->total[k] != d->inputs[k])
			return gh_json_refuse(r, "total: %s is not the sum of the inputs'",
					      what[k]);
	return 0;
}

int gh_merge_values_read(const char *name, const struct gpuhist_options *opts,
			 struct gpuhist_merge *m, struct gh_notes *notes)
{
	struct doc *d = calloc(1, sizeof(*d));
	struct gpuhist_values_summary s;
	int ret;

	if (!d) {
		gh_note(notes, "%s: out of memory", name);
		return -1;
	}
	gpuhist_values_summary(m->values, &s);
	d->opts = opts;
	d->sub_buckets = s.sub_buckets;
	d->values = m->values;
	ret = gh_json_read_file(name, "a gpuhist json result of --values",
				read_document, d, notes);
	if (!ret)
		m->totals[0] = d->total[0];
	free(d);
	return ret;
}
