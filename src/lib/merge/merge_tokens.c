/* merge_tokens.c - the tokens views' reader of results (readers.c's
 * row): token counts read back from a -f json result of a tokens view
 * (--merge with -t, --lines, --field or --key)
 *
 * The document is read by json_read.c's strict reader, which streams;
 * tokens are read as bytes (each \udc80..\udcff the byte it escapes, as
 * the json was written), of any length.  Its "total" entry's counts are
 * what is merged; every entry is checked:
 *   - name, view, bytes_read, tokens, distinct and counts are there, each
 *     once, and view (with field and separator) is the merging command's;
 *   - counts holds {"token": ..., "count": ...} objects, as many as
 *     distinct, whose counts add up to tokens; where per groups another
 *     view by interval, each has an "interval" too, and the token merged
 *     is the interval, a tab and the token (as the library counts it);
 *   - no "other": a result cut by --top lacks tokens, and cannot be added
 *     up exactly; no "error" (a failed input), no top-level "error";
 *   - the total's bytes_read and tokens are the inputs' added up, and so
 *     is its fingerprint: the sum over its tokens of a 64-bit hash of the
 *     token times its count (mod 2^64), which a token moved, dropped or
 *     miscounted between the inputs and the total changes (but for odds
 *     of 2^-64), without the inputs' tokens held anywhere;
 *   - the total's tokens are distinct (added into the sum, they make as
 *     many as its distinct says).
 * A result of --per beside a bytes view (-b, -c, -w: "view" bytes,
 * classes or letters, with "per") holds its bins folded as the view
 * shows them, and its "histograms": each interval's 256 byte totals,
 * keyed by the interval.  Those are what is read, whatever view the bins
 * were folded into: each byte value seen is a token of the interval, a
 * tab and the byte, as the library counts it (GPUHIST_TOKENS_BYTES).
 * Such an entry has no tokens or distinct: they are its histograms' sum
 * and the (interval, byte) pairs seen, and its counted is at most that
 * sum (equal, but for the letters view's).
 * A result of --per beside -m ("view" chars, with "per") holds its rows
 * as -m, -m -i or -m -c showed them, and its "chars": each interval's
 * code points as counted ({"U+0041": 3, "0xc3": 1}), keyed by the
 * interval; those are read, each a token of the interval, a tab and the
 * character's UTF-8 bytes (or the invalid byte), as the library counts
 * them (GPUHIST_TOKENS_CHARS), and they add up to counted.
 * No sum may pass 2^64-1.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chars.h"
#include "json_read.h"
#include "merge_tokens.h"

enum {
	KEY_NAME = 1, KEY_VIEW = 2, KEY_FIELD = 4, KEY_SEPARATOR = 8,
	KEY_BYTES_READ = 16, KEY_TOKENS = 32, KEY_DISTINCT = 64,
	KEY_COUNTS = 128, KEY_OTHER = 256, KEY_ERROR = 512, KEY_FIELDS = 1024,
	KEY_KEY = 2048, KEY_PER = 4096, KEY_TIME_FIELD = 8192,
	KEY_TIME_KEY = 16384, KEY_TIME_FORMAT = 32768, KEY_COUNTED = 65536,
	KEY_HISTOGRAMS = 131072, KEY_CHARS = 262144,
	KEY_NEEDED = KEY_NAME | KEY_VIEW | KEY_BYTES_READ | KEY_TOKENS |
		     KEY_DISTINCT | KEY_COUNTS,
	/* --per beside a bytes view's */
	KEY_NEEDED_BYTES = KEY_NAME | KEY_VIEW | KEY_BYTES_READ | KEY_PER |
			   KEY_COUNTED | KEY_HISTOGRAMS,
	/* ... beside -m */
	KEY_NEEDED_CHARS = KEY_NAME | KEY_VIEW | KEY_BYTES_READ | KEY_PER |
			   KEY_COUNTED | KEY_CHARS,
};

static const struct gh_json_key entry_keys[] = {
	{ "name", KEY_NAME }, { "view", KEY_VIEW }, { "field", KEY_FIELD },
	{ "separator", KEY_SEPARATOR }, { "bytes_read", KEY_BYTES_READ },
	{ "tokens", KEY_TOKENS }, { "distinct", KEY_DISTINCT },
	{ "counts", KEY_COUNTS }, { "other", KEY_OTHER },
	{ "error", KEY_ERROR }, { "fields", KEY_FIELDS }, { "key", KEY_KEY },
	{ "per", KEY_PER }, { "time_field", KEY_TIME_FIELD },
	{ "time_key", KEY_TIME_KEY }, { "time_format", KEY_TIME_FORMAT },
	{ "counted", KEY_COUNTED }, { "histograms", KEY_HISTOGRAMS },
	{ "chars", KEY_CHARS },
};

