/* fuzz-values.c - libFuzzer harness: the values view's number parser and
 * buckets against rules checked here
 *
 * The input is cut at newlines into fields.  Each field's verdict (number
 * or not, and its value) must equal a reference written from the man
 * page's VALUES rules with code of its own: blanks (space, tab, CR)
 * stripped at both ends, then sign? (digits ('.' digits?)? | '.' digits)
 * (e|E sign? digits)?, the value strtod's, refused when not finite.
 * Then the fields are added to values at a precision the first byte
 * chooses, and:
 *   - numbers + not_numbers is the fields' count, and the buckets hold
 *     numbers, in ascending order, each no wider than the precision;
 *   - every number lies in the bucket its count went to (checked by
 *     adding it alone to empty values);
 *   - quantile(0) is min, quantile(1) max, quantiles never decrease and
 *     lie between min and max;
 *   - the values of the first half merged with the second's have the
 *     whole's buckets, counts and extremes; and buckets written out and
 *     read back (gpuhist_values_add_bucket) are the same buckets.
 * A disagreement aborts.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhist.h"
#include "values/number.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

/* The reference: is s[0..n) a number, and which. */
static bool reference(const unsigned char *s, size_t n, double *value)
{
	size_t a = 0, b = n;

	while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' ||
			 s[b - 1] == '\r'))
		b--;
	if (a == b)
		return false;

	char *text = strndup((const char *)s + a, b - a);
	const char *p = text;
	bool digit_seen = false;

	if (*p == '+' || *p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digit_seen = true;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digit_seen = true;
	bool ok = digit_seen;

	if (ok && (*p == 'e' || *p == 'E')) {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		ok = *p >= '0' && *p <= '9';
		while (*p >= '0' && *p <= '9')
			p++;
	}
	ok = ok && (size_t)(p - text) == b - a;     /* no NUL inside either */
	if (ok) {
		*value = strtod(text, NULL);
		ok = isfinite(*value);
	}
	free(text);
	return ok;
}

static void same_buckets(gpuhist_values *a, gpuhist_values *b)
{
	size_t n = gpuhist_values_buckets(a);
	struct gpuhist_value_bucket x, y;

	CHECK(n == gpuhist_values_buckets(b));
	for (size_t i = 0; i < n; i++) {
		CHECK(!gpuhist_values_bucket(a, i, &x));
		CHECK(!gpuhist_values_bucket(b, i, &y));
		CHECK(x.low == y.low && x.high == y.high && x.count == y.count);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double precisions[8] = {
		1, 0.1, 10, 50, 0.0016, 3, 0.5, 25,
	};
	if (size < 1)
		return 0;
	double precision = precisions[data[0] & 7];
	gpuhist_values *all = gpuhist_values_new(precision);
	gpuhist_values *half[2] = { gpuhist_values_new(precision),
				    gpuhist_values_new(precision) };
	uint64_t fields = 0;

	CHECK(all && half[0] && half[1]);
	data++, size--;
	for (size_t at = 0; at <= size; ) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = (nl ? (size_t)(nl - data) : size) - at;
		struct gh_number x;
		double want = 0;
		bool is = reference(data + at, len, &want);

		CHECK(gh_number_parse(data + at, len, &x) == is);
		if (is)
			CHECK(x.d == want);
		CHECK(gpuhist_values_add(all, data + at, len, 1) == is);
		CHECK(gpuhist_values_add(half[at * 2 >= size], data + at, len,
					 1) == is);
		if (is) {
			/* Alone, it lands in the bucket that holds it. */
			gpuhist_values *one = gpuhist_values_new(precision);
			struct gpuhist_value_bucket b;

			CHECK(one && gpuhist_values_add(one, data + at, len, 3) == 1);
			CHECK(gpuhist_values_buckets(one) == 1);
			CHECK(!gpuhist_values_bucket(one, 0, &b) && b.count == 3);
			if (x.d > 0)
				CHECK(b.low <= x.d && (x.d < b.high ||
				      b.high == 1.7976931348623157e308));
			else if (x.d < 0)
				CHECK(b.low < x.d && x.d <= b.high);
			else
				CHECK(b.low == 0 && b.high == 0);
			gpuhist_values_free(one);
		}
		fields++;
		if (!nl)
			break;
		at += len + 1;
	}

	struct gpuhist_values_summary s;
	struct gpuhist_value_bucket b, prev = { 0, 0, 0 };
	uint64_t held = 0;
	size_t n = gpuhist_values_buckets(all);
	gpuhist_values *back = gpuhist_values_new(precision);

	gpuhist_values_summary(all, &s);
	CHECK(s.numbers + s.not_numbers == fields);
	for (size_t i = 0; i < n; i++) {
		CHECK(!gpuhist_values_bucket(all, i, &b));
		CHECK(b.count > 0 && b.low <= b.high);
		CHECK(i == 0 || prev.high <= b.low);
		double near = b.low < 0 ? -b.high : b.low;

		CHECK((b.high - b.low) * s.sub_buckets <= near ||
		      b.high - b.low == 0x1p-1074 ||  /* one double wide */
		      b.high == 1.7976931348623157e308);
		CHECK(!gpuhist_values_add_bucket(back, b.low, b.high, b.count));
		held += b.count;
		prev = b;
	}
	CHECK(held == s.numbers);
	same_buckets(all, back);
	if (s.numbers) {
		double last = -INFINITY;

		CHECK(gpuhist_values_quantile(all, 0) == s.min);
		CHECK(gpuhist_values_quantile(all, 1) == s.max);
		for (int k = 0; k <= 20; k++) {
			double q = gpuhist_values_quantile(all, k / 20.0);

			CHECK(q >= last && q >= s.min && q <= s.max);
			last = q;
		}
	}
	CHECK(!gpuhist_values_merge(half[0], half[1]));
	same_buckets(all, half[0]);

	struct gpuhist_values_summary m;

	gpuhist_values_summary(half[0], &m);
	CHECK(m.numbers == s.numbers && m.not_numbers == s.not_numbers &&
	      m.empty == s.empty);
	CHECK(!strcmp(m.min_text, s.min_text) &&
	      !strcmp(m.max_text, s.max_text));
	if (s.sum_exact)
		CHECK(m.sum_exact && !strcmp(m.sum_text, s.sum_text));
	gpuhist_values_free(all);
	gpuhist_values_free(half[0]);
	gpuhist_values_free(half[1]);
	gpuhist_values_free(back);
	return 0;
}
