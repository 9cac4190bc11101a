/* gpuhist.h - libgpuhist: the exact byte-value totals of files, descriptors
 * and memory, counted on a GPU or on the CPU
 *
 * A program opens a counter with options, counts inputs with it (each into
 * 256 exact 64-bit totals, one per byte value), and frees it:
 *
 *	struct gpuhist_options opts;
 *	gpuhist_counter *c;
 *	uint64_t totals[256];
 *	char why[256];
 *
 *	gpuhist_options_init(&opts);        (a macro: it passes sizeof(opts))
 *	if (gpuhist_open(&c, &opts, why, sizeof(why)) != GPUHIST_OK)
 *		... why says why ...
 *	if (gpuhist_count_file(c, "access.log.gz", totals) != GPUHIST_OK)
 *		... gpuhist_message(c) says why ...
 *	gpuhist_free(c);
 *
 * gzip, zstd, xz and bzip2 input is recognised by its magic bytes and
 * decoded, every member, frame or stream, exactly as gzip -dc, zstd -dc,
 * xz -dc and bzip2 -dc decode it; a corrupt one fails with their verdict.
 * A large gzip file, a zstd file of several frames and an xz file of
 * several blocks are decoded on several cores.  Memory does not grow with
 * an input's size.
 *
 * Errors are returned, as one of enum gpuhist_status and a message; the
 * library never prints, never exits and has no global state, so two
 * counters used by two threads never meet.  One counter is used by one
 * thread at a time; it runs threads of its own while it counts.
 *
 * man 3 gpuhist documents every function with an example.
 */
#ifndef GPUHIST_H
#define GPUHIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUHIST_VERSION_MAJOR 0
#define GPUHIST_VERSION_MINOR 2
#define GPUHIST_VERSION_PATCH 0
#define GPUHIST_VERSION_STRING "0.2.0"

/* The version of the library linked in, "0.2.0": it may be newer than the
 * header a program was built with. */
const char *gpuhist_version(void);

enum gpuhist_status {
	GPUHIST_OK = 0,
	GPUHIST_ERR_ARGUMENT,   /* an option or argument out of its range */
	GPUHIST_ERR_NOMEM,      /* out of memory */
	GPUHIST_ERR_BACKEND,    /* the backend asked for cannot count here */
	GPUHIST_ERR_INPUT,      /* an input could not be opened, read or
				 * decoded: it adds nothing */
	GPUHIST_ERR_CANCELLED,  /* gpuhist_cancel() stopped it before its
				 * end: it adds nothing */
};

/* A few words for a status: "input failed", say. */
const char *gpuhist_strerror(int status);

enum gpuhist_backend {
	GPUHIST_BACKEND_AUTO,   /* the CPU, and a GPU beside it where one is
				 * usable and the inputs repay starting it */
	GPUHIST_BACKEND_CPU,
	GPUHIST_BACKEND_GPU,    /* a GPU, or GPUHIST_ERR_BACKEND */
};

/* Most devices one counter counts on (a device may be named twice). */
#define GPUHIST_DEVICES_MAX 16
/* Largest chunk: keeps every per-chunk counter inside 32 bits. */
#define GPUHIST_CHUNK_MAX ((uint64_t)1 << 31)
/* Most threads a counter runs for reading and counting. */
#define GPUHIST_THREADS_MAX 1024
/* The most fields one compound key may join (n_fields). */
#define GPUHIST_FIELDS_MAX 8

/* Where a count stands, as the progress callback is told it. */
struct gpuhist_progress {
	const char *name;       /* the input being read (in input order) */
	uint64_t counted;       /* its bytes counted so far (decoded) */
	uint64_t read, size;    /* how far it is read, of its size (0:
				 * unknown; for gzip, compressed bytes) */
	uint64_t all_counted;   /* every input's bytes counted so far */
	double seconds;         /* since the counter was opened */
	int ended;              /* the input is counted to its end */
};

/*
 * The structures a program fills in (options, inputs) can grow without a
 * new soname: each begins with struct_size, the size of the structure as
 * the program was built, so that the library reads no field the program
 * does not have, and refuses (GPUHIST_ERR_ARGUMENT) a field it does not
 * know that is set.  New fields are added at the end, never moved.
 */