/* What one entry (an input's or the total) holds. */
struct entry {
	char where[32];             /* "inputs[3]" or "total" */
	unsigned seen;              /* KEY_* */
	char name[GH_JSON_TEXT], error[GH_JSON_TEXT], view[16];
	char key[GH_JSON_TEXT];     /* the key view's path */
	char time_key[GH_JSON_TEXT], time_format[GH_JSON_TEXT];   /* per's */
	uint64_t field, separator, bytes_read, tokens, distinct, other;
	uint64_t per, time_field, counted;
	uint64_t rows, counts_sum, fingerprint;
	char interval_text[GH_JSON_KEY + 1];    /* a histogram's key */
	uint64_t histogram_len;                 /* ... and its values */
	gpuhist_token_sum *into;    /* the total's counts go here, else NULL */
	const struct gpuhist_options *opts;     /* the merging command's */
	int n_fields;               /* "fields": a key of several */
	uint64_t fields[GPUHIST_FIELDS_MAX];
	/* the row being read */
	unsigned char *token;
	size_t token_cap, token_len;
	uint64_t count;
	unsigned row_seen;          /* 1 token, 2 count; a key's field i:
				     * 4 << i; ROW_INTERVAL */
	unsigned char *interval;    /* per beside a view: the row's */
	size_t interval_cap, interval_len;
	unsigned char *part[GPUHIST_FIELDS_MAX];        /* a key's fields */
	size_t part_cap[GPUHIST_FIELDS_MAX], part_len[GPUHIST_FIELDS_MAX];
};

/* The whole document. */
struct doc {
	const struct gpuhist_options *opts;
	struct entry e;
	unsigned char *token;       /* the rows' buffer, kept between them */
	size_t token_cap;
	unsigned char *interval;    /* ... the rows' intervals' */
	size_t interval_cap;
	unsigned char *part[GPUHIST_FIELDS_MAX];        /* ... a key's */
	size_t part_cap[GPUHIST_FIELDS_MAX];
	uint64_t inputs_bytes, inputs_tokens, inputs_fingerprint;
	uint64_t total_bytes, total_tokens, total_fingerprint, total_distinct;
	gpuhist_token_sum *sum;
};

#define ROW_INTERVAL (1u << 20)

/* Whether per groups another view's tokens by interval. */
static bool grouped(const struct gpuhist_options *o)
{
	return o->per && o->tokens != GPUHIST_TOKENS_PER;
}

/* Whether the merge is of --per beside a bytes view. */
static bool bytes_per(const struct gpuhist_options *o)
{
	return o->tokens == GPUHIST_TOKENS_BYTES;
}

/* ... beside -m. */
static bool chars_per(const struct gpuhist_options *o)
{
	return o->tokens == GPUHIST_TOKENS_CHARS;
}

/* Either: each interval's counts under a key of its own, not rows. */
static bool by_interval(const struct gpuhist_options *o)
{
	return bytes_per(o) || chars_per(o);
}

/* Which of the merging command's key fields a row's member is ("field9"
 * of --field=1,9 is 1), or -1. */
static int key_part(const struct entry *e, const char *key)
{
	char name[24];

	for (int i = 0; i < e->opts->n_fields && e->opts->n_fields > 1;
	     i++) {
		snprintf(name, sizeof(name), "field%d", e->opts->fields[i]);
		if (!strcmp(key, name))
			return i;
	}
	return -1;
}

/* A key's row: its fields joined as the key was (key.h's join byte),
 * into e->token; 0, or -1 (refused). */
static int join_parts(struct gh_json *r, struct entry *e)
{
	const struct gpuhist_options *o = e->opts;
	unsigned char join = o->separator < 0 ? '\t'
			     : (unsigned char)o->separator;
	size_t len = (size_t)o->n_fields - 1;

	for (int i = 0; i < o->n_fields; i++) {
		if (e->part_len[i] && memchr(e->part[i], join, e->part_len[i]))
			return gh_json_refuse(r, "%s: counts[%llu]: field%d holds the byte that joins a key's fields",
					      e->where,
					      (unsigned long long)e->rows,
					      o->fields[i]);
		len += e->part_len[i];
	}
	if (len > e->token_cap) {
		unsigned char *t = realloc(e->token, len);

		if (!t) {
			r->ours = 1;
			return gh_json_refuse(r, "out of memory");
		}
		e->token = t;
		e->token_cap = len;
	}
	e->token_len = 0;
	for (int i = 0; i < o->n_fields; i++) {
		if (i)
			e->token[e->token_len++] = join;
		if (e->part_len[i])
			memcpy(e->token + e->token_len, e->part[i],
			       e->part_len[i]);
		e->token_len += e->part_len[i];
	}
	return 0;
}

/* The row's interval, a tab, then its token, in e->token; 0, or -1
 * (refused). */
