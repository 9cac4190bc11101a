/* merge_view.h - the view a json result was written in, for --merge */
#ifndef GH_MERGE_VIEW_H
#define GH_MERGE_VIEW_H

#include "options.h"

/* With --merge and no view named on the command line: the tokens view
 * (and field, separator) the first result was written in, into opts; a
 * histogram's result, or one that cannot be read, leaves opts as it is. */
void gh_merge_view_adopt(struct gh_options *opts);

#endif
