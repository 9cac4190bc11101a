/* operands.c - the operands, from the command line or --files0-from
 *
 * --files0-from=F reads NUL-separated names from F ("-": standard input),
 * as wc and du do, one name at a time: a name may hold any byte but NUL,
 * newlines included.  An empty name, or "-" when F is standard input
 * itself, is an input that fails, named by its place in the list.
 *
 * An operand that is a directory is read as grep -r reads one (the order
 * and what is skipped: operands.h); an unreadable directory under it is
 * an input that fails, named by its path, and the rest is still read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "operands.h"

/* One directory being read: its path and its names, sorted. */
struct gh_walk_dir {
	char *path;
	struct dirent **list;
	int n, i;
};

static int not_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

static int by_bytes(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static bool matches_any(const char *const *globs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return true;
	return false;
}

/* Starts reading directory path: 0, or -1 with why set. */
static int walk_push(struct gh_operands *ops, const char *path, char *why,
		     size_t why_len)
{
	struct gh_walk_dir *d;

	if (ops->depth == ops->dirs_room) {
		int room = ops->dirs_room ? 2 * ops->dirs_room : 8;
		struct gh_walk_dir *more = realloc(ops->dirs,
						   room * sizeof(*more));

		if (!more) {
			snprintf(why, why_len, "%s: out of memory", path);
			return -1;
		}
		ops->dirs = more;
		ops->dirs_room = room;
	}
	d = &ops->dirs[ops->depth];
	*d = (struct gh_walk_dir){ .path = strdup(path) };
	if (!d->path) {
		snprintf(why, why_len, "%s: out of memory", path);
		return -1;
	}
	d->n = scandir(path, &d->list, not_dots, by_bytes);
	if (d->n < 0) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		free(d->path);
		return -1;
	}
	ops->depth++;
	return 0;
}

static void walk_pop(struct gh_operands *ops)
{
	struct gh_walk_dir *d = &ops->dirs[--ops->depth];

	while (d->i < d->n)
		free(d->list[d->i++]);
	free(d->list);
	free(d->path);
}

/* The next file under the directories being read: 1 (ops->path), 0 when
 * they are all read, -1 (why; ops->path the directory or entry). */
static int walk_next(struct gh_operands *ops, char *why, size_t why_len)
{
	const struct gh_options *opts = ops->opts;

	while (ops->depth > 0) {
		struct gh_walk_dir *d = &ops->dirs[ops->depth - 1];
		struct dirent *e;
		struct stat st;
		size_t len;
		bool slash;

		if (d->i == d->n) {
			walk_pop(ops);
			continue;
		}
		e = d->list[d->i++];
		len = strlen(d->path);
		slash = len && d->path[len - 1] == '/';
		len += !slash + strlen(e->d_name) + 1;
		if (len > ops->path_room) {
			char *p = realloc(ops->path, len);

			if (!p) {
				free(e);
				snprintf(why, why_len, "%s: out of memory",
					 d->path);
				return -1;
			}
			ops->path = p;
			ops->path_room = len;
		}
		snprintf(ops->path, len, "%s%s%s", d->path, slash ? "" : "/",
			 e->d_name);
		if (lstat(ops->path, &st) != 0) {
			snprintf(why, why_len, "%s: %s", ops->path,
				 strerror(errno));
			free(e);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			bool skip = matches_any(opts->exclude_dir,
						opts->n_exclude_dir,
						e->d_name);

			free(e);
			if (!skip && walk_push(ops, ops->path, why, why_len))
				return -1;
			continue;
		}
		if (S_ISREG(st.st_mode) &&
		    (!opts->n_include ||
		     matches_any(opts->include, opts->n_include, e->d_name))) {
			free(e);
			return 1;
		}
		free(e);        /* a link, a FIFO, a socket, a device */
	}
	return 0;
}

/* Whether an operand names a directory (a link to one included). */
static bool is_directory(const char *name)
{
	struct stat st;

	return strcmp(name, "-") && stat(name, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

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

/* The next operand as named: gh_operands_next() without the directories'
 * files. */
static int next_named(struct gh_operands *ops, const char **name, char *why,
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

int gh_operands_next(struct gh_operands *ops, const char **name, char *why,
		     size_t why_len)
{
	int got;

	for (;;) {
		if (ops->depth > 0) {
			got = walk_next(ops, why, why_len);
			if (got) {
				*name = ops->path;
				return got;
			}
		}
		got = next_named(ops, name, why, why_len);
		if (got != 1 || !is_directory(*name))
			return got;
		if (walk_push(ops, *name, why, why_len))
			return -1;      /* named by the operand */
	}
}

int gh_operands_close(struct gh_operands *ops)
{
	int ret = 0;

	while (ops->depth > 0)
		walk_pop(ops);
	free(ops->dirs);
	free(ops->path);
	ops->dirs = NULL;
	ops->path = NULL;
	ops->dirs_room = 0;
	ops->path_room = 0;

	free(ops->name);
	ops->name = NULL;
	if (ops->list && ops->list != stdin && fclose(ops->list)) {
		gh_msg_errno("%s", ops->opts->files0_from);
		ret = -1;
	}
	ops->list = NULL;
	return ret;
}
