/* options.c - the command line: a table of options, each with its handler,
 * from which getopt_long's tables are made; the checks of the options
 * together; --help text; usage errors (exit 2) */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "charview.h"
#include "msg.h"
#include "options.h"

enum {
	OPT_RAW = 256, OPT_MERGE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_BACKEND,
	OPT_DEVICE, OPT_DEVICES, OPT_CHUNK_SIZE, OPT_STREAMS, OPT_THREADS,
	OPT_FILES0_FROM, OPT_TOTAL, OPT_SORT, OPT_TOP, OPT_COLUMNS,
	OPT_LINES, OPT_FIELD, OPT_MEMORY, OPT_VALUES, OPT_PRECISION,
	OPT_QUANTILES, OPT_INCLUDE, OPT_EXCLUDE_DIR, OPT_MATCH, OPT_EXCLUDE,
	OPT_MATCH_FIELD, OPT_KEY, OPT_FOLLOW, OPT_INTERVAL, OPT_PER,
	OPT_TIME_FIELD, OPT_YEAR, OPT_TIME_KEY, OPT_TIME_FORMAT,
};

void gh_options_help(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", GH_PROGNAME);
	fputs(
"Count character frequencies of text and compressed streams, on the GPU when\n"
"one is usable.  With no FILE, or when FILE is -, read standard input.  gzip,\n"
"zstd, xz, bzip2 and lz4 input (also concatenated members, frames or streams) is\n"
"recognised by its magic bytes and decoded.\n"
"\n"
"Views (what is counted into the printed bins):\n"
"  -w, --width=N          lowercase letters in buckets of N (1..26; default 4)\n"
"  -i, --ignore-case      count A..Z as a..z\n"
"  -b, --bytes            one bin per byte value 0..255\n"
"  -c, --classes          lower, upper, digit, space, punct, control, high\n"
"  -m, --chars            Unicode code points of UTF-8 text (U+0041), each byte\n"
"                         of ill-formed UTF-8 in a bin of its own (0xc3); with\n"
"                         -i case-folded, with -c by general category\n"
"      --sort=ORDER       bin (the view's order; default) or count (most\n"
"                         frequent first, ties in bin order; the default\n"
"                         of -m's table)\n"
"      --top=N            the N commonest bins, in that order, the rest\n"
"                         summed in one row named (other)\n"
"  -t, --tokens           count words instead: runs of bytes other than\n"
"                         space, tab, CR and LF (the table: the 20 commonest)\n"
"      --lines            count whole lines (without the newline)\n"
"      --field=N          count the Nth field of each line: runs of\n"
"                         non-blanks, as awk's $N, or with -F what lies\n"
"                         between separators; \"\" where a line has fewer;\n"
"                         --field=1,9: the pair (a key of up to 8 fields)\n"
"      --values=N         read the Nth field (as --field), or with --values=.ms\n"
"                         a key of JSON lines (as --key), as numbers: their\n"
"                         count, min, max, sum, mean, quantiles and\n"
"                         histogram; fields that are not numbers counted\n"
"                         as such\n"
"      --precision=P      --values: buckets at most P percent wide (default 1)\n"
"      --quantiles=LIST   --values: these percentiles (default 50,90,99,99.9)\n"
"      --key=PATH         count the value at PATH of each line read as JSON\n"
"                         (.level, .req.status), as jq -r prints it;\n"
"                         lines that are not JSON as one byte, \\xff\n"
"      --per=INTERVAL     count lines per interval of time (second, minute,\n"
"                         hour, day, week, or 5m, 2h...), each line's time\n"
"                         its first timestamp ([27/Nov/2026:10:00:00 +0000],\n"
"                         2026-11-27T10:00:00Z, or syslog's Nov 27 10:00:00);\n"
"                         beside -t, --lines, --field or --key: their\n"
"                         tokens per interval (--top: each interval's);\n"
"                         beside --values: each interval's figures;\n"
"                         beside -b, -c, -w or -m: each interval's bins\n"
"      --time-field=N     --per: the time is the Nth field (as --field; -F),\n"
"                         which may also be epoch seconds or milliseconds\n"
"      --year=Y           --per: syslog's year (default: this year)\n"
"      --time-key=PATH    --per: the time is the value at PATH of each line\n"
"                         read as JSON (.ts), a timestamp or epoch seconds\n"
"      --time-format=FMT  --per: the time read by strptime(3)'s FMT\n"
"                         ('%d/%m/%Y %H:%M:%S') from the time field, key,\n"
"                         or the line's start; UTC unless %z\n"
"  -F, --separator=C      --field's and --values' separator, one byte\n"
"                         (\\t: tab)\n"
"      --memory=SIZE      tokens held in memory before the rest is spilled\n"
"                         to disk (default: a quarter of physical memory;\n"
"                         N% of it; at least 1M)\n"
"  -T, --temporary-directory=DIR  where tokens spill (default: $TMPDIR,\n"
"                         else /tmp)\n"
"  -s, --stats            also ent's figures of the bytes: entropy, chi-square,\n"
"                         mean, Monte Carlo pi, serial correlation (tsv and\n"
"                         csv: ent -t's fields instead of the bins)\n"
"\n"
"Input and output:\n"
"  -f, --format=FMT       table (default), tsv, csv, json or ndjson\n"
"      --follow           read a growing file as tail -F does (the next one\n"
"                         when it is rotated), printing the totals so far\n"
"                         every --interval (json: as ndjson) until SIGINT\n"
"      --interval=SECS    --follow's interval (default 5)\n"
"      --columns=LIST     tsv and csv: also these columns after count, in\n"
"                         this order: label (as the table shows the bin),\n"
"                         share (of what the view counted), and the\n"
"                         input's bytes_read, counted, entropy\n"
"      --match=REGEX      count only the lines REGEX (PCRE2) matches, in every\n"
"                         view; -i ignores case\n"
"      --exclude=REGEX    count only the lines REGEX does not match\n"
"      --match-field=N    match field N of each line (as --field splits it),\n"
"                         not the whole line\n"
"      --raw              count compressed input as it is, without decoding\n"
"      --merge            FILEs are -f json results to add up\n"
"      --files0-from=F    read the FILEs from F, each ended by a NUL byte\n"
"                         (F is - : standard input)\n"
"                         A FILE that is a directory is read recursively,\n"
"                         as grep -r reads it:\n"
"      --include=GLOB     only its files whose base name matches GLOB\n"
"      --exclude-dir=GLOB not its directories whose base name matches GLOB\n"
"                         (each may be given up to 32 times)\n"
"      --total=WHEN       a total: auto (with several inputs), always,\n"
"                         only (the total alone) or never\n"
"  -v, --verbose          report backend, bytes, seconds and rate on stderr\n"
"      --progress         always show the progress meter on stderr\n"
"      --no-progress      never show it (default: on a terminal, long runs)\n"
"\n"
"Where it runs:\n"
"      --backend=WHICH    auto (default), gpu or cpu\n"
"      --device=N         the CUDA device to use (default 0)\n"
"      --devices=LIST|all count on several devices at once; LIST is\n"
"                         comma-separated device numbers (e.g. 0,1)\n"
"      --chunk-size=SIZE  bytes per chunk (max 2G; default 4M on the GPU,\n"
"                         1M on the CPU); k, M, G and KiB, MiB, GiB are\n"
"                         powers of 1024, kB, MB, GB powers of 1000\n"
"      --streams=N        CUDA streams in flight (GPU backend; default 2)\n"
"      --threads=N        operands at once, readers and counting threads\n"
"                         (default, or 0: all cores)\n"
"\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version (with -v: CUDA and devices)\n"
"\n"
"Exit status: 0 if every input was counted, 1 if some input failed or output\n"
"could not be written, 2 on a usage error.  See gpuhist(1).\n", stdout);
}

