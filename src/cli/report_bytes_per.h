/* report_bytes_per.h - the bytes views per interval (--per beside -b, -c
 * or -w): an interval's rows of one byte each folded into the view's bins
 * (report_bytes_per.c) */
#ifndef GH_REPORT_BYTES_PER_H
#define GH_REPORT_BYTES_PER_H

#include <stddef.h>
#include <stdint.h>

#include "block.h"
#include "report.h"

/* One interval's bins, added up from its rows, then shown a row at a
 * time. */
struct gh_bytes_per {
	const struct gh_report *rep;
	uint64_t totals[256];       /* the interval's byte values */
	struct gh_bin_rows r;       /* ... folded and arranged */
	int i;                      /* the next of r's rows */
	char label[64];             /* the table's "interval bin" */
};

/* Adds a row of the interval (its unit, after the interval and tab: one
 * byte) to bp's totals. */
void gh_bytes_per_add(struct gh_bytes_per *bp, const unsigned char *unit,
		      size_t len, uint64_t count);

/* The bytes of such a unit its view counts (0 outside the view's bins:
 * the bytes other than letters of -w). */
uint64_t gh_bytes_per_counted(const struct gh_report *rep,
			      const unsigned char *unit, size_t len,
			      uint64_t count);

/* The totals added so far folded into the view's bins and arranged
 * (--top, --sort); the totals start again from 0. */
void gh_bytes_per_arrange(struct gh_bytes_per *bp);

/* The next row of the interval arranged (interval: its label's len
 * bytes), 1; 0 after its last. */
int gh_bytes_per_row(struct gh_bytes_per *bp, const unsigned char *interval,
		     size_t len, enum gh_rows_of which, struct gh_row *row);

/* The block's figures: bytes read, bytes counted, the interval's width. */
void gh_bytes_per_figures(struct gh_report *rep, struct gh_block *b,
			  uint64_t bytes_read, uint64_t counted);

#endif
