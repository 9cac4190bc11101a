/* report_tokens.c - printing the tokens view's blocks, in every format
 *
 * Tokens are byte strings.  The table, tsv and csv show them escaped, as a
 * terminal needs: a backslash doubled, tab, newline and CR as \t \n \r,
 * other control bytes and bytes that are not part of well-formed UTF-8 as
 * \xHH; the empty token (a missing field) as "".  json gives them
 * exactly: UTF-8 as it is, control bytes as \u00HH, and each byte of
 * ill-formed UTF-8 as the lone surrogate \uDC80-\uDCFF that Python's
 * decode('utf-8', 'surrogateescape') makes of it, so that
 * s.encode('utf-8', 'surrogateescape') gives the bytes back.
 *
 * The library gives each input's tokens most frequent first; --sort=bin
 * shows them in byte order, --top=N keeps the N commonest and sums the
 * rest in a row (other).  The total merges every input's tokens (kept
 * here as they are reported): sorted by their bytes, equal ones added.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "report_tokens.h"

/* Longest label column of a table; longer tokens overflow it. */
#define LABEL_MAX 40

/* Length of the well-formed UTF-8 sequence at p (of n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* The token escaped for a terminal, in a buffer the caller frees (NULL
 * when out of memory); *columns: the columns it takes. */
static char *escaped(const unsigned char *p, size_t n, int *columns)
{
	char *s = malloc(4 * n + 3), *o = s;
	int cols = 0;

	if (!s)
		return NULL;
	if (!n) {
		strcpy(s, "\"\"");
		*columns = 2;
		return s;
	}
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);
		unsigned c = p[i];

		/* C1 controls (U+0080..U+009F) are escaped as bytes too. */
		if (len == 2 && c == 0xc2 && p[i + 1] < 0xa0)
			len = 0;
		if (len > 1) {                  /* a character: one column */
			memcpy(o, p + i, len);
			o += len;
			i += len;
			cols++;
			continue;
		}
		char *was = o;

		if (c == '\\')
			o += sprintf(o, "\\\\");
		else if (c == '\t')
			o += sprintf(o, "\\t");
		else if (c == '\n')
			o += sprintf(o, "\\n");
		else if (c == '\r')
			o += sprintf(o, "\\r");
		else if (len == 1 && c >= 0x20 && c != 0x7f)
			*o++ = (char)c;
		else
			o += sprintf(o, "\\x%02x", c);
		cols += (int)(o - was);
		i++;
	}
	*o = '\0';
	*columns = cols;
	return s;
}

/* The token as a JSON string, exactly (see the top of the file). */
static void put_json_token(FILE *out, const unsigned char *p, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);
		unsigned c = p[i];

		if (!len) {
			fprintf(out, "\\udc%02x", c);
			i++;
		} else if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
			i++;
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else {
			fwrite(p + i, 1, len, out);
			i += len;
		}
	}
	fputc('"', out);
}