/* Whether usage errors go unsaid (set by gh_options_parse()). */
static bool quiet_errors;

static enum gh_parse_result usage_error(void)
{
	if (!quiet_errors)
		fprintf(stderr, "Try '%s --help' for more information.\n",
			GH_PROGNAME);
	return GH_PARSE_USAGE;
}

/* A usage error's message, unless quiet. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	if (quiet_errors)
		return;
	va_start(ap, fmt);
	gh_vmsg(fmt, ap);
	va_end(ap);
}

/* A whole decimal number in [lo, hi]; -1 when it is not. */
static long parse_int(const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return -1;
	return v;
}

/* --devices: "all", or up to GPUHIST_DEVICES_MAX comma-separated numbers; 0,
 * or -1 when malformed. */
static int parse_devices(const char *arg, struct gpuhist_options *opts)
{
	char num[16];
	int n = 0;

	if (!strcmp(arg, "all")) {
		opts->all_devices = true;
		opts->n_devices = 0;
		return 0;
	}
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");
		long v;

		if (n == GPUHIST_DEVICES_MAX || len >= sizeof(num))
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if ((v = parse_int(num, 0, INT_MAX)) < 0 || (len && num[0] == '+'))
			return -1;
		opts->devices[n++] = (int)v;
		p += len;
		if (!*p)
			break;
	}
	opts->all_devices = false;
	opts->n_devices = n;
	return 0;
}

/* The fewest bytes --memory may give the tokens. */
#define GH_MEMORY_MIN (1024 * 1024)

static uint64_t physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size
				     : (uint64_t)4 << 30;
}

/* --memory's default, as sort's buffer: a quarter of physical memory. */
static uint64_t default_memory(void)
{
	uint64_t m = physical_memory() / 4;

	return m < GH_MEMORY_MIN ? GH_MEMORY_MIN : m;
}

static uint64_t parse_size(const char *arg);

/* --memory: a size (parse_size), or N% of physical memory (1..100); 0
 * when malformed. */
static uint64_t parse_memory(const char *arg)
{
	size_t len = strlen(arg);

	if (len > 1 && arg[len - 1] == '%') {
		char digits[16];
		long n;

		if (len - 1 >= sizeof(digits))
			return 0;
		memcpy(digits, arg, len - 1);
		digits[len - 1] = '\0';
		n = parse_int(digits, 1, 100);
		return n < 0 ? 0 : physical_memory() / 100 * (uint64_t)n;
	}
	return parse_size(arg);
}

/* "4096", "64k", "16M", "1G", as coreutils reads them: k, M or G (either
 * case) alone or with iB are powers of 1024 (16M = 16MiB = 16777216), with
 * B powers of 1000 (16MB = 16000000); 0 when malformed. */
static uint64_t parse_size(const char *arg)
{
	static const char prefixes[] = "kmg";
	unsigned long long v, base;
	const char *prefix;
	char *end;

	if (*arg < '0' || *arg > '9')
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno)
		return 0;
	if (!*end)
		return v;
	prefix = strchr(prefixes, tolower((unsigned char)*end));
	if (!prefix)
		return 0;
	end++;
	if (!*end || !strcmp(end, "iB"))
		base = 1024;
	else if (!strcmp(end, "B"))
		base = 1000;
	else
		return 0;
	for (const char *p = prefixes; p <= prefix; p++) {
		if (v > ULLONG_MAX / base)
			return 0;       /* would wrap to a small, valid size */
		v *= base;
	}
	return v;
}

/* -t, --lines, --field: one of them. */
static int set_tokens(struct gh_options *opts, int view, const char *opt,
		      const char **first)
{
	if (*first && opts->lib.tokens != view) {
		say("options %s and %s select different views", *first, opt);
		return -1;
	}
	*first = opt;
	opts->lib.tokens = view;
	return 0;
}