struct gpuhist_options {
	size_t struct_size;     /* set by gpuhist_options_init() */
	enum gpuhist_backend backend;       /* default: AUTO */
	int devices[GPUHIST_DEVICES_MAX];   /* CUDA device numbers to use */
	int n_devices;                      /* 0: none named (device 0) */
	int all_devices;                    /* every device there is */
	uint64_t chunk_bytes;   /* 1..GPUHIST_CHUNK_MAX; 0: the backend's
				 * default (4 MiB GPU, 1 MiB CPU) */
	int streams;            /* CUDA streams, 1..64; 0: the default (2) */
	int threads;            /* inputs at once, readers and counting
				 * threads, 0..GPUHIST_THREADS_MAX; 0: all
				 * online cores */
	int raw;                /* count compressed input as it is */
	int chars;              /* also count the Unicode code points of
				 * UTF-8 text (struct gpuhist_chars) */
	int verbose;            /* results also say how an input was decoded */
	/* Called, when set, by the thread that counts, four times a second
	 * and as each input is counted to its end, with a lock of the counter
	 * held: it must return quickly and not call the counter. */
	void (*progress)(void *ctx, const struct gpuhist_progress *at);
	void *progress_ctx;
	int stats;              /* also sum what ent's Monte Carlo pi and
				 * serial correlation need (struct
				 * gpuhist_stream) */
	int tokens;             /* also count tokens (enum gpuhist_tokens_view,
				 * struct gpuhist_tokens) */
	int field;              /* GPUHIST_TOKENS_FIELD: which, from 1 */
	int separator;          /* GPUHIST_TOKENS_FIELD: the byte between
				 * fields (0..255), or -1 (the default):
				 * runs of spaces and tabs, as awk's */
	uint64_t memory;        /* bytes an input's token counts may hold
				 * in memory before the rest is spilled to
				 * temporary_directory; 0 (the default): no
				 * limit */
	const char *temporary_directory;        /* where tokens spill; NULL
				 * (the default): $TMPDIR, else /tmp */
	/* After 0.2: */
	int tokens_only;        /* with a tokens view: the tokens, not the
				 * 256 byte totals besides (a pass over
				 * every byte saved): a result's totals
				 * then add up to the bytes read but are
				 * not the byte values' (the command sets
				 * it: it shows only the bytes read) */
	/* Lines (a library built with PCRE2; else GPUHIST_ERR_ARGUMENT):
	 * with match, a PCRE2 pattern, only the lines it matches are
	 * counted, by every view; with exclude, only the lines it does not
	 * match; with both, the lines match keeps and exclude does not.  A
	 * line ends after its \n (matched without it); the last may end
	 * without one.  Counting is then of the lines kept, in order, as if
	 * they were the input (grep -e RE | gpuhist), each input read by
	 * one thread.  NULL: every line. */
	const char *match;
	const char *exclude;
	int match_caseless;     /* both patterns ignore ASCII case */
	int match_field;        /* 0: the patterns see the whole line; N:
				 * its Nth field (from 1, split as the
				 * tokens' field: runs of blanks as awk's,
				 * or at separator), "" where it has fewer */
	/* A key of several fields (GPUHIST_TOKENS_FIELD): with n_fields
	 * 2..GPUHIST_FIELDS_MAX, a line's unit is its fields fields[0],
	 * fields[1], ... (each from 1, split as field's; "" where the line
	 * has fewer) joined by one byte: the separator where one is set,
	 * else a tab, so that neither can be inside a field; field must
	 * then be fields[0].  0 (the default) or 1: field alone. */
	int n_fields;
	int fields[GPUHIST_FIELDS_MAX];
	/* GPUHIST_TOKENS_KEY (a library built with json-c; else
	 * GPUHIST_ERR_ARGUMENT): the path of a key of JSON lines, ".level",
	 * ".req.status" (names after dots; a name with a dot or other
	 * bytes in double quotes, as jq's ."a.b") */
	const char *key;
	/* GPUHIST_TOKENS_PER: lines counted per interval of per seconds
	 * (from 1; intervals begin at multiples of per since 1970-01-01 UTC),
	 * each line's time read from its first timestamp (Common Log
	 * Format's [27/Nov/2026:10:00:00 +0000], ISO 8601's
	 * 2026-11-27T10:00:00Z, or at the line's start syslog's Nov 27
	 * 10:00:00 in year), or from its time_field'th field (split as the
	 * field view splits, with separator), which may also be epoch
	 * seconds or milliseconds.  Each line's unit is its interval's start,
	 * "2026-11-27T10:00:00Z", or "(no time)".  Set beside another tokens
	 * view (words, lines, field, fields, key, bytes), per groups that view's
	 * units by interval: each is its line's label, a tab, then the
	 * unit ("2026-11-27T10:00:00Z\t404"); 0: not grouped. */
	long long per;
	int time_field;         /* 0: the first timestamp in the line */
	int year;               /* syslog's year (1..9999); 0: this year */
	/* per: a line's time read from the value at the path time_key of
	 * the line read as JSON (".ts", as key's; a library built with
	 * json-c; not with time_field), which may be any of the forms above
	 * or epoch seconds or milliseconds; and time_format: the strptime(3)
	 * format the time (time_key's value, the time field, or else the
	 * line from its start) is read with instead of those forms
	 * ("%d/%m/%Y %H:%M:%S"; what follows it is left; without %z, UTC;
	 * a year it does not give is year's).  NULL: not used. */
	const char *time_key;
	const char *time_format;
	/* A tokens view whose caller reads only the tokens_top commonest
	 * (by count, then bytes) of a count's one input: a device that
	 * counted the input may hand back only those, and others above a
	 * bound (gpuhist_tokens' listed); a count of several inputs sets it
	 * to 0, for good.  0 (the default): every token. */
	uint64_t tokens_top;
	/* Fields added after 0.2 go here, last. */
};

