/* match.h - the lines an input is counted by (options match, exclude):
 * PCRE2 patterns compiled once a counter, and a filter an input that
 * hands on only the lines they keep, in order */
#ifndef GH_MATCH_H
#define GH_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "gpuhist.h"
#include "source.h"

struct gh_match;
struct gh_lines;

/* Whether this build matches lines (PCRE2), and what matches them, for
 * --version -v ("PCRE2 10.42, JIT"); NULL when it cannot. */
const char *gh_match_engine(void);

/* The patterns opts name, compiled: NULL with why[0] == 0 when there are
 * none; NULL with why set when one cannot be used (PCRE2's message and
 * where, or a build without PCRE2). */
struct gh_match *gh_match_new(const struct gpuhist_options *opts, char *why,
			      size_t why_len);
void gh_match_free(struct gh_match *m);

/* One input's filter (one thread's); NULL when out of memory. */
struct gh_lines *gh_lines_new(const struct gh_match *m);
void gh_lines_free(struct gh_lines *l);

/* As gh_source_fill(): up to cap bytes of the kept lines into out, 0 at
 * the end, -1 on failure: *why then says why (matching failed, or out of
 * memory for a line), or is NULL where the source failed (it noted why).
 * A kept line longer than cap comes in several calls. */
int64_t gh_lines_fill(struct gh_lines *l, struct gh_source *src,
		      unsigned char *out, uint64_t cap, const char **why);

/* The kept lines among the whole lines of p[0..len) (the last one ends
 * without its \n only where the input does) into out, which has room for
 * len: the bytes written, or -1 with *why set (matching failed).  For
 * readers that each filter their own part of a file. */
int64_t gh_lines_filter(struct gh_lines *l, const unsigned char *p,
			size_t len, unsigned char *out, const char **why);

/* The lines seen and kept so far. */
void gh_lines_tally(const struct gh_lines *l, uint64_t *seen, uint64_t *kept);

#endif