static int set_view(struct gh_options *opts, enum gh_view_kind view,
		    const char *opt, int *view_opt_seen, const char **first)
{
	if (*view_opt_seen && opts->view != view) {
		say("options %s and %s select different views", *first, opt);
		return -1;
	}
	*view_opt_seen = 1;
	*first = opt;
	opts->view = view;
	return 0;
}

/* --quantiles: percentiles 0..100, comma-separated, as decimals. */
static int parse_quantiles(const char *arg, struct gh_quantiles *q)
{
	const char *p = arg;

	q->n = 0;
	for (;;) {
		size_t len = strcspn(p, ","), digits = strspn(p, "0123456789");
		char text[20];

		if (digits < len && p[digits] == '.' && digits + 1 < len)
			digits += 1 + strspn(p + digits + 1, "0123456789");
		if (!len || digits != len || len >= sizeof(text) ||
		    q->n == GH_QUANTILES_MAX)
			return -1;
		memcpy(text, p, len);
		text[len] = '\0';
		double v = strtod(text, NULL);

		if (v > 100)
			return -1;
		q->q[q->n] = v / 100;
		snprintf(q->name[q->n], sizeof(q->name[q->n]), "p%s", text);
		q->n++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void gh_options_tokens_defaults(struct gh_options *opts)
{
	/* Intervals of time: every one, in time order (their labels sort
	 * as their times do). */
	bool per = opts->lib.tokens == GPUHIST_TOKENS_PER;

	if (!opts->sort_set)
		opts->sort = per ? GH_SORT_BIN : GH_SORT_COUNT;
	/* Another view per interval: the table's --top is each interval's. */
	if (!opts->top && opts->format == GH_FMT_TABLE && !per)
		opts->top = opts->lib.per ? GH_PER_TOP : 20;
	if (!opts->lib.memory)
		opts->lib.memory = default_memory();
}

void gh_options_one_top(struct gh_options *opts)
{
	struct stat st;
	const char *one = opts->n_operands == 1 && !opts->files0_from
			  ? opts->operands[0] : NULL;

	/* One input's rows, no more than its --top commonest, and no sum
	 * of its tokens besides (a total of tokens, --values, intervals,
	 * --follow's snapshots): a device that counted them may hand back
	 * only its commonest. */
	opts->lib.tokens_top = 0;
	if (!one || opts->top <= 0 || opts->merge || opts->follow ||
	    opts->values || opts->lib.per ||
	    (opts->lib.tokens != GPUHIST_TOKENS_WORDS &&
	     opts->lib.tokens != GPUHIST_TOKENS_LINES &&
	     opts->lib.tokens != GPUHIST_TOKENS_FIELD) ||
	    opts->total == GH_TOTAL_ALWAYS || opts->total == GH_TOTAL_ONLY ||
	    (strcmp(one, "-") && (stat(one, &st) || S_ISDIR(st.st_mode))))
		return;
	opts->lib.tokens_top = (uint64_t)opts->top;
}

void gh_options_values_defaults(struct gh_options *opts)
{
	if (opts->values && !opts->quantiles.n)
		parse_quantiles("50,90,99,99.9", &opts->quantiles);
}

/* What the command line has said so far, for the options' handlers and
 * the checks after them. */
struct parse {
	struct gh_options *opts;
	struct gpuhist_options *lib;
	const char *first_view;     /* -w, -b or -c, the first one given */
	const char *tokens_opt;     /* -t, --lines, --field or --values */
	const char *memory_opt;     /* --memory or -T */
	const char *values_opt;     /* --precision or --quantiles */
	bool field_seen, sort_set, want_version;
	int view_opt_seen;
};

/* What a handler says: go on, a usage error (said), or --help. */
enum { GO_ON = 0, REFUSED = -1, HELP = 1 };

/* One option's handler: code is its getopt value, arg its argument. */
typedef int (*option_fn)(struct parse *p, int code, const char *arg);

/* A word an option takes, and what it sets. */
struct choice {
	const char *word;
	int value;
};

/* The word of choices that arg is, into *value; or a usage error naming
 * noun, the option and the words, as "a, b or c". */
static int choose(const char *arg, const struct choice *choices,
		  const char *noun, const char *opt, int *value)
{
	char words[128] = "";
	size_t used = 0;
	int n = 0;

	for (const struct choice *c = choices; c->word; c++, n++)
		if (!strcmp(arg, c->word)) {
			*value = c->value;
			return GO_ON;
		}
	for (int k = 0; k < n; k++)
		used += (size_t)snprintf(words + used, sizeof(words) - used,
					 "%s%s", !k ? "" : k == n - 1 ? " or "
					 : ", ", choices[k].word);
	say("invalid %s '%s' for %s (expected %s)", noun, arg, opt, words);
	return REFUSED;
}

/* A whole number in [lo, hi] into *n; or a usage error naming noun, the
 * option and, where given, what was expected. */
static int number(const char *arg, long lo, long hi, const char *noun,
		  const char *opt, const char *expected, long *n)
{
	*n = parse_int(arg, lo, hi);
	if (*n >= 0)
		return GO_ON;
	if (expected)
		say("invalid %s '%s' for %s (expected %s)", noun, arg, opt,
		    expected);
	else
		say("invalid %s '%s' for %s", noun, arg, opt);
	return REFUSED;
}

static int opt_width(struct parse *p, int code, const char *arg)
{
	long n;

	(void)code;
	if (number(arg, 1, 26, "width", "-w", "1..26", &n))
		return REFUSED;
	p->opts->width = (int)n;
	return set_view(p->opts, GH_VIEW_LETTERS, "-w", &p->view_opt_seen,
			&p->first_view);
}

/* -b and -c: a view of the 256 byte values. */
static int opt_view(struct parse *p, int code, const char *arg)
{
	(void)arg;
	return set_view(p->opts, code == 'b' ? GH_VIEW_BYTES : GH_VIEW_CLASSES,
			code == 'b' ? "-b" : "-c", &p->view_opt_seen,
			&p->first_view);
}

/* The options that only say yes. */
static int opt_flag(struct parse *p, int code, const char *arg)
{
	struct gh_options *opts = p->opts;

	(void)arg;
	switch (code) {
	case 'i': opts->ignore_case = true; break;
	case 'm': opts->chars = true; break;
	case 's': opts->stats = true; break;
	case 'v': opts->verbose++; break;
	case OPT_RAW: p->lib->raw = true; break;
	case OPT_MERGE: opts->merge = true; break;
	case OPT_FOLLOW: opts->follow = true; break;
	case OPT_PROGRESS: opts->progress = GH_PROGRESS_ON; break;
	case OPT_NO_PROGRESS: opts->progress = GH_PROGRESS_OFF; break;
	case 'V': p->want_version = true; break;
	}
	return GO_ON;
}

static int opt_help(struct parse *p, int code, const char *arg)
{
	(void)p;
	(void)code;
	(void)arg;
	return HELP;
}

/* -t and --lines. */
static int opt_tokens(struct parse *p, int code, const char *arg)
{
	(void)arg;
	return set_tokens(p->opts, code == 't' ? GPUHIST_TOKENS_WORDS
					       : GPUHIST_TOKENS_LINES,
			  code == 't' ? "-t" : "--lines", &p->tokens_opt);
}

/* The fields of --field=N[,N...]: how many (0: refused, said). */
static int field_list(const char *arg, const char *opt, int *fields)
{
	char item[32];
	int n = 0;
	long v;

	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");

		if (n == GPUHIST_FIELDS_MAX) {
			say("too many fields in '%s' for %s (at most %d)", arg,
			    opt, GPUHIST_FIELDS_MAX);
			return 0;
		}
		if (len >= sizeof(item))
			len = sizeof(item) - 1;
		memcpy(item, p, len);
		item[len] = '\0';
		if (number(item, 1, INT_MAX, "field", opt, "1 or more, or a list as 1,9",
			   &v))
			return 0;
		fields[n++] = (int)v;
		p += strcspn(p, ",");
		if (!*p)
			return n;
	}
}

/* --field and --values: a field of each line (or a key of several), as
 * strings or numbers. */
static int opt_field(struct parse *p, int code, const char *arg)
{
	const char *opt = code == OPT_FIELD ? "--field" : "--values";
	int fields[GPUHIST_FIELDS_MAX], n;

	/* --values=.ms: the numbers of a key of JSON lines. */
	if (code == OPT_VALUES && arg[0] == '.') {
		if (p->lib->key && !p->opts->values) {
			say("options --key and --values select different views");
			return REFUSED;
		}
		if (p->opts->values && (!p->lib->key ||
					strcmp(p->lib->key, arg))) {
			say("--values given twice (%s and %s): one is counted at a time",
			    p->lib->key ? p->lib->key : "a field", arg);
			return REFUSED;
		}
		p->opts->values = true;
		p->lib->key = arg;
		return set_tokens(p->opts, GPUHIST_TOKENS_KEY, opt,
				  &p->tokens_opt);
	}
	if (code == OPT_VALUES && p->lib->key) {
		say("--values given twice (%s and %s): one is counted at a time",
		    p->lib->key, arg);
		return REFUSED;
	}
	n = field_list(arg, opt, fields);
	if (!n)
		return REFUSED;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (fields[i] == fields[j]) {
				say("field %d twice in '%s' for %s", fields[i],
				    arg, opt);
				return REFUSED;
			}
	if (n > 1 && code == OPT_VALUES) {
		say("--values reads one field's numbers, not a key of several ('%s')",
		    arg);
		return REFUSED;
	}
	/* --field and --values both name a field: of different views. */
	if (code == OPT_VALUES ? p->field_seen : p->opts->values) {
		say("options --field and --values select different views");
		return REFUSED;
	}
	p->field_seen |= code == OPT_FIELD;
	p->opts->values |= code == OPT_VALUES;
	/* One key at a time: a second that differs is refused, not one
	 * dropped. */
	if (p->lib->field &&
	    (p->lib->field != fields[0] ||
	     (n > 1 ? n : 0) != p->lib->n_fields ||
	     memcmp(p->lib->fields, fields, (size_t)p->lib->n_fields *
						 sizeof(int)))) {
		char was[16 * GPUHIST_FIELDS_MAX];
		int len = snprintf(was, sizeof(was), "%d", p->lib->field);

		for (int i = 1; i < p->lib->n_fields; i++)
			len += snprintf(was + len, sizeof(was) - (size_t)len,
					",%d", p->lib->fields[i]);
		say("--field given twice (%s and %s): one key is counted at a time",
		    was, arg);
		return REFUSED;
	}
	p->lib->field = fields[0];
	if (n > 1) {
		p->lib->n_fields = n;
		memcpy(p->lib->fields, fields, (size_t)n * sizeof(int));
	}
	return set_tokens(p->opts, GPUHIST_TOKENS_FIELD, opt, &p->tokens_opt);
}

/* --interval: seconds between --follow's totals. */
static int opt_interval(struct parse *p, int code, const char *arg)
{
	char *end;
	double v;

	(void)code;
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= 0.01 && v <= 86400)) {
		say("invalid interval '%s' for --interval (expected seconds, 0.01 to 86400)",
		    arg);
		return REFUSED;
	}
	p->opts->interval = v;
	return GO_ON;
}

