/* bigmem.h - the tokens' large arrays (tables' slots and keys, the listed
 * result) in huge pages where the kernel gives them
 *
 * Counting 18.7 M distinct tokens fills some 3 GB of arrays that double
 * as they fill; in 4 KiB pages the kernel's work of handing them out
 * (faults, its accounting) and taking them back was most of a 16-thread
 * run's time (bench/NOTES.md, "Session 25").  Arrays of 2 MiB and more
 * are mapped on their own, aligned to 2 MiB and marked for transparent
 * huge pages, faulted in as they are first written, where the kernel
 * gives huge pages and an eighth of the memory is free; otherwise (or
 * from 64 KiB) in small pages, faulted in at once when the caller asks
 * (random writes), else as written.  Smaller ones come from malloc.
 * The caller keeps each array's size: it says which way it was made.
 */
#ifndef GH_BIGMEM_H
#define GH_BIGMEM_H

#include <stdbool.h>
#include <stddef.h>

/* bytes of zeroes, or NULL when out of memory.  populate: the array will
 * be written at random (a hash table's slots), so that without huge
 * pages its pages are faulted in at once, not one a write. */
void *gh_big_alloc(size_t bytes, bool populate);

/* Lets go of an array of gh_big_alloc's (p may be NULL). */
void gh_big_free(void *p, size_t bytes);

/* An array of `bytes` holding the first `keep` bytes of p (an array of
 * `old` bytes, or NULL with old 0; keep no more than old or bytes), which
 * is let go; NULL when out of memory, p then kept.  Mapped arrays are
 * moved by the kernel (mremap), not copied; the bytes past keep are not
 * zeroed. */
void *gh_big_grow(void *p, size_t old, size_t bytes, size_t keep);

#endif
