/* merge_values.h - reading a field's numbers back from a -f json result of
 * the values view (--merge with --values) */
#ifndef GH_MERGE_VALUES_H
#define GH_MERGE_VALUES_H

#include <stdint.h>

#include "gpuhist.h"
#include "options.h"

/* Reads the result NAME ("-": standard input) and adds its total's
 * numbers into values (new, of the command's precision), its bytes read
 * into *bytes_read; 0, or -1 with why said ("gpuhist: NAME: ..."), values
 * then half filled (let it go). */
int gh_merge_values_read(const char *name, const struct gh_options *opts,
			 gpuhist_values *values, uint64_t *bytes_read);

#endif
