/* gh_utf8.h - the one UTF-8 rule every code-point counter follows, on the
 * host and on the device
 *
 * A position of the decoded bytes counts one character or nothing:
 *  - a byte below 0x80 counts itself;
 *  - a byte that can begin a sequence (not 0x80..0xbf) counts the code
 *    point when a well-formed sequence begins there (Unicode's Table 3-7:
 *    no overlong form, no surrogate, nothing past U+10FFFF), else itself
 *    as an invalid byte;
 *  - a continuation byte (0x80..0xbf) counts nothing when a well-formed
 *    sequence that began one to three bytes before covers it, else itself
 *    as an invalid byte.
 * That is exactly what a decoder going left to right finds (Python's
 * decode('utf-8', 'surrogateescape'): an ill-formed sequence becomes one
 * escape a byte), and what a position counts depends only on the three
 * bytes on either side of it, so a chunk is counted on its own given three
 * bytes of context at each end (seams.c joins chunks).
 */
#ifndef GH_UTF8_H
#define GH_UTF8_H

#include <stdint.h>

#ifdef __CUDACC__
#define GH_HD __host__ __device__ __forceinline__
#else
#define GH_HD inline
#endif

/* Bytes of context a position needs on either side. */
#define GH_UTF8_REACH 3
/* The bin of the invalid byte b (0x80..0xff): after every code point. */
#define GH_UTF8_INVALID(b) (0x110000u + (uint32_t)(b) - 0x80u)

static GH_HD int gh_utf8_continuation(unsigned b)
{
	return (b & 0xc0) == 0x80;
}

/*
 * The length (2..4) of the well-formed sequence at p[0..avail), p[0] at
 * least 0x80, with its code point in *cp; 0 when there is none (also when
 * avail ends it early).
 */
static GH_HD int gh_utf8_sequence(const unsigned char *p, uint64_t avail,
				  uint32_t *cp)
{
	unsigned b0 = p[0], b1, lo = 0x80, hi = 0xbf;

	if (b0 < 0xc2 || b0 > 0xf4 || avail < 2)
		return 0;
	b1 = p[1];
	if (b0 < 0xe0) {
		if (!gh_utf8_continuation(b1))
			return 0;
		*cp = (b0 & 0x1fu) << 6 | (b1 & 0x3fu);
		return 2;
	}
	if (b0 == 0xe0)
		lo = 0xa0;              /* overlong below U+0800 */
	else if (b0 == 0xed)
		hi = 0x9f;              /* surrogates */
	else if (b0 == 0xf0)
		lo = 0x90;              /* overlong below U+10000 */
	else if (b0 == 0xf4)
		hi = 0x8f;              /* past U+10FFFF */
	if (b1 < lo || b1 > hi || avail < 3 || !gh_utf8_continuation(p[2]))
		return 0;
	if (b0 < 0xf0) {
		*cp = (b0 & 0x0fu) << 12 | (b1 & 0x3fu) << 6 | (p[2] & 0x3fu);
		return 3;
	}
	if (avail < 4 || !gh_utf8_continuation(p[3]))
		return 0;
	*cp = (b0 & 0x07u) << 18 | (b1 & 0x3fu) << 12 | (p[2] & 0x3fu) << 6 |
	      (p[3] & 0x3fu);
	return 4;
}

/*
 * Where decoding resumes at or after position p of buf[0..n), p < n: p
 * itself, unless p is a continuation byte covered by a well-formed
 * sequence that began before it (among the bytes buf holds), whose end is
 * returned then.
 */
static GH_HD uint64_t gh_utf8_resume(const unsigned char *buf, uint64_t n,
				     uint64_t p)
{
	uint32_t cp;

	if (!gh_utf8_continuation(buf[p]))
		return p;
	for (unsigned k = 1; k <= GH_UTF8_REACH && k <= p; k++) {
		uint64_t q = p - k;

		if (gh_utf8_continuation(buf[q]))
			continue;
		/* The nearest byte that can begin one: nothing before it
		 * reaches past it. */
		int len = gh_utf8_sequence(buf + q, n - q, &cp);

		return len > (int)k ? q + (uint64_t)len : p;
	}
	return p;
}

/*
 * The bin the character at p of buf[0..n) counts into, stepping *p past
 * it: a code point, or GH_UTF8_INVALID(byte).  p must be where decoding
 * resumes (gh_utf8_resume).
 */
static GH_HD uint32_t gh_utf8_next(const unsigned char *buf, uint64_t n,
				   uint64_t *p)
{
	unsigned b = buf[*p];
	uint32_t cp;
	int len;

	if (b < 0x80) {
		*p += 1;
		return b;
	}
	len = gh_utf8_sequence(buf + *p, n - *p, &cp);
	if (!len) {
		*p += 1;
		return GH_UTF8_INVALID(b);
	}
	*p += (uint64_t)len;
	return cp;
}

#endif
