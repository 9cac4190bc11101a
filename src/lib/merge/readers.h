/* readers.h - results read back, one reader a view: the table of rows
 * that gpuhist_merge_json() (readers.c) picks from */
#ifndef GH_MERGE_READERS_H
#define GH_MERGE_READERS_H

#include <stdbool.h>

#include "gpuhist.h"
#include "notes.h"

/* One view's reader: whether it reads the documents of opts' view (with
 * what m was given), and the reader, which notes "NAME: reason" and
 * returns -1 when the document is unreadable or refused. */
struct gh_merge_reader {
	const char *view;               /* "values", "tokens", "bytes" */
	bool (*wanted)(const struct gpuhist_options *opts,
		       const struct gpuhist_merge *m);
	int (*read)(const char *name, const struct gpuhist_options *opts,
		    struct gpuhist_merge *m, struct gh_notes *notes);
};

/* The rows, the first whose wanted() is true reading; NULL-terminated. */
extern const struct gh_merge_reader *const gh_merge_rows[];

/* gpuhist_merge_json() once api.c has checked its arguments: the row of
 * opts' view reads path into m. */
int gh_merge_read(const struct gpuhist_options *opts, const char *path,
		  struct gpuhist_merge *m);

#endif
