/* view.c - folding 256 byte totals into the bins that are printed
 *
 * A view is a map from byte value to bin (or to nothing), so every view is
 * computed from the same exact totals, and --merge can re-view old results.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "view.h"

static const char *const class_names[] = {
	"lower", "upper", "digit", "space", "punct", "control", "high",
};

static int class_of(int c)
{
	if (c >= 'a' && c <= 'z')
		return 0;
	if (c >= 'A' && c <= 'Z')
		return 1;
	if (c >= '0' && c <= '9')
		return 2;
	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 3;
	if (c > ' ' && c < 127)
		return 4;
	if (c < 128)
		return 5;
	return 6;
}

/* A byte value as a table shows it: 'a', '\n', 0x00. */
static void byte_label(int c, char *out, size_t len)
{
	static const char esc[] = "tnvfr";

	if (c >= '\t' && c <= '\r')
		snprintf(out, len, "\\%c", esc[c - '\t']);
	else if (c == '\\')
		snprintf(out, len, "\\\\");
	else if (c == ' ')
		snprintf(out, len, "' '");
	else if (c > ' ' && c < 127)
		snprintf(out, len, "%c", c);
	else
		snprintf(out, len, "0x%02x", c);
}

static void init_letters(struct gh_view *view, int width)
{
	view->n_bins = (26 + width - 1) / width;
	for (int b = 0; b < view->n_bins; b++) {
		int first = 'a' + b * width;
		int last = first + width - 1 > 'z' ? 'z' : first + width - 1;

		if (first == last)
			snprintf(view->name[b], sizeof(view->name[b]), "%c", first);
		else
			snprintf(view->name[b], sizeof(view->name[b]), "%c-%c",
				 first, last);
		strcpy(view->label[b], view->name[b]);
	}
	for (int c = 'a'; c <= 'z'; c++)
		view->bin_of[c] = (short)((c - 'a') / width);
}

void gh_view_init(struct gh_view *view, const struct gh_options *opts)
{
	memset(view, 0, sizeof(*view));
	for (int c = 0; c < 256; c++)
		view->bin_of[c] = -1;
	view->kind = opts->view;

	switch (opts->view) {
	case GH_VIEW_LETTERS:
		init_letters(view, opts->width);
		break;
	case GH_VIEW_BYTES:
		view->n_bins = 256;
		for (int c = 0; c < 256; c++) {
			view->bin_of[c] = (short)c;
			snprintf(view->name[c], sizeof(view->name[c]), "%d", c);
			byte_label(c, view->label[c], sizeof(view->label[c]));
		}
		break;
	case GH_VIEW_CLASSES:
		view->n_bins = 7;
		for (int b = 0; b < 7; b++) {
			strcpy(view->name[b], class_names[b]);
			strcpy(view->label[b], class_names[b]);
		}
		for (int c = 0; c < 256; c++)
			view->bin_of[c] = (short)class_of(c);
		break;
	}
	if (opts->ignore_case)
		for (int c = 'A'; c <= 'Z'; c++)
			view->bin_of[c] = view->bin_of[c - 'A' + 'a'];
}

uint64_t gh_view_fold(const struct gh_view *view, const uint64_t totals[256],
		      uint64_t bins[GH_VIEW_MAX_BINS])
{
	uint64_t counted = 0;

	memset(bins, 0, GH_VIEW_MAX_BINS * sizeof(bins[0]));
	for (int c = 0; c < 256; c++) {
		if (view->bin_of[c] < 0)
			continue;
		bins[view->bin_of[c]] += totals[c];
		counted += totals[c];
	}
	return counted;
}
