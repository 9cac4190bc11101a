/* spill.c - token counts past the memory limit, in one temporary file
 * (spill.h) */
#define _GNU_SOURCE             /* fallocate's holes */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spill.h"

/* A writer's buffer; a record larger goes in a segment of its own. */
#define WRITE_BUFFER (256 * 1024)
#define READ_BUFFER (256 * 1024)
#define HEAD (3 * sizeof(uint64_t))

struct gh_spill {
	pthread_mutex_t lock;           /* making the file; the error */
	char *dir;
	_Atomic int fd;                 /* -1 until the first write (made
					 * under the lock, read without) */
	_Atomic uint64_t end;           /* bytes reserved so far */
	char error[512];
};

struct gh_spill *gh_spill_new(const char *dir)
{
	struct gh_spill *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	s->dir = strdup(dir);
	if (!s->dir) {
		free(s);
		return NULL;
	}
	atomic_init(&s->fd, -1);
	atomic_init(&s->end, 0);
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void gh_spill_free(struct gh_spill *s)
{
	if (!s)
		return;
	if (atomic_load(&s->fd) >= 0)
		close(atomic_load(&s->fd));
	pthread_mutex_destroy(&s->lock);
	free(s->dir);
	free(s);
}

const char *gh_spill_error(const struct gh_spill *s)
{
	struct gh_spill *w = (struct gh_spill *)s;     /* for its lock */
	bool set;

	pthread_mutex_lock(&w->lock);
	set = s->error[0] != '\0';     /* once set, it stays */
	pthread_mutex_unlock(&w->lock);
	return set ? s->error : "out of memory";
}

/* Records why, the first time; -1. */
static int failed(struct gh_spill *s, const char *what, int err)
{
	pthread_mutex_lock(&s->lock);
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s %s: %s", what, s->dir,
			 strerror(err));
	pthread_mutex_unlock(&s->lock);
	return -1;
}

static int open_file(struct gh_spill *s)
{
	int fd, ret = 0;

	pthread_mutex_lock(&s->lock);
	if (atomic_load(&s->fd) < 0) {
		size_t n = strlen(s->dir) + sizeof("/gpuhist-tokens.XXXXXX");
		char *name = malloc(n);

		if (!name) {
			pthread_mutex_unlock(&s->lock);
			return failed(s, "cannot spill tokens to", ENOMEM);
		}
		snprintf(name, n, "%s/gpuhist-tokens.XXXXXX", s->dir);
		fd = mkstemp(name);
		if (fd < 0) {
			ret = errno;
		} else {
			unlink(name);
			atomic_store(&s->fd, fd);
		}
		free(name);
	}
	pthread_mutex_unlock(&s->lock);
	return ret ? failed(s, "cannot spill tokens to", ret) : 0;
}

