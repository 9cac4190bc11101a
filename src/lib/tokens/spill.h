/* spill.h - token counts past the memory limit, in one temporary file
 *
 * The file is made in a directory (the temporary_directory option,
 * $TMPDIR, or /tmp) and unlinked at once, so nothing is left behind
 * whatever ends the process.  It holds records (a token's hash, count and
 * length, then its bytes) appended in segments: a run of records written
 * at once, at an offset reserved by the writer, so that several threads
 * append without a lock.  A list of segments is a partition of the tokens
 * (those whose hashes agree in some bits), read back in order.
 */
#ifndef GH_SPILL_H
#define GH_SPILL_H

#include <stdint.h>

struct gh_spill;

/* The ranges of the file that hold one partition's records. */
struct gh_segments {
	struct gh_segment { uint64_t at, len; } *seg;
	uint64_t n, cap;
};

/* NULL when out of memory; the file is made at its first write. */
struct gh_spill *gh_spill_new(const char *dir);
void gh_spill_free(struct gh_spill *s);

/* Why the last -1 (naming the directory): a buffer the spill owns. */
const char *gh_spill_error(const struct gh_spill *s);

void gh_segments_free(struct gh_segments *segs);

/* Gives a partition's disk space back, once it is read for the last time
 * (where the file system can punch holes; else the space stays until the
 * file is closed). */
void gh_spill_release(struct gh_spill *s, const struct gh_segments *segs);

/* Records written to a partition, in a buffer of the writer's. */
struct gh_spill_writer {
	struct gh_spill *spill;
	struct gh_segments *to;
	unsigned char *buf;
	uint64_t len, cap;
};

int gh_spill_writer_init(struct gh_spill_writer *w, struct gh_spill *s,
			 struct gh_segments *to);
/* 0, or -1 (gh_spill_error). */
int gh_spill_put(struct gh_spill_writer *w, uint64_t hash, uint64_t count,
		 const unsigned char *p, uint64_t len);
/* Writes what is buffered and lets the buffer go; 0 or -1. */
int gh_spill_writer_end(struct gh_spill_writer *w);

/* A partition's records read back in order. */
struct gh_spill_reader {
	struct gh_spill *spill;
	const struct gh_segments *from;
	uint64_t seg, off;              /* the next bytes to read */
	unsigned char *buf;
	uint64_t len, pos, cap;
};

void gh_spill_reader_init(struct gh_spill_reader *r, struct gh_spill *s,
			  const struct gh_segments *from);
/* The next record (*p lives until the next call): 1, 0 at the end, -1
 * (gh_spill_error). */
int gh_spill_next(struct gh_spill_reader *r, uint64_t *hash, uint64_t *count,
		  const unsigned char **p, uint64_t *len);
void gh_spill_reader_end(struct gh_spill_reader *r);

#endif
