/* number.c - is a field a number, and which: the values view's parser
 *
 * The grammar is checked here byte by byte, so that strtod (in a C locale
 * of its own, whatever the program's LC_NUMERIC) sees only what it is
 * meant to: no "inf", hex, leading blanks or locale's decimal comma.
 * Integers of up to 18 digits are read exactly as int64 besides.
 */
#define _GNU_SOURCE             /* strtod_l */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhist.h"
#include "number.h"

#define INT_DIGITS 18           /* below 2^63: exact in an int64 */
#define SHORT_TEXT 128          /* a number this long is read in place */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_open(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* strtod in the C locale; out of memory for it: the global locale, which
 * is C unless the program chose another. */
static double c_strtod(const char *s)
{
	pthread_once(&c_locale_once, c_locale_open);
	if (c_locale)
		return strtod_l(s, NULL, c_locale);
	return strtod(s, NULL);
}

static int blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* How many digits start p[0..n). */
static size_t digits(const unsigned char *p, size_t n)
{
	size_t k = 0;

	while (k < n && digit(p[k]))
		k++;
	return k;
}

int gh_number_parse(const unsigned char *p, size_t n, struct gh_number *out)
{
	while (n && blank(*p))
		p++, n--;
	while (n && blank(p[n - 1]))
		n--;

	size_t at = 0;
	int negative = 0;

	if (at < n && (p[at] == '+' || p[at] == '-'))
		negative = p[at++] == '-';
	size_t int_start = at, int_len = digits(p + at, n - at);
	size_t frac_len = 0;
	int point = 0, exponent = 0;

	at += int_len;
	if (at < n && p[at] == '.') {
		point = 1;
		at++;
		frac_len = digits(p + at, n - at);
		at += frac_len;
	}
	if (int_len + frac_len == 0)
		return 0;
	if (at < n && (p[at] == 'e' || p[at] == 'E')) {
		exponent = 1;
		at++;
		if (at < n && (p[at] == '+' || p[at] == '-'))
			at++;
		size_t exp_len = digits(p + at, n - at);

		if (!exp_len)
			return 0;
		at += exp_len;
	}
	if (at != n)
		return 0;

	if (!point && !exponent) {
		/* Leading zeros do not count against the 18 digits. */
		size_t k = int_start, end = int_start + int_len;

		while (k + 1 < end && p[k] == '0')
			k++;
		if (end - k <= INT_DIGITS) {
			int64_t v = 0;

			for (; k < end; k++)
				v = v * 10 + (p[k] - '0');
			out->is_int = 1;
			out->i = negative ? -v : v;
			out->d = (double)out->i;
			return 1;
		}
	}

	char small[SHORT_TEXT], *text = small;

	if (n >= sizeof(small)) {
		text = malloc(n + 1);
		if (!text)
			return 0;
	}
	memcpy(text, p, n);
	text[n] = '\0';
	double d = c_strtod(text);

	if (text != small)
		free(text);
	if (!isfinite(d))
		return 0;
	out->is_int = 0;
	out->i = 0;
	out->d = d;
	return 1;
}

void gh_number_format(double d, char *out, size_t len)
{
	pthread_once(&c_locale_once, c_locale_open);
	locale_t was = c_locale ? uselocale(c_locale) : (locale_t)0;

	if (d == 0) {
		snprintf(out, len, "0");
	} else if (d == trunc(d) && fabs(d) < 1e17) {
		snprintf(out, len, "%.0f", d);   /* 1500, not 1.5e+03 */
	} else {
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(out, len, "%.*g", digits, d);
			if (c_strtod(out) == d)
				break;
		}
	}
	if (was)
		uselocale(was);
}

void gh_number_format_long(long double d, char *out, size_t len)
{
	pthread_once(&c_locale_once, c_locale_open);
	locale_t was = c_locale ? uselocale(c_locale) : (locale_t)0;

	snprintf(out, len, "%.21Lg", d);
	if (was)
		uselocale(was);
}

int gh_number_parse_long(const char *text, long double *out)
{
	struct gh_number x;
	size_t n = strlen(text);

	/* The grammar, and a double's range or a long double's past it. */
	if (!gh_number_parse((const unsigned char *)text, n, &x)) {
		pthread_once(&c_locale_once, c_locale_open);
		char *end;
		long double d = c_locale ? strtold_l(text, &end, c_locale)
				: strtold(text, &end);

		if (end == text || *end || !isfinite(d) ||
		    strspn(text, "+-.0123456789eE") != n)
			return 0;
		*out = d;
		return 1;
	}
	*out = x.is_int ? (long double)x.i : (long double)x.d;
	return 1;
}

void gpuhist_values_text(double d, char *out, size_t len)
{
	gh_number_format(d, out, len);
}
