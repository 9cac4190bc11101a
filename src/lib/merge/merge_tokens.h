/* merge_tokens.h - the tokens views' reader of results (merge_tokens.c):
 * token counts read back from a -f json result of -t, --lines, --field or
 * --key */
#ifndef GH_MERGE_TOKENS_H
#define GH_MERGE_TOKENS_H

#include "gpuhist.h"
#include "notes.h"

/* Reads NAME ("-" is stdin), a document gpuhist -f json wrote with the
 * tokens view opts names, and adds its total's token counts to m->tokens
 * (empty: one for this document alone), with its bytes read in
 * m->totals[0].  The whole document is checked (merge_tokens.c says how).
 * On failure notes "NAME: reason" and returns -1 (m->tokens then holds
 * part of it: let it go). */
int gh_merge_tokens_read(const char *name, const struct gpuhist_options *opts,
			 struct gpuhist_merge *m, struct gh_notes *notes);

#endif
