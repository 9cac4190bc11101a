/* merge.c - reading the 256 totals back from a -f json result (--merge)
 *
 * A small strict JSON reader: it walks the whole document (so a truncated
 * or mangled file is refused, not half-read) and keeps only
 * total.histogram, which must hold 256 non-negative integers.  Results are
 * a few kilobytes; anything over GH_MERGE_MAX_BYTES is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "msg.h"

#define GH_MERGE_MAX_BYTES (16u << 20)

struct json {
	const char *p, *end;
	const char *err;
	uint64_t *hist;     /* where total.histogram goes */
	int found;
};

static void skip_ws(struct json *j)
{
	/* strchr() would also match the terminating NUL: test *p first. */
	while (j->p < j->end && *j->p && strchr(" \t\r\n", *j->p))
		j->p++;
}

static int expect(struct json *j, char c)
{
	skip_ws(j);
	if (j->p >= j->end || *j->p != c) {
		j->err = "malformed JSON";
		return -1;
	}
	j->p++;
	return 0;
}

/* A string; *s and *len are its raw bytes (escapes left as they are). */
static int read_string(struct json *j, const char **s, size_t *len)
{
	if (expect(j, '"'))
		return -1;
	*s = j->p;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p == '\\')
			j->p++;
		j->p++;
	}
	if (j->p >= j->end) {
		j->err = "malformed JSON (unterminated string)";
		return -1;
	}
	*len = (size_t)(j->p - *s);
	j->p++;
	return 0;
}

static int read_uint64(struct json *j, uint64_t *v)
{
	uint64_t n = 0;
	const char *start;

	skip_ws(j);
	start = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		unsigned d = (unsigned)(*j->p - '0');

		if (n > (UINT64_MAX - d) / 10) {
			j->err = "a count does not fit in 64 bits";
			return -1;
		}
		n = n * 10 + d;
		j->p++;
	}
	if (j->p == start) {
		j->err = "histogram must hold non-negative integers";
		return -1;
	}
	*v = n;
	return 0;
}

static int parse_value(struct json *j, int depth, int want);

/* A number, true, false or null, which --merge only has to skip. */
static int skip_literal(struct json *j)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *start = j->p;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t len = strlen(words[i]);

		if ((size_t)(j->end - j->p) >= len &&
		    !memcmp(j->p, words[i], len)) {
			j->p += len;
			return 0;
		}
	}
	if (j->p < j->end && *j->p == '-')
		j->p++;
	while (j->p < j->end && *j->p && strchr("0123456789.eE+-", *j->p))
		j->p++;
	if (j->p == start || !strchr("0123456789", j->p[-1])) {
		j->err = "malformed JSON";
		return -1;
	}
	return 0;
}

enum { WANT_NOTHING, WANT_TOTAL, WANT_HISTOGRAM };

static int parse_histogram(struct json *j)
{
	int n = 0;

	if (expect(j, '['))
		return -1;
	skip_ws(j);
	while (j->p < j->end && *j->p != ']') {
		uint64_t v;

		if (n && expect(j, ','))
			return -1;
		if (read_uint64(j, &v))
			return -1;
		if (n == 256) {
			j->err = "histogram holds more than 256 values";
			return -1;
		}
		j->hist[n++] = v;
		skip_ws(j);
	}
	if (expect(j, ']'))
		return -1;
	if (n != 256) {
		j->err = "histogram holds fewer than 256 values";
		return -1;
	}
	j->found = 1;
	return 0;
}

static int parse_object(struct json *j, int depth, int want)
{
	int first = 1;

	if (expect(j, '{'))
		return -1;
	for (;;) {
		const char *key;
		size_t len;
		int next = WANT_NOTHING;

		skip_ws(j);
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return 0;
		}
		if (!first && expect(j, ','))
			return -1;
		first = 0;
		if (read_string(j, &key, &len) || expect(j, ':'))
			return -1;
		if (want == WANT_TOTAL && len == 5 && !memcmp(key, "total", 5))
			next = WANT_HISTOGRAM;
		if (want == WANT_HISTOGRAM && len == 9 &&
		    !memcmp(key, "histogram", 9)) {
			if (parse_histogram(j))
				return -1;
			continue;
		}
		if (parse_value(j, depth + 1, next))
			return -1;
	}
}

static int parse_value(struct json *j, int depth, int want)
{
	const char *s;
	size_t len;

	if (depth > 64) {
		j->err = "JSON nested too deeply";
		return -1;
	}
	skip_ws(j);
	if (j->p >= j->end) {
		j->err = "malformed JSON (ends early)";
		return -1;
	}
	switch (*j->p) {
	case '{':
		return parse_object(j, depth, want);
	case '[':
		j->p++;
		for (int first = 1;; first = 0) {
			skip_ws(j);
			if (j->p < j->end && *j->p == ']') {
				j->p++;
				return 0;
			}
			if (!first && expect(j, ','))
				return -1;
			if (parse_value(j, depth + 1, WANT_NOTHING))
				return -1;
		}
	case '"':
		return read_string(j, &s, &len);
	default:
		return skip_literal(j);
	}
}

/* Reads all of fd into a buffer of at most GH_MERGE_MAX_BYTES. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *bigger;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			if (cap >= GH_MERGE_MAX_BYTES) {
				errno = EFBIG;
				free(buf);
				return NULL;
			}
			bigger = realloc(buf, cap * 2);
			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int gh_merge_read(const char *name, uint64_t totals[256])
{
	int is_stdin = !strcmp(name, "-");
	FILE *f = is_stdin ? stdin : fopen(name, "r");
	struct json j = { 0 };
	size_t len = 0;
	char *text;

	if (!f) {
		gh_msg_errno("%s", name);
		return -1;
	}
	text = slurp(f, &len);
	if (!text)
		gh_msg_errno("%s", name);
	if (!is_stdin && fclose(f) && text) {
		gh_msg_errno("%s: close", name);
		free(text);
		return -1;
	}
	if (!text)
		return -1;

	j.p = text;
	j.end = text + len;
	j.hist = totals;
	if (!parse_value(&j, 0, WANT_TOTAL)) {
		skip_ws(&j);
		if (j.p != j.end)
			j.err = "malformed JSON (text after the document)";
		else if (!j.found)
			j.err = "no \"total\" with a \"histogram\"";
	}
	free(text);
	if (j.err) {
		gh_msg("%s: not a gpuhist json result: %s", name, j.err);
		return -1;
	}
	return 0;
}
