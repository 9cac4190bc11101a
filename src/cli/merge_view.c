/* merge_view.c - the view a json result was written in, for --merge
 *
 * A tokens view's result names its view in each entry ("view": "field",
 * "field": 9, "separator": 58); a histogram's names none.  --merge with no
 * view of its own merges in the view its first result was written in, as
 * a user who wrote -f json with --field=9 would expect, instead of
 * reading it as a histogram and refusing it for want of one.  The view
 * keys come right after an entry's name, so the first 64 KiB hold them;
 * a key inside a string cannot match (its quotes are escaped there).
 * The values view's result (--values) gives its precision too, as
 * "sub_buckets".  A result of --per beside a bytes view names it
 * ("view": "bytes", "classes" or "letters"; the letters' width and case
 * are not kept: -w 4, as with no view, unless given); its histograms are
 * merged.  So is one of -m ("view": "chars": its code points; -i and -c
 * not kept).  The library's readers (gpuhist_merge_json) still check every
 * entry against the view taken here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge_view.h"

#define HEAD_BYTES (64 << 10)
#define VIEW_VALUES (-1)        /* --values: a field's numbers */
#define VIEW_FIELDS (-2)        /* --field=1,9: a key of several */
#define VIEW_BYTES_PER (-3)     /* --per beside -b, -c or -w */
#define VIEW_CHARS_PER (-4)     /* --per beside -m */

/* The number after `key` (as "key": N) in s, or -1. */
static long number_after(const char *s, const char *key)
{
	const char *at = strstr(s, key);
	char *end;
	long v;

	if (!at)
		return -1;
	at += strlen(key);
	errno = 0;
	v = strtol(at, &end, 10);
	return end == at || errno || v < 0 || v > 0x7fffffff ? -1 : v;
}

/* A key's fields and separator (as "fields": [1, 9]) after view, the
 * view's own keys before its entry's "bytes_read", into opts; false
 * where they are not a key's. */
static bool fields_after(const char *view, struct gh_options *opts)
{
	const char *end = strstr(view, "\"bytes_read\""), *at;
	long sep;
	int n = 0;

	at = strstr(view, "\"fields\": [");
	if (!at || (end && at > end))
		return false;
	at += strlen("\"fields\": [");
	for (;;) {
		char *next;
		long v;

		errno = 0;
		v = strtol(at, &next, 10);
		if (next == at || errno || v < 1 || v > 0x7fffffff ||
		    n == GPUHIST_FIELDS_MAX)
			return false;
		opts->lib.fields[n++] = (int)v;
		if (*next == ']')
			break;
		if (strncmp(next, ", ", 2))
			return false;
		at = next + 2;
	}
	sep = number_after(view, "\"separator\": ");
	if (end && sep >= 0 && strstr(view, "\"separator\": ") > end)
		sep = -1;       /* not this entry's */
	if (n < 2 || sep > 255)
		return false;
	opts->lib.n_fields = n;
	opts->lib.field = opts->lib.fields[0];
	opts->lib.separator = sep < 0 ? -1 : (int)sep;
	return true;
}

/* The string member name ("key": ".level", no escapes but \" and \\)
 * after view, into out (len bytes); false where there is none. */
static bool string_after(const char *view, const char *name, char *out,
			 size_t len)
{
	char member[32];
	const char *at;
	size_t n = 0;

	snprintf(member, sizeof(member), "\"%s\": \"", name);
	at = strstr(view, member);
	if (!at)
		return false;
	for (at += strlen(member); *at != '"'; at++) {
		if (!*at || n + 1 >= len)
			return false;
		if (*at == '\\') {
			at++;
			if (*at != '"' && *at != '\\')
				return false;
		}
		out[n++] = *at;
	}
	out[n] = '\0';
	return true;
}

/* The key view's path after view, into opts (kept for the run); false
 * where there is none. */
static bool key_after(const char *view, struct gh_options *opts)
{
	static char path[4096];

	if (!string_after(view, "key", path, sizeof(path)))
		return false;
	opts->lib.key = path;
	return true;
}

/* --per's time key and format after view (head cut at the entry's
 * bytes_read), into opts (kept for the run). */
static void time_after(const char *view, struct gh_options *opts)
{
	static char key[4096], format[256];

	if (string_after(view, "time_key", key, sizeof(key)))
		opts->lib.time_key = key;
	if (string_after(view, "time_format", format, sizeof(format)))
		opts->lib.time_format = format;
}

