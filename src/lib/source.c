/* source.c - one input: a file, a descriptor or memory, plain or compressed, read in chunks
 *
 * The format is told by the input's first bytes (formats.c's table), on
 * files and pipes alike, so the bytes read to decide are kept and handed
 * on: to the chunk for plain input, to the decoder otherwise.  A format
 * this build does not decode (zip, or one left out at configure time) is
 * counted as it is, with its row's warning.  Every decoder is reached
 * through its const ops table (decode/decoder.h) and no format is named
 * here.  Memory is this struct and the decoder's buffers, whatever the
 * input's size.  What goes wrong is written into the input's notes
 * (notes.h), never printed.
 */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode/formats.h"
#include "source.h"

/* Most bytes one call asks of a decoder (libraries count in 32 bits). */
#define GH_DECODE_STEP_MAX ((uint64_t)1 << 30)

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
	unsigned char peek[GH_MAGIC_MAX];   /* bytes read to tell the format */
	unsigned peek_len;
	bool eof;                   /* read() has said end of file */
	const struct gh_decoder *decoder;   /* compressed input, else NULL */
	void *dec;                  /* its state */
	const struct gh_decoder *first;     /* the first bytes' decoder, which
					     * a restart starts again */
	uint64_t consumed_before;   /* by decoders that handed over */
	bool strict;                /* the decoders decode for the verdict */
	int threads;                /* a decoder's threads */
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

/* Whether another format this build decodes starts at p. */
static bool decodes_another(const unsigned char *p, size_t len)
{
	const struct gh_format *f = gh_format_of(p, len);

	return f && f->decoder;
}

/* Starts src's decoder, reading from where src stands after the
 * primed_len bytes at primed; 0, or -1 after noting why. */
static int start_decoder(struct gh_source *src, const unsigned char *primed,
			 unsigned primed_len, bool strict)
{
	const struct gh_packed_from from = {
		.fd = src->fd, .mem = src->mem, .mem_len = src->mem_left,
		.primed = primed, .primed_len = primed_len,
		.threads = src->threads, .strict = strict,
		.decodes = decodes_another,
	};
	const char *why = "out of memory";

	src->strict = strict;
	src->dec = src->decoder->open(&from, &why);
	if (!src->dec) {
		gh_note(src->notes, "%s: %s", src->name, why);
		return -1;
	}
	return 0;
}

/* Looks at the first len bytes at p for a format: starts its decoder
 * (primed with them when read from a descriptor), or notes that it is
 * counted as it is; 0, or -1 after noting why. */
