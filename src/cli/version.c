/* version.c - what --version prints */
#include "config.h"

#include <stdio.h>

#include "charview.h"
#include "gpuhist.h"
#include "version.h"

void gh_print_version(int verbose)
{
	char why[256], cuda[4096], decoders[256];
	int n;

	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	if (!verbose)
		return;
	n = gpuhist_gpu_count(why, sizeof(why));
	gpuhist_gpu_describe(cuda, sizeof(cuda));
	fputs(cuda, stdout);
	if (!n)         /* as --backend=gpu says it */
		printf("GPU backend unusable: %s\n", why);
	gpuhist_decoders(decoders, sizeof(decoders));
	printf("decodes: %s\n", decoders);
	gh_charview_describe(decoders, sizeof(decoders));
	printf("code points (-m): %s\n", decoders);
#ifdef HAVE_MPI
	printf("mpirun mode: yes (built with MPI)\n");
#else
	printf("mpirun mode: no (built without MPI)\n");
#endif
}
