/* deflate_switch.h - the marked decoder, handing known stretches to ISA-L
 *
 * gh_switch_run() is gh_dm_run() for the parallel gzip decoder: the same
 * statuses and the same output, but the blocks after the window's markers
 * have died out are decoded by ISA-L (deflate_switch.c).  Without ISA-L,
 * or with GPUHIST_INFLATE=zlib, it is gh_dm_run().
 */
#ifndef GH_DEFLATE_SWITCH_H
#define GH_DEFLATE_SWITCH_H

#include <stdbool.h>
#include <stdint.h>

#include "deflate_marked.h"

struct gh_blocks;

struct gh_switch {
	struct gh_blocks *blocks;       /* ISA-L's state; NULL: none */
	unsigned char *stage;           /* ISA-L's output before widening */
	uint64_t scanned;               /* out[] looked at for markers ... */
	uint64_t clean_from;            /* ... and none from here on */
	uint64_t isal_bytes;            /* decoded by ISA-L, for -v */
};

int gh_switch_init(struct gh_switch *sw);       /* -1: out of memory */
void gh_switch_free(struct gh_switch *sw);

/* After gh_dm_start(): whether out[0..GH_WINDOW) holds bytes (the window
 * known) or markers. */
void gh_switch_started(struct gh_switch *sw, bool window_known);

/* After a flush, once out[0..GH_WINDOW) holds the resolved window. */
void gh_switch_flushed(struct gh_switch *sw);

enum gh_dm_status gh_switch_run(struct gh_switch *sw, struct gh_dm *dm);

#endif
