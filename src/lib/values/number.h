/* number.h - is a field a number, and which: the values view's parser */
#ifndef GH_NUMBER_H
#define GH_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* A number as a field wrote it. */
struct gh_number {
	double d;           /* its value, correctly rounded to a double */
	int is_int;         /* an integer of at most 18 digits: i is exact */
	int64_t i;
};

/* 1 when bytes p[0..n) are a number, with *out its value; 0 when not.  A
 * number is an optional sign, digits with an optional decimal point (at
 * least one digit, before or after it), and an optional exponent (e or E,
 * an optional sign, digits): 42, -7, +3.25, .5, 5., 1.5e3, 2E-9.  Spaces,
 * tabs and a carriage return may stand around it.  Anything else (an
 * empty field, "inf", "nan", 0x10, 1,234, 12ms) is not a number, and so is
 * one past a double's range (1e999).  In the C locale whatever the
 * program's. */
int gh_number_parse(const unsigned char *p, size_t n, struct gh_number *out);

/* The shortest text that reads back as d (%.Ng, N at most 17), in the C
 * locale, into out (at least 32 bytes). */
void gh_number_format(double d, char *out, size_t len);

/* The same for a long double (a sum past a double's range), as %.21Lg
 * where the shortest double's text would not read back. */
void gh_number_format_long(long double d, char *out, size_t len);
/* 1 when text (NUL-terminated) is a number by the same grammar, *out its
 * value as a long double (of a sum, whose range may pass a double's). */
int gh_number_parse_long(const char *text, long double *out);

#endif
