/* report.c - printing results: table, tsv, csv or json, one block an input
 *
 * Machine formats name bins by their view names (byte bins by decimal
 * value) and always carry exact integers; json adds the 256-value
 * histogram so that results can be merged exactly later, and marks an
 * input that failed with an entry of its name and error alone, so that a
 * merge can tell a partial result from a whole one.  Nothing here
 * depends on the locale: the program never calls setlocale().
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "msg.h"
#include "report.h"

#define GH_BAR_WIDTH 40

double gh_entropy(const uint64_t totals[256])
{
	uint64_t n = 0;
	double h = 0.0;

	for (int c = 0; c < 256; c++)
		n += totals[c];
	if (!n)
		return 0.0;
	for (int c = 0; c < 256; c++) {
		if (!totals[c])
			continue;
		double p = (double)totals[c] / (double)n;
		h -= p * log2(p);
	}
	return h;
}

static uint64_t sum256(const uint64_t totals[256])
{
	uint64_t n = 0;

	for (int c = 0; c < 256; c++)
		n += totals[c];
	return n;
}

/* count's share of GH_BAR_WIDTH, rounded, max drawing the whole width;
 * in 128 bits, since count * GH_BAR_WIDTH passes 2^64 for merged
 * results. */
static int bar_length(uint64_t count, uint64_t max)
{
	unsigned __int128 scaled = (unsigned __int128)count * GH_BAR_WIDTH;

	return max ? (int)((scaled + max / 2) / max) : 0;
}

/* The rows a block shows: its bins in the order --sort asks, the first
 * --top of them, and the rest summed into one row named "other". */
struct rows {
	int n;                          /* rows of bins */
	int bin[GH_VIEW_MAX_BINS];      /* each row's bin */
	uint64_t count[GH_VIEW_MAX_BINS + 1];   /* each row's, then other's */
	bool other;                     /* an "other" row follows them */
};

static void arrange(const struct gh_report *rep, const uint64_t bins[],
		    struct rows *r)
{
	int n = rep->view->n_bins;

	for (int i = 0; i < n; i++) {
		int b = i, j = i;

		/* Insertion, most frequent first, ties in bin order (stable). */
		if (rep->sort == GH_SORT_COUNT)
			for (; j > 0 && bins[r->bin[j - 1]] < bins[b]; j--)
				r->bin[j] = r->bin[j - 1];
		r->bin[j] = b;
	}
	r->n = rep->top && rep->top < n ? rep->top : n;
	r->other = r->n < n;
	r->count[r->n] = 0;
	for (int i = 0; i < n; i++) {
		if (i < r->n)
			r->count[i] = bins[r->bin[i]];
		else
			r->count[r->n] += bins[r->bin[i]];
	}
}

/* Row i's table label and machine name. */
static const char *row_label(const struct gh_report *rep,
			     const struct rows *r, int i)
{
	return i < r->n ? rep->view->label[r->bin[i]] : "other";
}

static const char *row_name(const struct gh_report *rep,
			    const struct rows *r, int i)
{
	return i < r->n ? rep->view->name[r->bin[i]] : "other";
}