/*
 * Code-point totals (the chars option).  Bin cp (0..0x10ffff) counts the
 * code point cp; bin GPUHIST_CHAR_INVALID + b - 0x80 counts the byte b
 * (0x80..0xff) where it is not part of a well-formed UTF-8 sequence: an
 * ill-formed sequence counts each of its bytes there, as Python's
 * decode('utf-8', 'surrogateescape') escapes them.  The bins are held in
 * pages of GPUHIST_CHAR_PAGE; a NULL page is all zeros.
 */
#define GPUHIST_CHAR_INVALID 0x110000u
#define GPUHIST_CHAR_BINS (GPUHIST_CHAR_INVALID + 128)
#define GPUHIST_CHAR_PAGE 256
#define GPUHIST_CHAR_PAGES \
	((GPUHIST_CHAR_BINS + GPUHIST_CHAR_PAGE - 1) / GPUHIST_CHAR_PAGE)

struct gpuhist_chars {
	uint64_t *page[GPUHIST_CHAR_PAGES];
};

/* Empty totals (every page NULL); free them with gpuhist_chars_free. */
void gpuhist_chars_init(struct gpuhist_chars *chars);
void gpuhist_chars_free(struct gpuhist_chars *chars);
/* Bin bin's total (0 for a bin past GPUHIST_CHAR_BINS). */
uint64_t gpuhist_chars_get(const struct gpuhist_chars *chars, uint32_t bin);
/* Adds n to bin bin: GPUHIST_OK, GPUHIST_ERR_NOMEM, or GPUHIST_ERR_ARGUMENT
 * for a bin past the last or a total that would pass 2^64 - 1 (then
 * nothing is added). */
int gpuhist_chars_add(struct gpuhist_chars *chars, uint32_t bin, uint64_t n);
/* Adds every bin of from into to, as gpuhist_chars_add does each. */
int gpuhist_chars_merge(struct gpuhist_chars *to,
			const struct gpuhist_chars *from);
/* The 256 byte totals that the characters were decoded from (each code
 * point's UTF-8 bytes, each invalid byte itself) into totals; 0, or -1
 * when one would pass 2^64 - 1. */
int gpuhist_chars_bytes(const struct gpuhist_chars *chars,
			uint64_t totals[256]);

/*
 * The stream sums of one input (the stats option), exact: with its 256
 * byte totals they give all of ent(1)'s figures.  pairs is the sum of
 * b[i] x b[i + 1] over its bytes, the last byte's successor being the
 * first (ent's serial correlation); groups is its bytes / 6, and hits the
 * groups whose 24-bit coordinates (x: bytes 0..2, y: bytes 3..5, most
 * significant first) lie inside the circle, x^2 + y^2 <= (2^24 - 1)^2
 * (ent's Monte Carlo pi is 4 hits / groups).  Sums of several inputs
 * stay exact: each input is then a stream of its own.
 */
struct gpuhist_stream {
	uint64_t pairs;
	uint64_t groups;
	uint64_t hits;
};

/*
 * ent(1)'s figures (John Walker's ent 1.2) of one input or of a total,
 * computed as ent computes them, in doubles and in the same order, so that
 * they print ent's digits: NaN where ent divides by zero (no bytes; pi
 * with no group).  The command's -s and the Python module both print
 * these.
 */
