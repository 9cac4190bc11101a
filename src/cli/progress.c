/* progress.c - the progress meter on stderr
 *
 * On a terminal the meter is one line redrawn with \r, at most four times
 * a second, and only once a run has lasted a second (--progress draws from
 * the start), so short runs never see it.  The line is fitted to the
 * terminal's width, asked for at every draw so a resized window is
 * followed: figures are dropped and the input's name is shortened from
 * the left ("...end-of-name"), because a line that wraps cannot be
 * redrawn by \r and leaves its first part behind each time.
 *
 * Anywhere else (--progress into a file or a pipe) it writes plain lines
 * instead, as pv -n does: one a second at most and one as each input
 * ends, with no control characters, each ending in a newline.
 *
 * It shows the input being reported with that input's own bytes; with
 * several inputs, the run's bytes and rate follow as a labelled total.
 * Rates under 1 GB/s are shown in MB/s.  The time left is the input's pace
 * since the meter first heard of it, over what it has left: not shown
 * until that pace is known (the first report of an input may come when a
 * part of it is read already).  Figures are dropped whole, never cut.
 * One thread draws it; messages from any thread clear it first, under the
 * stderr lock (msg.c), which also guards `shown`.  Its times are the
 * library's: seconds since the counter was opened.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "msg.h"
#include "progress.h"

/* The longest line drawn (a name of up to PATH_MAX and the figures), and
 * the least of a name kept on a terminal before figures are dropped. */
#define GH_METER_FIGURE 64
#define GH_METER_NAME_MAX 4096
#define GH_METER_TAIL (FIG_N * GH_METER_FIGURE)
#define GH_METER_LINE (GH_METER_NAME_MAX + GH_METER_TAIL + 16)
#define GH_METER_NAME_MIN 16

/* The figures after the name; dropped in fig_drop_order to fit. */
enum { FIG_BYTES, FIG_RATE, FIG_PERCENT, FIG_LEFT, FIG_TOTAL, FIG_N };
static const int fig_drop_order[] = { FIG_LEFT, FIG_TOTAL, FIG_PERCENT,
				      FIG_RATE };

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

/* The terminal's width: its window size, else COLUMNS, else 80. */
static int terminal_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	long cols;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env) {
		char *end;

		cols = strtol(env, &end, 10);
		if (end != env && !*end && cols > 0 && cols < 100000)
			return (int)cols;
	}
	return 80;
}

/* Copies name into out (room for len + 1 bytes) with its control
 * characters as '?', so they cannot move the cursor or end the line; when
 * it is longer than len, its end is kept after "...". */
static void put_name(char *out, size_t len, const char *name)
{
	size_t n = strlen(name);
	size_t i = 0;

	if (n > len) {
		if (len < 4) {
			memset(out, '.', len);
			out[len] = '\0';
			return;
		}
		memcpy(out, "...", 3);
		out += 3;
		name += n - (len - 3);
		/* Start on a character, not inside a UTF-8 sequence. */
		while ((*name & 0xc0) == 0x80)
			name++;
	}
	for (; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];

		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[i] = '\0';
}

/* A rate as ", 2.35 GB/s", or under 1 GB/s ", 214 MB/s" / ", 3.4 MB/s",
 * after `lead`. */
static void put_rate(char *out, size_t len, const char *lead, double rate)
{
	if (rate >= 1e9)
		snprintf(out, len, "%s%.2f GB/s", lead, rate / 1e9);
	else if (rate >= 10e6)
		snprintf(out, len, "%s%.0f MB/s", lead, rate / 1e6);
	else
		snprintf(out, len, "%s%.1f MB/s", lead, rate / 1e6);
}

/* Joins the figures still kept into tail (GH_METER_TAIL bytes). */
static size_t join_figures(char *tail, char figs[FIG_N][GH_METER_FIGURE],
			   const bool kept[FIG_N])
{
	size_t len = 0;

	tail[0] = '\0';
	for (int f = 0; f < FIG_N; f++) {
		if (!kept[f] || !figs[f][0])
			continue;
		len += (size_t)snprintf(tail + len, GH_METER_TAIL - len, "%s",
					figs[f]);
	}
	return len;
}

/* Writes the meter's line for `at` into line (GH_METER_LINE bytes), in
 * at most `room` bytes when room > 0. */
