/* source.c - one input: a file, a descriptor or memory, plain or gzip, read in chunks
 *
 * gzip is recognised by its first two bytes (1f 8b), on files and on pipes
 * alike, so the bytes read to decide are kept and handed on: to the chunk
 * for plain input, to the decoder for gzip.  Memory is this struct and the
 * decoder's buffers, whatever the input's size.
 *
 * zstd, xz and bzip2 are recognised too, by up to six bytes, and decoded
 * by their libraries (unpack.c); a build without one refuses such input.
 * What goes wrong is written into the input's notes (notes.h), never
 * printed.
 */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"
#include "gunzip.h"
#include "source.h"
#include "unpack.h"

struct gh_source {
	const char *name;
	struct gh_notes *notes;     /* where its messages go */
	int fd;                     /* -1: memory */
	const unsigned char *mem;   /* memory not yet read */
	uint64_t mem_left;
	bool owns_fd;               /* opened here, so closed here */
	uint64_t size;              /* st_size of a regular file, else 0 */
	bool regular;               /* a regular file: pread() works */
	off_t start;                /* where the input began in the file */
	uint64_t consumed;          /* raw bytes read (plain input) */
	unsigned char peek[GH_MAGIC_MAX];   /* bytes read while looking for
				     * gzip (2), zstd, xz or bzip2 (up to 6) */
	unsigned peek_len;
	bool eof;                   /* read() has said end of file */
	struct gh_gunzip *gz;       /* gzip input, else NULL */
	struct gh_unpack *up;       /* zstd, xz or bzip2 input, else NULL */
	int packed;                 /* up's format (enum gh_packed), or -1 */
	int threads;                /* an xz decoder's threads */
};

/*
 * read() (offset < 0) or pread() from offset until len bytes or end of
 * file; -1 on error.  *eof is set when the system said end of file: a
 * terminal says so once per ^D, so the caller must not ask again.
 */
