/* msg.c - the program's voice on stderr: "gpuhist: what: why"
 *
 * Lines are written whole under one lock, after the progress meter has
 * cleared its line.  A thread counting one of several inputs at once can
 * capture its messages instead, so that they are printed in operand order
 * with that input's result, whichever input fails first.
 *
 * A line is at most GH_MSG_LINE bytes; a longer one loses the middle of
 * its text, never its reason (line.h).  Lines the library said of an
 * input are at most 16 bytes shorter, so they come through as they are.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "msg.h"

static void (*msg_before)(void);
static pthread_mutex_t stderr_lock = PTHREAD_MUTEX_INITIALIZER;

/* Where this thread's messages go instead of stderr, when set. */
static _Thread_local char *capture_buf;
static _Thread_local size_t capture_len;
static _Thread_local char last[GH_MSG_LINE];

void gh_stderr_lock(void)
{
	pthread_mutex_lock(&stderr_lock);
}

void gh_stderr_unlock(void)
{
	pthread_mutex_unlock(&stderr_lock);
}

void gh_msg_set_before(void (*before)(void))
{
	msg_before = before;
}

const char *gh_msg_last(void)
{
	return last;
}

void gh_msg_capture(char *buf, size_t len)
{
	capture_buf = buf;
	capture_len = len;
	if (buf && len)
		buf[0] = '\0';
}

void gh_msg_print(const char *lines)
{
	if (!*lines)
		return;
	gh_stderr_lock();
	if (msg_before)
		msg_before();
	fputs(lines, stderr);
	gh_stderr_unlock();
}

/* Prints one finished line, or adds it to this thread's capture: whole,
 * or, when the capture has no room left for it, printed at once. */
static void emit(const char *line)
{
	size_t prefix = strlen(GH_PROGNAME ": ");

	if (!strncmp(line, GH_PROGNAME ": ", prefix))
		snprintf(last, sizeof(last), "%.*s",
			 (int)strcspn(line + prefix, "\n"), line + prefix);
	if (capture_buf) {
		size_t used = strlen(capture_buf), len = strlen(line);

		if (used + len < capture_len) {
			memcpy(capture_buf + used, line, len + 1);
			return;
		}
	}
	gh_msg_print(line);
}

static void vmsg(const char *fmt, va_list ap, const char *reason)
{
	char line[GH_MSG_LINE];

	gh_line_vformat(line, sizeof(line), GH_PROGNAME ": ", fmt, ap, reason);
	emit(line);
}

void gh_vmsg(const char *fmt, va_list ap)
{
	vmsg(fmt, ap, NULL);
}

void gh_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, NULL);
	va_end(ap);
}

void gh_msg_lines(const char *lines)
{
	for (const char *l = lines, *end; *l; l = *end ? end + 1 : end) {
		end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		gh_msg("%.*s", (int)(end - l), l);
	}
}

void gh_msg_errno(const char *fmt, ...)
{
	const char *reason = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, reason);
	va_end(ap);
}

/* Flushes and closes stdout; a closed pipe ends quietly, other errors not. */
int gh_close_stdout(void)
{
	/* errno still holds the failed write's reason when ferror() is set
	 * by a write that failed before this flush. */
	int failed = fflush(stdout) != 0 || ferror(stdout);
	int saved_errno = errno;

	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved_errno = errno;
	}
	if (!failed)
		return 0;
	if (saved_errno != EPIPE) {
		errno = saved_errno;
		gh_msg_errno("write error");
	}
	return -1;
}
