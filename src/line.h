/* line.h - one message line, its middle given up where it is too long
 *
 * Shared by the library's notes (lib/notes.c) and the command's messages
 * (cli/msg.c): a line "PREFIXTEXT[: REASON]\n" of at most `max` bytes with
 * its NUL.  One that would be longer (a name of thousands of characters)
 * loses the middle of TEXT, where the name usually is, to "..."; its
 * start, its end and the REASON after it always come through whole, and a
 * cut never splits a UTF-8 character.  Header-only, so that neither side
 * links the other's code.
 */
#ifndef GH_LINE_H
#define GH_LINE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether byte c continues a UTF-8 sequence, so a cut must not fall
 * before it. */
static inline int gh_line_continues(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* "PREFIXTEXT[: REASON]\n" into line[max], shortened as above. */
static inline void gh_line_compose(char *line, size_t max, const char *prefix,
				   const char *text, const char *reason)
{
	size_t len = strlen(text);
	size_t fixed = strlen(prefix) + 2 /* "\n" and NUL */ +
		       (reason ? strlen(reason) + 2 : 0);
	size_t room = fixed + 64 < max ? max - fixed : 64;
	size_t head = len, tail = len;

	if (len > room) {
		/* A quarter of the room for the start, the rest for the end,
		 * which holds the name's last part and what went wrong. */
		head = (room - 3) / 4;
		tail = len - (room - 3 - head);
		while (head && gh_line_continues(text[head]))
			head--;
		while (tail < len && gh_line_continues(text[tail]))
			tail++;
	}
	snprintf(line, max, "%s%.*s%s%s%s%s\n", prefix, (int)head, text,
		 head < len ? "..." : "", text + tail, reason ? ": " : "",
		 reason ? reason : "");
}

/* The same, TEXT formatted from fmt and ap (ap is used up). */
static inline void gh_line_vformat(char *line, size_t max, const char *prefix,
				   const char *fmt, va_list ap,
				   const char *reason)
{
	va_list again;
	char *text;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (text) {
		vsnprintf(text, (size_t)n + 1, fmt, again);
		gh_line_compose(line, max, prefix, text, reason);
		free(text);
	} else {                /* out of memory: the start of it, at least */
		char start[2048];

		vsnprintf(start, sizeof(start), fmt, again);
		gh_line_compose(line, max, prefix, start, reason);
	}
	va_end(again);
}

#endif
