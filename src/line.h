/* line.h - one message line, its middle given up where it is too long
 *
 * Shared by the library's notes (lib/notes.c) and the command's messages
 * (cli/msg.c): a line "PREFIXTEXT[: REASON]\n" of at most `max` bytes with
 * its NUL.  One that would be longer (a name of thousands of characters)
 * loses the middle of TEXT, where the name usually is, to "..."; its
 * start, its end and the REASON after it always come through whole, and a
 * cut never splits a UTF-8 character.  Control characters in TEXT (a
 * name with a newline in it) are shown escaped, as ls -b shows them (\n,
 * \t, \r, else \ooo), so that no name can start a line of its own or
 * move the terminal's cursor.  Header-only, so that neither side links
 * the other's code.
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

/* text with its control characters escaped, in a string to free; NULL
 * when out of memory. */
static inline char *gh_line_escape(const char *text)
{
	size_t len = strlen(text);
	char *out = malloc(4 * len + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			*o++ = (char)*p;
			continue;
		}
		*o++ = '\\';
		switch (*p) {
		case '\n': *o++ = 'n'; break;
		case '\t': *o++ = 't'; break;
		case '\r': *o++ = 'r'; break;
		default:
			*o++ = (char)('0' + (*p >> 6));
			*o++ = (char)('0' + (*p >> 3 & 7));
			*o++ = (char)('0' + (*p & 7));
		}
	}
	*o = '\0';
	return out;
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
		char *shown;

		vsnprintf(text, (size_t)n + 1, fmt, again);
		shown = gh_line_escape(text);
		gh_line_compose(line, max, prefix, shown ? shown : text, reason);
		free(shown);
		free(text);
	} else {                /* out of memory: the start of it, at least */
		char start[2048];

		vsnprintf(start, sizeof(start), fmt, again);
		gh_line_compose(line, max, prefix, start, reason);
	}
	va_end(again);
}

#endif
