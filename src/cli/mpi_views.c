/* mpi_views.c - what -m and --stats add to the ranks' shares under mpirun:
 * ent's stream sums joined across the ranges that split a file, and each
 * operand's code points gathered at rank 0
 *
 * A split file's ranges begin at multiples of GH_MPI_RANGE_ALIGN, a
 * multiple of 6, so every Monte Carlo group of six bytes lies inside one
 * range and the ranges' hits and groups add up to the file's.  A range is
 * counted as a stream of its own, whose serial-correlation sum pairs its
 * last byte with its own first (the wrap); the file's pairs its last byte
 * with the byte after the range instead, and the file's last byte with
 * its first.  So each rank trades its range's wrap for its join, reading
 * the three bytes involved, and the ranks' sums add up to one process's.
 *
 * Code points need no join (a rank's range is counted with the bytes
 * around it as context, seams.c): each rank sends rank 0 the pages of
 * code points it counted for each operand, and rank 0 adds them up.
 */
#include "config.h"

#ifdef HAVE_MPI
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "mpi_views.h"
#include "msg.h"

/* One byte of path at offset; 0, or -1 with errno set. */
static int byte_at(int fd, uint64_t offset, unsigned char *b)
{
	ssize_t n;

	do
		n = pread(fd, b, 1, (off_t)offset);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		return 0;
	if (n == 0)
		errno = EIO;    /* the file shrank since it was planned */
	return -1;
}

int gh_mpi_join_range(const char *path, uint64_t lo, uint64_t hi,
		      uint64_t size, struct gpuhist_stream *s)
{
	unsigned char first, last, next;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return -1;
	if (!byte_at(fd, lo, &first) && !byte_at(fd, hi - 1, &last) &&
	    !byte_at(fd, hi < size ? hi : 0, &next)) {
		s->pairs = s->pairs - (uint64_t)last * first +
			   (uint64_t)last * next;
		ret = 0;
	}
	close(fd);
	return ret;
}

/* What a rank sends for one non-empty page: its operand, its page number,
 * then its GPUHIST_CHAR_PAGE totals. */
#define RECORD (2 + GPUHIST_CHAR_PAGE)
/* Sent in pieces of at most this many values (MPI counts are ints). */
#define PIECE ((uint64_t)1 << 24)

/* This rank's records for chars[0..n), in a buffer of *len values. */
static uint64_t *pack(const struct gpuhist_chars *chars, int n, uint64_t *len)
{
	uint64_t pages = 0, *buf, *at;

	for (int i = 0; i < n; i++)
		for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++)
			pages += chars[i].page[p] != NULL;
	*len = pages * RECORD;
	buf = malloc(*len ? *len * sizeof(*buf) : 1);
	if (!buf)
		return NULL;
	at = buf;
	for (int i = 0; i < n; i++)
		for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++) {
			if (!chars[i].page[p])
				continue;
			at[0] = (uint64_t)i;
			at[1] = p;
			memcpy(at + 2, chars[i].page[p],
			       GPUHIST_CHAR_PAGE * sizeof(uint64_t));
			at += RECORD;
		}
	return buf;
}

/* Adds len values of records into chars[0..n); -1 when out of memory. */
static int unpack(struct gpuhist_chars *chars, int n, const uint64_t *buf,
		  uint64_t len)
{
	for (uint64_t r = 0; r + RECORD <= len; r += RECORD) {
		uint64_t i = buf[r], p = buf[r + 1];

		if (i >= (uint64_t)n || p >= GPUHIST_CHAR_PAGES)
			continue;
		for (uint32_t k = 0; k < GPUHIST_CHAR_PAGE; k++) {
			uint64_t bin = p * GPUHIST_CHAR_PAGE + k;

			if (buf[r + 2 + k] && bin < GPUHIST_CHAR_BINS &&
			    gpuhist_chars_add(&chars[i], (uint32_t)bin,
					      buf[r + 2 + k]) ==
				    GPUHIST_ERR_NOMEM)
				return -1;
		}
	}
	return 0;
}

static void transfer(uint64_t *buf, uint64_t len, int peer, bool send)
{
	for (uint64_t at = 0; at < len; at += PIECE) {
		int count = (int)(len - at < PIECE ? len - at : PIECE);

		if (send)
			MPI_Send(buf + at, count, MPI_UINT64_T, peer, 0,
				 MPI_COMM_WORLD);
		else
			MPI_Recv(buf + at, count, MPI_UINT64_T, peer, 0,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

int gh_mpi_gather_chars(struct gpuhist_chars *chars, int n, int rank,
			int size)
{
	int failed = 0;

	if (rank != 0) {
		uint64_t len = 0, *buf = pack(chars, n, &len);

		if (!buf)
			len = UINT64_MAX;       /* says so to rank 0 */
		MPI_Send(&len, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
		if (buf)
			transfer(buf, len, 0, true);
		free(buf);
		return buf ? 0 : -1;
	}
	for (int r = 1; r < size; r++) {
		uint64_t len, *buf;

		MPI_Recv(&len, 1, MPI_UINT64_T, r, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		if (len == UINT64_MAX) {
			failed = -1;
			continue;
		}
		buf = malloc(len ? len * sizeof(*buf) : 1);
		if (!buf) {
			/* The other ranks would wait on this one. */
			gh_msg("out of memory for the ranks' code points");
			MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
		}
		transfer(buf, len, r, false);
		if (unpack(chars, n, buf, len))
			failed = -1;
		free(buf);
	}
	return failed;
}
#endif
