/* mpi_run.h - gpuhist as one rank of `mpirun -np N gpuhist ...` */
#ifndef GH_MPI_RUN_H
#define GH_MPI_RUN_H

#include <stdbool.h>

#include "options.h"

/* Whether an MPI launcher (mpirun, mpiexec, srun) started this process;
 * always false in a build without MPI. */
bool gh_mpi_launched(void);

/* Whether this is the first rank (or no launcher's rank is known). */
bool gh_mpi_first_rank(void);

/* A rank other than the first that refuses the command line: mpirun ends
 * the whole job as soon as a rank exits with an error, and the first
 * rank's message could be lost with it (2 runs in 40), so it waits a
 * moment before leaving. */
void gh_mpi_refused(void);

/* The whole run as one rank: shares the operands out, counts this rank's
 * share, and reduces the totals into rank 0, which reports them.  Returns
 * the exit status, the same on every rank. */
int gh_mpi_main(struct gh_options *opts);

#endif
