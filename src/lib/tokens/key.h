/* key.h - a key of several fields: a line's fields, in the order asked
 * for, joined by one byte (gpuhist_options' fields, n_fields)
 *
 * The join byte is the separator where one is set, else a tab: fields
 * split at a separator never hold it, and fields split at runs of blanks
 * never hold a tab, so a key splits back into its fields exactly (the
 * command's columns, --merge).
 */
#ifndef GH_TOKENS_KEY_H
#define GH_TOKENS_KEY_H

#include <stdint.h>
#include <string.h>

#include "blank_field.h"
#include "gpuhist.h"

struct gh_key {
	int n;                          /* 2..GPUHIST_FIELDS_MAX; 0: none */
	int field[GPUHIST_FIELDS_MAX];
	int separator;                  /* as the options' */
};

/* The byte between a key's fields. */
static inline unsigned char gh_key_join(int separator)
{
	return separator < 0 ? '\t' : (unsigned char)separator;
}

/* The length of the key of line [p, end). */
static inline uint64_t gh_key_length(const struct gh_key *k,
				     const unsigned char *p,
				     const unsigned char *end)
{
	uint64_t n = (uint64_t)k->n - 1;

	for (int i = 0; i < k->n; i++) {
		const unsigned char *from, *to;

		if (gh_line_field(p, end, k->field[i], k->separator, &from,
				  &to))
			n += (uint64_t)(to - from);
	}
	return n;
}

/* Writes the key of line [p, end) to out (gh_key_length bytes); its
 * length.  A field the line lacks is "", as the field view's. */
static inline uint64_t gh_line_key(const struct gh_key *k,
				   const unsigned char *p,
				   const unsigned char *end, unsigned char *out)
{
	unsigned char join = gh_key_join(k->separator);
	uint64_t n = 0;

	for (int i = 0; i < k->n; i++) {
		const unsigned char *from, *to;

		if (i)
			out[n++] = join;
		if (gh_line_field(p, end, k->field[i], k->separator, &from,
				  &to) && to > from) {
			memcpy(out + n, from, (size_t)(to - from));
			n += (uint64_t)(to - from);
		}
	}
	return n;
}

#endif
