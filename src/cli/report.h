/* report.h - printing results: table, tsv, csv or json, one block an input */
#ifndef GH_REPORT_H
#define GH_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "view.h"

struct gh_report {
	FILE *out;
	enum gh_format format;
	const struct gh_view *view;
	int several;                /* more than one operand: print a total */
	int n_printed;
	uint64_t total[256];
};

void gh_report_begin(struct gh_report *rep, FILE *out,
		     const struct gh_options *opts, const struct gh_view *view);
/* One input's 256 exact totals; also added into the total. */
void gh_report_input(struct gh_report *rep, const char *name,
		     const uint64_t totals[256]);
/* An input that failed, with the lines printed for it ("gpuhist: NAME:
 * reason"; NULL when there were none): json gives it an entry with its
 * "error" and no counts; the other formats show nothing of it. */
void gh_report_failed(struct gh_report *rep, const char *name,
		      const char *lines);
/* The total block (when there were several operands, or always in json). */
void gh_report_end(struct gh_report *rep);

/* Shannon entropy of a byte distribution, in bits per byte. */
double gh_entropy(const uint64_t totals[256]);

#endif
