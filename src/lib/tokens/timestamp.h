/* timestamp.h - a line's time, for counts per interval (the per option;
 * timestamp.c)
 *
 * A line's time is the first timestamp in it of these: Common Log
 * Format's [27/Nov/2026:10:00:00 +0000]; RFC 3339 / ISO 8601's
 * 2026-11-27T10:00:00Z (a space for the T, a fraction after a dot or a
 * comma, Z, +01:00, +0100 or no offset, which is UTC); or, at the line's
 * start, syslog's Nov 27 10:00:00 in the year given (UTC).  With a time
 * field, that field alone is read, and it may also be epoch seconds or
 * milliseconds (13 digits or more before any fraction: milliseconds).
 * With a format, strptime(3) reads the time instead, from the field or
 * the line's start.
 */
#ifndef GH_TIMESTAMP_H
#define GH_TIMESTAMP_H

#include <stdbool.h>
#include <stdint.h>

struct gh_time_rule {
	int64_t per;            /* seconds an interval, from 1 */
	int field;              /* 0: the line; else its field, split as
				 * the field view splits (separator) */
	int separator;          /* a byte, or -1: runs of blanks */
	int year;               /* syslog's year */
	const char *format;     /* strptime(3)'s for the time (the field,
				 * a key's value, or the line from its
				 * start) instead of the forms; NULL: none */
};

/* A label is an interval's start, "2026-11-27T10:00:00Z", or
 * GH_TIME_NONE for a line with no time read. */
#define GH_TIME_LABEL 20
#define GH_TIME_NONE "(no time)"

/* The line's time in seconds since the epoch (UTC): true, or false where
 * none is read. */
bool gh_time_of_line(const struct gh_time_rule *rule,
		     const unsigned char *p, uint64_t len, int64_t *t);

/* The time of text [p, p + len) alone (a JSON key's value): as a time
 * field's is read; true, or false where none is read. */
bool gh_time_of_text(const struct gh_time_rule *rule,
		     const unsigned char *p, uint64_t len, int64_t *t);

/* The start of the interval that holds t. */
int64_t gh_time_start(const struct gh_time_rule *rule, int64_t t);

/* The label of the interval that starts at start, into
 * out[GH_TIME_LABEL] (no NUL); false past year 9999 or before year 0. */
bool gh_time_label(int64_t start, unsigned char out[GH_TIME_LABEL]);

#endif
