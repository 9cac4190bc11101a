/* gunzip.c - streaming gzip decoding, member after member
 *
 * The inflater (inflate.h: ISA-L when built in, else zlib) decodes one
 * member and checks its CRC-32 and length; this file walks the members.
 * When a member ends, what follows must be another member, exactly as
 * `gzip -dc` decodes concatenated files, or zero bytes up to the end of the
 * file, which gzip also takes as padding.  Anything else is an error (gzip
 * only warns of "trailing garbage", but a count must not silently skip
 * data), and so is a stream that ends inside a member.
 *
 * Either inflater gives zlib's verdict (ISA-L has each block header
 * judged by zlib's rules as it goes: inflate_isal.c).
 *
 * A span of a file (members_parallel.c) is read with pread() from its
 * start to its end, which must be a member's end: zero padding is taken
 * only where the span ends the file.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "magic.h"
#include "gunzip.h"
#include "inflate.h"

/* Compressed bytes read at once.  The fuzz harness builds with a tiny one,
 * so that refills fall inside headers, trailers and member boundaries. */
#ifndef GH_GUNZIP_IN_BYTES
#define GH_GUNZIP_IN_BYTES (256 * 1024)
#endif

struct gh_gunzip {
	struct gh_inflater *inf;
	int fd;                 /* -1: reading mem instead */
	const unsigned char *mem;
	uint64_t mem_left;
	int in_member;          /* inside a member whose end is not yet seen */
	int eof;                /* fd reached end of file */
	bool span;              /* read [at, end) of fd with pread() */
	bool padding;           /* zero bytes may follow the last member */
	uint64_t at, end;
	uint64_t members;       /* begun so far */
	uint64_t consumed;
	uint64_t decoded;       /* bytes given so far */
	const unsigned char *next_in;   /* undecoded input, inside in[] */
	size_t avail_in;
	unsigned char in[GH_GUNZIP_IN_BYTES];
};

struct gh_gunzip *gh_gunzip_new(int fd, const unsigned char *primed,
				unsigned primed_len, bool zlib)
{
	struct gh_gunzip *g;

	if (primed_len > GH_GUNZIP_IN_BYTES)
		return NULL;            /* more than its buffer holds */
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->inf = zlib ? gh_inflater_zlib_new() : gh_inflater_new();
	if (!g->inf) {
		free(g);
		return NULL;
	}
	g->fd = fd;
	if (primed_len)
		memcpy(g->in, primed, primed_len);
	g->next_in = g->in;
	g->avail_in = primed_len;
	g->consumed = primed_len;
	g->in_member = 1;
	g->padding = true;
	g->members = 1;
	return g;
}

struct gh_gunzip *gh_gunzip_new_span(int fd, uint64_t start, uint64_t end,
				     bool ends_file)
{
	struct gh_gunzip *g = gh_gunzip_new(fd, NULL, 0, false);

	if (g) {
		g->span = true;
		g->at = start;
		g->end = end;
		g->padding = ends_file;
	}
	return g;
}

uint64_t gh_gunzip_members(const struct gh_gunzip *g)
{
	return g->members;
}

struct gh_gunzip *gh_gunzip_new_mem(const unsigned char *data, uint64_t len,
				    bool zlib)
{
	struct gh_gunzip *g = gh_gunzip_new(-1, NULL, 0, zlib);

	if (g) {
		g->mem = data;
		g->mem_left = len;
	}
	return g;
}

const char *gh_gunzip_engine(const struct gh_gunzip *g)
{
	return g->inf->name;
}

/*
 * Reads more input after the bytes not yet decoded, keeping up to
 * GH_INFLATE_READ_AHEAD decoded bytes before them (an inflater may hand
 * those back at a member's end); 0 at end of file, -1 on a read error.
 */
