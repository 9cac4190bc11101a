/* mpi_run.h - gpuhist as one rank of `mpirun -np N gpuhist ...` */
#ifndef GH_MPI_RUN_H
#define GH_MPI_RUN_H

#include <stdbool.h>

#include "config.h"
#include "options.h"

#ifdef HAVE_MPI
/* Whether an MPI launcher (mpirun, mpiexec, srun) started this process. */
bool gh_mpi_launched(void);

/* gh_options_parse(), printing help, version and usage errors on the
 * first rank only, so that N ranks do not say them N times. */
enum gh_parse_result gh_mpi_parse_options(int argc, char **argv,
					  struct gh_options *opts);

/* The whole run as one rank: shares the operands out, counts this rank's
 * share, and reduces the totals into rank 0, which reports them.  Returns
 * the exit status, the same on every rank. */
int gh_mpi_main(struct gh_options *opts);
#else
static inline bool gh_mpi_launched(void)
{
	return false;
}

static inline enum gh_parse_result
gh_mpi_parse_options(int argc, char **argv, struct gh_options *opts)
{
	return gh_options_parse(argc, argv, opts);
}

static inline int gh_mpi_main(struct gh_options *opts)
{
	(void)opts;
	return 1;
}
#endif

#endif
