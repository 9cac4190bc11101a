/* notes.c - what the library has to say of an input, kept for the caller
 *
 * A line is at most GH_NOTE_LINE bytes.  One that would be longer (a name
 * of thousands of characters) loses the middle of its text, where the
 * name usually is, to "..."; its start, its end and the reason after it
 * always come through whole, and a cut never splits a UTF-8 character.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notes.h"

void gh_notes_init(struct gh_notes *notes, char *buf, size_t len)
{
	notes->buf = buf;
	notes->len = len;
	if (buf && len)
		buf[0] = '\0';
}

/* Whether byte c continues a UTF-8 sequence, so a cut must not fall
 * before it. */
static int continues(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* "TEXT[: REASON]\n" into line; where that is too long, the middle of
 * TEXT gives way to "...", cut between characters. */
static void compose(char line[GH_NOTE_LINE], const char *text,
		    const char *reason)
{
	size_t len = strlen(text);
	size_t fixed = 2 /* "\n" and NUL */ + (reason ? strlen(reason) + 2 : 0);
	size_t room = fixed + 64 < GH_NOTE_LINE ? GH_NOTE_LINE - fixed : 64;
	size_t head = len, tail = len;

	if (len > room) {
		/* A quarter of the room for the start, the rest for the end,
		 * which holds the name's last part and what went wrong. */
		head = (room - 3) / 4;
		tail = len - (room - 3 - head);
		while (head && continues(text[head]))
			head--;
		while (tail < len && continues(text[tail]))
			tail++;
	}
	snprintf(line, GH_NOTE_LINE, "%.*s%s%s%s%s\n", (int)head, text,
		 head < len ? "..." : "", text + tail, reason ? ": " : "",
		 reason ? reason : "");
}

static void vnote(struct gh_notes *notes, const char *fmt, va_list ap,
		  const char *reason)
{
	char line[GH_NOTE_LINE], *text;
	va_list again;
	int n;

	if (!notes || !notes->buf)
		return;
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (text) {
		vsnprintf(text, (size_t)n + 1, fmt, again);
		compose(line, text, reason);
		free(text);
	} else {                /* out of memory: the start of it, at least */
		char start[GH_NOTE_LINE / 2];

		vsnprintf(start, sizeof(start), fmt, again);
		compose(line, start, reason);
	}
	va_end(again);

	size_t used = strlen(notes->buf), len = strlen(line);

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