/* --per: lines per interval of time, "minute" or "5m" (seconds). */
static int opt_per(struct parse *p, int code, const char *arg)
{
	static const struct { const char *name; long long seconds; } units[] = {
		{ "second", 1 }, { "minute", 60 }, { "hour", 3600 },
		{ "day", 86400 }, { "week", 604800 },
		{ "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
		{ "w", 604800 },
	};
	const char *unit = arg;
	long long n = 1;

	(void)code;
	if (*arg >= '0' && *arg <= '9') {
		char *end;

		errno = 0;
		n = strtoll(arg, &end, 10);
		unit = *end ? end : "s";
		if (errno || n < 1 || n > 1000000)
			unit = "";
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name)) {
			p->lib->per = n * units[i].seconds;
			return GO_ON;   /* the view: check()'s */
		}
	say("invalid interval '%s' for --per (expected second, minute, hour, day, week, or a number with s, m, h, d or w: 5m)",
	    arg);
	return REFUSED;
}

static int opt_time_field(struct parse *p, int code, const char *arg)
{
	long n;

	(void)code;
	if (number(arg, 1, INT_MAX, "field", "--time-field", "1 or more", &n))
		return REFUSED;
	p->lib->time_field = (int)n;
	return GO_ON;
}

static int opt_year(struct parse *p, int code, const char *arg)
{
	long n;

	(void)code;
	if (number(arg, 1, 9999, "year", "--year", "1..9999", &n))
		return REFUSED;
	p->lib->year = (int)n;
	return GO_ON;
}

