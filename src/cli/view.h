/* view.h - folding 256 byte totals into the bins that are printed */
#ifndef GH_VIEW_H
#define GH_VIEW_H

#include <stdint.h>

#include "options.h"

#define GH_VIEW_MAX_BINS 256

struct gh_view {
	enum gh_view_kind kind;
	int n_bins;
	short bin_of[256];                 /* bin of each byte value, or -1 */
	char name[GH_VIEW_MAX_BINS][12];   /* "a-d", "space", "97" */
	char label[GH_VIEW_MAX_BINS][8];   /* for tables: "a-d", "a", "' '", "\\n" */
};

void gh_view_init(struct gh_view *view, const struct gh_options *opts);

/* bins[0..n_bins) = the view of totals; returns the bytes counted. */
uint64_t gh_view_fold(const struct gh_view *view, const uint64_t totals[256],
		      uint64_t bins[GH_VIEW_MAX_BINS]);

#endif
