/* merge_bytes.c - the bytes view's reader of results (readers.c's row):
 * the 256 totals read back from a -f json result (--merge)
 *
 * The document is read by json_read.c's strict reader, which streams, so
 * that any result gpuhist writes can be merged, however many inputs it
 * holds (keys are compared after unescaping).
 *
 * Beyond the syntax, the figures must agree: every entry's bytes_read is
 * the sum of its histogram, its counted is the sum of its bins' counts and
 * at most bytes_read (which bytes a view counts depends on options the
 * result does not record), and total.histogram is the sum of the inputs'
 * histograms.  No sum may pass 2^64-1.  An entry that carries an "error"
 * (an input that failed when it was counted) makes the whole result fail:
 * its counts are not all there; so does a top-level "error", which a run
 * that failed as a whole writes (its list of names unreadable, no thread
 * to count with): some of its inputs may have no entry at all.
 *
 * With -m, every entry must carry "chars" (the code points of -m's json):
 * keys as gpuhist names bins ("U+0041", "0xc3"), each once, whose UTF-8
 * bytes add up to the entry's histogram exactly; the total's chars must be
 * the sum of the inputs'.
 *
 * With --stats, an entry's "stats" may carry the exact sums that pi and
 * the serial correlation are made from ("pairs", "groups", "hits": see
 * struct gpuhist_stream); the other figures are made again from the
 * histogram.  The sums must be in every entry or in none, agree with the
 * histogram (no more groups than bytes / 6, no more hits than groups, no
 * pair past 255 x 255 a byte), and the total's must be the inputs' added
 * up.  Without them pi and the serial correlation are not known.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "merge_bytes.h"

/* What one entry (an input's or the total) holds. */
enum {
	KEY_NAME = 1, KEY_BYTES_READ = 2, KEY_COUNTED = 4, KEY_BINS = 8,
	KEY_HISTOGRAM = 16, KEY_ERROR = 32, KEY_CHARS = 64, KEY_STATS = 128,
	KEY_RESULT = KEY_NAME | KEY_BYTES_READ | KEY_COUNTED | KEY_BINS |
		     KEY_HISTOGRAM,
};

struct entry {
	char where[32];             /* "inputs[3]" or "total" */
	unsigned seen;              /* KEY_* */
	uint64_t bytes_read, counted;
	uint64_t bins_sum;          /* the bins' counts added up */
	uint64_t hist_sum;          /* the histogram's values added up */
	int n_hist;                 /* values in the histogram */
	uint64_t hist[256];
	char name[GH_JSON_TEXT], error[GH_JSON_TEXT];
	struct gpuhist_chars *chars;    /* -m: its chars go here, else NULL */
	struct gpuhist_chars *seen_chars;   /* -m: the keys read */
	uint64_t chars_sum;             /* its chars' counts added up */
	unsigned seen_sums;             /* stats: which of its sums came */
	struct gpuhist_stream sums;
};

/* The sums of "stats", one bit each. */
static const char *const sum_keys[3] = { "pairs", "groups", "hits" };
#define SUMS_ALL 7u



static int histogram_value(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;
	char what[32];

	(void)depth;
	if (i >= 256)
		return gh_json_refuse(r, "%s: histogram holds more than 256 values",
			      e->where);
	snprintf(what, sizeof(what), "histogram[%d]", (int)i);
	if (gh_json_read_count(r, e->where, what, &e->hist[i]))
		return -1;
	e->n_hist++;
	if (gh_add_u64(&e->hist_sum, e->hist[i]))
		return gh_json_refuse(r, "%s: the histogram's values add up to more "
			      "than 2^64-1", e->where);
	return 0;
}

/* A member of one {"bin": ..., "count": N}; the counts are summed. */
static int bin_member(struct gh_json *r, int depth, const char *key, void *ctx)
{
	struct entry *e = ctx;
	uint64_t count;

	if (strcmp(key, "count"))
		return gh_json_skip_value(r, depth);
	if (gh_json_read_count(r, e->where, "a bin's count", &count))
		return -1;
	if (gh_add_u64(&e->bins_sum, count))
		return gh_json_refuse(r, "%s: the bins' counts add up to more than "
			      "2^64-1", e->where);
	return 0;
}

static int bin_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;

	(void)i;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s: bins must hold objects", e->where);
	return gh_json_read_object(r, depth, bin_member, e);
}

/* The bin a machine name of -m's json names ("U+0041", "0xc3", as the
 * command writes them): 0, or -1 when it names none. */
