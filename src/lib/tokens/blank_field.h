/* blank_field.h - a line's Nth field as awk's default splits it (runs of
 * bytes other than space and tab), found 16 bytes at a time; or, with a
 * separator byte, what lies between separators (gh_line_field)
 *
 * With SSE2 (every x86-64): a 16-bit mask of the blanks of 16 bytes; a
 * field starts where a non-blank follows a blank (or the line's start), so
 * the starts of 16 bytes are ~blank & (blank << 1 | carry), and whole
 * blocks of them are skipped by their popcount until the block that holds
 * the Nth start; its end is the next blank, found the same way.  Elsewhere
 * (and for the last bytes of a line) byte by byte.  The byte-at-a-time
 * loop of a log's tenth field was a third of --field=10's time.
 */
#ifndef GH_BLANK_FIELD_H
#define GH_BLANK_FIELD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline bool gh_is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

#if defined(__SSE2__)
/* The set bits of a 16-bit mask (__builtin_popcount is a libgcc call
 * without -mpopcnt). */
static inline int gh_popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (int)((x + (x >> 8)) & 0x1fu);
}

/* Bit i set where p[i] is a space or a tab, for 16 bytes. */
static inline unsigned gh_blank_mask16(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);
	__m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));

	return (unsigned)_mm_movemask_epi8(b);
}
#endif

/* The first blank in [q, end), or end. */
static inline const unsigned char *gh_next_blank(const unsigned char *q,
						 const unsigned char *end)
{
#if defined(__SSE2__)
	while (end - q >= 16) {
		unsigned m = gh_blank_mask16(q);

		if (m)
			return q + __builtin_ctz(m);
		q += 16;
	}
#endif
	while (q < end && !gh_is_blank(*q))
		q++;
	return q;
}

/* The field'th (from 1) field of line [p, end): true with [*from, *to),
 * or false where the line has fewer. */
static inline bool gh_blank_field(const unsigned char *p,
				  const unsigned char *end, int field,
				  const unsigned char **from,
				  const unsigned char **to)
{
	const unsigned char *q = p;
	unsigned after_blank = 1;       /* the line's start counts as one */
	int left = field;

#if defined(__SSE2__)
	while (end - q >= 16) {
		unsigned blank = gh_blank_mask16(q);
		unsigned starts = ~blank & 0xffffu &
				  ((blank << 1) | after_blank);
		int n = gh_popcount16(starts);

		if (n >= left) {
			while (--left)
				starts &= starts - 1;
			*from = q + __builtin_ctz(starts);
			*to = gh_next_blank(*from, end);
			return true;
		}
		left -= n;
		after_blank = blank >> 15;
		q += 16;
	}
#endif
	for (; q < end; q++) {
		bool blank = gh_is_blank(*q);

		if (!blank && after_blank && !--left) {
			*from = q;
			*to = gh_next_blank(q, end);
			return true;
		}
		after_blank = blank;
	}
	return false;
}

/* The field'th field of line [p, end) as the tokens' field view splits
 * it: by runs of blanks (separator < 0), or at each separator byte, as
 * cut -d; false where the line has fewer. */
static inline bool gh_line_field(const unsigned char *p,
				 const unsigned char *end, int field,
				 int separator, const unsigned char **from,
				 const unsigned char **to)
{
	const unsigned char *q = p;

	if (separator < 0)
		return gh_blank_field(p, end, field, from, to);
	for (int k = 1;; k++) {
		const unsigned char *s = memchr(q, separator,
						(size_t)(end - q));

		if (k == field) {
			*from = q;
			*to = s ? s : end;
			return true;
		}
		if (!s)
			return false;
		q = s + 1;
	}
}

#endif
