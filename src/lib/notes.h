/* notes.h - what the library has to say of an input, kept for the caller
 *
 * The library never prints.  What it would say of an input (why it failed,
 * a warning, with verbose how it was decoded) is appended to that input's
 * notes as whole lines "TEXT[: REASON]\n", which the caller prints or
 * keeps as it likes (gpuhist_result.messages).
 */
#ifndef GH_NOTES_H
#define GH_NOTES_H

#include <stddef.h>

/* Longest line, newline included: a longer one loses the middle of its
 * TEXT (the name, usually) to "...", never its REASON.  A caller may put
 * up to 16 bytes before it ("gpuhist: ") and stay within 4096. */
#define GH_NOTE_LINE (4096 - 16)

struct gh_notes {
	char *buf;              /* NUL-terminated lines */
	size_t len;             /* room in buf; a line that no longer fits
				 * is dropped whole */
};

/* An empty set of notes in buf[len]. */
void gh_notes_init(struct gh_notes *notes, char *buf, size_t len);

/* "TEXT\n", TEXT formatted. */
void gh_note(struct gh_notes *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "TEXT: strerror(errno)\n"; errno is read first. */
void gh_note_errno(struct gh_notes *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
