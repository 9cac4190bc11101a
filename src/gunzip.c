/* gunzip.c - streaming gzip decoding with zlib, member after member
 *
 * A member ends at Z_STREAM_END (its CRC-32 and length already checked by
 * zlib); if bytes follow, they must be another member, exactly as
 * `gzip -dc` decodes concatenated files, or zero bytes up to the end of the
 * file, which gzip also takes as padding.  Anything else is an error (gzip
 * only warns of "trailing garbage", but a count must not silently skip
 * data), and so is a stream that ends inside a member.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gunzip.h"

/* Compressed bytes read at once.  The fuzz harness builds with a tiny one,
 * so that refills fall inside headers, trailers and member boundaries. */
#ifndef GH_GUNZIP_IN_BYTES
#define GH_GUNZIP_IN_BYTES (256 * 1024)
#endif

struct gh_gunzip {
	z_stream zs;
	int fd;
	int in_member;          /* inside a member whose end is not yet seen */
	int eof;                /* fd reached end of file */
	uint64_t consumed;
	char why[128];          /* the reason of the last failure */
	unsigned char in[GH_GUNZIP_IN_BYTES];
};

struct gh_gunzip *gh_gunzip_new(int fd, const unsigned char *primed,
				unsigned primed_len)
{
	struct gh_gunzip *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	/* 15 + 16: a gzip wrapper only, with the largest window. */
	if (inflateInit2(&g->zs, 15 + 16) != Z_OK) {
		free(g);
		return NULL;
	}
	g->fd = fd;
	memcpy(g->in, primed, primed_len);
	g->zs.next_in = g->in;
	g->zs.avail_in = primed_len;
	g->consumed = primed_len;
	g->in_member = 1;
	return g;
}

/* Refills the input buffer after the bytes not yet decoded; 0 at end of
 * file, -1 on a read error. */
static int refill(struct gh_gunzip *g)
{
	ssize_t n;

	memmove(g->in, g->zs.next_in, g->zs.avail_in);
	g->zs.next_in = g->in;
	do
		n = read(g->fd, g->in + g->zs.avail_in,
			 sizeof(g->in) - g->zs.avail_in);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		g->eof = 1;
	g->zs.avail_in += (uInt)n;
	g->consumed += (uint64_t)n;
	return (int)(n > 0);
}

/* After a member: 1 when another one starts, 0 at the clean end (perhaps
 * after zero padding), -1 on an error (*why set, or NULL for a read error). */
static int next_member(struct gh_gunzip *g, const char **why)
{
	while (g->zs.avail_in < 2 && !g->eof)
		if (refill(g) < 0)
			return -1;
	if (g->zs.avail_in == 0)
		return 0;
	if (g->zs.avail_in >= 2 && g->zs.next_in[0] == 0x1f &&
	    g->zs.next_in[1] == 0x8b) {
		if (inflateReset(&g->zs) != Z_OK) {
			*why = "cannot restart the gzip decoder";
			return -1;
		}
		return 1;
	}
	for (;;) {
		while (g->zs.avail_in && *g->zs.next_in == 0) {
			g->zs.next_in++;
			g->zs.avail_in--;
		}
		if (g->zs.avail_in) {
			*why = "trailing garbage after gzip data";
			return -1;
		}
		if (g->eof)
			return 0;
		if (refill(g) < 0)
			return -1;
	}
}

int64_t gh_gunzip_read(struct gh_gunzip *g, unsigned char *out, uint64_t cap,
		       const char **why)
{
	uint64_t done = 0;
	int ret;

	*why = NULL;
	while (done < cap) {
		if (g->zs.avail_in == 0 && !g->eof && refill(g) < 0)
			return -1;
		if (!g->in_member) {
			int more = next_member(g, why);

			if (more < 0)
				return -1;
			if (!more)
				break;          /* clean end after a member */
			g->in_member = 1;
		}
		if (g->zs.avail_in == 0 && g->eof) {
			*why = "unexpected end of file (truncated gzip data)";
			return -1;
		}
		/* avail_out is 32-bit in zlib; hand it at most 1 GiB at once. */
		uint64_t room = cap - done;
		uInt want = room > (1u << 30) ? (1u << 30) : (uInt)room;
		g->zs.next_out = out + done;
		g->zs.avail_out = want;
		ret = inflate(&g->zs, Z_NO_FLUSH);
		done += want - g->zs.avail_out;
		switch (ret) {
		case Z_OK:
			break;
		case Z_STREAM_END:
			g->in_member = 0;
			break;
		case Z_BUF_ERROR:
			/* No progress possible: needs input we do not have yet. */
			if (g->zs.avail_in == 0)
				break;
			*why = "corrupt gzip data";
			return -1;
		case Z_MEM_ERROR:
			*why = "out of memory while decoding gzip data";
			return -1;
		default:
			snprintf(g->why, sizeof(g->why), "corrupt gzip data (%s)",
				 g->zs.msg ? g->zs.msg : "invalid stream");
			*why = g->why;
			return -1;
		}
	}
	return (int64_t)done;
}

uint64_t gh_gunzip_consumed(const struct gh_gunzip *g)
{
	return g->consumed;
}

void gh_gunzip_free(struct gh_gunzip *g)
{
	if (!g)
		return;
	inflateEnd(&g->zs);
	free(g);
}
