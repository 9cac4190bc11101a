/* token_runs.c - tokens too many to sort in memory: each part sorted
 * into a run of one temporary file (made in the directory and unlinked at
 * once), then the runs merged in order through a heap (token_runs.h).
 * A record is the token's count and length, then its bytes. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "token_runs.h"

/* Bytes buffered a run while writing, and read a run while merging. */
#define WRITE_BUFFER (1024 * 1024)
#define READ_BUFFER (64 * 1024)
#define READ_BUFFER_MIN 4096    /* a run's buffer however many runs */
#define HEAD (2 * sizeof(uint64_t))

struct run {
	uint64_t at, len, off;          /* in the file; off: read so far */
	unsigned char *buf;
	size_t have, pos, cap;
	struct gpuhist_token head;      /* its next token, when it has one */
};

struct gh_token_runs {
	char *dir;
	int fd;                         /* -1 until the first run */
	uint64_t end;
	gh_token_order order;
	struct run *run;
	size_t n, cap;
	size_t *heap, heap_n;           /* runs with a head, least first */
	size_t last;                    /* the run last handed out, or n */
	size_t budget;                  /* the merge's buffers in all, at most
					 * (but READ_BUFFER_MIN a run); 0: none */
	size_t read_cap;                /* a run's buffer while merging */
	char error[512];
};

void gh_token_runs_budget(struct gh_token_runs *r, size_t bytes)
{
	r->budget = bytes;
}

