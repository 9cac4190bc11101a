/* fields.c - the pieces of every format: bars, tsv, csv and json fields */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "fields.h"

#define GH_BAR_WIDTH 40

/* count's share of GH_BAR_WIDTH, rounded, max drawing the whole width;
 * in 128 bits, since count * GH_BAR_WIDTH passes 2^64 for merged
 * results. */
int gh_bar_length(uint64_t count, uint64_t max)
{
	unsigned __int128 scaled = (unsigned __int128)count * GH_BAR_WIDTH;

	if (!max)
		return 0;
	scaled = (scaled + max / 2) / max;
	return scaled > GH_BAR_WIDTH ? GH_BAR_WIDTH : (int)scaled;
}

void gh_put_table_head_of(FILE *out, int after, const char *name,
			  const char *title, int label_width, int count_width)
{
	if (after)
		fputc('\n', out);
	if (name)
		fprintf(out, "==> %s <==\n", name);
	fprintf(out, "%-*s  %*s  %7s\n", label_width, title, count_width,
		"count", "share");
}

void gh_table_fit(int *label_width, int *count_width, int label_cols,
		  uint64_t count)
{
	char digits[32];
	int w = snprintf(digits, sizeof(digits), "%" PRIu64, count);

	if (w > *count_width)
		*count_width = w;
	if (label_cols > *label_width)
		*label_width = label_cols;
}

void gh_put_table_row(FILE *out, const char *label, int pad, int count_width,
		      uint64_t count, uint64_t counted, uint64_t max)
{
	int bar = gh_bar_length(count, max);

	fprintf(out, "%s%*s  %*" PRIu64 "  %6.2f%%", label, pad, "",
		count_width, count,
		counted ? 100.0 * (double)count / (double)counted : 0.0);
	if (count && !bar)
		bar = 1;
	if (bar)
		fputs("  ", out);
	for (int j = 0; j < bar; j++)
		fputc('#', out);
	fputc('\n', out);
}

/* A name inside a tsv field: tabs, newlines and backslashes escaped. */
void gh_put_tsv(FILE *out, const char *s)
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
void gh_put_csv(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *q; (q = strchr(s, '"')); s = q + 1) {
		/* Up to and with the quote, then the quote again. */
		fwrite(s, 1, (size_t)(q - s) + 1, out);
		fputc('"', out);
	}
	fputs(s, out);
	fputc('"', out);
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
void gh_put_json_string(FILE *out, const char *s)
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
