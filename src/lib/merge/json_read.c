/* json_read.c - a strict JSON reader (RFC 8259) that streams, for
 * --merge (json_read.h) */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "notes.h"

/* A number as read: its grammar checked, its value if it is a count. */
struct number {
	int is_count;               /* no minus, fraction or exponent */
	int too_big;                /* a count past 2^64-1 */
	uint64_t value;
	char text[52];              /* its first characters, for messages */
	size_t len;
};

/* Sets why the document is refused (the first reason only); returns -1. */
int gh_json_refuse(struct gh_json *r, const char *fmt, ...)
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
static uint64_t here(const struct gh_json *r)
{
	return r->offset + r->pos;
}

/* The next byte, or -1 at the end (or after a read error). */
int gh_json_peek(struct gh_json *r)
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

int gh_json_next(struct gh_json *r)
{
	int c = gh_json_peek(r);

	if (c >= 0)
		r->pos++;
	return c;
}

int gh_json_syntax(struct gh_json *r, const char *what)
{
	if (gh_json_peek(r) < 0)
		return gh_json_refuse(r, "malformed JSON: it ends early (%s)", what);
	return gh_json_refuse(r, "malformed JSON at byte %llu: %s",
		      (unsigned long long)here(r), what);
}

/* Only the four characters RFC 8259 calls whitespace. */
void gh_json_skip_ws(struct gh_json *r)
{
	int c;

	while ((c = gh_json_peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		r->pos++;
}

/* Skips whitespace and the character c, which must come next. */
int gh_json_expect(struct gh_json *r, char c, const char *what)
{
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != (unsigned char)c)
		return gh_json_syntax(r, what);
	r->pos++;
	return 0;
}

/* Where a string's decoded bytes go: a fixed buffer (what does not fit
 * is counted, not kept; out may be NULL), or one that grows. */
struct sink {
	char *out;
	size_t cap, len;
	bool grow, nomem;
};

static void put_byte(struct sink *s, int c)
{
	if (s->grow && s->len == s->cap && !s->nomem) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		char *out = realloc(s->out, cap);

		if (out) {
			s->out = out;
			s->cap = cap;
		} else {
			s->nomem = true;
		}
	}
	if (s->out && s->len < s->cap)
		s->out[s->len] = (char)c;
	s->len++;
}

static void put_utf8(struct sink *s, uint32_t cp)
{
	if (cp < 0x80) {
		put_byte(s, (int)cp);
	} else if (cp < 0x800) {
		put_byte(s, 0xc0 | (int)(cp >> 6));
		put_byte(s, 0x80 | (int)(cp & 0x3f));
	} else if (cp < 0x10000) {
		put_byte(s, 0xe0 | (int)(cp >> 12));
		put_byte(s, 0x80 | (int)(cp >> 6 & 0x3f));
		put_byte(s, 0x80 | (int)(cp & 0x3f));
	} else {
		put_byte(s, 0xf0 | (int)(cp >> 18));
		put_byte(s, 0x80 | (int)(cp >> 12 & 0x3f));
		put_byte(s, 0x80 | (int)(cp >> 6 & 0x3f));
		put_byte(s, 0x80 | (int)(cp & 0x3f));
	}
}

/* What read_u_escape gives for a lone \udc80..\udcff read as a byte. */
#define RAW_BYTE 0x80000000u

/* The four hex digits of a \u escape. */
static int read_hex4(struct gh_json *r, uint32_t *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int c = gh_json_peek(r), d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return gh_json_syntax(r, "a \\u escape needs four hex digits");
		r->pos++;
		*cp = *cp << 4 | (uint32_t)d;
	}
	return 0;
}

/* A \u escape (the "\u" read), with the second half of a surrogate pair;
 * with raw, a lone \udc80..\udcff is RAW_BYTE | the byte it escapes. */
static int read_u_escape(struct gh_json *r, uint32_t *cp, bool raw)
{
	uint32_t low;

	if (read_hex4(r, cp))
		return -1;
	if (raw && *cp >= 0xdc80 && *cp <= 0xdcff) {
		*cp = RAW_BYTE | (*cp & 0xff);
		return 0;
	}
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return gh_json_syntax(r, "a \\u escape of a lone low surrogate");
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (gh_json_next(r) != '\\' || gh_json_next(r) != 'u')
		return gh_json_syntax(r, "a \\u escape of a lone high surrogate");
	if (read_hex4(r, &low))
		return -1;
	if (low < 0xdc00 || low > 0xdfff)
		return gh_json_syntax(r, "a \\u escape of a lone high surrogate");
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 0;
}

/* The rest of a raw UTF-8 sequence whose first byte c was read: it must be
 * well formed (no overlong form, surrogate, or value past U+10FFFF). */