struct gpuhist_ent {
	uint64_t bytes;
	double entropy;                 /* bits per byte */
	int compression;                /* optimum compression, percent */
	double chi_square;              /* 255 degrees of freedom */
	double chi_square_p;            /* the chance of exceeding it, 0..1 */
	double mean;                    /* of the bytes' values */
	int stream;                     /* pi and the serial correlation are
					 * known (the stream sums were) */
	double pi, pi_error;            /* Monte Carlo pi; its error, percent */
	int serial_defined;             /* 0 when every byte is equal */
	double serial;                  /* serial correlation coefficient */
	struct gpuhist_stream sums;     /* what pi and serial come from */
	/* A newer library's figures go here, last; gpuhist_ent_of() fills
	 * in no more than the caller's struct holds. */
};

/* Fills *ent (of the program's size) with the figures of the 256 totals
 * and the stream sums s (NULL: not known). */
#define gpuhist_ent_of(totals, s, ent) \
	gpuhist_ent_of_size((totals), (s), (ent), sizeof(*(ent)))
void gpuhist_ent_of_size(const uint64_t totals[256],
			 const struct gpuhist_stream *s,
			 struct gpuhist_ent *ent, size_t struct_size);

/* Fills opts with the defaults (auto backend, all cores) and its
 * struct_size with the size of the program's struct gpuhist_options. */
#define gpuhist_options_init(opts) \
	gpuhist_options_init_size((opts), sizeof(*(opts)))
void gpuhist_options_init_size(struct gpuhist_options *opts,
			       size_t struct_size);

typedef struct gpuhist_counter gpuhist_counter;

/*
 * Opens a counter with a copy of opts.  The backend is started by the
 * first count, which knows the inputs' sizes (auto weighs them).  Returns
 * GPUHIST_OK with *counter set, or a status with *counter NULL and the
 * reason in why[why_len] (why may be NULL).
 */
int gpuhist_open(gpuhist_counter **counter,
		 const struct gpuhist_options *opts, char *why,
		 size_t why_len);

/*
 * Frees the counter and everything it holds.  Returns 0; or 1 where a GPU
 * that auto was still starting has been left to finish in a thread of its
 * own (its driver cannot be stopped half-way): that thread and the
 * counter's memory then stay until the process ends, and a program about
 * to end may leave with _exit() rather than wait for it.  gpuhist_wait()
 * first makes it return 0.
 */
int gpuhist_free(gpuhist_counter *counter);

enum gpuhist_input_type {
	GPUHIST_INPUT_PATH,     /* name is a path; "-" is standard input */
	GPUHIST_INPUT_FD,       /* fd, read from where it stands, left open */
	GPUHIST_INPUT_MEMORY,   /* size bytes at data */
};

/* One thing to count.  name is also what messages call it.  struct_size
 * is 0 (0.2's fields only: what a designated initializer leaves) or
 * sizeof(struct gpuhist_input), the same in every input of an array: the
 * library steps through the array by it. */
struct gpuhist_input {
	size_t struct_size;
	enum gpuhist_input_type type;
	const char *name;
	int fd;
	const void *data;
	size_t size;
	/* PATH only, when length > 0: bytes [offset, offset + length) of a
	 * plain regular file, as one of several processes sharing it. */
	uint64_t offset, length;
	/* Fields added after 0.2 go here, last. */
};

/* What the tokens option counts, each a byte string.  Words are maximal
 * runs of bytes other than space, tab, CR and LF; lines are counted
 * without their newline (a last line without one counts too); a field is
 * the Nth of a line's fields (see separator), or the empty string where
 * the line has fewer.  A key is the value at a path (the key option) of
 * a line read as JSON: a string's bytes, as jq -r prints them; a number
 * as json-c reads it (a decimal as written, an integer in decimal, one
 * past 64 bits saturated); true, false, null; an object or array as
 * compact JSON; null where the path is not there; and the byte 0xff (no
 * JSON text's value holds it) for a line that is not JSON. */
enum gpuhist_tokens_view {
	GPUHIST_TOKENS_NONE,
	GPUHIST_TOKENS_WORDS,
	GPUHIST_TOKENS_LINES,
	GPUHIST_TOKENS_FIELD,
	GPUHIST_TOKENS_KEY,     /* the value at the key option of each
				 * line read as JSON (gpuhist_options) */
	GPUHIST_TOKENS_PER,     /* each line's interval of time (the per
				 * option) */
	GPUHIST_TOKENS_BYTES,   /* after 0.2: each byte of a line, its
				 * newline with it, a token of one byte
				 * (beside per: the byte values of each
				 * interval's lines, gpuhist --per -b) */
	GPUHIST_TOKENS_CHARS,   /* after 0.2: each character of a line as
				 * UTF-8 decodes it (the chars option's
				 * rule), its newline with it: a token of
				 * its 2..4 bytes, or of one byte (ASCII,
				 * or a byte of an ill-formed sequence);
				 * beside per, each interval's
				 * (gpuhist --per -m) */
};

