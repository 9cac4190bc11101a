/* charview.c - the -m view: code points (case-folded with -i, by general
 * category with -c) as rows, with their names and labels
 *
 * Folding and categories are Unicode's own data, from libutf8proc, applied
 * to the exact code-point totals when they are reported, so -i and -c
 * never change what is counted or what json carries.  -i is Unicode's
 * simple case folding: a code point folds to the one code point whose full
 * folding is the same as its own (C and S of CaseFolding.txt), or stays.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_UTF8PROC
#include <utf8proc.h>
#endif

#include "charview.h"

static const char *const category_names[GH_CATEGORIES] = {
	"letter", "mark", "number", "punctuation", "symbol", "separator",
	"other", "invalid",
};

bool gh_charview_unicode(void)
{
#ifdef HAVE_UTF8PROC
	return true;
#else
	return false;
#endif
}

void gh_charview_describe(char *out, size_t len)
{
#ifdef HAVE_UTF8PROC
	snprintf(out, len, "-i and -c from libutf8proc %s (Unicode %s)",
		 utf8proc_version(), utf8proc_unicode_version());
#else
	snprintf(out, len, "no -i or -c (built without libutf8proc)");
#endif
}

#ifdef HAVE_UTF8PROC
/* cp's full case folding into out[4]; how many code points. */
static utf8proc_ssize_t full_fold(uint32_t cp, utf8proc_int32_t out[4])
{
	int boundclass = 0;

	return utf8proc_decompose_char((utf8proc_int32_t)cp, out, 4,
				       UTF8PROC_CASEFOLD, &boundclass);
}

static uint32_t simple_fold(uint32_t cp)
{
	utf8proc_int32_t a[4], b[4];
	utf8proc_ssize_t n = full_fold(cp, a), m;
	utf8proc_int32_t lower;

	if (n == 1)
		return (uint32_t)a[0];
	if (n < 1)
		return cp;
	/* Folds to several: its simple folding, if any, is its lowercase
	 * whose full folding is the same (U+1E9E to U+00DF, not U+0130 to
	 * U+0069). */
	lower = utf8proc_tolower((utf8proc_int32_t)cp);
	m = full_fold((uint32_t)lower, b);
	if (m == n && !memcmp(a, b, (size_t)n * sizeof(a[0])))
		return (uint32_t)lower;
	return cp;
}

static enum gh_category category(uint32_t cp)
{
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
		return GH_CAT_LETTER;
	case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
		return GH_CAT_MARK;
	case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		return GH_CAT_NUMBER;
	case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD:
	case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
	case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
	case UTF8PROC_CATEGORY_PO:
		return GH_CAT_PUNCT;
	case UTF8PROC_CATEGORY_SM: case UTF8PROC_CATEGORY_SC:
	case UTF8PROC_CATEGORY_SK: case UTF8PROC_CATEGORY_SO:
		return GH_CAT_SYMBOL;
	case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
		return GH_CAT_SEPARATOR;
	default:
		return GH_CAT_OTHER;
	}
}
#else
static uint32_t simple_fold(uint32_t cp)
{
	return cp;
}

static enum gh_category category(uint32_t cp)
{
	(void)cp;
	return GH_CAT_OTHER;
}
#endif

/* Calls fn for every counted bin of chars, in bin order. */
#define FOR_EACH_BIN(chars, bin, n, body) \
	for (uint32_t p_ = 0; p_ < GPUHIST_CHAR_PAGES; p_++) { \
		if (!(chars)->page[p_]) \
			continue; \
		for (uint32_t i_ = 0; i_ < GPUHIST_CHAR_PAGE; i_++) { \
			uint32_t bin = p_ * GPUHIST_CHAR_PAGE + i_; \
			uint64_t n = (chars)->page[p_][i_]; \
			if (bin >= GPUHIST_CHAR_BINS || !n) \
				continue; \
			body \
		} \
	}