static int bin_of_name(const char *name, uint32_t *bin)
{
	static const char upper[] = "0123456789ABCDEF";
	static const char lower[] = "0123456789abcdef";
	size_t len = strlen(name);
	uint32_t v = 0;

	if (len == 4 && name[0] == '0' && name[1] == 'x') {
		for (int i = 2; i < 4; i++) {
			const char *d = name[i] ? strchr(lower, name[i]) : NULL;

			if (!d)
				return -1;
			v = v * 16 + (uint32_t)(d - lower);
		}
		if (v < 0x80)
			return -1;
		*bin = GPUHIST_CHAR_INVALID + v - 0x80;
		return 0;
	}
	if (len < 6 || len > 8 || name[0] != 'U' || name[1] != '+')
		return -1;
	for (size_t i = 2; i < len; i++) {
		const char *d = name[i] ? strchr(upper, name[i]) : NULL;

		if (!d)
			return -1;
		v = v * 16 + (uint32_t)(d - upper);
	}
	/* The one spelling: four digits, more only where needed. */
	if (v > 0x10ffff || (len > 6 && name[2] == '0') ||
	    (v >= 0xd800 && v <= 0xdfff))
		return -1;
	*bin = v;
	return 0;
}

/* A member of "chars": "U+0041": N. */
static int char_member(struct gh_json *r, int depth, const char *key,
		       void *ctx)
{
	struct entry *e = ctx;
	uint32_t bin;
	uint64_t count;

	(void)depth;
	if (bin_of_name(key, &bin))
		return gh_json_refuse(r, "%s: chars: \"%s\" names no code point or "
			      "invalid byte", e->where, key);
	if (gh_json_read_count(r, e->where, "a count of chars", &count))
		return -1;
	/* seen counts each key once, so a key given twice is found even
	 * where its count is 0. */
	if (gpuhist_chars_get(e->seen_chars, bin))
		return gh_json_refuse(r, "%s: chars: \"%s\" is there twice", e->where,
			      key);
	if (gpuhist_chars_add(e->seen_chars, bin, 1) ||
	    gpuhist_chars_add(e->chars, bin, count))
		return gh_json_refuse(r, "%s: out of memory for chars", e->where);
	if (gh_add_u64(&e->chars_sum, count))
		return gh_json_refuse(r, "%s: chars add up to more than 2^64-1",
			      e->where);
	return 0;
}

/* A member of "stats": the sums are read, the figures passed over. */
static int stats_member(struct gh_json *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	uint64_t *at[3] = { &e->sums.pairs, &e->sums.groups, &e->sums.hits };

	for (unsigned k = 0; k < 3; k++) {
		if (strcmp(key, sum_keys[k]))
			continue;
		if (e->seen_sums & 1u << k)
			return gh_json_refuse(r, "%s: stats: \"%s\" is there twice",
				      e->where, key);
		e->seen_sums |= 1u << k;
		return gh_json_read_count(r, e->where, key, at[k]);
	}
	return gh_json_skip_value(r, depth);
}

static const struct gh_json_key entry_keys[] = {
	{ "name", KEY_NAME }, { "bytes_read", KEY_BYTES_READ },
	{ "counted", KEY_COUNTED }, { "bins", KEY_BINS },
	{ "histogram", KEY_HISTOGRAM }, { "error", KEY_ERROR },
	{ "chars", KEY_CHARS }, { "stats", KEY_STATS },
};

/* Which KEY_* a key of an entry is, 0 for others. */
static int entry_member(struct gh_json *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = gh_json_key_bit(entry_keys, GH_JSON_KEYS(entry_keys),
				       key);
	char want = bit == KEY_NAME || bit == KEY_ERROR ? '"'
		  : bit == KEY_BINS || bit == KEY_HISTOGRAM ? '['
		  : (bit == KEY_CHARS && e->chars) || bit == KEY_STATS ? '{'
		  : 0;

	if (gh_json_member_once(r, e->where, key, bit, &e->seen, want))
		return -1;
	switch (bit) {
	case KEY_NAME:
		return gh_json_read_text(r, e->name);
	case KEY_ERROR:
		return gh_json_read_text(r, e->error);
	case KEY_BYTES_READ:
		return gh_json_read_count(r, e->where, "bytes_read", &e->bytes_read);
	case KEY_COUNTED:
		return gh_json_read_count(r, e->where, "counted", &e->counted);
	case KEY_BINS:
		return gh_json_read_array(r, depth, bin_item, e);
	case KEY_HISTOGRAM:
		return gh_json_read_array(r, depth, histogram_value, e);
	case KEY_CHARS:
		if (e->chars)
			return gh_json_read_object(r, depth, char_member, e);
		return gh_json_skip_value(r, depth);
	case KEY_STATS:
		return gh_json_read_object(r, depth, stats_member, e);
	default:
		return gh_json_skip_value(r, depth);
	}
}

/*
 * Whether an entry's stream sums could come from its histogram: no more
 * groups than bytes / 6 (fewer where inputs were added up), no more hits
 * than groups, and pairs no more than the squares' sum (a sum of
 * products of neighbours, round a circle, never passes it).
 */