struct gpuhist_token {
	const unsigned char *bytes;     /* not NUL-terminated */
	size_t len;
	uint64_t count;
};

/* One input's tokens: every distinct one, in no particular order (it may
 * differ from run to run: sort them as you need).  Where they outgrew the
 * memory option, token is NULL and they are read back in parts with
 * gpuhist_tokens_each(). */
struct gpuhist_tokens {
	size_t distinct;
	uint64_t total;                 /* tokens counted */
	const struct gpuhist_token *token;
	/* After 0.2: 0, or, where the tokens_top option asked for only the
	 * commonest and a device or the host picked them, how many token
	 * holds (fewer than distinct): every token whose count is above a
	 * bound and those of the bound's count that come first in byte
	 * order (the host lists its tables' tokens_top first each), the
	 * tokens_top commonest (by count, then bytes) among them, each
	 * with its whole count.  distinct and total are still the input's
	 * whole. */
	size_t listed;
};

/* Calls fn with the tokens of a result (as the library handed it out) in
 * parts: disjoint sets of distinct tokens, in no order, each living until
 * fn returns; one part, the tokens themselves, where nothing spilled.
 * fn returns 0 to go on, or a negative number to stop, which is
 * returned; 0 when every part was handed to fn; GPUHIST_ERR_INPUT when a
 * part that spilled cannot be read back (memory, or the file:
 * gpuhist_tokens_message says why). */
int gpuhist_tokens_each(const struct gpuhist_tokens *tokens,
			int (*fn)(void *ctx,
				  const struct gpuhist_tokens *part),
			void *ctx);
const char *gpuhist_tokens_message(const struct gpuhist_tokens *tokens);
/* Where a result's commonest were picked, where only they are listed
 * (listed is not 0): "device" or "host"; else NULL.  After 0.2. */
const char *gpuhist_tokens_picked_on(const struct gpuhist_tokens *tokens);

/* A sum of token counts (several inputs' tokens, results merged), exact,
 * in memory up to `memory` bytes (0: no limit) and spilled to
 * temporary_directory (NULL: $TMPDIR, else /tmp) past it.  Not safe from
 * several threads at once. */
typedef struct gpuhist_token_sum gpuhist_token_sum;

gpuhist_token_sum *gpuhist_token_sum_new(uint64_t memory,
					 const char *temporary_directory);
void gpuhist_token_sum_free(gpuhist_token_sum *sum);
/* Adds count to a token's count; 0, or -1 (gpuhist_token_sum_message). */
int gpuhist_token_sum_add(gpuhist_token_sum *sum, const void *bytes,
			  size_t len, uint64_t count);
/* Adds every token of a result, its parts too; 0 or -1. */
int gpuhist_token_sum_add_tokens(gpuhist_token_sum *sum,
				 const struct gpuhist_tokens *tokens);
/* The sum (read it as a result's tokens: gpuhist_tokens_each), living
 * until the sum is freed; adding after it is an error.  NULL when a spill
 * failed (gpuhist_token_sum_message). */
const struct gpuhist_tokens *gpuhist_token_sum_end(gpuhist_token_sum *sum);
/* Why the last failure: "out of memory", or what a spill met, naming the
 * directory. */
const char *gpuhist_token_sum_message(const gpuhist_token_sum *sum);

/*
 * Values: the numbers a field holds (the field view's tokens read as
 * numbers), in log-linear buckets as HdrHistogram's: the numbers from 2^e
 * to 2^(e+1) fall into sub_buckets buckets of equal width, so that a
 * bucket is never wider than its low bound times the precision asked (1
 * percent: 128 buckets a power of two, each at most 0.78 percent wide);
 * negatives mirror them, zero has a bucket of its own (and among the
 * least subnormals, below 2^-1066, a bucket is one double wide).  The count, the
 * smallest and largest number are exact, the sum exact while every number
 * is an integer of at most 18 digits (and compensated otherwise), and a
 * quantile is within the precision of an exact sort's.  A field that is
 * not a number (gpuhist --values(1) says which are) is counted as such.
 */
typedef struct gpuhist_values gpuhist_values;

/* Empty values whose buckets are at most precision percent of their low
 * bound wide (0: 1 percent; 0.0016 to 50); NULL when out of memory or out
 * of that range. */
gpuhist_values *gpuhist_values_new(double precision);
void gpuhist_values_free(gpuhist_values *values);
/* Adds a field, count times: 1 when it is a number, 0 when not, -1 when a
 * count would pass 2^64-1 (gpuhist_values_message). */
