/* bigmem.c - the tokens' large arrays in huge pages (bigmem.h) */
#define _GNU_SOURCE 1           /* mremap */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "bigmem.h"

/* ThreadSanitizer does not follow mremap: the shadow of what a moved
 * array held stays at its old addresses, and whatever is mapped there
 * next seems to race with it.  Under it, arrays are grown by a copy. */
#if defined(__SANITIZE_THREAD__)         /* GCC */
#define UNDER_TSAN 1
#elif defined(__has_feature)            /* Clang */
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#if defined(MREMAP_MAYMOVE) && !defined(UNDER_TSAN)
#define MOVE_BY_MREMAP 1
#endif

/* Below this, malloc's; from HUGE on, huge pages where there are any. */
#define SMALL ((size_t)64 << 10)
#define HUGE ((size_t)2 << 20)
#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

/* The machine's, the same for every caller: looked up once (look()),
 * read only after. */
static struct {
	pthread_once_t looked;
	bool huge_pages;        /* the kernel gives them to a range asking */
	size_t page;            /* its page size */
} sys = { PTHREAD_ONCE_INIT, false, 4096 };

/* Whether the kernel gives huge pages to a range that asks for them (its
 * setting is "always" or "madvise", not "never"), and its page size. */
static void look(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128];
	long sz = sysconf(_SC_PAGESIZE);

	if (sz > 0)
		sys.page = (size_t)sz;
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		sys.huge_pages = !strstr(line, "[never]");
	fclose(f);
#ifndef MADV_HUGEPAGE
	sys.huge_pages = false;
#endif
}

/* bytes rounded up to whole pages. */
static size_t whole_pages(size_t bytes)
{
	return (bytes + sys.page - 1) & ~(sys.page - 1);
}

/* Whether the kernel likely has huge pages free for `bytes` more, without
 * reclaiming or compacting memory for each (what a machine whose page
 * cache fills its memory, a log server's, would do at every fault: on the
 * VM, 1.3-1.8x the system time of small pages; bench/NOTES.md, "Session
 * 25"): an eighth of the memory free, and 16 times the array. */
static bool roomy(size_t bytes)
{
	struct sysinfo si;
	uint64_t free_bytes;

	if (sysinfo(&si))
		return false;
	free_bytes = (uint64_t)si.freeram * si.mem_unit;
	return free_bytes >= (uint64_t)si.totalram * si.mem_unit / 8 &&
	       free_bytes / 16 >= bytes;
}

/* Whether an array of bytes is to ask for huge pages: one rule for a new
 * mapping and a grown one. */
static bool want_huge(size_t bytes)
{
	pthread_once(&sys.looked, look);
	return bytes >= HUGE && sys.huge_pages && roomy(bytes);
}

/* A mapping of bytes (whole pages), aligned to HUGE and marked for huge
 * pages where it is that large and they are given. */
static void *map(size_t bytes, bool populate)
{
	bool huge = want_huge(bytes);
	unsigned char *p;

	bytes = whole_pages(bytes);
	p = mmap(NULL, huge ? bytes + HUGE : bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS |
			 (populate && !huge ? MAP_POPULATE : 0),
		 -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!huge)
		return p;
#ifdef MADV_HUGEPAGE
	/* Its first HUGE-aligned byte on; what is before and after goes. */
	size_t head = (HUGE - (uintptr_t)p % HUGE) % HUGE;

	if (head)
		munmap(p, head);
	if (HUGE - head)
		munmap(p + head + bytes, HUGE - head);
	p += head;
	(void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

void *gh_big_alloc(size_t bytes, bool populate)
{
	return bytes < SMALL ? calloc(1, bytes ? bytes : 1)
			     : map(bytes, populate);
}

void gh_big_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (bytes < SMALL)
		free(p);
	else
		munmap(p, whole_pages(bytes));
}

void *gh_big_grow(void *p, size_t old, size_t bytes, size_t keep)
{
	void *q;

	if (!p)
		old = 0;
	if (old < SMALL && bytes < SMALL)
		return realloc(p, bytes ? bytes : 1);
#ifdef MOVE_BY_MREMAP
	if (old >= SMALL && bytes >= SMALL) {
		/* Its pages moved, not copied: Linux 6.x places a length of
		 * whole huge pages on a huge page's boundary, keeping them
		 * (an older kernel may split them: slower, not wrong). */
		q = mremap(p, whole_pages(old), whole_pages(bytes),
			   MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			return NULL;
#ifdef MADV_HUGEPAGE
		/* Its mapping's mark, as a new one's would be now. */
		if (bytes >= HUGE && sys.huge_pages)
			(void)madvise(q, bytes, want_huge(bytes)
						? MADV_HUGEPAGE
						: MADV_NOHUGEPAGE);
#endif
		return q;
	}
#endif
	q = gh_big_alloc(bytes, false);
	if (!q)
		return NULL;
	if (keep)
		memcpy(q, p, keep);
	gh_big_free(p, old);
	return q;
}
