/* notes.c - what the library has to say of an input, kept for the caller
 *
 * A line is at most GH_NOTE_LINE bytes; a longer one loses the middle of
 * its text, never its reason (line.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "notes.h"

void gh_notes_init(struct gh_notes *notes, char *buf, size_t len)
{
	notes->buf = buf;
	notes->len = len;
	if (buf && len)
		buf[0] = '\0';
}

static void vnote(struct gh_notes *notes, const char *fmt, va_list ap,
		  const char *reason)
{
	char line[GH_NOTE_LINE];
	size_t used, len;

	if (!notes || !notes->buf)
		return;
	gh_line_vformat(line, sizeof(line), "", fmt, ap, reason);
	used = strlen(notes->buf);
	len = strlen(line);
	if (used + len < notes->len)
		memcpy(notes->buf + used, line, len + 1);
}

void gh_note(struct gh_notes *notes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(notes, fmt, ap, NULL);
	va_end(ap);
}

void gh_note_errno(struct gh_notes *notes, const char *fmt, ...)
{
	const char *reason = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vnote(notes, fmt, ap, reason);
	va_end(ap);
}
