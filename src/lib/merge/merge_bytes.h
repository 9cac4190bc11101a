/* merge_bytes.h - the bytes view's reader of results (merge_bytes.c) */
#ifndef GH_MERGE_BYTES_H
#define GH_MERGE_BYTES_H

#include "gpuhist.h"
#include "notes.h"

/* Reads NAME ("-" is stdin), a document gpuhist -f json wrote, into the
 * 256 totals of its "total" entry (m->totals).  The whole document is
 * checked (merge_bytes.c says how), and its totals must fit beside
 * m->sum, the results merged before it: no count, nor all of them
 * together, may pass 2^64-1.  With m->chars (-m; the caller's to free
 * whatever it then holds), the total's code points go there too, and
 * every entry must have them.  The total's stream sums (--stats) go to
 * m->stream, m->stream_known saying whether the document has them.  On
 * failure notes "NAME: reason" and returns -1. */
int gh_merge_bytes_read(const char *name, const struct gpuhist_options *opts,
			struct gpuhist_merge *m, struct gh_notes *notes);

#endif
