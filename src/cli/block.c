/* block.c - the one writer per format (table, tsv, csv, json) that prints
 * any view's block of rows and figures (block.h)
 *
 * The table: a head naming the input where there are several, a row a
 * label with its count, share and bar (bars scaled to the largest row
 * but the other row), a label wider than label_max on a line of its own
 * with its counts below it, then the figures, their titles in a column.
 * tsv and csv: the input's name, then the row's cells.  json: an entry of
 * the name, the figures, the rows as objects, the figures after them.
 *
 * A token's bytes (GH_CELL_BYTES) are shown escaped, as a terminal needs,
 * in the table, tsv and csv: a backslash doubled, tab, newline and CR as
 * \t \n \r, other control bytes and bytes that are not part of
 * well-formed UTF-8 as \xHH.  The empty token (a missing field) is an
 * empty field in tsv and csv and "" in the table, where a token that is
 * two double quotes is then \"\" and a token's trailing spaces are \x20,
 * so that no two rows look alike.  json gives them exactly: UTF-8 as it
 * is, control bytes as \u00HH, and each byte of ill-formed UTF-8 as the
 * lone surrogate \uDC80-\uDCFF that Python's decode('utf-8',
 * 'surrogateescape') makes of it, so that s.encode('utf-8',
 * 'surrogateescape') gives the bytes back.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "fields.h"
#include "gpuhist.h"

/* A block is written holding its stream's lock (flockfile), each piece
 * without taking it again: a json row is a dozen pieces, and the lock a
 * piece cost 8 % of --lines -f json (bench/NOTES.md). */
static void out_c(FILE *out, int c)
{
	putc_unlocked(c, out);
}

static void out_w(FILE *out, const void *p, size_t n)
{
#ifdef __GLIBC__
	fwrite_unlocked(p, 1, n, out);
#else
	fwrite(p, 1, n, out);
#endif
}

static void out_s(FILE *out, const char *s)
{
	out_w(out, s, strlen(s));
}

struct gh_figure *gh_block_figure(struct gh_block *b, const char *title,
				  const char *key, struct gh_cell v)
{
	struct gh_figure *f = &b->figure[b->n_figures < GH_BLOCK_FIGURES
					 ? b->n_figures++
					 : GH_BLOCK_FIGURES - 1];

	*f = (struct gh_figure){ .title = title, .v = v };
	f->v.key = key;
	return f;
}

struct gh_cell gh_cell_u64(const char *key, uint64_t u)
{
	return (struct gh_cell){ .kind = GH_CELL_U64, .key = key, .u = u };
}

struct gh_cell gh_cell_lit(const char *key, const char *s)
{
	return (struct gh_cell){ .kind = GH_CELL_LIT, .key = key, .s = s };
}

struct gh_cell gh_cell_name(const char *key, const char *s)
{
	return (struct gh_cell){ .kind = GH_CELL_NAME, .key = key, .s = s };
}

struct gh_cell gh_cell_str(const char *key, const char *s)
{
	return (struct gh_cell){ .kind = GH_CELL_STR, .key = key, .s = s };
}

struct gh_cell gh_cell_fix(const char *key, const char *format, double d)
{
	return (struct gh_cell){ .kind = GH_CELL_FIX, .key = key, .s = format,
				 .d = d };
}

struct gh_cell gh_cell_num(const char *key, double d)
{
	return (struct gh_cell){ .kind = GH_CELL_NUM, .key = key, .d = d };
}

struct gh_cell gh_cell_none(const char *key)
{
	return (struct gh_cell){ .kind = GH_CELL_NONE, .key = key };
}

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

/* Nonzero when any byte of the 8 in x is 0 (a mask of high bits). */
static uint64_t has_zero(uint64_t x)
{
	return (x - 0x0101010101010101u) & ~x & 0x8080808080808080u;
}

/* How many bytes from p (n at most) are shown as they are: printable
 * ASCII other than the backslash.  Eight at a time, as most are. */
static size_t plain_run(const unsigned char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101u;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		/* A byte of 0x80 or more, below 0x20, 0x7f or a backslash. */
		if ((x & 0x8080808080808080u) ||
		    ((x - 0x20 * ones) & ~x & 0x8080808080808080u) ||
		    has_zero(x ^ 0x7f * ones) || has_zero(x ^ '\\' * ones))
			break;
	}
	while (i < n && p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
		i++;
	return i;
}

