/* clock.c - the library's clock: monotonic seconds */
#include "config.h"

#include <time.h>

#include "clock.h"

double gh_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