static int read_utf8(struct gh_json *r, int c, struct sink *out)
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
		return gh_json_syntax(r, "a string that is not valid UTF-8");
	}
	for (int i = 0; i < n; i++) {
		int b = gh_json_peek(r);

		if (b < 0 || (b & 0xc0) != 0x80)
			return gh_json_syntax(r, "a string that is not valid UTF-8");
		r->pos++;
		cp = cp << 6 | ((uint32_t)b & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return gh_json_syntax(r, "a string that is not valid UTF-8");
	put_utf8(out, cp);
	return 0;
}

/* A string, decoded into s; raw: see read_u_escape. */
static int read_into(struct gh_json *r, struct sink *s, bool raw)
{
	static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";

	if (gh_json_expect(r, '"', "a string should begin with '\"'"))
		return -1;
	for (;;) {
		int c = gh_json_next(r);
		uint32_t cp;
		const char *esc;

		if (c < 0)
			return gh_json_syntax(r, "a string is not closed");
		if (c == '"')
			break;
		if (c < 0x20) {
			r->pos--;
			return gh_json_syntax(r, "a raw control character in a string");
		}
		if (c >= 0x80) {
			if (read_utf8(r, c, s))
				return -1;
		} else if (c != '\\') {
			put_byte(s, c);
		} else if ((c = gh_json_next(r)) == 'u') {
			if (read_u_escape(r, &cp, raw))
				return -1;
			if (cp & RAW_BYTE)
				put_byte(s, (int)(cp & 0xff));
			else
				put_utf8(s, cp);
		} else if (c > 0 && (esc = strchr(plain, c))) {
			put_byte(s, meant[esc - plain]);
		} else {
			if (c >= 0)
				r->pos--;
			return gh_json_syntax(r, "an unknown escape in a string");
		}
	}
	if (s->nomem)
		return gh_json_refuse(r, "out of memory for a string");
	return 0;
}

int gh_json_read_string(struct gh_json *r, char *out, size_t cap, size_t *len)
{
	struct sink s = { out, out ? cap : 0, 0, false, false };
	int ret = read_into(r, &s, false);

	*len = s.len;
	return ret;
}

int gh_json_read_bytes(struct gh_json *r, unsigned char **buf, size_t *cap,
		       size_t *len)
{
	struct sink s = { (char *)*buf, *cap, 0, true, false };
	int ret = read_into(r, &s, true);

	*buf = (unsigned char *)s.out;
	*cap = s.cap;
	*len = s.len;
	return ret;
}

/* A string kept for a message: NUL-terminated, cut short with "...", and
 * control characters shown as '?'. */
int gh_json_read_text(struct gh_json *r, char out[GH_JSON_TEXT])
{
	size_t len, keep = GH_JSON_TEXT - 4;

	if (gh_json_read_string(r, out, keep, &len))
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
static int read_digits(struct gh_json *r, struct number *n, int count)
{
	int c, any = 0;

	while ((c = gh_json_peek(r)) >= '0' && c <= '9') {
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
	return any ? 0 : gh_json_syntax(r, "a number needs a digit here");
}

/* A number, as RFC 8259's grammar has it: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)? */
static int read_number(struct gh_json *r, struct number *n)
{
	int c;

	memset(n, 0, sizeof(*n));
	n->is_count = 1;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) == '-') {
		keep_char(n, gh_json_next(r));
		n->is_count = 0;
	}
	c = gh_json_peek(r);
	if (c == '0') {
		keep_char(n, gh_json_next(r));
		c = gh_json_peek(r);
		if (c >= '0' && c <= '9')
			return gh_json_syntax(r, "a number with a leading zero");
	} else if (c >= '1' && c <= '9') {
		if (read_digits(r, n, n->is_count))
			return -1;
	} else {
		return gh_json_syntax(r, "not a JSON value");
	}
	if (gh_json_peek(r) == '.') {
		keep_char(n, gh_json_next(r));
		n->is_count = 0;
		if (read_digits(r, n, 0))
			return -1;
	}
	c = gh_json_peek(r);
	if (c == 'e' || c == 'E') {
		keep_char(n, gh_json_next(r));
		n->is_count = 0;
		c = gh_json_peek(r);
		if (c == '+' || c == '-')
			keep_char(n, gh_json_next(r));
		if (read_digits(r, n, 0))
			return -1;
	}
	return 0;
}


/* true, false or null. */
static int skip_word(struct gh_json *r)
{
	static const char *const words[] = { "true", "false", "null" };
	int c = gh_json_peek(r);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (c != words[i][0])
			continue;
		for (const char *w = words[i]; *w; w++)
			if (gh_json_next(r) != *w)
				return gh_json_syntax(r, "not a JSON value");
		return 0;
	}
	return gh_json_syntax(r, "not a JSON value");
}