/* The token escaped for a terminal, in a buffer the caller frees (NULL
 * when out of memory); *columns: the columns it takes. */
static char *escaped(const unsigned char *p, size_t n, int *columns,
		     bool table)
{
	char *s = malloc(4 * n + 5), *o = s;
	int cols = 0;
	size_t spaces = 0;              /* trailing: \x20 in the table */

	if (!s)
		return NULL;
	if (table && (!n || (n == 2 && p[0] == '"' && p[1] == '"'))) {
		strcpy(s, n ? "\\\"\\\"" : "\"\"");
		*columns = (int)strlen(s);
		return s;
	}
	while (table && spaces < n && p[n - 1 - spaces] == ' ')
		spaces++;
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];

		if (i >= n - spaces) {          /* a trailing space */
			o += sprintf(o, "\\x20");
			cols += 4;
			i++;
			continue;
		}

		if (c >= 0x20 && c < 0x7f && c != '\\') {    /* most bytes */
			size_t run = plain_run(p + i, n - spaces - i);

			memcpy(o, p + i, run);
			o += run;
			cols += (int)run;
			i += run;
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

/* A token as a JSON string, exactly (see the top of the file). */
static void put_json_bytes(FILE *out, const unsigned char *p, size_t n)
{
	out_c(out, '"');
	for (size_t i = 0; i < n;) {
		size_t run = 0;

		/* Printable ASCII other than " and \, written as a run. */
		while (i + run < n && p[i + run] >= 0x20 && p[i + run] < 0x80 &&
		       p[i + run] != '"' && p[i + run] != '\\')
			run++;
		if (run) {
			out_w(out, p + i, run);
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
			out_w(out, p + i, len);
			i += len;
		}
	}
	out_c(out, '"');
}

/* A number exactly (the values view's), or null. */
static void put_num(FILE *out, double d)
{
	char text[48];

	if (isnan(d)) {
		out_s(out, "null");
		return;
	}
	gpuhist_values_text(d, text, sizeof(text));
	out_s(out, text);
}

/* A count in decimal: the rows' most written figure, so not through
 * printf's parsing. */
static void put_u64(FILE *out, uint64_t u)
{
	char digits[24], *p = digits + sizeof(digits);

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	out_w(out, p, (size_t)(digits + sizeof(digits) - p));
}

/* A scalar cell as the table, tsv or csv writes it; -1 when out of
 * memory. */
static int put_plain(FILE *out, const struct gh_cell *c,
		     enum gh_format format)
{
	char *s;
	int cols;

	switch (c->kind) {
	case GH_CELL_NONE:
	case GH_CELL_ARRAY:
	case GH_CELL_OBJECT:
	case GH_CELL_LIST:
		break;
	case GH_CELL_U64:
		put_u64(out, c->u);
		break;
	case GH_CELL_LIT:
	case GH_CELL_NAME:
		out_s(out, c->s);
		break;
	case GH_CELL_STR:
		if (format == GH_FMT_CSV)
			gh_put_csv(out, c->s);
		else if (format == GH_FMT_TSV)
			gh_put_tsv(out, c->s);
		else
			out_s(out, c->s);
		break;
	case GH_CELL_BYTES:
		s = escaped(c->bytes, c->len, &cols, format == GH_FMT_TABLE);
		if (!s)
			return -1;
		/* escaped() leaves no tab or newline for tsv */
		if (format == GH_FMT_CSV)
			gh_put_csv(out, s);
		else
			out_s(out, s);
		free(s);
		break;
	case GH_CELL_NUM:
		put_num(out, c->d);
		break;
	case GH_CELL_FIX:
		fprintf(out, c->s, c->d);
		break;
	}
	return 0;
}

static void put_json(FILE *out, const struct gh_cell *c);

/* json's "key": value. */
static void put_member(FILE *out, const struct gh_cell *c)
{
	out_c(out, '"');
	out_s(out, c->key);
	out_s(out, "\": ");
	put_json(out, c);
}

static void put_json(FILE *out, const struct gh_cell *c)
{
	struct gh_cell m;
	bool first = true;

	switch (c->kind) {
	case GH_CELL_NONE:
		out_s(out, "null");
		break;
	case GH_CELL_U64:
	case GH_CELL_LIT:
		put_plain(out, c, GH_FMT_JSON);
		break;
	case GH_CELL_NAME:
	case GH_CELL_STR:
		gh_put_json_string(out, c->s);
		break;
	case GH_CELL_BYTES:
		put_json_bytes(out, c->bytes, c->len);
		break;
	case GH_CELL_NUM:
		put_num(out, c->d);
		break;
	case GH_CELL_FIX:
		if (isfinite(c->d))
			fprintf(out, c->s, c->d);
		else
			out_s(out, "null");
		break;
	case GH_CELL_ARRAY:
		out_c(out, '[');
		for (size_t i = 0; i < c->len; i++)
			fprintf(out, i ? ", %" PRIu64 : "%" PRIu64,
				c->array[i]);
		out_c(out, ']');
		break;
	case GH_CELL_OBJECT:
		out_c(out, '{');
		for (size_t i = 0; c->cells ? i < c->len
					    : c->member(c->ctx, &i, &m); i++) {
			if (c->cells)
				m = c->cells[i];
			if (!first)
				out_s(out, ", ");
			put_member(out, &m);
			first = false;
		}
		out_c(out, '}');
		break;
	case GH_CELL_LIST:
		out_c(out, '[');
		for (size_t i = 0; c->member(c->ctx, &i, &m); i++) {
			if (!first)
				out_s(out, ", ");
			put_json(out, &m);
			first = false;
		}
		out_c(out, ']');
		break;
	}
}

void gh_block_head(FILE *out, enum gh_format format, const char *const *cols,
		   int n)
{
	char sep = format == GH_FMT_CSV ? ',' : '\t';

	flockfile(out);
	out_s(out, "input");
	for (int i = 0; i < n; i++) {
		out_c(out, sep);
		out_s(out, cols[i]);
	}
	out_c(out, '\n');
	funlockfile(out);
}

/* A row's table label, and its columns; NULL when out of memory. */
static char *table_label(const struct gh_cell *c, int *cols)
{
	char *s;

	if (c->kind == GH_CELL_BYTES)
		return escaped(c->bytes, c->len, cols, true);
	s = strdup(c->s);
	*cols = c->cols ? c->cols : (int)strlen(c->s);
	return s;
}

static int write_table(FILE *out, bool after, const struct gh_block *b)
{
	int label_width = (int)strlen(b->title), count_width = 5, cols, got;
	uint64_t max = 0;
	struct gh_row r;
	char *label;

	/* Two passes: the widths, then the rows. */
	if (b->ops->start(b->ctx, GH_ROWS_TABLE))
		return -1;
	while ((got = b->ops->next(b->ctx, GH_ROWS_TABLE, &r)) == 1) {
		if (r.label.kind == GH_CELL_BYTES) {
			label = table_label(&r.label, &cols);
			if (!label)
				return -1;
			free(label);
		} else {
			cols = r.label.cols ? r.label.cols
					    : (int)strlen(r.label.s);
		}
		gh_table_fit(&label_width, &count_width,
			     b->label_max && cols > b->label_max ? b->label_max
								 : cols,
			     r.count);
		if (!r.unscaled && r.count > max)
			max = r.count;
	}
	if (got < 0 || b->ops->start(b->ctx, GH_ROWS_TABLE))
		return -1;
	gh_put_table_head_of(out, after, b->named ? b->name : NULL, b->title,
			     label_width, count_width);
	while ((got = b->ops->next(b->ctx, GH_ROWS_TABLE, &r)) == 1) {
		if (r.hidden)
			continue;
		label = table_label(&r.label, &cols);
		if (!label)
			return -1;
		/* A label wider than the column: whole, on a line of its
		 * own, its counts in line below it. */
		if (cols > label_width) {
			fprintf(out, "%s\n", label);
			gh_put_table_row(out, "", label_width, count_width,
					 r.count, b->share_of, max);
		} else {
			gh_put_table_row(out, label, label_width - cols,
					 count_width, r.count, b->share_of,
					 max);
		}
		free(label);
	}
	if (got < 0)
		return -1;
	for (int i = 0; i < b->n_figures; i++) {
		const struct gh_figure *f = &b->figure[i];

		if (!f->title && !f->v.key && f->v.s) {
			out_s(out, f->v.s);
			continue;
		}
		if (!f->title)
			continue;
		fprintf(out, "%-*s ", b->figure_width - 1, f->title);
		put_plain(out, &f->v, GH_FMT_TABLE);
		out_c(out, '\n');
	}
	return 0;
}

static int write_rows(FILE *out, enum gh_format format,
		      const struct gh_block *b)
{
	char sep = format == GH_FMT_CSV ? ',' : '\t';
	char *name = NULL;
	size_t name_len = 0;
	FILE *f = open_memstream(&name, &name_len);
	struct gh_row r;
	int got;

	/* The input's name, as its format writes it, once. */
	if (!f)
		return -1;
	if (format == GH_FMT_CSV)
		gh_put_csv(f, b->name);
	else
		gh_put_tsv(f, b->name);
	if (fclose(f) || b->ops->start(b->ctx, GH_ROWS_MACHINE)) {
		free(name);
		return -1;
	}
	while ((got = b->ops->next(b->ctx, GH_ROWS_MACHINE, &r)) == 1) {
		/* A token's escaped form first: a row is written whole or
		 * not at all. */
		char *text[GH_ROW_CELLS] = { NULL };
		int cols;

		for (int i = 0; i < r.n_cells && got > 0; i++)
			if (r.cell[i].kind == GH_CELL_BYTES &&
			    !(text[i] = escaped(r.cell[i].bytes, r.cell[i].len,
						&cols, false)))
				got = -1;
		if (got > 0) {
			out_w(out, name, name_len);
			for (int i = 0; i < r.n_cells; i++) {
				out_c(out, sep);
				/* escaped() leaves no tab or newline for
				 * tsv */
				if (text[i] && format == GH_FMT_CSV)
					gh_put_csv(out, text[i]);
				else if (text[i])
					out_s(out, text[i]);
				else
					put_plain(out, &r.cell[i], format);
			}
			out_c(out, '\n');
		}
		for (int i = 0; i < r.n_cells; i++)
			free(text[i]);
		if (got < 0)
			break;
	}
	free(name);
	return got < 0 ? -1 : 0;
}

static void put_figures(FILE *out, const struct gh_block *b, bool after_rows)
{
	for (int i = 0; i < b->n_figures; i++) {
		const struct gh_figure *f = &b->figure[i];

		if (!f->v.key || f->after_rows != after_rows)
			continue;
		out_s(out, f->json_break ? ",\n   " : ", ");
		put_member(out, &f->v);
	}
}

/* A row as json's object: to out, and to its copy. */
static void put_json_row(FILE *out, bool first, const struct gh_row *r)
{
	out_s(out, first ? "{" : ", {");
	for (int i = 0; i < r->n_cells; i++) {
		if (i)
			out_s(out, ", ");
		put_member(out, &r->cell[i]);
	}
	out_c(out, '}');
}

static int write_json(FILE *out, const struct gh_block *b)
{
	char buf[65536];
	struct gh_row r;
	size_t n;
	int got = 0;
	bool first = true;

	/* Rows that cannot be had: nothing of the entry written. */
	if (!b->rows_from && !b->rows_started &&
	    b->ops->start(b->ctx, GH_ROWS_JSON))
		return -1;
	out_s(out, "{\"name\": ");
	gh_put_json_string(out, b->name);
	put_figures(out, b, false);
	fprintf(out, "%s\"%s\": [", b->rows_break ? ",\n   " : ", ",
		b->rows_key);
	if (b->rows_from) {
		rewind(b->rows_from);
		while ((n = fread(buf, 1, sizeof(buf), b->rows_from)) > 0)
			out_w(out, buf, n);
		if (ferror(b->rows_from))
			got = -1;
	} else {
		while ((got = b->ops->next(b->ctx, GH_ROWS_JSON, &r)) == 1) {
			put_json_row(out, first, &r);
			if (b->rows_copy)
				put_json_row(b->rows_copy, first, &r);
			first = false;
		}
	}
	out_c(out, ']');
	put_figures(out, b, true);
	out_c(out, '}');
	return got < 0 ? -1 : 0;
}

int gh_block_write(FILE *out, enum gh_format format, bool after,
		   const struct gh_block *b)
{
	int ret = 0;

	flockfile(out);
	if (b->rows_copy)
		flockfile(b->rows_copy);
	switch (format) {
	case GH_FMT_TABLE:
		ret = write_table(out, after, b);
		break;
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		ret = write_rows(out, format, b);
		break;
	case GH_FMT_JSON:
		ret = write_json(out, b);
		break;
	}
	if (b->rows_copy)
		funlockfile(b->rows_copy);
	funlockfile(out);
	return ret;
}
