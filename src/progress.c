/* progress.c - the progress meter on stderr and the run's clock
 *
 * Drawn on one line with \r, at most four times a second, and only once a
 * run has lasted a second (--progress draws from the start), so short runs
 * and pipes into files never see it.  One thread draws it; messages from
 * any thread clear it first, under the stderr lock (msg.c).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "progress.h"

/* The meter on screen, cleared before any message is printed. */
static struct gh_progress *active_meter;

/* Clears the line; the caller holds the stderr lock. */
static void clear_line(struct gh_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

static void clear_active(void)
{
	if (active_meter)
		clear_line(active_meter);
}

double gh_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gh_progress_init(struct gh_progress *p, const struct gh_options *opts)
{
	p->on = opts->progress == GH_PROGRESS_ON ||
		(opts->progress == GH_PROGRESS_AUTO && isatty(STDERR_FILENO));
	p->shown = false;
	p->start = p->last = gh_now();
	p->in_name = NULL;
	p->delay = opts->progress == GH_PROGRESS_ON ? 0.0 : 1.0;
	if (p->on) {
		active_meter = p;
		gh_msg_set_before(clear_active);
	}
}

void gh_progress_update(struct gh_progress *p, const char *name,
			uint64_t done, uint64_t in_done, uint64_t in_size)
{
	double now, elapsed, rate;

	if (!p->on)
		return;
	now = gh_now();
	if (name != p->in_name) {
		p->in_name = name;
		p->in_start = now;
	}
	elapsed = now - p->start;
	if (elapsed < p->delay || (p->shown && now - p->last < 0.25))
		return;
	p->last = now;
	rate = elapsed > 0 ? (double)done / elapsed : 0.0;
	gh_stderr_lock();
	fprintf(stderr, "\rgpuhist: %s: %.1f MB, %.2f GB/s", name,
		(double)done / 1e6, rate / 1e9);
	if (in_size && in_done <= in_size) {
		double frac = (double)in_done / (double)in_size;
		/* Time left: this input's pace so far over what it has left. */
		double left = frac > 0 ? (now - p->in_start) * (1 - frac) / frac
				       : 0;

		fprintf(stderr, ", %.0f%%, %d:%02d left", 100.0 * frac,
			(int)left / 60, (int)left % 60);
	}
	fputs("\033[K", stderr);
	p->shown = true;
	gh_stderr_unlock();
}

void gh_progress_clear(struct gh_progress *p)
{
	gh_stderr_lock();
	clear_line(p);
	gh_stderr_unlock();
}
