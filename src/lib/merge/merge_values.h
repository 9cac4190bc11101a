/* merge_values.h - the values view's reader of results (merge_values.c):
 * a field's numbers read back from a -f json result of --values */
#ifndef GH_MERGE_VALUES_H
#define GH_MERGE_VALUES_H

#include "gpuhist.h"
#include "notes.h"

/* Reads the result NAME ("-": standard input) of the values view of
 * opts' field or key and adds its total's numbers into m->values (new,
 * of the command's precision), its bytes read into m->totals[0]; 0, or -1
 * with why noted ("NAME: ..."), m->values then half filled (let it go). */
int gh_merge_values_read(const char *name, const struct gpuhist_options *opts,
			 struct gpuhist_merge *m, struct gh_notes *notes);

#endif
