/* group_sort.h - tokens grouped by interval (--per beside another view:
 * "2026-11-27T10:00:00Z\ttoken"), sorted interval by interval
 * (group_sort.c) */
#ifndef GH_GROUP_SORT_H
#define GH_GROUP_SORT_H

#include <stddef.h>

#include "gpuhist.h"

/* A token's interval: the bytes before its first tab (a label never
 * holds one), how many. */
size_t gh_group_len(const struct gpuhist_token *t);

enum gh_group_order {
	GH_GROUP_COUNT,     /* each interval's most frequent first, equal
			     * counts in byte order */
	GH_GROUP_ONLY,      /* each interval's in no order */
};

/* Sorts n tokens interval by interval in time order ("(no time)"
 * first: labels sort as their times do), each interval's in `order`;
 * 0, or -1 when out of memory. */
int gh_group_sort(struct gpuhist_token *t, size_t n,
		  enum gh_group_order order);

#endif
