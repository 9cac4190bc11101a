/* push.c - bytes pushed in as they come, counted as one input
 *
 * A push is a local socket pair and a thread: the thread counts the
 * socket's far end with gpuhist_count() as a descriptor input (so the
 * first bytes tell the format, every view and backend works as for a pipe,
 * and memory is the pipeline's, bounded), and gpuhist_push_write() sends
 * into the near end, gathering small writes into a buffer first.  A write
 * waits while the socket is full: that is the bound on memory.  The
 * socket, not a pipe, so that a count that ends early (corrupt data, a
 * cancel) makes the next send fail with EPIPE rather than raise SIGPIPE in
 * the program (MSG_NOSIGNAL).  The result is copied out of the counting
 * thread and handed to the caller's function by gpuhist_push_close(), in
 * the caller's thread (tokens copied into a gpuhist_token_sum).
 */
#define _GNU_SOURCE             /* MSG_NOSIGNAL, SOCK_CLOEXEC */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "counter.h"

/* Bytes gathered before a send: small writes cost one call a buffer. */
#define PUSH_BUFFER (256 * 1024)
/* The socket's room each way (the kernel may give less). */
#define PUSH_SOCKET_BYTES (1024 * 1024)

struct gpuhist_push {
	struct gpuhist_counter *c;
	char *name;
	int fd[2];                  /* [0] counted by the thread, [1] written */
	pthread_t thread;
	bool joined;
	unsigned char *buf;
	size_t fill;
	/* The counting thread's outcome, read once it is joined: */
	int status;                 /* gpuhist_count()'s */
	bool got;                   /* a result was handed over */
	uint64_t totals[256];
	struct gpuhist_chars chars;
	struct gpuhist_stream stream;
	bool has_chars, has_stream;
	gpuhist_token_sum *tokens;  /* the result's tokens, added up here */
	int result_status;
	char *messages;
};

/* The counting thread's result function: a copy of what it is told. */
static void keep(void *ctx, const struct gpuhist_result *r)
{
	struct gpuhist_push *p = ctx;

	p->got = true;
	p->result_status = r->status;
	p->messages = strdup(r->messages ? r->messages : "");
	if (r->totals)
		memcpy(p->totals, r->totals, sizeof(p->totals));
	if (r->chars) {
		/* A fresh tally: adding cannot wrap, only run out of memory. */
		if (gpuhist_chars_merge(&p->chars, r->chars) == GPUHIST_OK)
			p->has_chars = true;
		else
			p->result_status = GPUHIST_ERR_NOMEM;
	}
	if (r->stream) {
		p->stream = *r->stream;
		p->has_stream = true;
	}
	/* Tokens outlive the count only as a copy: a sum of them, which
	 * spills past the memory option as the count did. */
	if (r->tokens) {
		p->tokens = gpuhist_token_sum_new(p->c->opts.memory,
						  p->c->opts.temporary_directory);
		if (!p->tokens ||
		    gpuhist_token_sum_add_tokens(p->tokens, r->tokens) ||
		    !gpuhist_token_sum_end(p->tokens))
			p->result_status = GPUHIST_ERR_NOMEM;
	}
}

static void *count_far_end(void *arg)
{
	struct gpuhist_push *p = arg;
	struct gpuhist_input in = { .type = GPUHIST_INPUT_FD,
				    .name = p->name, .fd = p->fd[0] };

	p->status = gpuhist_count(p->c, &in, 1, keep, p);
	/* The next send then fails at once, whatever the count read. */
	close(p->fd[0]);
	p->fd[0] = -1;
	return NULL;
}

static void push_free(struct gpuhist_push *p)
{
	if (p->fd[1] >= 0)
		close(p->fd[1]);
	if (p->fd[0] >= 0)
		close(p->fd[0]);
	gpuhist_chars_free(&p->chars);
	gpuhist_token_sum_free(p->tokens);
	free(p->messages);
	free(p->name);
	free(p->buf);
	free(p);
}

