/* version.c - what --version prints */
#include <stdio.h>

#include "config.h"
#include "version.h"

void gh_print_version(int verbose)
{
	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	if (!verbose)
		return;
#ifdef HAVE_CUDA
	gh_gpu_print_versions();
#else
	printf("built without CUDA: counting on the CPU only\n");
#endif
#ifdef HAVE_MPI
	printf("mpirun mode: yes (built with MPI)\n");
#else
	printf("mpirun mode: no (built without MPI)\n");
#endif
}