static void compose(struct gh_progress *p, const struct gpuhist_progress *at,
		    double now, size_t room, char *line)
{
	static const char prefix[] = GH_PROGNAME ": ";
	char figs[FIG_N][GH_METER_FIGURE] = { { 0 } }, tail[GH_METER_TAIL];
	char name[GH_METER_NAME_MAX + 1];
	bool kept[FIG_N] = { true, true, true, true, true };
	double elapsed = now - p->start;
	double rate = elapsed > 0 ? (double)at->all_counted / elapsed : 0.0;
	size_t tail_len, name_len = strlen(at->name), fixed;

	snprintf(figs[FIG_BYTES], sizeof(figs[0]), ": %.1f MB",
		 (double)at->counted / 1e6);
	if (!p->several)
		put_rate(figs[FIG_RATE], sizeof(figs[0]), ", ", rate);
	if (at->size && at->read <= at->size) {
		double frac = (double)at->read / (double)at->size;
		double paced = now - p->in_start;
		/* (A decoder that starts an input again reads it anew.) */
		uint64_t gained = at->read > p->in_read
				  ? at->read - p->in_read : 0;

		snprintf(figs[FIG_PERCENT], sizeof(figs[0]), ", %.0f%%",
			 100.0 * frac);
		/* Time left: this input's pace since the meter first heard
		 * of it over what it has left; unknown before that pace is. */
		if (at->read == at->size || (gained && paced > 0)) {
			double left = at->read == at->size ? 0.0
				      : paced * (double)(at->size - at->read) /
					(double)gained;

			if (left > 6e6)
				left = 6e6;     /* 99999:59 at most */
			snprintf(figs[FIG_LEFT], sizeof(figs[0]),
				 ", %d:%02d left", (int)left / 60,
				 (int)left % 60);
		}
	}
	if (p->several) {
		char run_rate[GH_METER_FIGURE / 2];

		put_rate(run_rate, sizeof(run_rate), "", rate);
		snprintf(figs[FIG_TOTAL], sizeof(figs[0]), "; total %.1f MB, %s",
			 (double)at->all_counted / 1e6, run_rate);
	}

	tail_len = join_figures(tail, figs, kept);
	if (name_len > GH_METER_NAME_MAX)
		name_len = GH_METER_NAME_MAX;
	if (room) {
		size_t name_min = name_len < GH_METER_NAME_MIN
				  ? name_len : GH_METER_NAME_MIN;

		for (size_t d = 0; sizeof(prefix) - 1 + name_min + tail_len >
				   room && d < sizeof(fig_drop_order) /
					       sizeof(fig_drop_order[0]); d++) {
			kept[fig_drop_order[d]] = false;
			tail_len = join_figures(tail, figs, kept);
		}
		/* Too narrow even for the bytes beside "...", a letter of
		 * the name: the name alone, never half a figure. */
		if (sizeof(prefix) - 1 + 4 + tail_len > room) {
			kept[FIG_BYTES] = false;
			tail_len = join_figures(tail, figs, kept);
		}
		/* Then the name takes what is left, "..." and a letter at least. */
		fixed = sizeof(prefix) - 1 + tail_len;
		if (fixed + name_len > room)
			name_len = room > fixed + 4 ? room - fixed : 4;
	}
	put_name(name, name_len, at->name);
	snprintf(line, GH_METER_LINE, "%s%s%s", prefix, name, tail);
	/* Narrower than "gpuhist: " and four letters of a name: cut the
	 * line, which holds no figure by now. */
	if (room && strlen(line) > room)
		line[room] = '\0';
}

void gh_progress_init(struct gh_progress *p, const struct gh_options *opts)
{
	p->tty = isatty(STDERR_FILENO);
	p->on = opts->progress == GH_PROGRESS_ON ||
		(opts->progress == GH_PROGRESS_AUTO && p->tty);
	p->several = opts->n_operands > 1 || opts->files0_from;
	p->shown = false;
	p->start = 0.0;
	p->in_name = NULL;
	p->in_start = p->start;
	p->delay = opts->progress == GH_PROGRESS_ON ? 0.0 : 1.0;
	p->interval = p->tty ? 0.25 : 1.0;
	p->last = p->start - p->interval;   /* the first line is not held */
	if (p->on && p->tty) {
		active_meter = p;
		gh_msg_set_before(clear_active);
	}
}

void gh_progress_update(void *meter, const struct gpuhist_progress *at)
{
	struct gh_progress *p = meter;
	char line[GH_METER_LINE];
	double now;

	if (!p->on)
		return;
	now = at->seconds;
	if (at->name != p->in_name) {
		p->in_name = at->name;
		p->in_start = now;
		p->in_read = at->read;
	}
	if (now - p->start < p->delay)
		return;
	gh_stderr_lock();
	/* On a terminal a cleared meter is redrawn at once; lines wait. */
	if (!at->ended && now - p->last < p->interval &&
	    (p->shown || !p->tty)) {
		gh_stderr_unlock();
		return;
	}
	p->last = now;
	if (p->tty) {
		int cols = terminal_columns();

		/* The last column is left alone: some terminals wrap there. */
		compose(p, at, now, cols > 1 ? (size_t)cols - 1 : 1, line);
		fprintf(stderr, "\r%s\033[K", line);
		p->shown = true;
	} else {
		compose(p, at, now, 0, line);
		fprintf(stderr, "%s\n", line);
	}
	gh_stderr_unlock();
}

void gh_progress_clear(struct gh_progress *p)
{
	gh_stderr_lock();
	clear_line(p);
	gh_stderr_unlock();
}
