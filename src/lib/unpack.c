/* unpack.c - zstd, xz and bzip2 streams decoded in order: the shared
 * input and the choice of decoder (the formats are unpack_*.c) */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unpack_in.h"

const char *gh_packed_name(enum gh_packed kind)
{
	switch (kind) {
	case GH_PACKED_ZSTD:
		return "zstd";
	case GH_PACKED_XZ:
		return "xz";
	case GH_PACKED_BZIP2:
		return "bzip2";
	}
	return "?";
}

bool gh_packed_built(enum gh_packed kind)
{
	switch (kind) {
	case GH_PACKED_ZSTD:
#ifdef HAVE_ZSTD
		return true;
#else
		return false;
#endif
	case GH_PACKED_XZ:
#ifdef HAVE_XZ
		return true;
#else
		return false;
#endif
	case GH_PACKED_BZIP2:
#ifdef HAVE_BZIP2
		return true;
#else
		return false;
#endif
	}
	return false;
}

int gh_unpack_refill(struct gh_unpack *u)
{
	size_t room;
	ssize_t n;

	if (u->eof)
		return 0;
	memmove(u->in, u->next, u->avail);
	u->next = u->in;
	room = sizeof(u->in) - u->avail;
	if (u->fd < 0) {
		n = (ssize_t)(u->mem_left < room ? u->mem_left : room);
		memcpy(u->in + u->avail, u->mem, (size_t)n);
		u->mem += n;
		u->mem_left -= (uint64_t)n;
	} else {
		do
			n = read(u->fd, u->in + u->avail, room);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
	}
	if (n == 0)
		u->eof = true;
	u->avail += (size_t)n;
	u->consumed += (uint64_t)n;
	return n > 0;
}

int gh_unpack_more(struct gh_unpack *u, bool inside, const char *truncated,
		   const char **why)
{
	int got;

	if (u->avail)
		return 1;
	got = gh_unpack_refill(u);
	if (got < 0) {
		*why = NULL;
		return -1;
	}
	if (got)
		return 1;
	if (inside) {
		*why = truncated;
		return -1;
	}
	u->ended = true;
	return 0;
}

struct gh_unpack *gh_unpack_new(enum gh_packed kind, int fd,
				const unsigned char *mem, uint64_t mem_len,
				const unsigned char *primed,
				unsigned primed_len, int threads,
				const char **why)
{
	struct gh_unpack *u;
	const char *bad = NULL;

	if (!gh_packed_built(kind)) {
		switch (kind) {
		case GH_PACKED_ZSTD:
			*why = "zstd data, but this gpuhist was built without zstd (libzstd-dev)";
			break;
		case GH_PACKED_XZ:
			*why = "xz data, but this gpuhist was built without xz (liblzma-dev)";
			break;
		case GH_PACKED_BZIP2:
			*why = "bzip2 data, but this gpuhist was built without bzip2 (libbz2-dev)";
			break;
		}
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		*why = "out of memory";
		return NULL;
	}
	u->kind = kind;
	u->fd = mem ? -1 : fd;
	u->mem = mem;
	u->mem_left = mem ? mem_len : 0;
	u->next = u->in;
	if (primed_len) {
		memcpy(u->in, primed, primed_len);
		u->avail = primed_len;
		u->consumed = primed_len;
	}
	switch (kind) {
	case GH_PACKED_ZSTD:
		bad = gh_unzstd_start(u);
		break;
	case GH_PACKED_XZ:
		bad = gh_unxz_start(u, threads);
		break;
	case GH_PACKED_BZIP2:
		bad = gh_unbzip2_start(u);
		break;
	}
	if (bad) {
		free(u);
		*why = bad;
		return NULL;
	}
	return u;
}

int64_t gh_unpack_read(struct gh_unpack *u, unsigned char *out, uint64_t cap,
		       const char **why, const char **warning)
{
	*warning = NULL;
	if (u->ended || !cap)
		return 0;
	/* The libraries count in 32 bits (bzip2) or size_t. */
	if (cap > (1u << 30))
		cap = 1u << 30;
	switch (u->kind) {
	case GH_PACKED_ZSTD:
		return gh_unzstd_read(u, out, cap, why);
	case GH_PACKED_XZ:
		return gh_unxz_read(u, out, cap, why);
	case GH_PACKED_BZIP2:
		return gh_unbzip2_read(u, out, cap, why, warning);
	}
	return 0;
}

uint64_t gh_unpack_consumed(const struct gh_unpack *u)
{
	return u->consumed;
}

const char *gh_unpack_engine(const struct gh_unpack *u)
{
	return u->engine;
}

void gh_unpack_free(struct gh_unpack *u)
{
	if (!u)
		return;
	switch (u->kind) {
	case GH_PACKED_ZSTD:
		gh_unzstd_free(u);
		break;
	case GH_PACKED_XZ:
		gh_unxz_free(u);
		break;
	case GH_PACKED_BZIP2:
		gh_unbzip2_free(u);
		break;
	}
	free(u);
}