static int with_interval(struct gh_json *r, struct entry *e)
{
	size_t n = e->interval_len, len = n + 1 + e->token_len;

	if (!gh_interval_label(e->interval, n))
		return gh_json_refuse(r, "%s: counts[%llu]: the interval is neither \"(no time)\" nor a start such as 2026-11-27T10:00:00Z",
				      e->where, (unsigned long long)e->rows);
	if (len > e->token_cap) {
		unsigned char *t = realloc(e->token, len);

		if (!t) {
			r->ours = 1;
			return gh_json_refuse(r, "out of memory");
		}
		e->token = t;
		e->token_cap = len;
	}
	if (e->token_len)
		memmove(e->token + n + 1, e->token, e->token_len);
	memcpy(e->token, e->interval, n);
	e->token[n] = '\t';
	e->token_len = len;
	return 0;
}

static int row_member(struct gh_json *r, int depth, const char *key,
		      void *ctx)
{
	struct entry *e = ctx;
	int part = key_part(e, key);

	if (part >= 0) {
		if (e->row_seen & (4u << part))
			return gh_json_refuse(r, "%s: counts[%llu]: \"%s\" is there twice",
					      e->where,
					      (unsigned long long)e->rows, key);
		e->row_seen |= 4u << part;
		gh_json_skip_ws(r);
		if (gh_json_peek(r) != '"')
			return gh_json_refuse(r, "%s: counts[%llu]: %s is not a string",
					      e->where,
					      (unsigned long long)e->rows, key);
		return gh_json_read_bytes(r, &e->part[part],
					  &e->part_cap[part],
					  &e->part_len[part]);
	}
	if (!strcmp(key, "interval") && grouped(e->opts)) {
		if (e->row_seen & ROW_INTERVAL)
			return gh_json_refuse(r, "%s: counts[%llu]: \"interval\" is there twice",
					      e->where, (unsigned long long)e->rows);
		e->row_seen |= ROW_INTERVAL;
		gh_json_skip_ws(r);
		if (gh_json_peek(r) != '"')
			return gh_json_refuse(r, "%s: counts[%llu]: interval is not a string",
					      e->where, (unsigned long long)e->rows);
		return gh_json_read_bytes(r, &e->interval, &e->interval_cap,
					  &e->interval_len);
	}
	if (!strcmp(key, "token")) {
		if (e->row_seen & 1)
			return gh_json_refuse(r, "%s: counts[%llu]: \"token\" is there twice",
					      e->where, (unsigned long long)e->rows);
		e->row_seen |= 1;
		gh_json_skip_ws(r);
		if (gh_json_peek(r) != '"')
			return gh_json_refuse(r, "%s: counts[%llu]: token is not a string",
					      e->where, (unsigned long long)e->rows);
		return gh_json_read_bytes(r, &e->token, &e->token_cap,
					  &e->token_len);
	}
	if (!strcmp(key, "count")) {
		if (e->row_seen & 2)
			return gh_json_refuse(r, "%s: counts[%llu]: \"count\" is there twice",
					      e->where, (unsigned long long)e->rows);
		e->row_seen |= 2;
		return gh_json_read_count(r, e->where, "a token's count",
					  &e->count);
	}
	return gh_json_skip_value(r, depth);
}

static int row_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;

	(void)i;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s: counts must hold objects",
				      e->where);
	e->row_seen = 0;
	if (gh_json_read_object(r, depth, row_member, e))
		return -1;
	if (grouped(e->opts)) {
		if (!(e->row_seen & ROW_INTERVAL))
			return gh_json_refuse(r, "%s: counts[%llu] has no \"interval\"",
					      e->where,
					      (unsigned long long)e->rows);
		e->row_seen &= ~ROW_INTERVAL;
	}
	if (e->opts->n_fields > 1) {
		unsigned all = ((4u << e->opts->n_fields) - 4) | 2;

		for (int i = 0; i < e->opts->n_fields; i++)
			if (!(e->row_seen & (4u << i)))
				return gh_json_refuse(r, "%s: counts[%llu] has no \"field%d\"",
						      e->where,
						      (unsigned long long)e->rows,
						      e->opts->fields[i]);
		if ((e->row_seen & all) != all)
			return gh_json_refuse(r, "%s: counts[%llu] has no \"count\"",
					      e->where,
					      (unsigned long long)e->rows);
		if (e->row_seen & 1)
			return gh_json_refuse(r, "%s: counts[%llu] has a \"token\" beside its key's fields",
					      e->where,
					      (unsigned long long)e->rows);
		if (join_parts(r, e))
			return -1;
	} else if (e->row_seen != 3) {
		return gh_json_refuse(r, "%s: counts[%llu] has no \"%s\"",
				      e->where, (unsigned long long)e->rows,
				      e->row_seen & 1 ? "count" : "token");
	}
	if (grouped(e->opts) && with_interval(r, e))
		return -1;
	if (!e->count)
		return gh_json_refuse(r, "%s: counts[%llu] is 0 (gpuhist lists only the tokens it saw)",
				      e->where, (unsigned long long)e->rows);
	if (gh_add_u64(&e->counts_sum, e->count))
		return gh_json_refuse(r, "%s: the counts add up to more than 2^64-1",
				      e->where);
	e->fingerprint += gh_token_hash(e->token, e->token_len) * e->count;
	e->rows++;
	if (e->into &&
	    gpuhist_token_sum_add(e->into, e->token, e->token_len, e->count)) {
		r->ours = 1;    /* a disk or memory error, not the document */
		return gh_json_refuse(r, "%s", gpuhist_token_sum_message(e->into));
	}
	return 0;
}

