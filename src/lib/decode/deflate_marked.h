/* deflate_marked.h - gzip members decoded into 16-bit symbols, window unknown
 *
 * The parallel gzip decoder (gzip_parallel.c) starts decoding in the
 * middle of a member, where the 32 KiB of output before its starting point
 * (the window back-references may reach into) is not known yet.  This
 * decoder writes each output byte as a 16-bit symbol: a value below 256 is
 * that byte; 256 + w stands for byte w of the unknown window (w = 32767 is
 * the byte just before the start), and copies carry such markers along.
 * Once the window is known, every symbol resolves to a byte.
 *
 * It walks whole gzip streams: deflate blocks, the member's trailer, the
 * next member's header, zero padding at the end, as gzip -dc does.  It is
 * exactly as strict as zlib (the serial path's verdict), so that a stream
 * one refuses the other refuses too.
 */
#ifndef GH_DEFLATE_MARKED_H
#define GH_DEFLATE_MARKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GH_WINDOW 32768

/* Symbols a single decoding step may write past the last free slot. */
#define GH_DM_SLACK 512

enum gh_dm_status {
	GH_DM_STOP,     /* reached a boundary at or after the stop bit */
	GH_DM_END,      /* the clean end of the stream (end of file) */
	GH_DM_FULL,     /* the output buffer is full: flush, then go on */
	GH_DM_ERROR,    /* invalid or truncated data */
};

/* Where a decoder starts, or a boundary it stopped at. */
enum gh_dm_at {
	GH_DM_AT_BLOCK,         /* a deflate block header */
	GH_DM_AT_MEMBER,        /* a gzip member header (byte aligned) */
};

/* A member's end in the output: the CRC and length its trailer gives,
 * checked once the symbols before out_end are resolved. */
struct gh_dm_member_end {
	uint64_t out_end;       /* out[] index the member's output ends at */
	uint32_t want_crc, want_size;
};


struct gh_dm_input {
	const unsigned char *data;      /* data[0] is file byte `base` */
	uint64_t len;
	uint64_t base;
	bool at_eof;                    /* data ends where the file does */
	/* Makes more data available (may move it); 0, or -1 on a read error
	 * or when no more can come (then the decoder sees end of file). */
	int (*more)(void *ctx, struct gh_dm_input *in);
	void *ctx;
};

struct gh_dm_table;     /* Huffman decoding tables (deflate_marked.c) */

struct gh_dm {
	struct gh_dm_input *in;
	/* bit reader */
	uint64_t next;                  /* next byte of in->data to load */
	uint64_t bitbuf;
	unsigned bitcnt;
	unsigned overrun;               /* bytes of zeros loaded past the end */
	/* output */
	uint16_t *out;                  /* out[0..GH_WINDOW): the window */
	uint64_t pos, cap;              /* next slot; slots (plus slack) */
	uint64_t lim;                   /* least index a copy may reach */
	uint64_t flushed;               /* symbols flushed before out[GH_WINDOW] */
	int64_t member_at;              /* output count where the member began,
					 * -1: before this decoder's start */
	/* where in the stream */
	int state;
	bool last_block;
	uint32_t stored_left;
	uint64_t stop_bit;              /* stop at a boundary at/after this */
	/* members that ended since the last flush (BGZF: thousands) */
	struct gh_dm_member_end *ends;
	int n_ends, cap_ends;
	const char *why;                /* the reason for GH_DM_ERROR */
	struct gh_dm_table *t;
};

/* Prepares dm to decode from file bit `bit` (in `in`), which is `at`.
 * Output goes to out[] (cap symbols, plus GH_DM_SLACK of room after),
 * whose first GH_WINDOW entries the caller has filled with the window
 * (markers or bytes).  lim: the least out index a copy may reach
 * (GH_WINDOW - bytes of the member known before `bit`, or 0).
 * Returns -1 when out of memory. */
int gh_dm_start(struct gh_dm *dm, struct gh_dm_input *in, uint64_t bit,
		enum gh_dm_at at, uint16_t *out, uint64_t cap, uint64_t lim,
		uint64_t stop_bit);

/* Decodes until one of gh_dm_status.  On GH_DM_STOP, gh_dm_bit() is the
 * boundary and gh_dm_at() its kind. */
enum gh_dm_status gh_dm_run(struct gh_dm *dm);

uint64_t gh_dm_bit(const struct gh_dm *dm);        /* file bit position */
enum gh_dm_at gh_dm_where(const struct gh_dm *dm); /* after GH_DM_STOP */

/* Symbols output since the start (flushed or not). */
uint64_t gh_dm_total(const struct gh_dm *dm);

/* After the caller has resolved out[GH_WINDOW..pos) and the ends: keeps
 * the last GH_WINDOW symbols as the window and makes room. */
void gh_dm_flushed(struct gh_dm *dm);

void gh_dm_end(struct gh_dm *dm);

/* Bytes of a symbol-to-byte map for gh_dm_resolve(): map[v] = v below
 * 256, then the window's bytes, then padding a 4-byte gather may read. */
#define GH_DM_MAP_BYTES (256 + GH_WINDOW + 4)

/*
 * Resolves n symbols into bytes at dst through map.  Runs with no window
 * marks are only narrowed; the others are looked up, with AVX2 gathers
 * where the processor has them.
 */
void gh_dm_resolve(const uint16_t *restrict sym, uint64_t n,
		   const unsigned char *restrict map, unsigned char *restrict dst);

/*
 * Looks for a place to start decoding in file bits [from, to): a dynamic
 * or stored block header (not the last block), or a gzip member header,
 * whose header is well-formed and whose first block decodes without error
 * (a filter only: decoding on confirms it).  Returns 1 with *bit and *at,
 * 0 when none was found, -1 on a read error.
 */
int gh_dm_find_start(struct gh_dm_input *in, uint64_t from, uint64_t to,
		     uint64_t *bit, enum gh_dm_at *at);

/* Whether a decoder that stopped at `bit` (kind `at`) and one that started
 * at candidate `cand` (kind `cand_at`) stand at the same place. */
bool gh_dm_same_start(struct gh_dm_input *in, uint64_t bit, enum gh_dm_at at,
		      uint64_t cand, enum gh_dm_at cand_at);

#endif