int gh_unlinked_file(const char *dir, const char *stem)
{
	char name[4096];
	int fd;

	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(name, sizeof(name), "%s/%s.XXXXXX", dir, stem) >=
	    sizeof(name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(name);
	if (fd >= 0)
		unlink(name);
	return fd;
}

struct gh_token_runs *gh_token_runs_new(const char *dir, gh_token_order order)
{
	struct gh_token_runs *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	r->dir = strdup(dir);
	if (!r->dir) {
		free(r);
		return NULL;
	}
	r->fd = -1;
	r->order = order;
	return r;
}

void gh_token_runs_free(struct gh_token_runs *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	for (size_t i = 0; i < r->n; i++)
		free(r->run[i].buf);
	free(r->run);
	free(r->heap);
	free(r->dir);
	free(r);
}

const char *gh_token_runs_error(const struct gh_token_runs *r)
{
	return r->error[0] ? r->error : "out of memory";
}

static int failed(struct gh_token_runs *r, const char *what, int err)
{
	if (!r->error[0])
		snprintf(r->error, sizeof(r->error), "%s %s: %s", what, r->dir,
			 strerror(err));
	return -1;
}

static int write_all(struct gh_token_runs *r, const unsigned char *p,
		     size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t w = pwrite(r->fd, p + done, len - done,
				   (off_t)(r->end + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return failed(r, "cannot sort tokens in",
				      w < 0 ? errno : ENOSPC);
		done += (size_t)w;
	}
	r->end += len;
	return 0;
}

int gh_token_runs_add(struct gh_token_runs *r,
		      const struct gpuhist_token *sorted, size_t n)
{
	uint64_t at;
	unsigned char *buf;
	size_t len = 0;
	int ret = 0;

	if (r->fd < 0 &&
	    (r->fd = gh_unlinked_file(r->dir, "gpuhist-sort")) < 0)
		return failed(r, "cannot sort tokens in", errno);
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct run *run = realloc(r->run, cap * sizeof(*run));

		if (!run)
			return failed(r, "cannot sort tokens in", ENOMEM);
		r->run = run;
		r->cap = cap;
	}
	buf = malloc(WRITE_BUFFER);
	if (!buf)
		return failed(r, "cannot sort tokens in", ENOMEM);
	at = r->end;
	for (size_t i = 0; i < n && !ret; i++) {
		uint64_t head[2] = { sorted[i].count, sorted[i].len };

		if (len + HEAD + sorted[i].len > WRITE_BUFFER) {
			ret = write_all(r, buf, len);
			len = 0;
		}
		if (ret)
			break;
		if (HEAD + sorted[i].len > WRITE_BUFFER) {
			ret = write_all(r, (const unsigned char *)head, HEAD);
			if (!ret)
				ret = write_all(r, sorted[i].bytes,
						sorted[i].len);
			continue;
		}
		memcpy(buf + len, head, HEAD);
		if (sorted[i].len)
			memcpy(buf + len + HEAD, sorted[i].bytes,
			       sorted[i].len);
		len += HEAD + sorted[i].len;
	}
	if (!ret)
		ret = write_all(r, buf, len);
	free(buf);
	if (!ret)
		r->run[r->n++] = (struct run){ .at = at, .len = r->end - at };
	return ret;
}

/* At least n bytes of the run buffered from its pos; 0 or -1. */
static int have(struct gh_token_runs *r, struct run *u, size_t n)
{
	if (u->have - u->pos >= n)
		return 0;
	if (u->pos)
		memmove(u->buf, u->buf + u->pos, u->have - u->pos);
	u->have -= u->pos;
	u->pos = 0;
	if (n > u->cap) {
		/* A short run needs no more than itself. */
		size_t cap = u->len < r->read_cap ? (size_t)u->len : r->read_cap;

		if (cap < n)
			cap = n;
		unsigned char *b = realloc(u->buf, cap);

		if (!b)
			return failed(r, "cannot read tokens sorted in", ENOMEM);
		u->buf = b;
		u->cap = cap;
	}
	while (u->have < n) {
		size_t want = u->cap - u->have;
		ssize_t got;

		if (want > u->len - u->off)
			want = u->len - u->off;
		if (!want)
			return failed(r, "cannot read tokens sorted in", EIO);
		got = pread(r->fd, u->buf + u->have, want,
			    (off_t)(u->at + u->off));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return failed(r, "cannot read tokens sorted in",
				      got < 0 ? errno : EIO);
		u->have += (size_t)got;
		u->off += (uint64_t)got;
	}
	return 0;
}

/* Reads a run's next token into its head: 1, 0 at its end, or -1. */
static int advance(struct gh_token_runs *r, struct run *u)
{
	uint64_t head[2];

	if (u->pos == u->have && u->off == u->len)
		return 0;
	if (have(r, u, HEAD))
		return -1;
	memcpy(head, u->buf + u->pos, HEAD);
	if (have(r, u, HEAD + head[1]))
		return -1;
	u->head = (struct gpuhist_token){ u->buf + u->pos + HEAD, head[1],
					  head[0] };
	u->pos += HEAD + head[1];
	return 1;
}

static bool before(const struct gh_token_runs *r, size_t a, size_t b)
{
	int c = r->order(&r->run[a].head, &r->run[b].head);

	return c ? c < 0 : a < b;
}

static void sift_down(struct gh_token_runs *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->heap_n && before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->heap_n && before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t t = r->heap[i];

		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

int gh_token_runs_start(struct gh_token_runs *r)
{
	free(r->heap);
	r->heap = malloc((r->n ? r->n : 1) * sizeof(*r->heap));
	if (!r->heap)
		return failed(r, "cannot read tokens sorted in", ENOMEM);
	r->heap_n = 0;
	r->last = r->n;
	/* Many short runs would otherwise hold all their bytes at once. */
	r->read_cap = READ_BUFFER;
	if (r->budget && r->n && r->budget / r->n < READ_BUFFER)
		r->read_cap = r->budget / r->n > READ_BUFFER_MIN
			      ? r->budget / r->n : READ_BUFFER_MIN;
	for (size_t i = 0; i < r->n; i++) {
		struct run *u = &r->run[i];
		int got;

		u->off = 0;
		u->have = u->pos = 0;
		got = advance(r, u);
		if (got < 0)
			return -1;
		if (got)
			r->heap[r->heap_n++] = i;
	}
	for (size_t i = r->heap_n / 2; i-- > 0;)
		sift_down(r, i);
	return 0;
}

int gh_token_runs_next(struct gh_token_runs *r, struct gpuhist_token *t)
{
	/* The run handed out last moves on now: its bytes lived till here. */
	if (r->last < r->n) {
		int got = advance(r, &r->run[r->last]);

		if (got < 0)
			return -1;
		if (!got)
			r->heap[0] = r->heap[--r->heap_n];
		if (r->heap_n)
			sift_down(r, 0);
		r->last = r->n;
	}
	if (!r->heap_n)
		return 0;
	r->last = r->heap[0];
	*t = r->run[r->last].head;
	return 1;
}