/* A unit of the interval being read (e->interval_text): its count (in
 * e->count, not 0) added as a token of the interval, a tab and the
 * unit's len (1..4) bytes. */
static int interval_unit(struct gh_json *r, struct entry *e,
			 const unsigned char *unit, size_t len)
{
	size_t n = strlen(e->interval_text);

	if (n + 1 + len > e->token_cap) {
		unsigned char *t = realloc(e->token, n + 1 + len);

		if (!t) {
			r->ours = 1;
			return gh_json_refuse(r, "out of memory");
		}
		e->token = t;
		e->token_cap = n + 1 + len;
	}
	memcpy(e->token, e->interval_text, n);
	e->token[n] = '\t';
	memcpy(e->token + n + 1, unit, len);
	e->token_len = n + 1 + len;
	if (gh_add_u64(&e->counts_sum, e->count))
		return gh_json_refuse(r, "%s: the histograms add up to more than 2^64-1",
				      e->where);
	e->fingerprint += gh_token_hash(e->token, e->token_len) * e->count;
	e->rows++;
	if (e->into &&
	    gpuhist_token_sum_add(e->into, e->token, e->token_len, e->count)) {
		r->ours = 1;    /* a disk or memory error, not the document */
		return gh_json_refuse(r, "%s", gpuhist_token_sum_message(e->into));
	}
	return 0;
}

/* A histogram's value i: the count of byte i in the interval, a token
 * of the interval, a tab and the byte. */
static int histogram_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;
	unsigned char b = (unsigned char)i;

	(void)depth;
	if (i >= 256)
		return gh_json_refuse(r, "%s: histograms[\"%s\"] holds more than 256 values",
				      e->where, e->interval_text);
	e->histogram_len = i + 1;
	if (gh_json_read_count(r, e->where, "a histogram's value", &e->count))
		return -1;
	return e->count ? interval_unit(r, e, &b, 1) : 0;
}

/* The value of hex digits [p, p + n) (lowercase or uppercase, as
 * upper says), or -1 for a character that is not one. */
static long hex_value(const char *p, size_t n, bool upper)
{
	long v = 0;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0'
			: upper && c >= 'A' && c <= 'F' ? c - 'A' + 10
			: !upper && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* A code point's name as -m writes it ("U+0041": four to six uppercase
 * hex digits, no surrogate, none past U+10FFFF; "0x80".."0xff" an
 * invalid byte) as the character's UTF-8 bytes, or the byte, in unit;
 * its length, or 0 for no such name. */
