/* json_read.h - a strict JSON reader (RFC 8259) that streams, for
 * reading results back (gpuhist_merge_json)
 *
 * The document is read through one fixed buffer and checked as it is
 * read, so memory does not grow with its size.  Strings are decoded and
 * must be valid UTF-8; a \u escape of a lone surrogate is refused, as raw
 * UTF-8 of one is (but gh_json_read_bytes).  Counts are exact unsigned
 * 64-bit integers: a minus sign, a fraction or an exponent is refused, and
 * so is a value past 2^64-1.  The first reason a document is refused is
 * kept in why; every function returns 0, or -1 once it is set.
 */
#ifndef GH_JSON_READ_H
#define GH_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "notes.h"

#define GH_JSON_BUF (64u << 10)     /* the document is read this much at once */
#define GH_JSON_DEPTH 64            /* arrays and objects nested at most */
#define GH_JSON_KEY 32              /* keys longer than this are none we know
				     * (the longest: an interval, 20) */
#define GH_JSON_TEXT 256            /* a name or error kept for a message */

/* The document being read, and why it is refused. */
struct gh_json {
	FILE *f;
	unsigned char buf[GH_JSON_BUF];
	size_t pos, len;
	uint64_t offset;            /* of buf[0] in the document */
	int read_errno;             /* a read failed: why */
	int failed_input;           /* refused for an entry with an error */
	int ours;                   /* stopped by a failure of the reader's
				     * own (memory, a spill), not the
				     * document's */
	char why[GH_JSON_TEXT * 2 + 128];
};

/* Sets why the document is refused (the first reason only); -1. */
__attribute__((format(printf, 2, 3)))
int gh_json_refuse(struct gh_json *r, const char *fmt, ...);
/* The next byte, or -1 at the end (or after a read error); and past it. */
int gh_json_peek(struct gh_json *r);
int gh_json_next(struct gh_json *r);
/* Refuses the document as malformed here, saying what was expected. */
int gh_json_syntax(struct gh_json *r, const char *what);
void gh_json_skip_ws(struct gh_json *r);
/* Skips whitespace and the character c, which must come next. */
int gh_json_expect(struct gh_json *r, char c, const char *what);
/* A string, decoded into out (at most cap bytes kept; out may be NULL);
 * *len is its whole decoded length. */
int gh_json_read_string(struct gh_json *r, char *out, size_t cap,
			size_t *len);
/* A string kept for a message: NUL-terminated, cut short with "...", and
 * control characters shown as '?'. */
int gh_json_read_text(struct gh_json *r, char out[GH_JSON_TEXT]);
/* A string as bytes, in *buf (of *cap bytes, grown with realloc; the
 * caller frees it): a lone \udc80..\udcff is the byte it escapes, as
 * Python's surrogateescape and gpuhist's json write bytes that are not
 * UTF-8. */
int gh_json_read_bytes(struct gh_json *r, unsigned char **buf, size_t *cap,
		       size_t *len);
/* [ item, ... ]: calls item for each element, numbered from 0. */
int gh_json_read_array(struct gh_json *r, int depth,
		       int (*item)(struct gh_json *, int, uint64_t, void *),
		       void *ctx);
/* { "key": member, ... }: calls member with each key, decoded (keys
 * longer than GH_JSON_KEY are passed empty, as none that is known). */
int gh_json_read_object(struct gh_json *r, int depth,
			int (*member)(struct gh_json *, int, const char *,
				      void *),
			void *ctx);
/* Any value, checked and passed over. */
int gh_json_skip_value(struct gh_json *r, int depth);
/* A count: an exact integer 0..2^64-1.  where and what name it in
 * messages. */
int gh_json_read_count(struct gh_json *r, const char *where,
		       const char *what, uint64_t *v);
/* Any number, as its text (at most GH_JSON_NUMBER - 1 characters, which
 * every number gpuhist writes fits). */
#define GH_JSON_NUMBER 48
int gh_json_read_number_text(struct gh_json *r, const char *where,
			     const char *what, char out[GH_JSON_NUMBER]);
/* A key an entry may have, and its bit in the entry's set of keys seen. */
struct gh_json_key {
	const char *name;
	unsigned bit;
};
#define GH_JSON_KEYS(keys) (sizeof(keys) / sizeof((keys)[0]))
/* The bit of key among n keys, or 0 for none of them. */
unsigned gh_json_key_bit(const struct gh_json_key *keys, size_t n,
			 const char *key);
/* An entry's member `key`, whose bit is marked in *seen: refused when it
 * is there twice, or when its value does not begin as `want` does ('"' a
 * string, '[' an array, '{' an object; 0: any). */
int gh_json_member_once(struct gh_json *r, const char *where, const char *key,
			unsigned bit, unsigned *seen, char want);
/* What a view's reader reads of a result document: each entry of
 * "inputs" (input, numbered from 0) and the "total" entry (total), with
 * its ctx. */
struct gh_json_result {
	int (*input)(struct gh_json *r, int depth, uint64_t i, void *ctx);
	int (*total)(struct gh_json *r, int depth, void *ctx);
	void *ctx;
	int has_inputs, has_total;  /* seen (set by the reading) */
};
/* A result document: one object with "inputs" (an array) and "total"
 * once each, read by res's functions; a top-level "error" (its run failed
 * as a whole) refuses it as a failed input; other members are passed
 * over; nothing may follow it. */
int gh_json_read_result(struct gh_json *r, struct gh_json_result *res);
/* Reads the document NAME ("-": standard input) with read(r, ctx); what
 * went wrong is noted as "NAME: ..." (a refusal as "not WHAT: why"); 0,
 * or -1. */
int gh_json_read_file(const char *name, const char *what,
		      int (*read)(struct gh_json *r, void *ctx), void *ctx,
		      struct gh_notes *notes);

/* Adds b to *a; -1 when the sum would pass 2^64-1. */
int gh_add_u64(uint64_t *a, uint64_t b);

/* A token's hash for a result's fingerprint (the sum over its tokens of
 * the hash times the count, mod 2^64, which the total's must equal the
 * inputs'): FNV-1a, then a 64-bit finalizer so that every byte moves
 * every bit. */
uint64_t gh_token_hash(const unsigned char *p, size_t len);

/* Whether [p, p + n) is an interval as gpuhist writes one: "(no time)",
 * or a start "2026-11-27T10:00:00Z". */
bool gh_interval_label(const unsigned char *p, size_t n);

#endif
