/* charview.h - the -m view: code points (case-folded with -i, by general
 * category with -c) as rows, with their names and labels */
#ifndef GH_CHARVIEW_H
#define GH_CHARVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuhist.h"
#include "options.h"

/* -m -c's bins, in this order; an invalid byte is in GH_CAT_INVALID. */
enum gh_category { GH_CAT_LETTER, GH_CAT_MARK, GH_CAT_NUMBER, GH_CAT_PUNCT,
		   GH_CAT_SYMBOL, GH_CAT_SEPARATOR, GH_CAT_OTHER,
		   GH_CAT_INVALID, GH_CATEGORIES };

struct gh_char_row {
	uint32_t bin;       /* a chars bin (-m, -m -i) or a category (-m -c) */
	uint64_t count;
};

/* The rows of one input's or the total's characters, as the view folds
 * them: code points in order, then the invalid bytes (-m, -m -i: only
 * those counted), or every category (-m -c).  *counted gets the
 * characters counted.  NULL when out of memory. */
struct gh_char_row *gh_charview_rows(const struct gh_options *opts,
				     const struct gpuhist_chars *chars,
				     size_t *n, uint64_t *counted);

/* A bin's machine name: "U+0041", "0xc3", or a category's "letter". */
void gh_charview_name(const struct gh_options *opts, uint32_t bin,
		      char *out, size_t len);

/* A bin's table label, its name and the character where it shows:
 * "U+0041 A", "U+000A \n", "U+0020 ' '", "0xc3"; *width gets the columns
 * it takes on a terminal. */
void gh_charview_label(const struct gh_options *opts, uint32_t bin,
		       char *out, size_t len, int *width);

/* Shannon entropy of the code points (and invalid bytes), in bits per
 * character. */
double gh_charview_entropy(const struct gpuhist_chars *chars);

/* Whether this build folds and classifies code points (libutf8proc). */
bool gh_charview_unicode(void);

/* For --version -v: where -i's folding and -c's categories come from. */
void gh_charview_describe(char *out, size_t len);

#endif
