/* operands.h - the operands, from the command line or --files0-from, and
 * the files under those that are directories */
#ifndef GH_OPERANDS_H
#define GH_OPERANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"

/* Where the names come from, one at a time, so that a list of any length
 * (find -print0 | gpuhist --files0-from=-) runs in the same memory. */
struct gh_operands {
	const struct gh_options *opts;
	int next;                   /* command line: the next operand */
	FILE *list;                 /* --files0-from: the list, else NULL */
	char *name;                 /* the list's current name */
	size_t name_room;
	unsigned long long number;  /* its place in the list, from 1 */
	bool hinted;                /* said that names end with NUL */
	/* The directories being read, outermost first (operands.c). */
	struct gh_walk_dir *dirs;
	int depth, dirs_room;
	char *path;                 /* the file found last in them */
	size_t path_room;
};

/* Starts reading the operands; -1 after saying why the list cannot be
 * opened. */
int gh_operands_open(struct gh_operands *ops, const struct gh_options *opts);

/* The next name: 1 with *name set (valid until the next call), 0 at the
 * end, -1 when an entry of the list is not a usable name: *name is then
 * "" and why holds "F:N: reason" (an input that fails), or a directory
 * that cannot be read (*name is then its path, why "PATH: reason"), or,
 * when the list cannot be read, -2 after saying why.  An operand that is
 * a directory (a link to one included) gives the files under it, as grep
 * -r finds them: depth first, each directory's names in byte order;
 * links met inside and what is neither a file nor a directory (FIFOs,
 * sockets, devices) skipped; with --include only files whose base name
 * matches one of its globs, with --exclude-dir no directory whose base
 * name matches one of its. */
int gh_operands_next(struct gh_operands *ops, const char **name, char *why,
		     size_t why_len);

/* Closes the list; -1 after saying why if that failed. */
int gh_operands_close(struct gh_operands *ops);

#endif
