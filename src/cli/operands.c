/* operands.c - the operands, from the command line or --files0-from
 *
 * --files0-from=F reads NUL-separated names from F ("-": standard input),
 * as wc and du do, one name at a time: a name may hold any byte but NUL,
 * newlines included.  An empty name, or "-" when F is standard input
 * itself, is an input that fails, named by its place in the list.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "operands.h"

int gh_operands_open(struct gh_operands *ops, const struct gh_options *opts)
{
	memset(ops, 0, sizeof(*ops));
	ops->opts = opts;
	if (!opts->files0_from)
		return 0;
	ops->list = strcmp(opts->files0_from, "-")
		    ? fopen(opts->files0_from, "r") : stdin;
	if (!ops->list) {
		gh_msg_errno("cannot open '%s' for reading", opts->files0_from);
		return -1;
	}
	return 0;
}

int gh_operands_next(struct gh_operands *ops, const char **name, char *why,
		     size_t why_len)
{
	const char *from = ops->opts->files0_from;
	ssize_t len;

	if (!ops->list) {
		if (ops->next >= ops->opts->n_operands)
			return 0;
		*name = ops->opts->operands[ops->next++];
		return 1;
	}
	errno = 0;
	len = getdelim(&ops->name, &ops->name_room, '\0', ops->list);
	if (len < 0) {
		if (ferror(ops->list)) {
			gh_msg_errno("%s: read error", from);
			return -2;
		}
		return 0;
	}
	ops->number++;
	/* The last name may end at the end of the list, without a NUL. */
	if (len && ops->name[len - 1] == '\0')
		len--;
	*name = ops->name;
	if (!len) {
		snprintf(why, why_len, "%s:%llu: invalid zero-length file name",
			 from, ops->number);
		*name = "";
		return -1;
	}
	/* The common mistake: a list of lines.  Said once, beside the
	 * name's own failure. */
	if (!ops->hinted && strchr(ops->name, '\n') &&
	    access(ops->name, F_OK) != 0) {
		gh_msg("%s: names there end with a NUL byte, not a newline (find -print0, printf '%%s\\0')",
		       from);
		ops->hinted = true;
	}
	if (!strcmp(from, "-") && !strcmp(ops->name, "-")) {
		snprintf(why, why_len, "%s:%llu: when reading file names from standard input, no file name of '-' allowed",
			 from, ops->number);
		return -1;
	}
	return 1;
}

int gh_operands_close(struct gh_operands *ops)
{
	int ret = 0;

	free(ops->name);
	ops->name = NULL;
	if (ops->list && ops->list != stdin && fclose(ops->list)) {
		gh_msg_errno("%s", ops->opts->files0_from);
		ret = -1;
	}
	ops->list = NULL;
	return ret;
}
