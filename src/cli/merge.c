/* merge.c - reading the 256 totals back from a -f json result (--merge)
 *
 * A strict JSON reader (RFC 8259) that streams: the document is read
 * through one fixed buffer and checked as it is read, so memory does not
 * grow with its size and any result gpuhist writes can be merged, however
 * many inputs it holds.  Strings are decoded (keys are compared after
 * unescaping) and must be valid UTF-8; a \u escape of a lone surrogate is
 * refused, as raw UTF-8 of one is.  Counts are exact unsigned 64-bit
 * integers: a minus sign, a fraction or an exponent is refused, and so is a
 * value past 2^64-1.
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

#include "charview.h"
#include "merge.h"
#include "msg.h"

#define GH_MERGE_BUF (64u << 10)    /* the document is read this much at once */
#define GH_MERGE_DEPTH 64           /* arrays and objects nested at most */
#define GH_MERGE_KEY 16             /* keys longer than this are none we know */
#define GH_MERGE_TEXT 256           /* a name or error kept for a message */

/* The document being read, and why it is refused. */
struct reader {
	FILE *f;
	unsigned char buf[GH_MERGE_BUF];
	size_t pos, len;
	uint64_t offset;            /* of buf[0] in the document */
	int read_errno;             /* a read failed: why */
	int failed_input;           /* refused for an entry with an error */
	char why[GH_MERGE_TEXT * 2 + 128];
};

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
	char name[GH_MERGE_TEXT], error[GH_MERGE_TEXT];
	struct gpuhist_chars *chars;    /* -m: its chars go here, else NULL */
	struct gpuhist_chars *seen_chars;   /* -m: the keys read */
	uint64_t chars_sum;             /* its chars' counts added up */
	unsigned seen_sums;             /* stats: which of its sums came */
	struct gpuhist_stream sums;
};

/* The sums of "stats", one bit each. */
static const char *const sum_keys[3] = { "pairs", "groups", "hits" };
#define SUMS_ALL 7u

/* A number as read: its grammar checked, its value if it is a count. */
struct number {
	int is_count;               /* no minus, fraction or exponent */
	int too_big;                /* a count past 2^64-1 */
	uint64_t value;
	char text[44];              /* its first characters, for messages */
	size_t len;
};