int gpuhist_push_open(gpuhist_counter *c, const char *name,
		      gpuhist_push **push)
{
	struct gpuhist_push *p;
	int size = PUSH_SOCKET_BYTES, err;

	if (!c)
		return GPUHIST_ERR_ARGUMENT;
	c->message[0] = '\0';
	if (!push) {
		snprintf(c->message, sizeof(c->message), "no place for the push");
		return GPUHIST_ERR_ARGUMENT;
	}
	*push = NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->buf = malloc(PUSH_BUFFER)) ||
	    !(p->name = strdup(name ? name : "(push)"))) {
		if (p)
			free(p->buf);
		free(p);
		snprintf(c->message, sizeof(c->message), "out of memory");
		return GPUHIST_ERR_NOMEM;
	}
	p->c = c;
	gpuhist_chars_init(&p->chars);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->fd) < 0) {
		snprintf(c->message, sizeof(c->message),
			 "cannot make a socket pair: %s", strerror(errno));
		p->fd[0] = p->fd[1] = -1;
		push_free(p);
		return GPUHIST_ERR_NOMEM;
	}
	/* Room enough that the writer and the counter seldom wait in turn;
	 * where the kernel refuses, its default serves. */
	setsockopt(p->fd[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(p->fd[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	shutdown(p->fd[0], SHUT_WR);
	/* Begun here, so that a cancel right after this call reaches it. */
	gh_counter_begin(c);
	err = pthread_create(&p->thread, NULL, count_far_end, p);
	if (err) {
		gh_counter_end(c);
		snprintf(c->message, sizeof(c->message),
			 "cannot start a thread: %s", strerror(err));
		push_free(p);
		return GPUHIST_ERR_NOMEM;
	}
	*push = p;
	return GPUHIST_OK;
}

/* Waits for the counting thread, once. */
static void join(struct gpuhist_push *p)
{
	if (!p->joined)
		pthread_join(p->thread, NULL);
	p->joined = true;
}

/* The status an ended count leaves the writer: the input's. */
static int ended(struct gpuhist_push *p)
{
	join(p);
	if (p->got)
		return p->result_status;
	return p->status ? p->status : GPUHIST_ERR_INPUT;
}

/* Sends the buffer whole; a status. */
static int flush(struct gpuhist_push *p)
{
	size_t done = 0;

	while (done < p->fill) {
		ssize_t n = send(p->fd[1], p->buf + done, p->fill - done,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* The count ended (EPIPE): what it left stands.  An
			 * input that ended well before all was written took
			 * what it needed (trailing bytes bzip2 ignores).  Any
			 * other failure ends the input here, so that the
			 * count, waiting for more, sees its end. */
			if (errno != EPIPE)
				shutdown(p->fd[1], SHUT_WR);
			p->fill = 0;
			return ended(p);
		}
		done += (size_t)n;
	}
	p->fill = 0;
	return GPUHIST_OK;
}

int gpuhist_push_write(gpuhist_push *p, const void *data, size_t len)
{
	const unsigned char *at = data;

	if (!p || (len && !data))
		return GPUHIST_ERR_ARGUMENT;
	if (p->joined)
		return ended(p);
	while (len) {
		size_t room = PUSH_BUFFER - p->fill;
		size_t take = len < room ? len : room;

		memcpy(p->buf + p->fill, at, take);
		p->fill += take;
		at += take;
		len -= take;
		if (p->fill == PUSH_BUFFER) {
			int status = flush(p);

			if (status)
				return status;
			if (p->joined)  /* ended well: the rest adds nothing */
				return GPUHIST_OK;
		}
	}
	return GPUHIST_OK;
}

int gpuhist_push_close(gpuhist_push *p, gpuhist_result_fn fn, void *ctx)
{
	int status;

	if (!p)
		return GPUHIST_ERR_ARGUMENT;
	if (!p->joined)
		flush(p);
	/* The end of the input: the count reads to it and returns. */
	close(p->fd[1]);
	p->fd[1] = -1;
	join(p);
	gh_counter_end(p->c);
	if (p->got) {
		struct gpuhist_result r = {
			.index = 0,
			.name = p->name,
			.status = p->result_status,
			.totals = p->result_status ? NULL : p->totals,
			.chars = !p->result_status && p->has_chars ? &p->chars
								  : NULL,
			.stream = !p->result_status && p->has_stream
				  ? &p->stream : NULL,
			.tokens = !p->result_status && p->tokens
				  ? gpuhist_token_sum_end(p->tokens) : NULL,
			.messages = p->messages ? p->messages : "",
		};

		if (fn)
			fn(ctx, &r);
		status = p->result_status;
	} else {
		status = p->status ? p->status : GPUHIST_ERR_INPUT;
	}
	push_free(p);
	return status;
}
