/* stats.c - ent's figures (the library's gpuhist_ent_of) as ent prints
 * them: its report, its -t row, and json
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "fields.h"
#include "stats.h"

void gh_stats_put_table(FILE *out, const struct gpuhist_ent *st)
{
	fprintf(out, "\nEntropy = %f bits per byte.\n", st->entropy);
	fprintf(out, "\nOptimum compression would reduce the size\n");
	fprintf(out, "of this %" PRIu64 " byte file by %d percent.\n\n",
		st->bytes, st->compression);
	fprintf(out, "Chi square distribution for %" PRIu64
		" samples is %1.2f, and randomly\n", st->bytes, st->chi_square);
	if (st->chi_square_p < 0.0001)
		fprintf(out, "would exceed this value less than 0.01 percent of the times.\n\n");
	else if (st->chi_square_p > 0.9999)
		/* sic: ent's words */
		fprintf(out, "would exceed this value more than than 99.99 percent of the times.\n\n");
	else
		fprintf(out, "would exceed this value %1.2f percent of the times.\n\n",
			st->chi_square_p * 100);
	fprintf(out, "Arithmetic mean value of data bytes is %1.4f (127.5 = random).\n",
		st->mean);
	if (!st->stream) {
		fprintf(out, "Monte Carlo value for Pi is not known (no stream sums in the merged results).\n");
		fprintf(out, "Serial correlation coefficient is not known (no stream sums in the merged results).\n");
		return;
	}
	fprintf(out, "Monte Carlo value for Pi is %1.9f (error %1.2f percent).\n",
		st->pi, st->pi_error);
	if (st->serial_defined)
		fprintf(out, "Serial correlation coefficient is %1.6f (totally uncorrelated = 0.0).\n",
			st->serial);
	else
		fprintf(out, "Serial correlation coefficient is undefined (all values equal!).\n");
}

void gh_stats_put_head(FILE *out, char sep)
{
	fprintf(out, "input%cFile-bytes%cEntropy%cChi-square%cMean%c"
		"Monte-Carlo-Pi%cSerial-Correlation\n", sep, sep, sep, sep,
		sep, sep);
}

void gh_stats_put_row(FILE *out, char sep, const char *name,
		      const struct gpuhist_ent *st)
{
	if (sep == ',')
		gh_put_csv(out, name);
	else
		gh_put_tsv(out, name);
	fprintf(out, "%c%" PRIu64 "%c%f%c%f%c%f%c", sep, st->bytes, sep,
		st->entropy, sep, st->chi_square, sep, st->mean, sep);
	/* Not known: an empty field.  ent -t's own sentinel otherwise. */
	if (st->stream)
		fprintf(out, "%f%c%f", st->pi, sep,
			st->serial_defined ? st->serial : -100000.0);
	else
		fputc(sep, out);
	fputc('\n', out);
}

/* A figure, or null where it is not a number. */
static void put_number(FILE *out, const char *key, double v, const char *fmt)
{
	fprintf(out, ", \"%s\": ", key);
	if (isfinite(v))
		fprintf(out, fmt, v);
	else
		fputs("null", out);
}

void gh_stats_put_json(FILE *out, const struct gpuhist_ent *st)
{
	fprintf(out, ",\n   \"stats\": {\"entropy\": %.6f", st->entropy);
	put_number(out, "chi_square", st->chi_square, "%.6f");
	put_number(out, "chi_square_p", st->chi_square_p * 100, "%.6f");
	put_number(out, "mean", st->mean, "%.6f");
	if (st->stream) {
		put_number(out, "pi", st->pi, "%.9f");
		put_number(out, "pi_error", st->pi_error, "%.6f");
		put_number(out, "serial_correlation",
			   st->serial_defined ? st->serial : NAN, "%.6f");
		fprintf(out, ", \"pairs\": %" PRIu64 ", \"groups\": %" PRIu64
			", \"hits\": %" PRIu64, st->sums.pairs,
			st->sums.groups, st->sums.hits);
	} else {
		fputs(", \"pi\": null, \"pi_error\": null, "
		      "\"serial_correlation\": null", out);
	}
	fputc('}', out);
}
