/* fuzz-input.c - libFuzzer harness: the input layer against a one-shot zlib
 *
 * Arbitrary bytes go through the real input layer (source.c, gunzip.c,
 * count.c) from a pipe or a memfd, and the result is compared with a
 * reference that shares none of its reading code: the whole stream decoded
 * at once by zlib (windowBits 31, member after member, with gpuhist's rules
 * for what may follow a member: another member, zero bytes to the end, or
 * nothing; anything else, or a stream that ends inside a member, fails),
 * counted one byte at a time.  Both must agree on success or failure and on
 * the 256 totals; a disagreement aborts, which libFuzzer reports as a crash.
 *
 * The first byte of a test case chooses how it is read, the rest is the
 * stream:
 *	bits 0-3  the chunk size of every fill (1 byte .. 256 KiB + 3)
 *	bit 4     0: the detecting path reads a pipe and the raw path a memfd;
 *		  1: the other way round
 *	bits 5-7  pipe: how many bytes the writer writes at once (1 .. all);
 *		  memfd: bytes of junk before the stream (reading starts there)
 *
 * The detecting path fills chunks with gh_source_fill() and counts them
 * with gh_count_bytes(), as pipeline.c's single reader does; the raw path
 * (no detection) does the same from a pipe, or reads a memfd with
 * gh_source_pread() at chunk offsets, as its parallel readers do.  The
 * detecting path is also taken from memory (gh_source_open_mem(), which
 * gpuhist_count_buffer() uses).  The build (make fuzz) gives gunzip.c a 61-byte input buffer, so refills fall
 * inside headers, trailers and member boundaries.
 *
 * The input layer prints nothing: its notes (notes.h) are read here, and
 * a failed input must get exactly one line, naming it, and a good one none.
 *
 * With ISA-L, a stream that starts with a plain member header is also
 * tried with its trailer refitted: the deflate data decoded by ISA-L alone
 * (raw, lenient), and the CRC-32 and length of what it gave written after
 * it.  A mutation that ISA-L takes and zlib refuses (an incomplete Huffman
 * code) then reaches the comparison with a right CRC, instead of failing
 * on a CRC no mutation gets right by chance; gpuhist must refuse it as
 * zlib does, whichever inflater runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "config.h"
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "backend/cpu/count.h"
#include "notes.h"
#include "reference.h"
#include "source.h"

#define INPUT_NAME "fuzz-input"

static const uint64_t chunk_sizes[16] = {
	1, 2, 3, 5, 7, 8, 13, 61, 64, 255, 256, 1000, 4093, 4096, 65537,
	262147,
};
static const size_t pipe_pieces[8] = { 1, 2, 3, 7, 64, 511, 4096, SIZE_MAX };

/* What the input layer said of the input during one reading. */
static char said[2 * GH_NOTE_LINE];
static struct gh_notes notes;

/* How many lines it said. */
static int said_count(void)
{
	int n = 0;

	for (const char *p = said; *p; p++)
		n += *p == '\n';
	return n;
}

static void disagree(const char *what)
{
	fprintf(stderr, "fuzz-input: %s (message count %d: \"%s\")\n", what,
		said_count(), said);
	abort();
}

/* The result of reading one stream one way. */
struct outcome {
	int failed;
	bool is_gzip;               /* decoded (gzip, zstd, xz or bzip2) */
	bool unknown;               /* the reference cannot tell */
	uint64_t totals[256];
};

/* The reference: zlib over the whole stream at once, counted bytewise. */
static void reference(const unsigned char *p, size_t len, struct outcome *r)
{
	int kind = gh_fuzz_packed_kind(p, len);

	memset(r, 0, sizeof(*r));
	if (kind) {
		r->is_gzip = true;      /* decoded: not counted as it is */
		switch (gh_fuzz_packed_totals(kind, p, len, r->totals)) {
		case -3:
			r->unknown = true;
			break;
		case -2:
			disagree("reference: a library failed to start");
			break;
		case -1:
			r->failed = 1;
			break;
		}
		return;
	}
	if (len < 2 || p[0] != 0x1f || p[1] != 0x8b) {
		gh_count_bytes_simple(p, len, r->totals);
		return;
	}
	r->is_gzip = true;
	switch (gh_fuzz_zlib_totals(p, len, r->totals)) {
	case -2:
		disagree("reference: zlib failed to start");
		break;
	case -1:
		r->failed = 1;
		break;
	}
}

/* A pipe's writer: the stream in pieces, then end of file. */
struct writer {
	int fd;
	const unsigned char *p;
	size_t len, piece;
};

