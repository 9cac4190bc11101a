/* values.c - the values view: a field's numbers in log-linear buckets
 *
 * A number x != 0 is m * 2^e with 0.5 <= m < 1 (frexp); its bucket is e and
 * the sub-bucket floor((2m - 1) * S), S a power of two, so that a bucket
 * spans (S + sub) * 2^(e-1-bits) to one step more: never wider than 1/S of
 * its bound nearest zero (HdrHistogram's log-linear buckets, with a
 * double's exponent for the magnitude); among the least subnormals, where
 * that would be finer than a double, a bucket is one double wide.  Every exponent a double has gets
 * its page of S counters once a number falls in it; negatives have pages
 * of their own, zero a counter.  Besides the buckets: the count, the
 * extremes and the sum, exactly where the numbers are integers (an int128,
 * which 2^64 numbers below 10^18 cannot overflow), Neumaier's compensated
 * sum of doubles for the rest.  Quantiles are read off the buckets by the
 * nearest rank.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhist.h"
#include "number.h"

#define EXP_LO (-1073)          /* frexp's exponent of the least subnormal */
#define EXP_HI 1024             /* ... and of the greatest double */
#define N_EXP (EXP_HI - EXP_LO + 1)
#define BITS_MAX 16             /* 65536 buckets a power of two */
#define QUANTILE_SCALE 1000000000000ull     /* q is read to 12 decimals */

struct gpuhist_values {
	int bits;                       /* S = 1 << bits sub-buckets */
	uint64_t *page[2][N_EXP];       /* [0] positive, [1] negative */
	uint64_t zero;
	uint64_t numbers, not_numbers, empty;
	int have_extremes;
	struct gh_number min, max;
	__int128 int_sum;               /* of the integers, exact */
	long double sum, compensation;  /* of the rest: Neumaier's, with a
					 * long double's range where it has
					 * one (x86's: no overflow below
					 * 10^4932) */
	int inexact;                    /* a number went into sum */
	struct gpuhist_value_bucket *list;      /* the buckets in order, */
	size_t n_list;                  /* made when asked for, */
	int list_fresh;                 /* until a number is added */
	char message[256];
};

__attribute__((format(printf, 2, 3)))
static int fail(gpuhist_values *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	return -1;
}

gpuhist_values *gpuhist_values_new(double precision)
{
	if (precision == 0)
		precision = 1;
	if (!(precision > 0 && precision <= 50))
		return NULL;

	int bits = 1;

	while (bits < BITS_MAX && 100.0 / (double)(1u << bits) > precision)
		bits++;
	if (100.0 / (double)(1u << bits) > precision)
		return NULL;

	gpuhist_values *v = calloc(1, sizeof(*v));

	if (v)
		v->bits = bits;
	return v;
}

void gpuhist_values_free(gpuhist_values *v)
{
	if (!v)
		return;
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < N_EXP; e++)
			free(v->page[s][e]);
	free(v->list);
	free(v);
}

const char *gpuhist_values_message(const gpuhist_values *v)
{
	return v->message;
}

/* The sub-bucket bits at exponent e: bits, but fewer where a bucket's
 * bounds would pass below the least subnormal (2^-1074), which keeps them
 * exact: there a bucket is one double wide. */
static int bits_at(const gpuhist_values *v, int e)
{
	return v->bits < e + 1073 ? v->bits : e + 1073;
}

/* Where a magnitude m > 0 falls: its page and sub-bucket. */
static void bucket_of(const gpuhist_values *v, double m, int *page, int *sub)
{
	int e;
	double f = frexp(m, &e);

	*page = e - EXP_LO;
	*sub = (int)((f - 0.5) * 2.0 * (double)(1u << bits_at(v, e)));
}

/* A bucket's bounds in magnitude: [*lo, *hi). */
static void bounds_of(const gpuhist_values *v, int page, int sub, double *lo,
		      double *hi)
{
	int e = page + EXP_LO, bits = bits_at(v, e);
	uint32_t s = 1u << bits;

	*lo = ldexp((double)(s + (uint32_t)sub), e - 1 - bits);
	*hi = ldexp((double)(s + (uint32_t)sub + 1), e - 1 - bits);
	if (isinf(*hi))
		*hi = 1.7976931348623157e308;   /* DBL_MAX: the last bucket */
}

static int add_count(gpuhist_values *v, uint64_t *to, uint64_t count)
{
	if (*to > UINT64_MAX - count)
		return fail(v, "a count past 2^64-1");
	*to += count;
	return 0;
}