void gh_merge_view_adopt(struct gh_options *opts)
{
	static const struct { const char *key; int view; } views[] = {
		{ "\"view\": \"words\"", GPUHIST_TOKENS_WORDS },
		{ "\"view\": \"lines\"", GPUHIST_TOKENS_LINES },
		{ "\"view\": \"field\"", GPUHIST_TOKENS_FIELD },
		{ "\"view\": \"values\"", VIEW_VALUES },
		{ "\"view\": \"fields\"", VIEW_FIELDS },
		{ "\"view\": \"key\"", GPUHIST_TOKENS_KEY },
		{ "\"view\": \"per\"", GPUHIST_TOKENS_PER },
		{ "\"view\": \"bytes\"", VIEW_BYTES_PER },
		{ "\"view\": \"classes\"", VIEW_BYTES_PER },
		{ "\"view\": \"letters\"", VIEW_BYTES_PER },
		{ "\"view\": \"chars\"", VIEW_CHARS_PER },
	};
	char *head;
	ssize_t got = 0, n;
	int fd;

	/* Only where the command names no view of its own, and the first
	 * result can be read twice (not a pipe). */
	if (!opts->merge || opts->lib.tokens || opts->chars || opts->stats ||
	    opts->view != GH_VIEW_LETTERS || opts->files0_from ||
	    !strcmp(opts->operands[0], "-"))
		return;
	fd = open(opts->operands[0], O_RDONLY);
	if (fd < 0)
		return;                 /* the merge says why */
	head = malloc(HEAD_BYTES + 1);
	while (head && got < HEAD_BYTES &&
	       (n = read(fd, head + got, HEAD_BYTES - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += n;
	}
	close(fd);
	if (!head)
		return;
	head[got] = '\0';
	const char *first = NULL;
	int view = 0;

	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		const char *at = strstr(head, views[i].key);

		if (at && (!first || at < first)) {
			first = at;
			view = views[i].view;
		}
	}
	long sub_buckets = view == VIEW_VALUES
			   ? number_after(first, "\"sub_buckets\": ") : 0;

	bool values_of_key = false;

	if (view == VIEW_VALUES) {
		/* --values=.ms: a key's, not a field's */
		const char *end = strstr(first, "\"bytes_read\""),
			   *key = strstr(first, "\"key\": ");

		values_of_key = key && (!end || key < end) &&
				key_after(first, opts);
	}
	if ((view == GPUHIST_TOKENS_FIELD || view == VIEW_VALUES) &&
	    !values_of_key) {
		/* Its own keys, before the entry's next one. */
		const char *end = strstr(first, "\"bytes_read\"");
		long field, sep;

		if (end)
			head[end - head] = '\0';
		field = number_after(first, "\"field\": ");
		sep = number_after(first, "\"separator\": ");
		if (field < 1 || sep > 255)
			view = 0;       /* not ours: read as it is, and refused */
		else {
			opts->lib.field = (int)field;
			opts->lib.separator = sep < 0 ? -1 : (int)sep;
		}
	}
	if (view == VIEW_FIELDS)
		view = fields_after(first, opts) ? GPUHIST_TOKENS_FIELD : 0;
	if (view == GPUHIST_TOKENS_KEY)
		view = key_after(first, opts) ? GPUHIST_TOKENS_KEY : 0;
	if (view == GPUHIST_TOKENS_PER) {
		/* Its interval, time field and separator, before the
		 * entry's next keys. */
		const char *end = strstr(first, "\"bytes_read\"");
		long per, tf, sep;

		if (end)
			head[end - head] = '\0';
		per = number_after(first, "\"per\": ");
		tf = number_after(first, "\"time_field\": ");
		sep = number_after(first, "\"separator\": ");
		if (per < 1 || sep > 255)
			view = 0;
		else {
			opts->lib.per = per;
			opts->lib.time_field = tf < 0 ? 0 : (int)tf;
			opts->lib.separator = sep < 0 ? -1 : (int)sep;
			time_after(first, opts);
		}
	}
	if (view == VIEW_BYTES_PER) {
		/* The view its bins were folded into, and its interval. */
		if (!strncmp(first, "\"view\": \"bytes\"", 15))
			opts->view = GH_VIEW_BYTES;
		else if (!strncmp(first, "\"view\": \"classes\"", 17))
			opts->view = GH_VIEW_CLASSES;
		opts->bytes_per = true;
		opts->lib.tokens_only = 1;
	}
	if (view == VIEW_CHARS_PER) {
		/* -m's code points (-i and -c are not kept: give them) */
		opts->chars = opts->chars_per = true;
		opts->view = GH_VIEW_BYTES;
		if (!opts->sort_set && opts->format == GH_FMT_TABLE)
			opts->sort = GH_SORT_COUNT;
		opts->lib.tokens_only = 1;
	}
	if (view && view != GPUHIST_TOKENS_PER) {
		/* Another view grouped by interval (--per beside it): its
		 * interval and time field, before the entry's next keys
		 * (its rows, where a bytes view's or -m's come after its
		 * bytes_read). */
		const char *end = strstr(first, view == VIEW_BYTES_PER ||
						view == VIEW_CHARS_PER
						? "\"bins\"" : "\"bytes_read\"");
		long per, tf, sep;

		if (end)
			head[end - head] = '\0';
		per = number_after(first, "\"per\": ");
		tf = number_after(first, "\"time_field\": ");
		sep = number_after(first, "\"separator\": ");
		if (per < 1 && (view == VIEW_BYTES_PER ||
				view == VIEW_CHARS_PER)) {
			opts->view = GH_VIEW_LETTERS;   /* not ours: refused */
			opts->bytes_per = opts->chars_per = false;
			opts->chars = false;
			opts->lib.tokens_only = 0;
			view = 0;
		} else if (per >= 1) {
			opts->lib.per = per;
			opts->lib.time_field = tf < 0 ? 0 : (int)tf;
			if (sep >= 0 && sep <= 255)
				opts->lib.separator = (int)sep;
			time_after(first, opts);
		}
	}
	if (view == VIEW_VALUES) {
		/* Its precision too, which its buckets were made at. */
		opts->values = true;
		gh_options_values_defaults(opts);
		if (sub_buckets > 0)
			opts->precision = 100.0 / (double)sub_buckets;
		view = values_of_key ? GPUHIST_TOKENS_KEY
				     : GPUHIST_TOKENS_FIELD;
	}
	if (view == VIEW_BYTES_PER || view == VIEW_CHARS_PER) {
		opts->lib.tokens = view == VIEW_BYTES_PER
				   ? GPUHIST_TOKENS_BYTES
				   : GPUHIST_TOKENS_CHARS;
		free(head);
		return;
	}
	opts->lib.tokens = view;
	if (view)
		gh_options_tokens_defaults(opts);
	free(head);
}
