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
 * The library gives each input's tokens in no order: they are shown most
 * frequent first (equal counts in byte order), or with --sort=bin in byte
 * order; --top=N keeps the N commonest (found without sorting the rest)
 * and sums the rest in a row (other).  The total merges every input's tokens (kept
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
		unsigned c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {    /* most bytes */
			*o++ = (char)c;
			cols++;
			i++;
			continue;
		}
		size_t len = utf8_len(p + i, n - i);

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
		size_t run = 0;

		/* Printable ASCII other than " and \, written as a run. */
		while (i + run < n && p[i + run] >= 0x20 && p[i + run] < 0x80 &&
		       p[i + run] != '"' && p[i + run] != '\\')
			run++;
		if (run) {
			fwrite(p + i, 1, run, out);
			i += run;
			continue;
		}
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

/* A token as it is sorted: most frequent first, then by its bytes, whose
 * first 16 (big-endian, zero-padded) settle most ties without a look at
 * the bytes themselves. */
struct sort_key {
	uint64_t count;
	uint64_t head[2];
	const struct gpuhist_token *t;
};

static void key_of(const struct gpuhist_token *t, struct sort_key *k)
{
	unsigned char b[16] = { 0 };

	if (t->len)
		memcpy(b, t->bytes, t->len < 16 ? t->len : 16);
	k->count = t->count;
	for (int i = 0; i < 2; i++) {
		k->head[i] = 0;
		for (int j = 0; j < 8; j++)
			k->head[i] = k->head[i] << 8 | b[8 * i + j];
	}
	k->t = t;
}

static int by_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	for (int i = 0; i < 2; i++)
		if (x->head[i] != y->head[i])
			return x->head[i] < y->head[i] ? -1 : 1;
	if (x->t->len <= 16 || y->t->len <= 16)
		return x->t->len < y->t->len ? -1 : x->t->len > y->t->len;
	return by_bytes(x->t, y->t);
}

static void swap_keys(struct sort_key *a, struct sort_key *b)
{
	struct sort_key t = *a;

	*a = *b;
	*b = t;
}

/* Puts the n most frequent keys (by_key's order) first, in no order:
 * quickselect, the pivot a middle one of three. */
static void select_first(struct sort_key *k, size_t len, size_t n)
{
	size_t lo = 0, hi = len;        /* the n-th lies in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, last = hi - 1;

		if (by_key(&k[mid], &k[lo]) < 0)
			swap_keys(&k[mid], &k[lo]);
		if (by_key(&k[last], &k[lo]) < 0)
			swap_keys(&k[last], &k[lo]);
		if (by_key(&k[last], &k[mid]) < 0)
			swap_keys(&k[last], &k[mid]);
		swap_keys(&k[mid], &k[last]);   /* the pivot, at the end */
		size_t store = lo;

		for (size_t i = lo; i < last; i++)
			if (by_key(&k[i], &k[last]) < 0)
				swap_keys(&k[i], &k[store++]);
		swap_keys(&k[store], &k[last]);
		if (store == n)
			return;
		if (store < n)
			lo = store + 1;
		else
			hi = store;
	}
}

/* The rows shown (a copy the caller frees), with --top's remainder in
 * *other; NULL when out of memory. */