/* Sets why the document is refused (the first reason only); returns -1. */
__attribute__((format(printf, 2, 3)))
static int refuse(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->why[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The offset of the next byte, for messages about the syntax. */
static uint64_t here(const struct reader *r)
{
	return r->offset + r->pos;
}

/* The next byte, or -1 at the end (or after a read error). */
static int peek(struct reader *r)
{
	if (r->pos == r->len) {
		if (r->read_errno || feof(r->f))
			return -1;
		r->offset += r->len;
		r->pos = 0;
		r->len = fread(r->buf, 1, sizeof(r->buf), r->f);
		if (!r->len) {
			if (ferror(r->f))
				r->read_errno = errno ? errno : EIO;
			return -1;
		}
	}
	return r->buf[r->pos];
}

static int next(struct reader *r)
{
	int c = peek(r);

	if (c >= 0)
		r->pos++;
	return c;
}

static int syntax(struct reader *r, const char *what)
{
	if (peek(r) < 0)
		return refuse(r, "malformed JSON: it ends early (%s)", what);
	return refuse(r, "malformed JSON at byte %llu: %s",
		      (unsigned long long)here(r), what);
}

/* Only the four characters RFC 8259 calls whitespace. */
static void skip_ws(struct reader *r)
{
	int c;

	while ((c = peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		r->pos++;
}

/* Skips whitespace and the character c, which must come next. */
static int expect(struct reader *r, char c, const char *what)
{
	skip_ws(r);
	if (peek(r) != (unsigned char)c)
		return syntax(r, what);
	r->pos++;
	return 0;
}

/* Appends a decoded byte; *len counts them all, what did not fit too. */
static void put_byte(char *out, size_t cap, size_t *len, int c)
{
	if (out && *len < cap)
		out[*len] = (char)c;
	(*len)++;
}

static void put_utf8(char *out, size_t cap, size_t *len, uint32_t cp)
{
	if (cp < 0x80) {
		put_byte(out, cap, len, (int)cp);
	} else if (cp < 0x800) {
		put_byte(out, cap, len, 0xc0 | (int)(cp >> 6));
		put_byte(out, cap, len, 0x80 | (int)(cp & 0x3f));
	} else if (cp < 0x10000) {
		put_byte(out, cap, len, 0xe0 | (int)(cp >> 12));
		put_byte(out, cap, len, 0x80 | (int)(cp >> 6 & 0x3f));
		put_byte(out, cap, len, 0x80 | (int)(cp & 0x3f));
	} else {
		put_byte(out, cap, len, 0xf0 | (int)(cp >> 18));
		put_byte(out, cap, len, 0x80 | (int)(cp >> 12 & 0x3f));
		put_byte(out, cap, len, 0x80 | (int)(cp >> 6 & 0x3f));
		put_byte(out, cap, len, 0x80 | (int)(cp & 0x3f));
	}
}

/* The four hex digits of a \u escape. */
static int read_hex4(struct reader *r, uint32_t *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int c = peek(r), d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return syntax(r, "a \\u escape needs four hex digits");
		r->pos++;
		*cp = *cp << 4 | (uint32_t)d;
	}
	return 0;
}

/* A \u escape (the "\u" read), with the second half of a surrogate pair. */
static int read_u_escape(struct reader *r, uint32_t *cp)
{
	uint32_t low;

	if (read_hex4(r, cp))
		return -1;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return syntax(r, "a \\u escape of a lone low surrogate");
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (next(r) != '\\' || next(r) != 'u')
		return syntax(r, "a \\u escape of a lone high surrogate");
	if (read_hex4(r, &low))
		return -1;
	if (low < 0xdc00 || low > 0xdfff)
		return syntax(r, "a \\u escape of a lone high surrogate");
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 0;
}

/* The rest of a raw UTF-8 sequence whose first byte c was read: it must be
 * well formed (no overlong form, surrogate, or value past U+10FFFF). */
static int read_utf8(struct reader *r, int c, char *out, size_t cap,
		     size_t *len)
{
	uint32_t cp, min;
	int n;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 1, cp = (uint32_t)c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2, cp = (uint32_t)c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3, cp = (uint32_t)c & 0x07, min = 0x10000;
	} else {
		r->pos--;
		return syntax(r, "a string that is not valid UTF-8");
	}
	for (int i = 0; i < n; i++) {
		int b = peek(r);

		if (b < 0 || (b & 0xc0) != 0x80)
			return syntax(r, "a string that is not valid UTF-8");
		r->pos++;
		cp = cp << 6 | ((uint32_t)b & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return syntax(r, "a string that is not valid UTF-8");
	put_utf8(out, cap, len, cp);
	return 0;
}

/* A string, decoded into out (at most cap bytes kept; out may be NULL);
 * *len is its whole decoded length. */
static int read_string(struct reader *r, char *out, size_t cap, size_t *len)
{
	static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
	size_t n = 0;

	if (expect(r, '"', "a string should begin with '\"'"))
		return -1;
	for (;;) {
		int c = next(r);
		uint32_t cp;
		const char *esc;

		if (c < 0)
			return syntax(r, "a string is not closed");
		if (c == '"')
			break;
		if (c < 0x20) {
			r->pos--;
			return syntax(r, "a raw control character in a string");
		}
		if (c >= 0x80) {
			if (read_utf8(r, c, out, cap, &n))
				return -1;
		} else if (c != '\\') {
			put_byte(out, cap, &n, c);
		} else if ((c = next(r)) == 'u') {
			if (read_u_escape(r, &cp))
				return -1;
			put_utf8(out, cap, &n, cp);
		} else if (c > 0 && (esc = strchr(plain, c))) {
			put_byte(out, cap, &n, meant[esc - plain]);
		} else {
			if (c >= 0)
				r->pos--;
			return syntax(r, "an unknown escape in a string");
		}
	}
	*len = n;
	return 0;
}

/* A string kept for a message: NUL-terminated, cut short with "...", and
 * control characters shown as '?'. */
static int read_text(struct reader *r, char out[GH_MERGE_TEXT])
{
	size_t len, keep = GH_MERGE_TEXT - 4;

	if (read_string(r, out, keep, &len))
		return -1;
	if (len > keep)
		memcpy(out + keep, "...", 4);
	else
		out[len] = '\0';
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return 0;
}

/* Keeps the first characters of a number for messages. */
static void keep_char(struct number *n, int c)
{
	if (n->len < sizeof(n->text) - 4) {
		n->text[n->len] = (char)c;
		n->text[n->len + 1] = '\0';
	} else if (n->len == sizeof(n->text) - 4) {
		strcpy(n->text + n->len, "...");
	}
	n->len++;
}

/* Digits, at least one; accumulated into n->value when n->is_count. */
static int read_digits(struct reader *r, struct number *n, int count)
{
	int c, any = 0;

	while ((c = peek(r)) >= '0' && c <= '9') {
		unsigned d = (unsigned)(c - '0');

		r->pos++;
		keep_char(n, c);
		any = 1;
		if (!count)
			continue;
		if (n->value > (UINT64_MAX - d) / 10)
			n->too_big = 1;
		else
			n->value = n->value * 10 + d;
	}
	return any ? 0 : syntax(r, "a number needs a digit here");
}

/* A number, as RFC 8259's grammar has it: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)? */
static int read_number(struct reader *r, struct number *n)
{
	int c;

	memset(n, 0, sizeof(*n));
	n->is_count = 1;
	skip_ws(r);
	if (peek(r) == '-') {
		keep_char(n, next(r));
		n->is_count = 0;
	}
	c = peek(r);
	if (c == '0') {
		keep_char(n, next(r));
		c = peek(r);
		if (c >= '0' && c <= '9')
			return syntax(r, "a number with a leading zero");
	} else if (c >= '1' && c <= '9') {
		if (read_digits(r, n, n->is_count))
			return -1;
	} else {
		return syntax(r, "not a JSON value");
	}
	if (peek(r) == '.') {
		keep_char(n, next(r));
		n->is_count = 0;
		if (read_digits(r, n, 0))
			return -1;
	}
	c = peek(r);
	if (c == 'e' || c == 'E') {
		keep_char(n, next(r));
		n->is_count = 0;
		c = peek(r);
		if (c == '+' || c == '-')
			keep_char(n, next(r));
		if (read_digits(r, n, 0))
			return -1;
	}
	return 0;
}

static int skip_value(struct reader *r, int depth);

/* true, false or null. */
static int skip_word(struct reader *r)
{
	static const char *const words[] = { "true", "false", "null" };
	int c = peek(r);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (c != words[i][0])
			continue;
		for (const char *w = words[i]; *w; w++)
			if (next(r) != *w)
				return syntax(r, "not a JSON value");
		return 0;
	}
	return syntax(r, "not a JSON value");
}

/* [ item, ... ]: calls item for each element, numbered from 0. */
static int read_array(struct reader *r, int depth,
		      int (*item)(struct reader *, int, uint64_t, void *),
		      void *ctx)
{
	uint64_t i = 0;

	if (depth > GH_MERGE_DEPTH)
		return refuse(r, "JSON nested too deeply");
	if (expect(r, '[', "expected an array"))
		return -1;
	skip_ws(r);
	if (peek(r) == ']') {
		r->pos++;
		return 0;
	}
	for (;; i++) {
		if (item(r, depth + 1, i, ctx))
			return -1;
		skip_ws(r);
		if (peek(r) == ']') {
			r->pos++;
			return 0;
		}
		if (expect(r, ',', "expected ',' or ']'"))
			return -1;
	}
}

/* { "key": member, ... }: calls member with each key, decoded (keys
 * longer than GH_MERGE_KEY are passed empty, as none that is known). */
static int read_object(struct reader *r, int depth,
		       int (*member)(struct reader *, int, const char *,
				     void *),
		       void *ctx)
{
	if (depth > GH_MERGE_DEPTH)
		return refuse(r, "JSON nested too deeply");
	if (expect(r, '{', "expected an object"))
		return -1;
	skip_ws(r);
	if (peek(r) == '}') {
		r->pos++;
		return 0;
	}
	for (;;) {
		char key[GH_MERGE_KEY + 1];
		size_t len;

		skip_ws(r);
		if (read_string(r, key, GH_MERGE_KEY, &len) ||
		    expect(r, ':', "expected ':' after a key"))
			return -1;
		/* A NUL inside a key makes it none we know, as its length
		 * does. */
		if (len > GH_MERGE_KEY || memchr(key, '\0', len))
			len = 0;
		key[len] = '\0';
		if (member(r, depth + 1, key, ctx))
			return -1;
		skip_ws(r);
		if (peek(r) == '}') {
			r->pos++;
			return 0;
		}
		if (expect(r, ',', "expected ',' or '}'"))
			return -1;
	}
}

static int skip_item(struct reader *r, int depth, uint64_t i, void *ctx)
{
	(void)i, (void)ctx;
	return skip_value(r, depth);
}

static int skip_member(struct reader *r, int depth, const char *key,
		       void *ctx)
{
	(void)key, (void)ctx;
	return skip_value(r, depth);
}

/* Any value, checked and passed over. */
static int skip_value(struct reader *r, int depth)
{
	struct number n;
	size_t len;

	skip_ws(r);
	switch (peek(r)) {
	case '{':
		return read_object(r, depth, skip_member, NULL);
	case '[':
		return read_array(r, depth, skip_item, NULL);
	case '"':
		return read_string(r, NULL, 0, &len);
	case 't':
	case 'f':
	case 'n':
		return skip_word(r);
	default:
		return read_number(r, &n);
	}
}

/* A count: an exact integer 0..2^64-1.  what names it in messages. */
static int read_count(struct reader *r, const char *where, const char *what,
		      uint64_t *v)
{
	struct number n;
	int c;

	skip_ws(r);
	c = peek(r);
	if (c < 0)
		return syntax(r, "expected a number");
	if (c != '-' && (c < '0' || c > '9'))
		return refuse(r, "%s: %s is not a non-negative integer", where,
			      what);
	if (read_number(r, &n))
		return -1;
	if (!n.is_count)
		return refuse(r, "%s: %s is not a non-negative integer: %s",
			      where, what, n.text);
	if (n.too_big)
		return refuse(r, "%s: %s is larger than 2^64-1: %s", where,
			      what, n.text);
	*v = n.value;
	return 0;
}

/* Adds b to *a; -1 when the sum would pass 2^64-1. */
static int add_u64(uint64_t *a, uint64_t b)
{
	if (*a > UINT64_MAX - b)
		return -1;
	*a += b;
	return 0;
}

static int histogram_value(struct reader *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;
	char what[32];

	(void)depth;
	if (i >= 256)
		return refuse(r, "%s: histogram holds more than 256 values",
			      e->where);
	snprintf(what, sizeof(what), "histogram[%d]", (int)i);
	if (read_count(r, e->where, what, &e->hist[i]))
		return -1;
	e->n_hist++;
	if (add_u64(&e->hist_sum, e->hist[i]))
		return refuse(r, "%s: the histogram's values add up to more "
			      "than 2^64-1", e->where);
	return 0;
}

/* A member of one {"bin": ..., "count": N}; the counts are summed. */
static int bin_member(struct reader *r, int depth, const char *key, void *ctx)
{
	struct entry *e = ctx;
	uint64_t count;

	if (strcmp(key, "count"))
		return skip_value(r, depth);
	if (read_count(r, e->where, "a bin's count", &count))
		return -1;
	if (add_u64(&e->bins_sum, count))
		return refuse(r, "%s: the bins' counts add up to more than "
			      "2^64-1", e->where);
	return 0;
}

static int bin_item(struct reader *r, int depth, uint64_t i, void *ctx)
{
	struct entry *e = ctx;

	(void)i;
	skip_ws(r);
	if (peek(r) != '{')
		return refuse(r, "%s: bins must hold objects", e->where);
	return read_object(r, depth, bin_member, e);
}

/* A member of "chars": "U+0041": N. */
static int char_member(struct reader *r, int depth, const char *key,
		       void *ctx)
{
	struct entry *e = ctx;
	uint32_t bin;
	uint64_t count;

	(void)depth;
	if (gh_charview_parse(key, &bin))
		return refuse(r, "%s: chars: \"%s\" names no code point or "
			      "invalid byte", e->where, key);
	if (read_count(r, e->where, "a count of chars", &count))
		return -1;
	/* seen counts each key once, so a key given twice is found even
	 * where its count is 0. */
	if (gpuhist_chars_get(e->seen_chars, bin))
		return refuse(r, "%s: chars: \"%s\" is there twice", e->where,
			      key);
	if (gpuhist_chars_add(e->seen_chars, bin, 1) ||
	    gpuhist_chars_add(e->chars, bin, count))
		return refuse(r, "%s: out of memory for chars", e->where);
	if (add_u64(&e->chars_sum, count))
		return refuse(r, "%s: chars add up to more than 2^64-1",
			      e->where);
	return 0;
}

/* A member of "stats": the sums are read, the figures passed over. */
static int stats_member(struct reader *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	uint64_t *at[3] = { &e->sums.pairs, &e->sums.groups, &e->sums.hits };

	for (unsigned k = 0; k < 3; k++) {
		if (strcmp(key, sum_keys[k]))
			continue;
		if (e->seen_sums & 1u << k)
			return refuse(r, "%s: stats: \"%s\" is there twice",
				      e->where, key);
		e->seen_sums |= 1u << k;
		return read_count(r, e->where, key, at[k]);
	}
	return skip_value(r, depth);
}

static const struct { const char *name; unsigned bit; } entry_keys[] = {
	{ "name", KEY_NAME }, { "bytes_read", KEY_BYTES_READ },
	{ "counted", KEY_COUNTED }, { "bins", KEY_BINS },
	{ "histogram", KEY_HISTOGRAM }, { "error", KEY_ERROR },
	{ "chars", KEY_CHARS }, { "stats", KEY_STATS },
};

/* Which KEY_* a key of an entry is, 0 for others. */
static unsigned entry_key(const char *key)
{
	for (size_t i = 0; i < sizeof(entry_keys) / sizeof(entry_keys[0]); i++)
		if (!strcmp(key, entry_keys[i].name))
			return entry_keys[i].bit;
	return 0;
}

static int entry_member(struct reader *r, int depth, const char *key,
			void *ctx)
{
	struct entry *e = ctx;
	unsigned bit = entry_key(key);
	char want = bit == KEY_NAME || bit == KEY_ERROR ? '"'
		  : bit == KEY_BINS || bit == KEY_HISTOGRAM ? '['
		  : (bit == KEY_CHARS && e->chars) || bit == KEY_STATS ? '{'
		  : 0;

	if (bit & e->seen)
		return refuse(r, "%s: \"%s\" is there twice", e->where, key);
	e->seen |= bit;
	skip_ws(r);
	if (want && peek(r) != want)
		return refuse(r, "%s: %s is not %s", e->where, key,
			      want == '"' ? "a string" : want == '{'
			      ? "an object" : "an array");
	switch (bit) {
	case KEY_NAME:
		return read_text(r, e->name);
	case KEY_ERROR:
		return read_text(r, e->error);
	case KEY_BYTES_READ:
		return read_count(r, e->where, "bytes_read", &e->bytes_read);
	case KEY_COUNTED:
		return read_count(r, e->where, "counted", &e->counted);
	case KEY_BINS:
		return read_array(r, depth, bin_item, e);
	case KEY_HISTOGRAM:
		return read_array(r, depth, histogram_value, e);
	case KEY_CHARS:
		if (e->chars)
			return read_object(r, depth, char_member, e);
		return skip_value(r, depth);
	case KEY_STATS:
		return read_object(r, depth, stats_member, e);
	default:
		return skip_value(r, depth);
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
		    add_u64(&squares, v * v * e->hist[v]))
			return true;    /* past 64 bits: pairs cannot pass it */
	return e->sums.pairs <= squares;
}

/* One entry, {"name": ..., ...}, read whole and its figures checked. */
static int read_entry(struct reader *r, int depth, struct entry *e)
{
	unsigned missing;

	skip_ws(r);
	if (peek(r) != '{')
		return refuse(r, "%s is not an object", e->where);
	if (read_object(r, depth, entry_member, e))
		return -1;
	if (e->seen & KEY_ERROR) {
		r->failed_input = 1;
		return refuse(r, "failed input %s: %s",
			      e->seen & KEY_NAME ? e->name : e->where,
			      e->error);
	}
	missing = (KEY_RESULT | (e->chars ? KEY_CHARS : 0)) & ~e->seen;
	for (size_t i = 0; missing && i < sizeof(entry_keys) /
	     sizeof(entry_keys[0]); i++)
		if (missing & entry_keys[i].bit)
			return refuse(r, "%s: no \"%s\"%s", e->where,
				      entry_keys[i].name,
				      entry_keys[i].bit == KEY_CHARS
				      ? " (--merge -m takes results of -m -f json; this one was written without -m)"
				      : "");
	if (e->n_hist != 256)
		return refuse(r, "%s: histogram holds fewer than 256 values",
			      e->where);
	if (e->bytes_read != e->hist_sum)
		return refuse(r, "%s: bytes_read is %llu, but the histogram "
			      "adds up to %llu", e->where,
			      (unsigned long long)e->bytes_read,
			      (unsigned long long)e->hist_sum);
	if (e->counted != e->bins_sum)
		return refuse(r, "%s: counted is %llu, but the bins' counts "
			      "add up to %llu", e->where,
			      (unsigned long long)e->counted,
			      (unsigned long long)e->bins_sum);
	if (e->counted > e->bytes_read)
		return refuse(r, "%s: counted (%llu) is more than bytes_read "
			      "(%llu)", e->where,
			      (unsigned long long)e->counted,
			      (unsigned long long)e->bytes_read);
	if (e->seen_sums && e->seen_sums != SUMS_ALL)
		return refuse(r, "%s: stats: pairs, groups and hits go "
			      "together", e->where);
	if (e->seen_sums && !sums_agree(e))
		return refuse(r, "%s: stats: pairs, groups and hits do not "
			      "agree with the histogram", e->where);
	if (e->chars) {
		uint64_t bytes[256];

		if (gpuhist_chars_bytes(e->chars, bytes) ||
		    memcmp(bytes, e->hist, sizeof(bytes)))
			return refuse(r, "%s: chars do not add up to the "
				      "histogram", e->where);
		/* Every -m view counts every character. */
		if (e->counted != e->chars_sum)
			return refuse(r, "%s: counted is %llu, but chars add "
				      "up to %llu", e->where,
				      (unsigned long long)e->counted,
				      (unsigned long long)e->chars_sum);
	}
	return 0;
}

/* The whole document: its inputs added up, its total kept. */
struct doc {
	int has_inputs, has_total;
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

static int input_item(struct reader *r, int depth, uint64_t i, void *ctx)
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
		return refuse(r, "the inputs' chars add up to more than 2^64-1");
	for (int c = 0; c < 256; c++)
		if (add_u64(&d->inputs_sum[c], d->e.hist[c]))
			return refuse(r, "the inputs' histograms add up to "
				      "more than 2^64-1 (byte value %d)", c);
	d->n_inputs++;
	if (d->e.seen_sums) {
		d->n_sums++;
		if (add_u64(&d->inputs_sums.pairs, d->e.sums.pairs) ||
		    add_u64(&d->inputs_sums.groups, d->e.sums.groups) ||
		    add_u64(&d->inputs_sums.hits, d->e.sums.hits))
			return refuse(r, "the inputs' stats add up to more "
				      "than 2^64-1");
	}
	return 0;
}

static int top_member(struct reader *r, int depth, const char *key,
		      void *ctx)
{
	struct doc *d = ctx;

	if (!strcmp(key, "inputs")) {
		if (d->has_inputs++)
			return refuse(r, "\"inputs\" is there twice");
		skip_ws(r);
		if (peek(r) != '[')
			return refuse(r, "inputs is not an array");
		return read_array(r, depth, input_item, d);
	}
	if (!strcmp(key, "total")) {
		if (d->has_total++)
			return refuse(r, "\"total\" is there twice");
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
	if (!strcmp(key, "error")) {    /* the run failed as a whole */
		char why[GH_MERGE_TEXT];

		skip_ws(r);
		if (peek(r) != '"')
			return refuse(r, "error is not a string");
		if (read_text(r, why))
			return -1;
		r->failed_input = 1;
		return refuse(r, "the run that wrote it failed: %s", why);
	}
	return skip_value(r, depth);
}

static int read_document(struct reader *r, struct doc *d)
{
	skip_ws(r);
	if (peek(r) != '{')
		return syntax(r, "a result is a JSON object");
	if (read_object(r, 0, top_member, d))
		return -1;
	skip_ws(r);
	if (peek(r) >= 0)
		return syntax(r, "text after the document");
	if (!d->has_inputs)
		return refuse(r, "no \"inputs\"");
	if (!d->has_total)
		return refuse(r, "no \"total\"");
	for (int c = 0; c < 256; c++)
		if (d->total[c] != d->inputs_sum[c])
			return refuse(r, "total: histogram is not the sum of "
				      "the inputs' (byte value %d)", c);
	if (d->n_sums != (d->total_has_sums ? d->n_inputs : 0))
		return refuse(r, "stats: some entries carry pairs, groups and "
			      "hits, others do not");
	if (d->total_has_sums &&
	    (d->total_sums.pairs != d->inputs_sums.pairs ||
	     d->total_sums.groups != d->inputs_sums.groups ||
	     d->total_sums.hits != d->inputs_sums.hits))
		return refuse(r, "total: stats are not the sum of the inputs'");
	for (uint32_t b = 0; d->chars && b < GPUHIST_CHAR_BINS; b++)
		if (gpuhist_chars_get(d->total_chars, b) !=
		    gpuhist_chars_get(&d->inputs_chars, b))
			return refuse(r, "total: chars are not the sum of the "
				      "inputs'");
	return 0;
}

/* Whether totals can join sum, the results merged before: no byte value's
 * count, and not their sum, may pass 2^64-1. */
static int fits(const char *name, const uint64_t sum[256],
		const uint64_t totals[256])
{
	uint64_t all = 0;

	for (int c = 0; c < 256; c++) {
		if (sum[c] > UINT64_MAX - totals[c]) {
			gh_msg("%s: its counts and those of the results before "
			       "it add up to more than 2^64-1 (byte value %d)",
			       name, c);
			return -1;
		}
		if (add_u64(&all, sum[c]) || add_u64(&all, totals[c])) {
			gh_msg("%s: its counts and those of the results before "
			       "it add up to more than 2^64-1 bytes", name);
			return -1;
		}
	}
	return 0;
}

int gh_merge_read(const char *name, const uint64_t sum[256],
		  uint64_t totals[256], struct gpuhist_chars *chars,
		  struct gpuhist_stream *stream, bool *stream_known)
{
	int is_stdin = !strcmp(name, "-");
	struct reader *r = calloc(1, sizeof(*r));
	struct doc *d = calloc(1, sizeof(*d));
	uint64_t got[256];
	int ret = -1;

	if (!r || !d) {
		gh_msg("%s: out of memory", name);
		goto out;
	}
	r->f = is_stdin ? stdin : fopen(name, "r");
	if (!r->f) {
		gh_msg_errno("%s", name);
		goto out;
	}
	d->total = got;
	d->chars = chars != NULL;
	d->total_chars = chars;
	ret = read_document(r, d);
	if (r->read_errno) {
		errno = r->read_errno;
		gh_msg_errno("%s", name);
		ret = -1;
	} else if (ret && r->failed_input) {
		gh_msg("%s: %s", name, r->why);
	} else if (ret) {
		gh_msg("%s: not a gpuhist json result: %s", name, r->why);
	}
	if (!is_stdin && fclose(r->f) && !ret) {
		gh_msg_errno("%s: close", name);
		ret = -1;
	}
	if (!ret)
		ret = fits(name, sum, got);
	if (!ret) {
		memcpy(totals, got, sizeof(got));
		if (stream_known)
			*stream_known = d->total_has_sums;
		if (stream)
			*stream = d->total_sums;
	}
out:
	if (d) {
		gpuhist_chars_free(&d->entry_chars);
		gpuhist_chars_free(&d->inputs_chars);
		gpuhist_chars_free(&d->seen);
	}
	free(r);
	free(d);
	return ret;
}