int gpuhist_values_add(gpuhist_values *values, const void *text, size_t len,
		       uint64_t count);
/* Adds every token of a result (a field view's), its parts too; 0 or -1. */
int gpuhist_values_add_tokens(gpuhist_values *values,
			      const struct gpuhist_tokens *tokens);
/* Adds from into to (of the same precision); 0 or -1. */
int gpuhist_values_merge(gpuhist_values *to, const gpuhist_values *from);
const char *gpuhist_values_message(const gpuhist_values *values);

/* What the numbers add up to. */
struct gpuhist_values_summary {
	uint64_t numbers;       /* fields that are numbers */
	uint64_t not_numbers;   /* fields that are not, empty ones too */
	uint64_t empty;         /* of those, empty (a line without the
				 * field says "" too) */
	double min, max;        /* of the numbers; 0 when there are none */
	double sum, mean;       /* the nearest doubles; mean NaN for none */
	int sum_exact;          /* sum_text is the exact sum */
	char min_text[40], max_text[40];    /* min and max exactly: an
				 * integer in full, else the shortest text
				 * that reads back as the double */
	char sum_text[48];
	int sub_buckets;        /* buckets a power of two */
	double precision;       /* a bucket's width at most, percent of its
				 * low bound: 100 / sub_buckets */
};
#define gpuhist_values_summary(values, s) \
	gpuhist_values_summary_size((values), (s), sizeof(*(s)))
void gpuhist_values_summary_size(const gpuhist_values *values,
				 struct gpuhist_values_summary *s,
				 size_t struct_size);

/* The q quantile, 0 <= q <= 1 (rounded to 12 decimals), by the nearest
 * rank: the smallest number with at least q x numbers at or below it,
 * within the precision (its bucket's bound nearest zero, kept between min
 * and max); NaN when there are no numbers. */
double gpuhist_values_quantile(gpuhist_values *values, double q);

/* One non-empty bucket: low <= x < high for positive x, low < x <= high
 * for negative x, low == high == 0 for zero. */
struct gpuhist_value_bucket {
	double low, high;
	uint64_t count;
};
/* How many buckets hold numbers; bucket i of them in ascending order
 * (0, or -1 past the last). */
size_t gpuhist_values_buckets(gpuhist_values *values);
int gpuhist_values_bucket(gpuhist_values *values, size_t i,
			  struct gpuhist_value_bucket *bucket);

/* A number as values write it: the shortest text that reads back as d
 * (an integral d below 10^17 in full: 1500, not 1.5e+03), in the C
 * locale; out holds at least 32 bytes. */
void gpuhist_values_text(double d, char *out, size_t len);

/* Reading a result back (--merge): adds count numbers to the bucket from
 * low to high (as gpuhist_values_bucket gave it, at the same precision),
 * and a result's extremes, sum and fields that were not numbers; 0, or -1
 * (gpuhist_values_message: bounds of no bucket, text that is not a
 * number, a count past 2^64-1). */
int gpuhist_values_add_bucket(gpuhist_values *values, double low,
			      double high, uint64_t count);
int gpuhist_values_add_summary(gpuhist_values *values, const char *min_text,
			       const char *max_text, const char *sum_text,
			       int sum_exact, uint64_t not_numbers,
			       uint64_t empty);

/* Values per interval read back (gpuhist_merge_json of a result of
 * --values with per): the total's tokens are each an interval, a tab and
 * a unit that stands for a bucket of its numbers or for their summary.
 * Adds such a unit, count times, into values (NULL: none), and sets
 * *fields (NULL: not wanted) to the fields it stands for (numbers and not
 * numbers); 0, -1 as gpuhist_values_add_bucket and _add_summary fail
 * (gpuhist_values_message), or -2 for a unit that is not one (or a
 * summary counted more than 2^24 times: one a result merged). */
int gpuhist_values_add_merged(gpuhist_values *values, const void *unit,
			      size_t len, uint64_t count, uint64_t *fields);

/*
 * Results read back (gpuhist --merge): a document that gpuhist -f json
 * wrote, checked whole (every entry's figures against each other, the
 * total against the inputs'), its "total" added into what the caller
 * holds.  The document's view must be opts': a tokens view, or, where
 * values is given, the values view of opts' field or key, or else the
 * bytes view (with ent's stream sums where they are there, and, where
 * chars is given, its entries' code points, which every entry must
 * have).  One reader a view, found through one table of
 * rows (src/lib/merge/readers.c).
 */
