/* chars.h - code-point totals: what the library adds besides gpuhist.h's */
#ifndef GH_CHARS_H
#define GH_CHARS_H

#include "gpuhist.h"

/* Adds from into to, taking from's pages where to has none, and leaves
 * from empty: GPUHIST_OK, or what gpuhist_chars_add returned. */
int gh_chars_absorb(struct gpuhist_chars *to, struct gpuhist_chars *from);

/* The UTF-8 bytes of code point cp (at most U+10FFFF) into out; how
 * many. */
int gh_chars_encode(uint32_t cp, unsigned char out[4]);

#endif