/* --time-key: --per's time at a key of JSON lines. */
static int opt_time_key(struct parse *p, int code, const char *arg)
{
	(void)code;
	p->lib->time_key = arg;
	return GO_ON;
}

/* --time-format: --per's time read by strptime(3). */
static int opt_time_format(struct parse *p, int code, const char *arg)
{
	(void)code;
	if (!*arg || strlen(arg) > 255) {
		say("invalid format '%s' for --time-format (expected strptime's letters, up to 255 bytes: '%%d/%%m/%%Y %%H:%%M:%%S')",
		    arg);
		return REFUSED;
	}
	p->lib->time_format = arg;
	return GO_ON;
}

/* --key: the value at a key of JSON lines. */
static int opt_key(struct parse *p, int code, const char *arg)
{
	(void)code;
	if (p->opts->values) {
		say("options --values and --key select different views");
		return REFUSED;
	}
	if (p->lib->key && strcmp(p->lib->key, arg)) {
		say("--key given twice (%s and %s): one key is counted at a time",
		    p->lib->key, arg);
		return REFUSED;
	}
	p->lib->key = arg;
	return set_tokens(p->opts, GPUHIST_TOKENS_KEY, "--key",
			  &p->tokens_opt);
}

static int opt_precision(struct parse *p, int code, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);
	gpuhist_values *probe = *arg && !*end && v > 0 ? gpuhist_values_new(v)
						       : NULL;

	(void)code;
	if (!probe) {
		say("invalid precision '%s' for --precision (expected a percent from 0.0016 to 50)",
		    arg);
		return REFUSED;
	}
	gpuhist_values_free(probe);
	p->opts->precision = v;
	p->values_opt = "--precision";
	return GO_ON;
}

static int opt_quantiles(struct parse *p, int code, const char *arg)
{
	(void)code;
	if (parse_quantiles(arg, &p->opts->quantiles)) {
		say("invalid list '%s' for --quantiles (expected up to %d percents from 0 to 100, such as 50,99,99.9)",
		    arg, GH_QUANTILES_MAX);
		return REFUSED;
	}
	p->values_opt = "--quantiles";
	return GO_ON;
}

static int opt_separator(struct parse *p, int code, const char *arg)
{
	(void)code;
	if (!strcmp(arg, "\\t")) {
		p->lib->separator = '\t';
	} else if (strlen(arg) == 1) {
		p->lib->separator = (unsigned char)arg[0];
	} else {
		say("invalid separator '%s' for -F (expected one byte, or \\t)",
		    arg);
		return REFUSED;
	}
	return GO_ON;
}

/* The options that take a word: its noun in a message, and its words. */
static const struct choice formats[] = {
	{ "table", GH_FMT_TABLE }, { "tsv", GH_FMT_TSV }, { "csv", GH_FMT_CSV },
	{ "json", GH_FMT_JSON }, { "ndjson", GH_FMT_JSON }, { NULL, 0 },
};
static const struct choice orders[] = {
	{ "bin", GH_SORT_BIN }, { "count", GH_SORT_COUNT }, { NULL, 0 },
};
static const struct choice total_modes[] = {
	{ "auto", GH_TOTAL_AUTO }, { "always", GH_TOTAL_ALWAYS },
	{ "only", GH_TOTAL_ONLY }, { "never", GH_TOTAL_NEVER }, { NULL, 0 },
};
static const struct choice backends[] = {
	{ "auto", GPUHIST_BACKEND_AUTO }, { "gpu", GPUHIST_BACKEND_GPU },
	{ "cpu", GPUHIST_BACKEND_CPU }, { NULL, 0 },
};

static const struct word_option {
	int code;
	const char *noun, *opt;
	const struct choice *words;
} word_options[] = {
	{ 'f', "format", "-f", formats },
	{ OPT_SORT, "order", "--sort", orders },
	{ OPT_TOTAL, "argument", "--total", total_modes },
	{ OPT_BACKEND, "backend", "--backend", backends },
};

/* -f, --sort, --total, --backend: a word each. */
static int opt_word(struct parse *p, int code, const char *arg)
{
	const struct word_option *w = word_options;
	int v;

	while (w->code != code)
		w++;
	if (code == OPT_SORT)
		p->sort_set = p->opts->sort_set = true;
	if (choose(arg, w->words, w->noun, w->opt, &v))
		return REFUSED;
	switch (code) {
	case 'f':
		p->opts->format = (enum gh_format)v;
		/* ndjson: json's entries, each on a line of its own. */
		p->opts->ndjson = !strcmp(arg, "ndjson");
		break;
	case OPT_SORT:
		p->opts->sort = (enum gh_sort)v;
		break;
	case OPT_TOTAL:
		p->opts->total = (enum gh_total_mode)v;
		break;
	default:
		p->lib->backend = v;
		break;
	}
	return GO_ON;
}

