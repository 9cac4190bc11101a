/* follow.h - --follow: a growing file counted as it grows */
#ifndef GH_FOLLOW_H
#define GH_FOLLOW_H

#include "run.h"

/* Reads run->opts' one operand as tail -F does, printing the totals so far
 * every --interval and once more at the end (SIGINT, SIGTERM, or the end
 * of standard input); how many inputs failed (0 or 1), or -1 after saying
 * why when nothing could be counted. */
int gh_follow(struct gh_run *run);

#endif