static void *write_pipe(void *arg)
{
	struct writer *w = arg;
	size_t done = 0;

	while (done < w->len) {
		size_t want = w->len - done < w->piece ? w->len - done : w->piece;
		ssize_t n = write(w->fd, w->p + done, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;          /* EPIPE: the reader gave up early */
		done += (size_t)n;
	}
	close(w->fd);
	return NULL;
}

/* A memfd holding `junk` bytes and then the stream, positioned after the
 * junk. */
static int make_memfd(const unsigned char *p, size_t len, size_t junk)
{
	static const unsigned char junk_bytes[8] = "JJJJJJJJ";
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		disagree("memfd_create failed");
	if (write(fd, junk_bytes, junk) != (ssize_t)junk ||
	    (len && write(fd, p, len) != (ssize_t)len) ||
	    lseek(fd, (off_t)junk, SEEK_SET) != (off_t)junk)
		disagree("cannot fill the memfd");
	return fd;
}

/* Reads fd to its end with fills of chunk bytes, as pipeline.c's single
 * reader does. */
static void read_filling(int fd, const unsigned char *mem, bool raw,
			 uint64_t chunk, bool on_memfd, size_t len,
			 struct outcome *o)
{
	unsigned char *buf = malloc(chunk);
	struct gh_source *src;
	bool short_seen = false;

	memset(o, 0, sizeof(*o));
	gh_notes_init(&notes, said, sizeof(said));
	if (!buf)
		disagree("out of memory");
	const struct gpuhist_input input = {
		.type = mem ? GPUHIST_INPUT_MEMORY : GPUHIST_INPUT_FD,
		.name = INPUT_NAME, .fd = fd, .data = mem, .size = len,
	};

	src = gh_source_open(&input, raw, 1, &notes);
	if (!src) {
		o->failed = 1;
		free(buf);
		return;
	}
	o->is_gzip = gh_source_decoding(src) != NULL;
	if (gh_source_can_pread(src) != (on_memfd && !o->is_gzip))
		disagree("can_pread is wrong for this kind of input");
	for (;;) {
		int64_t n = gh_source_fill(src, buf, chunk);

		if (n < 0) {
			o->failed = 1;
			break;
		}
		if ((uint64_t)n > chunk)
			disagree("a fill returned more than asked for");
		if (short_seen && n != 0)
			disagree("a fill after a short one was not the end");
		if (n == 0)
			break;
		short_seen = (uint64_t)n < chunk;
		gh_count_bytes(buf, (uint64_t)n, o->totals);
	}
	if (!o->failed && gh_source_consumed(src) != len)
		disagree("consumed is not the stream's length after a success");
	if (gh_source_close(src))
		disagree("closing a borrowed descriptor failed");
	free(buf);
}

/* Reads a memfd raw with gh_source_pread() at chunk offsets, in order, as
 * pipeline.c's parallel readers do between them. */
static void read_at_offsets(int fd, uint64_t chunk, size_t junk,
			    struct outcome *o)
{
	unsigned char *buf = malloc(chunk);
	struct gh_source *src;
	uint64_t offset = 0;

	memset(o, 0, sizeof(*o));
	gh_notes_init(&notes, said, sizeof(said));
	const struct gpuhist_input input = {
		.type = GPUHIST_INPUT_FD, .name = INPUT_NAME, .fd = fd,
	};

	src = gh_source_open(&input, true, 1, &notes);
	if (!buf || !src || !gh_source_can_pread(src))
		disagree("cannot read a memfd raw at offsets");
	for (;;) {
		int64_t n = gh_source_pread(src, buf, chunk, offset);

		if (n < 0)
			disagree("pread of a memfd failed");
		gh_count_bytes(buf, (uint64_t)n, o->totals);
		offset += (uint64_t)n;
		if ((uint64_t)n < chunk)
			break;
	}
	gh_source_pread_end(src, offset);
	if (lseek(fd, 0, SEEK_CUR) != (off_t)(junk + offset))
		disagree("pread_end left the offset elsewhere");
	if (gh_source_close(src))
		disagree("closing a borrowed descriptor failed");
	free(buf);
}

/* One way of reading the stream; fills o. */
static void read_one_way(const unsigned char *p, size_t len, bool raw,
			 bool on_memfd, uint64_t chunk, unsigned knob,
			 struct outcome *o)
{
	if (on_memfd) {
		int fd = make_memfd(p, len, knob);

		if (raw)
			read_at_offsets(fd, chunk, knob, o);
		else
			read_filling(fd, NULL, raw, chunk, true, len, o);
		close(fd);
	} else {
		struct writer w = { .p = p, .len = len,
				    .piece = pipe_pieces[knob] };
		pthread_t thread;
		int fds[2];

		if (pipe2(fds, O_CLOEXEC) < 0)
			disagree("pipe failed");
		w.fd = fds[1];
		if (pthread_create(&thread, NULL, write_pipe, &w))
			disagree("cannot start the pipe's writer");
		read_filling(fds[0], NULL, raw, chunk, false, len, o);
		close(fds[0]);          /* a writer still writing gets EPIPE */
		pthread_join(thread, NULL);
	}
}

/* The messages one reading left: one naming the input after a failure,
 * none after a success. */
static void check_messages(const struct outcome *o)
{
	/* The warnings an input that is counted may get: bzip2's, for what it
	 * ignores after the data; xz's, for a check it cannot verify; and a
	 * zip archive's, counted as it is. */
	static const char *const warnings[] = {
		INPUT_NAME ": trailing garbage after EOF ignored\n",
		INPUT_NAME ": unsupported type of integrity check; not verifying file integrity\n",
		INPUT_NAME ": zip archive: counted as it is; unzip -p ARCHIVE | gpuhist counts its files\n",
	};
	bool known = false;

	for (size_t i = 0; i < sizeof(warnings) / sizeof(warnings[0]); i++)
		known = known || !strcmp(said, warnings[i]);
	if (!o->failed && said_count() && !known)
		disagree("a message after a success");
	if (o->failed && said_count() != 1)
		disagree("not exactly one message after a failure");
	if (o->failed && strncmp(said, INPUT_NAME ": ",
				 strlen(INPUT_NAME ": ")))
		disagree("the message does not name the input");
}

/* The input layer against the reference on one stream, read as data[0]
 * says; a disagreement aborts. */
static void compare(const unsigned char *p, size_t len, uint64_t chunk,
		    bool memfd_first, unsigned knob)
{
	struct outcome want, got, raw_want, raw_got;

	reference(p, len, &want);
	read_one_way(p, len, false, memfd_first, chunk, knob, &got);
	check_messages(&got);
	if (want.unknown)
		return;                 /* too large for the reference */
	if (got.failed != want.failed)
		disagree(want.failed ? "gpuhist took a stream zlib rejects"
				     : "gpuhist rejected a stream zlib takes");
	if (got.is_gzip != want.is_gzip)
		disagree("gzip detection differs");
	if (!got.failed && memcmp(got.totals, want.totals, sizeof(got.totals)))
		disagree("the totals differ");

	/* The same stream from memory (gpuhist_count_buffer's path). */
	read_filling(-1, p, false, chunk, false, len, &got);
	check_messages(&got);
	if (got.failed != want.failed || got.is_gzip != want.is_gzip ||
	    (!got.failed &&
	     memcmp(got.totals, want.totals, sizeof(got.totals))))
		disagree("reading from memory disagrees with zlib");

	memset(&raw_want, 0, sizeof(raw_want));
	gh_count_bytes_simple(p, len, raw_want.totals);
	read_one_way(p, len, true, !memfd_first, chunk, knob, &raw_got);
	check_messages(&raw_got);
	if (raw_got.failed || raw_got.is_gzip)
		disagree("raw reading failed or decoded");
	if (memcmp(raw_got.totals, raw_want.totals, sizeof(raw_got.totals)))
		disagree("the raw totals differ");
}

#ifdef HAVE_ISAL
static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* The first member (a plain 10-byte header) with the trailer that fits
 * what ISA-L alone decodes from its deflate data, into v (len + 8 bytes
 * of room); its length, or 0 when ISA-L does not decode it to its end. */
static size_t refit_trailer(const unsigned char *p, size_t len,
			    unsigned char *v)
{
	static unsigned char out[1 << 20];
	static struct inflate_state st;
	size_t used, produced;

	if (len < 10 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || p[3])
		return 0;
	isal_inflate_init(&st);
	st.crc_flag = ISAL_DEFLATE;
	st.next_in = (uint8_t *)p + 10;
	st.avail_in = (uint32_t)(len - 10);
	st.next_out = out;
	st.avail_out = sizeof(out);
	if (isal_inflate(&st) != ISAL_DECOMP_OK ||
	    st.block_state != ISAL_BLOCK_FINISH)
		return 0;
	used = len - 10 - st.avail_in -
	       (size_t)(st.read_in_length > 0 ? st.read_in_length / 8 : 0);
	produced = sizeof(out) - st.avail_out;
	memcpy(v, p, 10 + used);
	put_le32(v + 10 + used, (uint32_t)crc32(0, out, (uInt)produced));
	put_le32(v + 14 + used, (uint32_t)produced);
	return 10 + used + 8;
}
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);       /* the pipe's writer sees EPIPE */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *p = data + 1;
	size_t len;
	uint64_t chunk;
	bool memfd_first;
	unsigned knob;

	if (size < 1)
		return 0;
	len = size - 1;
	chunk = chunk_sizes[data[0] & 0x0f];
	memfd_first = data[0] & 0x10;
	knob = data[0] >> 5;

	compare(p, len, chunk, memfd_first, knob);
#ifdef HAVE_ISAL
	unsigned char *v = malloc(len + 8);
	size_t vlen;

	if (!v)
		disagree("out of memory");
	vlen = refit_trailer(p, len, v);
	if (vlen && (vlen != len || memcmp(v, p, len)))
		compare(v, vlen, chunk, memfd_first, knob);
	free(v);
#endif
	return 0;
}
