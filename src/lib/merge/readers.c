/* readers.c - results read back (gpuhist_merge_json): the table of rows,
 * one reader a view (readers.h), as decode/formats.c is for formats
 *
 * A new view that can be merged is its reader's file (its document's
 * entries read, checked and added), its row here, tests and docs.
 */
#include "config.h"

#include <string.h>

#include "merge_bytes.h"
#include "merge_tokens.h"
#include "merge_values.h"
#include "readers.h"

static bool values_wanted(const struct gpuhist_options *opts,
			  const struct gpuhist_merge *m)
{
	(void)opts;
	return m->values != NULL;
}

static bool tokens_wanted(const struct gpuhist_options *opts,
			  const struct gpuhist_merge *m)
{
	return opts->tokens != GPUHIST_TOKENS_NONE && m->tokens != NULL;
}

static bool bytes_wanted(const struct gpuhist_options *opts,
			 const struct gpuhist_merge *m)
{
	(void)m;
	return opts->tokens == GPUHIST_TOKENS_NONE;
}

static const struct gh_merge_reader values_row = {
	"values", values_wanted, gh_merge_values_read,
};
static const struct gh_merge_reader tokens_row = {
	"tokens", tokens_wanted, gh_merge_tokens_read,
};
static const struct gh_merge_reader bytes_row = {
	"bytes", bytes_wanted, gh_merge_bytes_read,
};

const struct gh_merge_reader *const gh_merge_rows[] = {
	&values_row, &tokens_row, &bytes_row, NULL,
};

int gh_merge_read(const struct gpuhist_options *opts, const char *path,
		  struct gpuhist_merge *m)
{
	struct gh_notes notes;

	gh_notes_init(&notes, m->message, sizeof(m->message));
	memset(m->totals, 0, sizeof(m->totals));
	m->stream_known = 0;
	memset(&m->stream, 0, sizeof(m->stream));
	for (int i = 0; gh_merge_rows[i]; i++)
		if (gh_merge_rows[i]->wanted(opts, m))
			return gh_merge_rows[i]->read(path, opts, m, &notes)
			       ? GPUHIST_ERR_INPUT : GPUHIST_OK;
	gh_note(&notes, "%s: a tokens view's result is read into a token sum (gpuhist_merge's tokens)",
		path);
	return GPUHIST_ERR_ARGUMENT;
}
