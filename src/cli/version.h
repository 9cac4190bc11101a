/* version.h - what --version prints */
#ifndef GH_VERSION_H
#define GH_VERSION_H

/* The version; with verbose also CUDA's versions, the devices seen and
 * what this build can do. */
void gh_print_version(int verbose);

#endif