struct gh_char_row *gh_charview_rows(const struct gh_options *opts,
				     const struct gpuhist_chars *chars,
				     size_t *n_rows, uint64_t *counted)
{
	struct gpuhist_chars folded;
	const struct gpuhist_chars *from = chars;
	struct gh_char_row *rows;
	size_t n = 0, cap = 0;
	int err = 0;

	*counted = 0;
	*n_rows = 0;
	if (opts->view == GH_VIEW_CLASSES) {
		rows = calloc(GH_CATEGORIES, sizeof(*rows));
		if (!rows)
			return NULL;
		for (int c = 0; c < GH_CATEGORIES; c++)
			rows[c].bin = (uint32_t)c;
		FOR_EACH_BIN(chars, bin, count, {
			rows[bin >= GPUHIST_CHAR_INVALID ? GH_CAT_INVALID
			     : category(bin)].count += count;
			*counted += count;
		})
		*n_rows = GH_CATEGORIES;
		return rows;
	}
	if (opts->ignore_case) {
		gpuhist_chars_init(&folded);
		FOR_EACH_BIN(chars, bin, count, {
			uint32_t to = bin < GPUHIST_CHAR_INVALID
				      ? simple_fold(bin) : bin;
			if (!err)
				err = gpuhist_chars_add(&folded, to, count);
		})
		from = &folded;
	}
	FOR_EACH_BIN(from, bin, count, {
		(void)count;
		cap++;
	})
	rows = calloc(cap ? cap : 1, sizeof(*rows));
	if (rows && !err) {
		FOR_EACH_BIN(from, bin, count, {
			rows[n].bin = bin;
			rows[n++].count = count;
			*counted += count;
		})
	}
	if (from == &folded)
		gpuhist_chars_free(&folded);
	if (err) {
		free(rows);
		return NULL;
	}
	*n_rows = n;
	return rows;
}

void gh_charview_name(const struct gh_options *opts, uint32_t bin,
		      char *out, size_t len)
{
	if (opts->view == GH_VIEW_CLASSES)
		snprintf(out, len, "%s", bin < GH_CATEGORIES
			 ? category_names[bin] : "other");
	else if (bin >= GPUHIST_CHAR_INVALID)
		snprintf(out, len, "0x%02x", bin - GPUHIST_CHAR_INVALID + 0x80);
	else
		snprintf(out, len, "U+%04" PRIX32, bin);
}

/* The columns cp takes where it is shown beside its name, or 0 where it
 * is not: controls, format characters, separators but the space, marks
 * (they would join the space before them), unassigned code points. */
static int shown_width(uint32_t cp)
{
#ifdef HAVE_UTF8PROC
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF:
	case UTF8PROC_CATEGORY_CS: case UTF8PROC_CATEGORY_CO:
	case UTF8PROC_CATEGORY_CN: case UTF8PROC_CATEGORY_ZS:
	case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
	case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
		return 0;
	default:
		return utf8proc_charwidth((utf8proc_int32_t)cp);
	}
#else
	return cp > 0x20 && cp < 0x7f;
#endif
}

void gh_charview_label(const struct gh_options *opts, uint32_t bin,
		       char *out, size_t len, int *width)
{
	static const char esc[] = "tnvfr";
	char name[16];
	int w;

	gh_charview_name(opts, bin, name, sizeof(name));
	*width = (int)strlen(name);
	if (opts->view == GH_VIEW_CLASSES || bin >= GPUHIST_CHAR_INVALID) {
		snprintf(out, len, "%s", name);
		return;
	}
	if (bin >= '\t' && bin <= '\r') {
		snprintf(out, len, "%s \\%c", name, esc[bin - '\t']);
		*width += 3;
	} else if (bin == ' ') {
		snprintf(out, len, "%s ' '", name);
		*width += 4;
	} else if (bin == '\\') {
		snprintf(out, len, "%s \\\\", name);
		*width += 3;
	} else if ((w = shown_width(bin)) > 0) {
		unsigned char u[4];
		int n;

		if (bin < 0x80) {
			u[0] = (unsigned char)bin;
			n = 1;
		} else if (bin < 0x800) {
			u[0] = (unsigned char)(0xc0 | bin >> 6);
			u[1] = (unsigned char)(0x80 | (bin & 0x3f));
			n = 2;
		} else if (bin < 0x10000) {
			u[0] = (unsigned char)(0xe0 | bin >> 12);
			u[1] = (unsigned char)(0x80 | (bin >> 6 & 0x3f));
			u[2] = (unsigned char)(0x80 | (bin & 0x3f));
			n = 3;
		} else {
			u[0] = (unsigned char)(0xf0 | bin >> 18);
			u[1] = (unsigned char)(0x80 | (bin >> 12 & 0x3f));
			u[2] = (unsigned char)(0x80 | (bin >> 6 & 0x3f));
			u[3] = (unsigned char)(0x80 | (bin & 0x3f));
			n = 4;
		}
		snprintf(out, len, "%s %.*s", name, n, (const char *)u);
		*width += 1 + w;
	} else {
		snprintf(out, len, "%s", name);
	}
}

double gh_charview_entropy(const struct gpuhist_chars *chars)
{
	uint64_t total = 0;
	double h = 0.0;

	FOR_EACH_BIN(chars, bin, n, {
		(void)bin;
		total += n;
	})
	if (!total)
		return 0.0;
	FOR_EACH_BIN(chars, bin, n, {
		double p = (double)n / (double)total;

		(void)bin;
		h -= p * log2(p);
	})
	return h;
}