static bool sums_agree(const struct entry *e)
{
	uint64_t squares = 0;

	if (e->sums.groups > e->bytes_read / 6 || e->sums.hits > e->sums.groups)
		return false;
	for (uint64_t v = 0; v < 256; v++)
		if ((e->hist[v] && v * v > UINT64_MAX / e->hist[v]) ||
		    gh_add_u64(&squares, v * v * e->hist[v]))
			return true;    /* past 64 bits: pairs cannot pass it */
	return e->sums.pairs <= squares;
}

/* One entry, {"name": ..., ...}, read whole and its figures checked. */
static int read_entry(struct gh_json *r, int depth, struct entry *e)
{
	unsigned missing;

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
	missing = (KEY_RESULT | (e->chars ? KEY_CHARS : 0)) & ~e->seen;
	for (size_t i = 0; missing && i < sizeof(entry_keys) /
	     sizeof(entry_keys[0]); i++)
		if (missing & entry_keys[i].bit)
			return gh_json_refuse(r, "%s: no \"%s\"%s", e->where,
				      entry_keys[i].name,
				      entry_keys[i].bit == KEY_CHARS
				      ? " (--merge -m takes results of -m -f json; this one was written without -m)"
				      : "");
	if (e->n_hist != 256)
		return gh_json_refuse(r, "%s: histogram holds fewer than 256 values",
			      e->where);
	if (e->bytes_read != e->hist_sum)
		return gh_json_refuse(r, "%s: bytes_read is %llu, but the histogram "
			      "adds up to %llu", e->where,
			      (unsigned long long)e->bytes_read,
			      (unsigned long long)e->hist_sum);
	if (e->counted != e->bins_sum)
		return gh_json_refuse(r, "%s: counted is %llu, but the bins' counts "
			      "add up to %llu", e->where,
			      (unsigned long long)e->counted,
			      (unsigned long long)e->bins_sum);
	if (e->counted > e->bytes_read)
		return gh_json_refuse(r, "%s: counted (%llu) is more than bytes_read "
			      "(%llu)", e->where,
			      (unsigned long long)e->counted,
			      (unsigned long long)e->bytes_read);
	if (e->seen_sums && e->seen_sums != SUMS_ALL)
		return gh_json_refuse(r, "%s: stats: pairs, groups and hits go "
			      "together", e->where);
	if (e->seen_sums && !sums_agree(e))
		return gh_json_refuse(r, "%s: stats: pairs, groups and hits do not "
			      "agree with the histogram", e->where);
	if (e->chars) {
		uint64_t bytes[256];

		if (gpuhist_chars_bytes(e->chars, bytes) ||
		    memcmp(bytes, e->hist, sizeof(bytes)))
			return gh_json_refuse(r, "%s: chars do not add up to the "
				      "histogram", e->where);
		/* Every -m view counts every character. */
		if (e->counted != e->chars_sum)
			return gh_json_refuse(r, "%s: counted is %llu, but chars add "
				      "up to %llu", e->where,
				      (unsigned long long)e->counted,
				      (unsigned long long)e->chars_sum);
	}
	return 0;
}

/* The whole document: its inputs added up, its total kept. */
struct doc {
	uint64_t inputs_sum[256];
	uint64_t *total;            /* total.histogram goes here */
	struct entry e;             /* the entry being read */
	bool chars;                 /* -m: chars are read and checked */
	struct gpuhist_chars entry_chars;   /* the entry's */
	struct gpuhist_chars seen;          /* the entry's keys */
	struct gpuhist_chars inputs_chars;  /* the inputs' added up */
	struct gpuhist_chars *total_chars;  /* total.chars goes here */
	uint64_t n_inputs, n_sums;          /* inputs, those with sums */
	struct gpuhist_stream inputs_sums;  /* theirs added up */
	struct gpuhist_stream total_sums;   /* total's, when there */
	bool total_has_sums;
};

/* Empties chars, keeping its pages for the next entry. */
static void clear_chars(struct gpuhist_chars *chars)
{
	for (size_t p = 0; p < GPUHIST_CHAR_PAGES; p++)
		if (chars->page[p])
			memset(chars->page[p], 0,
			       GPUHIST_CHAR_PAGE * sizeof(uint64_t));
}