static int opt_columns(struct parse *p, int code, const char *arg)
{
	char bad[64];

	(void)code;
	if (gh_columns_parse(arg, &p->opts->columns, bad, sizeof(bad))) {
		say("invalid column '%s' for --columns (expected label, share, bytes_read, counted or entropy, each once)",
		    bad);
		return REFUSED;
	}
	return GO_ON;
}

/* --top, --streams, --threads: counts. */
static int opt_count(struct parse *p, int code, const char *arg)
{
	long n;

	switch (code) {
	case OPT_TOP:
		if (number(arg, 1, INT_MAX, "count", "--top", "1 or more", &n))
			return REFUSED;
		p->opts->top = (int)n;
		break;
	case OPT_STREAMS:
		if (number(arg, 1, 64, "count", "--streams", "1..64", &n))
			return REFUSED;
		p->lib->streams = (int)n;
		break;
	default:                /* --threads; 0: all cores */
		if (number(arg, 0, GPUHIST_THREADS_MAX, "count", "--threads",
			   "0..1024", &n))
			return REFUSED;
		p->lib->threads = (int)n;
		break;
	}
	return GO_ON;
}

static int opt_files0_from(struct parse *p, int code, const char *arg)
{
	(void)code;
	p->opts->files0_from = arg;
	return GO_ON;
}

/* --match, --exclude: a pattern of lines (the library compiles it). */
static int opt_pattern(struct parse *p, int code, const char *arg)
{
	long n;

	if (code == OPT_MATCH) {
		p->lib->match = arg;
	} else if (code == OPT_EXCLUDE) {
		p->lib->exclude = arg;
	} else {                /* --match-field */
		if (number(arg, 1, INT_MAX, "field", "--match-field",
			   "1 or more", &n))
			return REFUSED;
		p->lib->match_field = (int)n;
	}
	return GO_ON;
}

/* Whether --match or --exclude is a pattern the library refuses (said,
 * naming the option): a counter opened to compile it, then freed. */
static bool bad_pattern(const struct gpuhist_options *lib)
{
	gpuhist_counter *c;
	char why[512];

	if (gpuhist_open(&c, lib, why, sizeof(why)) == GPUHIST_OK) {
		gpuhist_free(c);
		return false;
	}
	size_t tk = lib->time_key ? strlen(lib->time_key) : 0;

	if (tk && !strncmp(why, "key '", 5) &&
	    !strncmp(why + 5, lib->time_key, tk) && why[5 + tk] == '\'')
		say("--time-%s", why);  /* the time key's path */
	else if (!strncmp(why, "match:", 6) || !strncmp(why, "exclude:", 8) ||
	    !strncmp(why, "key", 3))
		say("--%s", why);
	else
		say("option %s cannot be used: %s",
		    lib->match ? "--match" : "--exclude", why);
	return true;
}

/* --include, --exclude-dir: a glob more. */
static int opt_glob(struct parse *p, int code, const char *arg)
{
	bool include = code == OPT_INCLUDE;
	const char **globs = include ? p->opts->include : p->opts->exclude_dir;
	int *n = include ? &p->opts->n_include : &p->opts->n_exclude_dir;

	if (*n == GH_GLOBS_MAX) {
		say("too many globs for --%s (at most %d)",
		    include ? "include" : "exclude-dir", GH_GLOBS_MAX);
		return REFUSED;
	}
	globs[(*n)++] = arg;
	return GO_ON;
}

static int opt_device(struct parse *p, int code, const char *arg)
{
	long n;

	(void)code;
	if (number(arg, 0, INT_MAX, "device", "--device", NULL, &n))
		return REFUSED;
	p->lib->devices[0] = (int)n;
	p->lib->n_devices = 1;
	p->lib->all_devices = false;
	return GO_ON;
}

static int opt_devices(struct parse *p, int code, const char *arg)
{
	(void)code;
	if (parse_devices(arg, p->lib)) {
		say("invalid list '%s' for --devices (expected all, or up to %d device numbers such as 0,1)",
		    arg, GPUHIST_DEVICES_MAX);
		return REFUSED;
	}
	return GO_ON;
}

static int opt_memory(struct parse *p, int code, const char *arg)
{
	(void)code;
	p->lib->memory = parse_memory(arg);
	if (p->lib->memory < GH_MEMORY_MIN) {
		say("invalid size '%s' for --memory (expected 1M or more, or a percentage of physical memory)",
		    arg);
		return REFUSED;
	}
	p->memory_opt = "--memory";
	return GO_ON;
}

static int opt_temporary_directory(struct parse *p, int code,
				   const char *arg)
{
	(void)code;
	if (!*arg) {
		say("invalid directory '' for -T");
		return REFUSED;
	}
	p->lib->temporary_directory = arg;
	p->memory_opt = "-T";
	return GO_ON;
}

static int opt_chunk_size(struct parse *p, int code, const char *arg)
{
	(void)code;
	p->lib->chunk_bytes = parse_size(arg);
	if (p->lib->chunk_bytes < 1 || p->lib->chunk_bytes > GPUHIST_CHUNK_MAX) {
		say("invalid size '%s' for --chunk-size (expected 1..2G)", arg);
		return REFUSED;
	}
	return GO_ON;
}

/* Every option: its long name, whether it takes an argument, its short
 * letter (or a code past the letters), and its handler.  getopt_long's
 * table and letters are made from these. */