static int refill(struct gh_gunzip *g)
{
	size_t used = (size_t)(g->next_in - g->in);
	size_t keep = used < GH_INFLATE_READ_AHEAD ? used : GH_INFLATE_READ_AHEAD;
	unsigned char *fresh;
	ssize_t n;

	memmove(g->in, g->next_in - keep, keep + g->avail_in);
	g->next_in = g->in + keep;
	fresh = g->in + keep + g->avail_in;
	if (g->fd < 0) {
		n = (ssize_t)(sizeof(g->in) - keep - g->avail_in);
		if ((uint64_t)n > g->mem_left)
			n = (ssize_t)g->mem_left;
		memcpy(fresh, g->mem, (size_t)n);
		g->mem += n;
		g->mem_left -= (uint64_t)n;
	} else if (g->span) {
		size_t want = sizeof(g->in) - keep - g->avail_in;

		if (want > g->end - g->at)
			want = (size_t)(g->end - g->at);
		do
			n = pread(g->fd, fresh, want, (off_t)g->at);
		while (n < 0 && errno == EINTR);
		if (n == 0 && want)
			n = -1, errno = EIO;    /* the file got shorter */
		if (n > 0)
			g->at += (uint64_t)n;
	} else {
		do
			n = read(g->fd, fresh,
				 sizeof(g->in) - keep - g->avail_in);
		while (n < 0 && errno == EINTR);
	}
	if (n < 0)
		return -1;
	if (n == 0)
		g->eof = 1;
	g->avail_in += (size_t)n;
	g->consumed += (uint64_t)n;
	return (int)(n > 0);
}

/* After a member: 1 when another one starts, 0 at the clean end (perhaps
 * after zero padding), -1 on an error (*why set, or NULL for a read error). */
static int next_member(struct gh_gunzip *g, const char **why)
{
	while (g->avail_in < 2 && !g->eof)
		if (refill(g) < 0)
			return -1;
	if (g->avail_in == 0)
		return 0;
	if (gh_is_gzip(g->next_in, g->avail_in)) {
		if (g->inf->reset(g->inf)) {
			*why = "cannot restart the gzip decoder";
			return -1;
		}
		g->members++;
		return 1;
	}
	if (!g->padding) {
		*why = "trailing garbage after gzip data";
		return -1;
	}
	for (;;) {
		while (g->avail_in && *g->next_in == 0) {
			g->next_in++;
			g->avail_in--;
		}
		if (g->avail_in) {
			*why = "trailing garbage after gzip data";
			return -1;
		}
		if (g->eof)
			return 0;
		if (refill(g) < 0)
			return -1;
	}
}

/* zlib's verdicts on a member's header, and each with what to do when
 * the first header of all is refused: the input only starts like gzip
 * (random data does, one file in 65,536), so --raw may be what was meant,
 * as ent counts any file as it is. */
static const char *const header_verdicts[][2] = {
	{ "corrupt gzip data (incorrect header check)",
	  "corrupt gzip data (incorrect header check); to count its bytes as they are, use --raw" },
	{ "corrupt gzip data (unknown compression method)",
	  "corrupt gzip data (unknown compression method); to count its bytes as they are, use --raw" },
	{ "corrupt gzip data (unknown header flags set)",
	  "corrupt gzip data (unknown header flags set); to count its bytes as they are, use --raw" },
	{ "corrupt gzip data (header crc mismatch)",
	  "corrupt gzip data (header crc mismatch); to count its bytes as they are, use --raw" },
};

/* *why, with the hint where nothing was decoded and a header refused. */
static void hint_raw(const struct gh_gunzip *g, const char **why)
{
	if (g->decoded || !*why)
		return;
	for (size_t i = 0; i < sizeof(header_verdicts) /
			       sizeof(header_verdicts[0]); i++)
		if (!strcmp(*why, header_verdicts[i][0]))
			*why = header_verdicts[i][1];
}

int64_t gh_gunzip_read(struct gh_gunzip *g, unsigned char *out, uint64_t cap,
		       const char **why)
{
	unsigned char *next_out = out;
	size_t room = cap;

	*why = NULL;
	while (room) {
		if (g->avail_in == 0 && !g->eof && refill(g) < 0)
			return -1;
		if (!g->in_member) {
			int more = next_member(g, why);

			if (more < 0)
				return -1;
			if (!more)              /* clean end after a member */
				break;
			g->in_member = 1;
		}
		if (g->avail_in == 0 && g->eof) {
			*why = "unexpected end of file (truncated gzip data)";
			return -1;
		}
		switch (g->inf->step(g->inf, &g->next_in, &g->avail_in,
				     &next_out, &room, why)) {
		case GH_INFLATE_MORE:
			break;
		case GH_INFLATE_MEMBER_END:
			g->in_member = 0;
			break;
		case GH_INFLATE_ERROR:
			if (next_out == out)
				hint_raw(g, why);
			return -1;
		}
	}
	g->decoded += (uint64_t)(next_out - out);
	return (int64_t)(next_out - out);
}

uint64_t gh_gunzip_consumed(const struct gh_gunzip *g)
{
	return g->consumed;
}

void gh_gunzip_free(struct gh_gunzip *g)
{
	if (!g)
		return;
	g->inf->free(g->inf);
	free(g);
}
