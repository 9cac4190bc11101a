/* version.h - what --version prints */
#ifndef GH_VERSION_H
#define GH_VERSION_H

/* The version; with verbose also CUDA's versions and the devices seen. */
void gh_print_version(int verbose);

#ifdef HAVE_CUDA
/* Lines about the CUDA runtime and driver (when there is one) and each of
 * the n usable devices (backend_gpu.c). */
void gh_gpu_print_versions(int n);
#endif

#endif