static size_t char_unit(const char *name, unsigned char unit[4])
{
	size_t len = strlen(name);
	long v;

	if (len == 4 && name[0] == '0' && name[1] == 'x') {
		v = hex_value(name + 2, 2, false);
		unit[0] = (unsigned char)v;
		return v >= 0x80 ? 1 : 0;
	}
	if (len < 6 || len > 8 || name[0] != 'U' || name[1] != '+' ||
	    (len > 6 && name[2] == '0'))
		return 0;
	v = hex_value(name + 2, len - 2, true);
	if (v < 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return (size_t)gh_chars_encode((uint32_t)v, unit);
}

/* An interval's "chars": {"U+0041": count, ...} */
static int char_member(struct gh_json *r, int depth, const char *key,
		       void *ctx)
{
	struct entry *e = ctx;
	unsigned char unit[4];
	size_t len = char_unit(key, unit);

	(void)depth;
	if (!len)
		return gh_json_refuse(r, "%s: chars[\"%s\"]: \"%.32s\" names no code point (U+0041) or invalid byte (0xc3)",
				      e->where, e->interval_text, key);
	if (gh_json_read_count(r, e->where, "a character's count", &e->count))
		return -1;
	if (!e->count)
		return gh_json_refuse(r, "%s: chars[\"%s\"][\"%s\"] is 0 (gpuhist lists only the characters it saw)",
				      e->where, e->interval_text, key);
	return interval_unit(r, e, unit, len);
}

/* "chars": {interval: {"U+0041": count, ...}, ...} */
static int chars_interval(struct gh_json *r, int depth, const char *key,
			  void *ctx)
{
	struct entry *e = ctx;

	if (!gh_interval_label((const unsigned char *)key, strlen(key)))
		return gh_json_refuse(r, "%s: chars: the key \"%.32s\" is neither \"(no time)\" nor a start such as 2026-11-27T10:00:00Z",
				      e->where, *key ? key
				      : "(longer than 32 bytes)");
	snprintf(e->interval_text, sizeof(e->interval_text), "%s", key);
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s: chars[\"%s\"] is not an object",
				      e->where, key);
	return gh_json_read_object(r, depth, char_member, e);
}

/* "histograms": {interval: [256 counts], ...} */
static int histogram_member(struct gh_json *r, int depth, const char *key,
			    void *ctx)
{
	struct entry *e = ctx;

	if (!gh_interval_label((const unsigned char *)key, strlen(key)))
		return gh_json_refuse(r, "%s: histograms: the key \"%.32s\" is neither \"(no time)\" nor a start such as 2026-11-27T10:00:00Z",
				      e->where, *key ? key
				      : "(longer than 32 bytes)");
	snprintf(e->interval_text, sizeof(e->interval_text), "%s", key);
	e->histogram_len = 0;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '[')
		return gh_json_refuse(r, "%s: histograms[\"%s\"] is not a list",
				      e->where, key);
	if (gh_json_read_array(r, depth, histogram_item, e))
		return -1;
	if (e->histogram_len != 256)
		return gh_json_refuse(r, "%s: histograms[\"%s\"] holds %llu values, not 256",
				      e->where, key,
				      (unsigned long long)e->histogram_len);
	return 0;
}

static int field_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;

	(void)depth;
	if (i >= GPUHIST_FIELDS_MAX)
		return gh_json_refuse(r, "%s: fields holds more than %d",
				      e->where, GPUHIST_FIELDS_MAX);
	e->n_fields = (int)i + 1;
	return gh_json_read_count(r, e->where, "fields", &e->fields[i]);
}

static int entry_member(struct gh_json *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = gh_json_key_bit(entry_keys, GH_JSON_KEYS(entry_keys),
				       key);
	char want = bit == KEY_NAME || bit == KEY_ERROR || bit == KEY_VIEW ||
		    bit == KEY_KEY || bit == KEY_TIME_KEY ||
		    bit == KEY_TIME_FORMAT ? '"' : bit == KEY_COUNTS ? '['
		    : bit == KEY_HISTOGRAMS || bit == KEY_CHARS ? '{' : 0;
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
	case KEY_TOKENS:
		return gh_json_read_count(r, e->where, "tokens", &e->tokens);
	case KEY_DISTINCT:
		return gh_json_read_count(r, e->where, "distinct",
					  &e->distinct);
	case KEY_OTHER:
		return gh_json_read_count(r, e->where, "other", &e->other);
	case KEY_PER:
		return gh_json_read_count(r, e->where, "per", &e->per);
	case KEY_TIME_FIELD:
		return gh_json_read_count(r, e->where, "time_field",
					  &e->time_field);
	case KEY_FIELDS:
		gh_json_skip_ws(r);
		/* (a count of them: --values per interval's, refused for
		 * its view) */
		if (gh_json_peek(r) != '[' && !strcmp(e->view, "values"))
			return gh_json_skip_value(r, depth);
		if (gh_json_peek(r) != '[')
			return gh_json_refuse(r, "%s: fields is not a list",
					      e->where);
		return gh_json_read_array(r, depth, field_item, e);
	case KEY_COUNTS:
		return gh_json_read_array(r, depth, row_item, e);
	case KEY_COUNTED:
		return gh_json_read_count(r, e->where, "counted", &e->counted);
	case KEY_HISTOGRAMS:
		if (!bytes_per(e->opts))
			return gh_json_skip_value(r, depth);
		return gh_json_read_object(r, depth, histogram_member, e);
	case KEY_CHARS:
		if (!chars_per(e->opts))
			return gh_json_skip_value(r, depth);
		return gh_json_read_object(r, depth, chars_interval, e);
	default:
		return gh_json_skip_value(r, depth);
	}
}

/* "fields 1,9" (", separator 58"), for a message. */
static void fields_text(char *out, size_t len, const char *view,
			const uint64_t *fields, int n, long long separator)
{
	size_t at = (size_t)snprintf(out, len, "%s ", view);

	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%llu",
				       i ? "," : "",
				       (unsigned long long)fields[i]);
	if (separator >= 0 && at < len)
		snprintf(out + at, len - at, ", separator %lld", separator);
}

/* Whether the entry's time was read as o reads it (a key, a format). */
static bool same_time(const struct entry *e, const struct gpuhist_options *o)
{
	if (!(e->seen & KEY_TIME_KEY) != !o->time_key ||
	    !(e->seen & KEY_TIME_FORMAT) != !o->time_format)
		return false;
	return (!o->time_key || !strcmp(e->time_key, o->time_key)) &&
	       (!o->time_format || !strcmp(e->time_format, o->time_format));
}

