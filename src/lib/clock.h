/* clock.h - the library's clock: monotonic seconds */
#ifndef GH_CLOCK_H
#define GH_CLOCK_H

/* Seconds on CLOCK_MONOTONIC. */
double gh_now(void);

#endif