static int input_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct doc *d = ctx;

	memset(&d->e, 0, sizeof(d->e));
	snprintf(d->e.where, sizeof(d->e.where), "inputs[%llu]",
		 (unsigned long long)i);
	if (d->chars) {
		clear_chars(&d->entry_chars);
		clear_chars(&d->seen);
		d->e.chars = &d->entry_chars;
		d->e.seen_chars = &d->seen;
	}
	if (read_entry(r, depth, &d->e))
		return -1;
	if (d->chars && gpuhist_chars_merge(&d->inputs_chars, &d->entry_chars))
		return gh_json_refuse(r, "the inputs' chars add up to more than 2^64-1");
	for (int c = 0; c < 256; c++)
		if (gh_add_u64(&d->inputs_sum[c], d->e.hist[c]))
			return gh_json_refuse(r, "the inputs' histograms add up to "
				      "more than 2^64-1 (byte value %d)", c);
	d->n_inputs++;
	if (d->e.seen_sums) {
		d->n_sums++;
		if (gh_add_u64(&d->inputs_sums.pairs, d->e.sums.pairs) ||
		    gh_add_u64(&d->inputs_sums.groups, d->e.sums.groups) ||
		    gh_add_u64(&d->inputs_sums.hits, d->e.sums.hits))
			return gh_json_refuse(r, "the inputs' stats add up to more "
				      "than 2^64-1");
	}
	return 0;
}

/* The "total" entry. */
static int total_entry(struct gh_json *r, int depth, void *ctx)
{
	struct doc *d = ctx;

	memset(&d->e, 0, sizeof(d->e));
	strcpy(d->e.where, "total");
	d->e.chars = d->total_chars;
	if (d->chars) {
		clear_chars(&d->seen);
		d->e.seen_chars = &d->seen;
	}
	if (read_entry(r, depth, &d->e))
		return -1;
	memcpy(d->total, d->e.hist, sizeof(d->e.hist));
	d->total_has_sums = d->e.seen_sums != 0;
	d->total_sums = d->e.sums;
	return 0;
}

static int read_document(struct gh_json *r, void *ctx)
{
	struct doc *d = ctx;
	struct gh_json_result res = { input_item, total_entry, d, 0, 0 };

	if (gh_json_read_result(r, &res))
		return -1;
	for (int c = 0; c < 256; c++)
		if (d->total[c] != d->inputs_sum[c])
			return gh_json_refuse(r, "total: histogram is not the sum of "
				      "the inputs' (byte value %d)", c);
	if (d->n_sums != (d->total_has_sums ? d->n_inputs : 0))
		return gh_json_refuse(r, "stats: some entries carry pairs, groups and "
			      "hits, others do not");
	if (d->total_has_sums &&
	    (d->total_sums.pairs != d->inputs_sums.pairs ||
	     d->total_sums.groups != d->inputs_sums.groups ||
	     d->total_sums.hits != d->inputs_sums.hits))
		return gh_json_refuse(r, "total: stats are not the sum of the inputs'");
	for (uint32_t b = 0; d->chars && b < GPUHIST_CHAR_BINS; b++)
		if (gpuhist_chars_get(d->total_chars, b) !=
		    gpuhist_chars_get(&d->inputs_chars, b))
			return gh_json_refuse(r, "total: chars are not the sum of the "
				      "inputs'");
	return 0;
}

/* Whether totals can join sum, the results merged before: no byte value's
 * count, and not their sum, may pass 2^64-1. */
static int fits(const char *name, const uint64_t sum[256],
		const uint64_t totals[256], struct gh_notes *notes)
{
	uint64_t all = 0;

	for (int c = 0; c < 256; c++) {
		if (sum[c] > UINT64_MAX - totals[c]) {
			gh_note(notes, "%s: its counts and those of the results before "
			       "it add up to more than 2^64-1 (byte value %d)",
			       name, c);
			return -1;
		}
		if (gh_add_u64(&all, sum[c]) || gh_add_u64(&all, totals[c])) {
			gh_note(notes, "%s: its counts and those of the results before "
			       "it add up to more than 2^64-1 bytes", name);
			return -1;
		}
	}
	return 0;
}

int gh_merge_bytes_read(const char *name, const struct gpuhist_options *opts,
			struct gpuhist_merge *m, struct gh_notes *notes)
{
	static const uint64_t none[256];
	struct doc *d = calloc(1, sizeof(*d));
	uint64_t got[256];
	int ret;

	(void)opts;
	if (!d) {
		gh_note(notes, "%s: out of memory", name);
		return -1;
	}
	d->total = got;
	d->chars = m->chars != NULL;
	d->total_chars = m->chars;
	ret = gh_json_read_file(name, "a gpuhist json result", read_document, d,
				notes);
	if (!ret)
		ret = fits(name, m->sum ? m->sum : none, got, notes);
	if (!ret) {
		memcpy(m->totals, got, sizeof(got));
		m->stream_known = d->total_has_sums;
		m->stream = d->total_sums;
	}
	gpuhist_chars_free(&d->entry_chars);
	gpuhist_chars_free(&d->inputs_chars);
	gpuhist_chars_free(&d->seen);
	free(d);
	return ret;
}
