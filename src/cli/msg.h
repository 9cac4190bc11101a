/* msg.h - the program's voice on stderr: "gpuhist: what: why" */
#ifndef GH_MSG_H
#define GH_MSG_H

#include <stdarg.h>
#include <stddef.h>

#define GH_PROGNAME "gpuhist"

/* "gpuhist: <formatted>" on stderr. */
void gh_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* gh_msg() with a va_list. */
void gh_vmsg(const char *fmt, va_list ap);
/* "gpuhist: <formatted>: strerror(errno)" on stderr; errno is read first. */
void gh_msg_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Called before every message, so a progress meter can clear its line;
 * it runs under the stderr lock. */
void gh_msg_set_before(void (*before)(void));

/* Longest message line, newline included: a longer one has the middle of
 * its text (the name, usually) shortened to "...", never its reason. */
#define GH_MSG_LINE 4096

/* From now on, this thread's messages are appended to buf instead of
 * printed, each line whole (one that no longer fits is printed at once);
 * NULL prints them again. */
void gh_msg_capture(char *buf, size_t len);

/* The last message this thread printed or captured, without the
 * "gpuhist: " and the newline ("" if none): what a json result says of a
 * run that failed as a whole (report.c). */
const char *gh_msg_last(void);

/* Prints captured lines (as they are, each ending in a newline). */
void gh_msg_print(const char *lines);

/* Prints lines the library said of an input ("NAME: reason\n" each), each
 * as a message: "gpuhist: NAME: reason". */
void gh_msg_lines(const char *lines);

/* Flushes and closes stdout at exit: 0, or -1 after printing a write
 * error; a closed pipe (EPIPE) ends quietly, as other filters do. */
int gh_close_stdout(void);

/* Held while a message or the meter is written, so lines never mix. */
void gh_stderr_lock(void);
void gh_stderr_unlock(void);

#endif