static const struct option_row {
	const char *name;
	int has_arg;
	int code;
	option_fn fn;
} options[] = {
	{ "width",       required_argument, 'w', opt_width },
	{ "ignore-case", no_argument,       'i', opt_flag },
	{ "bytes",       no_argument,       'b', opt_view },
	{ "classes",     no_argument,       'c', opt_view },
	{ "chars",       no_argument,       'm', opt_flag },
	{ "stats",       no_argument,       's', opt_flag },
	{ "tokens",      no_argument,       't', opt_tokens },
	{ "lines",       no_argument,       OPT_LINES, opt_tokens },
	{ "field",       required_argument, OPT_FIELD, opt_field },
	{ "key",         required_argument, OPT_KEY, opt_key },
	{ "values",      required_argument, OPT_VALUES, opt_field },
	{ "precision",   required_argument, OPT_PRECISION, opt_precision },
	{ "quantiles",   required_argument, OPT_QUANTILES, opt_quantiles },
	{ "separator",   required_argument, 'F', opt_separator },
	{ "memory",      required_argument, OPT_MEMORY, opt_memory },
	{ "temporary-directory", required_argument, 'T',
	  opt_temporary_directory },
	{ "format",      required_argument, 'f', opt_word },
	{ "raw",         no_argument,       OPT_RAW, opt_flag },
	{ "merge",       no_argument,       OPT_MERGE, opt_flag },
	{ "follow",      no_argument,       OPT_FOLLOW, opt_flag },
	{ "interval",    required_argument, OPT_INTERVAL, opt_interval },
	{ "per",         required_argument, OPT_PER, opt_per },
	{ "time-field",  required_argument, OPT_TIME_FIELD, opt_time_field },
	{ "year",        required_argument, OPT_YEAR, opt_year },
	{ "time-key",    required_argument, OPT_TIME_KEY, opt_time_key },
	{ "time-format", required_argument, OPT_TIME_FORMAT, opt_time_format },
	{ "files0-from", required_argument, OPT_FILES0_FROM, opt_files0_from },
	{ "include",     required_argument, OPT_INCLUDE, opt_glob },
	{ "match",       required_argument, OPT_MATCH, opt_pattern },
	{ "exclude",     required_argument, OPT_EXCLUDE, opt_pattern },
	{ "match-field", required_argument, OPT_MATCH_FIELD, opt_pattern },
	{ "exclude-dir", required_argument, OPT_EXCLUDE_DIR, opt_glob },
	{ "total",       required_argument, OPT_TOTAL, opt_word },
	{ "sort",        required_argument, OPT_SORT, opt_word },
	{ "top",         required_argument, OPT_TOP, opt_count },
	{ "columns",     required_argument, OPT_COLUMNS, opt_columns },
	{ "verbose",     no_argument,       'v', opt_flag },
	{ "progress",    no_argument,       OPT_PROGRESS, opt_flag },
	{ "no-progress", no_argument,       OPT_NO_PROGRESS, opt_flag },
	{ "backend",     required_argument, OPT_BACKEND, opt_word },
	{ "device",      required_argument, OPT_DEVICE, opt_device },
	{ "devices",     required_argument, OPT_DEVICES, opt_devices },
	{ "chunk-size",  required_argument, OPT_CHUNK_SIZE, opt_chunk_size },
	{ "streams",     required_argument, OPT_STREAMS, opt_count },
	{ "threads",     required_argument, OPT_THREADS, opt_count },
	{ "help",        no_argument,       'h', opt_help },
	{ "version",     no_argument,       'V', opt_flag },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* getopt_long's table and letters ("w:ib..."), from options[]. */
static void getopt_tables(struct option *longs, char *letters)
{
	for (size_t k = 0; k < N_OPTIONS; k++) {
		longs[k] = (struct option){ options[k].name,
					    options[k].has_arg, NULL,
					    options[k].code };
		if (options[k].code < OPT_RAW) {
			*letters++ = (char)options[k].code;
			if (options[k].has_arg == required_argument)
				*letters++ = ':';
		}
	}
	longs[N_OPTIONS] = (struct option){ NULL, 0, NULL, 0 };
	*letters = '\0';
}

/* What the options say together: views that exclude each other, options
 * that apply to a view not chosen, and the defaults a view brings. */
static enum gh_parse_result check(struct parse *p)
{
	struct gh_options *opts = p->opts;
	struct gpuhist_options *lib = p->lib;

	if (opts->chars && p->view_opt_seen && opts->view != GH_VIEW_CLASSES) {
		say("options -m and %s select different views", p->first_view);
		return usage_error();
	}
	if (opts->chars && !gh_charview_unicode() &&
	    (opts->ignore_case || opts->view == GH_VIEW_CLASSES)) {
		say("option -m cannot be combined with %s: this gpuhist was built without libutf8proc",
		    opts->ignore_case ? "-i" : "-c");
		return usage_error();
	}
	/* -i: the patterns ignore case (and, with no tokens view, the
	 * letters are folded too). */
	lib->match_caseless = opts->ignore_case && (lib->match || lib->exclude);
	if (opts->merge && (lib->match || lib->exclude)) {
		say("option %s cannot be combined with --merge (the results are counted already)",
		    lib->match ? "--match" : "--exclude");
		return usage_error();
	}
	if ((lib->time_field || lib->year || lib->time_key ||
	     lib->time_format) && !lib->per) {
		say("option %s applies to --per only",
		    lib->time_field ? "--time-field" : lib->year ? "--year"
		    : lib->time_key ? "--time-key" : "--time-format");
		return usage_error();
	}
	if (lib->time_key && lib->time_field) {
		say("options --time-key and --time-field name two places for the time: give one");
		return usage_error();
	}
	/* --per alone counts lines per interval; beside a tokens view or
	 * --values, it groups that view's by interval. */
	/* --per beside a bytes view (-b, -c, -w): each interval's byte
	 * values, as tokens of one byte (gpuhist.h's GPUHIST_TOKENS_BYTES),
	 * folded into the view's bins as they are printed. */
	/* (-i alone is -w 4 -i: letters.) */
	if (lib->per && !lib->tokens && !opts->values &&
	    (p->view_opt_seen || opts->chars || opts->stats ||
	     (opts->ignore_case && !lib->match_caseless))) {
		if (opts->stats) {
			say("option -s cannot be combined with --per yet (ent's pi and serial correlation need the stream whole)");
			return usage_error();
		}
		if (opts->columns.n) {
			say("option --per cannot be combined with %s yet",
			    "--columns");
			return usage_error();
		}
		/* -m: each interval's characters, as tokens of a
		 * character each (GPUHIST_TOKENS_CHARS). */
		lib->tokens = opts->chars ? GPUHIST_TOKENS_CHARS
					  : GPUHIST_TOKENS_BYTES;
		opts->bytes_per = !opts->chars;
		opts->chars_per = opts->chars;
		lib->tokens_only = 1;
	} else if (lib->per && !lib->tokens) {
		lib->tokens = GPUHIST_TOKENS_PER;
		p->tokens_opt = "--per";
	}
	if ((lib->match || lib->exclude || lib->key || lib->time_key) &&
	    bad_pattern(lib))
		return usage_error();
	if (p->tokens_opt) {
		const char *other = opts->chars ? "-m" : opts->stats ? "-s"
				  : opts->ignore_case && !lib->match_caseless
				  ? "-i"
				  : p->view_opt_seen ? p->first_view : NULL;

		if (other) {
			say("options %s and %s select different views",
			    p->tokens_opt, other);
			return usage_error();
		}
		if (opts->columns.n) {
			say("option %s cannot be combined with %s yet",
			    p->tokens_opt, "--columns");
			return usage_error();
		}
		gh_options_tokens_defaults(opts);
		/* The tokens views show the bytes read, not the byte totals. */
		lib->tokens_only = 1;
	} else if (p->memory_opt && !opts->bytes_per && !opts->chars_per) {
		say("option %s applies to the tokens views only (-t, --lines, --field, --key)",
		    p->memory_opt);
		return usage_error();
	}
	if (lib->match_field && !lib->match && !lib->exclude) {
		say("option --match-field applies to --match and --exclude only");
		return usage_error();
	}
	if (lib->separator >= 0 && lib->tokens != GPUHIST_TOKENS_FIELD &&
	    !lib->match_field && !lib->time_field) {
		say("option -F applies to --field, --values, --match-field and --time-field only");
		return usage_error();
	}
	if (p->values_opt && !opts->values) {
		say("option %s applies to --values only", p->values_opt);
		return usage_error();
	}
	gh_options_values_defaults(opts);
	if (opts->columns.n && opts->format != GH_FMT_TSV &&
	    opts->format != GH_FMT_CSV) {
		say("option --columns applies to -f tsv and -f csv only (json has these fields already)");
		return usage_error();
	}
	if (opts->columns.n && opts->stats) {
		say("option --columns cannot be combined with -s: its rows are ent's figures");
		return usage_error();
	}
	if (opts->follow && (opts->stats || opts->merge)) {
		say("option --follow cannot be combined with %s",
		    opts->stats ? "-s (ent's sums need the stream whole)"
				: "--merge");
		return usage_error();
	}
	if (opts->interval && !opts->follow) {
		say("option --interval applies to --follow only");
		return usage_error();
	}
	if (opts->follow && !opts->interval)
		opts->interval = 5;
	/* --follow counts text in segments cut at newlines: none is
	 * decoded (follow.c refuses a compressed file). */
	if (opts->follow)
		lib->raw = 1;
	/* --follow prints json's entries a line each. */
	if (opts->follow && opts->format == GH_FMT_JSON)
		opts->ndjson = true;
	lib->stats = opts->stats && !opts->merge;
	if (opts->chars) {
		lib->chars = !opts->merge && !opts->chars_per;
		if (!p->view_opt_seen)
			opts->view = GH_VIEW_BYTES;     /* code points, not letters */
		if (!p->sort_set && opts->format == GH_FMT_TABLE)
			opts->sort = GH_SORT_COUNT;
	}
	return GH_PARSE_RUN;
}

/* The operands: the files, none with --files0-from, "-" when none. */
static enum gh_parse_result operands(struct gh_options *opts, int argc,
				     char **argv)
{
	static char *stdin_operand[] = { "-", NULL };

	if (opts->files0_from && optind < argc) {
		say("extra operand '%s'", argv[optind]);
		if (!quiet_errors)
			fprintf(stderr, "file operands cannot be combined with --files0-from\n");
		return usage_error();
	}
	if (opts->follow && (opts->files0_from || argc - optind > 1)) {
		say("--follow reads one file (or standard input)");
		return usage_error();
	}
	if (opts->files0_from) {
		opts->operands = NULL;
		opts->n_operands = 0;
	} else if (optind < argc) {
		opts->operands = argv + optind;
		opts->n_operands = argc - optind;
	} else {
		opts->operands = stdin_operand;
		opts->n_operands = 1;
	}
	return GH_PARSE_RUN;
}

enum gh_parse_result gh_options_parse(int argc, char **argv,
				      struct gh_options *opts, bool quiet)
{
	struct option longs[N_OPTIONS + 1];
	char letters[2 * N_OPTIONS + 1];
	struct parse p = { .opts = opts, .lib = &opts->lib };
	enum gh_parse_result result;
	int c;

	memset(opts, 0, sizeof(*opts));
	gpuhist_options_init(&opts->lib);
	opts->width = 4;
	quiet_errors = quiet;
	opterr = !quiet;
	/* getopt names the program by argv[0]: make its messages read
	 * "gpuhist: ..." like all the others, however it was invoked. */
	argv[0] = GH_PROGNAME;
	getopt_tables(longs, letters);

	while ((c = getopt_long(argc, argv, letters, longs, NULL)) != -1) {
		const struct option_row *row = NULL;
		int said;

		for (size_t k = 0; k < N_OPTIONS && !row; k++)
			if (options[k].code == c)
				row = &options[k];
		if (!row)
			return usage_error();   /* getopt has said why */
		said = row->fn(&p, c, optarg);
		if (said == HELP)
			return GH_PARSE_HELP;
		if (said)
			return usage_error();
	}
	opts->lib.verbose = opts->verbose;
	if (p.want_version)
		return GH_PARSE_VERSION;
	result = check(&p);
	return result == GH_PARSE_RUN ? operands(opts, argc, argv) : result;
}
