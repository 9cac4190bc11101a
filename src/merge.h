/* merge.h - reading the 256 totals back from a -f json result (--merge) */
#ifndef GH_MERGE_H
#define GH_MERGE_H

#include <stdint.h>

/* Reads NAME ("-" is stdin), a document gpuhist -f json wrote, into the
 * 256 totals of its "total" entry.  On failure prints "gpuhist: NAME:
 * reason" and returns -1. */
int gh_merge_read(const char *name, uint64_t totals[256]);

#endif
