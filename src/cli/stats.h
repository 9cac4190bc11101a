/* stats.h - ent's figures, from the byte totals and the stream sums */
#ifndef GH_STATS_H
#define GH_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuhist.h"

/* ent(1)'s figures for one input, or for a total (its inputs' sums). */
struct gh_stats {
	uint64_t bytes;
	double entropy;         /* bits per byte */
	int compression;        /* optimum compression, percent */
	double chi_square;      /* 255 degrees of freedom */
	double chi_square_p;    /* probability of exceeding it, 0..1 */
	double mean;
	bool stream;            /* pi and serial correlation known (the sums
				 * were counted) */
	double pi, pi_error;    /* pi_error in percent */
	bool serial_defined;    /* false when every byte is equal */
	double serial;          /* serial correlation coefficient */
	struct gpuhist_stream sums;
};

/* Figures of totals with the stream sums s (NULL: not known).  As ent
 * computes them, so that they print the same: NaN where ent's are (no
 * bytes; pi with no group). */
void gh_stats_of(const uint64_t totals[256], const struct gpuhist_stream *s,
		 struct gh_stats *st);

/* The probability that a chi-square variate of df degrees of freedom
 * exceeds x. */
double gh_chi_square_p(double x, int df);

/* ent's report, line for line, after a blank line. */
void gh_stats_put_table(FILE *out, const struct gh_stats *st);
/* One tsv or csv row of ent -t's fields, name first: sep ',' or '\t'. */
void gh_stats_put_head(FILE *out, char sep);
void gh_stats_put_row(FILE *out, char sep, const char *name,
		      const struct gh_stats *st);
/* ",\n   \"stats\": {...}" for a json entry: the figures, and the sums
 * they come from when known. */
void gh_stats_put_json(FILE *out, const struct gh_stats *st);

#endif
