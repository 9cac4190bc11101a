/* gzip_check.c - zlib's verdict on a gzip stream that ISA-L decodes
 *
 * ISA-L accepts deflate blocks whose Huffman codes are incomplete (the
 * literal/length, distance or code-length code), which zlib and gzip -dc
 * refuse; it fails such a stream only if a code it lacks turns up.  The
 * verdict must be gzip -dc's whichever inflater runs, and ISA-L 2.30 has
 * no way to stop at each block header to look.  So the stream is walked a
 * second time, beside ISA-L, by deflate_marked.c's checking mode (zlib's
 * rules, nothing written), in a thread of its own: on two cores it keeps
 * up with ISA-L and costs the reader little (bench/NOTES.md).
 *
 * The reader copies each piece of compressed input it reads into a ring
 * (RING_BYTES); the checker takes from it, and the reader waits only when
 * the checker is a whole ring behind.  The thread starts once more than
 * START_BYTES were fed: a shorter stream (most single files of a many-file
 * run) is checked by the reader itself at its end, which costs less than
 * a thread.  The checker's refusal carries the
 * bit it was found at, so that when the decoder fails too, the fault
 * first in the stream gives the message, as in zlib's single pass: a bad
 * CRC in one member before an incomplete code in the next is reported as
 * the bad CRC.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deflate_marked.h"
#include "gzip_check.h"

/* Compressed bytes the checker may lag behind the reader: four reads. */
#define RING_BYTES ((uint64_t)1 << 20)
/* Bytes fed before the checker gets a thread of its own. */
#define START_BYTES ((uint64_t)256 << 10)

struct gh_gzip_check {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned char *ring;
	/* stream bytes: fed into the ring, and freed by the checker */
	uint64_t fed, freed;
	bool started;           /* the thread runs (else the reader checks) */
	bool closed;            /* no more bytes will be fed */
	bool stopped;           /* ... because the decoder failed */
	bool starved;           /* the checker wanted bytes after a stop */
	bool done;              /* the checker has finished */
	bool refused;           /* ... and found a fault, at refused_bit */
	uint64_t refused_bit;
	char message[128];
	struct gh_dm dm;        /* the checker's own: only its thread uses it */
	struct gh_dm_input in;
};

/* The checker's input: the next run of the ring after what it has taken
 * (all of it, when this is called), waiting for the reader to feed it. */