/* [ item, ... ]: calls item for each element, numbered from 0. */
int gh_json_read_array(struct gh_json *r, int depth,
		      int (*item)(struct gh_json *, int, uint64_t, void *),
		      void *ctx)
{
	uint64_t i = 0;

	if (depth > GH_JSON_DEPTH)
		return gh_json_refuse(r, "JSON nested too deeply");
	if (gh_json_expect(r, '[', "expected an array"))
		return -1;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) == ']') {
		r->pos++;
		return 0;
	}
	for (;; i++) {
		if (item(r, depth + 1, i, ctx))
			return -1;
		gh_json_skip_ws(r);
		if (gh_json_peek(r) == ']') {
			r->pos++;
			return 0;
		}
		if (gh_json_expect(r, ',', "expected ',' or ']'"))
			return -1;
	}
}

/* { "key": member, ... }: calls member with each key, decoded (keys
 * longer than GH_JSON_KEY are passed empty, as none that is known). */
int gh_json_read_object(struct gh_json *r, int depth,
		       int (*member)(struct gh_json *, int, const char *,
				     void *),
		       void *ctx)
{
	if (depth > GH_JSON_DEPTH)
		return gh_json_refuse(r, "JSON nested too deeply");
	if (gh_json_expect(r, '{', "expected an object"))
		return -1;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) == '}') {
		r->pos++;
		return 0;
	}
	for (;;) {
		char key[GH_JSON_KEY + 1];
		size_t len;

		gh_json_skip_ws(r);
		if (gh_json_read_string(r, key, GH_JSON_KEY, &len) ||
		    gh_json_expect(r, ':', "expected ':' after a key"))
			return -1;
		/* A NUL inside a key makes it none we know, as its length
		 * does. */
		if (len > GH_JSON_KEY || memchr(key, '\0', len))
			len = 0;
		key[len] = '\0';
		if (member(r, depth + 1, key, ctx))
			return -1;
		gh_json_skip_ws(r);
		if (gh_json_peek(r) == '}') {
			r->pos++;
			return 0;
		}
		if (gh_json_expect(r, ',', "expected ',' or '}'"))
			return -1;
	}
}

static int skip_item(struct gh_json *r, int depth, uint64_t i, void *ctx)
{
	(void)i, (void)ctx;
	return gh_json_skip_value(r, depth);
}

static int skip_member(struct gh_json *r, int depth, const char *key,
		       void *ctx)
{
	(void)key, (void)ctx;
	return gh_json_skip_value(r, depth);
}

/* Any value, checked and passed over. */
int gh_json_skip_value(struct gh_json *r, int depth)
{
	struct number n;
	size_t len;

	gh_json_skip_ws(r);
	switch (gh_json_peek(r)) {
	case '{':
		return gh_json_read_object(r, depth, skip_member, NULL);
	case '[':
		return gh_json_read_array(r, depth, skip_item, NULL);
	case '"':
		return gh_json_read_string(r, NULL, 0, &len);
	case 't':
	case 'f':
	case 'n':
		return skip_word(r);
	default:
		return read_number(r, &n);
	}
}

/* A count: an exact integer 0..2^64-1.  what names it in messages. */
int gh_json_read_count(struct gh_json *r, const char *where, const char *what,
		      uint64_t *v)
{
	struct number n;
	int c;

	gh_json_skip_ws(r);
	c = gh_json_peek(r);
	if (c < 0)
		return gh_json_syntax(r, "expected a number");
	if (c != '-' && (c < '0' || c > '9'))
		return gh_json_refuse(r, "%s: %s is not a non-negative integer", where,
			      what);
	if (read_number(r, &n))
		return -1;
	if (!n.is_count)
		return gh_json_refuse(r, "%s: %s is not a non-negative integer: %s",
			      where, what, n.text);
	if (n.too_big)
		return gh_json_refuse(r, "%s: %s is larger than 2^64-1: %s", where,
			      what, n.text);
	*v = n.value;
	return 0;
}

/* Adds b to *a; -1 when the sum would pass 2^64-1. */
int gh_add_u64(uint64_t *a, uint64_t b)
{
	if (*a > UINT64_MAX - b)
		return -1;
	*a += b;
	return 0;
}

uint64_t gh_token_hash(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

bool gh_interval_label(const unsigned char *p, size_t n)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";

	if (n == 9 && !memcmp(p, "(no time)", 9))
		return true;
	if (n != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'd' ? p[i] < '0' || p[i] > '9'
				    : p[i] != (unsigned char)shape[i])
			return false;
	return true;
}