/* The view an entry names, as the merging command's options say it. */
static bool same_view(const struct entry *e, const struct gpuhist_options *o)
{
	if (by_interval(o))
		/* Any of the bytes views: the histograms are the bytes; -m,
		 * -m -i or -m -c: the code points. */
		return (chars_per(o) ? !strcmp(e->view, "chars")
			: !strcmp(e->view, "bytes") ||
			  !strcmp(e->view, "classes") ||
			  !strcmp(e->view, "letters")) && same_time(e, o) &&
		       (e->seen & KEY_PER) && e->per == (uint64_t)o->per &&
		       e->time_field == (uint64_t)o->time_field &&
		       !(e->seen & (KEY_FIELD | KEY_FIELDS | KEY_KEY)) &&
		       (o->separator < 0 ? !(e->seen & KEY_SEPARATOR)
					 : (e->seen & KEY_SEPARATOR) &&
					   e->separator ==
					   (uint64_t)o->separator);
	if (strcmp(e->view, gpuhist_view_name(o)) || !same_time(e, o))
		return false;
	if (o->tokens == GPUHIST_TOKENS_PER)
		return (e->seen & KEY_PER) && e->per == (uint64_t)o->per &&
		       e->time_field == (uint64_t)o->time_field &&
		       !(e->seen & (KEY_FIELD | KEY_FIELDS | KEY_KEY)) &&
		       (o->separator < 0 ? !(e->seen & KEY_SEPARATOR)
					 : (e->seen & KEY_SEPARATOR) &&
					   e->separator ==
					   (uint64_t)o->separator);
	if (grouped(o)) {
		if (!(e->seen & KEY_PER) || e->per != (uint64_t)o->per ||
		    e->time_field != (uint64_t)o->time_field)
			return false;
	} else if (e->seen & (KEY_PER | KEY_TIME_FIELD)) {
		return false;
	}
	/* A separator beside a view of no field splits the time field. */
	bool sep_ok = o->separator < 0 ? !(e->seen & KEY_SEPARATOR)
		      : (e->seen & KEY_SEPARATOR) &&
			e->separator == (uint64_t)o->separator;

	if (o->tokens == GPUHIST_TOKENS_KEY)
		return (e->seen & KEY_KEY) && !strcmp(e->key, o->key) &&
		       !(e->seen & (KEY_FIELD | KEY_FIELDS)) &&
		       (grouped(o) ? sep_ok : !(e->seen & KEY_SEPARATOR));
	if (o->tokens != GPUHIST_TOKENS_FIELD)
		return !(e->seen & (KEY_FIELD | KEY_FIELDS | KEY_KEY)) &&
		       (grouped(o) ? sep_ok : !(e->seen & KEY_SEPARATOR));
	if (o->n_fields > 1) {
		if (!(e->seen & KEY_FIELDS) || (e->seen & KEY_FIELD) ||
		    e->n_fields != o->n_fields)
			return false;
		for (int i = 0; i < o->n_fields; i++)
			if (e->fields[i] != (uint64_t)o->fields[i])
				return false;
	} else if (!(e->seen & KEY_FIELD) || (e->seen & KEY_FIELDS) ||
		   e->field != (uint64_t)o->field) {
		return false;
	}
	return o->separator < 0 ? !(e->seen & KEY_SEPARATOR)
			       : (e->seen & KEY_SEPARATOR) &&
				 e->separator == (uint64_t)o->separator;
}