/* count more numbers of magnitude m (sign negative) in their bucket. */
static int add_to_bucket(gpuhist_values *v, double d, uint64_t count)
{
	uint64_t *slot;

	if (d == 0) {
		slot = &v->zero;
	} else {
		int page, sub, neg = d < 0;

		bucket_of(v, fabs(d), &page, &sub);
		if (!v->page[neg][page]) {
			v->page[neg][page] = calloc((size_t)1 << v->bits,
						    sizeof(uint64_t));
			if (!v->page[neg][page])
				return fail(v, "out of memory");
		}
		slot = &v->page[neg][page][sub];
	}
	if (add_count(v, &v->numbers, count))
		return -1;
	*slot += count;                 /* <= numbers: no overflow */
	v->list_fresh = 0;
	return 0;
}

/* -1, 0, 1 as a is below, equal to or above b (integers past 2^53 by
 * their exact value). */
static int compare(const struct gh_number *a, const struct gh_number *b)
{
	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	if (a->is_int && b->is_int)
		return (a->i > b->i) - (a->i < b->i);
	return 0;
}

static void add_extremes(gpuhist_values *v, const struct gh_number *lo,
			 const struct gh_number *hi)
{
	if (!v->have_extremes) {
		v->min = *lo;
		v->max = *hi;
		v->have_extremes = 1;
		return;
	}
	int c = compare(lo, &v->min);

	if (c < 0 || (c == 0 && lo->is_int && !v->min.is_int))
		v->min = *lo;
	c = compare(hi, &v->max);
	if (c > 0 || (c == 0 && hi->is_int && !v->max.is_int))
		v->max = *hi;
}

/* Neumaier's step: x into sum, what it loses into compensation. */
static void add_double(gpuhist_values *v, long double x)
{
	long double t = v->sum + x;

	if (fabsl(v->sum) >= fabsl(x))
		v->compensation += (v->sum - t) + x;
	else
		v->compensation += (x - t) + v->sum;
	v->sum = t;
	v->inexact = 1;
}

static int add_number(gpuhist_values *v, const struct gh_number *x,
		      uint64_t count)
{
	if (add_to_bucket(v, x->d, count))
		return -1;
	add_extremes(v, x, x);
	if (x->is_int)
		v->int_sum += (__int128)x->i * (__int128)count;
	else
		add_double(v, (long double)x->d * (long double)count);
	return 0;
}

int gpuhist_values_add(gpuhist_values *v, const void *text, size_t len,
		       uint64_t count)
{
	struct gh_number x;

	if (!count)
		return gh_number_parse(text, len, &x);
	if (!gh_number_parse(text, len, &x)) {
		if (add_count(v, &v->not_numbers, count) ||
		    (!len && add_count(v, &v->empty, count)))
			return -1;
		return 0;
	}
	return add_number(v, &x, count) ? -1 : 1;
}

static int add_part(void *ctx, const struct gpuhist_tokens *part)
{
	gpuhist_values *v = ctx;

	for (size_t i = 0; i < part->distinct; i++) {
		const struct gpuhist_token *t = &part->token[i];

		if (gpuhist_values_add(v, t->bytes, t->len, t->count) < 0)
			return -1;
	}
	return 0;
}

int gpuhist_values_add_tokens(gpuhist_values *v,
			      const struct gpuhist_tokens *tokens)
{
	int ret = gpuhist_tokens_each(tokens, add_part, v);

	if (ret == GPUHIST_ERR_INPUT)
		return fail(v, "%s", gpuhist_tokens_message(tokens));
	return ret ? -1 : 0;
}

int gpuhist_values_merge(gpuhist_values *to, const gpuhist_values *from)
{
	uint32_t s = 1u << to->bits;

	if (to->bits != from->bits)
		return fail(to, "values of another precision (%.4g%% "
			    "against %.4g%%)", 100.0 / (double)(1u << from->bits),
			    100.0 / (double)s);
	if (add_count(to, &to->numbers, from->numbers) ||
	    add_count(to, &to->not_numbers, from->not_numbers) ||
	    add_count(to, &to->empty, from->empty))
		return -1;
	to->zero += from->zero;
	for (int neg = 0; neg < 2; neg++)
		for (int e = 0; e < N_EXP; e++) {
			const uint64_t *f = from->page[neg][e];

			if (!f)
				continue;
			if (!to->page[neg][e]) {
				to->page[neg][e] = calloc(s, sizeof(uint64_t));
				if (!to->page[neg][e])
					return fail(to, "out of memory");
			}
			for (uint32_t k = 0; k < s; k++)
				to->page[neg][e][k] += f[k];
		}
	if (from->have_extremes)
		add_extremes(to, &from->min, &from->max);
	if (__builtin_add_overflow(to->int_sum, from->int_sum, &to->int_sum))
		return fail(to, "a sum past 2^127");
	if (from->inexact) {
		add_double(to, from->sum);
		add_double(to, from->compensation);
	}
	to->list_fresh = 0;
	return 0;
}

