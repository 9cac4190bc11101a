/* gzip_check.h - zlib's verdict on a gzip stream that ISA-L decodes */
#ifndef GH_GZIP_CHECK_H
#define GH_GZIP_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct gh_gzip_check;

/* A checker (it starts a thread of its own once the stream is long
 * enough to repay one); NULL when out of memory. */
struct gh_gzip_check *gh_gzip_check_new(void);

/* Hands over the stream's next n bytes (copied; waits while the checker
 * is a whole buffer behind). */
void gh_gzip_check_feed(struct gh_gzip_check *c, const unsigned char *p,
			size_t n);

/* The checker's message if it has refused the stream at a place before
 * stream byte `at` (where the decoder stands), else NULL; does not wait. */
const char *gh_gzip_check_refused(struct gh_gzip_check *c, uint64_t at);

/* All of the stream was fed and the decoder took it: waits for the
 * verdict, NULL when the stream is accepted, else the message. */
const char *gh_gzip_check_end(struct gh_gzip_check *c);

/* The decoder failed at stream byte `at` (or reading failed): no more
 * input comes.  The checker's message when it refused the stream before
 * `at`, which is then the first fault in it, else NULL. */
const char *gh_gzip_check_stop(struct gh_gzip_check *c, uint64_t at);

/* Stops the thread if it still runs, and frees. */
void gh_gzip_check_free(struct gh_gzip_check *c);

#endif
