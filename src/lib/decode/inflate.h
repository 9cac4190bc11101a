/* inflate.h - one gzip member at a time, by ISA-L or zlib, behind one face */
#ifndef GH_INFLATE_H
#define GH_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

enum gh_inflate_status {
	GH_INFLATE_MORE,        /* wants more input or more room */
	GH_INFLATE_MEMBER_END,  /* a member ended, its CRC and length checked */
	GH_INFLATE_ERROR,
};

struct gh_inflater {
	const char *name;       /* "isa-l" or "zlib", for -v */
	/*
	 * Decodes from *in (*in_len bytes) into *out (*out_len bytes of room),
	 * advancing both.  After GH_INFLATE_MEMBER_END, *in points just past
	 * the member (an engine that read ahead gives those bytes back, which
	 * the caller keeps in memory: up to GH_INFLATE_READ_AHEAD of them).
	 */
	enum gh_inflate_status (*step)(struct gh_inflater *inf,
				       const unsigned char **in, size_t *in_len,
				       unsigned char **out, size_t *out_len,
				       const char **why);
	int (*reset)(struct gh_inflater *inf);      /* for the next member */
	void (*free)(struct gh_inflater *inf);
};

/* Most bytes one call hands an engine (its counts are 32-bit). */
#define GH_INFLATE_STEP_MAX (1u << 30)

/* Bytes of consumed input an engine may hand back at a member's end. */
#define GH_INFLATE_READ_AHEAD 16

/* ISA-L when gpuhist was built with it, unless GPUHIST_INFLATE=zlib;
 * else zlib.  NULL when out of memory. */
struct gh_inflater *gh_inflater_new(void);

struct gh_inflater *gh_inflater_zlib_new(void);
struct gh_inflater *gh_inflater_isal_new(void);

#endif