static int read_entry(struct gh_json *r, int depth, struct doc *d,
		      const char *where, gpuhist_token_sum *into)
{
	struct entry *e = &d->e;
	unsigned missing;

	memset(e, 0, sizeof(*e));
	snprintf(e->where, sizeof(e->where), "%s", where);
	e->into = into;
	e->opts = d->opts;
	memcpy(e->part, d->part, sizeof(e->part));
	memcpy(e->part_cap, d->part_cap, sizeof(e->part_cap));
	e->token = d->token;
	e->token_cap = d->token_cap;
	e->interval = d->interval;
	e->interval_cap = d->interval_cap;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_refuse(r, "%s is not an object", e->where);
	int ret = gh_json_read_object(r, depth, entry_member, e);

	d->token = e->token;            /* grown, maybe */
	d->token_cap = e->token_cap;
	d->interval = e->interval;
	d->interval_cap = e->interval_cap;
	memcpy(d->part, e->part, sizeof(d->part));
	memcpy(d->part_cap, e->part_cap, sizeof(d->part_cap));
	if (ret)
		return -1;
	if (e->seen & KEY_ERROR) {
		r->failed_input = 1;
		return gh_json_refuse(r, "failed input %s: %s",
				      e->seen & KEY_NAME ? e->name : e->where,
				      e->error);
	}
	if ((e->seen & KEY_VIEW) && !strcmp(e->view, "values"))
		return gh_json_refuse(r, "%s: a result of --values, whose numbers --merge adds up with --values",
				      e->where);
	missing = (bytes_per(d->opts) ? KEY_NEEDED_BYTES
		   : chars_per(d->opts) ? KEY_NEEDED_CHARS : KEY_NEEDED) &
		  ~e->seen;
	/* Another view's result: said as that (below), not as the keys
	 * it lacks. */
	if ((e->seen & KEY_VIEW) && !same_view(e, d->opts))
		missing = 0;
	for (size_t i = 0; missing && i < sizeof(entry_keys) /
	     sizeof(entry_keys[0]); i++)
		if (missing & entry_keys[i].bit)
			return gh_json_refuse(r, "%s: no \"%s\"%s", e->where,
					      entry_keys[i].name,
					      entry_keys[i].bit != KEY_VIEW ? ""
					      : bytes_per(d->opts)
					      ? " (not a result of --per beside -b, -c or -w)"
					      : chars_per(d->opts)
					      ? " (not a result of --per beside -m)"
					      : " (not a result of a tokens view)");
	if (e->seen & KEY_OTHER)
		return gh_json_refuse(r, "%s: its rows were cut by --top (\"other\"): not every token is there to add up",
				      e->where);
	if (!same_view(e, d->opts)) {
		char view[96], ours[96];

		if ((e->seen & KEY_PER) && !strcmp(e->view, "per"))
			snprintf(view, sizeof(view), "per %llu s%s",
				 (unsigned long long)e->per,
				 e->time_field ? ", time field" : "");
		else if (e->seen & KEY_KEY)
			snprintf(view, sizeof(view), "key %.50s", e->key);
		else if (e->seen & KEY_FIELDS)
			fields_text(view, sizeof(view), e->view, e->fields,
				    e->n_fields, e->seen & KEY_SEPARATOR
				    ? (long long)e->separator : -1);
		else if (e->seen & KEY_SEPARATOR)
			snprintf(view, sizeof(view), "%s %llu, separator %llu",
				 e->view, (unsigned long long)e->field,
				 (unsigned long long)e->separator);
		else if (e->seen & KEY_FIELD)
			snprintf(view, sizeof(view), "%s %llu", e->view,
				 (unsigned long long)e->field);
		else
			snprintf(view, sizeof(view), "%s", e->view);
		uint64_t of[GPUHIST_FIELDS_MAX];

		for (int i = 0; i < d->opts->n_fields; i++)
			of[i] = (uint64_t)d->opts->fields[i];
		if (d->opts->tokens == GPUHIST_TOKENS_PER)
			snprintf(ours, sizeof(ours), "per %lld s%s",
				 d->opts->per, d->opts->time_field
				 ? ", time field" : "");
		else if (d->opts->tokens == GPUHIST_TOKENS_KEY)
			snprintf(ours, sizeof(ours), "key %.50s",
				 d->opts->key);
		else if (bytes_per(d->opts))
			snprintf(ours, sizeof(ours), "%s",
				 "a bytes view (bytes, classes, letters)");
		else if (d->opts->tokens != GPUHIST_TOKENS_FIELD)
			snprintf(ours, sizeof(ours), "%s",
				 gpuhist_view_name(d->opts));
		else if (d->opts->n_fields > 1)
			fields_text(ours, sizeof(ours), "fields", of,
				    d->opts->n_fields, d->opts->separator);
		else if (d->opts->separator >= 0)
			snprintf(ours, sizeof(ours), "field %d, separator %d",
				 d->opts->field, d->opts->separator);
		else
			snprintf(ours, sizeof(ours), "field %d",
				 d->opts->field);
		/* Another view grouped by interval: its interval too. */
		if ((e->seen & KEY_PER) && strcmp(e->view, "per"))
			snprintf(view + strlen(view),
				 sizeof(view) - strlen(view),
				 " per %llu s%s", (unsigned long long)e->per,
				 e->time_field ? " (time field)" : "");
		if (grouped(d->opts))
			snprintf(ours + strlen(ours),
				 sizeof(ours) - strlen(ours), " per %lld s%s",
				 d->opts->per, d->opts->time_field
				 ? " (time field)" : "");
		/* ... and where its time was read. */
		if (e->seen & (KEY_TIME_KEY | KEY_TIME_FORMAT))
			snprintf(view + strlen(view),
				 sizeof(view) - strlen(view),
				 ", time %s %.40s",
				 e->seen & KEY_TIME_KEY ? "key" : "format",
				 e->seen & KEY_TIME_KEY ? e->time_key
							: e->time_format);
		if (d->opts->time_key || d->opts->time_format)
			snprintf(ours + strlen(ours),
				 sizeof(ours) - strlen(ours),
				 ", time %s %.40s",
				 d->opts->time_key ? "key" : "format",
				 d->opts->time_key ? d->opts->time_key
						   : d->opts->time_format);
		return gh_json_refuse(r, "%s: tokens of the view %s, but this merge's is %s (results of different views do not add up)",
				      e->where, view, ours);
	}
	if (by_interval(d->opts)) {
		/* Its tokens are its histograms' values (or its chars'),
		 * each (interval, byte or character) seen a distinct one. */
		e->tokens = e->counts_sum;
		e->distinct = e->rows;
		if (e->counts_sum > e->bytes_read)
			return gh_json_refuse(r, "%s: its %s add up to %llu, more than its bytes_read",
					      e->where, chars_per(d->opts)
					      ? "chars" : "histograms",
					      (unsigned long long)e->counts_sum);
		if (strcmp(e->view, "letters") ? e->counted != e->counts_sum
					       : e->counted > e->counts_sum)
			return gh_json_refuse(r, "%s: counted is %llu, but its %s add up to %llu",
					      e->where,
					      (unsigned long long)e->counted,
					      chars_per(d->opts) ? "chars"
					      : "histograms",
					      (unsigned long long)e->counts_sum);
		return 0;
	}
	if (e->rows != e->distinct)
		return gh_json_refuse(r, "%s: distinct is %llu, but counts holds %llu",
				      e->where, (unsigned long long)e->distinct,
				      (unsigned long long)e->rows);
	if (e->counts_sum != e->tokens)
		return gh_json_refuse(r, "%s: tokens is %llu, but the counts add up to %llu",
				      e->where, (unsigned long long)e->tokens,
				      (unsigned long long)e->counts_sum);
	return 0;
}

