/* ent.c - ent's figures, from the byte totals and the stream sums
 *
 * Each figure is computed as ent(1) computes it (John Walker's ent, 1.2),
 * in doubles, in the same order, so that it prints the same digits: the
 * entropy as sum p log2(1/p) (ent's log2), chi-square as sum (count - n/256)^2 /
 * (n/256) over the 256 values in order, the serial correlation as
 * (n s1 - s2^2) / (n s3 - s2^2) with s1 the sum of products of successive
 * bytes (the last one's successor the first), s2 the bytes' sum and s3
 * that of their squares.  Sums that ent adds up one byte at a time are
 * exact integers here (they are exact in ent's doubles too until 2^53).
 * An input with no bytes gives NaN where ent's divisions by zero do.
 * The command prints these (cli/stats.c), and so does the Python module.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "gpuhist.h"

#define PI_VALUE 3.14159265358979323846
/* ent's log2: log10 scaled, which is not always log2's last bit (a
 * uniform 16 values must give its 3.9999... and so its 50 percent). */
#define LOG2_OF_10 3.32192809488736234787

static double chi_square_p(double x, int df);

void gpuhist_ent_of_size(const uint64_t totals[256],
			 const struct gpuhist_stream *s,
			 struct gpuhist_ent *ent, size_t struct_size)
{
	struct gpuhist_ent f = { 0 }, *st = &f;
	uint64_t n = 0;
	double total, expect, chi = 0.0, entropy = 0.0, sum = 0.0, squares = 0.0;

	/* In doubles, as ent: exact below 2^53, and no wrap past 2^64. */
	for (int v = 0; v < 256; v++) {
		n += totals[v];
		sum += (double)v * (double)totals[v];
		squares += (double)v * v * (double)totals[v];
	}
	total = (double)n;
	expect = total / 256.0;
	for (int v = 0; v < 256; v++) {
		double a = (double)totals[v] - expect;
		double p = (double)totals[v] / total;

		chi += a * a / expect;
		if (p > 0.0)
			entropy += p * (LOG2_OF_10 * log10(1.0 / p));
	}
	st->bytes = n;
	st->entropy = entropy;
	st->compression = (short)(100 * (8 - entropy) / 8.0);
	st->chi_square = chi;
	st->chi_square_p = chi_square_p(chi, 255);
	st->mean = sum / total;
	st->stream = s != NULL;
	st->sums = s ? *s : (struct gpuhist_stream){ 0, 0, 0 };
	st->pi = 4.0 * ((double)st->sums.hits / (double)st->sums.groups);
	st->pi_error = 100.0 * (fabs(PI_VALUE - st->pi) / PI_VALUE);
	double s2 = sum * sum;
	double spread = total * squares - s2;

	st->serial_defined = spread != 0.0;
	st->serial = st->serial_defined
		     ? (total * (double)st->sums.pairs - s2) / spread : 0.0;
	memcpy(ent, &f, struct_size < sizeof(f) ? struct_size : sizeof(f));
}

/*
 * Q(df / 2, x / 2), the upper tail, as the finite series it is for whole
 * and half-whole shapes: a leading term (e^-a for even df, erfc(sqrt a)
 * for odd) and the terms a^z e^-a / Gamma(z + 1), z = 1, 2, ... (or 1/2,
 * 3/2, ...) up to (df - 1) / 2.  Once a = x / 2 passes 20, ent (Hill and
 * Pike's algorithm 299) drops each term below e^-20, the leading one too;
 * so does this, or its printed percentage would differ in the last place
 * now and then.
 */
static double chi_square_p(double x, int df)
{
	if (isnan(x))
		return NAN;
	if (x <= 0.0 || df < 1)
		return 1.0;
	double a = x / 2, log_a = log(a), sum;
	bool even = df % 2 == 0, big = a > 20.0;
	double z = even ? 1.0 : 0.5;
	double log_gamma = even ? 0.0 : 0.5 * log(PI_VALUE);    /* of z */

	if (big)
		sum = 0.0;      /* e^-a, erfc(sqrt a): both below e^-20 */
	else
		sum = even ? exp(-a) : erfc(sqrt(a));
	for (; z <= 0.5 * (df - 1); z += 1.0) {
		log_gamma += log(z);    /* now of z + 1 */
		double t = z * log_a - a - log_gamma;

		if (!big || t >= -20.0)
			sum += exp(t);
	}
	return sum;
}

