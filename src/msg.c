/* msg.c - the program's voice on stderr: "gpuhist: what: why" */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

static void (*msg_before)(void);
static pthread_mutex_t stderr_lock = PTHREAD_MUTEX_INITIALIZER;

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

void gh_msg(const char *fmt, ...)
{
	va_list ap;

	gh_stderr_lock();
	if (msg_before)
		msg_before();
	fprintf(stderr, "%s: ", GH_PROGNAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	gh_stderr_unlock();
}

void gh_msg_errno(const char *fmt, ...)
{
	int saved_errno = errno;
	va_list ap;

	gh_stderr_lock();
	if (msg_before)
		msg_before();
	fprintf(stderr, "%s: ", GH_PROGNAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(saved_errno));
	gh_stderr_unlock();
}