static int take_more(void *ctx, struct gh_dm_input *in)
{
	struct gh_gzip_check *c = ctx;
	int ret = 0;

	pthread_mutex_lock(&c->lock);
	c->freed = in->base + in->len;
	pthread_cond_broadcast(&c->changed);
	while (c->fed == c->freed && !c->closed)
		pthread_cond_wait(&c->changed, &c->lock);
	in->base = c->freed;
	in->data = c->ring;
	in->len = 0;
	if (c->fed > c->freed) {
		uint64_t at = c->freed % RING_BYTES;

		in->data = c->ring + at;
		in->len = c->fed - c->freed;
		if (in->len > RING_BYTES - at)
			in->len = RING_BYTES - at;
	} else if (c->stopped) {
		c->starved = true;      /* no verdict: the decoder's stands */
		ret = -1;
	} else {
		in->at_eof = true;
	}
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/* The message gunzip.c would give for the same fault, and zlib's words. */
static void word(struct gh_gzip_check *c, const char *why)
{
	if (!strcmp(why, "trailing garbage after gzip data"))
		snprintf(c->message, sizeof(c->message), "%s", why);
	else if (!strcmp(why, "unexpected end of file"))
		snprintf(c->message, sizeof(c->message),
			 "unexpected end of file (truncated gzip data)");
	else
		snprintf(c->message, sizeof(c->message),
			 "corrupt gzip data (%s)", why);
}

static void *check_main(void *arg)
{
	struct gh_gzip_check *c = arg;
	enum gh_dm_status st = gh_dm_check(&c->dm);

	pthread_mutex_lock(&c->lock);
	if (st == GH_DM_ERROR && !c->starved) {
		c->refused = true;
		c->refused_bit = gh_dm_bit(&c->dm);
		word(c, c->dm.why);
	}
	c->done = true;
	pthread_cond_broadcast(&c->changed);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct gh_gzip_check *gh_gzip_check_new(void)
{
	struct gh_gzip_check *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ring = malloc(RING_BYTES);
	c->in.more = take_more;
	c->in.ctx = c;
	if (!c->ring || gh_dm_check_start(&c->dm, &c->in))
		goto fail;
	if (pthread_mutex_init(&c->lock, NULL))
		goto fail;
	if (pthread_cond_init(&c->changed, NULL)) {
		pthread_mutex_destroy(&c->lock);
		goto fail;
	}
	return c;
fail:
	gh_dm_end(&c->dm);
	free(c->ring);
	free(c);
	return NULL;
}

void gh_gzip_check_feed(struct gh_gzip_check *c, const unsigned char *p,
			size_t n)
{
	if (!c->started && !c->done && c->fed + n > START_BYTES) {
		if (pthread_create(&c->thread, NULL, check_main, c)) {
			/* Never a verdict unchecked: the input fails. */
			pthread_mutex_lock(&c->lock);
			c->done = c->refused = true;
			c->refused_bit = 0;
			snprintf(c->message, sizeof(c->message),
				 "cannot start a thread to check the gzip data");
			pthread_mutex_unlock(&c->lock);
			return;
		}
		c->started = true;
	}
	while (n) {
		uint64_t at, room;

		pthread_mutex_lock(&c->lock);
		while (!c->done && c->fed - c->freed == RING_BYTES)
			pthread_cond_wait(&c->changed, &c->lock);
		if (c->done) {          /* it has its verdict: no more needed */
			pthread_mutex_unlock(&c->lock);
			return;
		}
		at = c->fed % RING_BYTES;
		room = RING_BYTES - (c->fed - c->freed);
		pthread_mutex_unlock(&c->lock);
		/* [fed, freed + RING_BYTES) is the reader's until fed moves. */
		if (room > RING_BYTES - at)
			room = RING_BYTES - at;
		if (room > n)
			room = n;
		memcpy(c->ring + at, p, room);
		p += room;
		n -= room;
		pthread_mutex_lock(&c->lock);
		c->fed += room;
		pthread_cond_broadcast(&c->changed);
		pthread_mutex_unlock(&c->lock);
	}
}

const char *gh_gzip_check_refused(struct gh_gzip_check *c, uint64_t at)
{
	const char *why = NULL;

	pthread_mutex_lock(&c->lock);
	if (c->refused && c->refused_bit <= at * 8)
		why = c->message;
	pthread_mutex_unlock(&c->lock);
	return why;
}

/* Ends the feed and waits for the checker to finish, or checks here. */
static void finish(struct gh_gzip_check *c, bool stopped)
{
	pthread_mutex_lock(&c->lock);
	if (!c->closed) {
		c->closed = true;
		c->stopped = stopped;
		pthread_cond_broadcast(&c->changed);
	}
	if (!c->started && !c->done) {
		pthread_mutex_unlock(&c->lock);
		check_main(c);
		return;
	}
	while (!c->done)
		pthread_cond_wait(&c->changed, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

const char *gh_gzip_check_end(struct gh_gzip_check *c)
{
	finish(c, false);
	return c->refused ? c->message : NULL;
}

const char *gh_gzip_check_stop(struct gh_gzip_check *c, uint64_t at)
{
	finish(c, true);
	return c->refused && c->refused_bit <= at * 8 ? c->message : NULL;
}

void gh_gzip_check_free(struct gh_gzip_check *c)
{
	if (!c)
		return;
	if (c->started) {
		finish(c, true);
		pthread_join(c->thread, NULL);
	}
	pthread_cond_destroy(&c->changed);
	pthread_mutex_destroy(&c->lock);
	gh_dm_end(&c->dm);
	free(c->ring);
	free(c);
}