/* Appends len bytes as a segment of `to`. */
/* Writes len bytes at p to the file at `at`; 0, or -1 (said). */
static int write_at(struct gh_spill *s, int fd, const unsigned char *p,
		    uint64_t len, uint64_t at)
{
	for (uint64_t done = 0; done < len;) {
		ssize_t w = pwrite(fd, p + done, len - done,
				   (off_t)(at + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return failed(s, "cannot spill tokens to",
				      w < 0 ? errno : ENOSPC);
		done += (uint64_t)w;
	}
	return 0;
}

/* Appends a segment to `to`: head_len bytes at head, then len at p, one
 * after the other in the file. */
static int append2(struct gh_spill *s, struct gh_segments *to,
		   const unsigned char *head, uint64_t head_len,
		   const unsigned char *p, uint64_t len)
{
	if (!head_len && !len)
		return 0;
	if (atomic_load(&s->fd) < 0 && open_file(s))
		return -1;
	int fd = atomic_load(&s->fd);

	if (to->n == to->cap) {
		uint64_t cap = to->cap ? 2 * to->cap : 16;
		struct gh_segment *seg = realloc(to->seg, cap * sizeof(*seg));

		if (!seg)
			return failed(s, "cannot spill tokens to", ENOMEM);
		to->seg = seg;
		to->cap = cap;
	}
	uint64_t at = atomic_fetch_add(&s->end, head_len + len);

	to->seg[to->n++] = (struct gh_segment){ at, head_len + len };
	return write_at(s, fd, head, head_len, at) ||
	       write_at(s, fd, p, len, at + head_len) ? -1 : 0;
}

static int append(struct gh_spill *s, struct gh_segments *to,
		  const unsigned char *p, uint64_t len)
{
	return append2(s, to, p, len, NULL, 0);
}

void gh_spill_release(struct gh_spill *s, const struct gh_segments *segs)
{
#ifdef FALLOC_FL_PUNCH_HOLE
	int fd = atomic_load(&s->fd);

	for (uint64_t i = 0; fd >= 0 && i < segs->n; i++)
		(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)segs->seg[i].at, (off_t)segs->seg[i].len);
#else
	(void)s;
	(void)segs;
#endif
}

void gh_segments_free(struct gh_segments *segs)
{
	free(segs->seg);
	*segs = (struct gh_segments){ 0 };
}

int gh_spill_writer_init(struct gh_spill_writer *w, struct gh_spill *s,
			 struct gh_segments *to)
{
	*w = (struct gh_spill_writer){ .spill = s, .to = to };
	w->buf = malloc(WRITE_BUFFER);
	if (!w->buf)
		return failed(s, "cannot spill tokens to", ENOMEM);
	w->cap = WRITE_BUFFER;
	return 0;
}

static void put_head(unsigned char *b, uint64_t hash, uint64_t count,
		     uint64_t len)
{
	memcpy(b, &hash, 8);
	memcpy(b + 8, &count, 8);
	memcpy(b + 16, &len, 8);
}

int gh_spill_put(struct gh_spill_writer *w, uint64_t hash, uint64_t count,
		 const unsigned char *p, uint64_t len)
{
	uint64_t need = HEAD + len;

	if (w->len + need > w->cap) {
		if (append(w->spill, w->to, w->buf, w->len))
			return -1;
		w->len = 0;
	}
	if (need > w->cap) {
		/* A record longer than the buffer: its head and its bytes
		 * written one after the other, not copied together first. */
		unsigned char head[HEAD];

		put_head(head, hash, count, len);
		return append2(w->spill, w->to, head, HEAD, p, len);
	}
	put_head(w->buf + w->len, hash, count, len);
	if (len)
		memcpy(w->buf + w->len + HEAD, p, len);
	w->len += need;
	return 0;
}

int gh_spill_writer_end(struct gh_spill_writer *w)
{
	int ret = w->buf ? append(w->spill, w->to, w->buf, w->len) : 0;

	free(w->buf);
	w->buf = NULL;
	w->len = 0;
	return ret;
}

void gh_spill_reader_init(struct gh_spill_reader *r, struct gh_spill *s,
			  const struct gh_segments *from)
{
	*r = (struct gh_spill_reader){ .spill = s, .from = from };
}

/* At least n bytes of the current segment in the buffer from r->pos
 * (records never cross segments); 0, or -1. */
static int have(struct gh_spill_reader *r, uint64_t n)
{
	if (r->len - r->pos >= n)
		return 0;
	if (r->pos)
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	if (n > r->cap) {
		uint64_t cap = n > READ_BUFFER ? n : READ_BUFFER;
		unsigned char *b = realloc(r->buf, cap);

		if (!b)
			return failed(r->spill, "cannot read tokens spilled to",
				      ENOMEM);
		r->buf = b;
		r->cap = cap;
	}
	const struct gh_segment *seg = &r->from->seg[r->seg];

	while (r->len < n) {
		uint64_t want = r->cap - r->len, left = seg->len - r->off;
		ssize_t got;

		if (want > left)
			want = left;
		if (!want)
			return failed(r->spill, "cannot read tokens spilled to",
				      EIO);
		got = pread(atomic_load(&r->spill->fd), r->buf + r->len, want,
			    (off_t)(seg->at + r->off));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return failed(r->spill, "cannot read tokens spilled to",
				      got < 0 ? errno : EIO);
		r->len += (uint64_t)got;
		r->off += (uint64_t)got;
	}
	return 0;
}

int gh_spill_next(struct gh_spill_reader *r, uint64_t *hash, uint64_t *count,
		  const unsigned char **p, uint64_t *len)
{
	/* The segment's end: on to the next one. */
	while (r->pos == r->len && r->seg < r->from->n &&
	       r->off == r->from->seg[r->seg].len) {
		r->seg++;
		r->off = 0;
		r->pos = r->len = 0;
	}
	if (r->seg == r->from->n)
		return 0;
	if (have(r, HEAD))
		return -1;
	memcpy(hash, r->buf + r->pos, 8);
	memcpy(count, r->buf + r->pos + 8, 8);
	memcpy(len, r->buf + r->pos + 16, 8);
	if (have(r, HEAD + *len))
		return -1;
	*p = r->buf + r->pos + HEAD;
	r->pos += HEAD + *len;
	return 1;
}

void gh_spill_reader_end(struct gh_spill_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}