static int detect(struct gh_source *src, const unsigned char *p, unsigned len)
{
	const struct gh_format *f = gh_format_of(p, len);

	if (!f)
		return 0;
	if (!f->decoder) {
		gh_note(src->notes, "%s: %s", src->name, f->not_decoded);
		return 0;
	}
	src->decoder = src->first = f->decoder;
	if (start_decoder(src, src->fd < 0 ? NULL : p,
			  src->fd < 0 ? 0 : len, false))
		return -1;
	src->peek_len = 0;
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
	src->threads = threads;
	if (fstat(fd, &st) < 0) {
		gh_note_errno(notes, "%s", name);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		/* What to do instead, as a user of grep -r or wc would look
		 * for it. */
		gh_note(notes, "%s: Is a directory (to count the files in it: "
			"find DIR -type f -print0 | gpuhist --files0-from=-)",
			name);
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

	n = read_upto(fd, src->peek, raw ? 0 : sizeof(src->peek), -1,
		      &src->eof);
	if (n < 0) {
		gh_note_errno(notes, "%s: read error", name);
		goto fail;
	}
	src->peek_len = (unsigned)n;
	src->consumed = (uint64_t)n;
	if (detect(src, src->peek, src->peek_len))
		goto fail;
	return src;
fail:
	if (owns_fd)
		close(fd);
	free(src);
	return NULL;
}

/* Opens size bytes of memory at data, which must stay until
 * gh_source_close(). */
static struct gh_source *start_mem(const char *name, const void *data,
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
	src->threads = threads;
	if (!raw && detect(src, src->mem,
			   size < GH_MAGIC_MAX ? (unsigned)size : GH_MAGIC_MAX)) {
		free(src);
		return NULL;
	}
	return src;
}

struct gh_source *gh_source_open(const struct gpuhist_input *input, bool raw,
				 int threads, struct gh_notes *notes)
{
	const char *name = input->name;
	int fd;

	switch (input->type) {
	case GPUHIST_INPUT_FD:
		return start(name, input->fd, false, raw, threads, notes);
	case GPUHIST_INPUT_MEMORY:
		return start_mem(name, input->data, input->size, raw, threads,
				 notes);
	case GPUHIST_INPUT_PATH:
		break;
	}
	if (!strcmp(name, "-"))
		return start(name, STDIN_FILENO, false, raw, threads, notes);
	fd = open(name, O_RDONLY);
	if (fd < 0) {
		gh_note_errno(notes, "%s", name);
		return NULL;
	}
	return start(name, fd, true, raw, threads, notes);
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

/* Where the decoder stopped for another format's data (zstd -dc goes on
 * to a gzip stream after its frames): that format's decoder takes the
 * rest.  1 when it did, 0 at the real end, -1 after noting why. */
static int hand_over(struct gh_source *src)
{
	const unsigned char *rest;
	uint64_t len, counted;
	unsigned char *copy = NULL;

	if (!src->decoder->followed ||
	    !src->decoder->followed(src->dec, &rest, &len, &counted))
		return 0;
	const struct gh_format *f = gh_format_of(rest, (size_t)len);

	if (src->fd >= 0) {         /* read past the end: primed */
		copy = malloc(len ? (size_t)len : 1);
		if (!copy || len > UINT32_MAX) {
			free(copy);
			gh_note(src->notes, "%s: out of memory", src->name);
			return -1;
		}
		memcpy(copy, rest, (size_t)len);
	} else {
		src->mem = rest;
		src->mem_left = len;
	}
	src->consumed_before += src->decoder->consumed(src->dec) - counted;
	src->decoder->free(src->dec);
	src->dec = NULL;
	src->decoder = f->decoder;
	int ret = start_decoder(src, copy, copy ? (unsigned)len : 0,
				src->strict);

	free(copy);
	return ret ? -1 : 1;
}

/* Fills buf with up to cap decoded bytes: fewer only at the end. */
static int64_t fill_decoded(struct gh_source *src, unsigned char *buf,
			    uint64_t cap)
{
	uint64_t done = 0;

	while (done < cap) {
		uint64_t want = cap - done < GH_DECODE_STEP_MAX
				? cap - done : GH_DECODE_STEP_MAX;
		const char *why = NULL, *warning = NULL;
		int64_t n = src->decoder->read(src->dec, buf + done, want,
					       &why, &warning);

		if (warning)
			gh_note(src->notes, "%s: %s", src->name, warning);
		if (n < 0) {
			if (why)
				gh_note(src->notes, "%s: %s", src->name, why);
			else
				gh_note_errno(src->notes, "%s: read error",
					      src->name);
			return -1;
		}
		done += (uint64_t)n;
		if ((uint64_t)n < want) {
			int next = hand_over(src);

			if (next < 0)
				return -1;
			if (!next)
				break;  /* the end */
		}
	}
	return (int64_t)done;
}

int64_t gh_source_fill(struct gh_source *src, unsigned char *buf, uint64_t cap)
{
	uint64_t head = 0;
	int64_t n;

	if (src->dec)
		return fill_decoded(src, buf, cap);
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
	return src->regular && !src->dec;
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
	return src->dec ? src->consumed_before +
			  src->decoder->consumed(src->dec)
			: src->consumed;
}

const struct gh_decoding *gh_source_decoding(const struct gh_source *src)
{
	return src->dec ? src->decoder->decoding(src->dec) : NULL;
}

/* Where a regular file's input lies in it: where it begins and how many
 * bytes it has from there; false for anything else. */
static bool file_span(const struct gh_source *src, uint64_t *start,
		      uint64_t *size)
{
	if (!src->regular || src->size < (uint64_t)src->start)
		return false;
	*start = (uint64_t)src->start;
	*size = src->size - (uint64_t)src->start;
	return true;
}

int gh_source_pieces_threads(const struct gh_source *src, int threads)
{
	struct gh_file_span file = { .fd = src->fd };

	if (!src->dec || !src->decoder->pieces_threads ||
	    !file_span(src, &file.start, &file.size))
		return 0;
	return src->decoder->pieces_threads(src->dec, &file, threads);
}

enum gh_pieces_result gh_source_pieces(struct gh_source *src,
				       struct gh_pieces_job *job)
{
	enum gh_pieces_result res;

	job->fd = src->fd;
	file_span(src, &job->start, &job->size);
	res = src->decoder->pieces(job);
	if (res == GH_PIECES_DONE)
		gh_source_pread_end(src, job->size);
	return res;
}

int gh_source_restart(struct gh_source *src)
{
	src->decoder->free(src->dec);
	src->dec = NULL;
	src->decoder = src->first;
	src->consumed_before = 0;
	if (lseek(src->fd, src->start, SEEK_SET) < 0) {
		gh_note_errno(src->notes, "%s", src->name);
		return -1;
	}
	return start_decoder(src, NULL, 0, true);
}

int gh_source_close(struct gh_source *src)
{
	int ret = 0;

	if (src->dec)
		src->decoder->free(src->dec);
	if (src->owns_fd && close(src->fd) < 0) {
		gh_note_errno(src->notes, "%s: close", src->name);
		ret = -1;
	}
	free(src);
	return ret;
}
