/* options.c - getopt_long parsing, --help text, usage errors (exit 2) */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "charview.h"
#include "msg.h"
#include "options.h"

enum {
	OPT_RAW = 256, OPT_MERGE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_BACKEND,
	OPT_DEVICE, OPT_DEVICES, OPT_CHUNK_SIZE, OPT_STREAMS, OPT_THREADS,
	OPT_FILES0_FROM, OPT_TOTAL, OPT_SORT, OPT_TOP, OPT_COLUMNS,
	OPT_LINES, OPT_FIELD, OPT_MEMORY, OPT_VALUES, OPT_PRECISION,
	OPT_QUANTILES,
};

static const struct option long_options[] = {
	{ "width",       required_argument, NULL, 'w' },
	{ "ignore-case", no_argument,       NULL, 'i' },
	{ "bytes",       no_argument,       NULL, 'b' },
	{ "classes",     no_argument,       NULL, 'c' },
	{ "chars",       no_argument,       NULL, 'm' },
	{ "stats",       no_argument,       NULL, 's' },
	{ "tokens",      no_argument,       NULL, 't' },
	{ "lines",       no_argument,       NULL, OPT_LINES },
	{ "field",       required_argument, NULL, OPT_FIELD },
	{ "values",      required_argument, NULL, OPT_VALUES },
	{ "precision",   required_argument, NULL, OPT_PRECISION },
	{ "quantiles",   required_argument, NULL, OPT_QUANTILES },
	{ "separator",   required_argument, NULL, 'F' },
	{ "memory",      required_argument, NULL, OPT_MEMORY },
	{ "temporary-directory", required_argument, NULL, 'T' },
	{ "format",      required_argument, NULL, 'f' },
	{ "raw",         no_argument,       NULL, OPT_RAW },
	{ "merge",       no_argument,       NULL, OPT_MERGE },
	{ "files0-from", required_argument, NULL, OPT_FILES0_FROM },
	{ "total",       required_argument, NULL, OPT_TOTAL },
	{ "sort",        required_argument, NULL, OPT_SORT },
	{ "top",         required_argument, NULL, OPT_TOP },
	{ "columns",     required_argument, NULL, OPT_COLUMNS },
	{ "verbose",     no_argument,       NULL, 'v' },
	{ "progress",    no_argument,       NULL, OPT_PROGRESS },
	{ "no-progress", no_argument,       NULL, OPT_NO_PROGRESS },
	{ "backend",     required_argument, NULL, OPT_BACKEND },
	{ "device",      required_argument, NULL, OPT_DEVICE },
	{ "devices",     required_argument, NULL, OPT_DEVICES },
	{ "chunk-size",  required_argument, NULL, OPT_CHUNK_SIZE },
	{ "streams",     required_argument, NULL, OPT_STREAMS },
	{ "threads",     required_argument, NULL, OPT_THREADS },
	{ "help",        no_argument,       NULL, 'h' },
	{ "version",     no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 }
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
"                         between separators; \"\" where a line has fewer\n"
"      --values=N         read the Nth field (as --field) as numbers: their\n"
"                         count, min, max, sum, mean, quantiles and\n"
"                         histogram; fields that are not numbers counted\n"
"                         as such\n"
"      --precision=P      --values: buckets at most P percent wide (default 1)\n"
"      --quantiles=LIST   --values: these percentiles (default 50,90,99,99.9)\n"
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
"      --columns=LIST     tsv and csv: also these columns after count, in\n"
"                         this order: label (as the table shows the bin),\n"
"                         share (of what the view counted), and the\n"
"                         input's bytes_read, counted, entropy\n"
"      --raw              count compressed input as it is, without decoding\n"
"      --merge            FILEs are -f json results to add up\n"
"      --files0-from=F    read the FILEs from F, each ended by a NUL byte\n"
"                         (F is - : standard input)\n"
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

void gh_options_values_defaults(struct gh_options *opts)
{
	if (opts->values && !opts->quantiles.n)
		parse_quantiles("50,90,99,99.9", &opts->quantiles);
}

enum gh_parse_result gh_options_parse(int argc, char **argv,
				      struct gh_options *opts, bool quiet)
{
	static char *stdin_operand[] = { "-", NULL };
	struct gpuhist_options *lib = &opts->lib;
	const char *first_view = NULL, *tokens_opt = NULL, *memory_opt = NULL;
	const char *values_opt = NULL;      /* --precision or --quantiles */
	bool field_seen = false;
	int view_opt_seen = 0, want_version = 0;
	bool sort_set = false;
	long n;
	int c;

	memset(opts, 0, sizeof(*opts));
	gpuhist_options_init(lib);
	opts->width = 4;
	quiet_errors = quiet;
	opterr = !quiet;
	/* getopt names the program by argv[0]: make its messages read
	 * "gpuhist: ..." like all the others, however it was invoked. */
	argv[0] = GH_PROGNAME;

	while ((c = getopt_long(argc, argv, "w:ibcmstF:T:f:vhV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'w':
			n = parse_int(optarg, 1, 26);
			if (n < 0) {
				say("invalid width '%s' for -w (expected 1..26)",
				       optarg);
				return usage_error();
			}
			opts->width = (int)n;
			if (set_view(opts, GH_VIEW_LETTERS, "-w", &view_opt_seen,
				     &first_view))
				return usage_error();
			break;
		case 'i':
			opts->ignore_case = true;
			break;
		case 'b':
			if (set_view(opts, GH_VIEW_BYTES, "-b", &view_opt_seen,
				     &first_view))
				return usage_error();
			break;
		case 'c':
			if (set_view(opts, GH_VIEW_CLASSES, "-c", &view_opt_seen,
				     &first_view))
				return usage_error();
			break;
		case 'm':
			opts->chars = true;
			break;
		case 's':
			opts->stats = true;
			break;
		case 't':
			if (set_tokens(opts, GPUHIST_TOKENS_WORDS, "-t",
				       &tokens_opt))
				return usage_error();
			break;
		case OPT_LINES:
			if (set_tokens(opts, GPUHIST_TOKENS_LINES, "--lines",
				       &tokens_opt))
				return usage_error();
			break;
		case OPT_FIELD:
		case OPT_VALUES:
			n = parse_int(optarg, 1, INT_MAX);
			if (n < 0) {
				say("invalid field '%s' for %s (expected 1 or more)",
				    optarg, c == OPT_FIELD ? "--field" : "--values");
				return usage_error();
			}
			/* --field and --values both name a field: of different
			 * views. */
			if (c == OPT_VALUES ? field_seen : opts->values) {
				say("options --field and --values select different views");
				return usage_error();
			}
			field_seen |= c == OPT_FIELD;
			opts->values |= c == OPT_VALUES;
			/* One field until keys of several fields exist: a
			 * second that differs is refused, not one dropped. */
			if (lib->field && lib->field != (int)n) {
				say("--field given twice (%d and %d): one field is counted at a time",
				    lib->field, (int)n);
				return usage_error();
			}
			lib->field = (int)n;
			if (set_tokens(opts, GPUHIST_TOKENS_FIELD,
				       c == OPT_FIELD ? "--field" : "--values",
				       &tokens_opt))
				return usage_error();
			break;
		case OPT_PRECISION: {
			char *end;
			double v = strtod(optarg, &end);
			gpuhist_values *probe = *optarg && !*end && v > 0
						? gpuhist_values_new(v) : NULL;

			if (!probe) {
				say("invalid precision '%s' for --precision (expected a percent from 0.0016 to 50)",
				    optarg);
				return usage_error();
			}
			gpuhist_values_free(probe);
			opts->precision = v;
			values_opt = "--precision";
			break;
		}
		case OPT_QUANTILES:
			if (parse_quantiles(optarg, &opts->quantiles)) {
				say("invalid list '%s' for --quantiles (expected up to %d percents from 0 to 100, such as 50,99,99.9)",
				    optarg, GH_QUANTILES_MAX);
				return usage_error();
			}
			values_opt = "--quantiles";
			break;
		case 'F':
			if (!strcmp(optarg, "\\t"))
				lib->separator = '\t';
			else if (strlen(optarg) == 1)
				lib->separator = (unsigned char)optarg[0];
			else {
				say("invalid separator '%s' for -F (expected one byte, or \\t)",
				    optarg);
				return usage_error();
			}
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				opts->format = GH_FMT_TABLE;
			else if (!strcmp(optarg, "tsv"))
				opts->format = GH_FMT_TSV;
			else if (!strcmp(optarg, "csv"))
				opts->format = GH_FMT_CSV;
			else if (!strcmp(optarg, "json") ||
				 !strcmp(optarg, "ndjson"))
				opts->format = GH_FMT_JSON;
			else {
				say("invalid format '%s' for -f (expected table, tsv, csv, json or ndjson)",
				       optarg);
				return usage_error();
			}
			/* ndjson: json's entries, each on a line of its own. */
			opts->ndjson = !strcmp(optarg, "ndjson");
			break;
		case OPT_RAW:
			lib->raw = true;
			break;
		case OPT_MERGE:
			opts->merge = true;
			break;
		case OPT_SORT:
			sort_set = true;
			if (!strcmp(optarg, "bin"))
				opts->sort = GH_SORT_BIN;
			else if (!strcmp(optarg, "count"))
				opts->sort = GH_SORT_COUNT;
			else {
				say("invalid order '%s' for --sort (expected bin or count)",
				    optarg);
				return usage_error();
			}
			break;
		case OPT_COLUMNS: {
			char bad[64];

			if (gh_columns_parse(optarg, &opts->columns, bad,
					     sizeof(bad))) {
				say("invalid column '%s' for --columns (expected label, share, bytes_read, counted or entropy, each once)",
				    bad);
				return usage_error();
			}
			break;
		}
		case OPT_TOP:
			n = parse_int(optarg, 1, INT_MAX);
			if (n < 0) {
				say("invalid count '%s' for --top (expected 1 or more)",
				    optarg);
				return usage_error();
			}
			opts->top = (int)n;
			break;
		case OPT_FILES0_FROM:
			opts->files0_from = optarg;
			break;
		case OPT_TOTAL:
			if (!strcmp(optarg, "auto"))
				opts->total = GH_TOTAL_AUTO;
			else if (!strcmp(optarg, "always"))
				opts->total = GH_TOTAL_ALWAYS;
			else if (!strcmp(optarg, "only"))
				opts->total = GH_TOTAL_ONLY;
			else if (!strcmp(optarg, "never"))
				opts->total = GH_TOTAL_NEVER;
			else {
				say("invalid argument '%s' for --total (expected auto, always, only or never)",
				    optarg);
				return usage_error();
			}
			break;
		case 'v':
			opts->verbose++;
			break;
		case OPT_PROGRESS:
			opts->progress = GH_PROGRESS_ON;
			break;
		case OPT_NO_PROGRESS:
			opts->progress = GH_PROGRESS_OFF;
			break;
		case OPT_BACKEND:
			if (!strcmp(optarg, "auto"))
				lib->backend = GPUHIST_BACKEND_AUTO;
			else if (!strcmp(optarg, "gpu"))
				lib->backend = GPUHIST_BACKEND_GPU;
			else if (!strcmp(optarg, "cpu"))
				lib->backend = GPUHIST_BACKEND_CPU;
			else {
				say("invalid backend '%s' for --backend (expected auto, gpu or cpu)",
				       optarg);
				return usage_error();
			}
			break;
		case OPT_DEVICE:
			n = parse_int(optarg, 0, INT_MAX);
			if (n < 0) {
				say("invalid device '%s' for --device", optarg);
				return usage_error();
			}
			lib->devices[0] = (int)n;
			lib->n_devices = 1;
			lib->all_devices = false;
			break;
		case OPT_DEVICES:
			if (parse_devices(optarg, lib)) {
				say("invalid list '%s' for --devices (expected all, or up to %d device numbers such as 0,1)",
				       optarg, GPUHIST_DEVICES_MAX);
				return usage_error();
			}
			break;
		case OPT_MEMORY:
			lib->memory = parse_memory(optarg);
			if (lib->memory < GH_MEMORY_MIN) {
				say("invalid size '%s' for --memory (expected 1M or more, or a percentage of physical memory)",
				    optarg);
				return usage_error();
			}
			memory_opt = "--memory";
			break;
		case 'T':
			if (!*optarg) {
				say("invalid directory '' for -T");
				return usage_error();
			}
			lib->temporary_directory = optarg;
			memory_opt = "-T";
			break;
		case OPT_CHUNK_SIZE:
			lib->chunk_bytes = parse_size(optarg);
			if (lib->chunk_bytes < 1 || lib->chunk_bytes > GPUHIST_CHUNK_MAX) {
				say("invalid size '%s' for --chunk-size (expected 1..2G)",
				       optarg);
				return usage_error();
			}
			break;
		case OPT_STREAMS:
			n = parse_int(optarg, 1, 64);
			if (n < 0) {
				say("invalid count '%s' for --streams (expected 1..64)",
				       optarg);
				return usage_error();
			}
			lib->streams = (int)n;
			break;
		case OPT_THREADS:
			n = parse_int(optarg, 0, GPUHIST_THREADS_MAX);   /* 0: all cores */
			if (n < 0) {
				say("invalid count '%s' for --threads (expected 0..1024)",
				       optarg);
				return usage_error();
			}
			lib->threads = (int)n;
			break;
		case 'h':
			return GH_PARSE_HELP;
		case 'V':
			want_version = 1;
			break;
		default:
			return usage_error();
		}
	}

	lib->verbose = opts->verbose;
	if (want_version)
		return GH_PARSE_VERSION;
	if (opts->chars && view_opt_seen && opts->view != GH_VIEW_CLASSES) {
		say("options -m and %s select different views", first_view);
		return usage_error();
	}
	if (opts->chars && !gh_charview_unicode() &&
	    (opts->ignore_case || opts->view == GH_VIEW_CLASSES)) {
		say("option -m cannot be combined with %s: this gpuhist was built without libutf8proc",
		    opts->ignore_case ? "-i" : "-c");
		return usage_error();
	}
	if (tokens_opt) {
		const char *other = opts->chars ? "-m" : opts->stats ? "-s"
				  : opts->ignore_case ? "-i"
				  : view_opt_seen ? first_view : NULL;

		if (other) {
			say("options %s and %s select different views",
			    tokens_opt, other);
			return usage_error();
		}
		if (opts->columns.n) {
			say("option %s cannot be combined with %s yet", tokens_opt,
			    "--columns");
			return usage_error();
		}
		if (!sort_set)
			opts->sort = GH_SORT_COUNT;
		if (!opts->top && opts->format == GH_FMT_TABLE)
			opts->top = 20;
		if (!lib->memory)
			lib->memory = default_memory();
		/* The tokens views show the bytes read, not the byte totals. */
		lib->tokens_only = 1;
	} else if (memory_opt) {
		say("option %s applies to the tokens views only (-t, --lines, --field)",
		    memory_opt);
		return usage_error();
	}
	if (lib->separator >= 0 && lib->tokens != GPUHIST_TOKENS_FIELD) {
		say("option -F applies to --field and --values only");
		return usage_error();
	}
	if (values_opt && !opts->values) {
		say("option %s applies to --values only", values_opt);
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
	lib->stats = opts->stats && !opts->merge;
	if (opts->chars) {
		lib->chars = !opts->merge;
		if (!view_opt_seen)
			opts->view = GH_VIEW_BYTES;     /* code points, not letters */
		if (!sort_set && opts->format == GH_FMT_TABLE)
			opts->sort = GH_SORT_COUNT;
	}
	if (opts->files0_from && optind < argc) {
		say("extra operand '%s'", argv[optind]);
		if (!quiet_errors)
			fprintf(stderr, "file operands cannot be combined with --files0-from\n");
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