#define GPUHIST_MERGE_MESSAGE 4096
struct gpuhist_merge {
	size_t struct_size;             /* sizeof(struct gpuhist_merge) */
	/* In: where the total goes. */
	const uint64_t *sum;            /* 256 totals merged before (the
					 * bytes view: this one must fit
					 * beside them), or NULL */
	struct gpuhist_chars *chars;    /* NULL, or where the total's code
					 * points are added (-m) */
	gpuhist_token_sum *tokens;      /* a tokens view: the total's
					 * tokens are added here */
	gpuhist_values *values;         /* the values view: its numbers */
	/* Out. */
	uint64_t totals[256];           /* the total's histogram; a tokens
					 * or values result's bytes_read in
					 * totals[0] */
	int stream_known;               /* the total has ent's sums */
	struct gpuhist_stream stream;
	char message[GPUHIST_MERGE_MESSAGE];    /* why it failed: lines
					 * "NAME: reason\n" */
};

/* Reads the document at path ("-": standard input) into m as its view's
 * reader says: m->totals and m->stream are set, the total's tokens,
 * values or code points added to m's.  opts are checked as gpuhist_open()
 * checks them.  GPUHIST_OK; GPUHIST_ERR_INPUT when the document cannot be
 * read or is refused, or memory ran out (m->message says why; m's chars,
 * tokens and values may then hold part of it: let them go);
 * GPUHIST_ERR_ARGUMENT for options gpuhist_open() refuses, a NULL
 * argument, a struct_size too small for this library (m->message is then
 * not written) or a tokens view without m->tokens. */
int gpuhist_merge_json(const struct gpuhist_options *opts, const char *path,
		       struct gpuhist_merge *m);

/* The name of opts' tokens view as json writes it ("words", "lines",
 * "field", "fields" for a key of several, "key"), "bytes" where none. */
const char *gpuhist_view_name(const struct gpuhist_options *opts);

/* What became of one input. */
struct gpuhist_result {
	int index;              /* its place in the list counted */
	const char *name;
	int status;             /* GPUHIST_OK, or why it failed */
	const uint64_t *totals; /* its 256 exact totals; NULL if it failed */
	const struct gpuhist_chars *chars;  /* with the chars option, its
				 * code points; NULL if it failed */
	const char *messages;   /* lines "NAME: text\n" said of it: why it
				 * failed, warnings (bzip2's trailing
				 * garbage ignored), with verbose how it was
				 * decoded; "" for none */
	const struct gpuhist_stream *stream;    /* with the stats option,
				 * its stream sums; NULL if it failed */
	const struct gpuhist_tokens *tokens;    /* with the tokens option,
				 * its tokens; NULL if it failed */
};

typedef void (*gpuhist_result_fn)(void *ctx,
				  const struct gpuhist_result *result);

/*
 * Counts n inputs, several at once, and hands each result to fn in input
 * order, from the calling thread, as soon as it and those before it are
 * done; the pointers in a result live until fn returns.  Returns
 * GPUHIST_OK when every input was counted, GPUHIST_ERR_INPUT when some
 * failed (their results say why), or another status, with
 * gpuhist_message(), when nothing could be counted (no result is given
 * then).
 */
int gpuhist_count(gpuhist_counter *counter, const struct gpuhist_input *inputs,
		  int n, gpuhist_result_fn fn, void *ctx);

/*
 * Starts the counter's backend now, sized for inputs[0..n) as the first
 * count would size it, so that a program can fail (GPUHIST_ERR_BACKEND,
 * with gpuhist_message()) before it has written anything; for
 * GPUHIST_BACKEND_GPU it waits until the GPU has started.  Without it,
 * gpuhist_count() starts the backend itself, and under
 * GPUHIST_BACKEND_GPU counts on the CPU while the GPU starts, returning
 * GPUHIST_ERR_BACKEND before any result when it cannot start.  A started
 * counter returns GPUHIST_OK at once.
 */
int gpuhist_start(gpuhist_counter *counter, const struct gpuhist_input *inputs,
		  int n);

/* Waits until work the counter still does in the background has ended
 * (a GPU that auto is starting), so that gpuhist_free() returns 0. */
void gpuhist_wait(gpuhist_counter *counter);

/* One input each, its totals into totals[256]; a status, and on failure
 * the reason in gpuhist_message(). */
int gpuhist_count_file(gpuhist_counter *counter, const char *path,
		       uint64_t totals[256]);
int gpuhist_count_fd(gpuhist_counter *counter, int fd, const char *name,
		     uint64_t totals[256]);
int gpuhist_count_buffer(gpuhist_counter *counter, const void *data,
			 size_t size, uint64_t totals[256]);