static void print_table(struct gh_report *rep, const char *name,
			const uint64_t totals[256], int with_header)
{
	const struct gh_view *view = rep->view;
	uint64_t bins[GH_VIEW_MAX_BINS], max = 0;
	uint64_t counted = gh_view_fold(view, totals, bins);
	struct rows r;
	char digits[32];
	int count_width = 5, label_width = 3, rows;

	arrange(rep, bins, &r);
	rows = r.n + r.other;
	for (int i = 0; i < rows; i++) {
		int w = snprintf(digits, sizeof(digits), "%" PRIu64, r.count[i]);

		if (w > count_width)
			count_width = w;
		if (r.count[i] > max)
			max = r.count[i];
		if ((int)strlen(row_label(rep, &r, i)) > label_width)
			label_width = (int)strlen(row_label(rep, &r, i));
	}
	if (rep->n_printed)
		fputc('\n', rep->out);
	if (with_header)
		fprintf(rep->out, "==> %s <==\n", name);
	fprintf(rep->out, "%-*s  %*s  %7s\n", label_width, "bin", count_width,
		"count", "share");
	for (int i = 0; i < rows; i++) {
		uint64_t count = r.count[i];
		int bar;

		/* 256 mostly empty rows would hide the shape: skip zero bytes. */
		if (view->kind == GH_VIEW_BYTES && !count && i < r.n)
			continue;
		fprintf(rep->out, "%-*s  %*" PRIu64 "  %6.2f%%", label_width,
			row_label(rep, &r, i), count_width, count,
			counted ? 100.0 * (double)count / (double)counted : 0.0);
		bar = bar_length(count, max);
		if (count && !bar)
			bar = 1;
		if (bar)
			fputs("  ", rep->out);
		for (int j = 0; j < bar; j++)
			fputc('#', rep->out);
		fputc('\n', rep->out);
	}
	fprintf(rep->out, "bytes read     %" PRIu64 "\n", sum256(totals));
	fprintf(rep->out, "bytes counted  %" PRIu64 "\n", counted);
	fprintf(rep->out, "entropy        %.6f bits per byte\n",
		gh_entropy(totals));
}

/* A name inside a tsv field: tabs, newlines and backslashes escaped. */
static void put_tsv_name(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\t': fputs("\\t", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\\': fputs("\\\\", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A csv field, quoted as RFC 4180 says when it must be. */
static void put_csv_name(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_rows(struct gh_report *rep, const char *name,
		       const uint64_t totals[256])
{
	uint64_t bins[GH_VIEW_MAX_BINS];
	char sep = rep->format == GH_FMT_CSV ? ',' : '\t';
	struct rows r;

	gh_view_fold(rep->view, totals, bins);
	arrange(rep, bins, &r);
	for (int i = 0; i < r.n + r.other; i++) {
		if (rep->format == GH_FMT_CSV)
			put_csv_name(rep->out, name);
		else
			put_tsv_name(rep->out, name);
		fprintf(rep->out, "%c%s%c%" PRIu64 "\n", sep,
			row_name(rep, &r, i), sep, r.count[i]);
	}
}

/* Length of the valid UTF-8 sequence at p (1..4), 0 when it is not one:
 * a stray byte, an overlong form, a surrogate, or past U+10FFFF. */
static int utf8_len(const unsigned char *p)
{
	uint32_t cp, min;
	int n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)      /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string.  JSON text is UTF-8, but file names are any bytes: a byte
 * that is not part of valid UTF-8 becomes U+FFFD, as decoders show it. */
static void put_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\\ufffd", out);
			n = 1;
		} else if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p);
		} else if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p);
		} else {
			fwrite(p, 1, (size_t)n, out);
		}
		p += n;
	}
	fputc('"', out);
}

static void print_json_entry(struct gh_report *rep, const char *name,
			     const uint64_t totals[256])
{
	const struct gh_view *view = rep->view;
	uint64_t bins[GH_VIEW_MAX_BINS];
	uint64_t counted = gh_view_fold(view, totals, bins);
	FILE *out = rep->out;
	struct rows r;

	fputs("{\"name\": ", out);
	put_json_string(out, name);
	fprintf(out, ", \"bytes_read\": %" PRIu64 ", \"counted\": %" PRIu64
		", \"entropy\": %.6f,\n   \"bins\": [", sum256(totals), counted,
		gh_entropy(totals));
	arrange(rep, bins, &r);
	for (int i = 0; i < r.n + r.other; i++) {
		fputs(i ? ", {\"bin\": " : "{\"bin\": ", out);
		if (view->kind == GH_VIEW_BYTES && i < r.n)
			fputs(row_name(rep, &r, i), out);
		else
			put_json_string(out, row_name(rep, &r, i));
		fprintf(out, ", \"count\": %" PRIu64 "}", r.count[i]);
	}
	fputs("],\n   \"histogram\": [", out);
	for (int c = 0; c < 256; c++)
		fprintf(out, c ? ", %" PRIu64 : "%" PRIu64, totals[c]);
	fputs("]}", out);
}