static struct gpuhist_token *arrange(const struct gh_report *rep,
				     const struct gpuhist_tokens *tk,
				     size_t *n, uint64_t *other,
				     int *has_other)
{
	struct sort_key *keys = malloc((tk->distinct ? tk->distinct : 1) *
				       sizeof(*keys));
	struct gpuhist_token *rows;
	uint64_t shown = 0;

	*n = tk->distinct;
	*has_other = rep->top && (size_t)rep->top < *n;
	if (*has_other)
		*n = (size_t)rep->top;
	rows = malloc((*n ? *n : 1) * sizeof(*rows));
	if (!keys || !rows) {
		free(keys);
		free(rows);
		return NULL;
	}
	for (size_t i = 0; i < tk->distinct; i++)
		key_of(&tk->token[i], &keys[i]);
	if (*has_other)
		select_first(keys, tk->distinct, *n);
	qsort(keys, *n, sizeof(*keys), by_key);
	for (size_t i = 0; i < *n; i++) {
		rows[i] = *keys[i].t;
		shown += rows[i].count;
	}
	free(keys);
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
	int label_width = 5, count_width = 5;
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
		gh_table_fit(&label_width, &count_width,
			     cols[i] < LABEL_MAX ? cols[i] : LABEL_MAX,
			     rows[i].count);
		if (rows[i].count > max)
			max = rows[i].count;
	}
	if (has_other)
		gh_table_fit(&label_width, &count_width,
			     (int)strlen(GH_OTHER), other);
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
	char *field = NULL, *label = NULL;
	size_t field_len = 0;
	FILE *f = open_memstream(&field, &field_len);

	/* The input's name, as its format writes it, once. */
	if (!f)
		return -1;
	if (csv)
		gh_put_csv(f, name);
	else
		gh_put_tsv(f, name);
	if (fclose(f))
		return -1;
	for (size_t i = 0; i < n + (size_t)has_other; i++) {
		int cols;

		free(label);
		label = i < n ? escaped(rows[i].bytes, rows[i].len, &cols)
			      : strdup(GH_OTHER);
		if (!label) {
			free(field);
			return -1;
		}
		fwrite(field, 1, field_len, rep->out);
		if (csv) {
			fputc(',', rep->out);
			gh_put_csv(rep->out, label);
		} else {
			/* escaped() leaves no tab or newline for tsv */
			fputc('\t', rep->out);
			fputs(label, rep->out);
		}
		fprintf(rep->out, "%c%" PRIu64 "\n", csv ? ',' : '\t',
			i < n ? rows[i].count : other);
	}
	free(label);
	free(field);
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

/* Whether the total's block will be printed (json always has one). */
static bool total_wanted(const struct gh_report *rep)
{
	return rep->format == GH_FMT_JSON ||
	       rep->total_mode == GH_TOTAL_ALWAYS ||
	       rep->total_mode == GH_TOTAL_ONLY ||
	       (rep->total_mode == GH_TOTAL_AUTO && rep->several);
}

int gh_report_tokens_keep(struct gh_report *rep,
			  const struct gpuhist_tokens *tk)
{
	struct gh_tokens_kept *k = &rep->kept;
	size_t bytes = 0;

	if (!total_wanted(rep))
		return 0;
	for (size_t i = 0; i < tk->distinct; i++)
		bytes += tk->token[i].len;
	if (k->n + tk->distinct > k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;

		while (cap < k->n + tk->distinct)
			cap *= 2;
		struct gh_kept_token *t = realloc(k->token, cap * sizeof(*t));

		if (!t)
			return -1;
		k->token = t;
		k->cap = cap;
	}
	if (k->arena_len + bytes > k->arena_cap) {
		size_t cap = k->arena_cap ? 2 * k->arena_cap : 65536;

		while (cap < k->arena_len + bytes)
			cap *= 2;
		unsigned char *a = realloc(k->arena, cap);

		if (!a)
			return -1;
		k->arena = a;
		k->arena_cap = cap;
	}
	for (size_t i = 0; i < tk->distinct; i++) {
		const struct gpuhist_token *t = &tk->token[i];

		if (t->len)
			memcpy(k->arena + k->arena_len, t->bytes, t->len);
		k->token[k->n++] = (struct gh_kept_token){ k->arena_len, t->len,
							   t->count };
		k->arena_len += t->len;
	}
	k->total += tk->total;
	k->inputs++;
	return 0;
}

int gh_report_tokens_total(struct gh_report *rep, uint64_t bytes_read,
			   bool print_it)
{
	struct gh_tokens_kept *k = &rep->kept;
	struct gpuhist_token *all = malloc((k->n ? k->n : 1) * sizeof(*all));
	size_t n = 0;
	int ret = -1;

	if (!all)
		goto out;
	for (size_t i = 0; i < k->n; i++)
		all[i] = (struct gpuhist_token){ k->arena + k->token[i].at,
						 k->token[i].len,
						 k->token[i].count };
	n = k->n;
	/* Several inputs' tokens are added up (one input's are as they are);
	 * gh_report_tokens() sorts. */
	if (k->inputs > 1) {
		qsort(all, k->n, sizeof(*all), by_bytes);
		n = 0;
		for (size_t i = 0; i < k->n; i++) {
			if (n && !by_bytes(&all[n - 1], &all[i]))
				all[n - 1].count += all[i].count;
			else
				all[n++] = all[i];
		}
	}
	struct gpuhist_tokens total = { .distinct = n, .total = k->total,
					.token = all };

	ret = print_it ? gh_report_tokens(rep, "total", bytes_read, &total, 1)
		       : 0;
out:
	free(all);
	free(k->token);
	free(k->arena);
	*k = (struct gh_tokens_kept){ 0 };
	return ret;
}