/*
 * Stops the count under way on the counter, from any thread (the progress
 * callback too): readers and decoders stop at their next chunk, inputs
 * not yet finished end with GPUHIST_ERR_CANCELLED and the message
 * "NAME: cancelled", and the count returns GPUHIST_ERR_CANCELLED once its
 * threads have ended.  An input waiting on a pipe stops when data comes
 * or the pipe closes.  The next count on the counter is not affected.
 */
void gpuhist_cancel(gpuhist_counter *counter);

/*
 * Pushing: bytes handed over as they come, counted as one input (a log
 * shipper's buffers, a socket's reads).  The first bytes tell the format,
 * as for files: gzip, zstd, xz, bzip2 and lz4 are decoded; the options
 * (backend, chars, stats, raw) apply.  Memory stays bounded however much
 * is written: a write waits while the counter is behind.
 *
 *	gpuhist_push *p;
 *	if (gpuhist_push_open(c, "socket", &p) != GPUHIST_OK) ...
 *	while ((n = read(sock, buf, sizeof(buf))) > 0)
 *		if (gpuhist_push_write(p, buf, n) != GPUHIST_OK)
 *			break;          (the input failed: close says why)
 *	status = gpuhist_push_close(p, on_result, ctx);
 *
 * While a push is open its counter counts it in a thread of the counter's
 * own: the program makes no other call on the counter but
 * gpuhist_cancel() until gpuhist_push_close().  One thread writes.
 */
typedef struct gpuhist_push gpuhist_push;

/* Opens a push onto counter; name (NULL: "(push)") is what messages call
 * the input.  A status, with gpuhist_message() on failure. */
int gpuhist_push_open(gpuhist_counter *counter, const char *name,
		      gpuhist_push **push);

/* Hands over len bytes (any length, 0 too).  GPUHIST_OK; or the status
 * the input already ended with (GPUHIST_ERR_INPUT: corrupt data, say;
 * GPUHIST_ERR_CANCELLED), after which writes add nothing and
 * gpuhist_push_close() gives the reason. */
int gpuhist_push_write(gpuhist_push *push, const void *data, size_t len);

/* Ends the input, waits for its count, hands its result (index 0) to fn
 * when fn is not NULL, and frees push.  Returns the result's status, or
 * another status when nothing could be counted (the backend, memory:
 * gpuhist_message() of the counter says why). */
int gpuhist_push_close(gpuhist_push *push, gpuhist_result_fn fn, void *ctx);

/* Why the counter's last call failed ("" when it did not), without a
 * trailing newline; valid until the next call on the counter. */
const char *gpuhist_message(const gpuhist_counter *counter);

/* What a counter has done, for a verbose report. */
struct gpuhist_summary {
	const char *backend;    /* what counts: backend, devices, chunks;
				 * "" before the first count */
	const char *format;     /* the last compressed input's format
				 * ("gzip", "zstd", "xz", "bzip2"), or NULL */
	const char *decoder;    /* what decoded it ("isa-l", "libzstd") */
	uint64_t bytes;         /* bytes counted, all inputs */
	double seconds;         /* since the counter was opened */
	double startup;         /* of those, until the backend had started */
};

/* Fills summary; its strings live until the next call on the counter. */
void gpuhist_summarize(gpuhist_counter *counter,
		       struct gpuhist_summary *summary);

enum gpuhist_kind {
	GPUHIST_KIND_UNREADABLE,    /* missing, or not to be read as data */
	GPUHIST_KIND_DIRECTORY,
	GPUHIST_KIND_STREAM,        /* standard input, a FIFO, a device */
	GPUHIST_KIND_FILE,          /* a regular file counted as it is */
	GPUHIST_KIND_COMPRESSED,    /* a regular file to be decoded */
};

/* What kind of input path is, without reading more than its first bytes,
 * and (FILE and COMPRESSED) its size on disk in *size; raw as in options. */
enum gpuhist_kind gpuhist_probe(const char *path, int raw, uint64_t *size);

/* The compressed formats this build decodes, into buf[len]: "gzip
 * (ISA-L, zlib), zstd, xz, bzip2", a format left out of the build
 * followed by " (not built in)". */
void gpuhist_decoders(char *buf, size_t len);

/* How many CUDA devices are usable: 0 with the reason in why[why_len]
 * (built without CUDA, no driver, CUDA's own words); why may be NULL. */
int gpuhist_gpu_count(char *why, size_t why_len);

/* Lines on the CUDA runtime and driver and on each usable device, each
 * ending in a newline, into buf[len]; "" without CUDA. */
void gpuhist_gpu_describe(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