void gh_report_begin(struct gh_report *rep, FILE *out,
		     const struct gh_options *opts, const struct gh_view *view)
{
	memset(rep, 0, sizeof(*rep));
	rep->out = out;
	rep->format = opts->format;
	rep->view = view;
	rep->several = opts->n_operands > 1 || opts->files0_from;
	rep->total_mode = opts->total;
	rep->sort = opts->sort;
	rep->top = opts->top;

	switch (rep->format) {
	case GH_FMT_TSV:
		fputs("input\tbin\tcount\n", out);
		break;
	case GH_FMT_CSV:
		fputs("input,bin,count\n", out);
		break;
	case GH_FMT_JSON:
		fputs("{\"inputs\": [", out);
		break;
	case GH_FMT_TABLE:
		break;
	}
}

void gh_report_input(struct gh_report *rep, const char *name,
		     const uint64_t totals[256])
{
	for (int c = 0; c < 256; c++)
		rep->total[c] += totals[c];
	rep->n_inputs++;
	/* json keeps every entry: --merge checks the total against them. */
	if (rep->total_mode == GH_TOTAL_ONLY && rep->format != GH_FMT_JSON)
		return;

	switch (rep->format) {
	case GH_FMT_TABLE:
		print_table(rep, name, totals,
			    rep->several || strcmp(name, "-"));
		break;
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		print_rows(rep, name, totals);
		break;
	case GH_FMT_JSON:
		fputs(rep->n_printed ? ",\n  " : "\n  ", rep->out);
		print_json_entry(rep, name, totals);
		break;
	}
	rep->n_printed++;
	fflush(rep->out);
}

/* The reason of an input's failure: what its message says after
 * "NAME: " (or "gpuhist: NAME: "), from the lines said of it. */
static void failure_reason(const char *name, const char *lines, char *out,
			   size_t len)
{
	const char *prog = GH_PROGNAME ": ", *pick = NULL;
	size_t name_len = strlen(name);

	for (const char *l = lines, *end; l && *l; l = end ? end + 1 : NULL) {
		end = strchr(l, '\n');
		if (!strncmp(l, prog, strlen(prog)))
			l += strlen(prog);
		if (!strncmp(l, name, name_len) &&
		    !strncmp(l + name_len, ": ", 2)) {
			pick = l + name_len + 2;
			break;
		}
		if (!pick)
			pick = l;       /* no line names it: the first */
	}
	if (!pick || !*pick || *pick == '\n')
		pick = "failed";
	snprintf(out, len, "%.*s", (int)strcspn(pick, "\n"), pick);
}

void gh_report_failed(struct gh_report *rep, const char *name,
		      const char *lines)
{
	char reason[1024];

	rep->n_inputs++;
	if (rep->format != GH_FMT_JSON)
		return;
	failure_reason(name, lines, reason, sizeof(reason));
	fputs(rep->n_printed ? ",\n  " : "\n  ", rep->out);
	fputs("{\"name\": ", rep->out);
	put_json_string(rep->out, name);
	fputs(", \"error\": ", rep->out);
	put_json_string(rep->out, reason);
	fputs("}", rep->out);
	rep->n_printed++;
	fflush(rep->out);
}

void gh_report_end(struct gh_report *rep)
{
	bool total = rep->total_mode == GH_TOTAL_ALWAYS ||
		     rep->total_mode == GH_TOTAL_ONLY ||
		     (rep->total_mode == GH_TOTAL_AUTO && rep->n_inputs > 1);

	switch (rep->format) {
	case GH_FMT_TABLE:
		if (total)
			print_table(rep, "total", rep->total, 1);
		break;
	case GH_FMT_TSV:
	case GH_FMT_CSV:
		if (total)
			print_rows(rep, "total", rep->total);
		break;
	case GH_FMT_JSON:
		fputs("],\n \"total\": ", rep->out);
		print_json_entry(rep, "total", rep->total);
		fputs("}\n", rep->out);
		break;
	}
}
