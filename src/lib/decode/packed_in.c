/* packed_in.c - a decoder's compressed input, read from a descriptor or
 * memory in turns */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "packed_in.h"

int gh_packed_in_init(struct gh_packed_in *in,
		      const struct gh_packed_from *from, size_t room)
{
	memset(in, 0, sizeof(*in));
	if (from->fd >= 0 && from->primed_len > room)
		return -1;              /* more than its buffer holds */
	in->buf = malloc(room);
	if (!in->buf)
		return -1;
	in->room = room;
	in->fd = from->fd;
	in->mem = from->mem;
	in->mem_left = from->fd < 0 ? from->mem_len : 0;
	in->next = in->buf;
	in->joined = !from->primed_len || from->fd < 0;
	if (!in->joined) {
		memcpy(in->buf, from->primed, from->primed_len);
		in->avail = from->primed_len;
		in->consumed = from->primed_len;
	}
	return 0;
}

int gh_packed_in_refill(struct gh_packed_in *in)
{
	size_t room;
	ssize_t n;

	in->joined = true;
	if (in->eof)
		return 0;
	memmove(in->buf, in->next, in->avail);
	in->next = in->buf;
	room = in->room - in->avail;
	if (in->fd < 0) {
		n = (ssize_t)(in->mem_left < room ? in->mem_left : room);
		memcpy(in->buf + in->avail, in->mem, (size_t)n);
		in->mem += n;
		in->mem_left -= (uint64_t)n;
	} else {
		do
			n = read(in->fd, in->buf + in->avail, room);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
	}
	if (n == 0)
		in->eof = true;
	in->avail += (size_t)n;
	in->consumed += (uint64_t)n;
	return n > 0;
}

int gh_packed_in_fill(struct gh_packed_in *in, size_t need)
{
	if (in->avail >= need && in->joined)
		return 1;
	while (in->avail < in->room) {
		int got = gh_packed_in_refill(in);

		if (got < 0)
			return -1;
		if (!got)
			break;
	}
	return 1;
}

int gh_packed_in_more(struct gh_packed_in *in, bool inside,
		      const char *truncated, const char **why)
{
	int got;

	if (in->avail && in->joined)
		return 1;
	got = gh_packed_in_refill(in);
	if (got < 0) {
		*why = NULL;
		return -1;
	}
	if (got || in->avail)
		return 1;
	if (inside) {
		*why = truncated;
		return -1;
	}
	in->ended = true;
	return 0;
}

int gh_packed_in_drain(struct gh_packed_in *in)
{
	int got;

	do {
		in->next = in->buf;
		in->avail = 0;
	} while ((got = gh_packed_in_refill(in)) > 0);
	return got < 0 ? -1 : 0;
}

void gh_packed_in_free(struct gh_packed_in *in)
{
	free(in->buf);
	in->buf = NULL;
}
