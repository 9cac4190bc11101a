/* version.c - what --version prints */
#include <stdio.h>

#include "backend.h"
#include "config.h"
#include "version.h"

void gh_print_version(int verbose)
{
	char why[256];
	int n;

	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	if (!verbose)
		return;
	n = gh_gpu_device_count(why, sizeof(why));
#ifdef HAVE_CUDA
	gh_gpu_print_versions(n);
#endif
	if (!n)         /* as --backend=gpu says it */
		printf("GPU backend unusable: %s\n", why);
#ifdef HAVE_MPI
	printf("mpirun mode: yes (built with MPI)\n");
#else
	printf("mpirun mode: no (built without MPI)\n");
#endif
}