/* A result's top-level "error" (its run failed as a whole): refused,
 * saying why, as a failed input. */
static int run_error(struct gh_json *r)
{
	char why[GH_JSON_TEXT];

	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '"')
		return gh_json_refuse(r, "error is not a string");
	if (gh_json_read_text(r, why))
		return -1;
	r->failed_input = 1;
	return gh_json_refuse(r, "the run that wrote it failed: %s", why);
}

/* A result's top-level member: "inputs" and "total" once each, and
 * "error"; others passed over. */
static int result_member(struct gh_json *r, int depth, const char *key,
			 void *ctx)
{
	struct gh_json_result *res = ctx;

	if (!strcmp(key, "inputs")) {
		if (res->has_inputs++)
			return gh_json_refuse(r, "\"inputs\" is there twice");
		gh_json_skip_ws(r);
		if (gh_json_peek(r) != '[')
			return gh_json_refuse(r, "inputs is not an array");
		return gh_json_read_array(r, depth, res->input, res->ctx);
	}
	if (!strcmp(key, "total")) {
		if (res->has_total++)
			return gh_json_refuse(r, "\"total\" is there twice");
		return res->total(r, depth, res->ctx);
	}
	if (!strcmp(key, "error"))      /* the run failed as a whole */
		return run_error(r);
	return gh_json_skip_value(r, depth);
}

int gh_json_read_file(const char *name, const char *what,
		      int (*read)(struct gh_json *r, void *ctx), void *ctx,
		      struct gh_notes *notes)
{
	int is_stdin = !strcmp(name, "-");
	struct gh_json *r = calloc(1, sizeof(*r));
	int ret;

	if (!r) {
		gh_note(notes, "%s: out of memory", name);
		return -1;
	}
	r->f = is_stdin ? stdin : fopen(name, "r");
	if (!r->f) {
		gh_note_errno(notes, "%s", name);
		free(r);
		return -1;
	}
	ret = read(r, ctx);
	if (r->read_errno) {
		errno = r->read_errno;
		gh_note_errno(notes, "%s", name);
		ret = -1;
	} else if (ret && (r->failed_input || r->ours)) {
		gh_note(notes, "%s: %s", name, r->why);
	} else if (ret) {
		gh_note(notes, "%s: not %s: %s", name, what, r->why);
	}
	if (!is_stdin && fclose(r->f) && !ret) {
		gh_note_errno(notes, "%s: close", name);
		ret = -1;
	}
	free(r);
	return ret;
}

int gh_json_read_number_text(struct gh_json *r, const char *where,
			     const char *what, char out[GH_JSON_NUMBER])
{
	struct number n;
	int c;

	memset(&n, 0, sizeof(n));
	gh_json_skip_ws(r);
	c = gh_json_peek(r);
	if (c != '-' && (c < '0' || c > '9'))
		return gh_json_refuse(r, "%s: %s is not a number", where, what);
	if (read_number(r, &n))
		return -1;
	if (n.len >= GH_JSON_NUMBER || n.len >= sizeof(n.text) - 4)
		return gh_json_refuse(r, "%s: %s is longer than %d characters: %s",
				      where, what, GH_JSON_NUMBER - 1, n.text);
	memcpy(out, n.text, n.len + 1);
	return 0;
}

int gh_json_member_once(struct gh_json *r, const char *where, const char *key,
			unsigned bit, unsigned *seen, char want)
{
	if (bit & *seen)
		return gh_json_refuse(r, "%s: \"%s\" is there twice", where,
				      key);
	*seen |= bit;
	gh_json_skip_ws(r);
	if (want && gh_json_peek(r) != want)
		return gh_json_refuse(r, "%s: %s is not %s", where, key,
				      want == '"' ? "a string" : want == '{'
				      ? "an object" : "an array");
	return 0;
}

int gh_json_read_result(struct gh_json *r, struct gh_json_result *res)
{
	res->has_inputs = res->has_total = 0;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) != '{')
		return gh_json_syntax(r, "a result is a JSON object");
	if (gh_json_read_object(r, 0, result_member, res))
		return -1;
	gh_json_skip_ws(r);
	if (gh_json_peek(r) >= 0)
		return gh_json_syntax(r, "text after the document");
	if (!res->has_inputs)
		return gh_json_refuse(r, "no \"inputs\"");
	if (!res->has_total)
		return gh_json_refuse(r, "no \"total\"");
	return 0;
}

unsigned gh_json_key_bit(const struct gh_json_key *keys, size_t n,
			 const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key, keys[i].name))
			return keys[i].bit;
	return 0;
}