/* An int128 in decimal. */
static void int128_text(__int128 x, char *out, size_t len)
{
	char digits[48];
	int n = 0, neg = x < 0;
	unsigned __int128 u = neg ? -(unsigned __int128)x : (unsigned __int128)x;

	do {
		digits[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	size_t at = 0;

	if (neg && at + 1 < len)
		out[at++] = '-';
	while (n && at + 1 < len)
		out[at++] = digits[--n];
	out[at] = '\0';
}

static void number_text(const struct gh_number *x, char *out, size_t len)
{
	if (x->is_int)
		snprintf(out, len, "%lld", (long long)x->i);
	else
		gh_number_format(x->d, out, len);
}

void gpuhist_values_summary_size(const gpuhist_values *v,
				 struct gpuhist_values_summary *s,
				 size_t struct_size)
{
	struct gpuhist_values_summary f;
	long double sum = (long double)v->int_sum + (long double)v->sum +
			  (long double)v->compensation;

	memset(&f, 0, sizeof(f));
	f.numbers = v->numbers;
	f.not_numbers = v->not_numbers;
	f.empty = v->empty;
	f.sub_buckets = 1 << v->bits;
	f.precision = 100.0 / (double)f.sub_buckets;
	f.sum = (double)sum;
	f.mean = v->numbers ? (double)(sum / (long double)v->numbers) : NAN;
	f.sum_exact = !v->inexact;
	if (f.sum_exact)
		int128_text(v->int_sum, f.sum_text, sizeof(f.sum_text));
	else if (isfinite(f.sum))
		gh_number_format(f.sum, f.sum_text, sizeof(f.sum_text));
	else                        /* past a double: the long double's */
		gh_number_format_long(sum, f.sum_text, sizeof(f.sum_text));
	if (v->have_extremes) {
		f.min = v->min.d;
		f.max = v->max.d;
		number_text(&v->min, f.min_text, sizeof(f.min_text));
		number_text(&v->max, f.max_text, sizeof(f.max_text));
	} else {
		strcpy(f.min_text, "0");
		strcpy(f.max_text, "0");
	}
	memcpy(s, &f, struct_size < sizeof(f) ? struct_size : sizeof(f));
}

/* Appends one bucket (bounds in value order) to the list. */
static void list_put(gpuhist_values *v, double lo, double hi, uint64_t count)
{
	v->list[v->n_list].low = lo;
	v->list[v->n_list].high = hi;
	v->list[v->n_list].count = count;
	v->n_list++;
}

/* The non-empty buckets in ascending order: the negatives from the
 * largest magnitude down, zero, the positives up; -1 when out of memory. */
static int make_list(gpuhist_values *v)
{
	uint32_t s = 1u << v->bits;
	size_t n = v->zero ? 1 : 0;

	if (v->list_fresh)
		return 0;
	for (int neg = 0; neg < 2; neg++)
		for (int e = 0; e < N_EXP; e++)
			for (uint32_t k = 0; v->page[neg][e] && k < s; k++)
				n += v->page[neg][e][k] != 0;
	free(v->list);
	v->list = malloc((n ? n : 1) * sizeof(*v->list));
	v->n_list = 0;
	if (!v->list)
		return fail(v, "out of memory");
	double lo, hi;

	for (int e = N_EXP - 1; e >= 0; e--)
		for (int k = (int)s - 1; v->page[1][e] && k >= 0; k--)
			if (v->page[1][e][k]) {
				bounds_of(v, e, k, &lo, &hi);
				list_put(v, -hi, -lo, v->page[1][e][k]);
			}
	if (v->zero)
		list_put(v, 0, 0, v->zero);
	for (int e = 0; e < N_EXP; e++)
		for (uint32_t k = 0; v->page[0][e] && k < s; k++)
			if (v->page[0][e][k]) {
				bounds_of(v, e, (int)k, &lo, &hi);
				list_put(v, lo, hi, v->page[0][e][k]);
			}
	v->list_fresh = 1;
	return 0;
}

size_t gpuhist_values_buckets(gpuhist_values *v)
{
	return make_list(v) ? 0 : v->n_list;
}

int gpuhist_values_bucket(gpuhist_values *v, size_t i,
			  struct gpuhist_value_bucket *bucket)
{
	if (make_list(v) || i >= v->n_list)
		return -1;
	*bucket = v->list[i];
	return 0;
}

double gpuhist_values_quantile(gpuhist_values *v, double q)
{
	if (!v->numbers || !(q >= 0 && q <= 1) || make_list(v))
		return NAN;

	/* rank = ceil(q n), q read as a fraction of 10^12 so that 0.1 of 10
	 * numbers is the first, not the second. */
	unsigned __int128 k = (unsigned __int128)llround(q * (double)QUANTILE_SCALE);
	unsigned __int128 rank = (k * v->numbers + QUANTILE_SCALE - 1) /
				 QUANTILE_SCALE;

	if (rank <= 1)
		return v->min.d;
	if (rank >= v->numbers)
		return v->max.d;

	uint64_t seen = 0;
	size_t i = 0;

	for (; i + 1 < v->n_list; i++) {
		seen += v->list[i].count;
		if (seen >= rank)
			break;
	}
	/* The bound nearest zero: within the bucket's width of every
	 * number in it. */
	const struct gpuhist_value_bucket *b = &v->list[i];
	double x = b->low < 0 ? b->high : b->low;

	if (x < v->min.d)
		x = v->min.d;
	if (x > v->max.d)
		x = v->max.d;
	return x;
}

int gpuhist_values_add_bucket(gpuhist_values *v, double low, double high,
			      uint64_t count)
{
	double near = low < 0 ? high : low, far = low < 0 ? -low : high;
	double lo = 0, hi = 0;

	if (!isfinite(low) || !isfinite(high) || !(low <= high) ||
	    (low < 0 && high > 0))
		return fail(v, "a bucket from %g to %g", low, high);
	if (near != 0) {
		int page, sub;

		bucket_of(v, fabs(near), &page, &sub);
		bounds_of(v, page, sub, &lo, &hi);
		if (lo != fabs(near) || hi != far)
			return fail(v, "a bucket from %.17g to %.17g, which "
				    "is none at %.4g%% precision", low, high,
				    100.0 / (double)(1u << v->bits));
	} else if (high != 0 || low != 0) {
		return fail(v, "a bucket from %g to %g", low, high);
	}
	/* The bucket's bound nearest zero is a number of that bucket. */
	return count ? add_to_bucket(v, near, count) : 0;
}

/* The sum's text back: an exact integer, or a double. */
static int read_sum(gpuhist_values *v, const char *text, int exact)
{
	if (!exact) {
		long double d;

		if (!gh_number_parse_long(text, &d))
			return fail(v, "a sum '%s' that is not a number", text);
		add_double(v, d);
		return 0;
	}
	const char *p = text;
	int neg = *p == '-';
	__int128 sum = 0;

	p += neg || *p == '+';
	if (!*p)
		return fail(v, "a sum '%s' that is not an exact integer", text);
	for (; *p; p++) {
		if (*p < '0' || *p > '9' ||
		    __builtin_mul_overflow(sum, 10, &sum) ||
		    __builtin_add_overflow(sum, *p - '0', &sum))
			return fail(v, "a sum '%s' that is not an exact integer "
				    "of at most 38 digits", text);
	}
	if (__builtin_add_overflow(v->int_sum, neg ? -sum : sum, &v->int_sum))
		return fail(v, "a sum past 2^127");
	return 0;
}

int gpuhist_values_add_summary(gpuhist_values *v, const char *min_text,
			       const char *max_text, const char *sum_text,
			       int sum_exact, uint64_t not_numbers,
			       uint64_t empty)
{
	struct gh_number lo, hi;

	if (empty > not_numbers)
		return fail(v, "more empty fields than fields that are not "
			    "numbers");
	if (add_count(v, &v->not_numbers, not_numbers) ||
	    add_count(v, &v->empty, empty))
		return -1;
	if (min_text && max_text) {
		if (!gh_number_parse((const unsigned char *)min_text,
				     strlen(min_text), &lo) ||
		    !gh_number_parse((const unsigned char *)max_text,
				     strlen(max_text), &hi))
			return fail(v, "a min or max that is not a number");
		add_extremes(v, &lo, &hi);
	}
	return sum_text ? read_sum(v, sum_text, sum_exact) : 0;
}