static int by_bytes(const void *a, const void *b)
{
	const struct gpuhist_token *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = n ? memcmp(x->bytes, y->bytes, n) : 0;

	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

static int by_count(const void *a, const void *b)
{
	const struct gpuhist_token *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return by_bytes(a, b);
}

/* The rows shown (a copy the caller frees), with --top's remainder in
 * *other; NULL when out of memory. */
static struct gpuhist_token *arrange(const struct gh_report *rep,
				     const struct gpuhist_tokens *tk,
				     size_t *n, uint64_t *other,
				     int *has_other)
{
	struct gpuhist_token *rows;
	uint64_t shown = 0;

	*n = tk->distinct;
	*has_other = rep->top && (size_t)rep->top < *n;
	if (*has_other)
		*n = (size_t)rep->top;
	rows = malloc((*n ? *n : 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < *n; i++) {
		rows[i] = tk->token[i];
		shown += rows[i].count;
	}
	*other = tk->total - shown;
	if (rep->sort == GH_SORT_BIN)
		qsort(rows, *n, sizeof(*rows), by_bytes);
	return rows;
}

static int print_table(struct gh_report *rep, const char *name,
		       uint64_t bytes_read, const struct gpuhist_tokens *tk,
		       const struct gpuhist_token *rows, size_t n,
		       uint64_t other, int has_other, int with_header)
{
	char digits[32];
	int label_width = 5, count_width = 5, w;
	uint64_t max = 0;
	char **labels = calloc(n ? n : 1, sizeof(*labels));
	int *cols = calloc(n ? n : 1, sizeof(*cols));
	int ret = -1;

	if (!labels || !cols)
		goto out;
	for (size_t i = 0; i < n; i++) {
		labels[i] = escaped(rows[i].bytes, rows[i].len, &cols[i]);
		if (!labels[i])
			goto out;
		if (cols[i] > label_width)
			label_width = cols[i] < LABEL_MAX ? cols[i] : LABEL_MAX;
		w = snprintf(digits, sizeof(digits), "%" PRIu64, rows[i].count);
		if (w > count_width)
			count_width = w;
		if (rows[i].count > max)
			max = rows[i].count;
	}
	if (has_other) {
		w = snprintf(digits, sizeof(digits), "%" PRIu64, other);
		if (w > count_width)
			count_width = w;
		if (label_width < (int)strlen(GH_OTHER))
			label_width = (int)strlen(GH_OTHER);
	}
	gh_put_table_head_of(rep->out, rep->n_printed > 0,
			     with_header ? name : NULL, "token", label_width,
			     count_width);
	for (size_t i = 0; i < n; i++)
		gh_put_table_row(rep->out, labels[i],
				 cols[i] < label_width ? label_width - cols[i]
						       : 0,
				 count_width, rows[i].count, tk->total, max);
	if (has_other)
		gh_put_table_row(rep->out, GH_OTHER,
				 label_width - (int)strlen(GH_OTHER),
				 count_width, other, tk->total, max);
	fprintf(rep->out, "bytes read       %" PRIu64 "\n", bytes_read);
	fprintf(rep->out, "tokens counted   %" PRIu64 "\n", tk->total);
	fprintf(rep->out, "distinct tokens  %zu\n", tk->distinct);
	ret = 0;
out:
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
	free(cols);
	return ret;
}

static int print_rows(struct gh_report *rep, const char *name,
		      const struct gpuhist_token *rows, size_t n,
		      uint64_t other, int has_other)
{
	bool csv = rep->format == GH_FMT_CSV;

	for (size_t i = 0; i < n + (size_t)has_other; i++) {
		int cols;
		char *label = i < n ? escaped(rows[i].bytes, rows[i].len, &cols)
				    : strdup(GH_OTHER);

		if (!label)
			return -1;
		if (csv) {
			gh_put_csv(rep->out, name);
			fputc(',', rep->out);
			gh_put_csv(rep->out, label);
		} else {
			/* escaped() leaves no tab or newline for tsv */
			gh_put_tsv(rep->out, name);
			fprintf(rep->out, "\t%s", label);
		}
		fprintf(rep->out, "%c%" PRIu64 "\n", csv ? ',' : '\t',
			i < n ? rows[i].count : other);
		free(label);
	}
	return 0;
}

static void print_json(struct gh_report *rep, const char *name,
		       uint64_t bytes_read, const struct gpuhist_tokens *tk,
		       const struct gpuhist_token *rows, size_t n,
		       uint64_t other, int has_other)
{
	FILE *out = rep->out;

	fputs("{\"name\": ", out);
	gh_put_json_string(out, name);
	fprintf(out, ", \"bytes_read\": %" PRIu64 ", \"tokens\": %" PRIu64
		", \"distinct\": %zu,\n   \"counts\": [", bytes_read, tk->total,
		tk->distinct);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", {\"token\": " : "{\"token\": ", out);
		put_json_token(out, rows[i].bytes, rows[i].len);
		fprintf(out, ", \"count\": %" PRIu64 "}", rows[i].count);
	}
	fputs("]", out);
	if (has_other)
		fprintf(out, ", \"other\": %" PRIu64, other);
	fputs("}", out);
}

int gh_report_tokens(struct gh_report *rep, const char *name,
		     uint64_t bytes_read, const struct gpuhist_tokens *tk,
		     int with_header)
{
	uint64_t other;
	int has_other, ret = 0;
	size_t n;
	struct gpuhist_token *rows = arrange(rep, tk, &n, &other, &has_other);

	if (!rows)
		return -1;
	switch (rep->format) {
	case GH_FMT_TABLE:
		ret = print_table(rep, name, bytes_read, tk, rows, n, other,
				  has_other, with_header);
		break;
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		ret = print_rows(rep, name, rows, n, other, has_other);
		break;
	case GH_FMT_JSON:
		print_json(rep, name, bytes_read, tk, rows, n, other,
			   has_other);
		break;
	}
	free(rows);
	return ret;
}

int gh_report_tokens_keep(struct gh_report *rep,
			  const struct gpuhist_tokens *tk)
{
	struct gh_tokens_kept *k = &rep->kept;

	if (k->n + tk->distinct > k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;

		while (cap < k->n + tk->distinct)
			cap *= 2;
		struct gpuhist_token *t = realloc(k->token, cap * sizeof(*t));

		if (!t)
			return -1;
		k->token = t;
		k->cap = cap;
	}
	for (size_t i = 0; i < tk->distinct; i++) {
		unsigned char *b = malloc(tk->token[i].len ? tk->token[i].len
							   : 1);

		if (!b)
			return -1;
		memcpy(b, tk->token[i].bytes, tk->token[i].len);
		k->token[k->n++] = (struct gpuhist_token){
			b, tk->token[i].len, tk->token[i].count };
	}
	k->total += tk->total;
	return 0;
}

int gh_report_tokens_total(struct gh_report *rep, uint64_t bytes_read,
			   bool print_it)
{
	struct gh_tokens_kept *k = &rep->kept;
	struct gpuhist_tokens all;
	size_t n = 0;
	int ret = 0;

	if (k->n)
		qsort(k->token, k->n, sizeof(*k->token), by_bytes);
	for (size_t i = 0; i < k->n; i++) {
		if (n && !by_bytes(&k->token[n - 1], &k->token[i])) {
			k->token[n - 1].count += k->token[i].count;
			free((void *)k->token[i].bytes);
			continue;
		}
		k->token[n++] = k->token[i];
	}
	k->n = n;
	if (n)
		qsort(k->token, n, sizeof(*k->token), by_count);
	all = (struct gpuhist_tokens){ .distinct = n, .total = k->total,
				       .token = k->token };
	if (print_it)
		ret = gh_report_tokens(rep, "total", bytes_read, &all, 1);
	for (size_t i = 0; i < k->n; i++)
		free((void *)k->token[i].bytes);
	free(k->token);
	*k = (struct gh_tokens_kept){ 0 };
	return ret;
}