static int64_t read_upto(int fd, unsigned char *buf, uint64_t len,
			 off_t offset, bool *eof)
{
	uint64_t done = 0;

	while (done < len) {
		size_t want = len - done > (1u << 30) ? (1u << 30) : len - done;
		ssize_t n = offset < 0 ? read(fd, buf + done, want)
				       : pread(fd, buf + done, want,
					       offset + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			*eof = true;
			break;
		}
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/*
 * A pipe holds 64 KiB by default, so a writer such as cat (128 KiB writes)
 * and this reader take turns after every few reads.  A larger pipe lets
 * both run on; where the system refuses, the default stays.
 */
static void widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

/* Takes over reading fd (closed by gh_source_close() when owns_fd). */
/* Starts the decoder of format `packed` (enum gh_packed) on src, reading
 * from fd or memory, after the primed_len bytes at primed; 0, or -1 after
 * noting why. */
static int start_unpack(struct gh_source *src, int packed,
			const unsigned char *primed, unsigned primed_len)
{
	const char *why;

	src->packed = packed;
	src->up = gh_unpack_new((enum gh_packed)packed, src->fd, src->mem,
				src->mem_left, primed, primed_len,
				src->threads, &why);
	if (!src->up) {
		if (!gh_packed_built((enum gh_packed)packed))
			gh_note(src->notes, "%s: %s; decode it with %s -dc, or count it as it is with --raw",
				src->name, why,
				gh_packed_name((enum gh_packed)packed));
		else
			gh_note(src->notes, "%s: %s", src->name, why);
		return -1;
	}
	return 0;
}

static struct gh_source *start(const char *name, int fd, bool owns_fd,
			       bool raw, int threads, struct gh_notes *notes)
{
	struct gh_source *src;
	struct stat st;
	int64_t n;

	src = calloc(1, sizeof(*src));
	if (!src) {
		gh_note(notes, "%s: out of memory", name);
		goto fail;
	}
	src->name = name;
	src->notes = notes;
	src->fd = fd;
	src->owns_fd = owns_fd;
	src->packed = -1;
	src->threads = threads;
	if (fstat(fd, &st) < 0) {
		gh_note_errno(notes, "%s", name);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		gh_note_errno(notes, "%s", name);
		goto fail;
	}
	/* Open for writing only: a standard input that was closed (main.c). */
	if ((fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY) {
		errno = EBADF;          /* what read() would say */
		gh_note_errno(notes, "%s", name);
		goto fail;
	}
	if (S_ISFIFO(st.st_mode))
		widen_pipe(src->fd);
	if (S_ISREG(st.st_mode)) {
		src->start = lseek(fd, 0, SEEK_CUR);
		src->regular = src->start >= 0;
		src->size = (uint64_t)st.st_size;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}

	n = read_upto(fd, src->peek, raw ? 0 : 2, -1, &src->eof);
	if (n < 0) {
		gh_note_errno(notes, "%s: read error", name);
		goto fail;
	}
	src->peek_len = (unsigned)n;
	src->consumed = (uint64_t)n;
	if (gh_is_gzip(src->peek, (size_t)n)) {
		src->gz = gh_gunzip_new(fd, src->peek, 2, false);
		if (!src->gz) {
			gh_note(notes, "%s: cannot start the gzip decoder", name);
			goto fail;
		}
		src->peek_len = 0;
	}
	if (!src->gz && n == 2 && !src->eof) {
		n = read_upto(fd, src->peek + 2, sizeof(src->peek) - 2, -1,
			      &src->eof);
		if (n < 0) {
			gh_note_errno(notes, "%s: read error", name);
			goto fail;
		}
		src->peek_len += (unsigned)n;
		src->consumed += (uint64_t)n;
		int packed = gh_packed_format(src->peek, src->peek_len);

		if (packed >= 0) {
			if (start_unpack(src, packed, src->peek, src->peek_len))
				goto fail;
			src->peek_len = 0;
		}
	}
	return src;
fail:
	if (owns_fd)
		close(fd);
	free(src);
	return NULL;
}

struct gh_source *gh_source_open(const char *name, bool raw, int threads,
				 struct gh_notes *notes)
{
	int fd;

	if (!strcmp(name, "-"))
		return start(name, STDIN_FILENO, false, raw, threads, notes);
	fd = open(name, O_RDONLY);
	if (fd < 0) {
		gh_note_errno(notes, "%s", name);
		return NULL;
	}
	return start(name, fd, true, raw, threads, notes);
}

struct gh_source *gh_source_open_fd(const char *name, int fd, bool raw,
				    int threads, struct gh_notes *notes)
{
	return start(name, fd, false, raw, threads, notes);
}

struct gh_source *gh_source_open_mem(const char *name, const void *data,
				     uint64_t size, bool raw, int threads,
				     struct gh_notes *notes)
{
	struct gh_source *src = calloc(1, sizeof(*src));

	if (!src) {
		gh_note(notes, "%s: out of memory", name);
		return NULL;
	}
	src->name = name;
	src->notes = notes;
	src->fd = -1;
	src->mem = data;
	src->mem_left = size;
	src->packed = -1;
	src->threads = threads;
	int packed = raw ? -1 : gh_packed_format(src->mem,
			size < GH_MAGIC_MAX ? (size_t)size : GH_MAGIC_MAX);

	if (packed >= 0) {
		if (start_unpack(src, packed, NULL, 0)) {
			free(src);
			return NULL;
		}
	} else if (!raw && gh_is_gzip(src->mem, size)) {
		src->gz = gh_gunzip_new_mem(src->mem, size, false);
		if (!src->gz) {
			gh_note(notes, "%s: cannot start the gzip decoder", name);
			free(src);
			return NULL;
		}
	}
	return src;
}

/* Copies up to cap bytes of memory input into buf. */
static int64_t fill_from_memory(struct gh_source *src, unsigned char *buf,
				uint64_t cap)
{
	uint64_t n = src->mem_left < cap ? src->mem_left : cap;

	if (n)
		memcpy(buf, src->mem, n);
	src->mem += n;
	src->mem_left -= n;
	src->consumed += n;
	return (int64_t)n;
}

/* Notes why decoding failed (why, or NULL for a read error with errno
 * set); returns -1. */
static int64_t decode_failed(struct gh_source *src, const char *why)
{
	if (why)
		gh_note(src->notes, "%s: %s", src->name, why);
	else
		gh_note_errno(src->notes, "%s: read error", src->name);
	return -1;
}

/* Fills buf with up to cap decoded bytes of zstd, xz or bzip2 input. */
static int64_t fill_unpacked(struct gh_source *src, unsigned char *buf,
			     uint64_t cap)
{
	uint64_t done = 0;

	while (done < cap) {
		const char *why, *warning;
		int64_t n = gh_unpack_read(src->up, buf + done, cap - done,
					   &why, &warning);

		if (warning)
			gh_note(src->notes, "%s: %s", src->name, warning);
		if (n < 0)
			return decode_failed(src, why);
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

int64_t gh_source_fill(struct gh_source *src, unsigned char *buf, uint64_t cap)
{
	const char *why;
	uint64_t head = 0;
	int64_t n;

	if (src->gz) {
		n = gh_gunzip_read(src->gz, buf, cap, &why);
		return n < 0 ? decode_failed(src, why) : n;
	}
	if (src->up)
		return fill_unpacked(src, buf, cap);
	if (src->fd < 0)
		return fill_from_memory(src, buf, cap);
	if (src->peek_len && cap) {
		head = src->peek_len < cap ? src->peek_len : cap;
		memcpy(buf, src->peek, head);
		memmove(src->peek, src->peek + head, src->peek_len - head);
		src->peek_len -= (unsigned)head;
	}
	n = src->eof ? 0 : read_upto(src->fd, buf + head, cap - head, -1,
				    &src->eof);
	if (n < 0) {
		gh_note_errno(src->notes, "%s: read error", src->name);
		return -1;
	}
	src->consumed += (uint64_t)n;
	return (int64_t)head + n;
}

bool gh_source_can_pread(const struct gh_source *src)
{
	return src->regular && !src->gz && !src->up;
}

int64_t gh_source_pread(struct gh_source *src, unsigned char *buf,
			uint64_t cap, uint64_t offset)
{
	bool eof = false;       /* each call asks anew: other readers go on */

	return read_upto(src->fd, buf, cap, src->start + (off_t)offset, &eof);
}

void gh_source_pread_end(struct gh_source *src, uint64_t bytes)
{
	/* Nothing to report if it fails: the counts are complete already. */
	(void)lseek(src->fd, src->start + (off_t)bytes, SEEK_SET);
}

uint64_t gh_source_size(const struct gh_source *src)
{
	return src->size;
}

uint64_t gh_source_consumed(const struct gh_source *src)
{
	return src->gz ? gh_gunzip_consumed(src->gz)
	       : src->up ? gh_unpack_consumed(src->up) : src->consumed;
}

const char *gh_source_gzip_engine(const struct gh_source *src)
{
	return src->gz ? gh_gunzip_engine(src->gz) : NULL;
}

const char *gh_source_decoder(const struct gh_source *src,
			      const char **format)
{
	if (src->gz) {
		*format = "gzip";
		return gh_gunzip_engine(src->gz);
	}
	if (src->up) {
		*format = gh_packed_name((enum gh_packed)src->packed);
		return gh_unpack_engine(src->up);
	}
	*format = NULL;
	return NULL;
}

/* Where a regular file's input lies in it: its descriptor, where the
 * input begins and how many bytes it has from there; false for anything
 * else. */
static bool file_span(const struct gh_source *src, int *fd, uint64_t *start,
		      uint64_t *size)
{
	if (!src->regular || src->size < (uint64_t)src->start)
		return false;
	*fd = src->fd;
	*start = (uint64_t)src->start;
	*size = src->size - (uint64_t)src->start;
	return true;
}

bool gh_source_zstd_file(const struct gh_source *src, int *fd,
			 uint64_t *start, uint64_t *size)
{
	return src->packed == GH_PACKED_ZSTD && file_span(src, fd, start, size);
}

bool gh_source_gzip_file(const struct gh_source *src, int *fd,
			 uint64_t *start, uint64_t *size)
{
	return src->gz && file_span(src, fd, start, size);
}

int gh_source_restart(struct gh_source *src)
{
	static const unsigned char magic[2] = { 0x1f, 0x8b };

	if (src->up) {              /* zstd: from its first byte again */
		gh_unpack_free(src->up);
		src->up = NULL;
		if (lseek(src->fd, src->start, SEEK_SET) < 0) {
			gh_note_errno(src->notes, "%s", src->name);
			return -1;
		}
		return start_unpack(src, src->packed, NULL, 0);
	}
	gh_gunzip_free(src->gz);
	src->gz = NULL;
	if (lseek(src->fd, src->start + 2, SEEK_SET) < 0) {
		gh_note_errno(src->notes, "%s", src->name);
		return -1;
	}
	src->gz = gh_gunzip_new(src->fd, magic, 2, true);
	if (!src->gz) {
		gh_note(src->notes, "%s: cannot start the gzip decoder",
			src->name);
		return -1;
	}
	return 0;
}

int gh_source_close(struct gh_source *src)
{
	int ret = 0;

	gh_gunzip_free(src->gz);
	gh_unpack_free(src->up);
	if (src->owns_fd && close(src->fd) < 0) {
		gh_note_errno(src->notes, "%s: close", src->name);
		ret = -1;
	}
	free(src);
	return ret;
}
