/* report_chars_per.h - -m per interval (--per beside -m): an interval's
 * rows of one character each added into code-point totals and shown as
 * -m shows an input's (report_chars_per.c) */
#ifndef GH_REPORT_CHARS_PER_H
#define GH_REPORT_CHARS_PER_H

#include <stddef.h>
#include <stdint.h>

#include "block.h"
#include "charview.h"
#include "gpuhist.h"
#include "report.h"

/* One interval's characters, added up from its rows, then shown a row at
 * a time. */
struct gh_chars_per {
	const struct gh_report *rep;
	struct gpuhist_chars chars;     /* the interval's code points */
	struct gh_char_row *rows;       /* ... folded and arranged */
	size_t n, i;
	uint64_t other;
	int has_other;
	char name[32], label[96];       /* the row's */
};

/* Adds a row of the interval (its unit, after the interval and tab: a
 * character's UTF-8 bytes, or a byte of an ill-formed sequence) to cp's
 * totals; 0, or -1 (out of memory, or not such a unit: said). */
int gh_chars_per_add(struct gh_chars_per *cp, const unsigned char *unit,
		     size_t len, uint64_t count);

/* The totals added so far folded as -m, -m -i or -m -c folds them and
 * arranged (--top, --sort); the totals start again from 0.  0, or -1
 * when out of memory (said). */
int gh_chars_per_arrange(struct gh_chars_per *cp);

/* The next row of the interval arranged (interval: its label's len
 * bytes), 1; 0 after its last. */
int gh_chars_per_row(struct gh_chars_per *cp, const unsigned char *interval,
		     size_t len, enum gh_rows_of which, struct gh_row *row);

/* Lets cp's memory go (and starts it again empty). */
void gh_chars_per_free(struct gh_chars_per *cp);

/* The block's figures: bytes read, characters counted, the interval. */
void gh_chars_per_figures(struct gh_report *rep, struct gh_block *b,
			  uint64_t bytes_read, uint64_t counted);

#endif
