/* merge_tokens.h - reading token counts back from a -f json result of a
 * tokens view (--merge with -t, --lines or --field) */
#ifndef GH_MERGE_TOKENS_H
#define GH_MERGE_TOKENS_H

#include <stdint.h>

#include "gpuhist.h"

/* Reads NAME ("-" is stdin), a document gpuhist -f json wrote with the
 * tokens view opts names, and adds its total's token counts to sum (empty:
 * one for this document alone), with its bytes read in *bytes_read.  The
 * whole document is checked (merge_tokens.c says how).  On failure prints
 * "gpuhist: NAME: reason" and returns -1 (sum then holds part of it: let
 * it go). */
int gh_merge_tokens_read(const char *name, const struct gpuhist_options *opts,
			 gpuhist_token_sum *sum, uint64_t *bytes_read);

#endif