static int input_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	struct doc *d = ctx;
	char where[32];

	snprintf(where, sizeof(where), "inputs[%llu]", (unsigned long long)i);
	if (read_entry(r, depth, d, where, NULL))
		return -1;
	if (gh_add_u64(&d->inputs_bytes, d->e.bytes_read) ||
	    gh_add_u64(&d->inputs_tokens, d->e.tokens))
		return gh_json_refuse(r, "the inputs' bytes_read or tokens add up to more than 2^64-1");
	d->inputs_fingerprint += d->e.fingerprint;
	return 0;
}

/* The "total" entry. */
static int total_entry(struct gh_json *r, int depth, void *ctx)
{
	struct doc *d = ctx;

	if (read_entry(r, depth, d, "total", d->sum))
		return -1;
	d->total_bytes = d->e.bytes_read;
	d->total_tokens = d->e.tokens;
	d->total_distinct = d->e.distinct;
	d->total_fingerprint = d->e.fingerprint;
	return 0;
}

static int read_document(struct gh_json *r, void *ctx)
{
	struct doc *d = ctx;
	const struct gpuhist_tokens *sum;
	struct gh_json_result res = { input_item, total_entry, d, 0, 0 };

	if (gh_json_read_result(r, &res))
		return -1;
	if (d->total_bytes != d->inputs_bytes)
		return gh_json_refuse(r, "total: bytes_read is not the sum of the inputs'");
	if (d->total_tokens != d->inputs_tokens)
		return gh_json_refuse(r, "total: %s is not the sum of the inputs'",
				      bytes_per(d->opts)
				      ? "its histograms' sum"
				      : chars_per(d->opts) ? "its chars' sum"
				      : "tokens");
	if (d->total_fingerprint != d->inputs_fingerprint)
		return gh_json_refuse(r, "total: its %s are not the inputs' added up",
				      bytes_per(d->opts) ? "histograms"
				      : chars_per(d->opts) ? "chars"
				      : "tokens' counts");
	sum = gpuhist_token_sum_end(d->sum);
	if (!sum) {
		r->ours = 1;    /* a disk or memory error, not the document */
		return gh_json_refuse(r, "%s", gpuhist_token_sum_message(d->sum));
	}
	if (sum->distinct != d->total_distinct)
		return gh_json_refuse(r, "total: %s is there twice",
				      by_interval(d->opts) ? "an interval"
				      : "a token");
	return 0;
}

int gh_merge_tokens_read(const char *name, const struct gpuhist_options *opts,
			 struct gpuhist_merge *m, struct gh_notes *notes)
{
	struct doc *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		gh_note(notes, "%s: out of memory", name);
		return -1;
	}
	d->opts = opts;
	d->sum = m->tokens;
	ret = gh_json_read_file(name, "a gpuhist json result of tokens",
				read_document, d, notes);
	if (!ret)
		m->totals[0] = d->total_bytes;
	free(d->token);
	free(d->interval);
	for (int i = 0; i < GPUHIST_FIELDS_MAX; i++)
		free(d->part[i]);
	free(d);
	return ret;
}
